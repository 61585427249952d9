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
#include "cmd_run.h"
#include "drivers/link/link.h"
#include "image/build.h"
#include "image/pqsnap.h"
#include "lab/boards.h"
#include "lab/lock.h"
#include "pq/pqentries.h"
#include "result/reportjson.h"
#include "result/result.h"
#include "run/energyest.h"
#include "run/pqjournal.h"
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
	"                 [--output DIR] [--call-timeout S] [--wait S]\n"
	"                 [--no-jail] [--host-signatures]\n"
	"       hilrun pq --resume DIR [--call-timeout S] [--wait S] [--no-jail]\n"
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
	"NAME may also be a board id of the hardware map (configs/boards.json,\n"
	"$HILRUN_BOARDS), as FILE's board.id may: its port and probe are\n"
	"taken from the map. A board is used under its lock, as hilrun run\n"
	"uses it (the bare emulator takes none): --wait S waits up to S\n"
	"seconds for another run to free it (default 0).\n"
	"--resume DIR: finish the run in DIR that was cut (Ctrl-C, a kill, a\n"
	"board lost): the folders that ran to their end are kept, the others\n"
	"run again, report.json covers all; its configuration, runs, seed,\n"
	"board and --host-signatures are the first attempt's.\n"
	"The builds, the host reference and QEMU run in a jail (no network;\n"
	"the tree and the copies read-only, DIR writable) whenever one can\n"
	"be set up; --no-jail runs them unjailed.\n"
	"exit: 0 all run and verified, 1 some row failed or was left out,\n"
	"      2 bad usage or configuration, 4 interrupted (finish it with\n"
	"      --resume DIR), 5 the board is busy (another run holds it)\n";

/* -c/-H pairs, the folders, and the script's other options (up to 23
 * words with -F, -K, -N, -S and a board's) with room to spare. */
#define MAX_ARGS (2 * HIL_PQ_MAX_COMMON * 2 + HIL_PQ_MAX_DIRS + 32)

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
		    int keep, const volatile sig_atomic_t *stop, int *status)
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
	if (keep) {
		argv[n++] = "-K"; /* a resumed run: the finished folders stay */
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
		if (seen || hil_config_add_skipped(cfg, &s) != HIL_OK) {
			continue; /* out of memory: the note is left out */
		}
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
	hil_config_free(cfg);
	free(cfg);
	return ret;
}

/*
 * --board NAME: a board id of the hardware map names its platform (the
 * board driver) and its entry; any other NAME is a board driver's name.
 * @return 1 with platform set when NAME is an id of the map, else 0.
 */
static int pq_board_of_map(const char *name, char *platform, size_t len)
{
	struct hil_boards map;
	const struct hil_board *b;
	char err[512];
	int found = 0;

	memset(&map, 0, sizeof(map));
	if (name == NULL || access(hil_boards_path(), R_OK) != 0 ||
	    hil_boards_load(hil_boards_path(), &map, err, sizeof(err)) !=
		    HIL_OK) {
		return 0;
	}
	b = hil_boards_find(&map, name);
	if (b != NULL) {
		snprintf(platform, len, "%s", b->platform);
		found = 1;
	}
	hil_boards_free(&map);
	return found;
}

/*
 * The board of a pq run on a board, as hilrun run takes it: its entry of
 * the hardware map (map_id, or the configuration's board.id) gives its
 * port and probe, and its lock is taken (the same lock ids, the same
 * message when another run holds it), waiting up to wait_s; not when the
 * caller holds it (lock_it 0: the lab daemon's job).
 * @param busy set when the board stayed busy (exit 5).
 * @return HIL_OK or an error, logged.
 */
static int pq_take_board(struct hil_config *bcfg, const char *config,
			 const char *map_id, unsigned wait_s, int lock_it,
			 struct hil_lock *lock, int *busy)
{
	struct run_end *end = calloc(1, sizeof(*end));
	int ret;

	*busy = 0;
	if (end == NULL) {
		hil_err("pq: out of memory");
		return HIL_ERR_NOMEM;
	}
	ret = cli_apply_board_map(bcfg, map_id, end);
	if (ret == HIL_OK && lock_it) {
		ret = cli_lock_board(bcfg, config, wait_s, lock, end);
		*busy = ret != HIL_OK && end->transient;
	}
	free(end);
	return ret;
}

