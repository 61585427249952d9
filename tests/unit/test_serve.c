/* Unit tests of the spool daemon with a fake runner: filing, bad job files, resume after a crash or a stop, board locks, two daemons, the stop flag. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "config/config.h"
#include "util/err.h"
#include "lab/jobpolicy.h"
#include "lab/lock.h"
#include "lab/serve.h"
#include "unit_util.h"

#define MAX_CALLS 32

/* The fake runner: what it was called with, and what it does by name. */
struct fake {
	const char *root;  /* where run folders go */
	const char *spool; /* the daemon's ("fillspool" breaks it) */
	const char *lock_dir;
	const char *log; /* append each config name here (or NULL) */
	volatile sig_atomic_t *stop; /* set by the "stopme" configs */
	pid_t test_pid; /* "killme" kills only a daemon forked from it */
	size_t n;
	char names[MAX_CALLS][64];
	char entry_dir[MAX_CALLS][256]; /* report_dir on entry */
	char baseline[MAX_CALLS][256];
	char board_held[MAX_CALLS][64]; /* a lock seen held during the run */
};

struct fx {
	char dir[64];
	char sdir[64]; /* the spool's folder: never inside a root */
	char spool[128];
	char locks[128];
	volatile sig_atomic_t stop;
	struct fake fake;
	struct hil_serve_counts counts;
	struct hil_config_roots roots; /* the fixture's folder */
	struct hil_serve_opts opts;
};

/*
 * By config name: "broken" fails to build, "rows" has failed rows,
 * "regress" regresses, "stopme" is interrupted by a stop (the daemon is
 * asked to stop while it runs), "stopafter" completes but asks the daemon
 * to stop; anything else measures every row.
 */
static int fake_run(void *ctx, const struct hil_config *cfg,
		    const char *baseline, char *report_dir, size_t len,
		    const struct hil_serve_started *started)
{
	struct fake *f = ctx;
	size_t i = f->n;
	char path[512];
	FILE *rep;

	assert_true(i < MAX_CALLS);
	f->n++;
	snprintf(f->names[i], sizeof(f->names[i]), "%s", cfg->name);
	snprintf(f->entry_dir[i], sizeof(f->entry_dir[i]), "%s", report_dir);
	snprintf(f->baseline[i], sizeof(f->baseline[i]), "%s",
		 baseline != NULL ? baseline : "");
	if (hil_lock_probe(f->lock_dir, "qemu-netduino", NULL) == 1) {
		snprintf(f->board_held[i], sizeof(f->board_held[i]),
			 "qemu-netduino");
	} else if (hil_lock_probe(f->lock_dir, "nucleo-1", NULL) == 1) {
		snprintf(f->board_held[i], sizeof(f->board_held[i]),
			 "nucleo-1");
	}
	if (f->log != NULL) {
		int fd = open(f->log, O_WRONLY | O_APPEND | O_CREAT, 0644);
		char line[80];
		int n = snprintf(line, sizeof(line), "%s\n", cfg->name);
		struct timespec ts = {0, 20 * 1000000L};

		assert_true(fd >= 0);
		assert_int_equal(write(fd, line, (size_t)n), n);
		close(fd);
		nanosleep(&ts, NULL); /* let the other daemon race us */
	}
	if (strcmp(cfg->name, "broken") == 0) {
		report_dir[0] = '\0';
		return HIL_ERR_BUILD;
	}
	if (strcmp(cfg->name, "mistake") == 0) {
		/* A mistake only the run finds (a folder's api.h). */
		report_dir[0] = '\0';
		assert_non_null(started->error);
		snprintf(
			started->error, started->error_len,
			"algorithms[0]: bench.operations names nothing it can do");
		return HIL_ERR_CONFIG;
	}
	if (report_dir[0] == '\0') {
		snprintf(report_dir, len, "%s/%s-%d-%zu", f->root, cfg->name,
			 (int)getpid(), i);
	}
	mkdir(report_dir, 0755);
	assert_non_null(started);
	if (strcmp(cfg->name, "killme") == 0 && getpid() != f->test_pid) {
		/* The run folder exists, rows are being measured into its
		 * journal: the daemon dies as with SIGKILL (the test runs it
		 * in a child). */
		started->fn(started->arg, report_dir);
		snprintf(path, sizeof(path), "%s/journal.jsonl", report_dir);
		rep = fopen(path, "w");
		assert_non_null(rep);
		fclose(rep);
		raise(SIGKILL);
	}
	started->fn(started->arg, report_dir);
	snprintf(path, sizeof(path), "%s/report.json", report_dir);
	rep = fopen(path, "w");
	assert_non_null(rep);
	fputs("{}\n", rep);
	fclose(rep);
	if (strcmp(cfg->name, "rows") == 0) {
		return HIL_ERR_VERIFY;
	}
	if (strcmp(cfg->name, "regress") == 0) {
		return HIL_SERVE_REGRESSION;
	}
	if (strcmp(cfg->name, "stopme") == 0) {
		*f->stop = 1;
		return HIL_ERR_INTERRUPTED;
	}
	if (strcmp(cfg->name, "stopafter") == 0) {
		*f->stop = 1;
	}
	if (strcmp(cfg->name, "linklost") == 0) {
		snprintf(started->error, started->error_len,
			 "1 row lost to the link (row status link_failed)");
		return HIL_SERVE_TRANSIENT;
	}
	if (strcmp(cfg->name, "fillspool") == 0) {
		/* As a full file system would: nothing can be written into
		 * done/ or failed/ (files where the folders were). */
		char dir[600];
		const char *const subs[] = {"done", "failed"};
		size_t k;

		for (k = 0; k < 2; k++) {
			snprintf(dir, sizeof(dir), "%s/%s", f->spool, subs[k]);
			assert_int_equal(ut_rm_tree(dir), 0);
			ut_write_squoted(dir, "full");
		}
	}
	return HIL_OK;
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-serve-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(fx->sdir, sizeof(fx->sdir), "/tmp/hilrun-spool-XXXXXX");
	if (mkdtemp(fx->sdir) == NULL) {
		ut_rm_tree(fx->dir);
		free(fx);
		return -1;
	}
	snprintf(fx->spool, sizeof(fx->spool), "%s/spool", fx->sdir);
	snprintf(fx->locks, sizeof(fx->locks), "%s/locks", fx->dir);
	fx->fake.root = fx->dir;
	fx->fake.spool = fx->spool;
	fx->fake.lock_dir = fx->locks;
	fx->fake.stop = &fx->stop;
	fx->fake.test_pid = getpid();
	fx->opts.spool = fx->spool;
	fx->opts.run = fake_run;
	fx->opts.ctx = &fx->fake;
	fx->opts.lock_dir = fx->locks;
	fx->opts.poll_ms = 50;
	fx->opts.once = 1;
	fx->opts.stop = &fx->stop;
	fx->opts.counts = &fx->counts;
	fx->roots.dir[0] = fx->dir;
	fx->roots.n = 1;
	fx->opts.roots = &fx->roots;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret = ut_rm_tree(fx->dir);

	ret |= ut_rm_tree(fx->sdir);
	free(fx);
	return ret;
}

/* A valid config file named name (its "name" too); path receives it. */
static void config_file(const struct fx *fx, const char *name, char *path,
			size_t n)
{
	char text[256];

	snprintf(path, n, "%s/%s.json", fx->dir, name);
	snprintf(text, sizeof(text),
		 "{'name': '%s', 'algorithms': ['ascon-aead128']}", name);
	ut_write_squoted(path, text);
}

