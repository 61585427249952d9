/* cmd_pq: hilrun pq: a configuration's mupq/pqm4-layout KEM and signature folders built by scripts/pq-bench.sh and run on the emulated mps2-an386 under the cycle model, or on a board through its flasher and link (run/pqlink.c), their operations made into rows of the result model and rendered as every run is. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "hilrun"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "drivers/link/link.h"
#include "image/build.h"
#include "image/pqsnap.h"
#include "pq/pqentries.h"
#include "result/reportjson.h"
#include "result/result.h"
#include "run/energyest.h"
#include "run/pqlink.h"
#include "run/pqrun.h"
#include "runrender.h"
#include "util/err.h"
#include "util/log.h"
#include "util/jail.h"
#include "util/proc.h"
#include "util/util.h"

const char cli_pq_usage[] =
	"usage: hilrun pq --config FILE [--board NAME] [--runs N] [--seed N]\n"
	"                 [--output DIR] [--call-timeout S] [--no-jail]\n"
	"                 [--host-signatures]\n"
	"Build each KEM or signature folder of FILE's \"algorithms\" (the\n"
	"mupq/pqm4 layout: api.h, crypto_kem_* or crypto_sign_*; entries\n"
	"{\"name\",\"impl\",\"path\"} or {\"tree\",\"pattern\"}, with \"common\":\n"
	"[folders] for the user's common code) into the pq stub, run keypair,\n"
	"encaps, decaps or keypair, sign, verify on qemu-mps2-an386 under the\n"
	"cycle model (STM32F407, 0 WS), verify every output against the host\n"
	"build, and write report.json (one row per operation, as hilrun run's\n"
	"rows), summary.md, report.html and pqm4's benchmarks.md and\n"
	"benchmarks.csv into DIR (default results/pq-TIME); hilrun report,\n"
	"compare and history import read it as any run.\n"
	"--board NAME (or FILE's \"board\", \"flasher\" and \"link\" sections,\n"
	"as in a run's configuration): build the images for that board\n"
	"instead, flash each through its flasher and read the stub's records\n"
	"over its link (rows in the board's counter unit, no cycle model);\n"
	"--call-timeout S: how long one call may take there (default 600).\n"
	"--host-signatures: for signature schemes whose signing is too slow\n"
	"to emulate: the host build signs, the image times keypair and\n"
	"verify only (no sign row; \"Not run\" says so); the mps2 only.\n"
	"Each scheme and common folder is copied into DIR/build/src (links\n"
	"followed only into the common folders and the entry's\n"
	"\"links_within\"), and built from the copy in DIR/build.\n"
	"The builds, the host reference and QEMU run in a jail (no network;\n"
	"the tree and the copies read-only, DIR writable) whenever one can\n"
	"be set up; --no-jail runs them unjailed.\n"
	"exit: 0 all run and verified, 1 some row failed or was left out,\n"
	"      2 bad usage or configuration\n";

#define MAX_ARGS (2 * HIL_PQ_MAX_COMMON * 2 + HIL_PQ_MAX_DIRS + 24)

/* mkdir -p. */
static int make_dir(const char *path)
{
	char tmp[HIL_PQ_PATH];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
				return HIL_ERR_IO;
			}
			*p = '/';
		}
	}
	if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

/* The jail of a pq run: the tree and the copies of the user's folders
 * (build/src) read-only, the output (and the build folder in it)
 * writable; the user's own folders are not there at all. NULL (said)
 * when none can be set up here. */
static struct hil_jail *pq_jail(const char *root, const char *out,
				const char *build)
{
	char why[256], src[HIL_PQ_PATH + 16];
	struct hil_jail *j = NULL;
	int ok;

	if (hil_jail_probe(why, sizeof(why)) != HIL_OK) {
		hil_warn("pq: no jail can be set up here (%s): the builds, the "
			 "host reference and QEMU run unjailed",
			 why);
		return NULL;
	}
	snprintf(src, sizeof(src), "%s/src", build);
	if (hil_jail_new(&j) != HIL_OK) {
		return NULL;
	}
	/* (a later bind inside an earlier one wins there: the copies are
	 * read-only inside the writable output) */
	ok = hil_jail_bind(j, root, HIL_JAIL_RO) == HIL_OK &&
	     hil_jail_bind(j, out, HIL_JAIL_RW) == HIL_OK &&
	     hil_jail_bind(j, src, HIL_JAIL_RO) == HIL_OK;
	if (!ok || hil_jail_chdir(j, root) != HIL_OK) {
		hil_err("pq: the jail could not be set up");
		hil_jail_free(j);
		return NULL;
	}
	return j;
}

