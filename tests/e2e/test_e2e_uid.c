/* End-to-end test of the board check after flashing: the UID the stub reports must be the one the hardware map gives for that probe. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <limits.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

static char tmp[64];
static char bin[PATH_MAX];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The map in tmp/configs/boards.json: one board on probe QEMU-PROBE-1. */
static void write_map(const char *uid)
{
	char path[128], text[512];

	snprintf(path, sizeof(path), "%s/configs/boards.json", tmp);
	snprintf(text, sizeof(text),
		 "[{\"id\": \"bench-1\", \"platform\": \"qemu-netduino\","
		 " \"probe_id\": \"QEMU-PROBE-1\", \"uid\": \"%s\"}]",
		 uid);
	write_file(path, text);
}

/* hilrun in tmp (where the map is); @return its exit status. */
static int run(const char *results, char *out, size_t len)
{
	char *const argv[] = {bin,	   "--config",	    "uid.json",
			      "--results", (char *)results, NULL};
	char cwd[PATH_MAX];
	int status = -1;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(tmp), 0);
	assert_int_equal(hil_proc_capture(argv, out, len, 300000, &status),
			 HIL_OK);
	assert_int_equal(chdir(cwd), 0);
	return status;
}

static void test_the_board_must_be_the_one_the_map_names(void **state)
{
	char out[16384], results[128], uid[64];
	cJSON *root;

	(void)state;
	/* First without a uid in the map: the run reports the board's. */
	write_map("");
	assert_int_equal(run("first", out, sizeof(out)), 0);
	snprintf(results, sizeof(results), "%s/first", tmp);
	root = e2e_load_report(results);
	snprintf(uid, sizeof(uid), "%s",
		 cJSON_GetObjectItemCaseSensitive(
			 cJSON_GetObjectItemCaseSensitive(root, "board"), "uid")
			 ->valuestring);
	cJSON_Delete(root);
	assert_int_equal(strlen(uid), 24);

	/* The map names that UID: measured. */
	write_map(uid);
	assert_int_equal(run("same", out, sizeof(out)), 0);

	/* Another UID: refused after flashing, before anything is measured,
	 * with both UIDs and the board's id in the message. */
	write_map(strcmp(uid, "a5a5a5a5a5a5a5a5a5a5a5a5") == 0
			  ? "5a5a5a5a5a5a5a5a5a5a5a5a"
			  : "a5a5a5a5a5a5a5a5a5a5a5a5");
	assert_true(run("other", out, sizeof(out)) != 0);
	e2e_assert_contains(out, "\"bench-1\"");
	e2e_assert_contains(out, uid);
	e2e_assert_contains(out, "another board is plugged in");
	assert_null(strstr(out, "median"));
}

static int setup(void **state)
{
	const char *b = getenv("HILRUN_BIN");
	char path[128];

	(void)state;
	if (b == NULL || realpath(b, bin) == NULL) {
		assert_non_null(realpath("build/hilrun", bin));
	}
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-uid-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	snprintf(path, sizeof(path), "%s/configs", tmp);
	e2e_make_dir(path);
	snprintf(path, sizeof(path), "%s/uid.json", tmp);
	/* A probe serial names the board in the map (QEMU ignores it). */
	write_file(
		path,
		"{\"name\": \"uid\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"flasher\": {\"probe_serial\": \"QEMU-PROBE-1\"},"
		" \"algorithms\": [\"speck64-128-ecb\"],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16], \"runs\": 10, \"warmup\": 1}}");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_board_must_be_the_one_the_map_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
