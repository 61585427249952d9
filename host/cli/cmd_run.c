/* cmd_run: hilrun run (and hilrun with options only): a run's options, then one configuration's run or a sweep, and --result-json whatever the outcome. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cmd_run.h"
#include "config/config.h"
#include "config/paths.h"
#include "hilp.h"
#include "lab/lock.h"
#include "runrender.h"
#include "report/render.h"
#include "report/report.h"
#include "result/result.h"
#include "result/run.h"
#include "run/runner.h"
#include "run/sweep.h"
#include "util/err.h"
#include "util/log.h"
#include "util/term.h"

const char cli_run_usage[] =
	"usage: hilrun [run] [options] [--config FILE]   run a benchmark\n"
	"       hilrun [options] --config A --config B...  a sweep of configs\n"
	"       hilrun [options] --sweep FILE       a sweep file (configs or a flag matrix)\n"
	"       hilrun COMMAND [options]            see hilrun COMMAND --help\n"
	"commands: run, crypt, doctor, sensor, report, compare, serve, boards,\n          history\n"
	"options of a run:\n"
	"  --config FILE    run configuration (default configs/qemu.json with\n"
	"                   hilrun run or any option below that changes it)\n"
	"  --results DIR    results folder, anywhere (default: the config's\n"
	"                   results_dir, which must be inside the working\n"
	"                   directory); --output DIR is the same\n"
	"  --baseline REPORT  compare with an earlier report; exit 3 if worse\n"
	"  --resume RUN_DIR continue a killed or interrupted run: rows already\n"
	"                   measured on the same image are kept\n"
	"  --junit FILE     JUnit XML of the rows (and of the comparison)\n"
	"  --wait SECONDS   wait this long (0 to 86400) for a board another\n"
	"                   run holds (a sweep: for each of its boards)\n"
	"  --jobs N         a sweep's configurations N at a time (1 to 32;\n"
	"                   default: as many as there are cores); those on\n"
	"                   one board always run one at a time\n"
	"  --board ID       run on this board of the hardware map (its probe,\n"
	"                   port, baud and sensor bus; without --config, the\n"
	"                   platform's default config); also $HILRUN_BOARD\n"
	"  --result-json FILE  how the run ended, as the spool's result files,\n"
	"                   written whatever the outcome (also on SIGTERM)\n"
	"  --detail         also print every row (median, spread, stack)\n"
	"  --at LEN         the headline table's message length (default 64)\n"
	"  --no-jail        run the build, users' host builds and QEMU or the\n"
	"                   flashing tool unjailed (debugging; default: jailed\n"
	"                   whenever a jail can be set up, docs/lab.md)\n"
	"  -v, -q           more or less diagnostics on stderr (-v also\n"
	"                   prints the detail table)\n"
	"  --die-with-parent  end (as on SIGTERM: exit 4, partial report,\n"
	"                   QEMU or OpenOCD stopped) when the process that\n"
	"                   started hilrun goes, even by kill -9; any\n"
	"                   command; also HILRUN_DIE_WITH_PARENT=1\n"
	"quick questions, over the config (one configuration only):\n"
	"  --alg ALG[/IMPL][,...]  only these algorithms (repeatable)\n"
	"  --impl IMPL      the implementation of every --alg without one\n"
	"  --lengths N,...  message lengths in bytes (bench.lengths)\n"
	"  --ad N,...       associated-data lengths (bench.ad_lengths)\n"
	"  --ops OP,...     encrypt, decrypt, hash (bench.operations)\n"
	"  --runs N         timed runs per row (bench.runs, 1..2048)\n"
	"  --warmup N       warm-up runs per row (bench.warmup)\n"
	"  -O LEVEL, -O2    optimisation level: replaces the config's -O flag\n"
	"  --cflags FLAGS   compiler flags, space-separated (build.cflags)\n"
	"  --help, -h, --version\n"
	"environment: HILRUN_BOARDS (the hardware map, default configs/boards.json),\n"
	"  HILRUN_BOARD, HILRUN_LOCK_DIR, HILRUN_DIE_WITH_PARENT\n"
	"exit: 0 all measured, 1 some rows failed, 2 could not start,\n"
	"      3 regression against the baseline, 4 interrupted,\n"
	"      5 transient: board busy, unreachable or lost (worth a retry)\n";

/* A config may only write inside the working directory (docs/configs.md);
 * --results DIR on the command line is the user's own choice. */
