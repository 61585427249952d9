/* cmd_history: hilrun history, the runs recorded in a results folder's database or one row's trend over them, and history import. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config/config.h"
#include "lab/history.h"
#include "result/result.h"
#include "result/rowcodec.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

const char cli_history_usage[] =
	"usage: hilrun history [--db FILE | --results DIR] [--config NAME] [--limit N]\n"
	"       hilrun history [--db FILE | --results DIR] --html FILE\n"
	"       hilrun history ALG[/IMPL] [--op OP] [--len N] [--ad N] [--config NAME]\n"
	"                      [--db FILE | --results DIR]\n"
	"       hilrun history import [--db FILE | --results DIR] REPORT.json|RUN_DIR...\n"
	"Every finished run records itself in its results folder's .history.sqlite\n"
	"(a killed run is absent, never half there). Without ALG: the runs, newest\n"
	"first. With ALG: that row's trend over the runs, oldest first, one table\n"
	"per configuration, board, implementation, operation, unit, flags and\n"
	"cycle-model profile (runs differing in any of them are never one trend;\n"
	"a change across two hilrun commits is marked *). A model estimate is\n"
	"shown with its error bar (± N %, a calibrated profile's); its change\n"
	"within the two error bars is marked ~ (docs/cycle-model.md).\n"
	"  --db FILE        the database (default results/.history.sqlite)\n"
	"  --results DIR    the database of that results folder\n"
	"  --config NAME    only runs of this configuration (its \"name\")\n"
	"  --op OP          encrypt, decrypt, hash, keysetup, verify; keypair,\n"
	"                   encaps, decaps, sign (default: all)\n"
	"  --len N, --ad N  message and AD length of the row (default 64 and 0)\n"
	"  --limit N        runs listed (default 100)\n"
	"  --html FILE      with ALG: the trend as an HTML page with a plot;\n"
	"                   without: the night's page (per board and config the\n"
	"                   newest run, its failed rows, compare's verdicts\n"
	"                   against the run before, a link to each report)\n"
	"import: record runs from their report.json (a file, a run folder, or a\n"
	"results folder of run folders), e.g. those a lab's hosts uploaded; a run\n"
	"already recorded is left as it is (but gets the estimates' error bars\n"
	"if it was recorded before they were); a file that is not a hilrun report,\n"
	"or is cut short, is refused by name and the others are still recorded.\n"
	"exit: 0 printed (import: every run recorded), 2 no database or no such\n"
	"row (import: a file refused, or the database failed)\n";

/* hilrun history import: runs from their report.json into the history. */
static int cmd_history_import(int argc, char **argv)
{
	static const struct opt opts[] = {{"--db", 1}, {"--results", 1}};
	char db[4096] = "results/" HIL_HISTORY_FILE;
	const char **paths = calloc((size_t)argc, sizeof(*paths));
	const char *v;
	size_t n = 0;
	int i, ret;

	if (paths == NULL) {
		hil_err("out of memory");
		return HIL_EXIT_CANNOT_START;
	}
	for (i = 1; i < argc; i++) {
		int k = cli_next_opt("history import", argc, argv, &i, opts,
				     sizeof(opts) / sizeof(opts[0]), &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_ERROR) {
			free(paths);
			return HIL_EXIT_CANNOT_START;
		}
		if (k == OPT_POSITIONAL) {
			paths[n++] = v;
		} else if (k == 0) {
			snprintf(db, sizeof(db), "%s", v);
		} else {
			snprintf(db, sizeof(db), "%s/%s", v, HIL_HISTORY_FILE);
		}
	}
	if (n == 0) {
		hil_err("history import: name the reports (REPORT.json, RUN_DIR or a results folder)");
		free(paths);
		return HIL_EXIT_CANNOT_START;
	}
	ret = hil_history_import(db, paths, n, stdout);
	free(paths);
	return ret == HIL_OK ? 0 : HIL_EXIT_CANNOT_START;
}

/* hilrun history: the runs, or one row's trend over them. */
/* --op names an operation a row can have; a typo gets its likely intent,
 * never an empty trend. */
