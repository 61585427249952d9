/* End-to-end test of the cycle model in a run: rows carry the emulated instruction count and the estimated cycles, each labelled, identical over two runs. */
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

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

static char tmp[64];

/* Run a config with the given cycle_model object into tmp/name; @return
 * the parsed report. */
static cJSON *run(const char *name, const char *model)
{
	char conf[128], results[128];
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "-q",
			      "--config",
			      conf,
			      "--results",
			      results,
			      NULL};
	int status = -1;
	cJSON *root;
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/%s.json", tmp, name);
	snprintf(results, sizeof(results), "%s/%s", tmp, name);
	f = fopen(conf, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"%s\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": [\"ascon-aead128\", \"aes128-ecb\"],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16, 256], \"runs\": 30, \"warmup\": 2},"
		" \"cycle_model\": %s}",
		name, model);
	fclose(f);
	assert_int_equal(hil_proc_run(argv, NULL, 300000, &status), HIL_OK);
	assert_int_equal(status, 0);
	root = e2e_load_report(results);
	return root;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

static const cJSON *rows(const cJSON *r)
{
	return cJSON_GetObjectItemCaseSensitive(r, "rows");
}

static void test_rows_carry_instructions_and_estimated_cycles(void **state)
{
	cJSON *a = run("a", "{\"wait_states\": 2, \"art\": true}");
	cJSON *b = run("b", "{\"wait_states\": 2, \"art\": true}");
	const cJSON *cm = cJSON_GetObjectItemCaseSensitive(a, "cycle_model");
	const cJSON *ra, *rb;
	int n = 0;

	(void)state;
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cm, "enabled")));
	assert_string_equal(
		str(cm, "unit"),
		"cycles (estimated, Cortex-M4 model, 2 WS, ART on)");
	rb = rows(b)->child;
	cJSON_ArrayForEach(ra, rows(a))
	{
		const cJSON *ma =
			cJSON_GetObjectItemCaseSensitive(ra, "model_cycles");
		const cJSON *mb =
			cJSON_GetObjectItemCaseSensitive(rb, "model_cycles");
		char *sa, *sb;

		/* Both figures, each with its own label. */
		assert_string_equal(str(ra, "unit"), "instructions (emulated)");
		assert_non_null(ma);
		assert_string_equal(str(ma, "unit"), str(cm, "unit"));
		/* A Cortex-M4 needs at least one cycle per instruction, and
		 * not four on this code. */
		assert_true(num(ma, "median") >= num(ra, "median"));
		assert_true(num(ma, "median") < 4.0 * num(ra, "median"));
		/* Deterministic: the second run gives the same figures. */
		sa = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(ma, "samples"));
		sb = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(mb, "samples"));
		assert_string_equal(sa, sb);
		free(sa);
		free(sb);
		rb = rb->next;
		n++;
	}
	assert_int_equal(n, 5);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void test_wait_states_cost_cycles_and_off_means_absent(void **state)
{
	cJSON *zero = run("ws0", "{\"wait_states\": 0}");
	cJSON *five = run("ws5", "{\"wait_states\": 5, \"art\": false}");
	cJSON *off = run("off", "{\"enabled\": false}");
	const cJSON *r0, *r5, *ro;

	(void)state;
	r5 = rows(five)->child;
	ro = rows(off)->child;
	cJSON_ArrayForEach(r0, rows(zero))
	{
		double c0 = num(
			cJSON_GetObjectItemCaseSensitive(r0, "model_cycles"),
			"median");
		double c5 = num(
			cJSON_GetObjectItemCaseSensitive(r5, "model_cycles"),
			"median");

		/* Fetching from a 5-wait-state flash without the ART is
		 * slower; the instruction counts do not change. */
		assert_true(c5 > c0);
		assert_true(num(r0, "median") == num(r5, "median"));
		assert_null(
			cJSON_GetObjectItemCaseSensitive(ro, "model_cycles"));
		r5 = r5->next;
		ro = ro->next;
	}
	assert_string_equal(
		str(cJSON_GetObjectItemCaseSensitive(off, "cycle_model"),
		    "why"),
		"cycle_model.enabled is false");
	cJSON_Delete(zero);
	cJSON_Delete(five);
	cJSON_Delete(off);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-model-XXXXXX");
	return mkdtemp(tmp) == NULL ? -1 : 0;
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
		cmocka_unit_test(
			test_rows_carry_instructions_and_estimated_cycles),
		cmocka_unit_test(
			test_wait_states_cost_cycles_and_off_means_absent),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
