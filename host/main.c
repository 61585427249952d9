/* main: hilrun's entry: options, configuration, subcommand, exit status. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "crypt.h"
#include "boards.h"
#include "doctor.h"
#include "lock.h"
#include "serve.h"
#include "sensorcmd.h"
#include "err.h"
#include "hilp.h"
#include "log.h"
#include "paths.h"
#include "result.h"
#include "report/render.h"
#include "report/report.h"
#include "run.h"
#include "runner.h"
#include "sweep.h"
#include "util.h"

/* Exit statuses (result.h, README.md, hilrun --help). */
enum {
	EXIT_ALL_MEASURED = HIL_EXIT_ALL_MEASURED,
	EXIT_ROWS_FAILED = HIL_EXIT_ROWS_FAILED,
	EXIT_CANNOT_START = HIL_EXIT_CANNOT_START,
	EXIT_REGRESSION = HIL_EXIT_REGRESSION,
	EXIT_INTERRUPTED = HIL_EXIT_INTERRUPTED,
};

/* The only mutable global: set by the signal handler, read by the runner. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hilrun [options] --config FILE        run a benchmark\n"
		"       hilrun [options] --config A --config B...   a sweep of configs\n"
		"       hilrun [options] --sweep FILE         a sweep file (configs or a flag matrix)\n"
		"       hilrun crypt ALG[/IMPL] [--key HEX] [--nonce HEX] [--ad HEX]\n"
		"                    [--pt HEX | --decrypt --ct HEX] [--outlen N]\n"
		"                    [--op encrypt|decrypt|hash|keysetup] [--on host|qemu]\n"
		"                    [--config FILE]\n"
		"       hilrun doctor --config FILE       check tools, probe, port, sensor\n"
		"       hilrun sensor --config FILE [--seconds N]   live sensor readings\n"
		"       hilrun report RUN_DIR...          tables, plots, HTML from report.json\n"
		"       hilrun serve --spool DIR [--root DIR]... [--once] [--wait S]   the lab daemon\n"
		"       hilrun [options] --board ID [--config FILE]   a run on a board of the map\n"
		"       hilrun boards [--json]            the hardware map and which boards are free\n"
		"       hilrun compare BASE NEW [--threshold METRIC=PCT]... [--junit FILE]\n"
		"       hilrun --help | --version\n"
		"options:\n"
		"  --config FILE    run configuration (configs/qemu.json)\n"
		"  --results DIR    results folder, anywhere (default: the config's\n"
		"                   results_dir, which must be inside the working\n"
		"                   directory); --output DIR is the same\n"
		"  --baseline REPORT  compare with an earlier report; exit 3 if worse\n"
		"  --resume RUN_DIR continue a killed or interrupted run: rows already\n"
		"                   measured on the same image are kept\n"
		"  --junit FILE     JUnit XML of the rows (and of the comparison)\n"
		"  --wait SECONDS   wait this long for a board another run holds\n"
		"  --board ID       run on this board of the hardware map (its probe,\n"
		"                   port, baud and sensor bus; without --config, the\n"
		"                   platform's default config); also $HILRUN_BOARD\n"
		"  --result-json FILE  how the run ended, as the spool's result files,\n"
		"                   written whatever the outcome (also on SIGTERM)\n"
		"  -v, -q           more or less diagnostics on stderr\n"
		"environment: HILRUN_BOARDS (the hardware map, default configs/boards.json),\n"
		"  HILRUN_BOARD, HILRUN_LOCK_DIR\n"
		"exit: 0 all measured, 1 some rows failed, 2 could not start,\n"
		"      3 regression against the baseline, 4 interrupted,\n"
		"      5 transient: board busy, unreachable or lost (worth a retry)\n");
}

static int load_config(const char *path, struct hil_config *cfg)
{
	char err[1024];
	int ret = hil_config_load(path, cfg, err, sizeof(err));

	if (ret != HIL_OK) {
		hil_err("%s", err);
	}
	return ret;
}

/* How a single run ended, for --result-json (result.h). */
struct run_end {
	char run_dir[4096];
	char board[HIL_LOCK_ID_MAX];
	char error[1200];
	char started[32];
	int transient; /* enum hil_exit's 5 applies */
};

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