static void make_spool(const struct fx *fx)
{
	static const char *const subs[] = {"", "/incoming", "/running", "/done",
					   "/failed"};
	char path[256];
	size_t i;

	for (i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s%s", fx->spool, subs[i]);
		assert_true(mkdir(path, 0755) == 0 || access(path, F_OK) == 0);
	}
}

/* Drop a job file into spool/sub (squoted JSON). */
static void drop(const struct fx *fx, const char *sub, const char *name,
		 const char *squoted)
{
	char path[256];

	make_spool(fx);
	snprintf(path, sizeof(path), "%s/%s/%s", fx->spool, sub, name);
	ut_write_squoted(path, squoted);
}

/* Drop {"config": "<dir>/<cfg>.json"}, writing that config. */
static void drop_config_job(const struct fx *fx, const char *sub,
			    const char *job, const char *cfg)
{
	char path[256], text[512];

	config_file(fx, cfg, path, sizeof(path));
	snprintf(text, sizeof(text), "{'config': '%s'}", path);
	drop(fx, sub, job, text);
}

static int exists(const struct fx *fx, const char *sub, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/%s", fx->spool, sub, name);
	return access(path, F_OK) == 0;
}

/* Job files (NAME.json, not results or state) left in spool/sub. */
static size_t count(const struct fx *fx, const char *sub)
{
	char path[256];
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", fx->spool, sub);
	d = opendir(path);
	assert_non_null(d);
	for (e = readdir(d); e != NULL; e = readdir(d)) {
		size_t l = strlen(e->d_name);

		if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0 &&
		    (l < 12 ||
		     strcmp(e->d_name + l - 12, ".result.json") != 0)) {
			n++;
		}
	}
	closedir(d);
	return n;
}

/* The result file spool/sub/<base>.result.json, parsed (caller deletes). */
static cJSON *result(const struct fx *fx, const char *sub, const char *base)
{
	char path[256], text[8192];
	size_t n;
	FILE *f;
	cJSON *j;

	snprintf(path, sizeof(path), "%s/%s/%s.result.json", fx->spool, sub,
		 base);
	f = fopen(path, "r");
	if (f == NULL) {
		fail_msg("no result file %s", path);
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	j = cJSON_Parse(text);
	assert_non_null(j);
	return j;
}

static const char *str(const cJSON *j, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, key);

	return cJSON_IsString(it) ? it->valuestring : NULL;
}

static int num(const cJSON *j, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, key);

	assert_true(cJSON_IsNumber(it));
	return it->valueint;
}

/* pq jobs: what the fake pq loader and runner were given. */
struct fake_pq {
	size_t loads, runs;
	char path[256];
	unsigned long job_runs, job_seed;
	char board[64];
};

static struct fake_pq pq_seen;

/* The fake pq loader: a configuration named "outside" is refused as a
 * folder outside the roots would be; any other puts the netduino in cfg. */
static int fake_pq_load(void *ctx, const char *path,
			const struct hil_config_roots *roots,
			struct hil_config *cfg, char *err, size_t len)
{
	(void)ctx;
	assert_non_null(roots);
	pq_seen.loads++;
	if (strstr(path, "outside") != NULL) {
		snprintf(err, len,
			 "%s: the folder /elsewhere is outside the "
			 "lab's roots",
			 path);
		return HIL_ERR_CONFIG;
	}
	snprintf(cfg->board.name, sizeof(cfg->board.name), "qemu-netduino");
	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "qemu");
	snprintf(cfg->flasher.program, sizeof(cfg->flasher.program),
		 "qemu-system-arm");
	snprintf(cfg->results_dir, sizeof(cfg->results_dir), "results");
	return HIL_OK;
}

static int fake_pq_run(void *ctx, const struct hil_config *cfg,
		       const char *baseline, char *report_dir, size_t len,
		       const struct hil_serve_started *started)
{
	struct fake *f = ctx;

	assert_null(baseline);
	pq_seen.runs++;
	snprintf(pq_seen.path, sizeof(pq_seen.path), "%s", cfg->path);
	pq_seen.job_runs = cfg->bench.runs;
	pq_seen.job_seed = cfg->bench.seed;
	snprintf(pq_seen.board, sizeof(pq_seen.board), "%s",
		 hil_lock_probe(f->lock_dir, "qemu-netduino", NULL) == 1
			 ? "held"
			 : "free");
	snprintf(report_dir, len, "%s/pq-run", f->root);
	mkdir(report_dir, 0755);
	started->fn(started->arg, report_dir);
	return HIL_ERR_VERIFY;
}

/* A job of kind "pq" goes to the pq runner (never the run runner) with
 * its configuration's real path, its runs and seed, under the board's
 * lock, and is filed as a run job is; its mistakes are the job's. */
static void test_serve_pq_jobs(void **state)
{
	struct fx *fx = *state;
	char path[256], real[256], text[512];
	cJSON *r;

	memset(&pq_seen, 0, sizeof(pq_seen));
	fx->opts.pq_load = fake_pq_load;
	fx->opts.pq_run = fake_pq_run;
	snprintf(path, sizeof(path), "%s/kem.json", fx->dir);
	ut_write_squoted(path, "{'algorithms': []}");
	assert_non_null(realpath(path, real));
	snprintf(text, sizeof(text),
		 "{'kind': 'pq', 'config': '%s', 'runs': 7, 'seed': 42}", path);
	drop(fx, "incoming", "a-pq.json", text);
	snprintf(text, sizeof(text), "{'kind': 'pq', 'config': '%s'}", path);
	drop(fx, "incoming", "b-pq-defaults.json", text);
	snprintf(text, sizeof(text),
		 "{'kind': 'pq', 'config': '%s/outside.json'}", fx->dir);
	drop(fx, "incoming", "c-outside.json", text);
	snprintf(text, sizeof(text),
		 "{'kind': 'pq', 'config': '%s', 'runs': 1001}", path);
	drop(fx, "incoming", "d-runs.json", text);
	snprintf(text, sizeof(text),
		 "{'kind': 'pq', 'config': '%s', 'baseline': '%s'}", path,
		 path);
	drop(fx, "incoming", "e-baseline.json", text);
	snprintf(text, sizeof(text), "{'kind': 'bench', 'config': '%s'}", path);
	drop(fx, "incoming", "f-kind.json", text);
	drop_config_job(fx, "incoming", "g-run.json", "plain");
	config_file(fx, "plain", path, sizeof(path));
	snprintf(text, sizeof(text), "{'config': '%s', 'runs': 3}", path);
	drop(fx, "incoming", "h-runs-of-a-run.json", text);

	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	/* Two pq jobs ran, the run job went to the run runner. */
	assert_int_equal(pq_seen.runs, 2);
	assert_int_equal(fx->fake.n, 1);
	assert_string_equal(fx->fake.names[0], "plain");
	assert_string_equal(pq_seen.path, real);
	assert_int_equal(pq_seen.job_runs, 3); /* b: the defaults */
	assert_int_equal(pq_seen.job_seed, 1);
	assert_string_equal(pq_seen.board, "held");
	r = result(fx, "failed", "a-pq");
	assert_int_equal(num(r, "exit_status"), 1);
	assert_string_equal(str(r, "board"), "qemu-netduino");
	assert_non_null(strstr(str(r, "run_dir"), "pq-run"));
	cJSON_Delete(r);
	r = result(fx, "failed", "c-outside");
	assert_non_null(strstr(str(r, "error"), "outside the lab's roots"));
	cJSON_Delete(r);
	r = result(fx, "failed", "d-runs");
	assert_non_null(strstr(str(r, "error"),
			       "runs: expected a whole number from 1 to 1000"));
	cJSON_Delete(r);
	r = result(fx, "failed", "e-baseline");
	assert_non_null(strstr(str(r, "error"), "a pq job takes none"));
	cJSON_Delete(r);
	r = result(fx, "failed", "f-kind");
	assert_non_null(strstr(str(r, "error"), "kind: expected"));
	cJSON_Delete(r);
	r = result(fx, "failed", "h-runs-of-a-run");
	assert_non_null(strstr(str(r, "error"), "a pq job's"));
	cJSON_Delete(r);
	assert_true(exists(fx, "done", "g-run.json"));
}

