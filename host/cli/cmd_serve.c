/* cmd_serve: hilrun serve, the lab daemon's command line and its run callback (a job's run, then its baseline gate). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config/config.h"
#include "config/jsonld.h"
#include "lab/boards.h"
#include "lab/serve.h"
#include "pq/pqentries.h"
#include "runrender.h"
#include "report/render.h"
#include "result/result.h"
#include "result/run.h"
#include "run/runner.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/util.h"

const char cli_serve_usage[] =
	"usage: hilrun serve --spool DIR [--root DIR]... [--once] [--wait SECONDS]\n"
	"                    [--no-jail]\n"
	"The lab daemon: runs the job files dropped in DIR/incoming, one at a\n"
	"time per board, and files them in done/ or failed/ (docs/lab.md).\n"
	"  --root DIR       where a job's files may come from (repeatable;\n"
	"                   default: the working directory); the spool must\n"
	"                   lie outside every root, or serve will not start\n"
	"  --once           run what is there, then exit\n"
	"  --wait SECONDS   how long a job waits for a busy board before it goes\n"
	"                   back to incoming/ for later (0 to 86400, default 60)\n"
	"  --no-jail        run jobs' code unjailed, knowingly: without it the\n"
	"                   daemon refuses to start where no jail can be set up\n"
	"exit: 0 stopped by SIGTERM or SIGINT, or (--once) every job it took\n"
	"      went to done/; 1 (--once) a job went to failed/; 4 (--once)\n"
	"      stopped before incoming/ was empty; 5 (--once) none failed but a\n"
	"      job went back to incoming/ for a busy board; 2 bad arguments or\n"
	"      spool, or (--once) a job that ran could not be filed\n";

/* What cmd_serve hands its run callback. */
struct serve_ctx {
	const volatile sig_atomic_t *stop;
	int no_jail; /* --no-jail */
	int verbosity;
};