static int exit_status(int ret)
{
	return hil_exit_status(ret, 0, 0);
}

struct hil_thresholds;
static int compare_reports(const char *base_arg, const char *new_arg,
			   const struct hil_thresholds *t, const char *junit);

/*
 * The board's lock for a run: the hardware map (configs/boards.json, when
 * there is one) names the board, else the config's board name does. A
 * second run on the same board waits up to wait_s, then says who holds it.
 */
/* A config that names its board by id (board.id), or a run given --board
 * ID, gets the board's probe and port from the hardware map. */
static int apply_board_map(struct hil_config *cfg, const char *board,
			   struct run_end *end)
{
	struct hil_boards map;
	const char *path = hil_boards_path();
	char err[1024];
	int have_map;
	int ret;

	if (board == NULL && cfg->board.id[0] == '\0') {
		return HIL_OK;
	}
	memset(&map, 0, sizeof(map));
	have_map = access(path, R_OK) == 0;
	if (have_map) {
		ret = hil_boards_load(path, &map, err, sizeof(err));
		if (ret != HIL_OK) {
			hil_err("%s", err);
			snprintf(end->error, sizeof(end->error), "%s", err);
			return ret;
		}
	}
	if (board != NULL) {
		ret = hil_boards_use(have_map ? &map : NULL, board, cfg, err,
				     sizeof(err));
	} else {
		ret = hil_boards_apply(have_map ? &map : NULL, cfg, err,
				       sizeof(err));
	}
	if (ret != HIL_OK) {
		hil_err("%s: %s", cfg->path, err);
		snprintf(end->error, sizeof(end->error), "%s: %s", cfg->path,
			 err);
	}
	if (have_map) {
		hil_boards_free(&map);
	}
	return ret;
}

static int lock_board(const struct hil_config *cfg, const char *config_path,
		      unsigned wait_s, struct hil_lock *lock,
		      struct run_end *end)
{
	struct hil_boards map;
	char err[1024];
	char *msg = NULL;
	const char *id;
	int have_map;
	int ret;