/*
 * --resume DIR: the options of the run in DIR (pq-run.json), which the
 * command line may not change.
 * @return HIL_OK or HIL_ERR_ARG, logged.
 */
static int pq_resume_options(const char *dir, int given,
			     struct hil_pq_resume *r)
{
	if (given) {
		hil_err("pq: --resume %s takes the configuration, --runs, "
			"--seed, --board, --output and --host-signatures of "
			"the run it finishes: give none of them with it",
			dir);
		return HIL_ERR_ARG;
	}
	return hil_pq_journal_read_run(dir, r) == HIL_OK ? HIL_OK : HIL_ERR_ARG;
}

/*
 * The journal of the run in out before anything runs: a new run writes
 * pq-run.json (what --resume starts it again from); a resumed one keeps
 * what its earlier attempts finished and drops the rest.
 * @return HIL_OK or an error, logged.
 */
static int pq_journal_begin(const char *out, const char *resume,
			    const struct hil_pq_resume *r)
{
	size_t kept = 0;
	int ret;

	if (resume == NULL) {
		return hil_pq_journal_write_run(out, r);
	}
	ret = hil_pq_journal_keep(out, &kept);
	if (ret == HIL_OK) {
		hil_info("pq: resuming %s (started %s): %zu folder%s "
			 "finished before, kept; the others run again",
			 out, r->started, kept, kept == 1 ? "" : "s");
	}
	return ret;
}

/* The exit status of a run that ended with ret (the script's status,
 * whether a row failed); an interrupted run says how to finish it. */
static int pq_exit(int ret, int status, int failed, const char *out)
{
	if (ret == HIL_ERR_INTERRUPTED) {
		printf("interrupted: the folders that ran to their end are kept "
		       "(%s/done.tsv); finish with `hilrun pq --resume %s`\n",
		       out, out);
		fflush(stdout);
		return 4;
	}
	if (ret != HIL_OK) {
		return 2;
	}
	return status == 2 ? 2 : status != 0 || failed ? 1 : 0;
}

int cli_pq_board(const char *path, struct hil_config *cfg, char *err,
		 size_t len)
{
	int ret = hil_pq_board_config(path, NULL, cfg, err, len);

	if (ret == HIL_ERR_NA) {
		/* hilrun pq's default board: the mps2 under the model. */
		ret = hil_pq_board_config(path, "qemu-mps2-an386", cfg, err,
					  len);
	}
	return ret;
}

int cli_pq(int argc, char **argv, const struct cli_env *env)
{
	return cli_pq_main(argc, argv, env, 0);
}