/* plan: the copies' (pqsnap.h); named: the configuration's common
 * folders, as run.tsv records them; build: the run's build folder;
 * host_sigs: pq-bench.sh -S; board: NULL for the mps2 under the cycle
 * model, else the board the script builds images for (and link, semihost
 * or empty, their link). */
static int run_plan(const struct hil_pq_plan *plan, const char *named,
		    const char *root, const char *runs, const char *seed,
		    const char *out, const char *build, int host_sigs,
		    const struct hil_config *board, const struct hil_jail *jail,
		    const volatile sig_atomic_t *stop, int *status)
{
	char script[HIL_PQ_PATH + 32], clock[16], baud[16];
	char flags[HIL_PQ_PATH + 32];
	char *argv[MAX_ARGS];
	size_t n = 0, i;

	snprintf(script, sizeof(script), "%s/scripts/pq-bench.sh", root);
	argv[n++] = script;
	argv[n++] = "-n";
	argv[n++] = (char *)runs;
	argv[n++] = "-s";
	argv[n++] = (char *)seed;
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	argv[n++] = "-B";
	argv[n++] = (char *)build;
	/* What each folder's config.mk adds (pqsnap.h wrote it). */
	snprintf(flags, sizeof(flags), "%s/src/" HIL_PQ_FLAGS_FILE, build);
	argv[n++] = "-F";
	argv[n++] = flags;
	if (named[0] != '\0') {
		argv[n++] = "-N";
		argv[n++] = (char *)named;
	}
	if (host_sigs) {
		argv[n++] = "-S";
	}
	if (board != NULL) {
		const struct hil_link_ops *lk = hil_link_find(board->link.type);

		argv[n++] = "-b";
		argv[n++] = (char *)board->board.name;
		/* What the stub is built for to speak over the link (the
		 * link driver's; empty: the board's UART). */
		argv[n++] = "-L";
		argv[n++] = lk != NULL && lk->stub_build != NULL
				    ? (char *)lk->stub_build
				    : "";
		/* A real board's clock and UART rate, as configured (a link
		 * on a port); an emulator's are its own. */
		if (hil_link_needs(board->link.type) == HIL_LINK_NEEDS_PORT) {
			snprintf(clock, sizeof(clock), "%lu",
				 (unsigned long)board->board.clock_hz);
			snprintf(baud, sizeof(baud), "%lu",
				 (unsigned long)board->link.baud);
			argv[n++] = "-C";
			argv[n++] = clock;
			argv[n++] = "-R";
			argv[n++] = baud;
		}
	}
	for (i = 0; i < plan->n_common; i++) {
		argv[n++] = "-c";
		argv[n++] = (char *)plan->common[i];
	}
	for (i = 0; i < plan->n_host_common; i++) {
		argv[n++] = "-H";
		argv[n++] = (char *)plan->host_common[i];
	}
	for (i = 0; i < plan->n_dirs; i++) {
		argv[n++] = (char *)plan->dirs[i];
	}
	argv[n] = NULL;
	/* Its progress and errors go to our stderr as they come. */
	return hil_proc_run_jailed(argv, NULL, 24u * 3600u * 1000u, status,
				   jail, stop);
}

/*
 * The script's files in out made into the run's rows, report.json written
 * through the result model and rendered. @return HIL_OK or an error
 * (logged; the script's .tsv files stay as they are).
 */
/*
 * --host-signatures: each signature scheme that ran (a verify row) has no
 * sign row; "Not run" says so and why, beside the folders left out.
 * Not a failure: the run was asked for without it.
 */
static void note_host_signatures(struct hil_config *cfg,
				 const struct hil_run *run)
{
	size_t i, j;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		struct hil_config_skipped *s;
		int seen = 0;

		if (r->operation == NULL ||
		    strcmp(r->operation, "verify") != 0) {
			continue;
		}
		for (j = 0; j < cfg->n_not_for_board && !seen; j++) {
			seen = strcmp(cfg->not_for_board[j].name,
				      r->algorithm) == 0 &&
			       strcmp(cfg->not_for_board[j].impl,
				      r->implementation) == 0 &&
			       strncmp(cfg->not_for_board[j].why, "sign:", 5) ==
				       0;
		}
		if (seen || cfg->n_not_for_board == HIL_CFG_MAX_ALGS) {
			continue;
		}
		s = &cfg->not_for_board[cfg->n_not_for_board++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", r->algorithm);
		snprintf(s->impl, sizeof(s->impl), "%s", r->implementation);
		snprintf(s->why, sizeof(s->why),
			 "sign: not run (--host-signatures): signing was not "
			 "emulated (too slow to); the host build signed, the "
			 "image verified those signatures");
	}
}

