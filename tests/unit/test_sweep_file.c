/* Unit tests of reading a sweep file: through the one JSON loader (config/jsonld), its errors name the file, the line and column or the key, as a configuration's do. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/sweep.h"
#include "util/err.h"
#include "unit_util.h"

struct fx {
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-sweepfile.XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(fx->path, sizeof(fx->path), "%s/sweep.json", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	ut_rm_tree(fx->dir);
	free(fx);
	return 0;
}

/* One sweep file's text (single quotes for double) and the message its
 * load must give after "PATH: ". */
static const struct {
	const char *text;
	const char *want;
} bad[] = {
	/* cJSON keeps both of a key given twice and reads the first. */
	{"{'configs': ['a.json'], 'configs': ['b.json']}",
	 "key \"configs\" appears twice in one object"},
	{"{'nmae': 'x', 'configs': ['a.json']}",
	 "nmae: unknown key (did you mean \"name\"?)"},
	{"{'name': 7, 'configs': ['a.json']}", "name: expected a string"},
	{"{'configs': ['a.json'],\n 'base' 'b'}",
	 "line 2, column 9: invalid JSON near \" \\\"base\\\" \\\"b\\\"}\""},
	{"['a.json']", "expected a JSON object ({ ... }) at the top level"},
	{"sweep", "line 1, column 1: not JSON (a sweep starts with \"{\")"},
};

static void test_sweep_file_errors_are_the_loaders(void **state)
{
	struct fx *fx = *state;
	struct hil_sweep sw;
	char want[512], err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ut_write_squoted(fx->path, bad[i].text);
		memset(&sw, 0, sizeof(sw));
		assert_int_equal(
			hil_sweep_load(fx->path, &sw, err, sizeof(err)),
			HIL_ERR_CONFIG);
		snprintf(want, sizeof(want), "%s: %s", fx->path, bad[i].want);
		if (strcmp(err, want) != 0) {
			print_error("input %zu: %s\n", i, bad[i].text);
		}
		assert_string_equal(err, want);
		assert_int_equal(sw.n, 0);
	}
}

/* A FIFO would hang a reader that trusts what it is given. */
static void test_sweep_file_must_be_a_regular_file(void **state)
{
	struct fx *fx = *state;
	struct hil_sweep sw;
	char err[512];

	assert_int_equal(hil_sweep_load(fx->dir, &sw, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_non_null(strstr(err, fx->dir));
	assert_non_null(strstr(err, "cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_sweep_file_errors_are_the_loaders, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_sweep_file_must_be_a_regular_file, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