int cli_pq_main(int argc, char **argv, const struct cli_env *env,
		int board_locked)
{
	static const struct opt opts[] = {
		{"--config", 1},	 {"--runs", 1},	   {"--seed", 1},
		{"--output", 1},	 {"--no-jail", 0}, {"--board", 1},
		{"--call-timeout", 1},	 {"--wait", 1},	   {"--resume", 1},
		{"--host-signatures", 0}};
	const char *config = NULL, *out = NULL, *board = NULL;
	const char *resume = NULL, *map_id = NULL;
	char platform[HIL_CFG_NAME];
	struct hil_pq_resume res;
	struct hil_lock lock;
	unsigned long wait_s = 0;
	int fixed = 0, busy = 0;
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
		int k = cli_next_opt("pq", argc, argv, &i, opts, 10, &v);

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
		/* What a resumed run takes from its first attempt. */
		fixed |= k == 0 || k == 1 || k == 2 || k == 3 || k == 5 ||
			 k == 9;
		if (k == 0) {
			config = v;
		} else if (k == 7) {
			if (cli_parse_uint(opts[k].name, v, 0, 86400,
					   &wait_s) != HIL_OK) {
				return 2;
			}
		} else if (k == 8) {
			resume = v;
		} else if (k == 4) {
			no_jail = 1;
		} else if (k == 9) {
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
	memset(&res, 0, sizeof(res));
	memset(&lock, 0, sizeof(lock));
	if (resume != NULL) {
		if (pq_resume_options(resume, fixed, &res) != HIL_OK) {
			return 2;
		}
		config = res.config;
		out = resume;
		board = res.board[0] != '\0' ? res.board : NULL;
		snprintf(runs, sizeof(runs), "%lu", res.runs);
		snprintf(seed, sizeof(seed), "%lu", res.seed);
		host_sigs = res.host_signatures;
	}
	if (config == NULL) {
		hil_err("pq: --config FILE is required (usage: hilrun pq "
			"--config FILE)");
		return 2;
	}
	if (pq_board_of_map(board, platform, sizeof(platform))) {
		map_id = board; /* an id of the hardware map */
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
	ret = hil_pq_board_config(config, map_id != NULL ? platform : board,
				  bcfg, err, sizeof(err));
	if (ret == HIL_ERR_NA ||
	    (ret == HIL_OK &&
	     strcmp(bcfg->board.name, "qemu-mps2-an386") == 0)) {
		hil_config_free(bcfg);
		free(bcfg);
		bcfg = NULL;
	} else if (ret != HIL_OK) {
		hil_err("%s", err);
		hil_config_free(bcfg);
		free(bcfg);
		free(plan);
		return 2;
	}
	if (host_sigs && bcfg != NULL) {
		hil_err("pq: --host-signatures is for the cycle model's board "
			"(qemu-mps2-an386) only: the image %s runs over its "
			"link does not take the host's signatures",
			bcfg->board.name);
		hil_config_free(bcfg);
		free(bcfg);
		free(plan);
		return 2;
	}
	if (hil_build_find_root(root, sizeof(root)) != HIL_OK) {
		hil_config_free(bcfg);
		free(bcfg);
		free(plan);
		return 2;
	}
	/* A board of the lab is ours alone while the run uses it. */
	if (bcfg != NULL &&
	    pq_take_board(bcfg, config, map_id, (unsigned)wait_s, !board_locked,
			  &lock, &busy) != HIL_OK) {
		hil_config_free(bcfg);
		free(bcfg);
		free(plan);
		return busy ? 5 : 2;
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
		hil_lock_release(&lock);
		hil_config_free(bcfg);
		free(bcfg);
		free(plan);
		return 2;
	}
	out = outbuf;
	/* One run at a time per output: the folder is locked (flock,
	 * released when this process ends however it ends). */
	lock_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
		hil_err("pq: %s is the output of another hilrun pq running now "
			"(give another --output)",
			out);
		ret = HIL_ERR_CONFIG;
		goto out;
	}
	if (resume == NULL) {
		/* What --resume starts this run again from. */
		if (realpath(config, res.config) == NULL) {
			snprintf(res.config, sizeof(res.config), "%s", config);
		}
		snprintf(res.config_given, sizeof(res.config_given), "%s",
			 config);
		hil_utc_iso(res.started, sizeof(res.started));
		snprintf(res.board, sizeof(res.board), "%s",
			 board != NULL ? board : "");
		res.runs = strtoul(runs, NULL, 10);
		res.seed = strtoul(seed, NULL, 10);
		res.host_signatures = host_sigs;
	}
	if (pq_journal_begin(out, resume, &res) != HIL_OK) {
		ret = HIL_ERR_ARG;
		goto out;
	}
	snprintf(started, sizeof(started), "%s", res.started);
	/* The run's own build folder, in its output: two runs at once build
	 * apart; the same output again (and a resumed run) reuses what is
	 * built there (make's dependencies, the copies keeping their files'
	 * times). */
	snprintf(build, sizeof(build), "%s/build", out);
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
	ret = run_plan(copy, named, root, runs, seed, out, build, host_sigs,
		       bcfg, jail, resume != NULL, env->stop, &status);
	if (ret == HIL_OK && bcfg != NULL && (status == 0 || status == 1)) {
		/* The images built: each flashed and run over the link; a
		 * board that stopped lists its image with the reason, and
		 * what came before a stop (Ctrl-C too) is reported. */
		board_ret = hil_pq_board_run(bcfg, out, jail != NULL, env->stop,
					     (unsigned)call_s * 1000u,
					     (unsigned)strtoul(runs, NULL, 10));
		if (board_ret == HIL_ERR_IO) {
			ret = board_ret;
		}
	}
	if (ret == HIL_OK && (status == 0 || status == 1)) {
		ret = report_plan(plan, res.config_given, root, out, started,
				  jail != NULL, host_sigs, &failed);
	}
	if (ret == HIL_OK) {
		ret = board_ret;
	}
out:
	if (lock_fd >= 0) {
		close(lock_fd);
	}
	hil_lock_release(&lock);
	hil_jail_free(jail);
	free(copy);
	hil_config_free(bcfg);
	free(bcfg);
	free(plan);
	return pq_exit(ret, status, failed, out);
}
