/* End-to-end test of the cycle model in a run: rows carry the emulated instruction count and the estimated cycles, each labelled, identical over two runs. */
#define _XOPEN_SOURCE 700
#include <math.h>
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

/*
 * Run Ascon and table-based AES encryption on the emulated board with the
 * config's other keys given by rest (JSON members) into tmp/name; @return
 * the parsed report (the run's folder in dir, if dir is not NULL).
 */
static cJSON *run_config(const char *name, const char *rest, char *dir,
			 size_t len)
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
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/%s.json", tmp, name);
	snprintf(results, sizeof(results), "%s/%s", tmp, name);
	f = fopen(conf, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"%s\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": [\"ascon-aead128\", \"aes128-ecb\"], %s}",
		name, rest);
	fclose(f);
	assert_int_equal(hil_proc_run(argv, NULL, 300000, &status), HIL_OK);
	assert_int_equal(status, 0);
	if (dir != NULL) {
		e2e_run_dir(results, dir, len);
	}
	return e2e_load_report(results);
}

/* Run with the given cycle_model object; @return the parsed report. */
static cJSON *run(const char *name, const char *model)
{
	char rest[512];

	snprintf(rest, sizeof(rest),
		 "\"bench\": {\"operations\": [\"encrypt\"],"
		 " \"lengths\": [16, 256], \"runs\": 30, \"warmup\": 2},"
		 " \"cycle_model\": %s",
		 model);
	return run_config(name, rest, NULL, 0);
}

/* A run with the leak test, the cycle model on as the board has it;
 * @return the parsed report (the run's folder in dir). */
static cJSON *run_leak(const char *name, char *dir, size_t len)
{
	return run_config(name,
			  "\"bench\": {\"operations\": [\"encrypt\"],"
			  " \"lengths\": [256], \"runs\": 30, \"warmup\": 2,"
			  " \"leak_runs\": 1000}",
			  dir, len);
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

/* A model row's memory-system figures, consistent with each other. */
static void mem_counts(const cJSON *m)
{
	const cJSON *miss = cJSON_GetObjectItemCaseSensitive(m, "cache_misses");
	const cJSON *lines =
		cJSON_GetObjectItemCaseSensitive(m, "lines_touched");
	const cJSON *caps = cJSON_GetObjectItemCaseSensitive(m, "cache_lines");
	const cJSON *fits = cJSON_GetObjectItemCaseSensitive(m, "fits_caches");

	assert_true(num(miss, "instruction") >= 0);
	assert_true(num(miss, "data") >= 0);
	assert_true(num(lines, "code") > 0);
	assert_int_equal(num(lines, "line_bytes"), 16);
	assert_int_equal(num(caps, "instruction"), 64);
	assert_int_equal(num(caps, "data"), 8);
	assert_true(cJSON_IsBool(fits));
	if (cJSON_IsFalse(fits)) {
		assert_true(num(lines, "code") > 64 || num(lines, "data") > 8);
		assert_non_null(strstr(str(m, "cache_note"), "holds"));
	} else {
		assert_true(num(lines, "code") <= 64 &&
			    num(lines, "data") <= 8);
	}
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
	assert_string_equal(str(cm, "unit"),
			    "cycles (estimated, Cortex-M4 model, "
			    "stm32f401-art: 2 WS, ART on)");
	/* The board's memory-system profile, with nothing unverified. */
	assert_string_equal(str(cm, "profile"), "stm32f401-art");
	assert_true(cJSON_IsNull(
		cJSON_GetObjectItemCaseSensitive(cm, "unverified")));
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
		/* Every row names its profile and what the caches did. */
		assert_string_equal(str(ma, "profile"), "stm32f401-art");
		mem_counts(ma);
		sa = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(ma, "cache_misses"));
		sb = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(mb, "cache_misses"));
		assert_string_equal(sa, sb);
		free(sa);
		free(sb);
		/* AES's T-tables (4 KiB) cannot fit 8 lines of D-cache: the
		 * row says so. */
		if (strcmp(str(ra, "algorithm"), "aes128-ecb") == 0 &&
		    strcmp(str(ra, "operation"), "encrypt") == 0) {
			assert_true(
				cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
					ma, "fits_caches")));
			assert_non_null(
				strstr(str(ma, "cache_note"), "data cache"));
			assert_true(num(cJSON_GetObjectItemCaseSensitive(
						ma, "cache_misses"),
					"data") > 0);
		}
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
	/* Issue 31 item 3: the provenance is of what was modelled, not of
	 * the profile the overrides started from. */
	{
		const cJSON *c5 =
			cJSON_GetObjectItemCaseSensitive(five, "cycle_model");

		assert_string_equal(str(c5, "unit"),
				    "cycles (estimated, Cortex-M4 model, "
				    "stm32f401-art overridden: 5 WS, ART off)");
		assert_null(strstr(str(c5, "profile_summary"), "0x702"));
		e2e_assert_contains(str(c5, "profile_summary"),
				    "5 WS, ART prefetch and caches off");
		assert_string_equal(
			str(cJSON_GetObjectItemCaseSensitive(zero,
							     "cycle_model"),
			    "unit"),
			"cycles (estimated, Cortex-M4 model, stm32f401-art "
			"overridden: 0 WS, ART on)");
	}
	cJSON_Delete(zero);
	cJSON_Delete(five);
	cJSON_Delete(off);
}

