/* test_buildlog: what a failed build says is read from the end of its log only (hil_read_tail): the hint for a missing header is the same for a small log and for one grown larger than any file hilrun reads whole, and the tail starts at a whole line. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "image/build_int.h"
#include "util/err.h"
#include "util/util.h"
#include "unit_util.h"

#define MISSING                                                                \
	"src/x/extra.c:1:10: fatal error: permutations.h: No such file or directory\n"

struct fx {
	char dir[64];
	char log[96];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/hiltest-buildlog-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->log, sizeof(f->log), "%s/build.log", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	assert_int_equal(ut_rm_tree(f->dir), 0);
	free(f);
	return 0;
}

/* A log of size bytes ending with tail, the rest a hole (no disk, no
 * memory; NUL bytes, which the tail's first whole line leaves out). */
static void write_log(const char *path, off_t size, const char *tail)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t n = strlen(tail);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size - (off_t)n), 0);
	assert_int_equal(pwrite(fd, tail, n, size - (off_t)n), (ssize_t)n);
	assert_int_equal(close(fd), 0);
}

/* hil_build_hint_failure's words on log. */
static void hint_of(const char *log, char *said, size_t len)
{
	struct ut_capture c;

	ut_capture_begin(&c);
	hil_build_hint_failure(log);
	ut_capture_end(&c, said, len);
}

static void test_the_hint_is_the_same_for_a_huge_log(void **state)
{
	struct fx *f = *state;
	char small[2048], huge[2048];

	ut_write_file(f->log, "make: ...\n" MISSING, strlen(MISSING) + 10,
		      0644);
	hint_of(f->log, small, sizeof(small));
	assert_non_null(strstr(small, "hint: a header is missing"));
	/* Larger than HIL_READ_MAX: once refused whole, so no hint. */
	write_log(f->log, (off_t)HIL_READ_MAX + 4096, "\n" MISSING);
	hint_of(f->log, huge, sizeof(huge));
	assert_string_equal(huge, small);
}

static void test_a_tail_starts_at_a_whole_line(void **state)
{
	struct fx *f = *state;
	char *text = NULL;
	size_t len = 0;

	write_log(f->log, 100, "\nfirst half line\nlast line\n");
	assert_int_equal(hil_read_tail(f->log, 20, &text, &len), HIL_OK);
	assert_string_equal(text, "last line\n");
	assert_int_equal(len, strlen("last line\n"));
	free(text);
	/* Smaller than the bound: all of it. */
	ut_write_file(f->log, "a\nb\n", 4, 0644);
	assert_int_equal(hil_read_tail(f->log, 20, &text, &len), HIL_OK);
	assert_string_equal(text, "a\nb\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_hint_is_the_same_for_a_huge_log),
		cmocka_unit_test(test_a_tail_starts_at_a_whole_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
