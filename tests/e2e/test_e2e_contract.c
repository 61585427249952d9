/* End-to-end test of what a CI engine (Buildbot, Slurm, a CI runner) relies on, without any engine: a board named by id from the hardware map, the exit statuses (0, 2, 4, 5), two runs on one board serialised, and a result file on every way out, SIGTERM included, and --die-with-parent: the run ends as on SIGTERM, its QEMU with it, when the process that started it is killed. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"
#include "lab/lock.h"
#include "util/proc.h"

static char tmp[64];
static char locks[96];

/* Long enough for a run to be caught in the middle: every wait below is
 * for something the run logs, never for a time. */
#define WAIT_MS 120000u

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* tmp/NAME */
static void tpath(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", tmp, name);
}

/* A configuration of the emulated board: two rows of runs each (of 16 and
 * 256 bytes, or with long_rows of 1024 and 2048 bytes). */
static void write_config(const char *name, unsigned runs, int long_rows,
			 const char *extra)
{
	char path[128], text[1024];

	tpath(path, sizeof(path), name);
	snprintf(
		text, sizeof(text),
		"{\"name\": \"contract\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": [\"ascon-aead128\"],%s"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [%s], \"runs\": %u, \"warmup\": 1,"
		" \"leak_runs\": 0}}",
		extra, long_rows ? "1024, 2048" : "16, 256", runs);
	write_file(path, text);
}

/* argv of hilrun with up to 12 arguments after the program. */
struct args {
	char *v[16];
	int n;
};

static void args_init(struct args *a)
{
	memset(a, 0, sizeof(*a));
	a->v[a->n++] = (char *)e2e_hilrun_bin();
}

static void arg(struct args *a, const char *s)
{
	assert_true(a->n < 15);
	a->v[a->n++] = (char *)s;
}

/* Run hilrun to its end; @return its exit status. */
static int run(struct args *a, const char *log)
{
	int st = -1;

	assert_int_equal(hil_proc_run(a->v, log, WAIT_MS, &st), HIL_OK);
	return st;
}

/* Wait until the log at path has a line with needle while p runs. */
static void wait_for_log(struct hil_proc *p, const char *path,
			 const char *needle)
{
	uint64_t t0 = e2e_ms_now();

	while (e2e_lines_with(path, needle) == 0) {
		if (!hil_proc_alive(p) || e2e_ms_now() - t0 > WAIT_MS) {
			char log[16384];

			read_text(path, log, sizeof(log));
			fail_msg("no \"%s\" in the log of %s:\n%s", needle,
				 hil_proc_name(p), log);
		}
		e2e_sleep_ms(20);
	}
}

static const char *str_at(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int num_at(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	assert_true(cJSON_IsNumber(v));
	return v->valueint;
}

static int is_null(const cJSON *o, const char *key)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* The result file: every key of the spool's schema, status matching. */
static cJSON *load_result(const char *path, int exit_status)
{
	static const char *const keys[] = {
		"job",	 "status", "exit_status", "summary", "transient",
		"error", "report", "run_dir",	  "config",  "baseline",
		"board", "host",   "started",	  "finished"};
	cJSON *r = e2e_load_json(path);
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (cJSON_GetObjectItemCaseSensitive(r, keys[i]) == NULL) {
			fail_msg("%s: no \"%s\"", path, keys[i]);
		}
	}
	assert_int_equal(num_at(r, "exit_status"), exit_status);
	assert_string_equal(str_at(r, "status"),
			    exit_status == 0 ? "done" : "failed");
	assert_true(is_null(r, "job")); /* not a spool job */
	assert_int_equal(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "transient")),
		exit_status == 5);
	return r;
}

