/* cmd_report: hilrun report, a run folder's summary, plots and HTML written again from its report.json. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>

#include "cli.h"
#include "report/render.h"
#include "run/result.h"
#include "util/err.h"
#include "util/log.h"

const char cli_report_usage[] =
	"usage: hilrun report RUN_DIR...\n"
	"Writes summary.md, summary.csv, the SVG plots and report.html again\n"
	"from each run folder's report.json.\n"
	"exit: 0 written, 2 a folder has no readable report\n";

/* hilrun report DIR...: tables, plots and HTML again from report.json. */
static int cmd_report(int argc, char **argv)
{
	const char *v;
	int i, n = 0;
	int ret = HIL_OK;

	for (i = 1; i < argc; i++) {
		int k = cli_next_opt("report", argc, argv, &i, NULL, 0, &v);

		if (k == OPT_ERROR) {
			return HIL_ERR_ARG;
		}
		n += k == OPT_POSITIONAL;
	}
	if (n == 0) {
		hil_err("report: name a run folder (usage: hilrun report RUN_DIR...)");
		return HIL_ERR_ARG;
	}
	for (i = 1; i < argc; i++) {
		int r;

		if (argv[i][0] == '-') {
			continue;
		}
		r = hil_report_render_all(argv[i]);
		if (r != HIL_OK) {
			ret = r;
		} else {
			printf("%s: %s\n", argv[i],
			       hil_report_dir_is_sweep(argv[i])
				       ? "sweep.svg sweep.html"
				       : "summary.md summary.csv per_byte.svg sizes.svg report.html");
		}
	}
	return ret;
}

int cli_report(int argc, char **argv, const struct cli_env *env)
{
	(void)env;
	return cmd_report(argc, argv) == HIL_OK ? 0 : HIL_EXIT_CANNOT_START;
}
