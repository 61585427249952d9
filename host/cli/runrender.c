/* runrender: a run's or a sweep's tables, plots and pages, rendered by the commands from the report.json files once the run has returned. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#define HIL_LOG_PREFIX	"runner"
#include "runrender.h"

#include <stdlib.h>

#include "report/render.h"
#include "result/run.h"
#include "run/sweep.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

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

/*
 * sweep.md: the tables from the runs' reports (every figure of sweep.md,
 * the terminal and sweep.html comes from them alike), then the sweep's own;
 * written beside sweep.json and printed to out.
 */
static void sweep_md(const struct hil_sweep_done *done, const char *const *dirs,
		     size_t n, FILE *out)
{
	char path[HIL_PATH + 32];
	char *md = NULL;
	size_t md_len = 0;
	FILE *mf = open_memstream(&md, &md_len);

	if (mf == NULL) {
		return;
	}
	if (n > 0 && hil_report_sweep_md(dirs, n, done->name, mf) != HIL_OK) {
		fputs("(the reports could not be read back: no table)\n\n", mf);
	}
	if (done->tables != NULL) {
		fputs(done->tables, mf);
	}
	fclose(mf);
	snprintf(path, sizeof(path), "%s/sweep.md", done->dir);
	(void)hil_write_atomic(path, md, md_len);
	fputs(md, out);
	free(md);
}

int hil_cli_render_sweep(struct hil_sweep_done *done, FILE *out)
{
	const char *dirs[HIL_SWEEP_MAX];
	size_t i, n = 0;

	for (i = 0; i < done->n && i < HIL_SWEEP_MAX; i++) {
		if (done->compared[i]) {
			dirs[n++] = done->run_dir[i];
		}
	}
	if (done->dir[0] != '\0') {
		sweep_md(done, dirs, n, out);
		fprintf(out, "sweep summary: %s/sweep.md\n", done->dir);
	}
	free(done->tables);
	done->tables = NULL;
	for (i = 0; i < done->n && i < HIL_SWEEP_MAX; i++) {
		if (done->reported[i] && done->run_dir[i][0] != '\0') {
			(void)render_run_dir(done->run_dir[i]);
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
