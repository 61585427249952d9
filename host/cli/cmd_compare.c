/* cmd_compare: hilrun compare, two reports row by row against thresholds; also the baseline gate of a run and of the lab daemon's jobs. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report/render.h"
#include "result/result.h"
#include "util/err.h"
#include "util/log.h"

const char cli_compare_usage[] =
	"usage: hilrun compare BASE NEW [--threshold METRIC=PCT]... [--junit FILE]\n"
	"                      [--fail-missing]\n"
	"Compares two reports (run folders or report.json files) row by row.\n"
	"  --threshold METRIC=PCT  worse when new > base by more than PCT percent;\n"
	"                   METRIC is the reports' unit: instructions (emulated),\n"
	"                   cycles (a board's DWT), estimated (the model's cycles),\n"
	"                   energy; flash (per implementation) and\n"
	"                   stack (per row) are judged only when given. A metric\n"
	"                   the reports do not have is an error (exit 2), never\n"
	"                   a silent pass.\n"
	"  --junit FILE     JUnit XML of the comparison\n"
	"  --fail-missing   a row of BASE that NEW lacks counts as worse\n"
	"NEW must be complete (a partial report is refused); estimates of\n"
	"different memory systems are not judged against each other. An\n"
	"estimate is shown with its error bar (± N %, a calibrated profile's);\n"
	"one that moved within the two error bars keeps its verdict, marked\n"
	"\"within the model's error\" (docs/cycle-model.md).\n"
	"exit: 0 same or better, 3 a row is worse, 2 bad input\n";

/* The report.json of a path that is a run folder or the file itself. */
static void report_path(const char *arg, char *buf, size_t len)
{
	size_t n = strlen(arg);

	if (n > 5 && strcmp(arg + n - 5, ".json") == 0) {
		snprintf(buf, len, "%s", arg);
	} else {
		snprintf(buf, len, "%s/report.json", arg);
	}
}

int cli_compare_reports(const char *base_arg, const char *new_arg,
			const struct hil_thresholds *t, const char *junit,
			const char *const *given, size_t n_given)
{
	size_t g;
	char bpath[4096], npath[4096], err[1024];
	cJSON *base = NULL;
	cJSON *newer = NULL;
	struct hil_cmp *cmp = NULL;
	int worse = 0;
	int status = HIL_EXIT_CANNOT_START;

	if (cli_not_a_results_folder(base_arg, "compare") != HIL_OK ||
	    cli_not_a_results_folder(new_arg, "compare") != HIL_OK) {
		goto out;
	}
	report_path(base_arg, bpath, sizeof(bpath));
	report_path(new_arg, npath, sizeof(npath));
	if (hil_report_load(bpath, &base, err, sizeof(err)) != HIL_OK ||
	    hil_report_load(npath, &newer, err, sizeof(err)) != HIL_OK) {
		hil_err("%s", err);
		goto out;
	}
	/* Nothing measured is no evidence of no regression. */
	if (cJSON_GetArraySize(
		    cJSON_GetObjectItemCaseSensitive(newer, "rows")) == 0) {
		hil_err("%s has no rows: nothing to compare with %s", npath,
			bpath);
		goto out;
	}
	/* A threshold on a figure these reports do not have would gate
	 * nothing: say so rather than pass. */
	for (g = 0; g < n_given; g++) {
		const char *eq = strchr(given[g], '=');
		char metric[32];

		snprintf(metric, sizeof(metric), "%.*s",
			 (int)(eq != NULL ? eq - given[g] : 0), given[g]);
		if (!hil_cmp_metric_applies(base, newer, metric)) {
			hil_err("--threshold %s: no figure of these reports is %s: they count %s%s%s; give %s=PCT%s",
				given[g], metric, hil_cmp_unit(newer),
				hil_cmp_metric_applies(base, newer, "estimated")
					? " and have the cycle model's estimates"
					: "",
				hil_cmp_metric_applies(base, newer, "energy")
					? " and energy"
					: "",
				hil_cmp_unit_metric(newer),
				hil_cmp_metric_applies(base, newer, "estimated")
					? " (or estimated=PCT for the model's cycles)"
					: "");
			goto out;
		}
	}
	if (hil_report_compare(base, newer, t, stdout, &worse) != HIL_OK) {
		goto out;
	}
	status = worse ? HIL_EXIT_REGRESSION : HIL_EXIT_ALL_MEASURED;
	if (junit != NULL) {
		FILE *f = fopen(junit, "w");

		if (f == NULL ||
		    hil_cmp_compute(base, newer, t, &cmp) != HIL_OK ||
		    hil_junit_write(newer, cmp, f) != HIL_OK) {
			hil_err("cannot write JUnit XML to %s", junit);
			status = HIL_EXIT_CANNOT_START;
		}
		if (f != NULL) {
			fclose(f);
		}
	}
out:
	hil_cmp_free(cmp);
	cJSON_Delete(base);
	cJSON_Delete(newer);
	return status;
}

int cli_compare(int argc, char **argv, const struct cli_env *env)
{
	static const struct opt opts[] = {
		{"--threshold", 1}, {"--junit", 1}, {"--fail-missing", 0}};
	struct hil_thresholds t;
	const char *files[2] = {NULL, NULL};
	const char *given[8];
	const char *junit = NULL;
	const char *v;
	size_t n_given = 0;
	int n = 0;
	int i;

	(void)env;
	hil_thresholds_default(&t);
	for (i = 1; i < argc; i++) {
		int k = cli_next_opt("compare", argc, argv, &i, opts, 3, &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_ERROR) {
			return HIL_EXIT_CANNOT_START;
		}
		if (k == OPT_POSITIONAL) {
			if (n == 2) {
				hil_err("compare: two reports, BASE and NEW (got a third: %s)",
					v);
				return HIL_EXIT_CANNOT_START;
			}
			files[n++] = v;
		} else if (k == 0) {
			/* hil_thresholds_parse names what is wrong. */
			if (hil_thresholds_parse(&t, v) != HIL_OK) {
				return HIL_EXIT_CANNOT_START;
			}
			if (n_given < sizeof(given) / sizeof(given[0])) {
				given[n_given++] = v;
			}
		} else if (k == 1) {
			junit = v;
		} else {
			t.fail_missing = 1;
		}
	}
	if (n != 2) {
		hil_err("compare: name two reports (usage: hilrun compare BASE NEW [--threshold METRIC=PCT]... [--junit FILE])");
		return HIL_EXIT_CANNOT_START;
	}
	return cli_compare_reports(files[0], files[1], &t, junit, given,
				   n_given);
}
