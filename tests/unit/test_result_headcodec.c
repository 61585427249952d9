/* Unit tests of report.json's report-level codec (host/result/headcodec): every field of the tables comes back from the report the writer makes as it was written, every key the writer puts is read back or declared, and the check names the key that is wrong. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "config/config.h"
#include "result/headcodec.h"
#include "result/reportcheck.h"
#include "result/rowcodec.h"
#include "result/reportjson.h"
#include "result/run.h"
#include "util/err.h"
#include "rfield_fill.h"

static int same(const struct hil_rfield *f, const void *a, const void *b)
{
	const char *pa = (const char *)a + f->off;
	const char *pb = (const char *)b + f->off;

	if (f->type == HIL_RF_CONST) {
		return 1;
	}
	if (f->type == HIL_RF_STR) {
		return strcmp(pa, pb) == 0;
	}
	if ((f->flags & HIL_RF_KNOWN) &&
	    *(const int *)((const char *)a + f->known) !=
		    *(const int *)((const char *)b + f->known)) {
		return 0;
	}
	return memcmp(pa, pb, f->size) == 0;
}

/* Every field of the tables set; the shape says which branches the writer
 * takes: 0 a model, a sensor and a reference (their figures), 1 none of
 * them (their reasons). */
static void make_head(struct hil_result_head *h, int shape)
{
	const struct hil_htable *t;
	unsigned k = 0;
	size_t j;

	memset(h, 0, sizeof(*h));
	for (t = hil_result_head_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++) {
			ut_rfield_fill(&t->fields[j], (char *)h + t->base, k++);
		}
	}
	h->energy_estimate.present = 1;
	h->session.present = 1;
	if (shape == 1) {
		h->cycle_model.enabled = 0;
		snprintf(h->sensor.type, sizeof(h->sensor.type), "none");
		h->normalized_to.algorithm[0] = '\0';
	}
}

/* The report the writer makes of h (a run with no rows), parsed. */
static cJSON *write_report(const struct hil_result_head *h)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char *text;
	cJSON *o;

	assert_non_null(cfg);
	assert_non_null(run);
	run->cfg = cfg;
	text = hil_report_json_from(run, h);
	assert_non_null(text);
	o = cJSON_Parse(text);
	assert_non_null(o);
	free(text);
	free(run);
	hil_config_free(cfg);
	free(cfg);
	return o;
}

/* Write each shape and read it back: a field that comes back as written in
 * neither is written and not read, or read and not written. */
