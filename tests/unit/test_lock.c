/* Unit tests of the board locks: busy boards named with their holder, waiting, separate ids, and a dead holder's lock coming free. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/err.h"
#include "lab/lock.h"
#include "unit_util.h"

struct fx {
	char dir[64];	 /* temporary directory */
	char locks[128]; /* dir/locks: not created beforehand */
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-lock-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(fx->locks, sizeof(fx->locks), "%s/locks", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret = ut_rm_tree(fx->dir);

	free(fx);
	return ret;
}

static void test_lock_busy_board_fails_at_once_naming_holder(void **state)
{
	struct fx *fx = *state;
	struct hil_lock a, b;
	char want[128];
	char *msg = NULL;
	uint64_t t0;
	struct stat st;

	assert_int_equal(hil_lock_acquire(&a, fx->locks, "nucleo-1",
					  "configs/o2.json", 0, &msg),
			 HIL_OK);
	assert_null(msg);
	assert_true(a.held);

	/* The directory is created private to us. */
	assert_int_equal(stat(fx->locks, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	t0 = ut_ms_now();
	assert_int_equal(hil_lock_acquire(&b, fx->locks, "nucleo-1",
					  "configs/o3.json", 0, &msg),
			 HIL_ERR_TIMEOUT);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_false(b.held);
	assert_non_null(msg);
	snprintf(want, sizeof(want),
		 "board nucleo-1 is in use by pid %ld (configs/o2.json) since ",
		 (long)getpid());
	assert_memory_equal(msg, want, strlen(want));
	/* "since HH:MM:SS" today (the date too just after midnight). */
	assert_true(strlen(msg) == strlen(want) + 8 ||
		    strlen(msg) == strlen(want) + 19);
	assert_int_equal(msg[strlen(msg) - 3], ':');
	free(msg);

	hil_lock_release(&a);
	assert_false(a.held);
	assert_int_equal(
		hil_lock_acquire(&b, fx->locks, "nucleo-1", NULL, 0, &msg),
		HIL_OK);
	hil_lock_release(&b);
	/* Releasing twice, or a lock never held, is harmless. */
	hil_lock_release(&b);
	memset(&a, 0, sizeof(a));
	hil_lock_release(&a);
}

struct delayed_release {
	struct hil_lock *lock;
	unsigned ms;
};

static void *release_later(void *arg)
{
	struct delayed_release *d = arg;
	struct timespec ts = {0, (long)d->ms * 1000000L};

	nanosleep(&ts, NULL);
	hil_lock_release(d->lock);
	return NULL;
}

static void test_lock_waits_and_gets_it_when_released(void **state)
{
	struct fx *fx = *state;
	struct hil_lock a, b;
	struct delayed_release d = {&a, 300};
	pthread_t th;
	char *msg = NULL;
	uint64_t t0, dt;

	assert_int_equal(
		hil_lock_acquire(&a, fx->locks, "nucleo-1", "first", 0, &msg),
		HIL_OK);
	assert_int_equal(pthread_create(&th, NULL, release_later, &d), 0);
	t0 = ut_ms_now();
	assert_int_equal(hil_lock_acquire(&b, fx->locks, "nucleo-1", "second",
					  2 * UT_HANG_MS / 1000, &msg),
			 HIL_OK);
	dt = ut_ms_now() - t0;
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_null(msg);
	/* Got it once released, polling every 100 ms, not at the deadline. */
	assert_true(dt >= 250);
	assert_true(dt < UT_HANG_MS);
	hil_lock_release(&b);
}

static void test_lock_wait_ends_at_the_deadline(void **state)
{
	struct fx *fx = *state;
	struct hil_lock a, b;
	char *msg = NULL;
	uint64_t t0, dt;

	assert_int_equal(hil_lock_acquire(&a, fx->locks, "nucleo-1",
					  "configs/o2.json", 0, NULL),
			 HIL_OK);
	t0 = ut_ms_now();
	assert_int_equal(
		hil_lock_acquire(&b, fx->locks, "nucleo-1", NULL, 1, &msg),
		HIL_ERR_TIMEOUT);
	dt = ut_ms_now() - t0;
	assert_true(dt >= 950);
	assert_true(dt < UT_HANG_MS);
	assert_non_null(strstr(msg, "(configs/o2.json)"));
	free(msg);
	hil_lock_release(&a);
}

static void test_lock_different_ids_proceed(void **state)
{
	struct fx *fx = *state;
	struct hil_lock a, b;
	char *msg = NULL;

	assert_int_equal(
		hil_lock_acquire(&a, fx->locks, "nucleo-1", "x", 0, &msg),
		HIL_OK);
	assert_int_equal(
		hil_lock_acquire(&b, fx->locks, "nucleo-2", "y", 0, &msg),
		HIL_OK);
	assert_null(msg);
	hil_lock_release(&a);
	hil_lock_release(&b);
}

static void test_lock_killed_holder_frees_it(void **state)
{
	struct fx *fx = *state;
	struct hil_lock b;
	char want[128];
	char *msg = NULL;
	int p[2], status;
	pid_t child;
	char c;

	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct hil_lock a;

		close(p[0]);
		if (hil_lock_acquire(&a, fx->locks, "nucleo-1",
				     "configs/child.json", 0, NULL) != HIL_OK) {
			_exit(1);
		}
		if (write(p[1], "1", 1) != 1) {
			_exit(1);
		}
		for (;;) {
			pause(); /* hold it until killed */
		}
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);

	assert_int_equal(
		hil_lock_acquire(&b, fx->locks, "nucleo-1", NULL, 0, &msg),
		HIL_ERR_TIMEOUT);
	snprintf(want, sizeof(want),
		 "board nucleo-1 is in use by pid %ld (configs/child.json)",
		 (long)child);
	assert_memory_equal(msg, want, strlen(want));
	free(msg);
	assert_int_equal(hil_lock_probe(fx->locks, "nucleo-1", &msg), 1);
	assert_memory_equal(msg, want, strlen(want));
	free(msg);

	/* SIGKILL: no cleanup ran, yet the kernel dropped the flock. */
	assert_int_equal(kill(child, SIGKILL), 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(hil_lock_probe(fx->locks, "nucleo-1", &msg), 0);
	assert_null(msg);

	/*
	 * The dead child's info is still in the file. A holder that cannot
	 * write its own (another user's lock file, opened read-only) must not
	 * be taken for the dead child.
	 */
	{
		char path[256];
		int fd;

		snprintf(path, sizeof(path), "%s/nucleo-1.lock", fx->locks);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
		assert_int_equal(hil_lock_acquire(&b, fx->locks, "nucleo-1",
						  NULL, 0, &msg),
				 HIL_ERR_TIMEOUT);
		assert_string_equal(
			msg, "board nucleo-1 is in use by another process");
		free(msg);
		close(fd);
	}
	assert_int_equal(
		hil_lock_acquire(&b, fx->locks, "nucleo-1", "mine", 0, &msg),
		HIL_OK);
	hil_lock_release(&b);
}

static void test_lock_rejects_ids_that_are_not_file_names(void **state)
{
	static const char *const bad[] = {
		"",
		".",
		"..",
		"../etc",
		"a/b",
		"nucleo 1",
		"x\n",
		"é",
		"nucleo-1;rm",
		"a1234567890123456789012345678901234567890123456789012345678901234",
	};
	struct fx *fx = *state;
	struct hil_lock l;
	char *msg = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(hil_lock_id_valid(bad[i]));
		assert_int_equal(
			hil_lock_acquire(&l, fx->locks, bad[i], NULL, 0, &msg),
			HIL_ERR_ARG);
		assert_non_null(strstr(msg, "invalid board id"));
		free(msg);
		msg = NULL;
	}
	assert_false(hil_lock_id_valid(NULL));
	assert_true(hil_lock_id_valid("nucleo-f401re_2.A"));
	/* Nothing was created for them. */
	assert_int_equal(access(fx->locks, F_OK), -1);
}

static void test_lock_probe_sees_free_and_held(void **state)
{
	struct fx *fx = *state;
	struct hil_lock a;
	char *msg = NULL;

	/* Never used: no directory, no file, free. */
	assert_int_equal(hil_lock_probe(fx->locks, "nucleo-1", &msg), 0);
	assert_int_equal(
		hil_lock_acquire(&a, fx->locks, "nucleo-1", "cfg", 0, NULL),
		HIL_OK);
	assert_int_equal(hil_lock_probe(fx->locks, "nucleo-1", NULL), 1);
	/* The probe did not take it from the holder. */
	assert_true(a.held);
	hil_lock_release(&a);
	assert_int_equal(hil_lock_probe(fx->locks, "nucleo-1", &msg), 0);
	assert_null(msg);
}

static void test_lock_default_dir_follows_environment(void **state)
{
	char buf[256];
	char *old_x = getenv("XDG_RUNTIME_DIR");
	char *old_h = getenv("HILRUN_LOCK_DIR");
	char *sx = old_x != NULL ? strdup(old_x) : NULL;
	char *sh = old_h != NULL ? strdup(old_h) : NULL;

	(void)state;
	setenv("HILRUN_LOCK_DIR", "/srv/lab/locks", 1);
	setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
	assert_int_equal(hil_lock_default_dir(buf, sizeof(buf)), HIL_OK);
	assert_string_equal(buf, "/srv/lab/locks");
	unsetenv("HILRUN_LOCK_DIR");
	assert_int_equal(hil_lock_default_dir(buf, sizeof(buf)), HIL_OK);
	assert_string_equal(buf, "/run/user/1000/hilrun");
	setenv("XDG_RUNTIME_DIR", "relative", 1);
	assert_int_equal(hil_lock_default_dir(buf, sizeof(buf)), HIL_OK);
	assert_string_equal(buf, "/tmp/hilrun-locks");
	unsetenv("XDG_RUNTIME_DIR");
	assert_int_equal(hil_lock_default_dir(buf, sizeof(buf)), HIL_OK);
	assert_string_equal(buf, "/tmp/hilrun-locks");
	assert_int_equal(hil_lock_default_dir(buf, 8), HIL_ERR_ARG);

	if (sx != NULL) {
		setenv("XDG_RUNTIME_DIR", sx, 1);
	}
	if (sh != NULL) {
		setenv("HILRUN_LOCK_DIR", sh, 1);
	}
	free(sx);
	free(sh);
}

static void test_lock_unwritable_dir_is_an_io_error(void **state)
{
	struct fx *fx = *state;
	struct hil_lock l;
	char path[160];
	char *msg = NULL;
	FILE *f;

	/* A file where the directory should be. */
	snprintf(path, sizeof(path), "%s/file", fx->dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(hil_lock_acquire(&l, path, "nucleo-1", NULL, 0, &msg),
			 HIL_ERR_IO);
	assert_non_null(strstr(msg, path));
	free(msg);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_lock_busy_board_fails_at_once_naming_holder),
		T(test_lock_waits_and_gets_it_when_released),
		T(test_lock_wait_ends_at_the_deadline),
		T(test_lock_different_ids_proceed),
		T(test_lock_killed_holder_frees_it),
		T(test_lock_rejects_ids_that_are_not_file_names),
		T(test_lock_probe_sees_free_and_held),
		T(test_lock_default_dir_follows_environment),
		T(test_lock_unwritable_dir_is_an_io_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
