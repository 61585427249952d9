/* Unit tests of the row codec (host/result/rowcodec): every stored field of a fully populated row comes back from the line the writer makes as it was written, every key the writer puts is either read back or declared derived, and the failed states come back with their reasons. */
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

#include "hilp.h"
#include "report/report.h"
#include "result/rowcodec.h"
#include "result/rowjson.h"
#include "result/rowview.h"
#include "result/run.h"
#include "result/stats.h"
#include "util/err.h"
#include "rfield_fill.h"

static void make_run(struct hil_run *run)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->build_id, sizeof(run->build_id), "0123abcd");
	run->info.counter_unit = HILP_UNIT_INSTRUCTIONS_EMU;
	run->model.enabled = 1;
	snprintf(run->model.unit, sizeof(run->model.unit),
		 "cycles (estimated, Cortex-M4 model)");
}

/* Whether field f holds the same in a and b; prints it when not. */
static int same(const struct hil_rfield *f, const char *path, const void *a,
		const void *b)
{
	const char *pa = (const char *)a + f->off;
	const char *pb = (const char *)b + f->off;
	int eq;

	switch (f->type) {
	case HIL_RF_STR:
		eq = strcmp(pa, pb) == 0;
		break;
	case HIL_RF_OP:
		eq = *(const char *const *)pb != NULL &&
		     strcmp(*(const char *const *)pa,
			    *(const char *const *)pb) == 0;
		break;
	case HIL_RF_CONST:
		eq = 1;
		break;
	case HIL_RF_NUM_PAIR:
		eq = memcmp(pa, pb, sizeof(double)) == 0 &&
		     memcmp((const char *)a + f->known,
			    (const char *)b + f->known, sizeof(double)) == 0;
		break;
	default:
		eq = memcmp(pa, pb, f->size) == 0;
	}
	if (eq && (f->flags & HIL_RF_KNOWN)) {
		eq = *(const int *)((const char *)a + f->known) ==
		     *(const int *)((const char *)b + f->known);
	}
	if (!eq) {
		print_error("field \"%s%s%s\" did not come back as written\n",
			    path, path[0] ? "." : "", f->key);
	}
	return eq;
}

/* A row with every stored field set, and the states that make the writer
 * put every object: measured energy, both leak statistics, model cycles. */
static void make_full_row(struct hil_row *r)
{
	const struct hil_rtable *t;
	unsigned k = 0;
	uint32_t i;
	size_t j;

	memset(r, 0, sizeof(*r));
	for (t = hil_result_row_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++) {
			ut_rfield_fill(&t->fields[j], (char *)r + t->base, k++);
		}
	}
	r->mode = "AEAD";
	r->constant_time = 1;
	r->ok = 1;
	r->pq.present = 1; /* its own object too (a pq operation's) */
	r->energy.state = HIL_ENERGY_OK;
	r->leak.state = 1;
	r->leak.model_state = 1;
	r->model.ok = 1;
	r->samples = malloc(r->runs * sizeof(double));
	r->model.samples = malloc(r->runs * sizeof(double));
	assert_non_null(r->samples);
	assert_non_null(r->model.samples);
	for (i = 0; i < r->runs; i++) {
		r->samples[i] = 1000 + i % 7;
		r->model.samples[i] = 2000 + i % 5;
	}
	assert_int_equal(hil_stats_compute(r->samples, r->runs, &r->stats),
			 HIL_OK);
	assert_int_equal(
		hil_stats_compute(r->model.samples, r->runs, &r->model.stats),
		HIL_OK);
}

static cJSON *write_row(const struct hil_run *run, const struct hil_row *r)
{
	char *line = hil_report_row_json(run, r);
	cJSON *o;

	assert_non_null(line);
	o = cJSON_Parse(line);
	free(line);
	assert_non_null(o);
	return o;
}

static void free_row(struct hil_row *r)
{
	free(r->samples);
	free(r->model.samples);
}