static int report_plan(const struct hil_pq_plan *plan, const char *config,
		       const char *root, const char *out, const char *started,
		       int jailed, int host_sigs, int *failed)
{
	const char *folders[HIL_PQ_MAX_DIRS];
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	size_t i;
	int ret = HIL_ERR_NOMEM;

	if (cfg == NULL || run == NULL) {
		hil_err("pq: out of memory");
		goto out;
	}
	for (i = 0; i < plan->n_dirs; i++) {
		folders[i] = plan->dirs[i];
	}
	snprintf(run->started, sizeof(run->started), "%s", started);
	run->jailed = jailed;
	hil_pq_provenance(root, run);
	ret = hil_pq_collect(out, folders, plan->n_dirs, cfg, run);
	if (ret != HIL_OK) {
		hil_err("pq: the run's files in %s could not be made into "
			"rows (%s): they are kept as they are",
			out, hil_strerror(ret));
		goto out;
	}
	snprintf(run->config_given, sizeof(run->config_given), "%s", config);
	snprintf(cfg->path, sizeof(cfg->path), "%s", config);
	/* The datasheet's energy where the board has run-current data. */
	hil_energyest_apply(run);
	/* A row failed (its verification, or the scheme's own answer) or a
	 * folder was left out: exit status 1. */
	*failed = cfg->n_not_for_board > 0;
	for (i = 0; i < run->n_rows; i++) {
		*failed |= !run->rows[i].ok;
	}
	if (host_sigs) {
		note_host_signatures(cfg, run);
	}
	ret = hil_report_write_json(run);
	if (ret == HIL_OK) {
		run->reported = 1;
		ret = hil_cli_render_run(run);
		hil_info("pq: %zu rows: %s/report.json, summary.md, "
			 "report.html, benchmarks.md, benchmarks.csv",
			 run->n_rows, out);
	}
out:
	if (run != NULL) {
		hil_run_free(run);
	}
	free(run);
	free(cfg);
	return ret;
}

