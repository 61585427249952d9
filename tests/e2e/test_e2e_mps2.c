/* test_e2e_mps2: the emulated board with megabytes of RAM (QEMU's mps2-an386) end to end: an image larger than the netduinoplus2's RAM runs, verifies, counts the same instructions as the netduinoplus2 for the same code, and the cycle model brackets on its counter. */
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
#include <limits.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"

static char tmp[64];
static char src[PATH_MAX];
static char bin[PATH_MAX];

/* One algorithm, two lengths, few runs: the board, not the algorithm, is
 * under test. */
static void write_config(const char *name, const char *board)
{
	char path[160], text[768];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.json", tmp, name);
	snprintf(text, sizeof(text),
		 "{\"name\": \"%s\", \"board\": {\"name\": \"%s\"},"
		 " \"algorithms\": [\"ascon-aead128\"],"
		 " \"bench\": {\"operations\": [\"encrypt\"],"
		 " \"lengths\": [16, 1024], \"runs\": 12, \"warmup\": 2,"
		 " \"seed\": 1}}",
		 name, board);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* hilrun --config tmp/NAME.json --results tmp/NAME; @return its status. */
static int run(const char *name, char *out, size_t len)
{
	char cfg[160], results[160];
	char *const argv[] = {bin, "--config", cfg, "--results", results, NULL};
	int status = -1;

	snprintf(cfg, sizeof(cfg), "%s/%s.json", tmp, name);
	snprintf(results, sizeof(results), "%s/%s", tmp, name);
	assert_int_equal(hil_proc_capture(argv, out, len, 600000, &status),
			 HIL_OK);
	return status;
}

/* The rows of tmp/NAME's report: length, median instructions, model median. */
struct row {
	double len, median, model;
	int verified;
};

static size_t rows_of(const char *name, struct row *rows, size_t max,
		      char *board, size_t blen, char *run_dir, size_t dlen)
{
	char results[160];
	const cJSON *r, *it;
	cJSON *root;
	size_t n = 0;

	snprintf(results, sizeof(results), "%s/%s", tmp, name);
	e2e_run_dir(results, run_dir, dlen);
	root = e2e_load_report(results);
	snprintf(board, blen, "%s",
		 e2e_need_str(e2e_need(root, "board"), "name"));
	r = e2e_need(root, "rows");
	cJSON_ArrayForEach(it, r)
	{
		const cJSON *m =
			cJSON_GetObjectItemCaseSensitive(it, "model_cycles");
		const cJSON *v =
			cJSON_GetObjectItemCaseSensitive(it, "verified");

		assert_true(n < max);
		rows[n].len = e2e_need_num(it, "msg_len");
		rows[n].median = e2e_need_num(it, "median");
		rows[n].model =
			cJSON_IsObject(m) ? e2e_need_num(m, "median") : -1.0;
		rows[n].verified = cJSON_IsTrue(v);
		n++;
	}
	cJSON_Delete(root);
	return n;
}

static void
test_mps2_runs_the_suite_with_the_same_counter_and_model(void **state)
{
	static char out[65536];
	struct row mps2[4], nd[4];
	char board[64], dir[PATH_MAX], path[PATH_MAX + 32], line[512];
	size_t n, m, i;
	FILE *f;

	(void)state;
	write_config("e2e-mps2", "qemu-mps2-an386");
	write_config("e2e-mps2-netduino", "qemu-netduino");
	if (run("e2e-mps2", out, sizeof(out)) != 0) {
		fail_msg("the mps2-an386 run failed:\n%s", out);
	}
	n = rows_of("e2e-mps2", mps2, 4, board, sizeof(board), dir,
		    sizeof(dir));
	assert_string_equal(board, "qemu-mps2-an386");
	assert_int_equal(n, 2);

	/* Bigger than the netduinoplus2 holds: its default 256 KiB stack
	 * alone is beyond the F405's 192 KiB of SRAM. */
	{
		char results[160];
		cJSON *root;
		const cJSON *img;

		snprintf(results, sizeof(results), "%s/e2e-mps2", tmp);
		root = e2e_load_report(results);
		img = e2e_need(root, "image");
		assert_true(e2e_need_num(img, "ram_static_bytes") +
				    e2e_need_num(img, "stack_reserved_bytes") >
			    192.0 * 1024.0);
		cJSON_Delete(root);
	}

	/* The plugin bracketed on the dual timer's VALUE register... */
	snprintf(path, sizeof(path), "%s/cycles.txt", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	e2e_assert_contains(line, "counter=0x40002004");

	if (run("e2e-mps2-netduino", out, sizeof(out)) != 0) {
		fail_msg("the netduinoplus2 run failed:\n%s", out);
	}
	m = rows_of("e2e-mps2-netduino", nd, 4, board, sizeof(board), dir,
		    sizeof(dir));
	assert_int_equal(m, n);
	for (i = 0; i < n; i++) {
		assert_true(mps2[i].verified);
		/* ...and its records matched the stub's counts one for one
		 * (else the row has no model figures): the counter made from
		 * 25 MHz timers counts instructions exactly... */
		assert_true(mps2[i].model > mps2[i].median);
		/* ...the very counts the netduinoplus2's TIM2 gives for the
		 * same code (4 695 and 82 563 instructions here). */
		assert_true(mps2[i].len == nd[i].len);
		if (mps2[i].median != nd[i].median) {
			fail_msg(
				"%.0f B: %.0f instructions on mps2-an386, %.0f on the netduinoplus2",
				mps2[i].len, mps2[i].median, nd[i].median);
		}
	}
}

static int setup(void **state)
{
	const char *b = getenv("HILRUN_BIN");

	(void)state;
	if (b == NULL || realpath(b, bin) == NULL) {
		assert_non_null(realpath("build/hilrun", bin));
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_mps2_runs_the_suite_with_the_same_counter_and_model),
	};
	int failed;

	if (e2e_main_begin(src, sizeof(src), tmp, sizeof(tmp),
			   "/tmp/e2e-mps2-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests(tests, setup, NULL);
	return e2e_main_end(tmp, failed);
}
