/* test_buildlog: what a failed build says is read from what its own make wrote to the run's build log (not the builds before it in the same log), and from the end of that only (hil_read_tail): the hint for a missing header is the same for a small log and for one grown larger than any file hilrun reads whole, and the tail starts at a whole line. */
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
	hil_build_hint_failure(log, 0);
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

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A run's first image overflows the flash; a later image of the split
 * fails because one folder does not compile. Read from where the later
 * make began, it is not "too big" (the NIST photon-beetle rate32 rhys
 * folder was reported too big for the board for that reason), and its
 * linker complaint is none; read from the start, the old overflow is
 * still there.
 */
static void test_an_earlier_overflow_is_not_this_builds(void **state)
{
	char dir[] = "/tmp/hiltest-buildlog-XXXXXX";
	char log[64], what[200];
	size_t from;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/build.log", dir);
	assert_int_equal(hil_build_log_size(log), 0);
	append(log, "arm-none-eabi-gcc ... -o stub.elf\n"
		    "/usr/bin/../arm-none-eabi/bin/ld: region `FLASH' "
		    "overflowed by 138252 bytes\n"
		    "make: *** [mk/firmware.mk:163: stub.elf] Error 1\n");
	from = hil_build_log_size(log);
	assert_true(from > 0);
	append(log, "src/x_rhys/internal-util.c:26:32: error: unknown type "
		    "name 'size_t'\n"
		    "make: *** [mk/firmware.mk:93: internal-util.o] Error 1\n");
	assert_int_equal(
		hil_build_log_overflowed(log, from, what, sizeof(what)), 0);
	assert_int_equal(
		hil_build_log_link_error(log, from, what, sizeof(what)), 0);
	/* Nor is its hint the overflow's. */
	{
		struct ut_capture cap;
		char out[4096];

		ut_capture_begin(&cap);
		hil_build_hint_failure(log, from);
		ut_capture_end(&cap, out, sizeof(out));
		assert_null(strstr(out, "too big for the board"));
		ut_capture_begin(&cap);
		hil_build_hint_failure(log, 0);
		ut_capture_end(&cap, out, sizeof(out));
		assert_non_null(strstr(out, "too big for the board"));
	}
	assert_int_equal(hil_build_log_overflowed(log, 0, what, sizeof(what)),
			 1);
	assert_string_equal(what, "region `FLASH' overflowed by 138252 bytes");
	/* A later make that overflows is seen, with its own figure. */
	from = hil_build_log_size(log);
	append(log, "/usr/bin/ld: region `FLASH' overflowed by 16840 bytes\n");
	assert_int_equal(
		hil_build_log_overflowed(log, from, what, sizeof(what)), 1);
	assert_string_equal(what, "region `FLASH' overflowed by 16840 bytes");
	assert_int_equal(
		hil_build_log_link_error(log, from, what, sizeof(what)), 1);
	unlink(log);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_hint_is_the_same_for_a_huge_log),
		cmocka_unit_test(test_a_tail_starts_at_a_whole_line),
		cmocka_unit_test(test_an_earlier_overflow_is_not_this_builds),
	};

	return cmocka_run_group_tests_name("buildlog", tests, setup, teardown);
}