static int config_output_ok(const struct hil_config *cfg)
{
	char err[1024];
	int ret = hil_path_check_config(cfg, err, sizeof(err));

	if (ret != HIL_OK) {
		hil_err("%s; to write elsewhere, give --results DIR", err);
	}
	return ret;
}

/* --junit without --baseline: the rows alone, no comparison. */
static int write_junit_rows(const char *run_dir, const char *junit)
{
	char path[4096 + 16], err[1024];
	cJSON *report = NULL;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/report.json", run_dir);
	ret = hil_report_load(path, &report, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s", err);
		return ret;
	}
	f = fopen(junit, "w");
	ret = f != NULL ? hil_junit_write(report, NULL, f) : HIL_ERR_IO;
	if (f != NULL && fclose(f) != 0) {
		ret = HIL_ERR_IO;
	}
	if (ret != HIL_OK) {
		hil_err("cannot write JUnit XML to %s", junit);
	}
	cJSON_Delete(report);
	return ret;
}

/*
 * The last lines of a run that stopped before its end: what was measured,
 * what was cut short and what never started, and what to type next.
 */
static void print_unfinished(const struct hil_run *run, FILE *out)
{
	size_t i, cut = 0, not_started = 0;

	for (i = 0; i < run->n_rows; i++) {
		cut += run->rows[i].interrupted != 0;
	}
	if (run->rows_planned > run->n_rows) {
		not_started = run->rows_planned - run->n_rows;
	}
	fprintf(out,
		"interrupted: %zu row%s measured, %zu row%s cut short, %zu not started (report %s/report.json: partial)\n",
		run->n_rows - cut, run->n_rows - cut == 1 ? "" : "s", cut,
		cut == 1 ? "" : "s", not_started, run->dir);
	if (run->cfg->path[0] != '\0') {
		fprintf(out, "finish with `hilrun --resume %s`\n", run->dir);
	} else {
		fputs("this run's options came from the command line (no configuration file), so it cannot be resumed: run the same command again, or put the options in a configuration file (docs/configs.md) for a run you may need to resume\n",
		      out);
	}
	fflush(out);
}

