/* energyest: energy per operation estimated from a datasheet's run current, the clock and a row's cycles, when no sensor measured it. */
#ifndef HIL_ENERGYEST_H
#define HIL_ENERGYEST_H

#include <stddef.h>
#include <stdint.h>

struct hil_run;

/* One point of a datasheet's typical run-current table. */
struct hil_idd_point {
	uint32_t hz; /* f_HCLK */
	double ma;   /* typical I_DD at that clock */
};

/* A chip's run current against its clock, as one datasheet table gives it. */
struct hil_idd_table {
	const char *chip;	/* "STM32F401xD/xE" */
	const char *source;	/* document, revision, table, row, column */
	const char *conditions; /* what the row assumes (code from flash, ...) */
	double vdd;		/* the supply the estimate assumes, V */
	const struct hil_idd_point *pts; /* ascending hz; n may be 0 */
	size_t n;
	const char *missing; /* when n is 0: why there are no figures */
};

/* What the estimate of one row came to. */
struct hil_energy_est {
	int ok;		  /* 1: uj_per_op holds an estimate */
	double uj_per_op; /* vdd x idd x t_op */
	double idd_ma;	  /* interpolated at clock_hz */
	double vdd;
	uint32_t clock_hz;
	double cycles;	   /* per operation */
	double op_seconds; /* cycles / clock_hz */
	char why[256];	   /* when not ok */
};

/**
 * The run-current table of the chip a board is or stands in for.
 * @param board config board name ("nucleo-f401re", "qemu-netduino", ...)
 * @return the table (static, never freed), or NULL: no datasheet for it.
 */
const struct hil_idd_table *hil_energyest_table(const char *board);

/**
 * Typical run current at hz, linear in frequency between the two nearest
 * datasheet points; a clock outside the table (or a table without points)
 * is refused, never extrapolated.
 * @param why receives the reason when refused (may be NULL)
 * @return HIL_OK, or HIL_ERR_NA (refused: *ma untouched).
 */
int hil_energyest_idd(const struct hil_idd_table *t, uint32_t hz, double *ma,
		      char *why, size_t whylen);

/**
 * E = vdd x I_DD(clock_hz) x cycles / clock_hz, in microjoules.
 * @param out filled in either case; out->ok says whether there is a figure
 * @return HIL_OK, or HIL_ERR_NA with out->why (clock outside the table, no
 *         cycles, no clock).
 */
int hil_energyest_compute(const struct hil_idd_table *t, uint32_t clock_hz,
			  double cycles, struct hil_energy_est *out);

/**
 * Give every row of a run without a sensor's energy an estimate: cycles
 * per operation from the counter when it counts a board's cycles (DWT),
 * else the cycle model's estimate; never instructions. Fills run->energy_est
 * (source and assumptions, or why nothing could be estimated) and each
 * row's est. Rows whose energy the sensor measured (or tried to) keep that.
 */
void hil_energyest_apply(struct hil_run *run);

/**
 * hil_energyest_apply() with table t instead of the board's (NULL: the
 * board has none). For tests, and for a board whose table is known apart.
 */
void hil_energyest_apply_table(struct hil_run *run,
			       const struct hil_idd_table *t);

#endif /* HIL_ENERGYEST_H */
