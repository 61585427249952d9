/* test_e2e_pqboard: hilrun pq on a board with a link (qemu-netduino, the emulated STM32F405, over its USART socket as a real board's UART): the images flashed by its flasher, the stub's PQRUN records read through the session into rows verified against the host build and the known answers, a scheme that does not fit listed with the reason, and one that runs out of stack midway listed with the reason, its calls before the fault kept. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

#define FIX "tests/fixtures/pq"

static char tmp_root[64];
static char src_root[HIL_PATH];
static char out_dir[HIL_PATH + 16];
static int status = -1;

/* One hilrun pq run of netduino.json: toykem/ref, toysig/ref, one that
 * does not fit this board and one whose second decapsulation runs out of
 * stack; two runs per operation (those of the known answers), seed 1. */
static int setup_run(void **state)
{
	(void)state;
	return e2e_pq_run(src_root, tmp_root, "netduino.json", "pq.log",
			  out_dir, sizeof(out_dir), &status);
}

static const cJSON *row_of(const cJSON *rows, const char *alg, const char *op)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, rows)
	{
		if (strcmp(e2e_need_str(r, "algorithm"), alg) == 0 &&
		    strcmp(e2e_need_str(r, "operation"), op) == 0) {
			return r;
		}
	}
	return NULL;
}

static void test_rows_verified_in_the_boards_unit(void **state)
{
	static const char *const ops[2][3] = {{"keypair", "encaps", "decaps"},
					      {"keypair", "sign", "verify"}};
	static const char *const algs[2] = {"toykem", "toysig"};
	char path[HIL_PATH + 32];
	cJSON *rep;
	const cJSON *rows, *board;
	int a, o;

	(void)state;
	/* 1: two folders were left out; every other row is there. */
	assert_int_equal(status, 1);
	snprintf(path, sizeof(path), "%s/report.json", out_dir);
	rep = e2e_load_json(path);
	assert_non_null(rep);
	board = e2e_need(rep, "board");
	assert_string_equal(e2e_need_str(board, "name"), "qemu-netduino");
	assert_string_equal(e2e_need_str(board, "link"), "socket");
	assert_string_equal(e2e_need_str(board, "counter_unit"),
			    "instructions (emulated)");
	/* One PQRUN per image that ran (toykem, toysig and the one that
	 * faulted), on a clean link. */
	assert_int_equal(
		(int)e2e_need_num(e2e_need(rep, "session"), "requests"), 3);
	assert_int_equal(
		(int)e2e_need_num(e2e_need(rep, "session"), "bad_frames"), 0);
	assert_true(e2e_need_num(e2e_need(rep, "session"), "bytes_rx") > 0);
	rows = e2e_need(rep, "rows");
	assert_int_equal(cJSON_GetArraySize(rows), 9); /* 3 of lastdecaps */
	for (a = 0; a < 2; a++) {
		for (o = 0; o < 3; o++) {
			const cJSON *r = row_of(rows, algs[a], ops[a][o]);
			const cJSON *pq;

			assert_non_null(r);
			assert_string_equal(e2e_need_str(r, "status"), "ok");
			assert_true(cJSON_IsTrue(e2e_need(r, "verified")));
			assert_string_equal(e2e_need_str(r, "unit"),
					    "instructions (emulated)");
			assert_int_equal((int)e2e_need_num(r, "runs"), 2);
			assert_true(e2e_need_num(r, "median") > 1000);
			assert_true(e2e_need_num(r, "stack_bytes") > 0);
			pq = e2e_need(r, "pq");
			/* The RAM the image leaves, not the board's
			 * default 8 KiB (the netduino's 96 KiB as linked). */
			assert_true(e2e_need_num(pq, "stack_capacity") > 65536);
			assert_true(e2e_need_num(pq, "stack_capacity") < 98304);
			assert_non_null(strstr(e2e_need_str(pq, "verification"),
					       "ok vs host build of"));
		}
	}
	cJSON_Delete(rep);
}

/* calls.tsv's digest and return value of scheme's op and run (columns 17
 * and 18, pq-bench.sh's); 0 when there is no such call. */
