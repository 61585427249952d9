/* sweep_int: what the sweep's loader, runner and writers share (not a public API). */
#ifndef HIL_SWEEP_INT_H
#define HIL_SWEEP_INT_H

#include <stdio.h>

#include "sweep.h"

/* Why a configuration did not run: a lock holder's message, or less. */
#define HIL_SWEEP_WHY_MAX 1024

/**
 * What sweep.md says after the figures (report/md_sweep.c writes those,
 * from the reports): the configurations not run (why[r] not empty) and,
 * for a board run beside a model run of its profile, their ratio per row.
 */
void hil_sweep_write_tables(const struct hil_sweep *sw,
			    const struct hil_run *runs,
			    char (*why)[HIL_SWEEP_WHY_MAX], FILE *out);

/**
 * sweep.md's energy table: per series at 64 B (or the longest length),
 * each configuration's cycles and energy per operation (the datasheet
 * estimate, labelled, or the sensor's figure) and which costs fewer uJ;
 * an estimate is never judged against a measurement. Nothing when no run
 * has an energy figure.
 */
void hil_sweep_write_energy(const struct hil_sweep *sw,
			    const struct hil_run *runs, FILE *out);

/**
 * sweep.json: each configuration's name, flags, run folder, status, build
 * id, error and board lock. @return malloc'd text, or NULL (no memory).
 */
char *hil_sweep_json(const struct hil_sweep *sw, const struct hil_run *runs,
		     const int *rets, char (*why)[HIL_SWEEP_WHY_MAX]);

#endif /* HIL_SWEEP_INT_H */