static void
test_board_by_id_runs_with_the_maps_board_and_files_a_result(void **state)
{
	char conf[128], res[128], rj[128], junit[128], log[128], out[128];
	char text[16384], id[64];
	const char *report;
	struct args a;
	cJSON *r;

	(void)state;
	write_config("short.json", 50, 0, "");
	tpath(conf, sizeof(conf), "short.json");
	tpath(res, sizeof(res), "res-id");
	tpath(rj, sizeof(rj), "id.result.json");
	tpath(junit, sizeof(junit), "id.junit.xml");
	tpath(log, sizeof(log), "id.log");
	tpath(out, sizeof(out), "id.out");

	/* The board from $HILRUN_BOARD, the map from $HILRUN_BOARDS. */
	assert_int_equal(setenv("HILRUN_BOARD", "qemu-b", 1), 0);
	args_init(&a);
	arg(&a, "--config");
	arg(&a, conf);
	arg(&a, "--results");
	arg(&a, res);
	arg(&a, "--result-json");
	arg(&a, rj);
	arg(&a, "--junit");
	arg(&a, junit);
	assert_int_equal(run(&a, log), 0);
	assert_int_equal(unsetenv("HILRUN_BOARD"), 0);

	r = load_result(rj, 0);
	assert_string_equal(str_at(r, "board"), "qemu-b");
	assert_string_equal(str_at(r, "config"), conf);
	assert_true(is_null(r, "error"));
	report = str_at(r, "report");
	assert_non_null(report);
	assert_int_equal(report[0], '/'); /* absolute */
	e2e_report_str(report, "board.id", id, sizeof(id));
	assert_string_equal(id, "qemu-b");

	/* --junit without --baseline: the rows, and no comparison of the
	 * run with itself, neither in the file nor on stdout. */
	read_text(junit, text, sizeof(text));
	e2e_assert_contains(text,
			    "<testsuite name=\"hilrun.rows\" tests=\"2\"");
	assert_null(strstr(text, "hilrun.regression"));
	read_text(log, text, sizeof(text));
	e2e_assert_contains(text, "ascon-aead128");
	assert_null(strstr(text, "compare:"));
	cJSON_Delete(r);
}

static void
test_a_board_not_in_the_map_or_of_another_platform_exits_2(void **state)
{
	char conf[128], rj[128], log[128], res[128];
	const char *err;
	struct args a;
	cJSON *r;

	(void)state;
	write_config("short.json", 50, 0, "");
	tpath(conf, sizeof(conf), "short.json");
	tpath(rj, sizeof(rj), "bad.result.json");
	tpath(log, sizeof(log), "bad.log");
	tpath(res, sizeof(res), "res-bad");

	args_init(&a);
	arg(&a, "--board");
	arg(&a, "qemu-z");
	arg(&a, "--config");
	arg(&a, conf);
	arg(&a, "--results");
	arg(&a, res);
	arg(&a, "--result-json");
	arg(&a, rj);
	assert_int_equal(run(&a, log), 2);
	r = load_result(rj, 2);
	err = str_at(r, "error");
	assert_non_null(err);
	e2e_assert_contains(err, "\"qemu-z\" is not in the hardware map");
	e2e_assert_contains(err, "known: qemu-a qemu-b nucleo-1");
	assert_true(is_null(r, "run_dir"));
	cJSON_Delete(r);

	/* The nucleo of the map with a QEMU configuration. */
	a.v[2] = "nucleo-1";
	assert_int_equal(run(&a, log), 2);
	r = load_result(rj, 2);
	e2e_assert_contains(str_at(r, "error"),
			    "--board nucleo-1 is a nucleo-f401re (");
	e2e_assert_contains(str_at(r, "error"),
			    "is a configuration for qemu-netduino");
	cJSON_Delete(r);
	assert_int_equal(access(res, F_OK), -1); /* nothing was run */

	/* A configuration that does not load: 2, with a result. */
	a.v[4] = "/nonexistent/config.json";
	a.v[2] = "qemu-a";
	assert_int_equal(run(&a, log), 2);
	r = load_result(rj, 2);
	e2e_assert_contains(str_at(r, "error"), "/nonexistent/config.json");
	cJSON_Delete(r);

	/* An unknown argument to boards is an error, not ignored. */
	args_init(&a);
	arg(&a, "boards");
	arg(&a, "--jsn");
	assert_int_equal(run(&a, log), 2);
}