/* A daemon without a pq runner files a pq job as failed, saying so. */
static void test_serve_without_pq_refuses_pq_jobs(void **state)
{
	struct fx *fx = *state;
	char path[256], text[512];
	cJSON *r;

	snprintf(path, sizeof(path), "%s/kem.json", fx->dir);
	ut_write_squoted(path, "{'algorithms': []}");
	snprintf(text, sizeof(text), "{'kind': 'pq', 'config': '%s'}", path);
	drop(fx, "incoming", "pq.json", text);
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	r = result(fx, "failed", "pq");
	assert_non_null(strstr(str(r, "error"), "takes no pq jobs"));
	cJSON_Delete(r);
	assert_int_equal(fx->fake.n, 0);
}

static void test_serve_three_jobs_one_invalid(void **state)
{
	struct fx *fx = *state;
	char bad[256], want[1024], report[512], text[512];
	struct hil_config cfg = {0};
	cJSON *r;

	drop_config_job(fx, "incoming", "1-alpha.json", "alpha");
	snprintf(bad, sizeof(bad), "%s/bad.json", fx->dir);
	ut_write_squoted(
		bad, "{'algorithms': ['ascon-aead128'], 'bench': {'runs': 0}}");
	snprintf(text, sizeof(text), "{'config': '%s'}", bad);
	drop(fx, "incoming", "2-bad.json", text);
	drop_config_job(fx, "incoming", "3-gamma.json", "gamma");

	/* Once mode: one failed job makes it say so. */
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->counts.done, 2);
	assert_int_equal(fx->counts.failed, 1);
	assert_int_equal(count(fx, "incoming"), 0);
	assert_int_equal(count(fx, "running"), 0);
	assert_int_equal(count(fx, "done"), 2);
	assert_int_equal(count(fx, "failed"), 1);
	assert_true(exists(fx, "done", "1-alpha.json"));
	assert_true(exists(fx, "done", "3-gamma.json"));
	assert_true(exists(fx, "failed", "2-bad.json"));

	/* Name order; the invalid one never reached the runner. */
	assert_int_equal(fx->fake.n, 2);
	assert_string_equal(fx->fake.names[0], "alpha");
	assert_string_equal(fx->fake.names[1], "gamma");
	/* The board was locked while each ran. */
	assert_string_equal(fx->fake.board_held[0], "qemu-netduino");
	assert_int_equal(hil_lock_probe(fx->locks, "qemu-netduino", NULL), 0);

	r = result(fx, "done", "1-alpha");
	assert_string_equal(str(r, "job"), "1-alpha.json");
	assert_string_equal(str(r, "status"), "done");
	assert_int_equal(num(r, "exit_status"), 0);
	assert_string_equal(str(r, "summary"),
			    "all rows measured and verified");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "error")));
	snprintf(report, sizeof(report), "%s/alpha-%d-0/report.json", fx->dir,
		 (int)getpid());
	assert_string_equal(str(r, "report"), report);
	assert_int_equal(access(str(r, "report"), F_OK), 0);
	assert_string_equal(str(r, "board"), "qemu-netduino");
	assert_non_null(strstr(str(r, "config"), "/alpha.json"));
	assert_non_null(str(r, "started"));
	assert_non_null(str(r, "finished"));
	cJSON_Delete(r);
	r = result(fx, "done", "3-gamma");
	assert_int_equal(num(r, "exit_status"), 0);
	cJSON_Delete(r);

	/* The loader's own message, naming the file and key. */
	assert_int_equal(hil_config_load(bad, &cfg, want, sizeof(want)),
			 HIL_ERR_CONFIG);
	r = result(fx, "failed", "2-bad");
	assert_string_equal(str(r, "status"), "failed");
	assert_int_equal(num(r, "exit_status"), 2);
	assert_string_equal(str(r, "error"), want);
	assert_non_null(strstr(str(r, "error"), "bench.runs"));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "report")));
	cJSON_Delete(r);
	hil_config_free(&cfg);
}

static void test_serve_resumes_job_left_in_running_first(void **state)
{
	struct fx *fx = *state;

	drop_config_job(fx, "incoming", "a.json", "fresh");
	/* The daemon was killed while running z.json: no .state even. */
	drop_config_job(fx, "running", "z.json", "leftover");

	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 2);
	assert_string_equal(fx->fake.names[0], "leftover");
	assert_string_equal(fx->fake.entry_dir[0], "");
	assert_string_equal(fx->fake.names[1], "fresh");
	assert_true(exists(fx, "done", "z.json"));
	assert_true(exists(fx, "done", "z.result.json"));
	assert_true(exists(fx, "done", "a.json"));
	assert_false(exists(fx, "running", "z.state"));
	assert_int_equal(count(fx, "running"), 0);
}

/*
 * A daemon killed mid-job (SIGKILL: no handler runs) left the run folder in
 * the job's state as soon as the run made it: the next daemon hands it back
 * to be resumed, so the rows in its journal are kept.
 */
static void
test_serve_job_of_a_killed_daemon_resumes_its_run_folder(void **state)
{
	struct fx *fx = *state;
	char first[256];
	pid_t pid;
	int st = 0;

	drop_config_job(fx, "incoming", "a.json", "killme");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		hil_serve(&fx->opts);
		_exit(0); /* not reached: the fake kills us */
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	assert_true(exists(fx, "running", "a.json"));
	assert_true(exists(fx, "running", "a.state"));
	snprintf(first, sizeof(first), "%s/killme-%d-0", fx->dir, (int)pid);

	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 1);
	assert_string_equal(fx->fake.entry_dir[0], first);
	assert_true(exists(fx, "done", "a.json"));
	assert_false(exists(fx, "running", "a.state"));
}

static void test_serve_interrupted_job_resumes_its_run_folder(void **state)
{
	struct fx *fx = *state;
	char first[256];

	drop_config_job(fx, "incoming", "a.json", "stopme");
	drop_config_job(fx, "incoming", "b.json", "later");

	/* The stop comes while a.json runs: it stays in running/. */
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_INTERRUPTED);
	assert_int_equal(fx->fake.n, 1);
	assert_true(exists(fx, "running", "a.json"));
	assert_true(exists(fx, "running", "a.state"));
	assert_true(exists(fx, "incoming", "b.json"));
	assert_int_equal(fx->counts.done + fx->counts.failed, 0);
	snprintf(first, sizeof(first), "%s/stopme-%d-0", fx->dir,
		 (int)getpid());

	/* Restarted: the same run folder is handed back to be resumed. The
	 * fake is interrupted again, then once more; a stop is not an
	 * attempt, so the job is never given up for it. */
	fx->stop = 0;
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_INTERRUPTED);
	fx->stop = 0;
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_INTERRUPTED);
	fx->stop = 0;
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_INTERRUPTED);
	assert_int_equal(fx->fake.n, 4);
	assert_string_equal(fx->fake.entry_dir[0], "");
	assert_string_equal(fx->fake.entry_dir[1], first);
	assert_string_equal(fx->fake.entry_dir[3], first);
	assert_true(exists(fx, "running", "a.json"));
}