static int cmd_run(const char *config_path, const char *results_dir,
		   const char *resume_dir, const char *baseline,
		   const char *junit, unsigned wait_s, const char *board,
		   const struct quick *q, const struct hil_table_opts *tab,
		   int no_jail, const volatile sig_atomic_t *stop,
		   int *regression, struct run_end *end)
{
	struct hil_lock lock;
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	struct hil_runner_opts opts;
	int ret;

	if (cfg == NULL || run == NULL) {
		hil_config_free(cfg);
		free(cfg);
		free(run);
		return HIL_ERR_NOMEM;
	}
	ret = cli_load_run_config(config_path, q, cfg);
	if (ret != HIL_OK) {
		snprintf(end->error, sizeof(end->error),
			 "%s: the configuration does not load (see the log)",
			 config_path);
		goto out;
	}
	if (results_dir == NULL) {
		ret = config_output_ok(cfg);
		if (ret != HIL_OK) {
			snprintf(end->error, sizeof(end->error),
				 "%s: results_dir leaves the working directory",
				 config_path);
			goto out;
		}
	}
	ret = cli_apply_board_map(cfg, board, end);
	if (ret != HIL_OK) {
		goto out;
	}
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results_dir != NULL ? results_dir : cfg->results_dir;
	opts.stop = stop;
	opts.resume_dir = resume_dir;
	opts.no_jail = no_jail;
	memset(&lock, 0, sizeof(lock));
	ret = cli_lock_board(cfg, config_path, wait_s, &lock, end);
	if (ret != HIL_OK) {
		goto out;
	}
	ret = hil_runner_run(cfg, &opts, run);
	hil_lock_release(&lock);
	(void)hil_cli_render_run(run);
	snprintf(end->run_dir, sizeof(end->run_dir), "%s", run->dir);
	snprintf(end->started, sizeof(end->started), "%s", run->started);
	end->transient = run->transient;
	if (ret != HIL_OK && ret != HIL_ERR_VERIFY &&
	    ret != HIL_ERR_INTERRUPTED) {
		snprintf(end->error, sizeof(end->error), "run %s: %s%s%s",
			 run->status ? run->status : "failed",
			 hil_strerror(ret), run->error[0] ? ": " : "",
			 run->error);
	}
	if (run->n_rows > 0) {
		hil_report_print_table(run, tab, stdout);
	}
	if (ret != HIL_OK) {
		if (run->dir[0] != '\0') {
			hil_err("run %s: %s (report: %s/report.json)",
				run->status ? run->status : "failed",
				hil_strerror(ret), run->dir);
		} else if (ret != HIL_ERR_CONFIG) {
			/* A configuration refused before the run folder was
			 * made has said why, in one line: no second one. */
			hil_err("run %s: %s",
				run->status ? run->status : "failed",
				hil_strerror(ret));
		}
	}
	if (run->dir[0] != '\0' && (baseline != NULL || junit != NULL)) {
		struct hil_thresholds t;
		int st;

		hil_thresholds_default(&t);
		if (baseline != NULL && strcmp(run->status, "complete") != 0) {
			/* compare refuses a partial report: the gate is not
			 * passed, and the resume hint below says what next. */
			hil_warn("--baseline: not compared, the run is %s",
				 run->status);
		} else if (baseline != NULL) {
			st = cli_compare_reports(baseline, run->dir, &t, junit,
						 NULL, 0);
			*regression = st == HIL_EXIT_REGRESSION;
			if (st == HIL_EXIT_CANNOT_START && ret == HIL_OK) {
				ret = HIL_ERR_ARG;
			}
		} else if (write_junit_rows(run->dir, junit) != HIL_OK &&
			   ret == HIL_OK) {
			ret = HIL_ERR_IO;
		}
	}
	if (run->dir[0] != '\0' && strcmp(run->status, "partial") == 0) {
		print_unfinished(run, stdout);
	}
	hil_run_free(run);
out:
	free(run);
	hil_config_free(cfg);
	free(cfg);
	return ret;
}

/* --result-json FILE: how the run ended, whatever the path to the end. */
static void file_result(const char *path, int status, const char *config,
			const char *baseline, const struct run_end *end)
{
	struct hil_result r;

	if (path == NULL) {
		return;
	}
	memset(&r, 0, sizeof(r));
	r.exit_status = status;
	r.error = end->error;
	r.run_dir = end->run_dir;
	r.config = config;
	r.baseline = baseline;
	r.board = end->board;
	r.started = end->started;
	/* hil_result_write logs its own error; the exit status stands. */
	(void)hil_result_write(path, &r);
}

static int cmd_sweep(char *const *configs, size_t n, const char *sweep_path,
		     const char *results_dir, unsigned jobs, unsigned wait_s,
		     int no_jail, const volatile sig_atomic_t *stop,
		     int *transient)
{
	struct hil_sweep sw;
	struct hil_runner_opts opts;
	struct hil_sweep_done *done;
	char err[1024];
	size_t i;
	int ret;

	if (sweep_path != NULL) {
		ret = hil_sweep_load(sweep_path, &sw, err, sizeof(err));
	} else {
		ret = hil_sweep_from_files(configs, n, &sw, err, sizeof(err));
	}
	if (ret != HIL_OK) {
		hil_err("%s", err);
		return ret;
	}
	for (i = 0; results_dir == NULL && i < sw.n; i++) {
		ret = config_output_ok(&sw.cfgs[i]);
		if (ret != HIL_OK) {
			hil_sweep_free(&sw);
			return ret;
		}
	}
	memset(&opts, 0, sizeof(opts));
	opts.results_dir =
		results_dir != NULL ? results_dir : sw.cfgs[0].results_dir;
	opts.stop = stop;
	opts.no_jail = no_jail;
	/* Each configuration on a board runs under the board's lock, as a
	 * single run does, waiting up to wait_s for it. */
	done = calloc(1, sizeof(*done));
	if (done == NULL) {
		hil_sweep_free(&sw);
		return HIL_ERR_NOMEM;
	}
	ret = hil_sweep_run(&sw, &opts, jobs, wait_s, transient, done);
	hil_sweep_free(&sw);
	/* The runs measured: their pages and the sweep's now. */
	(void)hil_cli_render_sweep(done, stdout);
	free(done);
	return ret;
}

