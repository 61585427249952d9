/* test_buildlog: a build's failure is read from what its own make wrote to the run's build log, not from the builds before it in the same log. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "image/build_int.h"
#include "unit_util.h"

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
		cmocka_unit_test(test_an_earlier_overflow_is_not_this_builds),
	};

	return cmocka_run_group_tests_name("buildlog", tests, NULL, NULL);
}
