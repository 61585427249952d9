/* End-to-end test of what a run's rows carry beyond the counts: heap use, the timing-leak smoke test and the figure normalised to a reference algorithm, through hilrun and its report. */
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
#include <math.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

static char tmp[64];
static cJSON *report;
static char *summary;

static const cJSON *row(const char *impl, const char *op, double len)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(report, "rows"))
	{
		const cJSON *i =
			cJSON_GetObjectItemCaseSensitive(r, "implementation");
		const cJSON *o =
			cJSON_GetObjectItemCaseSensitive(r, "operation");
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(r, "msg_len");

		if (strcmp(i->valuestring, impl) == 0 &&
		    strcmp(o->valuestring, op) == 0 && l->valuedouble == len) {
			return r;
		}
	}
	fail_msg("no row %s %s %.0f", impl, op, len);
	return NULL;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsNumber(v)) {
		fail_msg("\"%s\" is not a number", k);
	}
	return v->valuedouble;
}

static int flagged(const cJSON *r)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "leak");

	assert_non_null(k);
	assert_string_equal(
		cJSON_GetObjectItemCaseSensitive(k, "status")->valuestring,
		"ok");
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(k, "flagged"));
}

/* Ascon's reference, two fixtures and AES-ECB, encrypt and decrypt. */
static int run_once(void **state)
{
	const char *root = getenv("HILRUN_ROOT");
	char conf[128], results[128], path[400];
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "-q",
			      "--config",
			      conf,
			      "--results",
			      results,
			      NULL};
	size_t n = 0;
	int status = -1;
	FILE *f;

	(void)state;
	if (root == NULL) {
		root = ".";
	}
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-extras-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	snprintf(conf, sizeof(conf), "%s/extras.json", tmp);
	snprintf(results, sizeof(results), "%s/r", tmp);
	f = fopen(conf, "w");
	if (f == NULL) {
		return -1;
	}
	fprintf(f,
		"{\"name\": \"extras\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": [\"ascon-aead128\","
		" {\"name\": \"ascon-aead128\", \"impl\": \"leaky\", \"path\": \"%s/tests/fixtures/leaky-compare\"},"
		" {\"name\": \"ascon-aead128\", \"impl\": \"heap\", \"path\": \"%s/tests/fixtures/heap-ascon\"},"
		" \"aes128-ecb\"],"
		" \"bench\": {\"operations\": [\"encrypt\", \"decrypt\"],"
		" \"lengths\": [64, 256], \"runs\": 30, \"warmup\": 2,"
		" \"leak_runs\": 200}}",
		root, root);
	fclose(f);
	if (hil_proc_run(argv, NULL, 300000, &status) != HIL_OK ||
	    status != 0) {
		fprintf(stderr, "hilrun exited %d\n", status);
		return -1;
	}
	e2e_run_dir(results, path, sizeof(path));
	report = e2e_load_report(results);
	{
		char file[500];

		snprintf(file, sizeof(file), "%s/summary.md", path);
		if (hil_read_file(file, &summary, &n) != HIL_OK) {
			return -1;
		}
	}
	return report == NULL ? -1 : 0;
}

static int clean_up(void **state)
{
	(void)state;
	cJSON_Delete(report);
	free(summary);
	e2e_remove_tree(tmp);
	return 0;
}

static void test_heap_use_is_in_the_row(void **state)
{
	(void)state;
	/* newlib-nano: a 64-byte copy takes 72 bytes, an empty AD copy 12
	 * (tests/fixtures/heap-ascon/heap.c). */
	assert_int_equal((int)num(row("heap", "encrypt", 64), "heap_bytes"),
			 72 + 12);
	assert_int_equal((int)num(row("ref", "encrypt", 64), "heap_bytes"), 0);
}

static void test_the_leak_test_flags_an_early_exit_compare(void **state)
{
	(void)state;
	assert_true(flagged(row("leaky", "decrypt", 64)));
	assert_false(flagged(row("leaky", "encrypt", 64)));
	assert_false(flagged(row("ref", "decrypt", 64)));
	assert_false(flagged(row("ref", "encrypt", 256)));
	/* The summary names it. */
	e2e_assert_contains(summary, "flags:");
	e2e_assert_contains(summary, "ascon-aead128/leaky decrypt, 64 B");
}

static void test_figures_are_normalised_to_aes(void **state)
{
	const cJSON *nt =
		cJSON_GetObjectItemCaseSensitive(report, "normalized_to");
	double ascon = num(row("ref", "encrypt", 256), "median");
	double aes = num(row("ref", "encrypt", 256), "median");
	const cJSON *r;

	(void)state;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(report, "rows"))
	{
		if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "algorithm")
				   ->valuestring,
			   "aes128-ecb") == 0 &&
		    num(r, "msg_len") == 256 &&
		    strcmp(cJSON_GetObjectItemCaseSensitive(r, "operation")
				   ->valuestring,
			   "encrypt") == 0) {
			aes = num(r, "median");
			assert_true(num(r, "normalized") == 1.0);
		}
	}
	assert_string_equal(
		cJSON_GetObjectItemCaseSensitive(nt, "algorithm")->valuestring,
		"aes128-ecb");
	assert_true(fabs(num(row("ref", "encrypt", 256), "normalized") -
			 ascon / aes) < 1e-9);
	/* Key setup has no message: nothing to normalise. */
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
		row("ref", "keysetup", 0), "normalized")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_use_is_in_the_row),
		cmocka_unit_test(
			test_the_leak_test_flags_an_early_exit_compare),
		cmocka_unit_test(test_figures_are_normalised_to_aes),
	};

	return cmocka_run_group_tests(tests, run_once, clean_up);
}
