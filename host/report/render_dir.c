/* render_dir: a run's folder or a sweep's rendered into its files (tables, plots, pages), each written atomically. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/jsonld.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* ---------------------------------------------------------------- writing */

static int render_sweep_dir(const char *dir);

typedef int (*render_fn)(const cJSON *report, FILE *out);

/* Render into memory, then write the file in one atomic step. */
static int render_file(const char *dir, const char *name, render_fn fn,
		       const cJSON *report)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		hil_err("%s/%s: path too long", dir, name);
		return HIL_ERR_ARG;
	}
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		hil_err("out of memory while rendering %s", path);
		return HIL_ERR_NOMEM;
	}
	ret = fn(report, f);
	if (fclose(f) != 0 && ret == HIL_OK) {
		ret = HIL_ERR_NOMEM;
	}
	if (ret != HIL_OK) {
		hil_err("cannot render %s: %s", path, hil_strerror(ret));
		free(buf);
		return ret;
	}
	ret = hil_write_atomic(path, buf, len);
	free(buf);
	return ret;
}

/* name appended to the list written (space-separated), when asked. */
static void note_written(char *written, size_t len, const char *name)
{
	size_t n;

	if (written == NULL || len == 0) {
		return;
	}
	n = strlen(written);
	snprintf(written + n, len - n, "%s%s", n > 0 ? " " : "", name);
}

int hil_report_render_all(const char *run_dir)
{
	return hil_report_render_files(run_dir, NULL, 0);
}

int hil_report_render_files(const char *run_dir, char *written, size_t wlen)
{
	static const struct {
		const char *name;
		render_fn fn;
	} files[] = {
		{"summary.md", hil_summary_md},
		{"summary.csv", hil_summary_csv},
		{"per_byte.svg", hil_svg_per_byte},
		{"sizes.svg", hil_svg_sizes},
		{"energy.svg", hil_svg_energy},
		{"report.html", hil_html_report},
	};
	char path[4096];
	char err[1024];
	cJSON *report = NULL;
	size_t i;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/report.json", run_dir) >=
	    sizeof(path)) {
		hil_err("%s: path too long", run_dir);
		return HIL_ERR_ARG;
	}
	if (written != NULL && wlen > 0) {
		written[0] = '\0';
	}
	if (hil_report_dir_is_sweep(run_dir)) {
		ret = render_sweep_dir(run_dir);
		if (ret == HIL_OK) {
			note_written(written, wlen, "sweep.svg");
			note_written(written, wlen, "sweep.html");
		}
		return ret;
	}
	ret = hil_report_load(path, &report, err, sizeof(err));
	if (ret != HIL_OK) {
		/* An unreadable file was logged with its errno by the reader. */
		if (ret != HIL_ERR_IO) {
			hil_err("%s", err);
		}
		return ret;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ret = render_file(run_dir, files[i].name, files[i].fn, report);
		if (ret != HIL_OK) {
			break;
		}
		note_written(written, wlen, files[i].name);
	}
	/* Post-quantum rows: also pqm4's tables, for the scripts that read
	 * them. */
	if (ret == HIL_OK && hil_rj_has_pq(report)) {
		ret = render_file(run_dir, "benchmarks.md", hil_pqm4_md,
				  report);
		if (ret == HIL_OK) {
			note_written(written, wlen, "benchmarks.md");
		}
	}
	if (ret == HIL_OK && hil_rj_has_pq(report)) {
		ret = render_file(run_dir, "benchmarks.csv", hil_pqm4_csv,
				  report);
		if (ret == HIL_OK) {
			note_written(written, wlen, "benchmarks.csv");
		}
	}
	cJSON_Delete(report);
	return ret;
}

/* A sweep's rendered file: fn(reports, n, sweep) into out_dir/name. */
static int render_sweep_file(const char *out_dir, const char *name,
			     cJSON *const *reports, size_t n,
			     const cJSON *sweep)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", out_dir, name) >=
	    sizeof(path)) {
		hil_err("%s/%s: path too long", out_dir, name);
		return HIL_ERR_ARG;
	}
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (strcmp(name, "sweep.svg") == 0) {
		ret = hil_svg_sweep((const cJSON *const *)reports, n, f);
	} else {
		ret = hil_html_sweep((const cJSON *const *)reports, n, sweep,
				     f);
	}
	if (fclose(f) != 0 && ret == HIL_OK) {
		ret = HIL_ERR_NOMEM;
	}
	if (ret == HIL_OK) {
		ret = hil_write_atomic(path, buf, len);
	} else {
		hil_err("cannot render %s: %s", path, hil_strerror(ret));
	}
	free(buf);
	return ret;
}

/* out_dir/sweep.json, or NULL when there is none (or it is not a JSON
 * object): read by the one JSON loader (a regular file, bounded). */
static cJSON *sweep_json_load(const char *out_dir)
{
	struct hil_jsonld ld;
	char path[4096], err[256];
	cJSON *j = NULL;

	snprintf(path, sizeof(path), "%s/sweep.json", out_dir);
	if (access(path, F_OK) != 0) {
		return NULL;
	}
	hil_jsonld_init(&ld, err, sizeof(err));
	ld.kind = "a sweep's record";
	if (hil_jsonld_load(&ld, path, &j) != HIL_OK) {
		hil_dbg("%s", err);
	}
	hil_jsonld_done(&ld);
	return j;
}

