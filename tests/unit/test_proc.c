/* test_proc: spawning, waiting for and killing children: exit codes, exec errors, timeouts, reaping, no orphans. */
#define _DEFAULT_SOURCE /* prctl subreaper, mkdtemp */

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "util/err.h"
#include "util/proc.h"
#include "unit_util.h"

/* ---- helpers ---- */

/*
 * Is pid gone? ESRCH, or a zombie nobody reaps yet (an orphan waiting for
 * init in a container).
 */
static int gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	if (kill(pid, 0) != 0 && errno == ESRCH) {
		return 1;
	}
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (f == NULL) {
		return 1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' && p[2] == 'Z';
}

static int wait_gone(pid_t pid, unsigned ms)
{
	uint64_t deadline = ut_ms_now() + ms;

	while (!gone(pid)) {
		if (ut_ms_now() >= deadline) {
			return 0;
		}
		ut_sleep_ms(5);
	}
	return 1;
}

static char *const argv_true[] = {"true", NULL};
static char *const argv_false[] = {"false", NULL};
static char *const argv_sleep[] = {"sleep", "30", NULL};

/* ---- tests ---- */

static void test_run_true_exits_zero_and_false_exits_one(void **state)
{
	int st = -1;

	(void)state;
	assert_int_equal(hil_proc_run(argv_true, NULL, 5000, &st), HIL_OK);
	assert_int_equal(st, 0);
	assert_int_equal(hil_proc_run(argv_false, NULL, 5000, &st), HIL_OK);
	assert_int_equal(st, 1);
}

static void test_missing_program_is_a_spawn_error_not_exit_127(void **state)
{
	char *const argv[] = {"hilrun-no-such-program", "--flag", NULL};
	struct hil_proc *p = (struct hil_proc *)&p;
	struct ut_capture c;
	char log[2048];
	int ret, st = -1;

	(void)state;
	ut_capture_begin(&c);
	ret = hil_proc_spawn(&p, argv, NULL);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_NA);
	assert_null(p);
	assert_non_null(strstr(log, "hilrun-no-such-program"));
	assert_non_null(strstr(log, strerror(ENOENT)));

	/* the convenience wrapper too */
	assert_int_equal(hil_proc_run(argv, NULL, 1000, &st), HIL_ERR_NA);
	assert_int_equal(st, -1);
}

static void test_non_executable_file_is_a_spawn_error(void **state)
{
	char path[64];
	char *argv[] = {path, NULL};
	struct hil_proc *p;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/hiltest-noexec-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(hil_proc_spawn(&p, argv, NULL), HIL_ERR_NA);
	unlink(path);
}

static void test_empty_argv_is_rejected(void **state)
{
	char *const argv[] = {NULL};
	struct hil_proc *p;

	(void)state;
	assert_int_equal(hil_proc_spawn(&p, argv, NULL), HIL_ERR_ARG);
	assert_int_equal(hil_proc_spawn(&p, NULL, NULL), HIL_ERR_ARG);
}

static void test_run_timeout_kills_sleep_within_bounds(void **state)
{
	struct ut_capture c;
	char log[2048];
	uint64_t t0, dt;
	int ret, st = -1;

	(void)state;
	ut_capture_begin(&c);
	t0 = ut_ms_now();
	ret = hil_proc_run(argv_sleep, NULL, 200, &st);
	dt = ut_ms_now() - t0;
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_TIMEOUT);
	assert_true(dt >= 195 && dt < UT_HANG_MS);
	assert_non_null(strstr(log, "sleep"));
}

static void test_wait_timeout_leaves_child_running(void **state)
{
	struct hil_proc *p;
	pid_t pid;
	int st = -1;

	(void)state;
	assert_int_equal(hil_proc_spawn(&p, argv_sleep, NULL), HIL_OK);
	pid = hil_proc_pid(p);
	assert_int_equal(hil_proc_wait(p, 50, &st), HIL_ERR_TIMEOUT);
	assert_int_equal(hil_proc_alive(p), 1);
	assert_int_equal(kill(pid, 0), 0);
	hil_proc_kill(p);
	assert_int_equal(hil_proc_alive(p), 0);
	assert_int_equal(hil_proc_wait(p, 0, &st), HIL_OK);
	assert_int_equal(st, 128 + SIGTERM);
	hil_proc_free(p);
}

