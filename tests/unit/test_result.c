/* Unit tests of exit statuses (which failures are transient) and of the result file a run or a spool job leaves. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "util/err.h"
#include "result/result.h"
#include "unit_util.h"

static void test_exit_status_of_each_outcome(void **state)
{
	(void)state;
	assert_int_equal(hil_exit_status(HIL_OK, 0, 0), 0);
	assert_int_equal(hil_exit_status(HIL_OK, 1, 0), 0);
	assert_int_equal(hil_exit_status(HIL_OK, 0, 1), 3);
	assert_int_equal(hil_exit_status(HIL_ERR_VERIFY, 1, 0), 1);
	assert_int_equal(hil_exit_status(HIL_ERR_INTERRUPTED, 1, 0), 4);
	/* Transient only when the step says so and the code allows it. */
	assert_int_equal(hil_exit_status(HIL_ERR_TIMEOUT, 1, 0), 5);
	assert_int_equal(hil_exit_status(HIL_ERR_IO, 1, 0), 5);
	assert_int_equal(hil_exit_status(HIL_ERR_PROCESS, 1, 0), 5);
	assert_int_equal(hil_exit_status(HIL_ERR_NA, 1, 0), 5);
	assert_int_equal(hil_exit_status(HIL_ERR_TIMEOUT, 0, 0), 2);
	assert_int_equal(hil_exit_status(HIL_ERR_CONFIG, 1, 0), 2);
	assert_int_equal(hil_exit_status(HIL_ERR_BUILD, 1, 0), 2);
	assert_int_equal(hil_exit_status(HIL_ERR_MISMATCH, 1, 0), 2);
	assert_int_equal(hil_exit_status(HIL_ERR_ARG, 1, 0), 2);
	assert_int_equal(hil_exit_status(HIL_ERR_NOMEM, 1, 0), 2);
	assert_false(hil_err_transient(HIL_ERR_CONFIG));
	assert_false(hil_err_transient(HIL_ERR_INTERRUPTED));
	assert_true(hil_err_transient(HIL_ERR_PROTO));
	assert_string_equal(hil_exit_summary(0),
			    "all rows measured and verified");
	assert_non_null(strstr(hil_exit_summary(5), "try again"));
	assert_string_equal(hil_exit_summary(2), "could not start");
	assert_string_equal(hil_exit_summary(99), "could not start");
}

static cJSON *load(const char *path)
{
	char *text = NULL;
	FILE *f = fopen(path, "r");
	long n;
	cJSON *j;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	assert_int_equal(text[n - 1], '\n');
	j = cJSON_Parse(text);
	free(text);
	assert_non_null(j);
	return j;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsString(it)) {
		fail_msg("%s is not a string", k);
	}
	return it->valuestring;
}

static int is_null(const cJSON *o, const char *k)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, k));
}

static void test_result_file_has_the_spool_schema(void **state)
{
	static const char *const keys[] = {
		"job",	 "status", "exit_status", "summary",  "transient",
		"error", "report", "run_dir",	  "config",   "baseline",
		"board", "host",   "started",	  "finished", NULL,
	};
	char dir[64] = "/tmp/hilrun-result-XXXXXX";
	char run[128], rep[160], path[160], abs[4096];
	struct hil_result r;
	const cJSON *it;
	cJSON *j;
	size_t i, n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(run, sizeof(run), "%s/20261202-010000-o2", dir);
	assert_int_equal(mkdir(run, 0755), 0);
	snprintf(rep, sizeof(rep), "%s/report.json", run);
	ut_write_file(rep, "{}\n", 3, 0644);
	snprintf(path, sizeof(path), "%s/result.json", dir);

	memset(&r, 0, sizeof(r));
	r.exit_status = HIL_EXIT_ALL_MEASURED;
	r.run_dir = run;
	r.config = "configs/o2.json";
	r.board = "nucleo-1";
	r.started = "2026-12-02T01:00:00Z";
	assert_int_equal(hil_result_write(path, &r), HIL_OK);
	j = load(path);
	for (i = 0; keys[i] != NULL; i++) {
		if (cJSON_GetObjectItemCaseSensitive(j, keys[i]) == NULL) {
			fail_msg("no key %s", keys[i]);
		}
	}
	cJSON_ArrayForEach(it, j)
	{
		n++;
	}
	assert_int_equal(n, i); /* no other keys */
	assert_true(is_null(j, "job"));
	assert_string_equal(str(j, "status"), "done");
	assert_int_equal(
		cJSON_GetObjectItemCaseSensitive(j, "exit_status")->valueint,
		0);
	assert_true(cJSON_IsFalse(
		cJSON_GetObjectItemCaseSensitive(j, "transient")));
	assert_true(is_null(j, "error"));
	assert_true(is_null(j, "baseline"));
	assert_non_null(realpath(run, abs));
	assert_string_equal(str(j, "run_dir"), abs);
	strcat(abs, "/report.json");
	assert_string_equal(str(j, "report"), abs);
	assert_string_equal(str(j, "board"), "nucleo-1");
	assert_string_equal(str(j, "started"), "2026-12-02T01:00:00Z");
	assert_int_equal(strlen(str(j, "finished")), 20);
	cJSON_Delete(j);

	/* The host is $HILRUN_HOST when set, as in report.json (a CI
	 * engine names the lab host by its worker's name). */
	assert_int_equal(setenv("HILRUN_HOST", "lab-a", 1), 0);
	assert_int_equal(hil_result_write(path, &r), HIL_OK);
	unsetenv("HILRUN_HOST");
	j = load(path);
	assert_string_equal(str(j, "host"), "lab-a");
	cJSON_Delete(j);

	/* A board busy for --wait seconds: failed, transient, no report. */
	memset(&r, 0, sizeof(r));
	r.job = "nightly.json";
	r.exit_status = HIL_EXIT_TRANSIENT;
	r.error = "board nucleo-1 is in use by pid 1 (x) since 01:00:00";
	r.config = "inline";
	assert_int_equal(hil_result_write(path, &r), HIL_OK);
	j = load(path);
	assert_string_equal(str(j, "job"), "nightly.json");
	assert_string_equal(str(j, "status"), "failed");
	assert_int_equal(
		cJSON_GetObjectItemCaseSensitive(j, "exit_status")->valueint,
		5);
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "transient")));
	assert_non_null(strstr(str(j, "error"), "is in use by pid 1"));
	assert_true(is_null(j, "report"));
	assert_true(is_null(j, "run_dir"));
	cJSON_Delete(j);

	/* A run folder without a report: run_dir, but report null. */
	assert_int_equal(unlink(rep), 0);
	memset(&r, 0, sizeof(r));
	r.exit_status = HIL_EXIT_INTERRUPTED;
	r.run_dir = run;
	assert_int_equal(hil_result_write(path, &r), HIL_OK);
	j = load(path);
	assert_true(is_null(j, "report"));
	assert_false(is_null(j, "run_dir"));
	assert_string_equal(str(j, "summary"), "interrupted");
	cJSON_Delete(j);

	/* A folder that does not exist: an error, nothing written. */
	snprintf(path, sizeof(path), "%s/no/such/result.json", dir);
	assert_int_not_equal(hil_result_write(path, &r), HIL_OK);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(ut_rm_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status_of_each_outcome),
		cmocka_unit_test(test_result_file_has_the_spool_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