	memset(&map, 0, sizeof(map));
	have_map = access(hil_boards_path(), R_OK) == 0 &&
		   hil_boards_load(hil_boards_path(), &map, err, sizeof(err)) ==
			   HIL_OK;
	id = hil_boards_lock_id(have_map ? &map : NULL, cfg);
	snprintf(end->board, sizeof(end->board), "%s", id);
	/* A board busy for more than a second: say once who holds it (by
	 * then it has written its name into the lock), then wait quietly. */
	ret = hil_lock_acquire(lock, NULL, id, config_path,
			       wait_s < 1 ? wait_s : 1, &msg);
	if (ret == HIL_ERR_TIMEOUT && wait_s > 1) {
		hil_info("%s: waiting up to %u s for it", msg, wait_s);
		free(msg);
		msg = NULL;
		ret = hil_lock_acquire(lock, NULL, id, config_path, wait_s - 1,
				       &msg);
		if (ret == HIL_OK) {
			hil_info("board %s is ours now", id);
		}
	}
	if (ret != HIL_OK) {
		hil_err("%s", msg != NULL ? msg : hil_strerror(ret));
		snprintf(end->error, sizeof(end->error), "%s",
			 msg != NULL ? msg : hil_strerror(ret));
		/* Busy for longer than --wait: worth trying again later. */
		end->transient = ret == HIL_ERR_TIMEOUT;
	}
	free(msg);
	if (have_map) {
		hil_boards_free(&map);
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

static int cmd_run(const char *config_path, const char *results_dir,
		   const char *resume_dir, const char *baseline,
		   const char *junit, unsigned wait_s, const char *board,
		   int *regression, struct run_end *end)
{
	struct hil_lock lock;
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	struct hil_runner_opts opts;
	int ret;

	if (cfg == NULL || run == NULL) {
		free(cfg);
		free(run);
		return HIL_ERR_NOMEM;
	}
	ret = load_config(config_path, cfg);
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
	ret = apply_board_map(cfg, board, end);
	if (ret != HIL_OK) {
		goto out;
	}
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results_dir != NULL ? results_dir : cfg->results_dir;
	opts.stop = &stop_requested;
	opts.resume_dir = resume_dir;
	memset(&lock, 0, sizeof(lock));
	ret = lock_board(cfg, config_path, wait_s, &lock, end);
	if (ret != HIL_OK) {
		goto out;
	}
	ret = hil_runner_run(cfg, &opts, run);
	hil_lock_release(&lock);
	snprintf(end->run_dir, sizeof(end->run_dir), "%s", run->dir);
	snprintf(end->started, sizeof(end->started), "%s", run->started);
	end->transient = run->transient;
	if (ret != HIL_OK && ret != HIL_ERR_VERIFY &&
	    ret != HIL_ERR_INTERRUPTED) {
		snprintf(end->error, sizeof(end->error), "run %s: %s",
			 run->status ? run->status : "failed",
			 hil_strerror(ret));
	}
	if (run->n_rows > 0) {
		hil_report_print_table(run, stdout);
	}
	if (ret != HIL_OK) {
		hil_err("run %s: %s (report: %s/report.json)",
			run->status ? run->status : "failed", hil_strerror(ret),
			run->dir);
	}
	if (run->dir[0] != '\0' && (baseline != NULL || junit != NULL)) {
		struct hil_thresholds t;
		int st;

		hil_thresholds_default(&t);
		if (baseline != NULL) {
			st = compare_reports(baseline, run->dir, &t, junit);
			*regression = st == EXIT_REGRESSION;
			if (st == EXIT_CANNOT_START && ret == HIL_OK) {
				ret = HIL_ERR_ARG;
			}
		} else if (write_junit_rows(run->dir, junit) != HIL_OK &&
			   ret == HIL_OK) {
			ret = HIL_ERR_IO;
		}
	}
	hil_run_free(run);
out:
	free(run);
	free(cfg);
	return ret;
}

static int cmd_crypt(int argc, char **argv)
{
	struct hil_crypt_args a;
	struct hil_config *cfg = NULL;
	const char *config_path = NULL;
	int i;
	int ret;

	memset(&a, 0, sizeof(a));
	if (argc < 2 || argv[1][0] == '-') {
		hil_err("crypt: name the algorithm, e.g. hilrun crypt ascon-aead128 ...");
		return HIL_ERR_ARG;
	}
	a.alg = argv[1];
	for (i = 2; i < argc; i++) {
		const char *opt = argv[i];
		const char **dst = NULL;

		if (strcmp(opt, "--decrypt") == 0) {
			a.op = "decrypt";
			continue;
		}
		if (strcmp(opt, "--outlen") == 0) {
			char *end = NULL;
			unsigned long v;

			if (i + 1 >= argc) {
				hil_err("crypt: --outlen needs a byte count");
				return HIL_ERR_ARG;
			}
			v = strtoul(argv[++i], &end, 10);
			if (end == argv[i] || *end != '\0' || v == 0) {
				hil_err("crypt: --outlen %s: expected a positive byte count",
					argv[i]);
				return HIL_ERR_ARG;
			}
			a.xof_len = v;
			continue;
		}
		if (strcmp(opt, "--key") == 0) {
			dst = &a.key_hex;
		} else if (strcmp(opt, "--nonce") == 0) {
			dst = &a.nonce_hex;
		} else if (strcmp(opt, "--ad") == 0) {
			dst = &a.ad_hex;
		} else if (strcmp(opt, "--pt") == 0 ||
			   strcmp(opt, "--ct") == 0 ||
			   strcmp(opt, "--msg") == 0) {
			dst = &a.in_hex;
		} else if (strcmp(opt, "--op") == 0) {
			dst = &a.op;
		} else if (strcmp(opt, "--on") == 0) {
			dst = &a.on;
		} else if (strcmp(opt, "--config") == 0) {
			dst = &config_path;
		} else {
			hil_err("crypt: unknown option %s", opt);
			return HIL_ERR_ARG;
		}
		if (i + 1 >= argc) {
			hil_err("crypt: %s needs a value (\"\" for empty)",
				opt);
			return HIL_ERR_ARG;
		}
		*dst = argv[++i];
	}
	if (a.on != NULL && strcmp(a.on, "host") != 0) {
		cfg = calloc(1, sizeof(*cfg));
		if (cfg == NULL) {
			return HIL_ERR_NOMEM;
		}
		ret = load_config(
			config_path ? config_path : "configs/qemu.json", cfg);
		if (ret != HIL_OK) {
			free(cfg);
			return ret;
		}
		a.cfg = cfg;
	}
	ret = hil_crypt(&a, stdout);
	free(cfg);
	return ret;
}

static int cmd_doctor(int argc, char **argv)
{
	struct hil_config *cfg;
	int ret;

	if (argc != 3 || strcmp(argv[1], "--config") != 0) {
		hil_err("usage: hilrun doctor --config FILE");
		return HIL_ERR_ARG;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = load_config(argv[2], cfg);
	if (ret == HIL_OK) {
		ret = hil_doctor(cfg, stdout);
	}
	free(cfg);
	return ret;
}

/* hilrun report DIR...: tables, plots and HTML again from report.json. */
static int cmd_report(int argc, char **argv)
{
	int i;
	int ret = HIL_OK;

	if (argc < 2) {
		hil_err("usage: hilrun report RUN_DIR...");
		return HIL_ERR_ARG;
	}
	for (i = 1; i < argc; i++) {
		int r = hil_report_render_all(argv[i]);

		if (r != HIL_OK) {
			ret = r;
		} else {
			printf("%s: summary.md summary.csv per_byte.svg sizes.svg report.html\n",
			       argv[i]);
		}
	}
	return ret;
}

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

/*
 * Compare two reports; @return 0 same or better, EXIT_REGRESSION when a row
 * is worse than its threshold, EXIT_CANNOT_START on bad input. With junit,
 * also write JUnit XML of the new report and the comparison.
 */
static int compare_reports(const char *base_arg, const char *new_arg,
			   const struct hil_thresholds *t, const char *junit)
{
	char bpath[4096], npath[4096], err[1024];
	cJSON *base = NULL;
	cJSON *newer = NULL;
	struct hil_cmp *cmp = NULL;
	int worse = 0;
	int status = EXIT_CANNOT_START;

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
	if (hil_report_compare(base, newer, t, stdout, &worse) != HIL_OK) {
		goto out;
	}
	status = worse ? EXIT_REGRESSION : EXIT_ALL_MEASURED;
	if (junit != NULL) {
		FILE *f = fopen(junit, "w");

		if (f == NULL ||
		    hil_cmp_compute(base, newer, t, &cmp) != HIL_OK ||
		    hil_junit_write(newer, cmp, f) != HIL_OK) {
			hil_err("cannot write JUnit XML to %s", junit);
			status = EXIT_CANNOT_START;
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

static int cmd_compare(int argc, char **argv)
{
	struct hil_thresholds t;
	const char *files[2] = {NULL, NULL};
	const char *junit = NULL;
	int n = 0;
	int i;

	hil_thresholds_default(&t);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--threshold") == 0 && i + 1 < argc) {
			if (hil_thresholds_parse(&t, argv[++i]) != HIL_OK) {
				hil_err("--threshold %s: expected METRIC=PERCENT (instructions, cycles, estimated, ns, energy)",
					argv[i]);
				return EXIT_CANNOT_START;
			}
		} else if (strcmp(argv[i], "--junit") == 0 && i + 1 < argc) {
			junit = argv[++i];
		} else if (argv[i][0] != '-' && n < 2) {
			files[n++] = argv[i];
		} else {
			hil_err("usage: hilrun compare BASE NEW [--threshold METRIC=PCT]... [--junit FILE]");
			return EXIT_CANNOT_START;
		}
	}
	if (n != 2) {
		hil_err("usage: hilrun compare BASE NEW [--threshold METRIC=PCT]... [--junit FILE]");
		return EXIT_CANNOT_START;
	}
	return compare_reports(files[0], files[1], &t, junit);
}

/* The daemon's run callback: hil_runner_run, then the job's baseline. */
static int serve_run(void *ctx, const struct hil_config *cfg,
		     const char *baseline, char *report_dir, size_t len)
{
	struct hil_runner_opts opts;
	struct hil_run *run = calloc(1, sizeof(*run));
	char resume[4096];
	int ret;

	(void)ctx;
	if (run == NULL) {
		return HIL_ERR_NOMEM;
	}
	snprintf(resume, sizeof(resume), "%s", report_dir);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = cfg->results_dir;
	opts.stop = &stop_requested;
	opts.resume_dir = resume[0] != '\0' ? resume : NULL;
	ret = hil_runner_run(cfg, &opts, run);
	snprintf(report_dir, len, "%s", run->dir);
	if (hil_exit_status(ret, run->transient, 0) == HIL_EXIT_TRANSIENT) {
		ret = HIL_SERVE_TRANSIENT;
	}
	if (ret == HIL_OK && baseline != NULL && run->dir[0] != '\0') {
		struct hil_thresholds t;

		hil_thresholds_default(&t);
		switch (compare_reports(baseline, run->dir, &t, NULL)) {
		case EXIT_REGRESSION:
			ret = HIL_SERVE_REGRESSION;
			break;
		case EXIT_CANNOT_START:
			/* The gate could not run: the job did not pass it. */
			ret = HIL_ERR_CONFIG;
			break;
		default:
			break;
		}
	}
	hil_run_free(run);
	free(run);
	return ret;
}

/* hilrun serve --spool DIR [--once] [--wait S]: the lab daemon. */
static int cmd_serve(int argc, char **argv)
{
	struct hil_serve_opts o;
	struct hil_config_roots roots;
	struct hil_boards map;
	char err[1024];
	int have_map = 0;
	int i;
	int ret;

	memset(&o, 0, sizeof(o));
	memset(&roots, 0, sizeof(roots));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--spool") == 0 && i + 1 < argc) {
			o.spool = argv[++i];
		} else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
			/* Where a job's files may come from (docs/lab.md). */
			if (roots.n == HIL_CFG_MAX_ROOTS ||
			    access(argv[i + 1], X_OK) != 0) {
				hil_err("--root %s: not a folder hilrun can read (at most %d roots)",
					argv[i + 1], HIL_CFG_MAX_ROOTS);
				return HIL_ERR_ARG;
			}
			roots.dir[roots.n++] = argv[++i];
		} else if (strcmp(argv[i], "--once") == 0) {
			o.once = 1;
		} else if (strcmp(argv[i], "--wait") == 0 && i + 1 < argc) {
			o.wait_s = (unsigned)strtoul(argv[++i], NULL, 10);
		} else {
			hil_err("usage: hilrun serve --spool DIR [--root DIR]... [--once] [--wait SECONDS]");
			return HIL_ERR_ARG;
		}
	}
	if (o.spool == NULL) {
		hil_err("usage: hilrun serve --spool DIR [--root DIR]... [--once] [--wait SECONDS]");
		return HIL_ERR_ARG;
	}
	memset(&map, 0, sizeof(map));
	if (access(hil_boards_path(), R_OK) == 0) {
		if (hil_boards_load(hil_boards_path(), &map, err,
				    sizeof(err)) != HIL_OK) {
			hil_err("%s", err);
			return HIL_ERR_CONFIG;
		}
		have_map = 1;
		o.boards = &map;
	}
	o.run = serve_run;
	o.stop = &stop_requested;
	o.roots = roots.n > 0 ? &roots : NULL;
	ret = hil_serve(&o);
	if (have_map) {
		hil_boards_free(&map);
	}
	return ret;
}

/* hilrun boards [--json]: the hardware map, and which boards are here and
 * free; --json for programs (a CI engine's configuration generator). */
static int cmd_boards(int argc, char **argv)
{
	struct hil_boards map;
	char err[1024];
	int json = 0;
	int i;
	int ret;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else {
			hil_err("boards: unknown argument \"%s\" (usage: hilrun boards [--json])",
				argv[i]);
			return HIL_ERR_ARG;
		}
	}
	ret = hil_boards_load(hil_boards_path(), &map, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s", err);
		return ret;
	}
	ret = json ? hil_boards_list_json(&map, stdout)
		   : hil_boards_list(&map, stdout);
	hil_boards_free(&map);
	return ret;
}

