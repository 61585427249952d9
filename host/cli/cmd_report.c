/* cmd_report: hilrun report, a run folder's summary, plots and HTML written again from its report.json. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli.h"
#include "lab/history.h"
#include "report/render.h"
#include "result/result.h"
#include "util/err.h"
#include "util/log.h"

const char cli_report_usage[] =
	"usage: hilrun report RUN_DIR...\n"
	"Writes summary.md, summary.csv, the SVG plots and report.html again\n"
	"from each run folder's report.json (and a pq run's benchmarks.md and\n"
	"benchmarks.csv), and names the files written.\n"
	"exit: 0 written, 2 a folder has no readable report\n";

int cli_not_a_results_folder(const char *dir, const char *what)
{
	char p[4096];
	struct stat st;
	int marks = 0;

	if ((size_t)snprintf(p, sizeof(p), "%s/report.json", dir) >=
		    sizeof(p) ||
	    stat(p, &st) == 0) {
		return HIL_OK;
	}
	snprintf(p, sizeof(p), "%s/sweep.json", dir);
	if (stat(p, &st) == 0) {
		return HIL_OK;
	}
	/* What a results folder has and a run folder never does. */
	snprintf(p, sizeof(p), "%s/%s", dir, HIL_HISTORY_FILE);
	marks += stat(p, &st) == 0;
	snprintf(p, sizeof(p), "%s/latest", dir);
	marks += lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
	/* Or run folders inside it (a results folder copied without its
	 * history and link). */
	if (marks == 0) {
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d != NULL && marks == 0 && (e = readdir(d)) != NULL) {
			if (e->d_name[0] != '.' &&
			    (size_t)snprintf(p, sizeof(p), "%s/%s/report.json",
					     dir, e->d_name) < sizeof(p)) {
				marks += stat(p, &st) == 0;
			}
		}
		if (d != NULL) {
			closedir(d);
		}
	}
	if (marks == 0) {
		return HIL_OK;
	}
	snprintf(p, sizeof(p), "%s/latest", dir);
	if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
		hil_err("%s %s: that is the results folder, which holds the run folders: name one of them (the newest is %s/latest; hilrun history lists them)",
			what, dir, dir);
	} else {
		hil_err("%s %s: that is the results folder, which holds the run folders: name one of them (hilrun history --results %s lists them)",
			what, dir, dir);
	}
	return HIL_ERR_ARG;
}

/* hilrun report DIR...: tables, plots and HTML again from report.json. */
static int cmd_report(int argc, char **argv)
{
	const char *v;
	char written[512];
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
		r = cli_not_a_results_folder(argv[i], "report");
		if (r != HIL_OK) {
			ret = r;
			continue;
		}
		/* What was written, as the renderer says: a pq run's report
		 * has pqm4's tables too. */
		r = hil_report_render_files(argv[i], written, sizeof(written));
		if (r != HIL_OK) {
			ret = r;
		} else {
			printf("%s: %s\n", argv[i], written);
		}
	}
	return ret;
}

int cli_report(int argc, char **argv, const struct cli_env *env)
{
	(void)env;
	return cmd_report(argc, argv) == HIL_OK ? 0 : HIL_EXIT_CANNOT_START;
}
