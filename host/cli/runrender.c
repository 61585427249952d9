/* runrender: a run's or a sweep's tables, plots and pages, rendered by the commands from the report.json files once the run has returned. */
#define HIL_LOG_PREFIX "runner"
#include "runrender.h"

#include "report/render.h"
#include "result/run.h"
#include "run/sweep.h"
#include "util/err.h"
#include "util/log.h"

/* Tables, plots and the HTML page of one run, from its report.json. */
static int render_run_dir(const char *dir)
{
	int ret = hil_report_render_all(dir);

	if (ret != HIL_OK) {
		hil_warn(
			"the report's tables and plots could not be rendered; report.json is complete");
	}
	return ret;
}

int hil_cli_render_run(const struct hil_run *run)
{
	if (!run->reported || run->dir[0] == '\0') {
		return HIL_OK;
	}
	return render_run_dir(run->dir);
}

int hil_cli_render_sweep(const struct hil_sweep_done *done, FILE *out)
{
	const char *dirs[HIL_SWEEP_MAX];
	size_t i, n = 0;

	for (i = 0; i < done->n && i < HIL_SWEEP_MAX; i++) {
		if (done->reported[i] && done->run_dir[i][0] != '\0') {
			(void)render_run_dir(done->run_dir[i]);
		}
		if (done->compared[i]) {
			dirs[n++] = done->run_dir[i];
		}
	}
	if (done->dir[0] == '\0' || n == 0) {
		return HIL_OK;
	}
	/* One group of bars per metric, a bar per config. */
	if (hil_report_render_sweep(dirs, n, done->dir) != HIL_OK) {
		hil_log(HIL_LOG_WARN, "sweep",
			"no sweep plot: the reports could not be read back");
		return HIL_ERR_IO;
	}
	fprintf(out, "sweep page: %s/sweep.html\n", done->dir);
	return HIL_OK;
}