static void test_a_busy_board_or_a_failed_flash_exits_5(void **state)
{
	char conf[128], rj[128], log[128], res[128], out[4096];
	struct hil_lock lock;
	char *msg = NULL;
	struct args a;
	cJSON *r, *list, *b;
	int held = 0, seen = 0;

	(void)state;
	write_config("short.json", 50, 0, "");
	tpath(conf, sizeof(conf), "short.json");
	tpath(rj, sizeof(rj), "busy.result.json");
	tpath(log, sizeof(log), "busy.log");
	tpath(res, sizeof(res), "res-busy");

	memset(&lock, 0, sizeof(lock));
	assert_int_equal(hil_lock_acquire(&lock, locks, "qemu-a",
					  "the contract test", 0, &msg),
			 HIL_OK);
	free(msg);

	/* hilrun boards --json sees who holds what. */
	args_init(&a);
	arg(&a, "boards");
	arg(&a, "--json");
	a.v[a.n] = NULL;
	{
		int st = -1;

		assert_int_equal(
			hil_proc_capture(a.v, out, sizeof(out), 60000, &st),
			HIL_OK);
		assert_int_equal(st, 0);
	}
	list = cJSON_Parse(out);
	assert_non_null(list);
	cJSON_ArrayForEach(b, list)
	{
		const cJSON *lk = cJSON_GetObjectItemCaseSensitive(b, "lock");
		const char *bid = str_at(b, "id");

		assert_non_null(bid);
		if (strcmp(bid, "qemu-a") == 0) {
			assert_string_equal(str_at(lk, "state"), "held");
			e2e_assert_contains(str_at(lk, "holder"),
					    "the contract test");
			held++;
		} else {
			assert_string_equal(str_at(lk, "state"), "free");
			seen++;
		}
	}
	assert_int_equal(held, 1);
	assert_int_equal(seen, 2);
	cJSON_Delete(list);

	args_init(&a);
	arg(&a, "--board");
	arg(&a, "qemu-a");
	arg(&a, "--config");
	arg(&a, conf);
	arg(&a, "--results");
	arg(&a, res);
	arg(&a, "--result-json");
	arg(&a, rj);
	arg(&a, "--wait");
	arg(&a, "0");
	assert_int_equal(run(&a, log), 5);
	r = load_result(rj, 5);
	assert_string_equal(str_at(r, "board"), "qemu-a");
	e2e_assert_contains(str_at(r, "error"), "the contract test");
	assert_true(is_null(r, "run_dir"));
	cJSON_Delete(r);
	assert_int_equal(access(res, F_OK), -1); /* no run was started */
	hil_lock_release(&lock);

	/* The emulator that will not start: a flash failure, worth a retry;
	 * the run folder has the report of the failed run. */
	write_config("dead.json", 50, 0,
		     " \"flasher\": {\"program\": \"/bin/false\"},");
	tpath(conf, sizeof(conf), "dead.json");
	assert_int_equal(run(&a, log), 5);
	r = load_result(rj, 5);
	assert_non_null(str_at(r, "run_dir"));
	assert_non_null(str_at(r, "report"));
	cJSON_Delete(r);
}

/* run.started and run.finished of the report named in a result file. */
static void run_times(const char *result, char *started, char *finished)
{
	cJSON *r = load_result(result, 0);
	const char *report = str_at(r, "report");

	assert_non_null(report);
	e2e_report_str(report, "run.started", started, 32);
	e2e_report_str(report, "run.finished", finished, 32);
	cJSON_Delete(r);
}