static void test_free_kills_a_running_child_and_reaps_it(void **state)
{
	struct hil_proc *p;
	pid_t pid;

	(void)state;
	assert_int_equal(hil_proc_spawn(&p, argv_sleep, NULL), HIL_OK);
	pid = hil_proc_pid(p);
	assert_true(pid > 0);
	assert_int_equal(kill(pid, 0), 0);
	hil_proc_free(p);
	/* reaped, not a zombie: the pid no longer exists at all */
	errno = 0;
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void test_kill_escalates_to_sigkill_when_term_is_ignored(void **state)
{
	char dir[64], ready[96], script[256];
	char *const argv[] = {"sh", "-c", script, NULL};
	struct hil_proc *p;
	uint64_t t0, dt, until;
	pid_t pid;
	int st = -1;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/hiltest-proc-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(ready, sizeof(ready), "%s/trapped", dir);
	snprintf(script, sizeof(script),
		 "trap '' TERM; : > %s; while :; do sleep 1; done", ready);
	assert_int_equal(hil_proc_spawn(&p, argv, NULL), HIL_OK);
	pid = hil_proc_pid(p);
	/* The shell says when its trap is in place (however slow it is). */
	until = ut_ms_now() + UT_HANG_MS;
	while (access(ready, F_OK) != 0 && ut_ms_now() < until) {
		ut_sleep_ms(10);
	}
	assert_int_equal(access(ready, F_OK), 0);
	unlink(ready);
	rmdir(dir);
	t0 = ut_ms_now();
	hil_proc_kill(p);
	dt = ut_ms_now() - t0;
	assert_true(dt >= 900 && dt < UT_HANG_MS);
	assert_int_equal(hil_proc_wait(p, 0, &st), HIL_OK);
	assert_int_equal(st, 128 + SIGKILL);
	hil_proc_free(p);
	errno = 0;
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void test_kill_reaches_grandchildren_in_the_group(void **state)
{
	char dir[64], pidfile[96], script[256];
	char *argv[] = {"sh", "-c", script, NULL};
	struct hil_proc *p;
	pid_t grandchild = 0;
	FILE *f;
	int tries;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/hiltest-proc-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(pidfile, sizeof(pidfile), "%s/pid", dir);
	snprintf(script, sizeof(script), "sleep 30 & echo $! > %s; wait",
		 pidfile);
	assert_int_equal(hil_proc_spawn(&p, argv, NULL), HIL_OK);
	for (tries = 0; tries < (int)(UT_HANG_MS / 10) && grandchild <= 0;
	     tries++) {
		long v = 0;

		ut_sleep_ms(10);
		f = fopen(pidfile, "r");
		if (f != NULL) {
			if (fscanf(f, "%ld", &v) == 1) {
				grandchild = (pid_t)v;
			}
			fclose(f);
		}
	}
	assert_true(grandchild > 0);
	hil_proc_free(p);
	assert_true(wait_gone(grandchild, UT_HANG_MS));
	unlink(pidfile);
	rmdir(dir);
}

static void test_log_path_collects_stdout_and_stderr_appending(void **state)
{
	char *const argv[] = {"sh", "-c", "echo out; echo err >&2", NULL};
	char path[64], buf[256];
	FILE *f;
	size_t n;
	int fd, st = -1;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/hiltest-plog-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(hil_proc_run(argv, path, 5000, &st), HIL_OK);
	assert_int_equal(st, 0);
	assert_int_equal(hil_proc_run(argv, path, 5000, &st), HIL_OK);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	assert_string_equal(buf, "out\nerr\nout\nerr\n");
}

static void test_unwritable_log_path_is_an_error_naming_it(void **state)
{
	struct hil_proc *p;
	struct ut_capture c;
	char log[2048];

	(void)state;
	ut_capture_begin(&c);
	assert_int_equal(
		hil_proc_spawn(&p, argv_true, "/nonexistent-dir/hiltest.log"),
		HIL_ERR_IO);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "/nonexistent-dir/hiltest.log"));
}

