/* test_model_ratio: a sweep's board run and model run of one flash profile are printed side by side with measured / estimated per row; other pairs are not. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "util/err.h"
#include "report/modelratio.h"
#include "result/run.h"
#include "run/sweep.h"
#include "unit_util.h"

/* cfg (zeroed, or parsed before: what it held is freed) parsed anew. */
static void parse(const char *json, struct hil_config *cfg)
{
	char err[512] = "";

	hil_config_free(cfg);
	if (hil_config_parse(json, ".", cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config: %s", err);
	}
}

static void set_row(struct hil_row *r, const char *op, uint32_t len,
		    double median, int ok, double model_median, int model_ok)
{
	memset(r, 0, sizeof(*r));
	strcpy(r->algorithm, "ascon-aead128");
	strcpy(r->implementation, "ref");
	r->operation = op;
	r->msg_len = len;
	r->ok = ok;
	r->stats.median = median;
	r->model.ok = model_ok;
	r->model.stats.median = model_median;
}

/* Run the writer into a string; the caller frees it. */
static char *write_ratio(const struct hil_config *cfgs,
			 const struct hil_run *runs, size_t n, size_t *tables)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*tables = hil_model_ratio_write(cfgs, runs, n, f);
	fclose(f);
	return buf;
}

static const char board_json[] =
	"{\"name\": \"nucleo-dwt\", \"board\": {\"name\": \"nucleo-f401re\", \"clock_hz\": 84000000},"
	" \"flasher\": {\"type\": \"openocd\"}, \"link\": {\"type\": \"serial\", \"port\": \"/dev/ttyACM0\"},"
	" \"algorithms\": [\"ascon-aead128\"]}";
static const char model_json[] =
	"{\"name\": \"qemu-model\", \"board\": {\"name\": \"qemu-netduino\"},"
	" \"flasher\": {\"type\": \"qemu\"}, \"link\": {\"type\": \"socket\"},"
	" \"cycle_model\": {\"wait_states\": 2, \"art\": true},"
	" \"algorithms\": [\"ascon-aead128\"]}";

static void model_run(struct hil_run *m, unsigned ws, int art)
{
	m->model.enabled = 1;
	snprintf(m->model.profile, sizeof(m->model.profile), "stm32f401-art");
	m->model.ws = ws;
	m->model.art = art;
	snprintf(m->model.unit, sizeof(m->model.unit),
		 "cycles (estimated, Cortex-M4 model, %u WS, ART %s)", ws,
		 art ? "on" : "off");
}

static void test_board_and_model_rows_get_their_ratio(void **state)
{
	static struct hil_config cfgs[2];
	struct hil_run runs[2];
	struct hil_row brows[3], mrows[3];
	size_t tables;
	char *s;

	(void)state;
	parse(board_json, &cfgs[0]);
	parse(model_json, &cfgs[1]);
	/* The board config's profile comes from its clock: 2 WS, ART. */
	assert_int_equal(cfgs[0].cycle_model.wait_states, 2);
	assert_true(cfgs[0].cycle_model.art);
	memset(runs, 0, sizeof(runs));
	set_row(&brows[0], "encrypt", 16, 5000, 1, 0, 0);
	set_row(&brows[1], "encrypt", 64, 9000, 1, 0, 0);
	set_row(&brows[2], "decrypt", 64, 0, 0, 0, 0); /* failed on the board */
	set_row(&mrows[0], "encrypt", 16, 0, 1, 4000, 1);
	set_row(&mrows[1], "encrypt", 64, 0, 1, 9439, 1);
	set_row(&mrows[2], "decrypt", 64, 0, 1, 9500, 1);
	runs[0].rows = brows;
	runs[0].n_rows = 3;
	runs[1].rows = mrows;
	runs[1].n_rows = 3;
	model_run(&runs[1], 2, 1);

	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 1);
	assert_non_null(
		strstr(s, "nucleo-dwt on the board next to qemu-model"));
	assert_non_null(
		strstr(s, "cycles (estimated, Cortex-M4 model, 2 WS, ART on)"));
	assert_non_null(strstr(
		s,
		"| ascon-aead128 | ref | encrypt | 16 | 0 | 5000 | 4000 | 1.250 |\n"));
	assert_non_null(strstr(
		s,
		"| ascon-aead128 | ref | encrypt | 64 | 0 | 9000 | 9439 | 0.953 |\n"));
	assert_non_null(strstr(
		s,
		"| ascon-aead128 | ref | decrypt | 64 | 0 | failed | 9500 | - |\n"));
	free(s);
}

