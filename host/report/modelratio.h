/* modelratio: a sweep's real-board cycles next to the Cortex-M4 model's estimate for the same rows, with their ratio. */
#ifndef HIL_MODELRATIO_H
#define HIL_MODELRATIO_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "result/run.h"

/**
 * For every pair of runs in a sweep where one ran on a real board (its
 * flasher is neither "qemu" nor "native") and the other on the emulated
 * board with the cycle model loaded at the same flash profile (wait
 * states, and the ART when there are wait states; the board's profile is
 * its config's cycle_model section, which defaults to its clock's), print
 * a Markdown table: per row the board's median (counter cycles, overhead
 * subtracted), the model's median estimate (model overhead subtracted)
 * and measured / estimated. A row missing or failed on one side shows
 * "-" or "failed" there and no ratio. Nothing is printed when the sweep
 * has no such pair.
 * @param cfgs the sweep's n configurations, runs their n runs (same order).
 * @return the number of tables printed.
 */
size_t hil_model_ratio_write(const struct hil_config *cfgs,
			     const struct hil_run *runs, size_t n, FILE *out);

#endif /* HIL_MODELRATIO_H */