/* The config a run on board id uses when no --config is given: the
 * default one of the board's platform. @return HIL_OK or a logged error. */
static int board_default_config(const char *id, char *out, size_t len,
				struct run_end *end)
{
	struct hil_boards map;
	const struct hil_board *b;
	const char *path = hil_boards_path();
	const char *cfg;
	char err[1024];
	int ret;

	ret = hil_boards_load(path, &map, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("--board %s: %s", id, err);
		snprintf(end->error, sizeof(end->error), "%s", err);
		return ret;
	}
	b = hil_boards_find(&map, id);
	cfg = b != NULL ? hil_boards_default_config(b->platform) : NULL;
	if (b == NULL) {
		snprintf(end->error, sizeof(end->error),
			 "--board %s: no such board in the hardware map %s", id,
			 path);
		ret = HIL_ERR_CONFIG;
	} else if (cfg == NULL) {
		snprintf(
			end->error, sizeof(end->error),
			"--board %s: a %s has no default configuration: give --config FILE",
			id, b->platform);
		ret = HIL_ERR_CONFIG;
	} else {
		snprintf(out, len, "%s", cfg);
	}
	if (ret != HIL_OK) {
		hil_err("%s", end->error);
	}
	hil_boards_free(&map);
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
		     const char *results_dir)
{
	struct hil_sweep sw;
	struct hil_runner_opts opts;
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
	opts.stop = &stop_requested;
	ret = hil_sweep_run(&sw, &opts, stdout);
	hil_sweep_free(&sw);
	return ret;
}