/* Issue 27 item 3: under a calibrated profile (the nRF52840-DK's) the
 * estimate is printed with its error bar; the board's count has none. */
static void test_a_calibrated_estimate_carries_its_error_bar(void **state)
{
	static struct hil_config cfgs[2];
	struct hil_run runs[2];
	struct hil_row brows[1], mrows[1];
	size_t tables;
	char *s;

	(void)state;
	parse("{\"name\": \"dk\", \"algorithms\": [\"ascon-aead128\"],"
	      " \"board\": {\"name\": \"nrf52840-dk\"},"
	      " \"link\": {\"port\": \"/dev/ttyACM1\"}}",
	      &cfgs[0]);
	parse(model_json, &cfgs[1]);
	memset(runs, 0, sizeof(runs));
	set_row(&brows[0], "encrypt", 16, 5000, 1, 0, 0);
	set_row(&mrows[0], "encrypt", 16, 0, 1, 4000, 1);
	runs[0].rows = brows;
	runs[0].n_rows = 1;
	runs[1].rows = mrows;
	runs[1].n_rows = 1;
	model_run(&runs[1], 3, 1);
	snprintf(runs[1].model.profile, sizeof(runs[1].model.profile),
		 "nrf52840-cal");
	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 1);
	/* Bundled code is C: the C error bar. */
	assert_non_null(strstr(
		s, "| ascon-aead128 | ref | encrypt | 16 | 0 | 5000 | 4000 "
		   "\xc2\xb1 35 % | 1.250 |\n"));
	free(s);
}

/* No board answered: the model's estimates are still printed, with no ratio. */
static void test_a_board_run_without_rows_leaves_its_column_empty(void **state)
{
	static struct hil_config cfgs[2];
	struct hil_run runs[2];
	struct hil_row mrow;
	size_t tables;
	char *s;

	(void)state;
	parse(model_json, &cfgs[0]);
	parse(board_json, &cfgs[1]); /* order does not matter */
	memset(runs, 0, sizeof(runs));
	set_row(&mrow, "encrypt", 16, 0, 1, 4000, 1);
	runs[0].rows = &mrow;
	runs[0].n_rows = 1;
	model_run(&runs[0], 2, 1);

	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 1);
	assert_non_null(strstr(
		s,
		"| ascon-aead128 | ref | encrypt | 16 | 0 | - | 4000 | - |\n"));
	assert_non_null(strstr(s, "nucleo-dwt measured no row"));
	free(s);
}