static void test_every_stored_field_comes_back_as_written(void **state)
{
	const struct hil_rtable *t;
	struct hil_run run;
	struct hil_row *in = calloc(1, sizeof(*in));
	struct hil_row *out = calloc(1, sizeof(*out));
	cJSON *o;
	int bad = 0;
	size_t j;
	uint32_t i;

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	make_run(&run);
	make_full_row(in);
	o = write_row(&run, in);
	assert_int_equal(hil_result_row_read(o, out), 1);
	cJSON_Delete(o);
	for (t = hil_result_row_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++) {
			bad += !same(&t->fields[j], t->path,
				     (const char *)in + t->base,
				     (const char *)out + t->base);
		}
	}
	assert_int_equal(bad, 0);
	/* What the tables do not hold: the states and the samples. */
	assert_int_equal(out->ok, 1);
	assert_int_equal(out->energy.state, HIL_ENERGY_OK);
	assert_int_equal(out->leak.state, 1);
	assert_int_equal(out->leak.model_state, 1);
	assert_int_equal(out->model.ok, 1);
	assert_int_equal(out->pq.present, 1);
	for (i = 0; i < in->runs; i++) {
		assert_true(out->samples[i] == in->samples[i]);
		assert_true(out->model.samples[i] == in->model.samples[i]);
	}
	assert_true(out->stats.median == in->stats.median);
	assert_true(out->model.stats.median == in->model.stats.median);
	free_row(in);
	free_row(out);
	free(in);
	free(out);
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

static int stored(const char *key)
{
	const struct hil_rtable *t;
	char full[160];
	size_t j;

	for (t = hil_result_row_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++) {
			snprintf(full, sizeof(full), "%s%s%s", t->path,
				 t->path[0] ? "." : "", t->fields[j].key);
			if (strcmp(full, key) == 0) {
				return 1;
			}
		}
	}
	return 0;
}

/* Keys of o (at path) that are neither read back nor declared derived. */
static int unaccounted(const cJSON *o, const char *path)
{
	const cJSON *c;
	int bad = 0;

	cJSON_ArrayForEach(c, o)
	{
		char key[160];

		snprintf(key, sizeof(key), "%s%s%s", path, path[0] ? "." : "",
			 c->string);
		if (listed(hil_result_row_derived, key)) {
			continue;
		}
		if (cJSON_IsObject(c) && hil_result_table(key) != NULL) {
			bad += unaccounted(c, key);
			continue;
		}
		if (cJSON_IsObject(c) && !stored(key) &&
		    !listed(hil_result_row_by_hand, key)) {
			bad += unaccounted(c, key);
			continue;
		}
		if (!stored(key) && !listed(hil_result_row_by_hand, key)) {
			print_error(
				"the writer puts \"%s\", which no reader takes back and hil_result_row_derived does not declare\n",
				key);
			bad++;
		}
	}
	return bad;
}

static void test_every_written_key_is_read_or_declared_derived(void **state)
{
	struct hil_run run;
	struct hil_row *in = calloc(1, sizeof(*in));
	cJSON *o;

	(void)state;
	assert_non_null(in);
	make_run(&run);
	make_full_row(in);
	/* Beside a measured figure: the datasheet's estimate. */
	run.energy_est.beside = 1;
	in->est.ok = 1;
	in->est.uj_per_op = 1.5;
	o = write_row(&run, in);
	assert_int_equal(unaccounted(o, ""), 0);
	cJSON_Delete(o);
	/* A failed row, failed energy, a failed leak test: their errors. */
	in->ok = 0;
	snprintf(in->error, sizeof(in->error), "digest mismatch");
	in->energy.state = HIL_ENERGY_FAILED;
	in->leak.model_state = -1;
	o = write_row(&run, in);
	assert_int_equal(unaccounted(o, ""), 0);
	cJSON_Delete(o);
	free_row(in);
	free(in);
}

