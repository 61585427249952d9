/* estimate: what a row's energy estimate from a datasheet came to (run/energyest.c computes it, report.json states it). */
#ifndef HIL_ESTIMATE_H
#define HIL_ESTIMATE_H

#include <stdint.h>

/* What the estimate of one row came to. */
struct hil_energy_est {
	int ok;		  /* 1: uj_per_op holds an estimate */
	double uj_per_op; /* vdd x idd x t_op */
	double idd_ma;	  /* interpolated at clock_hz */
	/* The datasheet's spread at that clock: typical with all
	 * peripherals disabled (the estimate: no lower figure is given) to
	 * the maximum at 25 C with all peripherals enabled. */
	double uj_lo, uj_hi;
	double idd_lo_ma, idd_hi_ma;
	double vdd;
	uint32_t clock_hz;
	double cycles;	   /* per operation */
	double op_seconds; /* cycles / clock_hz */
	char why[256];	   /* when not ok */
};

#endif /* HIL_ESTIMATE_H */