static void test_serve_gives_up_a_job_that_keeps_killing_it(void **state)
{
	struct fx *fx = *state;
	cJSON *r;

	drop_config_job(fx, "running", "crash.json", "crasher");
	drop(fx, "running", "crash.state",
	     "{'attempts': 3, 'run_dir': '/tmp/nowhere'}");
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0);
	assert_true(exists(fx, "failed", "crash.json"));
	assert_false(exists(fx, "running", "crash.state"));
	r = result(fx, "failed", "crash");
	assert_int_equal(num(r, "exit_status"), 2);
	assert_string_equal(
		str(r, "error"),
		"gave up after 3 attempts: the daemon stopped while running this job each time");
	cJSON_Delete(r);

	/* Two attempts so far: a third is made. */
	drop_config_job(fx, "running", "again.json", "again");
	drop(fx, "running", "again.state", "{'attempts': 2, 'run_dir': ''}");
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->counts.done, 1);
	assert_int_equal(fx->counts.failed, 1); /* added up over both calls */
	assert_int_equal(fx->fake.n, 1);
	assert_true(exists(fx, "done", "again.json"));
}

static void test_serve_run_errors_go_to_failed_with_status(void **state)
{
	struct fx *fx = *state;
	cJSON *r;

	drop_config_job(fx, "incoming", "1.json", "broken");
	drop_config_job(fx, "incoming", "2.json", "rows");
	drop_config_job(fx, "incoming", "3.json", "regress");

	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->counts.done, 0);
	assert_int_equal(fx->counts.failed, 3);

	r = result(fx, "failed", "1");
	assert_string_equal(str(r, "status"), "failed");
	assert_int_equal(num(r, "exit_status"), 2);
	assert_string_equal(str(r, "summary"), "could not start");
	assert_string_equal(str(r, "error"), "firmware build failed");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "report")));
	cJSON_Delete(r);

	r = result(fx, "failed", "2");
	assert_int_equal(num(r, "exit_status"), 1);
	assert_string_equal(str(r, "summary"),
			    "some rows failed (see the report)");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "error")));
	assert_non_null(strstr(str(r, "report"), "/rows-"));
	cJSON_Delete(r);

	r = result(fx, "failed", "3");
	assert_int_equal(num(r, "exit_status"), 3);
	assert_string_equal(str(r, "summary"),
			    "regression against the baseline");
	cJSON_Delete(r);
}

/* tests/fixtures/NAME copied to path. */
static void copy_fixture(const char *name, const char *path)
{
	const char *src = getenv("HIL_SRC_DIR");
	char from[512], buf[65536];
	size_t n;
	FILE *in, *out;

	snprintf(from, sizeof(from), "%s/tests/fixtures/%s",
		 src != NULL ? src : ".", name);
	in = fopen(from, "r");
	assert_non_null(in);
	n = fread(buf, 1, sizeof(buf), in);
	fclose(in);
	out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(fwrite(buf, 1, n, out), n);
	assert_int_equal(fclose(out), 0);
}

static void test_serve_inline_config_and_baseline(void **state)
{
	struct fx *fx = *state;
	char base[256], text[512];
	FILE *f;
	cJSON *r;

	snprintf(base, sizeof(base), "%s/base-report.json", fx->dir);
	copy_fixture("report-min.json", base);
	snprintf(text, sizeof(text),
		 "{'config': {'name': 'inl', 'algorithms': ['ascon-aead128'], "
		 "'bench': {'runs': 5}}, 'baseline': '%s'}",
		 base);
	(void)f;
	drop(fx, "incoming", "inl.json", text);
	drop(fx, "incoming", "inl-bad.json",
	     "{'config': {'algorithms': ['ascon-aead128'], 'bench': {'rnus': 5}}}");

	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 1);
	assert_string_equal(fx->fake.names[0], "inl");
	assert_string_equal(fx->fake.baseline[0], base);
	r = result(fx, "done", "inl");
	assert_string_equal(str(r, "config"), "inline");
	assert_string_equal(str(r, "baseline"), base);
	cJSON_Delete(r);

	r = result(fx, "failed", "inl-bad");
	assert_string_equal(str(r, "config"), "inline");
	assert_non_null(strstr(str(r, "error"), "inline config: "));
	assert_non_null(strstr(str(r, "error"), "bench.rnus"));
	cJSON_Delete(r);
}

/* A regression gate that cannot be read, or lies outside the lab's roots,
 * fails the job before it runs: never a silent pass. */
static void test_serve_missing_baseline_fails_the_job(void **state)
{
	struct fx *fx = *state;
	cJSON *r;

	drop(fx, "incoming", "gone.json",
	     "{'config': {'name': 'gone', 'algorithms': ['ascon-aead128']},"
	     " 'baseline': 'results/none/report.json'}");
	drop(fx, "incoming", "far.json",
	     "{'config': {'name': 'far', 'algorithms': ['ascon-aead128']},"
	     " 'baseline': '/etc/hostname'}");
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0);
	r = result(fx, "failed", "gone");
	assert_non_null(strstr(str(r, "error"), "baseline: cannot read"));
	assert_int_equal(num(r, "exit_status"), 2);
	cJSON_Delete(r);
	r = result(fx, "failed", "far");
	assert_non_null(strstr(str(r, "error"), "outside the lab's roots"));
	cJSON_Delete(r);
}

/* What a job may not do (docs/lab.md, "Trust"): run a program of its own
 * through a flag or the flasher, read files outside the roots, use names
 * that break the spool or the log. Each is filed as failed, never run. */
static void test_serve_hostile_jobs_are_refused(void **state)
{
	struct fx *fx = *state;
	static const struct {
		const char *job;
		const char *config;
		const char *says;
	} cases[] = {
		{"bflag", "'build': {'cflags': ['-B/tmp/evil/']}",
		 "build.cflags[0]: \"-B/tmp/evil/\": runs programs"},
		{"mflag", "'build': {'cflags': ['-MF/tmp/x']}",
		 "writes dependency files"},
		{"plugin", "'build': {'cflags': ['-fplugin=/tmp/p.so']}",
		 "loads a shared object"},
		{"wl", "'build': {'cflags': ['-Wl,-T,/etc/passwd']}",
		 "passes options to the linker"},
		{"spec", "'build': {'cflags': ['-specs=/tmp/s']}",
		 "reads a specs file"},
		{"incl", "'build': {'cflags': ['-I/etc']}",
		 "-I of a folder outside this configuration's implementation folders"},
		{"cmpdbg", "'build': {'cflags': ['-fcompare-debug=-B..']}",
		 "runs the compiler again"},
		{"offload", "'build': {'cflags': ['-foffload=-B..']}",
		 "runs an offload compiler"},
		{"ocd",
		 "'board': {'name': 'nucleo-f401re'}, 'link': {'type': 'serial', 'port': '/dev/ttyACM0'},"
		 " 'flasher': {'type': 'openocd', 'openocd_config': ['spool/incoming/.ocd.cfg']}",
		 "a job may name only OpenOCD's installed scripts"},
		{"prog", "'flasher': {'type': 'qemu', 'program': '/bin/sh'}",
		 "flasher.program: a job may not name a program"},
		{"path",
		 "'algorithms': [{'name': 'ascon-aead128', 'impl': 'x', 'path': '/usr'}]",
		 "is outside"},
		{"ext", "'extends': '/etc/hostname'", "is outside"},
	};
	char text[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s.json", cases[i].job);
		snprintf(text, sizeof(text), "{'config': {'name': '%s', %s%s}}",
			 cases[i].job,
			 strstr(cases[i].config, "'algorithms'") != NULL
				 ? ""
				 : "'algorithms': ['ascon-aead128'], ",
			 cases[i].config);
		drop(fx, "incoming", name, text);
	}
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0); /* nothing ran */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *r = result(fx, "failed", cases[i].job);
		const char *err = str(r, "error");

		if (err == NULL || strstr(err, cases[i].says) == NULL) {
			fail_msg("%s: error \"%s\" does not say \"%s\"",
				 cases[i].job, err ? err : "(none)",
				 cases[i].says);
		}
		cJSON_Delete(r);
	}
}