int main(int argc, char **argv)
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
	struct run_end end;
	unsigned wait_s = 0;
	int status = EXIT_CANNOT_START;
	int sub;
	int verbosity = HIL_LOG_INFO;
	struct sigaction sa;
	int i;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* Verbosity first, wherever it stands, so every later message obeys it. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			verbosity++;
		} else if (strcmp(argv[i], "-q") == 0) {
			verbosity--;
		}
	}
	hil_log_set_level(verbosity);
	/* A subcommand may follow -v/-q. */
	for (sub = 1; sub < argc; sub++) {
		if (strcmp(argv[sub], "-v") != 0 &&
		    strcmp(argv[sub], "-q") != 0) {
			break;
		}
	}

	if (sub < argc && strcmp(argv[sub], "doctor") == 0) {
		/* Every check passed: 0; something is missing: 2. */
		return cmd_doctor(argc - sub, argv + sub) == HIL_OK
			       ? 0
			       : EXIT_CANNOT_START;
	}
	if (sub < argc && strcmp(argv[sub], "sensor") == 0) {
		/* Readings until N seconds or Ctrl-C: 0; no sensor: 2. */
		return hil_sensorcmd_run(argc - sub, argv + sub,
					 &stop_requested, stdout) == HIL_OK
			       ? 0
			       : EXIT_CANNOT_START;
	}
	if (sub < argc && strcmp(argv[sub], "serve") == 0) {
		return exit_status(cmd_serve(argc - sub, argv + sub));
	}
	if (sub < argc && strcmp(argv[sub], "boards") == 0) {
		return cmd_boards(argc - sub, argv + sub) == HIL_OK
			       ? 0
			       : EXIT_CANNOT_START;
	}
	if (sub < argc && strcmp(argv[sub], "report") == 0) {
		return cmd_report(argc - sub, argv + sub) == HIL_OK
			       ? 0
			       : EXIT_CANNOT_START;
	}
	if (sub < argc && strcmp(argv[sub], "compare") == 0) {
		return cmd_compare(argc - sub, argv + sub);
	}
	if (sub < argc && strcmp(argv[sub], "crypt") == 0) {
		return exit_status(cmd_crypt(argc - sub, argv + sub)) ==
				       EXIT_ALL_MEASURED
			       ? 0
			       : EXIT_CANNOT_START;
	}
	/* --result-json first too: every way out of a run writes it. */
	memset(&end, 0, sizeof(end));
	for (i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "--result-json") == 0) {
			result_json = argv[i + 1];
		}
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-v") == 0 || strcmp(a, "-q") == 0) {
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		}
		if (strcmp(a, "--version") == 0) {
			printf("hilrun 0.1.0 (protocol %u)\n",
			       HILP_PROTOCOL_VERSION);
			return 0;
		}
		if ((strcmp(a, "--config") == 0 ||
		     strcmp(a, "--results") == 0 ||
		     strcmp(a, "--output") == 0 || strcmp(a, "--sweep") == 0 ||
		     strcmp(a, "--baseline") == 0 ||
		     strcmp(a, "--junit") == 0 || strcmp(a, "--resume") == 0 ||
		     strcmp(a, "--wait") == 0 || strcmp(a, "--board") == 0 ||
		     strcmp(a, "--result-json") == 0) &&
		    i + 1 >= argc) {
			snprintf(end.error, sizeof(end.error),
				 "%s needs a value", a);
			goto bad_args;
		}
		if (strcmp(a, "--config") == 0) {
			if (n_configs == HIL_SWEEP_MAX) {
				snprintf(end.error, sizeof(end.error),
					 "at most %d --config", HIL_SWEEP_MAX);
				goto bad_args;
			}
			configs[n_configs++] = argv[++i];
		} else if (strcmp(a, "--results") == 0 ||
			   strcmp(a, "--output") == 0) {
			results_dir = argv[++i];
		} else if (strcmp(a, "--sweep") == 0) {
			sweep_path = argv[++i];
		} else if (strcmp(a, "--baseline") == 0) {
			baseline = argv[++i];
		} else if (strcmp(a, "--resume") == 0) {
			resume_dir = argv[++i];
		} else if (strcmp(a, "--wait") == 0) {
			wait_s = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (strcmp(a, "--junit") == 0) {
			junit = argv[++i];
		} else if (strcmp(a, "--board") == 0) {
			board = argv[++i];
		} else if (strcmp(a, "--result-json") == 0) {
			result_json = argv[++i];
		} else {
			snprintf(end.error, sizeof(end.error),
				 "unknown argument \"%s\" (try --help)", a);
			goto bad_args;
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
	if (sweep_path != NULL || n_configs > 1) {
		ret = cmd_sweep(configs, n_configs, sweep_path, results_dir);
		return exit_status(ret);
	}
	if (n_configs == 0 && board != NULL) {
		if (board_default_config(board, board_config,
					 sizeof(board_config),
					 &end) != HIL_OK) {
			goto out;
		}
		configs[n_configs++] = board_config;
	}
	if (n_configs == 0) {
		usage(stderr);
		snprintf(end.error, sizeof(end.error),
			 "no --config FILE or --board ID given");
		goto out;
	}
	{
		int regression = 0;

		ret = cmd_run(configs[0], results_dir, resume_dir, baseline,
			      junit, wait_s, board, &regression, &end);
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