int cli_pq(int argc, char **argv, const struct cli_env *env)
{
	static const struct opt opts[] = {
		{"--config", 1},       {"--runs", 1},		{"--seed", 1},
		{"--output", 1},       {"--no-jail", 0},	{"--board", 1},
		{"--call-timeout", 1}, {"--host-signatures", 0}};
	const char *config = NULL, *out = NULL, *board = NULL;
	struct hil_config *bcfg = NULL;
	unsigned long call_s = HIL_PQ_CALL_TIMEOUT_MS / 1000u;
	char outbuf[HIL_PQ_PATH];
	struct hil_jail *jail = NULL;
	int no_jail = 0, host_sigs = 0, lock_fd = -1;
	char runs[16] = "3", seed[16] = "1";
	char root[HIL_PQ_PATH], err[2048], started[32];
	char build[HIL_PQ_PATH + 16], named[HIL_PQ_MAX_COMMON * HIL_PQ_PATH];
	int failed = 0;
	struct hil_pq_plan *plan, *copy = NULL;
	size_t c;
	int i, ret, status = -1, board_ret = HIL_OK;

	for (i = 1; i < argc; i++) {
		const char *v;
		unsigned long x;
		int k = cli_next_opt("pq", argc, argv, &i, opts, 8, &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_POSITIONAL) {
			hil_err("pq: unexpected argument \"%s\" (usage: hilrun "
				"pq --config FILE)",
				v);
			return 2;
		}
		if (k == OPT_ERROR) {
			return 2;
		}
		if (k == 0) {
			config = v;
		} else if (k == 4) {
			no_jail = 1;
		} else if (k == 7) {
			host_sigs = 1;
		} else if (k == 3) {
			out = v;
		} else if (k == 5) {
			board = v;
		} else if (k == 6) {
			if (cli_parse_uint(opts[k].name, v, 1, 86400,
					   &call_s) != HIL_OK) {
				return 2;
			}
		} else {
			if (cli_parse_uint(opts[k].name, v, k == 1 ? 1 : 0,
					   k == 1 ? 1000 : 4294967295UL,
					   &x) != HIL_OK) {
				return 2;
			}
			snprintf(k == 1 ? runs : seed, sizeof(runs), "%lu", x);
		}
	}
	if (config == NULL) {
		hil_err("pq: --config FILE is required (usage: hilrun pq "
			"--config FILE)");
		return 2;
	}
	plan = calloc(1, sizeof(*plan));
	if (plan == NULL) {
		hil_err("pq: out of memory");
		return 2;
	}
	ret = hil_pq_plan_load(config, plan, err, sizeof(err));
	/* Every folder checked as it loads: what its copy must find again. */
	if (ret == HIL_OK) {
		ret = hil_pq_plan_check(plan, err, sizeof(err));
	}
	if (ret != HIL_OK) {
		hil_err("%s", err);
		free(plan);
		return 2;
	}
	/* The board: the mps2 under the cycle model, unless --board or
	 * the configuration names one. */
	bcfg = calloc(1, sizeof(*bcfg));
	if (bcfg == NULL) {
		hil_err("pq: out of memory");
		free(plan);
		return 2;
	}
	ret = hil_pq_board_config(config, board, bcfg, err, sizeof(err));
	if (ret == HIL_ERR_NA ||
	    (ret == HIL_OK &&
	     strcmp(bcfg->board.name, "qemu-mps2-an386") == 0)) {
		free(bcfg);
		bcfg = NULL;
	} else if (ret != HIL_OK) {
		hil_err("%s", err);
		free(bcfg);
		free(plan);
		return 2;
	}
	if (host_sigs && bcfg != NULL) {
		hil_err("pq: --host-signatures is for the cycle model's board "
			"(qemu-mps2-an386) only: the image %s runs over its "
			"link does not take the host's signatures",
			bcfg->board.name);
		free(bcfg);
		free(plan);
		return 2;
	}
	if (hil_build_find_root(root, sizeof(root)) != HIL_OK) {
		free(bcfg);
		free(plan);
		return 2;
	}
	/* The output folder exists before the run (the jail binds it),
	 * named absolutely (the jail's working directory is the tree). */
	if (out == NULL) {
		char stamp[32];
		time_t now = time(NULL);

		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
		snprintf(outbuf, sizeof(outbuf), "results/pq-%s", stamp);
		out = outbuf;
	}
	if (make_dir(out) != HIL_OK || realpath(out, outbuf) == NULL) {
		hil_err("pq: cannot make the output folder %s", out);
		free(bcfg);
		free(plan);
		return 2;
	}
	out = outbuf;
	/* The run's own build folder, in its output: two runs at once build
	 * apart; the same output again reuses what is built there (make's
	 * dependencies, the copies keeping their files' times). One run at a
	 * time per output: the folder is locked (flock, released when this
	 * process ends however it ends). */
	snprintf(build, sizeof(build), "%s/build", out);
	lock_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
		hil_err("pq: %s is the output of another hilrun pq running now "
			"(give another --output)",
			out);
		ret = HIL_ERR_CONFIG;
		goto out;
	}
	copy = calloc(1, sizeof(*copy));
	if (copy == NULL || make_dir(build) != HIL_OK) {
		hil_err("pq: cannot make the build folder %s", build);
		ret = HIL_ERR_IO;
		goto out;
	}
	/* What is built is a copy of what the load checked (pqsnap.h). */
	ret = hil_pq_plan_snapshot(plan, build, copy, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("pq: %s", err);
		goto out;
	}
	named[0] = '\0';
	for (c = 0; c < plan->n_common; c++) {
		size_t o = strlen(named);

		snprintf(named + o, sizeof(named) - o, "%s%s", c > 0 ? " " : "",
			 plan->common[c]);
	}
	if (!no_jail) {
		jail = pq_jail(root, out, build);
	}
	hil_info("pq: %zu scheme folder%s from %s on %s%s", plan->n_dirs,
		 plan->n_dirs == 1 ? "" : "s", config,
		 bcfg != NULL ? bcfg->board.name : "qemu-mps2-an386",
		 jail != NULL ? " (jailed)" : "");
	hil_utc_iso(started, sizeof(started));
	ret = run_plan(copy, named, root, runs, seed, out, build, host_sigs,
		       bcfg, jail, env->stop, &status);
	if (ret == HIL_OK && bcfg != NULL && (status == 0 || status == 1)) {
		/* The images built: each flashed and run over the link; a
		 * board that stopped lists its image with the reason, and
		 * what came before a stop (Ctrl-C too) is reported. */
		board_ret = hil_pq_board_run(bcfg, out, jail != NULL, env->stop,
					     (unsigned)call_s * 1000u);
		if (board_ret == HIL_ERR_IO) {
			ret = board_ret;
		}
	}
	if (ret == HIL_OK && (status == 0 || status == 1)) {
		ret = report_plan(plan, config, root, out, started,
				  jail != NULL, host_sigs, &failed);
	}
	if (ret == HIL_OK) {
		ret = board_ret;
	}
out:
	if (lock_fd >= 0) {
		close(lock_fd);
	}
	hil_jail_free(jail);
	free(copy);
	free(bcfg);
	free(plan);
	if (ret != HIL_OK) {
		return 2;
	}
	return status == 2 ? 2 : status != 0 || failed ? 1 : 0;
}