static void test_failed_states_come_back_with_their_reasons(void **state)
{
	struct hil_run run;
	struct hil_row *in = calloc(1, sizeof(*in));
	struct hil_row *out = calloc(1, sizeof(*out));
	cJSON *o;

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	make_run(&run);
	make_full_row(in);
	in->ok = 0;
	in->interrupted = 1;
	snprintf(in->error, sizeof(in->error), "stopped by SIGTERM");
	in->energy.state = HIL_ENERGY_FAILED;
	snprintf(in->energy.error, sizeof(in->energy.error),
		 "the sensor did not answer");
	in->leak.model_state = -1;
	snprintf(in->leak.model_why, sizeof(in->leak.model_why),
		 "records do not match");
	o = write_row(&run, in);
	assert_int_equal(hil_result_row_read(o, out), 1);
	assert_int_equal(out->ok, 0);
	assert_int_equal(out->interrupted, 1);
	assert_string_equal(out->error, in->error);
	assert_int_equal(out->energy.state, HIL_ENERGY_FAILED);
	assert_string_equal(out->energy.error, in->energy.error);
	assert_int_equal(out->leak.state, 1);
	assert_int_equal(out->leak.model_state, -1);
	assert_string_equal(out->leak.model_why, in->leak.model_why);
	free_row(out);
	cJSON_Delete(o);

	in->leak.state = -1;
	snprintf(in->leak.error, sizeof(in->leak.error), "BENCH failed");
	o = write_row(&run, in);
	assert_int_equal(hil_result_row_read(o, out), 1);
	assert_int_equal(out->leak.state, -1);
	assert_string_equal(out->leak.error, in->leak.error);
	free_row(out);
	cJSON_Delete(o);
	free_row(in);
	free(in);
	free(out);
}

/* A required field missing makes the row incomplete, not a zero. */
static void test_a_row_missing_a_required_field_is_not_read(void **state)
{
	struct hil_run run;
	struct hil_row *in = calloc(1, sizeof(*in));
	struct hil_row *out = calloc(1, sizeof(*out));
	cJSON *o;

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	make_run(&run);
	make_full_row(in);
	o = write_row(&run, in);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "msg_len");
	assert_int_equal(hil_result_row_read(o, out), 0);
	free_row(out);
	cJSON_Delete(o);
	o = write_row(&run, in);
	cJSON_ReplaceItemInObjectCaseSensitive(o, "operation",
					       cJSON_CreateString("bake"));
	assert_int_equal(hil_result_row_read(o, out), 0);
	free_row(out);
	cJSON_Delete(o);
	free_row(in);
	free(in);
	free(out);
}

/*
 * report.json's rows and the journal's lines are one writer's: each row of
 * the report is its journal line, and reads back as it was measured.
 */
static void test_report_rows_are_the_journal_lines_and_read_back(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_row *out = calloc(1, sizeof(*out));
	const struct hil_rtable *t;
	const cJSON *a, *o;
	cJSON *rep;
	char *text;
	int i = 0, bad = 0;
	size_t j;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(out);
	snprintf(cfg->name, sizeof(cfg->name), "codec");
	snprintf(cfg->board.name, sizeof(cfg->board.name), "qemu-netduino");
	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "qemu");
	snprintf(cfg->link.type, sizeof(cfg->link.type), "socket");
	make_run(&run);
	run.cfg = cfg;
	run.status = "complete";
	make_full_row(&rows[0]);
	make_full_row(&rows[1]);
	rows[1].msg_len = 64;
	rows[1].leak.state = 0;
	rows[1].energy.state = HIL_ENERGY_NONE;
	run.rows = rows;
	run.n_rows = 2;
	text = hil_report_json(&run);
	assert_non_null(text);
	rep = cJSON_Parse(text);
	free(text);
	assert_non_null(rep);
	a = cJSON_GetObjectItemCaseSensitive(rep, "rows");
	assert_int_equal(cJSON_GetArraySize(a), 2);
	cJSON_ArrayForEach(o, a)
	{
		char *line = hil_result_row_line(&run, &rows[i]);
		char *as_in_report = cJSON_PrintUnformatted(o);

		assert_non_null(line);
		assert_non_null(as_in_report);
		assert_string_equal(as_in_report, line);
		free(line);
		free(as_in_report);
		assert_int_equal(hil_result_row_read(o, out), 1);
		for (t = hil_result_row_tables; t->path != NULL; t++) {
			for (j = 0; j < t->n; j++) {
				/* Objects the second row does not have. */
				if (i == 1 &&
				    (strncmp(t->path, "leak", 4) == 0 ||
				     strcmp(t->path, "energy") == 0)) {
					continue;
				}
				bad += !same(&t->fields[j], t->path,
					     (const char *)&rows[i] + t->base,
					     (const char *)out + t->base);
			}
		}
		free_row(out);
		i++;
	}
	assert_int_equal(bad, 0);
	assert_int_equal(out->energy.state, HIL_ENERGY_NONE);
	assert_int_equal(out->leak.state, 0);
	cJSON_Delete(rep);
	free_row(&rows[0]);
	free_row(&rows[1]);
	free(out);
	hil_config_free(cfg);
	free(cfg);
}