static void test_every_head_field_comes_back_as_written(void **state)
{
	struct hil_result_head *in[2], *out[2];
	const struct hil_htable *t;
	int shape, bad = 0;
	size_t j;

	(void)state;
	for (shape = 0; shape < 2; shape++) {
		cJSON *o;

		in[shape] = malloc(sizeof(*in[shape]));
		out[shape] = malloc(sizeof(*out[shape]));
		assert_non_null(in[shape]);
		assert_non_null(out[shape]);
		make_head(in[shape], shape);
		o = write_report(in[shape]);
		assert_int_equal(hil_result_head_read(o, out[shape]), 1);
		assert_int_equal(out[shape]->energy_estimate.present, 1);
		assert_int_equal(out[shape]->session.present, 1);
		cJSON_Delete(o);
	}
	for (t = hil_result_head_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++) {
			const struct hil_rfield *f = &t->fields[j];

			if (same(f, (char *)in[0] + t->base,
				 (char *)out[0] + t->base) ||
			    same(f, (char *)in[1] + t->base,
				 (char *)out[1] + t->base)) {
				continue;
			}
			print_error("field \"%s.%s\" did not come back as "
				    "written\n",
				    t->path, f->key);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	for (shape = 0; shape < 2; shape++) {
		free(in[shape]);
		free(out[shape]);
	}
}

static int listed(const char *const *list, const char *key)
{
	for (; *list != NULL; list++) {
		if (strcmp(*list, key) == 0) {
			return 1;
		}
	}
	return 0;
}

static int in_table(const struct hil_htable *t, const char *key)
{
	size_t j;

	for (j = 0; j < t->n; j++) {
		if (strcmp(t->fields[j].key, key) == 0 &&
		    t->fields[j].type != HIL_RF_CONST) {
			return 1;
		}
	}
	return 0;
}

/* Keys of the report's top level and of its objects that are neither in a
 * table nor declared. */
static int unaccounted(const cJSON *report)
{
	const cJSON *c, *k;
	int bad = 0;

	cJSON_ArrayForEach(c, report)
	{
		const struct hil_htable *t = hil_result_head_table(c->string);

		if (listed(hil_result_head_by_hand, c->string)) {
			continue;
		}
		if (t == NULL) {
			print_error("the writer puts \"%s\", which no table or "
				    "list declares\n",
				    c->string);
			bad++;
			continue;
		}
		cJSON_ArrayForEach(k, c)
		{
			char key[160];

			snprintf(key, sizeof(key), "%s.%s", c->string,
				 k->string);
			if (!in_table(t, k->string) &&
			    !listed(hil_result_head_by_hand, key) &&
			    !listed(hil_result_head_derived, key)) {
				print_error("the writer puts \"%s\", which no "
					    "reader takes back and no list "
					    "declares\n",
					    key);
				bad++;
			}
		}
	}
	return bad;
}

static void test_every_written_head_key_is_read_or_declared(void **state)
{
	struct hil_result_head *h = malloc(sizeof(*h));
	int shape;

	(void)state;
	assert_non_null(h);
	for (shape = 0; shape < 2; shape++) {
		cJSON *o;

		make_head(h, shape);
		o = write_report(h);
		assert_int_equal(unaccounted(o), 0);
		cJSON_Delete(o);
	}
	free(h);
}

/* What an older report lacks reads as "not there", never as a zero the
 * board had: its flash settings stay -1. */
static void test_absent_board_settings_read_as_not_there(void **state)
{
	struct hil_result_head *h = malloc(sizeof(*h));
	cJSON *o;

	(void)state;
	assert_non_null(h);
	make_head(h, 0);
	h->board.flash_wait_states = -1;
	h->board.flash_prefetch = -1;
	h->board.flash_icache = 0;
	h->board.flash_dcache = -1;
	h->board.has_uart_overruns = 0;
	h->board.clock_hz = 0;
	o = write_report(h);
	assert_null(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(o, "board"),
		"flash_wait_states"));
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(o, "board"), "clock_hz")));
	assert_int_equal(hil_result_head_read(o, h), 1);
	assert_int_equal(h->board.flash_wait_states, -1);
	assert_int_equal(h->board.flash_prefetch, -1);
	assert_int_equal(h->board.flash_icache, 0);
	assert_int_equal(h->board.flash_dcache, -1);
	assert_int_equal(h->board.has_uart_overruns, 0);
	assert_int_equal(h->board.clock_hz, 0);
	cJSON_Delete(o);
	free(h);
}

static void check_says(cJSON *o, const char *want)
{
	char err[256] = "";

	assert_int_equal(hil_result_head_check(o, "r.json", err, sizeof(err)),
			 want == NULL ? HIL_OK : HIL_ERR_ARG);
	if (want != NULL) {
		assert_string_equal(err, want);
	}
}

static void test_check_names_the_key_that_is_wrong(void **state)
{
	struct hil_result_head *h = malloc(sizeof(*h));
	cJSON *o, *board;

	(void)state;
	assert_non_null(h);
	make_head(h, 0);
	o = write_report(h);
	check_says(o, NULL);
	board = cJSON_GetObjectItemCaseSensitive(o, "board");
	cJSON_ReplaceItemInObjectCaseSensitive(board, "clock_hz",
					       cJSON_CreateString("84 MHz"));
	check_says(o, "r.json: \"board.clock_hz\" should be a number or null");
	cJSON_ReplaceItemInObjectCaseSensitive(board, "clock_hz",
					       cJSON_CreateNull());
	check_says(o, NULL);
	cJSON_DeleteItemFromObjectCaseSensitive(board, "emulated");
	check_says(o, "r.json: missing key \"board.emulated\"");
	cJSON_AddStringToObject(board, "emulated", "yes");
	check_says(o, "r.json: \"board.emulated\" should be true or false");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "tool");
	check_says(o, "r.json: missing key \"tool\"");
	cJSON_AddNumberToObject(o, "tool", 3);
	check_says(o, "r.json: \"tool\" should be an object");
	cJSON_Delete(o);
	free(h);
}