static void test_child_stdin_is_dev_null(void **state)
{
	char *const argv[] = {"cat", NULL};
	int st = -1;

	(void)state;
	/* cat reading our stdin would hang until the timeout */
	assert_int_equal(hil_proc_run(argv, "/dev/null", 2000, &st), HIL_OK);
	assert_int_equal(st, 0);
}

/*
 * The semihosting link's set-up: the child's stdin and stdout are one end of
 * a socketpair (we keep ours), its stderr alone goes to the log.
 */
static void test_spawn_stdio_puts_stdin_and_stdout_on_our_socket(void **state)
{
	char *const argv[] = {"sh", "-c",
			      "read x; echo \"got $x\"; echo oops >&2", NULL};
	struct hil_proc *p;
	char path[64], buf[256];
	size_t got = 0;
	int sv[2], fd, st = -1;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/hiltest-pstdio-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv),
			 0);
	assert_int_equal(hil_proc_spawn_stdio(&p, argv, sv[1], path), HIL_OK);
	close(sv[1]); /* the child has its own copies */
	assert_int_equal(write(sv[0], "hi\n", 3), 3);
	while (got < 7) {
		ssize_t n = read(sv[0], buf + got, sizeof(buf) - 1 - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
	buf[got] = '\0';
	assert_string_equal(buf, "got hi\n");
	assert_int_equal(hil_proc_wait(p, 5000, &st), HIL_OK);
	assert_int_equal(st, 0);
	hil_proc_free(p);
	/* It exited: its end is closed, ours reads the end of the stream. */
	assert_int_equal(read(sv[0], buf, sizeof(buf)), 0);
	close(sv[0]);
	f = fopen(path, "r");
	assert_non_null(f);
	got = fread(buf, 1, sizeof(buf) - 1, f);
	buf[got] = '\0';
	fclose(f);
	unlink(path);
	assert_string_equal(buf, "oops\n");
}

static void test_child_does_not_inherit_our_descriptors(void **state)
{
	char script[128];
	char *const argv[] = {"sh", "-c", script, NULL};
	int fd, st = -1;

	(void)state;
	/* deliberately without O_CLOEXEC, as a careless caller might */
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 3);
	snprintf(script, sizeof(script), "test -e /proc/$$/fd/%d", fd);
	assert_int_equal(hil_proc_run(argv, NULL, 5000, &st), HIL_OK);
	assert_int_equal(st, 1);
	close(fd);
}

static void test_child_runs_in_its_own_process_group(void **state)
{
	struct hil_proc *p;

	(void)state;
	assert_int_equal(hil_proc_spawn(&p, argv_sleep, NULL), HIL_OK);
	assert_int_equal(getpgid(hil_proc_pid(p)), hil_proc_pid(p));
	assert_string_equal(hil_proc_name(p), "sleep");
	hil_proc_free(p);
}

static void test_child_dies_when_hilrun_dies(void **state)
{
	int fds[2], st;
	pid_t middle, child = 0;
	long v;

	(void)state;
	/* orphans come to us, so we can see how the child died */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		/* "hilrun": spawns, then dies abruptly without cleaning up */
		struct hil_proc *p;

		close(fds[0]);
		if (hil_proc_spawn(&p, argv_sleep, NULL) != HIL_OK) {
			_exit(1);
		}
		v = (long)hil_proc_pid(p);
		if (write(fds[1], &v, sizeof(v)) != (ssize_t)sizeof(v)) {
			_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &v, sizeof(v)), (ssize_t)sizeof(v));
	close(fds[0]);
	child = (pid_t)v;
	assert_int_equal(waitpid(middle, &st, 0), middle);
	assert_true(wait_gone(child, UT_HANG_MS));
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* ---- a build that never ends (issue 33): make -> sh -> gcc -> cc1 ---- */

/*
 * A build whose compiler never ends, as make's recipe runs it: sh (the
 * recipe) -> sh (the "compiler") -> sleep. The compiler appends "ITS_PID
 * SLEEP_PID" to pidfile once it runs.
 */
static void slow_build_argv(char *script, size_t len, const char *pidfile)
{
	snprintf(
		script, len,
		"sh -c 'sleep 600 & echo \"$$ $!\" >> %s; wait'; echo unreachable",
		pidfile);
}

/* The two pids the compiler wrote, once it has (bounded by UT_HANG_MS, a
 * bound for failing, not a measurement). @return 1, or 0 when none came. */
