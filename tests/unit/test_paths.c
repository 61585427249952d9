/* Unit tests of the output-path confinement: which paths a configuration may name, and the message when it names another. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "util/err.h"
#include "config/paths.h"

static void
test_relative_paths_inside_the_working_directory_are_confined(void **state)
{
	(void)state;
	assert_true(hil_path_confined("results"));
	assert_true(hil_path_confined("results/nightly"));
	assert_true(hil_path_confined("./results"));
	assert_true(hil_path_confined("."));
	assert_true(hil_path_confined("results/"));
	assert_true(hil_path_confined("a//b///c"));
	assert_true(hil_path_confined("a/../b"));
	assert_true(hil_path_confined("a/b/../../c"));
	assert_true(hil_path_confined("a/.."));
	/* Names that merely contain dots are names. */
	assert_true(hil_path_confined("..results"));
	assert_true(hil_path_confined("results.."));
	assert_true(hil_path_confined("a/.../b"));
	assert_true(hil_path_confined("~"));
}

static void test_absolute_and_escaping_paths_are_not_confined(void **state)
{
	(void)state;
	assert_false(hil_path_confined("/etc"));
	assert_false(hil_path_confined("/tmp/results"));
	assert_false(hil_path_confined("//results"));
	assert_false(hil_path_confined(".."));
	assert_false(hil_path_confined("../x"));
	assert_false(hil_path_confined("../../x"));
	assert_false(hil_path_confined("./../x"));
	assert_false(hil_path_confined("a/../../x"));
	assert_false(hil_path_confined("a/b/../../../x"));
	assert_false(hil_path_confined("results/../.."));
	/* Climbing out and back in still left the directory on the way. */
	assert_false(hil_path_confined("../main/results"));
	assert_false(hil_path_confined(""));
	assert_false(hil_path_confined(NULL));
}

static void load(struct hil_config *cfg, const char *results_dir)
{
	char json[512];
	char err[512] = "";

	snprintf(
		json, sizeof(json),
		"{\"algorithms\": [\"ascon-aead128\"], \"results_dir\": \"%s\"}",
		results_dir);
	assert_int_equal(hil_config_parse(json, NULL, cfg, err, sizeof(err)),
			 HIL_OK);
}

static void test_config_with_results_inside_passes(void **state)
{
	struct hil_config cfg = {0};
	char err[512] = "";

	(void)state;
	load(&cfg, "results/nightly");
	assert_int_equal(hil_path_check_config(&cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(err, "");
	hil_config_free(&cfg);
	hil_config_defaults(&cfg);
	assert_int_equal(hil_path_check_config(&cfg, NULL, 0), HIL_OK);
	hil_config_free(&cfg);
}

static void
test_config_with_absolute_results_is_refused_naming_key_and_path(void **state)
{
	struct hil_config cfg = {0};
	char err[512] = "";

	(void)state;
	load(&cfg, "/etc");
	assert_int_equal(hil_path_check_config(&cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "results_dir"));
	assert_non_null(strstr(err, "\"/etc\""));
	assert_non_null(strstr(err, "inline configuration"));
	assert_non_null(strstr(err, "working directory"));
	hil_config_free(&cfg);
}

static void
test_config_with_escaping_results_is_refused_naming_its_file(void **state)
{
	struct hil_config cfg = {0};
	char err[512] = "";

	(void)state;
	load(&cfg, "../../x");
	snprintf(cfg.path, sizeof(cfg.path), "configs/night.json");
	assert_int_equal(hil_path_check_config(&cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(
		strstr(err, "configs/night.json: results_dir \"../../x\""));
	/* No room for the message: still refused, never overflowed. */
	assert_int_equal(hil_path_check_config(&cfg, err, 8), HIL_ERR_CONFIG);
	assert_int_equal(strlen(err), 7);
	assert_int_equal(hil_path_check_config(&cfg, NULL, 0), HIL_ERR_CONFIG);
	assert_int_equal(hil_path_check_config(NULL, NULL, 0), HIL_ERR_ARG);
	hil_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_relative_paths_inside_the_working_directory_are_confined),
		cmocka_unit_test(
			test_absolute_and_escaping_paths_are_not_confined),
		cmocka_unit_test(test_config_with_results_inside_passes),
		cmocka_unit_test(
			test_config_with_absolute_results_is_refused_naming_key_and_path),
		cmocka_unit_test(
			test_config_with_escaping_results_is_refused_naming_its_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
