/* cmd_serve: hilrun serve, the lab daemon's command line and its run callback (a job's run, then its baseline gate). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config/config.h"
#include "lab/boards.h"
#include "lab/serve.h"
#include "runrender.h"
#include "report/render.h"
#include "result/result.h"
#include "result/run.h"
#include "run/runner.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"

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

/* hilrun serve --spool DIR [--once] [--wait S]: the lab daemon. */
static int cmd_serve(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	struct hil_serve_opts o;
	struct hil_config_roots roots;
	struct hil_boards map;
	struct serve_ctx sctx = {stop, 0};
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
	int ret = cmd_serve(argc, argv, env->stop);

	/* A job left for a busy board is worth running again later. */
	return hil_exit_status(ret, ret == HIL_ERR_TIMEOUT, 0);
}