/* The daemon's run callback: hil_runner_run, then the job's baseline. */
static int serve_run(void *ctx, const struct hil_config *cfg,
		     const char *baseline, char *report_dir, size_t len,
		     const struct hil_serve_started *started)
{
	struct hil_runner_opts opts;
	struct hil_run *run = calloc(1, sizeof(*run));
	char resume[4096];
	int ret;

	if (run == NULL) {
		return HIL_ERR_NOMEM;
	}
	snprintf(resume, sizeof(resume), "%s", report_dir);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = cfg->results_dir;
	opts.stop = ((const struct serve_ctx *)ctx)->stop;
	opts.no_jail = ((const struct serve_ctx *)ctx)->no_jail;
	if (opts.no_jail) {
		hil_warn(
			"this job's code runs UNJAILED on the lab host (hilrun serve --no-jail); its report says \"jailed\": false");
	}
	opts.resume_dir = resume[0] != '\0' ? resume : NULL;
	opts.on_run_dir = started->fn;
	opts.on_run_dir_arg = started->arg;
	ret = hil_runner_run(cfg, &opts, run);
	(void)hil_cli_render_run(run);
	snprintf(report_dir, len, "%s", run->dir);
	if (run->error[0] != '\0' && started->error != NULL) {
		snprintf(started->error, started->error_len, "%s", run->error);
	} else if (started->error != NULL) {
		size_t i, lost = 0;

		for (i = 0; i < run->n_rows; i++) {
			lost += run->rows[i].link_failed != 0;
		}
		if (lost > 0) {
			snprintf(
				started->error, started->error_len,
				"%zu row%s lost to the link (row status link_failed: the target answered, damaged, through every retry and recovery); worth a retry",
				lost, lost == 1 ? "" : "s");
		}
	}
	if (hil_exit_status(ret, run->transient, 0) == HIL_EXIT_TRANSIENT) {
		ret = HIL_SERVE_TRANSIENT;
	}
	if (ret == HIL_OK && baseline != NULL && run->dir[0] != '\0') {
		struct hil_thresholds t;

		hil_thresholds_default(&t);
		switch (cli_compare_reports(baseline, run->dir, &t, NULL, NULL,
					    0)) {
		case HIL_EXIT_REGRESSION:
			ret = HIL_SERVE_REGRESSION;
			break;
		case HIL_EXIT_CANNOT_START:
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

/*
 * A pq job's configuration: the file and every folder it names (the
 * schemes', the common code's) inside the lab's roots, then its board as
 * hilrun pq reads it (hil_serve_pq_load_fn).
 */
static int serve_pq_load(void *ctx, const char *path,
			 const struct hil_config_roots *roots,
			 struct hil_config *cfg, char *err, size_t len)
{
	struct hil_pq_plan *plan = calloc(1, sizeof(*plan));
	struct hil_jsonld ld;
	char where[1024];
	size_t i, n;
	int ret;

	(void)ctx;
	if (plan == NULL) {
		snprintf(err, len, "out of memory");
		return HIL_ERR_NOMEM;
	}
	memset(&ld, 0, sizeof(ld));
	ld.roots = roots;
	hil_jsonld_roots_text(&ld, where, sizeof(where));
	if (access(path, R_OK) != 0 || !hil_jsonld_within_roots(&ld, path)) {
		snprintf(err, len,
			 "job file: config: %s is not a file inside the lab's "
			 "roots (%s)",
			 path, where);
		free(plan);
		return HIL_ERR_CONFIG;
	}
	ret = hil_pq_plan_load(path, plan, err, len);
	n = plan->n_dirs + plan->n_common + plan->n_host_common;
	for (i = 0; ret == HIL_OK && i < n; i++) {
		const char *d = i < plan->n_dirs ? plan->dirs[i]
				: i < plan->n_dirs + plan->n_common
					? plan->common[i - plan->n_dirs]
					: plan->host_common[i - plan->n_dirs -
							    plan->n_common];

		if (!hil_jsonld_within_roots(&ld, d)) {
			snprintf(err, len,
				 "%s: the folder %s is outside the lab's roots "
				 "(%s): a job's folders come from there",
				 path, d, where);
			ret = HIL_ERR_CONFIG;
		}
	}
	free(plan);
	if (ret == HIL_OK) {
		ret = cli_pq_board(path, cfg, err, len);
	}
	return ret == HIL_OK || ret == HIL_ERR_NOMEM ? ret : HIL_ERR_CONFIG;
}

/*
 * A pq job's run: hilrun pq itself (cli_pq_main), on the board the daemon
 * has locked, into a run folder under the configuration's results folder
 * (or, for a job the daemon was stopped in, that folder again with
 * --resume); its exit status made the daemon's code.
 */
static int serve_pq_run(void *ctx, const struct hil_config *cfg,
			const char *baseline, char *report_dir, size_t len,
			const struct hil_serve_started *started)
{
	const struct serve_ctx *c = ctx;
	struct cli_env env;
	char dir[4096], probe[4096 + 32], runs[16], seed[16], stamp[32];
	char *argv[16];
	int argc = 0, st;
	time_t now = time(NULL);

	(void)baseline; /* a pq job takes none (servejob.c) */
	memset(&env, 0, sizeof(env));
	env.stop = c->stop;
	env.verbosity = c->verbosity;
	snprintf(runs, sizeof(runs), "%lu", (unsigned long)cfg->bench.runs);
	snprintf(seed, sizeof(seed), "%lu", (unsigned long)cfg->bench.seed);
	snprintf(dir, sizeof(dir), "%s", report_dir);
	snprintf(probe, sizeof(probe), "%s/pq-run.json", dir);
	argv[argc++] = "pq";
	if (dir[0] != '\0' && access(probe, F_OK) == 0) {
		/* The job's earlier attempt, stopped: finished, not redone. */
		argv[argc++] = "--resume";
		argv[argc++] = dir;
	} else {
		if (dir[0] == '\0') {
			strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S",
				 gmtime(&now));
			snprintf(dir, sizeof(dir), "%s/pq-%s-%ld",
				 cfg->results_dir, stamp, (long)getpid());
		}
		if (hil_mkdirs(dir) != HIL_OK) {
			report_dir[0] = '\0';
			return HIL_ERR_IO;
		}
		argv[argc++] = "--config";
		argv[argc++] = (char *)cfg->path;
		argv[argc++] = "--runs";
		argv[argc++] = runs;
		argv[argc++] = "--seed";
		argv[argc++] = seed;
		argv[argc++] = "--output";
		argv[argc++] = dir;
	}
	if (c->no_jail) {
		hil_warn(
			"this job's code runs UNJAILED on the lab host (hilrun serve --no-jail); its report says \"jailed\": false");
		argv[argc++] = "--no-jail";
	}
	argv[argc] = NULL;
	/* The folder is the job's before anything is measured into it. */
	started->fn(started->arg, dir);
	snprintf(report_dir, len, "%s", dir);
	st = cli_pq_main(argc, argv, &env, 1);
	switch (st) {
	case 0:
		return HIL_OK;
	case 1:
		return HIL_ERR_VERIFY;
	case 4:
		return HIL_ERR_INTERRUPTED;
	case 5:
		return HIL_SERVE_TRANSIENT;
	default:
		if (started->error != NULL) {
			snprintf(started->error, started->error_len,
				 "hilrun pq could not run the job (exit %d; "
				 "the daemon's log says why)",
				 st);
		}
		return HIL_ERR_CONFIG;
	}
}

/* hilrun serve --spool DIR [--once] [--wait S]: the lab daemon. */
static int cmd_serve(int argc, char **argv, const struct cli_env *env)
{
	const volatile sig_atomic_t *stop = env->stop;
	struct hil_serve_opts o;
	struct hil_config_roots roots;
	struct hil_boards map;
	struct serve_ctx sctx = {stop, 0, 0};
	char err[1024];
	int have_map = 0;
	int i;
	int ret;

	memset(&o, 0, sizeof(o));
	memset(&roots, 0, sizeof(roots));
	/* A busy board is waited for, then the job waits in incoming/: two
	 * daemons on one spool take turns, they never drain it as failed. */
	o.wait_s = HIL_SERVE_DEFAULT_WAIT_S;
	for (i = 1; i < argc; i++) {
		static const struct opt opts[] = {{"--spool", 1},
						  {"--root", 1},
						  {"--once", 0},
						  {"--wait", 1},
						  {"--no-jail", 0}};
		unsigned long w;
		const char *v;
		int k = cli_next_opt("serve", argc, argv, &i, opts, 5, &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_POSITIONAL) {
			hil_err("serve: unexpected argument \"%s\" (usage: hilrun serve --spool DIR [--root DIR]... [--once] [--wait SECONDS])",
				v);
			return HIL_ERR_ARG;
		}
		if (k == OPT_ERROR) {
			return HIL_ERR_ARG;
		}
		if (k == 0) {
			o.spool = v;
		} else if (k == 1) {
			/* Where a job's files may come from (docs/lab.md). */
			if (roots.n == HIL_CFG_MAX_ROOTS ||
			    access(v, X_OK) != 0) {
				hil_err("--root %s: not a folder hilrun can read (at most %d roots)",
					v, HIL_CFG_MAX_ROOTS);
				return HIL_ERR_ARG;
			}
			roots.dir[roots.n++] = v;
		} else if (k == 2) {
			o.once = 1;
		} else if (k == 4) {
			sctx.no_jail = 1;
		} else {
			if (cli_parse_uint("serve: --wait", v, 0, 86400, &w) !=
			    HIL_OK) {
				return HIL_ERR_ARG;
			}
			o.wait_s = (unsigned)w;
		}
	}
	if (o.spool == NULL) {
		hil_err("serve: --spool DIR is missing (usage: hilrun serve --spool DIR [--root DIR]... [--once] [--wait SECONDS])");
		return HIL_ERR_ARG;
	}
	/* Jobs are untrusted: their code runs jailed, or not at all unless
	 * the admin says --no-jail knowingly. */
	if (sctx.no_jail) {
		hil_warn(
			"serve --no-jail: every job's build, host build and emulator or flashing tool will run UNJAILED, as this daemon's user, on this host");
	} else if (hil_jail_probe(err, sizeof(err)) != HIL_OK) {
		hil_err("serve: refusing to run untrusted jobs without a jail: %s (docs/lab.md, \"The jail\"; --no-jail runs them unjailed, knowingly)",
			err);
		return HIL_ERR_NA;
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
	o.pq_load = serve_pq_load;
	o.pq_run = serve_pq_run;
	sctx.verbosity = env->verbosity;
	o.ctx = &sctx;
	o.stop = stop;
	o.roots = roots.n > 0 ? &roots : NULL;
	ret = hil_serve(&o);
	if (have_map) {
		hil_boards_free(&map);
	}
	return ret;
}

int cli_serve(int argc, char **argv, const struct cli_env *env)
{
	int ret = cmd_serve(argc, argv, env);

	/* A job left for a busy board is worth running again later. */
	return hil_exit_status(ret, ret == HIL_ERR_TIMEOUT, 0);
}