static int read_slow_pids(const char *pidfile, pid_t pids[2])
{
	uint64_t until = ut_ms_now() + UT_HANG_MS;
	long a = 0, b = 0;

	for (;;) {
		FILE *f = fopen(pidfile, "r");

		if (f != NULL) {
			int n = fscanf(f, "%ld %ld", &a, &b);

			fclose(f);
			if (n == 2) {
				break;
			}
		}
		if (ut_ms_now() >= until) {
			return 0;
		}
		ut_sleep_ms(5);
	}
	pids[0] = (pid_t)a;
	pids[1] = (pid_t)b;
	return 1;
}

struct stopper {
	int ok; /* the pids were read */
	const char *pidfile;
	volatile sig_atomic_t *flag;
	pid_t pids[2];
};

/* As hilrun's SIGTERM handler would: the flag, once the compiler runs. */
static void *stop_when_running(void *arg)
{
	struct stopper *s = arg;

	/* No assertion here (another thread): the test checks the pids. */
	s->ok = read_slow_pids(s->pidfile, s->pids);
	*s->flag = 1;
	return NULL;
}

/*
 * SIGTERM during a build: the wait for make ends on the stop flag (not on
 * its 600 s timeout), the whole tree is killed and reaped, and the call
 * says it was interrupted. Checked by state: the processes are gone.
 */
static void test_stop_flag_ends_a_build_and_kills_its_tree(void **state)
{
	char dir[64], pidfile[96], script[512];
	char *const argv[] = {"sh", "-c", script, NULL};
	volatile sig_atomic_t flag = 0;
	struct stopper s;
	pthread_t t;
	int st = -1;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/hiltest-proc-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(pidfile, sizeof(pidfile), "%s/pids", dir);
	slow_build_argv(script, sizeof(script), pidfile);
	memset(&s, 0, sizeof(s));
	s.pidfile = pidfile;
	s.flag = &flag;
	assert_int_equal(pthread_create(&t, NULL, stop_when_running, &s), 0);
	assert_int_equal(
		hil_proc_run_jailed(argv, NULL, 600000, &st, NULL, &flag),
		HIL_ERR_INTERRUPTED);
	pthread_join(t, NULL);
	assert_true(s.ok);
	/* The compiler and its child: killed with the group (the bound is
	 * for failing: the supervisor reaps its group before it exits). */
	assert_true(wait_gone(s.pids[0], UT_HANG_MS));
	assert_true(wait_gone(s.pids[1], UT_HANG_MS));
	unlink(pidfile);
	rmdir(dir);
}

/*
 * The stop flag is the caller's to hand down, not a global: with it set, a
 * wait given it ends (a sleeper killed, interrupted), while a run and a
 * capture not given it go on to their end, output and status whole.
 */
static void test_a_stop_flag_ends_only_the_waits_given_it(void **state)
{
	char *const sleeper[] = {"sleep", "3738", NULL};
	char *const three[] = {"sh", "-c", "exit 3", NULL};
	char *const echo[] = {"sh", "-c", "echo still-here", NULL};
	volatile sig_atomic_t flag = 1;
	char buf[64];
	int st = -1;

	(void)state;
	assert_int_equal(
		hil_proc_run_jailed(sleeper, NULL, 600000, &st, NULL, &flag),
		HIL_ERR_INTERRUPTED);
	assert_int_equal(ut_count_procs("sleep", "3738"), 0);
	assert_int_equal(hil_proc_run(three, NULL, 600000, &st), HIL_OK);
	assert_int_equal(st, 3);
	assert_int_equal(hil_proc_capture(echo, buf, sizeof(buf), 600000, &st),
			 HIL_OK);
	assert_string_equal(buf, "still-here\n");
	assert_int_equal(st, 0);
	assert_int_equal(hil_proc_capture_jailed(sleeper, buf, sizeof(buf),
						 600000, &st, NULL, &flag),
			 HIL_ERR_INTERRUPTED);
	assert_int_equal(ut_count_procs("sleep", "3738"), 0);
}

/*
 * hilrun killed with SIGKILL (the daemon, by systemd or the OOM killer)
 * during a build: not only make (its parent-death signal) but the shell,
 * the compiler and what it started die too; they once lived on, reparented
 * to init.
 */