static void test_two_runs_on_one_board_are_serialised(void **state)
{
	char conf[128], res[2][128], rj[2][128], log[2][128];
	char started[2][32], finished[2][32];
	struct hil_proc *p[2];
	struct hil_lock lock;
	char *msg = NULL;
	int st[2] = {-1, -1};
	int i, most = 0, waiting;

	(void)state;
	write_config("short.json", 200, 0, "");
	tpath(conf, sizeof(conf), "short.json");
	/* Both runs are queued behind a lock the test holds, so that
	 * they are certain to compete for the board once it is free. */
	memset(&lock, 0, sizeof(lock));
	assert_int_equal(hil_lock_acquire(&lock, locks, "qemu-a",
					  "the contract test", 0, &msg),
			 HIL_OK);
	free(msg);
	for (i = 0; i < 2; i++) {
		char name[32];
		struct args a;

		snprintf(name, sizeof(name), "res-ser%d", i);
		tpath(res[i], sizeof(res[i]), name);
		snprintf(name, sizeof(name), "ser%d.result.json", i);
		tpath(rj[i], sizeof(rj[i]), name);
		snprintf(name, sizeof(name), "ser%d.log", i);
		tpath(log[i], sizeof(log[i]), name);
		args_init(&a);
		arg(&a, "--board");
		arg(&a, "qemu-a");
		arg(&a, "--config");
		arg(&a, conf);
		arg(&a, "--results");
		arg(&a, res[i]);
		arg(&a, "--result-json");
		arg(&a, rj[i]);
		arg(&a, "--wait");
		arg(&a, "600");
		assert_int_equal(hil_proc_spawn(&p[i], a.v, log[i]), HIL_OK);
	}
	for (i = 0; i < 2; i++) {
		wait_for_log(p[i], log[i], "the contract test");
	}
	hil_lock_release(&lock);

	/* Never two emulators of this board at once, in any sample. */
	do {
		int n = e2e_count_qemu(tmp, NULL);

		most = n > most ? n : most;
		waiting = hil_proc_alive(p[0]) || hil_proc_alive(p[1]);
		e2e_sleep_ms(20);
	} while (waiting);
	assert_true(most <= 1);
	for (i = 0; i < 2; i++) {
		assert_int_equal(hil_proc_wait(p[i], WAIT_MS, &st[i]), HIL_OK);
		assert_int_equal(st[i], 0);
		run_times(rj[i], started[i], finished[i]);
	}
	/* The later run began when the earlier had finished (reports' UTC
	 * seconds: of two runs begun in one second, the earlier is the one
	 * that also finished first). */
	i = strcmp(started[0], started[1]) < 0 ||
			    (strcmp(started[0], started[1]) == 0 &&
			     strcmp(finished[0], finished[1]) <= 0)
		    ? 0
		    : 1;
	if (strcmp(started[1 - i], finished[i]) < 0) {
		fail_msg("run %d started at %s, before run %d finished at %s",
			 1 - i, started[1 - i], i, finished[i]);
	}
	/* Both had waited for the board, and both got it. */
	for (i = 0; i < 2; i++) {
		assert_true(e2e_lines_with(log[i], "is ours now") == 1);
	}
	hil_proc_free(p[0]);
	hil_proc_free(p[1]);
}