/* A job name with a line break or of 255 bytes is moved aside under a
 * name of the daemon's, with a result saying why; nothing runs. */
static void test_serve_bad_job_names_are_moved_aside(void **state)
{
	struct fx *fx = *state;
	char longname[200];

	memset(longname, 'a', 190);
	memcpy(longname + 190, ".json", 6);
	drop(fx, "incoming", "two\nlines.json",
	     "{'config': {'algorithms': ['ascon-aead128']}}");
	drop(fx, "incoming", longname,
	     "{'config': {'algorithms': ['ascon-aead128']}}");
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0);
	assert_int_equal(count(fx, "incoming"), 0);
	assert_int_equal(count(fx, "failed"), 2);
	assert_int_equal(fx->counts.failed, 2);
}

/* A planted state naming a run folder elsewhere is not believed. */
static void test_serve_planted_state_cannot_redirect_a_run(void **state)
{
	struct fx *fx = *state;
	char path[256];
	FILE *f;

	drop_config_job(fx, "running", "planted.json", "planted");
	snprintf(path, sizeof(path), "%s/running/planted.state", fx->spool);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"attempts\": 0, \"run_dir\": \"/var/tmp\"}", f);
	fclose(f);
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 1);
	assert_string_equal(fx->fake.entry_dir[0], ""); /* a new run */
}

/* issue #33 finding 11: a planted state naming a run folder the daemon
 * made for another job (inside the working directory, holding a journal
 * and a report) was believed: the job resumed into it and overwrote its
 * report. The folder must be marked as made for this very job. */
static void test_serve_state_naming_another_jobs_run_is_refused(void **state)
{
	struct fx *fx = *state;
	char big[256], path[256], text[512];
	struct stat before, after;

	/* A finished run of another job, "big", made by the daemon. */
	drop_config_job(fx, "incoming", "big.json", "big");
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 1);
	snprintf(big, sizeof(big), "%s/big-%d-0", fx->dir, (int)getpid());
	snprintf(path, sizeof(path), "%s/journal.jsonl", big);
	ut_write_file(path, "{}\n", 3, 0644);
	snprintf(path, sizeof(path), "%s/report.json", big);
	assert_int_equal(stat(path, &before), 0);

	/* A tiny job left in running/ with a state naming big's folder. */
	drop_config_job(fx, "running", "tiny.json", "tiny");
	snprintf(text, sizeof(text), "{'attempts': 0, 'run_dir': '%s'}", big);
	drop(fx, "running", "tiny.state", text);
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 2);
	assert_string_equal(fx->fake.entry_dir[1], ""); /* a new run */
	assert_int_equal(stat(path, &after), 0);
	assert_true(before.st_ino == after.st_ino &&
		    before.st_mtime == after.st_mtime);

	/* The same job again (same name, same text): its folder is
	 * resumed; a mark another user could have written is not believed. */
	drop_config_job(fx, "running", "big.json", "big");
	snprintf(text, sizeof(text), "{'attempts': 0, 'run_dir': '%s'}", big);
	drop(fx, "running", "big.state", text);
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_string_equal(fx->fake.entry_dir[2], big);
	snprintf(path, sizeof(path), "%s/.hilrun-job", big);
	assert_int_equal(chmod(path, 0666), 0);
	drop_config_job(fx, "running", "big.json", "big");
	drop(fx, "running", "big.state", text);
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_string_equal(fx->fake.entry_dir[3], "");
}

static void test_serve_job_writing_outside_its_folder_is_refused(void **state)
{
	struct fx *fx = *state;
	cJSON *r;

	drop(fx, "incoming", "etc.json",
	     "{'config': {'algorithms': ['ascon-aead128'], 'results_dir': '/etc'}}");
	drop(fx, "incoming", "up.json",
	     "{'config': {'algorithms': ['ascon-aead128'], 'results_dir': 'r/../../x'}}");
	drop(fx, "incoming", "in.json",
	     "{'config': {'algorithms': ['ascon-aead128'], 'results_dir': 'r/nightly'}}");

	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	/* Neither bad job ran; the good one did. */
	assert_int_equal(fx->fake.n, 1);
	assert_int_equal(fx->counts.failed, 2);
	r = result(fx, "failed", "etc");
	assert_int_equal(num(r, "exit_status"), 2);
	assert_non_null(strstr(str(r, "error"),
			       "inline configuration: results_dir \"/etc\""));
	assert_non_null(strstr(str(r, "error"), "working directory"));
	cJSON_Delete(r);
	r = result(fx, "failed", "up");
	assert_non_null(strstr(str(r, "error"), "results_dir \"r/../../x\""));
	cJSON_Delete(r);
	assert_true(exists(fx, "done", "in.json"));
}

/* What the one JSON loader adds to its message about a job file. */
#define HINT                                                                   \
	"; a job is {\"config\": \"PATH\"} or {\"config\": {...}}, optionally with \"baseline\": \"PATH\"; or {\"kind\": \"pq\", \"config\": \"PATH\"}, optionally with \"runs\" and \"seed\""

static void test_serve_bad_job_files_never_crash(void **state)
{
	static const struct {
		const char *name, *text, *error;
	} bad[] = {
		{"a.json", "not json at all",
		 "job file: line 1, column 1: not JSON (a job file starts with \"{\")" HINT},
		{"b.json", "",
		 "job file: line 1, column 1: invalid JSON (unexpected end of input)" HINT},
		{"c.json", "['configs/qemu.json']",
		 "job file: expected a JSON object ({ ... }) at the top level" HINT},
		{"d.json", "{'config': 'x.json', 'priority': 1}",
		 "job file: priority: unknown key" HINT},
		{"m.json", "{'config': 'x.json', 'basline': 'r.json'}",
		 "job file: basline: unknown key (did you mean \"baseline\"?)" HINT},
		{"e.json", "{'baseline': 'x'}",
		 "job file: config: required (a config file path or an inline configuration object)"},
		{"f.json", "{'config': 42}",
		 "job file: config: expected a config file path (string) or an inline configuration (object)"},
		{"g.json",
		 "{'config': {'algorithms': ['ascon-aead128']}, 'baseline': 7}",
		 "job file: baseline: expected the path of a report (a non-empty string)"},
		{"h.json", "{'config': 'a.json', 'config': 'b.json'}",
		 "job file: key \"config\" appears twice in one object" HINT},
		{"i.json", "{'config': '/nonexistent/x.json'}",
		 NULL /* the loader's message, checked below */},
		{"j.json",
		 "{'config': {'algorithms': ['ascon-aead128']}} trailing",
		 "job file: line 1, column 47: text after the end of the JSON value" HINT},
	};
	struct fx *fx = *state;
	size_t i, n = sizeof(bad) / sizeof(bad[0]);
	char base[16];
	cJSON *r;

	for (i = 0; i < n; i++) {
		drop(fx, "incoming", bad[i].name, bad[i].text);
	}
	/* Ignored: hidden (being written) and not *.json. */
	drop(fx, "incoming", ".k.json", "{}");
	drop(fx, "incoming", "notes.txt", "{}");

	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0);
	assert_int_equal(fx->counts.failed, n);
	for (i = 0; i < n; i++) {
		snprintf(base, sizeof(base), "%.1s", bad[i].name);
		assert_true(exists(fx, "failed", bad[i].name));
		r = result(fx, "failed", base);
		assert_int_equal(num(r, "exit_status"), 2);
		if (bad[i].error != NULL) {
			assert_string_equal(str(r, "error"), bad[i].error);
		} else {
			assert_non_null(
				strstr(str(r, "error"), "/nonexistent/x.json"));
		}
		cJSON_Delete(r);
	}
	assert_true(exists(fx, "incoming", ".k.json"));
	assert_true(exists(fx, "incoming", "notes.txt"));
}