/* The options of a run (cli_run_usage), in the order of the switch below. */
enum {
	R_CONFIG,
	R_RESULTS,
	R_OUTPUT,
	R_SWEEP,
	R_BASELINE,
	R_JUNIT,
	R_RESUME,
	R_WAIT,
	R_JOBS,
	R_BOARD,
	R_RESULT_JSON,
	R_DETAIL,
	R_NO_JAIL,
	R_AT,
	R_ALG,
	R_IMPL,
	R_LENGTHS,
	R_AD,
	R_OPS,
	R_RUNS,
	R_WARMUP,
	R_O,
	R_CFLAGS,
	R_HELP,
	R_HELP_SHORT,
	R_VERSION,
};

static const struct opt run_opts[] = {
	[R_CONFIG] = {"--config", 1},
	[R_RESULTS] = {"--results", 1},
	[R_OUTPUT] = {"--output", 1},
	[R_SWEEP] = {"--sweep", 1},
	[R_BASELINE] = {"--baseline", 1},
	[R_JUNIT] = {"--junit", 1},
	[R_RESUME] = {"--resume", 1},
	[R_WAIT] = {"--wait", 1},
	[R_JOBS] = {"--jobs", 1},
	[R_BOARD] = {"--board", 1},
	[R_RESULT_JSON] = {"--result-json", 1},
	[R_DETAIL] = {"--detail", 0},
	[R_NO_JAIL] = {"--no-jail", 0},
	[R_AT] = {"--at", 1},
	[R_ALG] = {"--alg", 1},
	[R_IMPL] = {"--impl", 1},
	[R_LENGTHS] = {"--lengths", 1},
	[R_AD] = {"--ad", 1},
	[R_OPS] = {"--ops", 1},
	[R_RUNS] = {"--runs", 1},
	[R_WARMUP] = {"--warmup", 1},
	[R_O] = {"-O", 1},
	[R_CFLAGS] = {"--cflags", 2},
	[R_HELP] = {"--help", 0},
	[R_HELP_SHORT] = {"-h", 0},
	[R_VERSION] = {"--version", 0},
};

/* "-O2": the level; "-O" alone takes the next argument. */
static int check_olevel(const char *v)
{
	static const char *const ok[] = {"0", "1", "2", "3", "s", "z", "g"};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (strcmp(v, ok[i]) == 0) {
			return HIL_OK;
		}
	}
	hil_err("-O%s: expected an optimisation level: 0, 1, 2, 3, s, z or g",
		v);
	return HIL_ERR_ARG;
}

/*
 * A run, or a sweep, from the options of cli_run_usage in argv[1..];
 * argv[0] is "run" or what stood before the options. explicit_run:
 * "hilrun run", which without a configuration runs configs/qemu.json.
 * @return the exit status (enum hil_exit).
 */