static void test_sigterm_stops_at_once_and_files_a_result(void **state)
{
	char conf[128], res[128], rj[128], log[128], status[32];
	const char *report;
	struct hil_proc *p;
	struct hil_lock lock;
	char *msg = NULL, *rows;
	struct args a;
	cJSON *r;
	int st = -1;

	(void)state;
	/* Rows long enough that SIGTERM lands inside the first. */
	write_config("long.json", 2000, 1, "");
	tpath(conf, sizeof(conf), "long.json");
	tpath(res, sizeof(res), "res-term");
	tpath(rj, sizeof(rj), "term.result.json");
	tpath(log, sizeof(log), "term.log");
	args_init(&a);
	arg(&a, "--board");
	arg(&a, "qemu-a");
	arg(&a, "--config");
	arg(&a, conf);
	arg(&a, "--results");
	arg(&a, res);
	arg(&a, "--result-json");
	arg(&a, rj);
	assert_int_equal(hil_proc_spawn(&p, a.v, log), HIL_OK);
	wait_for_log(p, log, "verified on the target");
	/* To hilrun alone, as `scancel --batch -s TERM` or Buildbot's
	 * interrupt do: it stops QEMU itself. */
	assert_int_equal(kill(hil_proc_pid(p), SIGTERM), 0);
	assert_int_equal(hil_proc_wait(p, WAIT_MS, &st), HIL_OK);
	assert_int_equal(st, 4);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
	hil_proc_free(p);

	r = load_result(rj, 4);
	assert_string_equal(str_at(r, "board"), "qemu-a");
	report = str_at(r, "report");
	assert_non_null(report);
	e2e_report_str(report, "run.status", status, sizeof(status));
	assert_string_equal(status, "partial");
	rows = e2e_report_rows(report);
	e2e_assert_contains(rows, "interrupted");
	/* Nothing was measured after the stop. */
	assert_null(strstr(rows, "encrypt 2048: ok"));
	free(rows);
	cJSON_Delete(r);

	/* SIGTERM while waiting for a busy board: 4, and still a result. */
	memset(&lock, 0, sizeof(lock));
	assert_int_equal(hil_lock_acquire(&lock, locks, "qemu-a",
					  "the contract test", 0, &msg),
			 HIL_OK);
	free(msg);
	a.v[a.n] = "--wait";
	a.v[a.n + 1] = "600";
	a.v[a.n + 2] = NULL;
	unlink(rj);
	assert_int_equal(hil_proc_spawn(&p, a.v, log), HIL_OK);
	wait_for_log(p, log, "waiting up to 600 s");
	assert_int_equal(kill(hil_proc_pid(p), SIGTERM), 0);
	assert_int_equal(hil_proc_wait(p, WAIT_MS, &st), HIL_OK);
	assert_int_equal(st, 4);
	hil_proc_free(p);
	hil_lock_release(&lock);
	r = load_result(rj, 4);
	assert_true(is_null(r, "run_dir"));
	assert_string_equal(str_at(r, "board"), "qemu-a");
	cJSON_Delete(r);
}

/*
 * --die-with-parent: hilrun started by a shell (an engine's worker) that is
 * then killed outright ends as on SIGTERM (exit 4, a partial report, its
 * result file) and its QEMU ends too. The test is a subreaper: the orphaned
 * hilrun becomes its child, and every descendant left is reaped with
 * blocking waits until there is none (ECHILD): nothing lives on.
 */
static void test_die_with_parent_ends_the_run_with_its_starter(void **state)
{
	char conf[128], res[128], rj[128], log[128], status[32];
	const char *report;
	pid_t sh, p;
	uint64_t t0;
	int st = 0, got4 = 0, others = 0;
	cJSON *r;

	(void)state;
	write_config("long.json", 2000, 1, "");
	tpath(conf, sizeof(conf), "long.json");
	tpath(res, sizeof(res), "res-orphan");
	tpath(rj, sizeof(rj), "orphan.result.json");
	tpath(log, sizeof(log), "orphan.log");
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	sh = fork();
	assert_true(sh >= 0);
	if (sh == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) {
			_exit(127);
		}
		execl("/bin/sh", "sh", "-c", "\"$@\" & wait", "sh",
		      e2e_hilrun_bin(), "--die-with-parent", "--board",
		      "qemu-a", "--config", conf, "--results", res,
		      "--result-json", rj, (char *)NULL);
		_exit(127);
	}
	/* Killed inside the first row. */
	t0 = e2e_ms_now();
	while (e2e_lines_with(log, "verified on the target") == 0) {
		if (waitpid(sh, &st, WNOHANG) != 0 ||
		    e2e_ms_now() - t0 > WAIT_MS) {
			char text[16384];

			read_text(log, text, sizeof(text));
			fail_msg("no \"verified on the target\" in %s:\n%s",
				 log, text);
		}
		e2e_sleep_ms(20);
	}
	assert_int_equal(kill(sh, SIGKILL), 0);
	assert_int_equal(waitpid(sh, &st, 0), sh);
	while ((p = waitpid(-1, &st, 0)) > 0) {
		if (WIFEXITED(st) && WEXITSTATUS(st) == 4 && !got4) {
			got4 = 1; /* hilrun, ended by its parent's death */
		} else {
			others++;
		}
	}
	assert_int_equal(errno, ECHILD);
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
	assert_true(got4);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
	(void)others;

	r = load_result(rj, 4);
	report = str_at(r, "report");
	assert_non_null(report);
	e2e_report_str(report, "run.status", status, sizeof(status));
	assert_string_equal(status, "partial");
	cJSON_Delete(r);
}