/*
 * A busy board (another daemon on the spool, a run by hand) is no failure:
 * the job goes back to incoming/ for later, a job for another board runs
 * meanwhile, and --once says a job was left (transient), naming the holder
 * in the log. Two daemons on one spool once filed 15 of 20 jobs as failed
 * "board busy".
 */
static void test_serve_busy_board_sends_the_job_back_not_to_failed(void **state)
{
	struct fx *fx = *state;
	struct hil_lock lock;
	struct ut_capture cap;
	char want[128], msg[4096], path[256], text[512];

	assert_int_equal(hil_lock_acquire(&lock, fx->locks, "qemu-netduino",
					  "configs/manual.json", 0, NULL),
			 HIL_OK);
	drop_config_job(fx, "incoming", "a.json", "alpha");
	/* b is for another board: it runs while a waits for its turn. */
	config_file(fx, "beta", path, sizeof(path));
	ut_write_squoted(path,
			 "{'name': 'beta', 'board': {'name': "
			 "'nucleo-f401re'}, 'link': {'port': "
			 "'/dev/ttyACM7'}, 'algorithms': ['ascon-aead128']}");
	snprintf(text, sizeof(text), "{'config': '%s'}", path);
	drop(fx, "incoming", "b.json", text);
	fx->opts.wait_s = 0;
	setenv("HILRUN_LOG", "1", 1); /* the warning that names the holder */
	ut_capture_begin(&cap);
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_TIMEOUT);
	ut_capture_end(&cap, msg, sizeof(msg));
	setenv("HILRUN_LOG", "0", 1);
	hil_lock_release(&lock);
	assert_int_equal(fx->fake.n, 1);
	assert_string_equal(fx->fake.names[0], "beta");
	assert_true(exists(fx, "incoming", "a.json"));
	assert_false(exists(fx, "failed", "a.json"));
	assert_false(exists(fx, "failed", "a.result.json"));
	assert_false(exists(fx, "running", "a.json"));
	assert_true(exists(fx, "done", "b.json"));
	/* Sent back before b ran, and again after. */
	assert_true(fx->counts.busy >= 1);
	assert_int_equal(fx->counts.failed, 0);
	snprintf(
		want, sizeof(want),
		"board qemu-netduino is in use by pid %ld (configs/manual.json) since ",
		(long)getpid());
	assert_non_null(strstr(msg, want));
	assert_non_null(strstr(msg, "back to incoming/"));

	/* Once the board is free the same job runs. */
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 2);
	assert_string_equal(fx->fake.names[1], "alpha");
	assert_true(exists(fx, "done", "a.json"));
}

/* A baseline that is not a report fails the job before it runs (it was
 * found only by the gate, after the whole run). */
static void
test_serve_baseline_that_is_not_a_report_fails_before_running(void **state)
{
	struct fx *fx = *state;
	char base[256], text[512];
	cJSON *r;

	snprintf(base, sizeof(base), "%s/not-a-report.json", fx->dir);
	ut_write_squoted(base, "{'rows': 'no'}");
	snprintf(
		text, sizeof(text),
		"{'config': {'name': 'gated', 'algorithms': ['ascon-aead128']},"
		" 'baseline': '%s'}",
		base);
	drop(fx, "incoming", "gated.json", text);
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0);
	r = result(fx, "failed", "gated");
	assert_non_null(strstr(str(r, "error"), "job file: baseline: "));
	assert_non_null(strstr(str(r, "error"), base));
	assert_int_equal(num(r, "exit_status"), 2);
	cJSON_Delete(r);
}

/* Permanent mistakes are caught when the job is loaded, exit status 2
 * (not 5, "worth a retry"), each quoted in the job's result, not only in
 * the daemon's log: a misspelt name, more runs than the stub keeps, a
 * link.port that is no serial port. */
static void test_serve_permanent_mistakes_are_quoted_in_the_result(void **state)
{
	struct fx *fx = *state;
	char port[256], text[512];
	cJSON *r;

	drop(fx, "incoming", "typo.json",
	     "{'config': {'name': 'typo', 'algorithms': ['ascon-aed128']}}");
	drop(fx, "incoming", "many.json",
	     "{'config': {'name': 'many', 'algorithms': ['ascon-aead128'],"
	     " 'bench': {'runs': 4096}}}");
	snprintf(port, sizeof(port), "%s/not-a-tty", fx->dir);
	ut_write_squoted(port, "x");
	snprintf(text, sizeof(text),
		 "{'config': {'name': 'port', 'board': {'name': "
		 "'nucleo-f401re'}, 'link': {'port': '%s'}, 'algorithms': "
		 "['ascon-aead128']}}",
		 port);
	drop(fx, "incoming", "port.json", text);
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	assert_int_equal(fx->fake.n, 0);
	r = result(fx, "failed", "typo");
	assert_non_null(
		strstr(str(r, "error"), "inline config: algorithms[0].name: "));
	assert_non_null(strstr(str(r, "error"), "did you mean"));
	assert_int_equal(num(r, "exit_status"), 2);
	cJSON_Delete(r);
	r = result(fx, "failed", "many");
	assert_non_null(
		strstr(str(r, "error"),
		       "bench.runs: expected an integer from 1 to 2048"));
	assert_int_equal(num(r, "exit_status"), 2);
	cJSON_Delete(r);
	r = result(fx, "failed", "port");
	assert_non_null(strstr(str(r, "error"), "link.port: "));
	assert_non_null(strstr(str(r, "error"), "not a serial port"));
	assert_int_equal(num(r, "exit_status"), 2);
	cJSON_Delete(r);
}

/* The filed job is the daemon's copy: the submitter's file (which it may
 * still hold, or have linked elsewhere) is not what done/ holds. */