static void test_killed_hilrun_leaves_no_descendant(void **state)
{
	char dir[64], pidfile[96], script[512];
	char *const argv[] = {"sh", "-c", script, NULL};
	pid_t middle, pids[2];
	int st;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/hiltest-proc-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(pidfile, sizeof(pidfile), "%s/pids", dir);
	slow_build_argv(script, sizeof(script), pidfile);
	middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		/* "hilrun": starts the build and waits for it */
		struct hil_proc *p;

		if (hil_proc_spawn(&p, argv, NULL) != HIL_OK) {
			_exit(1);
		}
		for (;;) {
			pause();
		}
	}
	if (!read_slow_pids(pidfile, pids)) {
		kill(middle, SIGKILL);
		fail_msg("the slow compiler did not start");
	}
	assert_int_equal(kill(middle, SIGKILL), 0);
	assert_int_equal(waitpid(middle, &st, 0), middle);
	/* Bounds for failing, not measurements: they die at once. */
	assert_true(wait_gone(pids[0], UT_HANG_MS));
	assert_true(wait_gone(pids[1], UT_HANG_MS));
	unlink(pidfile);
	rmdir(dir);
}

static void test_capture_returns_output(void **state)
{
	char *const argv[] = {"sh", "-c", "echo hello; echo world >&2", NULL};
	char buf[64];
	int st = -1;

	(void)state;
	assert_int_equal(hil_proc_capture(argv, buf, sizeof(buf), 5000, &st),
			 HIL_OK);
	assert_int_equal(st, 0);
	assert_string_equal(buf, "hello\nworld\n");
}

static void test_capture_truncates_but_drains_long_output(void **state)
{
	/* 200 KB: more than a pipe holds, so the child blocks unless we drain */
	char *const argv[] = {
		"sh", "-c",
		"i=0; while [ $i -lt 2000 ]; do echo 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789; i=$((i+1)); done",
		NULL};
	char buf[16];
	int st = -1;

	(void)state;
	assert_int_equal(hil_proc_capture(argv, buf, sizeof(buf), 10000, &st),
			 HIL_OK);
	assert_int_equal(st, 0);
	assert_string_equal(buf, "012345678901234");
}

static void test_capture_timeout_kills(void **state)
{
	char buf[16];
	uint64_t t0 = ut_ms_now();

	(void)state;
	assert_int_equal(
		hil_proc_capture(argv_sleep, buf, sizeof(buf), 150, NULL),
		HIL_ERR_TIMEOUT);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_true_exits_zero_and_false_exits_one),
		cmocka_unit_test(
			test_missing_program_is_a_spawn_error_not_exit_127),
		cmocka_unit_test(test_non_executable_file_is_a_spawn_error),
		cmocka_unit_test(test_empty_argv_is_rejected),
		cmocka_unit_test(test_run_timeout_kills_sleep_within_bounds),
		cmocka_unit_test(test_wait_timeout_leaves_child_running),
		cmocka_unit_test(test_free_kills_a_running_child_and_reaps_it),
		cmocka_unit_test(
			test_kill_escalates_to_sigkill_when_term_is_ignored),
		cmocka_unit_test(test_kill_reaches_grandchildren_in_the_group),
		cmocka_unit_test(
			test_log_path_collects_stdout_and_stderr_appending),
		cmocka_unit_test(
			test_unwritable_log_path_is_an_error_naming_it),
		cmocka_unit_test(test_child_stdin_is_dev_null),
		cmocka_unit_test(
			test_spawn_stdio_puts_stdin_and_stdout_on_our_socket),
		cmocka_unit_test(test_child_does_not_inherit_our_descriptors),
		cmocka_unit_test(test_child_runs_in_its_own_process_group),
		cmocka_unit_test(test_child_dies_when_hilrun_dies),
		cmocka_unit_test(
			test_stop_flag_ends_a_build_and_kills_its_tree),
		cmocka_unit_test(test_a_stop_flag_ends_only_the_waits_given_it),
		cmocka_unit_test(test_killed_hilrun_leaves_no_descendant),
		cmocka_unit_test(test_capture_returns_output),
		cmocka_unit_test(test_capture_truncates_but_drains_long_output),
		cmocka_unit_test(test_capture_timeout_kills),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