/*
 * Live processes whose command line holds marker (zombies do not count),
 * up to max of their pids into pids; @return how many there are.
 */
static int procs_with(const char *marker, pid_t *pids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[300], buf[8192], stat[512], *c;
		size_t len, i;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
		    atoi(e->d_name) == (int)getpid()) {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (i = 0; i < len; i++) {
			buf[i] = buf[i] == '\0' ? ' ' : buf[i];
		}
		buf[len] = '\0';
		if (strstr(buf, marker) == NULL) {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		len = fread(stat, 1, sizeof(stat) - 1, f);
		fclose(f);
		stat[len] = '\0';
		c = strrchr(stat, ')');
		if (c != NULL && c[1] == ' ' && c[2] == 'Z') {
			continue;
		}
		if (n < max) {
			pids[n] = (pid_t)atoi(e->d_name);
		}
		n++;
	}
	closedir(d);
	return n;
}

/*
 * hilrun building with a compiler that never ends (tests/fixtures/slow-cc,
 * first in PATH as arm-none-eabi-gcc: make -> sh -> "gcc" -> sh -> sleep,
 * each with the config's -DHILTEST_SLOW_... in its command line, which
 * finds them in /proc, jailed or not), signalled with sig once the compiler
 * and its child run. @return hilrun's exit status; marker receives the flag
 * that names the processes.
 */
static int signal_a_build(const char *name, int sig, char *marker, size_t mlen)
{
	const char *src = getenv("HIL_SRC_DIR");
	char conf[128], res[128], log[128], extra[160], cfgname[64];
	char path[4096],
		*old = getenv("PATH") != NULL ? strdup(getenv("PATH")) : NULL;
	uint64_t t0 = e2e_ms_now();
	struct hil_proc *p;
	struct args a;
	pid_t pids[4];
	int st = -1;

	snprintf(cfgname, sizeof(cfgname), "%s.json", name);
	tpath(conf, sizeof(conf), cfgname);
	tpath(res, sizeof(res), name);
	snprintf(log, sizeof(log), "%s/%s.log", tmp, name);
	/* A flag no build had before: make has something to compile. */
	snprintf(marker, mlen, "HILTEST_SLOW_%s_%s", name,
		 strrchr(tmp, '-') + 1);
	snprintf(extra, sizeof(extra),
		 " \"build\": {\"cflags\": [\"-O2\", \"-D%s\"]},", marker);
	write_config(cfgname, 20, 0, extra);
	snprintf(path, sizeof(path), "%s/tests/fixtures/slow-cc:%s",
		 src != NULL ? src : ".", old != NULL ? old : "/usr/bin:/bin");
	args_init(&a);
	arg(&a, "--config");
	arg(&a, conf);
	arg(&a, "--results");
	arg(&a, res);
	assert_int_equal(setenv("PATH", path, 1), 0);
	assert_int_equal(hil_proc_spawn(&p, a.v, log), HIL_OK);
	if (old != NULL) {
		setenv("PATH", old, 1);
		free(old);
	}
	/* The "compiler" and its child's shell (and its sleep, without the
	 * flag) run. */
	while (procs_with(marker, pids, 4) < 2) {
		if (!hil_proc_alive(p) || e2e_ms_now() - t0 > WAIT_MS) {
			char text[16384];

			read_text(log, text, sizeof(text));
			fail_msg("the slow compiler did not start:\n%s", text);
		}
		e2e_sleep_ms(10);
	}
	assert_int_equal(kill(hil_proc_pid(p), sig), 0);
	assert_int_equal(hil_proc_wait(p, WAIT_MS, &st), HIL_OK);
	hil_proc_free(p);
	return st;
}