/* A model of another flash profile, or no model at all: no table. */
static void test_runs_of_other_profiles_are_not_paired(void **state)
{
	static struct hil_config cfgs[2];
	struct hil_run runs[2];
	struct hil_row mrow;
	size_t tables;
	char *s;

	(void)state;
	parse(board_json, &cfgs[0]);
	parse(model_json, &cfgs[1]);
	memset(runs, 0, sizeof(runs));
	set_row(&mrow, "encrypt", 16, 0, 1, 4000, 1);
	runs[1].rows = &mrow;
	runs[1].n_rows = 1;
	model_run(&runs[1], 0, 0); /* 0 WS against the board's 2 */
	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 0);
	assert_string_equal(s, "");
	free(s);

	model_run(&runs[1], 2, 0); /* 2 WS, but without the ART */
	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 0);
	free(s);

	model_run(&runs[1], 2, 1); /* 2 WS, ART, another chip's memory */
	snprintf(runs[1].model.profile, sizeof(runs[1].model.profile),
		 "nrf52840-icache");
	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 0);
	free(s);

	model_run(&runs[1], 2, 1);
	runs[1].model.enabled = 0; /* the plugin was not loaded */
	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 0);
	free(s);

	/* Two emulated runs: nothing is on a real board. */
	parse(model_json, &cfgs[0]);
	model_run(&runs[0], 2, 1);
	model_run(&runs[1], 2, 1);
	s = write_ratio(cfgs, runs, 2, &tables);
	assert_int_equal(tables, 0);
	free(s);
}

/*
 * The shipped pair (configs/board-vs-model.json): a Nucleo run and a model
 * run of the same rows and the same flash profile, so the sweep prints
 * their ratio; and the smoke config is one algorithm on the Nucleo.
 */
static void test_the_shipped_board_vs_model_sweep_pairs(void **state)
{
	static struct hil_config smoke;
	struct hil_sweep sw;
	char path[4096];
	char err[1024] = "";
	const struct hil_config *b, *m;
	size_t i;

	(void)state;
	ut_src_path(path, sizeof(path), "configs/board-vs-model.json");
	if (hil_sweep_load(path, &sw, err, sizeof(err)) != HIL_OK) {
		fail_msg("%s", err);
	}
	assert_int_equal(sw.n, 2);
	b = &sw.cfgs[0];
	m = &sw.cfgs[1];
	assert_string_equal(b->board.name, "nucleo-f401re");
	assert_string_equal(b->flasher.type, "openocd");
	assert_string_equal(m->board.name, "qemu-netduino");
	assert_string_equal(m->flasher.type, "qemu");
	assert_true(m->cycle_model.enabled);
	assert_int_equal(b->cycle_model.wait_states, 2); /* 84 MHz */
	assert_int_equal(m->cycle_model.wait_states,
			 b->cycle_model.wait_states);
	assert_int_equal(m->cycle_model.art, b->cycle_model.art);
	/* The same memory system: the F401's, by default on both. */
	assert_string_equal(m->cycle_model.profile, "stm32f401-art");
	assert_string_equal(m->cycle_model.profile, b->cycle_model.profile);
	/* The same rows, built the same way. */
	assert_int_equal(b->n_algs, m->n_algs);
	assert_int_equal(b->n_algs, 9);
	assert_int_equal(b->bench.operations, m->bench.operations);
	assert_int_equal(b->bench.n_lengths, m->bench.n_lengths);
	for (i = 0; i < b->bench.n_lengths; i++) {
		assert_int_equal(b->bench.lengths[i], m->bench.lengths[i]);
	}
	assert_int_equal(b->build.n_cflags, m->build.n_cflags);
	for (i = 0; i < b->build.n_cflags; i++) {
		assert_string_equal(b->build.cflags[i], m->build.cflags[i]);
	}
	hil_sweep_free(&sw);

	ut_src_path(path, sizeof(path), "configs/smoke.json");
	if (hil_config_load(path, &smoke, err, sizeof(err)) != HIL_OK) {
		fail_msg("%s", err);
	}
	assert_string_equal(smoke.board.name, "nucleo-f401re");
	assert_int_equal(smoke.n_algs, 1);
	assert_int_equal(smoke.bench.n_lengths, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_board_and_model_rows_get_their_ratio),
		cmocka_unit_test(
			test_a_calibrated_estimate_carries_its_error_bar),
		cmocka_unit_test(
			test_a_board_run_without_rows_leaves_its_column_empty),
		cmocka_unit_test(test_runs_of_other_profiles_are_not_paired),
		cmocka_unit_test(test_the_shipped_board_vs_model_sweep_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