static int call_of(const char *scheme, const char *op, unsigned run,
		   char *digest, size_t dlen, unsigned *ret)
{
	char path[HIL_PATH + 32], line[1024];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/calls.tsv", out_dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		char *col[32], *save = NULL, *t;
		size_t n = 0;

		for (t = strtok_r(line, "\t\n", &save); t != NULL && n < 32;
		     t = strtok_r(NULL, "\t\n", &save)) {
			col[n++] = t;
		}
		if (n == 25 && strcmp(col[0], scheme) == 0 &&
		    strcmp(col[3], op) == 0 &&
		    strtoul(col[4], NULL, 10) == run) {
			snprintf(digest, dlen, "%s", col[16]);
			*ret = (unsigned)strtoul(col[17], NULL, 10);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Each call's digest and return value as the stub sent them equal the
 * known answers generated from the host build (toykem.kat, toysig.kat). */
static void test_calls_match_the_known_answers(void **state)
{
	static const char *const kats[2] = {"toykem", "toysig"};
	char path[HIL_PATH + 64], line[512];
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		FILE *kat;
		size_t n = 0;

		snprintf(path, sizeof(path), "%s/" FIX "/%s.kat", src_root,
			 kats[k]);
		kat = fopen(path, "r");
		assert_non_null(kat);
		while (fgets(line, sizeof(line), kat) != NULL) {
			char op[16], dg[16], got[16];
			unsigned run, ret, got_ret;

			assert_int_equal(sscanf(line, "%15s %u %15s %u", op,
						&run, dg, &ret),
					 4);
			assert_true(call_of(kats[k], op, run, got, sizeof(got),
					    &got_ret));
			assert_string_equal(got, dg);
			assert_int_equal(got_ret, ret);
			n++;
		}
		fclose(kat);
		assert_int_equal(n, 6); /* 2 runs of 3 operations */
	}
}

/* The board stopped at the fifth call of toykem-lastdecaps: the four
 * before it are two verified rows, the decapsulation that came is a row
 * that fails saying why. */
static void test_calls_before_a_fault_are_kept(void **state)
{
	char path[HIL_PATH + 32];
	cJSON *rep;
	const cJSON *rows, *r;
	const char *ops[] = {"keypair", "encaps"};
	int o;

	(void)state;
	snprintf(path, sizeof(path), "%s/report.json", out_dir);
	rep = e2e_load_json(path);
	assert_non_null(rep);
	rows = e2e_need(rep, "rows");
	for (o = 0; o < 2; o++) {
		r = row_of(rows, "toykem-lastdecaps", ops[o]);
		assert_non_null(r);
		assert_string_equal(e2e_need_str(r, "status"), "ok");
		assert_true(cJSON_IsTrue(e2e_need(r, "verified")));
		assert_int_equal((int)e2e_need_num(r, "runs"), 2);
	}
	r = row_of(rows, "toykem-lastdecaps", "decaps");
	assert_non_null(r);
	assert_int_equal((int)e2e_need_num(r, "runs"), 1);
	assert_string_not_equal(e2e_need_str(r, "status"), "ok");
	assert_non_null(strstr(e2e_need_str(e2e_need(r, "pq"), "verification"),
			       "1 of 2 runs before the board stopped"));
	cJSON_Delete(rep);
}

static void test_what_cannot_run_is_listed_with_the_reason(void **state)
{
	char path[HIL_PATH + 32];
	cJSON *rep;
	const cJSON *skipped, *s;
	int huge = 0, last = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/report.json", out_dir);
	rep = e2e_load_json(path);
	assert_non_null(rep);
	skipped = e2e_need(rep, "not_for_board");
	cJSON_ArrayForEach(s, skipped)
	{
		const char *name = e2e_need_str(s, "algorithm");
		const char *why = e2e_need_str(s, "why");

		if (strcmp(name, "toykem-huge") == 0) {
			huge = 1;
			assert_non_null(strstr(why, "will not fit in region"));
		}
		if (strcmp(name, "toykem-lastdecaps") == 0) {
			last = 1;
			assert_non_null(strstr(why, "the target faulted"));
			assert_non_null(strstr(why, "after 5 completed calls"));
			assert_non_null(strstr(why, "used its whole stack ("));
		}
	}
	assert_true(huge);
	assert_true(last);
	cJSON_Delete(rep);
}

/* The tables say what the figures are: an emulator's counts, neither
 * cycles nor the model's estimate, and no hashing shares (the model's). */
static void test_exports_say_what_the_figures_are(void **state)
{
	char path[HIL_PATH + 32];
	char *md;
	size_t len;

	(void)state;
	snprintf(path, sizeof(path), "%s/benchmarks.md", out_dir);
	assert_int_equal(hil_read_file(path, &md, &len), HIL_OK);
	e2e_assert_contains(md, "Instructions counted by the emulator, not a "
				"board's cycles");
	e2e_assert_contains(md, "key generation [instructions]");
	assert_null(strstr(md, "[cycles]"));
	assert_null(strstr(md, "Cycle-model estimates"));
	/* toykem's keypair: the count of the rows, not 0 */
	e2e_assert_contains(md, "AVG: 32,005");
	e2e_assert_contains(md, "| toykem | ref | - | - | - |");
	free(md);
	snprintf(path, sizeof(path), "%s/summary.md", out_dir);
	assert_int_equal(hil_read_file(path, &md, &len), HIL_OK);
	e2e_assert_contains(md, "no cycle model ran on this board");
	e2e_assert_contains(md, "| - | - | - | - | ok vs host build of "
				"toykem/ref |");
	free(md);
}

/* The build-id of the image of algs ("toykem/ref") in report rep. */
static const char *image_of(const cJSON *rep, const char *algs)
{
	const cJSON *im;

	cJSON_ArrayForEach(im, e2e_need(rep, "images"))
	{
		if (strcmp(e2e_need_str(im, "algorithms"), algs) == 0) {
			return e2e_need_str(im, "build_id");
		}
	}
	return NULL;
}

/* The runs go with each PQRUN (protocol version 2), not into the image:
 * the same images, by build-id, run once where the first run ran them
 * twice, and their rows have the one run asked for, verified. */
static void test_one_image_serves_any_number_of_runs(void **state)
{
	char cfg[HIL_PATH + 64], log[HIL_PATH + 32], out1[HIL_PATH + 32];
	char path[HIL_PATH + 64];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"pq",
			"--config",
			cfg,
			"--runs",
			"1",
			"--output",
			out1,
			NULL};
	static const char *const algs[] = {"toykem/ref", "toysig/ref"};
	cJSON *two, *one;
	const cJSON *r;
	int st = -1, a, rows = 0;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/netduino.json", src_root);
	snprintf(out1, sizeof(out1), "%s/pq-one-run", tmp_root);
	snprintf(log, sizeof(log), "%s/one-run.log", tmp_root);
	assert_int_equal(hil_proc_run(argv, log, 600000, &st), HIL_OK);
	snprintf(path, sizeof(path), "%s/report.json", out_dir);
	two = e2e_load_json(path);
	snprintf(path, sizeof(path), "%s/report.json", out1);
	one = e2e_load_json(path);
	assert_non_null(two);
	assert_non_null(one);
	for (a = 0; a < 2; a++) {
		assert_non_null(image_of(two, algs[a]));
		assert_non_null(image_of(one, algs[a]));
		assert_string_equal(image_of(two, algs[a]),
				    image_of(one, algs[a]));
	}
	cJSON_ArrayForEach(r, e2e_need(one, "rows"))
	{
		const char *alg = e2e_need_str(r, "algorithm");

		if (strcmp(alg, "toykem") == 0 || strcmp(alg, "toysig") == 0) {
			assert_int_equal((int)e2e_need_num(r, "runs"), 1);
			assert_string_equal(e2e_need_str(r, "status"), "ok");
			assert_true(cJSON_IsTrue(e2e_need(r, "verified")));
			rows++;
		}
	}
	assert_int_equal(rows, 6);
	cJSON_Delete(two);
	cJSON_Delete(one);
}

static void test_unknown_board_is_refused_by_name(void **state)
{
	char cfg[HIL_PATH + 64], log[HIL_PATH + 32];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"pq",
			"--config",
			cfg,
			"--board",
			"nucleo-f999",
			"--output",
			out_dir,
			NULL};
	int st = -1;
	char *text;
	size_t len;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/toys.json", src_root);
	snprintf(log, sizeof(log), "%s/bad.log", tmp_root);
	assert_int_equal(hil_proc_run(argv, log, 60000, &st), HIL_OK);
	assert_int_equal(st, 2);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	e2e_assert_contains(text, "\"nucleo-f999\" is not a board");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_verified_in_the_boards_unit),
		cmocka_unit_test(test_calls_match_the_known_answers),
		cmocka_unit_test(test_calls_before_a_fault_are_kept),
		cmocka_unit_test(
			test_what_cannot_run_is_listed_with_the_reason),
		cmocka_unit_test(test_exports_say_what_the_figures_are),
		cmocka_unit_test(test_one_image_serves_any_number_of_runs),
		cmocka_unit_test(test_unknown_board_is_refused_by_name),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-pqboard-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_pqboard", tests, setup_run,
					     NULL);
	return e2e_main_end(tmp_root, failed);
}
