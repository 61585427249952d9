/* energyest: energy per operation estimated from a datasheet's run current (the table of the run's flash configuration), the clock and a row's cycles: the energy without a sensor, a check beside it with one. */
#ifndef HIL_ENERGYEST_H
#define HIL_ENERGYEST_H

#include <stddef.h>
#include <stdint.h>

#include "drivers/board/idd.h"
#include "result/estimate.h"

struct hil_run;

/* The flash configuration an estimate is wanted for. */
struct hil_idd_want {
	double vdd;   /* the board's supply */
	int art;      /* caches on */
	int prefetch; /* prefetch on */
};

/**
 * The run-current table of the chip a board is or stands in for, at the
 * flash configuration its target code sets at its default clock.
 * @param board config board name ("nucleo-f401re", "qemu-netduino", ...)
 * @return the table (static, never freed), or NULL: no datasheet for it.
 */
const struct hil_idd_table *hil_energyest_table(const char *board);

/**
 * The table among a board's (NULL-terminated list) measured at supply
 * w->vdd with the flash configuration of w, code from flash.
 * @param why receives the reason when none matches (may be NULL)
 * @return the table, or NULL.
 */
const struct hil_idd_table *
hil_energyest_pick(const struct hil_idd_table *const *tables,
		   const struct hil_idd_want *w, char *why, size_t whylen);

/**
 * The flash configuration of a run: for a board, what its FLASH_ACR says
 * (INFO), for the emulated board the cycle model's profile (or the board's
 * clock profile when the model is off). Supply: the board's.
 */
void hil_energyest_want(const struct hil_run *run, struct hil_idd_want *w);

/**
 * Typical run current at hz, linear in frequency between the two nearest
 * datasheet points; a clock outside the table (or a table without points)
 * is refused, never extrapolated.
 * @param why receives the reason when refused (may be NULL)
 * @return HIL_OK, or HIL_ERR_NA (refused: *ma untouched).
 */
int hil_energyest_idd(const struct hil_idd_table *t, uint32_t hz, double *ma,
		      char *why, size_t whylen);

/** Column of hil_energyest_idd(): which figure of a point. */
enum hil_idd_col {
	HIL_IDD_TYP,	  /* typical, peripherals disabled */
	HIL_IDD_ON_MAX25, /* maximum at 25 C, all peripherals enabled */
};

/** hil_energyest_idd() on another column (0 where the table has none). */
int hil_energyest_idd_col(const struct hil_idd_table *t, uint32_t hz,
			  enum hil_idd_col col, double *ma, char *why,
			  size_t whylen);

/**
 * E = vdd x I_DD(clock_hz) x cycles / clock_hz, in microjoules.
 * @param out filled in either case; out->ok says whether there is a figure
 * @return HIL_OK, or HIL_ERR_NA with out->why (clock outside the table, no
 *         cycles, no clock).
 */
int hil_energyest_compute(const struct hil_idd_table *t, uint32_t clock_hz,
			  double cycles, struct hil_energy_est *out);

/**
 * Give every row of a run an estimate: cycles per operation from the
 * counter when it counts a board's cycles (DWT), else the cycle model's
 * estimate; never instructions. The table is the board's for the flash
 * configuration the run had (hil_energyest_want()). Fills run->energy_est
 * (source, table and assumptions, or why nothing could be estimated) and
 * each row's est. Without a sensor the estimate is the row's energy
 * (energy_est.applies); with one it stands beside the sensor's figure
 * (energy_est.beside), which it never replaces.
 */
void hil_energyest_apply(struct hil_run *run);

/**
 * hil_energyest_apply() with table t instead of the board's (NULL: the
 * board has none). For tests, and for a board whose table is known apart.
 */
void hil_energyest_apply_table(struct hil_run *run,
			       const struct hil_idd_table *t);

/** hil_energyest_apply_table(), with none as the reason when t is NULL. */
void hil_energyest_apply_why(struct hil_run *run, const struct hil_idd_table *t,
			     const char *none);

/** 1 if the table has a point at exactly hz (no interpolation). */
int hil_energyest_tabulated(const struct hil_idd_table *t, uint32_t hz);

#endif /* HIL_ENERGYEST_H */