static void test_serve_filed_job_is_a_copy(void **state)
{
	struct fx *fx = *state;
	char path[256], filed[256], a[512], b[512];
	struct stat before, after;
	FILE *f;
	size_t n;

	drop_config_job(fx, "incoming", "c.json", "gamma");
	snprintf(path, sizeof(path), "%s/incoming/c.json", fx->spool);
	assert_int_equal(stat(path, &before), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(a, 1, sizeof(a) - 1, f);
	a[n] = '\0';
	fclose(f);
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	snprintf(filed, sizeof(filed), "%s/done/c.json", fx->spool);
	assert_int_equal(stat(filed, &after), 0);
	assert_true(after.st_ino != before.st_ino ||
		    after.st_dev != before.st_dev);
	f = fopen(filed, "r");
	assert_non_null(f);
	n = fread(b, 1, sizeof(b) - 1, f);
	b[n] = '\0';
	fclose(f);
	assert_string_equal(a, b);
	assert_false(exists(fx, "running", "c.json"));
}

/* A full (here: broken) spool: a job that ran but cannot be filed is left
 * in running/ and serve --once does not say all went well (it exited 0). */
/* A configuration mistake the run finds is quoted in the job's result, not
 * only "invalid configuration" with the reason in the daemon's log. */
static void test_serve_run_config_error_is_quoted(void **state)
{
	struct fx *fx = *state;
	cJSON *r;

	drop_config_job(fx, "incoming", "m.json", "mistake");
	drop_config_job(fx, "incoming", "n.json", "linklost");
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_VERIFY);
	r = result(fx, "failed", "m");
	assert_string_equal(
		str(r, "error"),
		"invalid configuration: algorithms[0]: bench.operations names nothing it can do");
	assert_int_equal(num(r, "exit_status"), 2);
	cJSON_Delete(r);
	/* A transient end says which (rows lost to the link), not only
	 * "the board could not be flashed, reached or kept". */
	r = result(fx, "failed", "n");
	assert_string_equal(str(r, "error"),
			    "1 row lost to the link (row status link_failed)");
	assert_int_equal(num(r, "exit_status"), 5);
	cJSON_Delete(r);
}

static void test_serve_unfiled_job_is_not_a_success(void **state)
{
	struct fx *fx = *state;

	drop_config_job(fx, "incoming", "full.json", "fillspool");
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_IO);
	assert_int_equal(fx->fake.n, 1);
	assert_true(exists(fx, "running", "full.json"));
	assert_int_equal(fx->counts.unfiled, 1);
	assert_int_equal(fx->counts.done, 0);
}

static void test_serve_locks_the_mapped_board(void **state)
{
	struct fx *fx = *state;
	struct hil_boards map;
	cJSON *r;

	assert_int_equal(
		hil_boards_parse(
			"[{\"id\": \"nucleo-1\", \"platform\": "
			"\"nucleo-f401re\", \"serial\": \"/dev/ttyACM0\"}]",
			&map, NULL, 0),
		HIL_OK);
	fx->opts.boards = &map;
	drop(fx, "incoming", "n.json",
	     "{'config': {'name': 'onboard', 'algorithms': ['ascon-aead128'], "
	     "'board': {'name': 'nucleo-f401re'}, "
	     "'link': {'type': 'serial', 'port': '/dev/ttyACM0'}}}");
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 1);
	assert_string_equal(fx->fake.board_held[0], "nucleo-1");
	r = result(fx, "done", "n");
	assert_string_equal(str(r, "board"), "nucleo-1");
	cJSON_Delete(r);
	hil_boards_free(&map);
}

static void test_serve_two_daemons_never_take_the_same_job(void **state)
{
	struct fx *fx = *state;
	char log[256], name[32], text[256], line[64];
	int seen[12] = {0};
	int status, i;
	pid_t child;
	FILE *f;

	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "job%02d.json", i);
		snprintf(
			text, sizeof(text),
			"{'config': {'name': 'j%02d', 'algorithms': ['ascon-aead128']}}",
			i);
		drop(fx, "incoming", name, text);
	}
	snprintf(log, sizeof(log), "%s/calls.log", fx->dir);
	fx->fake.log = log;
	fx->opts.wait_s =
		30; /* they share the board: one waits for the other */

	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		_exit(hil_serve(&fx->opts) == HIL_OK ? 0 : 1);
	}
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	/* Every job ran exactly once, by one daemon or the other. */
	f = fopen(log, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		int k = atoi(line + 1);

		assert_true(k >= 0 && k < 12);
		seen[k]++;
	}
	fclose(f);
	for (i = 0; i < 12; i++) {
		assert_int_equal(seen[i], 1);
	}
	assert_int_equal(count(fx, "done"), 12);
	assert_int_equal(count(fx, "incoming"), 0);
	assert_int_equal(count(fx, "running"), 0);
}

/*
 * Two daemons on one spool and one board without waiting (--wait 0, the
 * old default): one finds the board busy again and again, and used to file
 * each such job as failed "board busy" (15 of 20 in the hostile round).
 * Now no job fails: each is done, or back in incoming/ for later.
 */
static void test_serve_two_daemons_without_wait_fail_no_job(void **state)
{
	struct fx *fx = *state;
	char log[256], name[32], text[256];
	int status, i, ret;
	pid_t child;

	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "job%02d.json", i);
		snprintf(
			text, sizeof(text),
			"{'config': {'name': 'j%02d', 'algorithms': ['ascon-aead128']}}",
			i);
		drop(fx, "incoming", name, text);
	}
	snprintf(log, sizeof(log), "%s/calls.log", fx->dir);
	fx->fake.log = log; /* each run takes 20 ms: they overlap */
	fx->opts.wait_s = 0;

	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		ret = hil_serve(&fx->opts);
		_exit(ret == HIL_OK || ret == HIL_ERR_TIMEOUT ? 0 : 1);
	}
	ret = hil_serve(&fx->opts);
	assert_true(ret == HIL_OK || ret == HIL_ERR_TIMEOUT);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(count(fx, "failed"), 0);
	assert_int_equal(count(fx, "running"), 0);
	assert_int_equal(count(fx, "done") + count(fx, "incoming"), 12);
}

static void test_serve_stop_flag_ends_the_loop(void **state)
{
	struct fx *fx = *state;

	/* Daemon mode: the flag set during a job ends the loop after it. */
	fx->opts.once = 0;
	drop_config_job(fx, "incoming", "1.json", "stopafter");
	drop_config_job(fx, "incoming", "2.json", "second");
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 1);
	assert_true(exists(fx, "done", "1.json"));
	assert_true(exists(fx, "incoming", "2.json"));

	/* Already set: returns at once, nothing run. */
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	assert_int_equal(fx->fake.n, 1);
}

static volatile sig_atomic_t *alarm_flag;

static void on_alarm(int sig)
{
	(void)sig;
	*alarm_flag = 1;
}

static void test_serve_signal_stops_an_idle_daemon(void **state)
{
	struct fx *fx = *state;
	struct sigaction sa, old;
	struct timespec t0, t1;
	long ms;

	/* As main() would: the handler only sets the flag. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	alarm_flag = &fx->stop;
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	fx->opts.once = 0;
	fx->opts.poll_ms = 60000; /* the nap itself must notice */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	alarm(1);
	assert_int_equal(hil_serve(&fx->opts), HIL_OK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sigaction(SIGALRM, &old, NULL);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= 900 && ms < UT_HANG_MS);
	/* It made its spool. */
	assert_true(exists(fx, "", "incoming"));
	assert_true(exists(fx, "", "failed"));
}

static void test_serve_rejects_missing_options(void **state)
{
	struct fx *fx = *state;
	struct hil_serve_opts o = fx->opts;

	assert_int_equal(hil_serve(NULL), HIL_ERR_ARG);
	o.run = NULL;
	assert_int_equal(hil_serve(&o), HIL_ERR_ARG);
	o = fx->opts;
	o.spool = "";
	assert_int_equal(hil_serve(&o), HIL_ERR_ARG);
}

/* issue #33 finding 1: with the spool inside a root (the default root is
 * the working directory, where docs/systemd put the spool), a job could
 * name a folder another job planted in incoming/. The daemon refuses to
 * start, naming both; nothing is created. */