static int check_op(const char *op)
{
	const char *const *ops = hil_result_ops;
	const char *near = NULL;
	size_t i, best = 4;

	for (i = 0; ops[i] != NULL; i++) {
		size_t d = hil_edit_distance(op, ops[i]);

		if (d == 0) {
			return HIL_OK;
		}
		if (d < best) {
			best = d;
			near = ops[i];
		}
	}
	if (near != NULL) {
		hil_err("history: --op %s: not an operation (did you mean \"%s\"? encrypt, decrypt, hash, keysetup, verify; keypair, encaps, decaps, sign)",
			op, near);
	} else {
		hil_err("history: --op %s: not an operation (encrypt, decrypt, hash, keysetup, verify; keypair, encaps, decaps, sign)",
			op);
	}
	return HIL_ERR_ARG;
}

int cli_history(int argc, char **argv, const struct cli_env *env)
{
	static const struct opt opts[] = {
		{"--db", 1},  {"--results", 1}, {"--config", 1}, {"--op", 1},
		{"--len", 1}, {"--ad", 1},	{"--limit", 1},	 {"--html", 1},
	};
	struct hil_history_query q;
	char db[4096] = "results/" HIL_HISTORY_FILE;
	char alg[2 * HIL_CFG_NAME];
	const char *html = NULL;
	const char *v;
	int i;

	(void)env;
	if (argc > 1 && strcmp(argv[1], "import") == 0) {
		return cmd_history_import(argc - 1, argv + 1);
	}
	memset(&q, 0, sizeof(q));
	q.msg_len = q.ad_len = -1;
	for (i = 1; i < argc; i++) {
		unsigned long n;
		int k = cli_next_opt("history", argc, argv, &i, opts,
				     sizeof(opts) / sizeof(opts[0]), &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_ERROR) {
			return HIL_EXIT_CANNOT_START;
		}
		if (k == OPT_POSITIONAL) {
			char *slash;

			if (q.alg != NULL) {
				hil_err("history: one algorithm only (got %s and %s)",
					q.alg, v);
				return HIL_EXIT_CANNOT_START;
			}
			snprintf(alg, sizeof(alg), "%s", v);
			slash = strchr(alg, '/');
			if (slash != NULL) {
				*slash = '\0';
				q.impl = slash + 1;
			}
			q.alg = alg;
			continue;
		}
		switch (k) {
		case 0:
			snprintf(db, sizeof(db), "%s", v);
			break;
		case 1:
			snprintf(db, sizeof(db), "%s/%s", v, HIL_HISTORY_FILE);
			break;
		case 2:
			q.config = v;
			break;
		case 3:
			if (check_op(v) != HIL_OK) {
				return HIL_EXIT_CANNOT_START;
			}
			q.op = v;
			break;
		case 4:
		case 5:
		case 6:
			if (cli_parse_uint(opts[k].name, v, k == 6 ? 1 : 0,
					   k == 6 ? 100000 : 1u << 20,
					   &n) != HIL_OK) {
				return HIL_EXIT_CANNOT_START;
			}
			if (k == 4) {
				q.msg_len = (long)n;
			} else if (k == 5) {
				q.ad_len = (long)n;
			} else {
				q.limit = (unsigned)n;
			}
			break;
		case 7:
			html = v;
			break;
		default:
			break;
		}
	}
	if (html != NULL && q.alg == NULL) {
		if (q.op != NULL || q.msg_len >= 0 || q.ad_len >= 0 ||
		    q.config != NULL || q.limit) {
			hil_err("history --html FILE without ALG writes the night's page, of every board: --op, --len, --ad, --config and --limit select a trend (hilrun history ALG[/IMPL] ... --html FILE)");
			return HIL_EXIT_CANNOT_START;
		}
		if (hil_history_night(db, html) != HIL_OK) {
			return HIL_EXIT_CANNOT_START;
		}
		printf("%s: the night's page\n", html);
		return 0;
	}
	if (html != NULL) {
		if (hil_history_html(db, &q, html) != HIL_OK) {
			return HIL_EXIT_CANNOT_START;
		}
		printf("%s: the trend of %s%s%s\n", html, q.alg,
		       q.impl ? "/" : "", q.impl ? q.impl : "");
		return 0;
	}
	if (q.alg == NULL &&
	    (q.op != NULL || q.msg_len >= 0 || q.ad_len >= 0)) {
		hil_err("history: --op, --len and --ad select a row: name its algorithm (hilrun history ALG[/IMPL] ...)");
		return HIL_EXIT_CANNOT_START;
	}
	return hil_history_print(db, &q, stdout) == HIL_OK
		       ? 0
		       : HIL_EXIT_CANNOT_START;
}