/*
 * The renderers' view of a row (rowview.c) reaches every stored field of
 * the codec's tables: a field written, decoded for the renderers and not
 * there fails, as does one the view says the report did not have.
 */
static void test_every_stored_field_reaches_the_renderers_view(void **state)
{
	const struct hil_rtable *t;
	struct hil_run run;
	struct hil_row *in = calloc(1, sizeof(*in));
	struct hil_row_view *v = calloc(1, sizeof(*v));
	cJSON *o;
	int bad = 0;
	size_t j;

	(void)state;
	assert_non_null(in);
	assert_non_null(v);
	make_run(&run);
	make_full_row(in);
	o = write_row(&run, in);
	hil_row_view_read(o, v);
	cJSON_Delete(o);
	for (t = hil_result_row_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++) {
			const struct hil_rfield *f = &t->fields[j];
			const char *at = (const char *)&v->row + t->base;

			if (f->type == HIL_RF_CONST) {
				continue;
			}
			bad += !same(f, t->path, (const char *)in + t->base,
				     at);
			if (!hil_row_view_has(v, at + f->off)) {
				print_error(
					"the view says \"%s%s%s\" is absent\n",
					t->path, t->path[0] ? "." : "", f->key);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
	/* Every field of both tables has its place in v->has. */
	for (j = 0, t = hil_result_row_tables; t->path != NULL; t++) {
		j += t->n;
	}
	for (t = hil_row_view_tables; t->path != NULL; t++) {
		j += t->n;
	}
	assert_true(j <= sizeof(v->has));
	/* The figures shown as written, beside the stored ones. */
	assert_string_equal(v->algorithm, in->algorithm);
	assert_string_equal(v->operation, "decrypt");
	assert_string_equal(v->status, "ok");
	assert_true(v->median == in->stats.median);
	assert_true(hil_row_view_has(v, &v->median));
	assert_true(v->model.median == in->model.stats.median);
	assert_int_equal(v->has_model, 1);
	free_row(in);
	free(in);
	free(v);
}

/* Mark in seen the keys of the view's tables that row holds. */
static void view_keys_seen(const cJSON *row, int *seen)
{
	const struct hil_rtable *t;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(row, "energy");
	size_t j;
	int k = 0;

	for (t = hil_row_view_tables; t->path != NULL; t++) {
		const cJSON *o = row;
		const char *p = t->path;
		char part[64];

		/* "a.b": each part in turn. */
		while (p[0] != '\0') {
			size_t n = strcspn(p, ".");

			snprintf(part, sizeof(part), "%.*s", (int)n, p);
			o = cJSON_GetObjectItemCaseSensitive(o, part);
			p += n + (p[n] == '.');
		}

		if (o == NULL && strcmp(t->path, "energy_estimate") == 0) {
			o = e;
		}
		for (j = 0; j < t->n; j++, k++) {
			seen[k] |= cJSON_GetObjectItemCaseSensitive(
					   o, t->fields[j].key) != NULL;
		}
	}
}

/*
 * Every key of the view's tables is one the writer puts in some row (a
 * measured one, a failed one, one with only the datasheet's estimate): a
 * view field under a key nobody writes would show nothing, silently.
 */
static void test_every_view_key_is_one_the_writer_puts(void **state)
{
	const struct hil_rtable *t;
	struct hil_run run;
	struct hil_row *in = calloc(1, sizeof(*in));
	int seen[256] = {0};
	cJSON *o;
	size_t j;
	int k = 0, bad = 0;

	(void)state;
	assert_non_null(in);
	make_run(&run);
	make_full_row(in);
	run.energy_est.beside = 1;
	in->est.ok = 1;
	in->est.uj_per_op = 1.5;
	in->energy.uj_per_op = 2.0;
	/* A profile whose caches the row's lines overflow: the note. */
	snprintf(run.model.profile, sizeof(run.model.profile), "stm32f401-art");
	run.model.art = 1;
	in->model.ilines = 1u << 20;
	in->model.dlines = 1u << 20;
	o = write_row(&run, in);
	view_keys_seen(o, seen);
	cJSON_Delete(o);
	/* A calibrated profile: the estimate's error bar and its source. */
	snprintf(run.model.profile, sizeof(run.model.profile), "nrf52840-cal");
	o = write_row(&run, in);
	view_keys_seen(o, seen);
	cJSON_Delete(o);
	in->ok = 0;
	in->energy.state = HIL_ENERGY_FAILED;
	in->leak.model_state = -1;
	o = write_row(&run, in);
	view_keys_seen(o, seen);
	cJSON_Delete(o);
	/* No sensor: the estimate is the energy, or says why there is none. */
	run.energy_est.beside = 0;
	run.energy_est.applies = 1;
	in->energy.state = HIL_ENERGY_NONE;
	in->leak.state = -1;
	o = write_row(&run, in);
	view_keys_seen(o, seen);
	cJSON_Delete(o);
	in->est.ok = 0;
	o = write_row(&run, in);
	view_keys_seen(o, seen);
	cJSON_Delete(o);
	for (t = hil_row_view_tables; t->path != NULL; t++) {
		for (j = 0; j < t->n; j++, k++) {
			assert_true(k < 256);
			if (!seen[k]) {
				print_error(
					"the view reads \"%s%s%s\", which the writer never puts\n",
					t->path, t->path[0] ? "." : "",
					t->fields[j].key);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
	free_row(in);
	free(in);
}

/*
 * A report's row may lack what a journal line must have (samples, a
 * build_id, a leak test), have a name longer than a row's buffer, or an
 * operation this hilrun does not know: the view takes it as it is.
 */
static void test_the_view_takes_a_report_row_as_it_is(void **state)
{
	static const char text[] =
		"{\"algorithm\":\"an-algorithm-name-longer-than-any-row-buffer-of-hilrun-0123456789abcdef\","
		"\"implementation\":\"ref\",\"operation\":\"frobnicate\","
		"\"msg_len\":0,\"ad_len\":0,\"unit\":\"cycles\",\"runs\":3,"
		"\"median\":null,\"normalized\":12.5,\"stack_bytes\":null,"
		"\"energy\":{\"status\":\"none\",\"kind\":\"estimate\","
		"\"why\":\"no run current\"},\"status\":\"failed\","
		"\"error\":\"it stopped\"}";
	struct hil_row_view *v = calloc(1, sizeof(*v));
	cJSON *o = cJSON_Parse(text);

	(void)state;
	assert_non_null(v);
	assert_non_null(o);
	hil_row_view_read(o, v);
	cJSON_Delete(o);
	assert_string_equal(
		v->algorithm,
		"an-algorithm-name-longer-than-any-row-buffer-of-hilrun-0123456789abcdef");
	assert_true(strlen(v->row.algorithm) < strlen(v->algorithm));
	assert_string_equal(v->operation, "frobnicate");
	assert_null(v->row.operation);
	assert_int_equal(v->row.runs, 3);
	assert_true(hil_row_view_has(v, &v->row.runs));
	assert_false(hil_row_view_has(v, &v->row.warmup));
	assert_false(hil_row_view_has(v, &v->median));
	assert_true(hil_row_view_has(v, &v->normalized));
	assert_true(v->normalized == 12.5);
	assert_false(hil_row_view_has(v, &v->row.stack_bytes));
	assert_int_equal(v->row.stack_known, 0);
	assert_string_equal(v->energy_kind, "estimate");
	assert_string_equal(v->energy_why, "no run current");
	assert_false(hil_row_view_has(v, &v->est.uj_per_op));
	assert_string_equal(v->error, "it stopped");
	assert_int_equal(v->has_model, 0);
	assert_null(v->row.samples);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_stored_field_comes_back_as_written),
		cmocka_unit_test(
			test_every_written_key_is_read_or_declared_derived),
		cmocka_unit_test(
			test_failed_states_come_back_with_their_reasons),
		cmocka_unit_test(
			test_a_row_missing_a_required_field_is_not_read),
		cmocka_unit_test(
			test_report_rows_are_the_journal_lines_and_read_back),
		cmocka_unit_test(
			test_every_stored_field_reaches_the_renderers_view),
		cmocka_unit_test(test_every_view_key_is_one_the_writer_puts),
		cmocka_unit_test(test_the_view_takes_a_report_row_as_it_is),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