static void test_serve_refuses_a_spool_inside_a_root(void **state)
{
	struct fx *fx = *state;
	struct hil_serve_opts o = fx->opts;
	struct hil_config_roots none;
	char spool[160], old[4096], log[8192];
	struct ut_capture cap;
	int ret;

	snprintf(spool, sizeof(spool), "%s/spool", fx->dir);
	o.spool = spool;
	ut_capture_begin(&cap);
	ret = hil_serve(&o);
	ut_capture_end(&cap, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_ARG);
	assert_non_null(strstr(log, spool));
	assert_non_null(strstr(log, fx->dir));
	assert_int_equal(access(spool, F_OK), -1);

	/* The default root: the working directory. */
	memset(&none, 0, sizeof(none));
	o.roots = &none;
	o.spool = "spool";
	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(fx->dir), 0);
	ut_capture_begin(&cap);
	ret = hil_serve(&o);
	ut_capture_end(&cap, log, sizeof(log));
	assert_int_equal(chdir(old), 0);
	assert_int_equal(ret, HIL_ERR_ARG);
	assert_non_null(strstr(log, "the default root"));

	/* A root inside the spool is the same hole. */
	o.roots = &fx->roots;
	o.spool = "/tmp";
	assert_int_equal(hil_serve(&o), HIL_ERR_ARG);
	o.spool = fx->spool; /* outside: serves */
	assert_int_equal(hil_serve(&o), HIL_OK);
}

/* issue #33 finding 9: a spool folder that is a link (done -> a private
 * folder) is refused, not followed, chmod'ed and written. */
static void test_serve_refuses_a_linked_spool_folder(void **state)
{
	struct fx *fx = *state;
	char priv[160], done[160];
	struct stat st;

	make_spool(fx);
	snprintf(priv, sizeof(priv), "%s/private", fx->sdir);
	assert_int_equal(mkdir(priv, 0700), 0);
	snprintf(done, sizeof(done), "%s/done", fx->spool);
	assert_int_equal(rmdir(done), 0);
	assert_int_equal(symlink(priv, done), 0);
	drop_config_job(fx, "incoming", "a.json", "a");
	assert_int_equal(hil_serve(&fx->opts), HIL_ERR_IO);
	assert_int_equal(fx->fake.n, 0);
	assert_int_equal(stat(priv, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(rmdir(priv), 0); /* nothing was written there */
}

/* OpenOCD configs are Tcl: a job names only OpenOCD's installed scripts,
 * and OpenOCD is handed their full path (it would look in its working
 * directory first, where a planted "interface/stlink.cfg" could wait). */
static void test_serve_job_openocd_scripts_are_the_installed_ones(void **state)
{
	static const char *const bad[] = {"spool/incoming/.ocd.cfg",
					  "../../etc/passwd",
					  "/tmp/x.cfg",
					  "interface/../../../../etc/passwd",
					  "interface/nonesuch.cfg",
					  "interface/stlink.cfg;sh",
					  "interface"};
	struct hil_config cfg = {0};
	char err[512];
	size_t i;

	(void)state;
	if (access(HIL_OPENOCD_SCRIPTS "/interface/stlink.cfg", R_OK) != 0) {
		skip(); /* openocd is a dependency (scripts/deps.sh) */
	}
	hil_config_defaults(&cfg);
	snprintf(cfg.flasher.files[0], sizeof(cfg.flasher.files[0]),
		 "interface/stlink.cfg");
	snprintf(cfg.flasher.files[1], sizeof(cfg.flasher.files[1]),
		 "target/stm32f4x.cfg");
	cfg.flasher.n_files = 2;
	assert_int_equal(hil_job_check(&cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.flasher.files[0],
			    HIL_OPENOCD_SCRIPTS "/interface/stlink.cfg");
	assert_string_equal(cfg.flasher.files[1],
			    HIL_OPENOCD_SCRIPTS "/target/stm32f4x.cfg");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hil_config_defaults(&cfg);
		snprintf(cfg.flasher.files[0], sizeof(cfg.flasher.files[0]),
			 "%s", bad[i]);
		cfg.flasher.n_files = 1;
		assert_int_equal(hil_job_check(&cfg, err, sizeof(err)),
				 HIL_ERR_CONFIG);
		if (strstr(err, "flasher.openocd_config[0]") == NULL ||
		    strstr(err, "installed scripts") == NULL) {
			fail_msg("%s: %s", bad[i], err);
		}
	}
	hil_config_free(&cfg);
}

/* The bus driver's rule for a job: a Linux bus is a /dev/i2c-N device,
 * never another file; other buses are not the policy's to judge. */
static void test_a_job_s_linux_bus_must_be_an_i2c_device(void **state)
{
	static const char *const bad[] = {"linux:/dev/sda", "linux:/dev/i2c-",
					  "linux:/dev/i2c-1x",
					  "linux:/etc/passwd"};
	struct hil_config cfg = {0};
	char err[512];
	size_t i;

	(void)state;
	hil_config_defaults(&cfg);
	snprintf(cfg.sensor.bus, sizeof(cfg.sensor.bus), "linux:/dev/i2c-12");
	assert_int_equal(hil_job_check(&cfg, err, sizeof(err)), HIL_OK);
	snprintf(cfg.sensor.bus, sizeof(cfg.sensor.bus), "sim:ina219@0x40");
	assert_int_equal(hil_job_check(&cfg, err, sizeof(err)), HIL_OK);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[256];

		hil_config_defaults(&cfg);
		snprintf(cfg.sensor.bus, sizeof(cfg.sensor.bus), "%s", bad[i]);
		assert_int_equal(hil_job_check(&cfg, err, sizeof(err)),
				 HIL_ERR_CONFIG);
		snprintf(
			want, sizeof(want),
			"sensor.bus: \"%s\": a job's Linux I2C bus must be /dev/i2c-N",
			bad[i]);
		assert_string_equal(err, want);
	}
	hil_config_free(&cfg);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_serve_three_jobs_one_invalid),
		T(test_serve_resumes_job_left_in_running_first),
		T(test_serve_interrupted_job_resumes_its_run_folder),
		T(test_serve_job_of_a_killed_daemon_resumes_its_run_folder),
		T(test_serve_gives_up_a_job_that_keeps_killing_it),
		T(test_serve_run_errors_go_to_failed_with_status),
		T(test_serve_inline_config_and_baseline),
		T(test_serve_missing_baseline_fails_the_job),
		T(test_serve_hostile_jobs_are_refused),
		T(test_serve_job_openocd_scripts_are_the_installed_ones),
		T(test_a_job_s_linux_bus_must_be_an_i2c_device),
		T(test_serve_refuses_a_spool_inside_a_root),
		T(test_serve_refuses_a_linked_spool_folder),
		T(test_serve_bad_job_names_are_moved_aside),
		T(test_serve_planted_state_cannot_redirect_a_run),
		T(test_serve_state_naming_another_jobs_run_is_refused),
		T(test_serve_job_writing_outside_its_folder_is_refused),
		T(test_serve_bad_job_files_never_crash),
		T(test_serve_busy_board_sends_the_job_back_not_to_failed),
		T(test_serve_baseline_that_is_not_a_report_fails_before_running),
		T(test_serve_permanent_mistakes_are_quoted_in_the_result),
		T(test_serve_filed_job_is_a_copy),
		T(test_serve_unfiled_job_is_not_a_success),
		T(test_serve_run_config_error_is_quoted),
		T(test_serve_locks_the_mapped_board),
		T(test_serve_two_daemons_never_take_the_same_job),
		T(test_serve_two_daemons_without_wait_fail_no_job),
		T(test_serve_stop_flag_ends_the_loop),
		T(test_serve_signal_stops_an_idle_daemon),
		T(test_serve_rejects_missing_options),
		T(test_serve_pq_jobs),
		T(test_serve_without_pq_refuses_pq_jobs),
	};

	/* The daemon reports each job on stderr; keep the test output short. */
	setenv("HILRUN_LOG", "0", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