int hil_report_render_sweep(const char *const *run_dirs, size_t n,
			    const char *out_dir)
{
	cJSON **reports, *sweep;
	char path[4096];
	char err[1024];
	size_t i;
	int ret = HIL_OK;

	if (n == 0) {
		hil_err("a sweep plot needs at least one report");
		return HIL_ERR_ARG;
	}
	reports = calloc(n, sizeof(*reports));
	if (reports == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n && ret == HIL_OK; i++) {
		snprintf(path, sizeof(path), "%s/report.json", run_dirs[i]);
		ret = hil_report_load(path, &reports[i], err, sizeof(err));
		if (ret != HIL_OK && ret != HIL_ERR_IO) {
			hil_err("%s", err);
		}
	}
	if (ret != HIL_OK) {
		goto out;
	}
	sweep = sweep_json_load(out_dir);
	ret = render_sweep_file(out_dir, "sweep.svg", reports, n, sweep);
	if (ret == HIL_OK) {
		ret = render_sweep_file(out_dir, "sweep.html", reports, n,
					sweep);
	}
	cJSON_Delete(sweep);
out:
	for (i = 0; i < n; i++) {
		cJSON_Delete(reports[i]);
	}
	free(reports);
	return ret;
}

int hil_report_sweep_md(const char *const *run_dirs, size_t n, const char *name,
			FILE *out)
{
	cJSON **reports;
	char path[4096];
	char err[1024];
	size_t i;
	int ret = HIL_OK;

	if (n == 0) {
		return HIL_ERR_ARG;
	}
	reports = calloc(n, sizeof(*reports));
	if (reports == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n && ret == HIL_OK; i++) {
		snprintf(path, sizeof(path), "%s/report.json", run_dirs[i]);
		ret = hil_report_load(path, &reports[i], err, sizeof(err));
		if (ret != HIL_OK) {
			hil_err("%s", err);
		}
	}
	if (ret == HIL_OK) {
		ret = hil_md_sweep((const cJSON *const *)reports, n, name, out);
	}
	for (i = 0; i < n; i++) {
		cJSON_Delete(reports[i]);
	}
	free(reports);
	return ret;
}

int hil_report_dir_is_sweep(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/report.json", dir);
	if (access(path, F_OK) == 0) {
		return 0;
	}
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	return access(path, F_OK) == 0;
}

/*
 * A run of a sweep as sweep.json names it: the path as written (relative
 * to where hilrun ran), else the folder of that name next to the sweep's.
 */
static int sweep_run_dir(const char *sweep_dir, const char *run_dir, char *buf,
			 size_t len)
{
	const char *base = strrchr(run_dir, '/');
	char path[4096];
	size_t dl;

	snprintf(path, sizeof(path), "%s/report.json", run_dir);
	if (run_dir[0] != '\0' && access(path, F_OK) == 0) {
		snprintf(buf, len, "%s", run_dir);
		return 1;
	}
	base = base != NULL ? base + 1 : run_dir;
	dl = strlen(sweep_dir);
	while (dl > 1 && sweep_dir[dl - 1] == '/') {
		dl--;
	}
	while (dl > 0 && sweep_dir[dl - 1] != '/') {
		dl--;
	}
	if (base[0] == '\0' || strcmp(base, "..") == 0 ||
	    strcmp(base, ".") == 0) {
		return 0;
	}
	snprintf(buf, len, "%.*s%s", (int)dl, dl > 0 ? sweep_dir : "", base);
	snprintf(path, sizeof(path), "%s/report.json", buf);
	return access(path, F_OK) == 0;
}

/* hilrun report SWEEP_DIR: sweep.svg and sweep.html again. */
static int render_sweep_dir(const char *dir)
{
	cJSON *sweep = sweep_json_load(dir);
	const cJSON *e;
	char(*dirs)[4096] = NULL;
	const char *ptrs[64];
	size_t n = 0;
	int ret;

	if (sweep == NULL) {
		hil_err("%s/sweep.json: not a sweep's JSON object", dir);
		return HIL_ERR_ARG;
	}
	dirs = calloc(64, sizeof(*dirs));
	if (dirs == NULL) {
		cJSON_Delete(sweep);
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sweep, "runs"))
	{
		const char *rd = hil_rj_str(e, "run_dir");

		if (n == 64) {
			break;
		}
		if (sweep_run_dir(dir, rd, dirs[n], sizeof(dirs[n]))) {
			ptrs[n] = dirs[n];
			n++;
		} else if (strcmp(hil_rj_str(e, "status"), "complete") == 0) {
			hil_warn(
				"%s: run %s of the sweep has no report.json here: left out",
				dir, rd);
		}
	}
	cJSON_Delete(sweep);
	if (n == 0) {
		hil_err("%s: no run of the sweep has a report.json (looked where sweep.json says and beside %s)",
			dir, dir);
		free(dirs);
		return HIL_ERR_ARG;
	}
	ret = hil_report_render_sweep(ptrs, n, dir);
	free(dirs);
	return ret;
}
