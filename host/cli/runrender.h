/* runrender: a run's tables, plots and page, rendered by the commands from its report.json once the run has returned (runs measure, they do not render). */
#ifndef HIL_RUNRENDER_H
#define HIL_RUNRENDER_H

#include <stdio.h>

struct hil_run;
struct hil_sweep_done;

/**
 * Render summary.md, summary.csv, the plots and report.html of a run that
 * wrote its report.json (run->reported); nothing for one that did not.
 * A failure is logged as a warning: report.json stays complete.
 * @return HIL_OK, or the renderer's error (logged).
 */
int hil_cli_render_run(const struct hil_run *run);

/**
 * After hil_sweep_run: sweep.md (the tables from the runs' reports, then
 * the sweep's own, done->tables, which it frees), printed to out with
 * "sweep summary: <dir>/sweep.md"; each run's tables and page (those that
 * wrote their report.json); then the sweep's plot and sweep.html from the
 * runs it compares, and "sweep page: <dir>/sweep.html" on out.
 * @return HIL_OK, or HIL_ERR_IO when the sweep's page could not be made
 *         (logged).
 */
int hil_cli_render_sweep(struct hil_sweep_done *done, FILE *out);

#endif /* HIL_RUNRENDER_H */