/* Another board's memory system on the emulated board: named, and its
 * unverified parameters said everywhere. */
static void test_a_profile_with_unverified_timing_says_so(void **state)
{
	cJSON *nrf = run("nrf", "{\"profile\": \"nrf52840-icache\"}");
	const cJSON *cm = cJSON_GetObjectItemCaseSensitive(nrf, "cycle_model");
	const cJSON *r;

	(void)state;
	assert_string_equal(str(cm, "profile"), "nrf52840-icache");
	assert_non_null(strstr(str(cm, "unverified"), "wait states"));
	assert_string_equal(str(cm, "unit"),
			    "cycles (estimated, Cortex-M4 model, "
			    "nrf52840-icache: 2 WS, I-cache on, unverified "
			    "flash timing)");
	cJSON_ArrayForEach(r, rows(nrf))
	{
		const cJSON *m =
			cJSON_GetObjectItemCaseSensitive(r, "model_cycles");
		const cJSON *caps =
			cJSON_GetObjectItemCaseSensitive(m, "cache_lines");

		assert_string_equal(str(m, "profile"), "nrf52840-icache");
		/* size unknown: nothing to fit; no data cache at all */
		assert_true(cJSON_IsNull(
			cJSON_GetObjectItemCaseSensitive(caps, "instruction")));
		assert_int_equal(num(caps, "data"), 0);
		assert_true(cJSON_IsNull(
			cJSON_GetObjectItemCaseSensitive(m, "fits_caches")));
	}
	cJSON_Delete(nrf);
}

/* The row with this algorithm's encryption. */
static const cJSON *row_of(const cJSON *report, const char *alg)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, rows(report))
	{
		if (strcmp(str(r, "algorithm"), alg) == 0 &&
		    strcmp(str(r, "operation"), "encrypt") == 0) {
			return r;
		}
	}
	fail_msg("no %s encrypt row", alg);
	return NULL;
}

/*
 * The leak test on both statistics in a run (#15 item 4): table-based AES
 * executes the same instructions for any data (t = 0, not flagged), but
 * the model's data cache (8 lines of the STM32F401's ART) against its
 * flash-resident T-tables gives data-dependent cycles: flagged by the
 * model's cycles alone, labelled with the profile. Constant-time Ascon is
 * flagged by neither. summary.md says which statistic flagged what.
 */
static void test_leak_test_flags_table_lookups_on_model_cycles(void **state)
{
	char dir[400], file[500];
	char *summary = NULL;
	cJSON *rep = run_leak("leak", dir, sizeof(dir));
	const cJSON *aes = row_of(rep, "aes128-ecb");
	const cJSON *ascon = row_of(rep, "ascon-aead128");
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(aes, "leak");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(l, "model_cycles");
	const cJSON *by = cJSON_GetObjectItemCaseSensitive(l, "flagged_by");
	size_t n = 0;

	(void)state;
	/* The instruction counts: t = 0, in their unit. */
	assert_string_equal(str(l, "unit"), "instructions (emulated)");
	assert_true(num(l, "t") == 0.0);
	assert_true(num(l, "mean_fixed") == num(l, "mean_random"));
	/* The model's cycles of the same runs: flagged, with the profile. */
	assert_string_equal(str(m, "status"), "ok");
	assert_string_equal(str(m, "profile"), "stm32f401-art");
	assert_string_equal(str(m, "unit"),
			    "cycles (estimated, Cortex-M4 model, "
			    "stm32f401-art: 2 WS, ART on)");
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "flagged")));
	assert_true(fabs(num(m, "t")) > 4.5);
	assert_true(num(m, "n_fixed") + num(m, "n_random") == 1000);
	/* The row is flagged by the model alone: the counter's own flag
	 * stays false beside its t. */
	assert_true(
		cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(l, "flagged")));
	assert_int_equal(cJSON_GetArraySize(by), 1);
	assert_string_equal(cJSON_GetArrayItem(by, 0)->valuestring,
			    "model_cycles");

	/* Ascon: identical in both, stopped after the probe. */
	l = cJSON_GetObjectItemCaseSensitive(ascon, "leak");
	m = cJSON_GetObjectItemCaseSensitive(l, "model_cycles");
	assert_true(
		cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(l, "flagged")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
				 l, "flagged_by")),
			 0);
	assert_true(num(l, "t") == 0.0 && num(m, "t") == 0.0);
	assert_true(num(m, "n_fixed") + num(m, "n_random") == 32);

	snprintf(file, sizeof(file), "%s/summary.md", dir);
	assert_int_equal(hil_read_file(file, &summary, &n), HIL_OK);
	assert_non_null(strstr(
		summary,
		"  - aes128-ecb/ref encrypt, 256 B: flagged by estimated cycles (model profile stm32f401-art), t = "));
	assert_non_null(
		strstr(summary, "; instructions (emulated): t = 0.0\n"));
	assert_null(
		strstr(summary, "ascon-aead128/ref encrypt, 256 B: flagged"));
	free(summary);
	cJSON_Delete(rep);
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
		cmocka_unit_test(test_a_profile_with_unverified_timing_says_so),
		cmocka_unit_test(
			test_leak_test_flags_table_lookups_on_model_cycles),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