/* None with marker left within ms: a bound to fail by, they die at once. */
static int procs_gone_within(const char *marker, unsigned ms)
{
	uint64_t until = e2e_ms_now() + ms;
	pid_t pids[4];

	while (procs_with(marker, pids, 4) > 0) {
		if (e2e_ms_now() >= until) {
			fprintf(stderr, "e2e: pid %d (%s) still runs\n",
				(int)pids[0], marker);
			return 0;
		}
		e2e_sleep_ms(10);
	}
	return 1;
}

/*
 * SIGTERM during a build (a FIFO source file once held make for its whole
 * 600 s timeout, SIGTERM ignored): hilrun stops at once with status 4, and
 * neither the compiler nor what it started outlives it. And after SIGKILL
 * of hilrun (the daemon killed) no sh, gcc or cc1 lives on either: they
 * once did, with parent pid 1.
 */
static void test_a_stopped_or_killed_build_leaves_no_descendant(void **state)
{
	char marker[128];

	(void)state;
	assert_int_equal(
		signal_a_build("slow_term", SIGTERM, marker, sizeof(marker)),
		4);
	assert_true(procs_gone_within(marker, E2E_HANG_MS));

	assert_int_equal(
		signal_a_build("slow_kill", SIGKILL, marker, sizeof(marker)),
		128 + SIGKILL);
	assert_true(procs_gone_within(marker, E2E_HANG_MS));
}

static int setup(void **state)
{
	char map[128];

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-contract-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	/* Its own lock folder and hardware map: two emulated boards and a
	 * Nucleo that is not plugged in. */
	snprintf(locks, sizeof(locks), "%s/locks", tmp);
	snprintf(map, sizeof(map), "%s/boards.json", tmp);
	write_file(
		map,
		"[{\"id\": \"qemu-a\", \"platform\": \"qemu-netduino\", \"runner\": \"qemu\"},\n"
		" {\"id\": \"qemu-b\", \"platform\": \"qemu-netduino\", \"runner\": \"qemu\"},\n"
		" {\"id\": \"nucleo-1\", \"platform\": \"nucleo-f401re\", \"runner\": \"openocd\","
		" \"serial\": \"/dev/ttyACM0\", \"probe_id\": \"066BFF495057717867164315\","
		" \"connected\": false}]\n");
	unsetenv("HILRUN_BOARD");
	return setenv("HILRUN_LOCK_DIR", locks, 1) != 0 ||
	       setenv("HILRUN_BOARDS", map, 1) != 0;
}

static int teardown(void **state)
{
	(void)state;
	e2e_qemu_gone(tmp, NULL, E2E_HANG_MS);
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_board_by_id_runs_with_the_maps_board_and_files_a_result),
		cmocka_unit_test(
			test_a_board_not_in_the_map_or_of_another_platform_exits_2),
		cmocka_unit_test(test_a_busy_board_or_a_failed_flash_exits_5),
		cmocka_unit_test(test_two_runs_on_one_board_are_serialised),
		cmocka_unit_test(test_sigterm_stops_at_once_and_files_a_result),
		cmocka_unit_test(
			test_a_stopped_or_killed_build_leaves_no_descendant),
		cmocka_unit_test(
			test_die_with_parent_ends_the_run_with_its_starter),
	};

	/* One test alone, by name pattern (cmocka's filter). */
	if (getenv("E2E_FILTER") != NULL) {
		cmocka_set_test_filter(getenv("E2E_FILTER"));
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