static int run_main_with(int argc, char **argv, const struct cli_env *env,
			 int explicit_run, const char **algs)
{
	char *configs[HIL_SWEEP_MAX];
	size_t n_configs = 0;
	const char *sweep_path = NULL;
	const char *results_dir = NULL;
	const char *baseline = NULL;
	const char *junit = NULL;
	const char *resume_dir = NULL;
	char resume_config[4096];
	char board_config[4096];
	const char *board = NULL;
	const char *result_json = NULL;
	struct hil_table_opts tab;
	struct quick q;
	struct run_end end;
	unsigned wait_s = 0;
	unsigned jobs = 0; /* a sweep's: 0 = the cores */
	int no_jail = 0;
	int status = HIL_EXIT_CANNOT_START;
	int i;
	int ret;

	memset(&q, 0, sizeof(q));
	q.algs = algs; /* room for every argument */
	q.runs = q.warmup = -1;
	memset(&tab, 0, sizeof(tab));
	tab.at_len = 64;
	tab.detail = env->verbosity > HIL_LOG_INFO;
	tab.width = hil_term_width();
	/* --result-json first too: every way out of a run writes it. */
	memset(&end, 0, sizeof(end));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--result-json") == 0 && i + 1 < argc) {
			result_json = argv[i + 1];
		} else if (strncmp(argv[i], "--result-json=", 14) == 0) {
			result_json = argv[i] + 14;
		}
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long n;
		const char *v;
		int k;

		/* -O2, -Os: the level glued to the option, as the compiler's. */
		if (strncmp(a, "-O", 2) == 0 && a[2] != '\0') {
			if (check_olevel(a + 2) != HIL_OK) {
				snprintf(end.error, sizeof(end.error),
					 "%s: not an optimisation level", a);
				goto out;
			}
			q.olevel = a + 2;
			continue;
		}
		k = cli_next_opt("", argc, argv, &i, run_opts,
				 sizeof(run_opts) / sizeof(run_opts[0]), &v);
		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_ERROR) {
			snprintf(end.error, sizeof(end.error),
				 "bad command line at \"%s\" (see the log)", a);
			goto out;
		}
		if (k == OPT_POSITIONAL) {
			snprintf(end.error, sizeof(end.error),
				 "unexpected argument \"%s\" (try --help)", v);
			goto bad_args;
		}
		switch (k) {
		case R_CONFIG:
			if (n_configs == HIL_SWEEP_MAX) {
				snprintf(end.error, sizeof(end.error),
					 "at most %d --config", HIL_SWEEP_MAX);
				goto bad_args;
			}
			configs[n_configs++] = (char *)v;
			break;
		case R_RESULTS:
		case R_OUTPUT:
			results_dir = v;
			break;
		case R_SWEEP:
			sweep_path = v;
			break;
		case R_BASELINE:
			baseline = v;
			break;
		case R_RESUME:
			resume_dir = v;
			break;
		case R_JOBS:
			if (cli_parse_uint("--jobs", v, 1, HIL_SWEEP_MAX, &n) !=
			    HIL_OK) {
				snprintf(end.error, sizeof(end.error),
					 "--jobs %s: not a number from 1 to %d",
					 v, HIL_SWEEP_MAX);
				goto out;
			}
			jobs = (unsigned)n;
			break;
		case R_WAIT:
			if (cli_parse_uint("--wait", v, 0, 86400, &n) !=
			    HIL_OK) {
				snprintf(
					end.error, sizeof(end.error),
					"--wait %s: not a number of seconds from 0 to 86400",
					v);
				goto out;
			}
			wait_s = (unsigned)n;
			break;
		case R_JUNIT:
			junit = v;
			break;
		case R_BOARD:
			board = v;
			break;
		case R_RESULT_JSON:
			result_json = v;
			break;
		case R_DETAIL:
			tab.detail = 1;
			break;
		case R_NO_JAIL:
			no_jail = 1;
			break;
		case R_AT:
			if (cli_parse_uint("--at", v, 1, 1u << 20, &n) !=
			    HIL_OK) {
				snprintf(end.error, sizeof(end.error),
					 "--at %s: not a message length", v);
				goto out;
			}
			tab.at_len = (uint32_t)n;
			break;
		case R_ALG:
			q.algs[q.n_algs++] = v;
			break;
		case R_IMPL:
			q.impl = v;
			break;
		case R_LENGTHS:
			q.lengths = v;
			break;
		case R_AD:
			q.ad = v;
			break;
		case R_OPS:
			q.ops = v;
			break;
		case R_RUNS:
		case R_WARMUP:
			if (cli_parse_uint(
				    run_opts[k].name, v, k == R_RUNS ? 1 : 0,
				    k == R_RUNS ? 2048 : 65535, &n) != HIL_OK) {
				snprintf(end.error, sizeof(end.error),
					 "%s %s: out of range",
					 run_opts[k].name, v);
				goto out;
			}
			*(k == R_RUNS ? &q.runs : &q.warmup) = (long)n;
			break;
		case R_O:
			if (check_olevel(v) != HIL_OK) {
				snprintf(end.error, sizeof(end.error),
					 "-O %s: not an optimisation level", v);
				goto out;
			}
			q.olevel = v;
			break;
		case R_CFLAGS:
			q.cflags = v;
			break;
		case R_HELP:
		case R_HELP_SHORT:
			fputs(cli_run_usage, stdout);
			return 0;
		default:
			printf("hilrun 0.1.0 (protocol %u)\n",
			       HILP_PROTOCOL_VERSION);
			return 0;
		}
	}
	if (board == NULL && getenv("HILRUN_BOARD") != NULL &&
	    getenv("HILRUN_BOARD")[0] != '\0') {
		board = getenv("HILRUN_BOARD");
	}
	if (sweep_path != NULL && n_configs > 0) {
		snprintf(
			end.error, sizeof(end.error),
			"give either --sweep FILE or --config FILE..., not both");
		goto bad_args;
	}
	if ((sweep_path != NULL || n_configs > 1) &&
	    (board != NULL || result_json != NULL)) {
		snprintf(
			end.error, sizeof(end.error),
			"--board, $HILRUN_BOARD and --result-json are for one configuration, not a sweep: run each configuration on its own");
		goto bad_args;
	}
	if (cli_quick_any(&q) && resume_dir != NULL) {
		snprintf(
			end.error, sizeof(end.error),
			"--alg, --impl, --lengths, --ad, --ops, --runs, --warmup, -O and --cflags change a configuration, and a --resume measures what the run's own configuration says: resume without them, or start a new run with them");
		goto bad_args;
	}
	if (cli_quick_any(&q) && (sweep_path != NULL || n_configs > 1)) {
		snprintf(
			end.error, sizeof(end.error),
			"--alg, --impl, --lengths, --ad, --ops, --runs, --warmup, -O and --cflags change one configuration, not a sweep: put them in each configuration of the sweep, or for flag sets write a sweep file, e.g. {\"name\": \"flags\", \"base\": \"qemu.json\", \"cflags\": [[\"-O2\"], [\"-Os\"]]} (docs/configs.md, Sweep files)");
		goto bad_args;
	}
	if (resume_dir != NULL) {
		if (n_configs > 0 || sweep_path != NULL) {
			snprintf(
				end.error, sizeof(end.error),
				"--resume takes the configuration from the run folder: give no --config");
			goto bad_args;
		}
		if (hil_runner_resume_config(resume_dir, resume_config,
					     sizeof(resume_config)) != HIL_OK) {
			snprintf(end.error, sizeof(end.error),
				 "--resume %s: no configuration to resume",
				 resume_dir);
			goto out;
		}
		configs[n_configs++] = resume_config;
	}
	no_jail = cli_no_jail(no_jail);
	if (sweep_path != NULL || n_configs > 1) {
		int transient = 0;

		ret = cmd_sweep(configs, n_configs, sweep_path, results_dir,
				jobs, wait_s, no_jail, env->stop, &transient);
		return hil_exit_status(ret, transient, 0);
	}
	if (n_configs == 0 && board != NULL) {
		if (cli_board_default_config(board, board_config,
					     sizeof(board_config),
					     &end) != HIL_OK) {
			goto out;
		}
		configs[n_configs++] = board_config;
	}
	if (n_configs == 0 && (explicit_run || cli_quick_any(&q))) {
		configs[n_configs++] = (char *)"configs/qemu.json";
	}
	if (n_configs == 0) {
		fputs(cli_run_usage, stderr);
		snprintf(end.error, sizeof(end.error),
			 "no --config FILE or --board ID given");
		goto out;
	}
	{
		int regression = 0;

		ret = cmd_run(configs[0], results_dir, resume_dir, baseline,
			      junit, wait_s, board, &q, &tab, no_jail,
			      env->stop, &regression, &end);
		status = hil_exit_status(ret, end.transient, regression);
	}
	goto out;
bad_args:
	hil_err("%s", end.error);
out:
	file_result(result_json, status, n_configs > 0 ? configs[0] : NULL,
		    baseline, &end);
	return status;
}

/* run_main_with() and room for as many --alg as there are arguments. */
static int run_main(int argc, char **argv, const struct cli_env *env,
		    int explicit_run)
{
	const char **algs = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*algs));
	int status;

	if (algs == NULL) {
		hil_err("out of memory");
		return HIL_EXIT_CANNOT_START;
	}
	status = run_main_with(argc, argv, env, explicit_run, algs);
	free(algs);
	return status;
}

int cli_run(int argc, char **argv, const struct cli_env *env)
{
	return run_main(argc, argv, env, 1);
}

int cli_run_default(int argc, char **argv, const struct cli_env *env)
{
	return run_main(argc, argv, env, 0);
}
