/* test_pdeath: --die-with-parent: a process that asked for it gets SIGTERM when its parent dies, and is told when its parent is gone already; the option and HILRUN_DIE_WITH_PARENT are read. No clock and no hang: every wait is a blocking wait for a process or a pipe's end, and the signal is looked for among the pending ones. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit_util.h"
#include "util/err.h"
#include "util/pdeath.h"

/* Exit codes of the grandchild: what it saw. */
#define GOT_TERM    42
#define PARENT_GONE 43
#define NO_SIGNAL   44
#define FAILED	    45

/*
 * The grandchild: asks for --die-with-parent's signal with SIGTERM blocked
 * (so that it stays pending, to be looked at), tells its parent it has
 * (one byte on ready), then waits for EOF on gone, which the test closes
 * once it has reaped the parent: by then the kernel has sent the signal,
 * or never will. With gone_first, it asks only after that EOF.
 */
static void grandchild(pid_t parent, int ready, int gone, int gone_first)
{
	sigset_t block, pending;
	char c = 'r';
	int ret;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	if (gone_first) {
		while (read(gone, &c, 1) > 0) {
		}
	}
	ret = hil_die_with_parent(parent);
	if (ret == HIL_ERR_INTERRUPTED) {
		_exit(PARENT_GONE);
	}
	if (ret != HIL_OK || gone_first) {
		_exit(FAILED); /* gone_first: gone, yet not said so */
	}
	if (write(ready, &c, 1) != 1) {
		_exit(FAILED);
	}
	while (read(gone, &c, 1) > 0) {
	}
	if (sigpending(&pending) != 0) {
		_exit(FAILED);
	}
	_exit(sigismember(&pending, SIGTERM) ? GOT_TERM : NO_SIGNAL);
}

/*
 * A parent that starts the grandchild and dies: once the grandchild is
 * ready (the signal asked for), or at once (gone_first: the grandchild
 * then goes on only after the parent is reaped, when it has a new parent).
 * The test is a subreaper, so the orphaned grandchild becomes its child:
 * @return the grandchild's exit status, reaped with a blocking wait.
 */
static int orphan_status(int gone_first)
{
	int ready[2], gone[2], st = 0;
	pid_t parent, grand = -1, p;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(gone), 0);
	parent = fork();
	assert_true(parent >= 0);
	if (parent == 0) {
		pid_t me = getpid();
		char c;

		if (fork() == 0) {
			close(ready[0]);
			close(gone[1]);
			grandchild(me, ready[1], gone[0], gone_first);
		}
		close(ready[1]);
		close(gone[0]);
		close(gone[1]);
		/* Until the grandchild has asked (or has ended). */
		if (!gone_first && read(ready[0], &c, 1) < 0) {
			_exit(1);
		}
		_exit(0);
	}
	close(ready[1]);
	close(gone[0]);
	/* The parent is reaped here; the grandchild, ours now, later. */
	assert_int_equal(waitpid(parent, &st, 0), parent);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(gone[1]); /* the grandchild goes on now */
	for (;;) {
		p = waitpid(-1, &st, 0);
		if (p < 0) {
			assert_int_equal(errno, ECHILD);
			break;
		}
		grand = p;
		assert_true(WIFEXITED(st));
	}
	assert_true(grand > 0);
	close(ready[0]);
	return WEXITSTATUS(st);
}

static void test_the_parents_death_sends_sigterm(void **state)
{
	(void)state;
	assert_int_equal(orphan_status(0), GOT_TERM);
}

static void test_a_parent_gone_already_is_said(void **state)
{
	(void)state;
	assert_int_equal(orphan_status(1), PARENT_GONE);
}

static void test_the_option_is_taken_out_and_the_variable_read(void **state)
{
	char a0[] = "hilrun", a1[] = "--die-with-parent", a2[] = "--config",
	     a3[] = "x.json", a4[] = "-v";
	char *argv[] = {a0, a1, a2, a3, a4, NULL};
	char *plain[] = {a0, a2, a3, NULL};
	struct ut_capture cap;
	char log[512];
	int argc = 5;

	(void)state;
	unsetenv("HILRUN_DIE_WITH_PARENT");
	assert_int_equal(hil_die_with_parent_asked(&argc, argv), 1);
	assert_int_equal(argc, 4);
	assert_string_equal(argv[1], "--config");
	assert_string_equal(argv[3], "-v");
	assert_null(argv[4]);
	argc = 3;
	assert_int_equal(hil_die_with_parent_asked(&argc, plain), 0);
	assert_int_equal(argc, 3);
	setenv("HILRUN_DIE_WITH_PARENT", "1", 1);
	assert_int_equal(hil_die_with_parent_asked(&argc, plain), 1);
	setenv("HILRUN_DIE_WITH_PARENT", "0", 1);
	assert_int_equal(hil_die_with_parent_asked(&argc, plain), 0);
	setenv("HILRUN_DIE_WITH_PARENT", "yes", 1);
	ut_capture_begin(&cap);
	assert_int_equal(hil_die_with_parent_asked(&argc, plain), HIL_ERR_ARG);
	ut_capture_end(&cap, log, sizeof(log));
	assert_non_null(strstr(log, "HILRUN_DIE_WITH_PARENT=yes"));
	unsetenv("HILRUN_DIE_WITH_PARENT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_parents_death_sends_sigterm),
		cmocka_unit_test(test_a_parent_gone_already_is_said),
		cmocka_unit_test(
			test_the_option_is_taken_out_and_the_variable_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