/* The row keys a report's readers take as written are no schema of their
 * own: each is one the row codec stores, declares derived or reads by
 * hand. */
static void test_shown_row_keys_are_the_codecs(void **state)
{
	const struct hil_rtable *row = hil_result_table("");
	size_t i, j;

	(void)state;
	for (i = 0; i < hil_result_row_n_shown; i++) {
		const char *k = hil_result_row_shown[i].key;
		int stored = 0;

		for (j = 0; j < row->n; j++) {
			stored |= strcmp(row->fields[j].key, k) == 0;
		}
		if (!stored && !listed(hil_result_row_derived, k) &&
		    !listed(hil_result_row_by_hand, k)) {
			fail_msg("\"%s\" is neither derived nor read by hand",
				 k);
		}
	}
}

/* A row's keys are checked against the codec's tables: a stored field of
 * the wrong type is named, wherever in the table it is. */
static void test_report_check_takes_row_types_from_the_codec(void **state)
{
	cJSON *o = cJSON_Parse(
		"{\"run\": {\"id\": \"x\", \"status\": \"complete\"},"
		"\"tool\": {\"name\": \"hilrun\", \"version\": \"0\"},"
		"\"build\": {}, \"board\": {\"name\": \"b\", "
		"\"emulated\": true, \"counter_unit\": \"cycles\"},"
		"\"rows\": [{\"algorithm\": \"a\", \"implementation\": "
		"\"ref\", \"operation\": \"encrypt\", \"msg_len\": 16, "
		"\"ad_len\": 0, \"unit\": \"cycles\", \"runs\": 3, "
		"\"median\": null, \"status\": \"ok\"}]}");
	cJSON *row;
	char err[256] = "";

	(void)state;
	assert_non_null(o);
	assert_int_equal(hil_result_report_check(o, "r.json", err, sizeof(err)),
			 HIL_OK);
	row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "rows"),
				 0);
	cJSON_AddStringToObject(row, "heap_bytes", "lots");
	assert_int_equal(hil_result_report_check(o, "r.json", err, sizeof(err)),
			 HIL_ERR_ARG);
	assert_string_equal(
		err, "r.json: \"rows[0].heap_bytes\" should be a number");
	cJSON_DeleteItemFromObjectCaseSensitive(row, "heap_bytes");
	cJSON_AddNumberToObject(row, "leak", 1);
	assert_int_equal(hil_result_report_check(o, "r.json", err, sizeof(err)),
			 HIL_ERR_ARG);
	assert_string_equal(err,
			    "r.json: \"rows[0].leak\" should be an object");
	cJSON_DeleteItemFromObjectCaseSensitive(row, "leak");
	cJSON_DeleteItemFromObjectCaseSensitive(row, "median");
	assert_int_equal(hil_result_report_check(o, "r.json", err, sizeof(err)),
			 HIL_ERR_ARG);
	assert_string_equal(err, "r.json: missing key \"rows[0].median\"");
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_head_field_comes_back_as_written),
		cmocka_unit_test(
			test_every_written_head_key_is_read_or_declared),
		cmocka_unit_test(test_absent_board_settings_read_as_not_there),
		cmocka_unit_test(test_check_names_the_key_that_is_wrong),
		cmocka_unit_test(test_shown_row_keys_are_the_codecs),
		cmocka_unit_test(
			test_report_check_takes_row_types_from_the_codec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
