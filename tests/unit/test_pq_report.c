/* Unit tests of post-quantum runs in the one result model: the toy KEM and signature's run files (tests/fixtures/pq/run, made by scripts/pq-bench.sh) made into rows, written through report.json's writer and read back by the row codec, rendered (summary.md, report.html, pqm4's benchmarks), compared, and given an energy estimate where the board has run-current data. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "report/render.h"
#include "result/reportjson.h"
#include "result/rowcodec.h"
#include "result/run.h"
#include "run/energyest.h"
#include "run/pqrun.h"
#include "util/err.h"
#include "unit_util.h"

/* A run of the fixture and its configuration, owned by the test. */
struct pq_fixture {
	struct hil_config *cfg;
	struct hil_run *run;
};

static void collect(struct pq_fixture *f)
{
	const char *root = getenv("HIL_SRC_DIR");
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/pq/run",
		 root != NULL ? root : ".");
	f->cfg = calloc(1, sizeof(*f->cfg));
	f->run = calloc(1, sizeof(*f->run));
	assert_non_null(f->cfg);
	assert_non_null(f->run);
	snprintf(f->run->started, sizeof(f->run->started),
		 "2026-12-06T07:00:00Z");
	assert_int_equal(hil_pq_collect(dir, NULL, 0, f->cfg, f->run), HIL_OK);
	/* Fixed, so that the rendered bytes do not depend on the machine. */
	snprintf(f->run->finished, sizeof(f->run->finished),
		 "2026-12-06T07:00:09Z");
	snprintf(f->run->tool_commit, sizeof(f->run->tool_commit), "0123abc");
}

static void release(struct pq_fixture *f)
{
	hil_run_free(f->run);
	free(f->run);
	hil_config_free(f->cfg);
	free(f->cfg);
}

static const struct hil_row *row_of(const struct hil_run *run, const char *alg,
				    const char *op)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		if (strcmp(run->rows[i].algorithm, alg) == 0 &&
		    strcmp(run->rows[i].operation, op) == 0) {
			return &run->rows[i];
		}
	}
	return NULL;
}

static cJSON *report_of(const struct hil_run *run)
{
	char *text = hil_report_json(run);
	char err[512];
	cJSON *o;

	assert_non_null(text);
	o = cJSON_Parse(text);
	free(text);
	assert_non_null(o);
	if (hil_report_check(o, "report.json", err, sizeof(err)) != HIL_OK) {
		fail_msg("%s", err);
	}
	return o;
}

/* Each operation of the toys is a row: hilrun's statistics over the runs,
 * the model's estimates, and the pq fields. */
static void test_run_files_become_rows_of_the_model(void **state)
{
	static const char *const ops[][2] = {
		{"toykem", "keypair"}, {"toykem", "encaps"},
		{"toykem", "decaps"},  {"toysig", "keypair"},
		{"toysig", "sign"},    {"toysig", "verify"},
	};
	struct pq_fixture f;
	size_t i;

	(void)state;
	collect(&f);
	assert_int_equal(f.run->n_rows, 6);
	for (i = 0; i < 6; i++) {
		const struct hil_row *r = row_of(f.run, ops[i][0], ops[i][1]);

		assert_non_null(r);
		assert_true(r->ok);
		assert_true(r->verified);
		assert_true(r->pq.present);
		assert_int_equal(r->runs, 2);
		assert_int_equal(r->stats.n, 2);
		assert_true(r->model.ok);
		assert_int_equal(r->model.stats.n, 2);
		/* The empty call's bracket is subtracted. */
		assert_true(r->model.overhead > 0);
		assert_true(r->model.stats.median > 1000);
		assert_true(r->stats.median > 1000);
		assert_true(r->stack_known && r->stack_bytes > 64);
		assert_true(r->pq.text > 64);
		/* The toys hash with SHAKE and SHA3-256 only. */
		assert_true(r->pq.sha3_pct > 50);
		assert_true(r->pq.sha2_pct == 0);
		assert_true(r->pq.aes_pct == 0);
		assert_int_equal(r->seed, 1);
		assert_string_equal(r->pq.rng, "splitmix64");
		assert_int_equal(r->digest_expected, r->digest_got);
		assert_int_equal(r->msg_len,
				 strcmp(ops[i][1], "sign") == 0 ||
						 strcmp(ops[i][1], "verify") ==
							 0
					 ? HIL_PQ_MLEN
					 : 0);
	}
	assert_string_equal(row_of(f.run, "toykem", "encaps")->pq.kind, "kem");
	assert_string_equal(row_of(f.run, "toysig", "sign")->pq.kind, "sign");
	assert_string_equal(row_of(f.run, "toykem", "decaps")->mode, "KEM");
	assert_int_equal(f.cfg->n_algs, 2);
	assert_int_equal(f.run->n_impl_sizes, 2);
	release(&f);
}

/* What report.json holds of a pq row is what the row codec reads back. */
static void test_pq_rows_round_trip_through_report_json(void **state)
{
	struct pq_fixture f;
	struct hil_row *back = calloc(1, sizeof(*back));
	const cJSON *r;
	cJSON *rep;
	size_t i = 0;

	(void)state;
	assert_non_null(back);
	collect(&f);
	rep = report_of(f.run);
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(rep, "rows"))
	{
		const struct hil_row *in = &f.run->rows[i++];

		assert_int_equal(hil_result_row_read(r, back), 1);
		assert_string_equal(back->algorithm, in->algorithm);
		assert_string_equal(back->operation, in->operation);
		assert_true(back->pq.present);
		assert_string_equal(back->pq.kind, in->pq.kind);
		assert_string_equal(back->pq.verification, in->pq.verification);
		assert_true(back->pq.sha3_pct == in->pq.sha3_pct);
		assert_int_equal(back->pq.text, in->pq.text);
		assert_int_equal(back->stack_bytes, in->stack_bytes);
		assert_true(back->model.stats.median == in->model.stats.median);
		assert_true(back->stats.median == in->stats.median);
		assert_string_equal(back->mode, in->mode);
		free(back->samples);
		free(back->model.samples);
	}
	assert_int_equal(i, 6);
	free(back);
	cJSON_Delete(rep);
	release(&f);
}

/* summary.md and report.html of a pq run have its section: cycles est.
 * with spread, stack, size, each hashing share, verification; no table of
 * costs per byte. */
static void test_report_renders_a_pq_run(void **state)
{
	struct pq_fixture f;
	cJSON *rep;
	char *md, *html, *bm, *csv;

	(void)state;
	collect(&f);
	rep = report_of(f.run);
	/* A folder left out, as pq-bench.sh's skipped.tsv gives it. */
	{
		struct hil_config_skipped *k;

		assert_int_equal(hil_config_add_skipped(f.cfg, &k), HIL_OK);

		snprintf(k->name, sizeof(k->name), "toykem-huge");
		snprintf(k->impl, sizeof(k->impl), "ref");
		snprintf(k->why, sizeof(k->why),
			 "does not build or fit qemu-mps2-an386");
		cJSON_Delete(rep);
		rep = report_of(f.run);
	}
	md = ut_render(hil_summary_md, rep);
	html = ut_render(hil_html_report, rep);
	bm = ut_render(hil_pqm4_md, rep);
	csv = ut_render(hil_pqm4_csv, rep);
	assert_non_null(strstr(md, "## Post-quantum operations"));
	assert_non_null(strstr(md, "| Est. cycles (median) | Spread (min to "
				   "max) |"));
	assert_non_null(strstr(md, "| SHA-2 % | SHA-3 % | AES % |"));
	assert_non_null(strstr(md, "| toykem | ref | encaps | "));
	assert_non_null(strstr(md, "ok vs host build of toysig/ref |"));
	assert_non_null(strstr(md, "an estimate, not a measurement"));
	assert_null(strstr(md, "/byte @"));
	assert_non_null(strstr(html, "<section id=\"pq\"><h2>Post-quantum "
				     "operations</h2>"));
	assert_non_null(strstr(html, "<td>toysig</td><td>ref</td><td>verify"
				     "</td>"));
	assert_non_null(strstr(html, "SHA-3<span class=\"sub\">% of cycles"));
	assert_non_null(strstr(md, "- toykem-huge/ref: does not build or fit "
				   "qemu-mps2-an386\n"));
	assert_non_null(strstr(html, "<li><code>toykem-huge/ref</code>: does "
				     "not build"));
	assert_non_null(strstr(bm, "not measured on hardware"));
	assert_non_null(strstr(bm, "| toykem (2 executions) | ref | AVG: "));
	assert_non_null(strstr(bm, "# Hashing Evaluation"));
	assert_non_null(strstr(csv, "toysig (2 executions),ref,"));
	{
		char *sum = ut_render(hil_summary_csv, rep);

		assert_non_null(strstr(sum, ",error,pq_kind,pq_text,pq_data,"
					    "pq_bss,pq_sha2_pct,pq_sha3_pct,"
					    "pq_aes_pct,pq_verification\r\n"));
		assert_non_null(strstr(sum, ",sign,252,0,0,0,"));
		free(sum);
	}
	free(md);
	free(html);
	free(bm);
	free(csv);
	cJSON_Delete(rep);
	release(&f);
}

/* Two pq runs compare per scheme, implementation and operation: a slower
 * encapsulation is worse, the rest the same. */
static void test_compare_of_two_pq_runs(void **state)
{
	struct pq_fixture a, b;
	struct hil_thresholds t;
	struct hil_cmp *c = NULL;
	struct hil_row *r;
	cJSON *ra, *rb;
	size_t i, worse_model = 0, model = 0;
	uint32_t k;

	(void)state;
	collect(&a);
	collect(&b);
	r = (struct hil_row *)row_of(b.run, "toykem", "encaps");
	for (k = 0; k < r->runs; k++) {
		r->model.samples[k] *= 1.10;
	}
	assert_int_equal(
		hil_stats_compute(r->model.samples, r->runs, &r->model.stats),
		HIL_OK);
	ra = report_of(a.run);
	rb = report_of(b.run);
	hil_thresholds_default(&t);
	assert_int_equal(hil_cmp_compute(ra, rb, &t, &c), HIL_OK);
	for (i = 0; i < c->n; i++) {
		const struct hil_cmp_entry *e = &c->e[i];

		assert_int_not_equal(e->verdict, HIL_ADDED);
		assert_int_not_equal(e->verdict, HIL_REMOVED);
		if (strcmp(e->metric, "model") != 0) {
			continue;
		}
		model++;
		if (e->verdict == HIL_WORSE) {
			worse_model++;
			assert_string_equal(e->algorithm, "toykem");
			assert_string_equal(e->operation, "encaps");
		}
	}
	assert_int_equal(model, 6);
	assert_int_equal(worse_model, 1);
	hil_cmp_free(c);
	cJSON_Delete(ra);
	cJSON_Delete(rb);
	release(&a);
	release(&b);
}

/*
 * Energy: where the board has run-current data, every pq row gets the
 * datasheet estimate from its estimated cycles, labelled an estimate; the
 * emulated mps2-an386 has none, and its rows say why.
 */
static void test_energy_estimate_of_pq_rows(void **state)
{
	struct pq_fixture f;
	const cJSON *r;
	cJSON *rep;
	size_t i;

	(void)state;
	collect(&f);
	hil_energyest_apply(f.run);
	for (i = 0; i < f.run->n_rows; i++) {
		assert_false(f.run->rows[i].est.ok);
	}
	assert_non_null(strstr(f.run->energy_est.why, "no datasheet run "
						      "current"));
	release(&f);

	/* The same rows on a board whose chip has a datasheet table (the
	 * emulated Nucleo's STM32F401, at the profile's 24 MHz). */
	collect(&f);
	snprintf(f.cfg->board.name, sizeof(f.cfg->board.name), "qemu-netduino");
	hil_energyest_apply(f.run);
	for (i = 0; i < f.run->n_rows; i++) {
		const struct hil_row *row = &f.run->rows[i];

		assert_true(row->est.ok);
		/* From the model's cycles, never the instructions. */
		assert_true(row->est.cycles == row->model.stats.median);
		assert_true(row->est.uj_per_op > 0);
		assert_true(row->est.uj_lo <= row->est.uj_per_op);
		assert_true(row->est.uj_hi >= row->est.uj_per_op);
	}
	rep = report_of(f.run);
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(rep, "rows"))
	{
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "energy");

		assert_string_equal(
			cJSON_GetObjectItemCaseSensitive(e, "kind")->valuestring,
			"estimate");
		assert_string_equal(
			cJSON_GetObjectItemCaseSensitive(e, "cycles_from")
				->valuestring,
			"cycle model (estimated)");
	}
	{
		char *md = ut_render(hil_summary_md, rep);

		assert_non_null(strstr(md, "an estimate, not measured"));
		assert_null(strstr(md, "Energy: \"-\" = no estimate"));
		free(md);
	}
	cJSON_Delete(rep);
	release(&f);
}

/* The fixture's dir/name with the first from of each line as to. */
static void copy_edit(const char *dir, const char *name, const char *from,
		      const char *to)
{
	const char *root = getenv("HIL_SRC_DIR");
	char src[1024], dst[1024], line[4096];
	FILE *in, *out;

	snprintf(src, sizeof(src), "%s/tests/fixtures/pq/run/%s",
		 root != NULL ? root : ".", name);
	snprintf(dst, sizeof(dst), "%s/%s", dir, name);
	in = fopen(src, "r");
	out = fopen(dst, "w");
	assert_non_null(in);
	assert_non_null(out);
	while (fgets(line, sizeof(line), in) != NULL) {
		char *p = strstr(line, from);

		if (p != NULL) {
			*p = '\0';
			fprintf(out, "%s%s%s", line, to, p + strlen(from));
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	fclose(out);
}

static const char *const run_files[] = {"run.tsv", "rows.tsv", "calls.tsv",
					"skipped.tsv"};

/* Collect a copy of the fixture edited as edits (n {file, from, to}). */
static int collect_edited(const char *const (*edits)[3], size_t n,
			  struct pq_fixture *f)
{
	char dir[] = "/tmp/pq-edit-XXXXXX";
	size_t i, j;
	int ret;

	assert_non_null(mkdtemp(dir));
	for (i = 0; i < 4; i++) {
		const char *from = "\x01", *to = "";

		for (j = 0; j < n; j++) {
			if (strcmp(edits[j][0], run_files[i]) == 0) {
				from = edits[j][1];
				to = edits[j][2];
			}
		}
		copy_edit(dir, run_files[i], from, to);
	}
	f->cfg = calloc(1, sizeof(*f->cfg));
	f->run = calloc(1, sizeof(*f->run));
	assert_non_null(f->cfg);
	assert_non_null(f->run);
	ret = hil_pq_collect(dir, NULL, 0, f->cfg, f->run);
	for (i = 0; i < 4; i++) {
		char p[64];

		snprintf(p, sizeof(p), "%s/%s", dir, run_files[i]);
		unlink(p);
	}
	rmdir(dir);
	return ret;
}

/* The fixture with every toysig renamed to. */
static int collect_renamed(const char *to, struct pq_fixture *f)
{
	const char *const edits[][3] = {{"rows.tsv", "toysig", to},
					{"calls.tsv", "toysig", to}};

	return collect_edited(edits, 2, f);
}

/*
 * A call the scheme itself failed (the stub's 99: decapsulation gave
 * another secret) fails its row also where no host build checks it.
 */
static void test_a_failed_call_fails_its_row_without_a_host_build(void **state)
{
	const char *const edits[][3] = {
		{"rows.tsv", "ok vs host build of toykem/ref",
		 "not verified: no portable folder of toykem to build for the "
		 "host"},
		{"calls.tsv", "acd41206\t0\tacd41206\t0", "acd41206\t99\t-\t-"},
	};
	struct pq_fixture f;
	const struct hil_row *r;

	(void)state;
	assert_int_equal(collect_edited(edits, 2, &f), HIL_OK);
	r = row_of(f.run, "toykem", "decaps");
	assert_non_null(r);
	assert_false(r->ok);
	assert_false(r->verified);
	assert_string_equal(r->verified_by, "none (unverified)");
	assert_non_null(strstr(r->error, "run 1: the call returned 99 "
					 "(decapsulation gave another secret"));
	r = row_of(f.run, "toykem", "encaps");
	assert_true(r->ok);
	assert_false(r->verified);
	/* The failed row is marked and shows no figure, as failed rows of
	 * any run; its code size stays (the build's). */
	{
		cJSON *rep = report_of(f.run);
		char *md = ut_render(hil_summary_md, rep);
		char *html = ut_render(hil_html_report, rep);

		assert_non_null(strstr(md,
				       "| toykem | ref | decaps ✗ | - | - | "
				       "- | - | 328 / 0 / 0 | - | - | - | "
				       "- | "));
		assert_non_null(strstr(md, "| toykem | ref | encaps | "));
		assert_null(strstr(md, "| toykem | ref | encaps | - |"));
		assert_non_null(strstr(html, "<tr class=\"bad\"><td>toykem</td>"
					     "<td>ref</td><td>decaps</td><td "
					     "class=\"n\">-</td>"));
		free(md);
		free(html);
		cJSON_Delete(rep);
	}
	release(&f);
}

/* pqm4's longest scheme name is kept whole, in the rows and the sizes; a
 * name longer than a row holds is refused, never cut. */
static void test_long_scheme_names(void **state)
{
	struct pq_fixture f;
	const char *name = "sphincs-shake-128f-simple";
	char cut[HIL_ROW_NAME + 8];
	size_t i, n = 0;

	(void)state;
	assert_int_equal(collect_renamed(name, &f), HIL_OK);
	for (i = 0; i < f.run->n_rows; i++) {
		n += strcmp(f.run->rows[i].algorithm, name) == 0;
	}
	assert_int_equal(n, 3);
	assert_string_equal(f.run->impl_sizes[1].algorithm, name);
	release(&f);

	/* One character more than a row holds (63 since names went to the
	 * protocol's HILP_ALG_NAME_MAX). */
	memset(cut, 'x', HIL_ROW_NAME - 1);
	cut[HIL_ROW_NAME - 1] = '\0';
	assert_int_equal(collect_renamed(cut, &f), HIL_OK);
	for (i = 0, n = 0; i < f.run->n_rows; i++) {
		n += strcmp(f.run->rows[i].algorithm, cut) == 0;
	}
	assert_int_equal(n, 3);
	release(&f);
	memset(cut, 'x', HIL_ROW_NAME);
	cut[HIL_ROW_NAME] = '\0';
	assert_int_equal(collect_renamed(cut, &f), HIL_ERR_ARG);
	release(&f);
}

/* Under a profile with an error bar, each estimate carries it. */
static void test_estimates_carry_the_profiles_error_bar(void **state)
{
	struct pq_fixture f;
	cJSON *rep;
	char *md;

	(void)state;
	collect(&f);
	snprintf(f.run->model.profile, sizeof(f.run->model.profile),
		 "nrf52840-cal");
	rep = report_of(f.run);
	md = ut_render(hil_summary_md, rep);
	assert_non_null(
		strstr(md, "| toykem | ref | encaps | 76,498 ± 35 % |"));
	assert_non_null(strstr(md, "± the profile's error bar"));
	free(md);
	cJSON_Delete(rep);
	release(&f);
}

/* An operation without a row (pq-bench.sh -S: the signature from the host
 * build, no sign row) is "-" in pqm4's tables, never a figure. */
static void test_an_operation_not_run_is_a_dash(void **state)
{
	struct pq_fixture f;
	cJSON *rep, *rows, *r;
	char *bm, *csv;
	int i = 0, at = -1;

	(void)state;
	collect(&f);
	rep = report_of(f.run);
	rows = cJSON_GetObjectItemCaseSensitive(rep, "rows");
	cJSON_ArrayForEach(r, rows)
	{
		const char *alg = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(r, "algorithm"));
		const char *op = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(r, "operation"));

		if (alg != NULL && op != NULL && strcmp(alg, "toysig") == 0 &&
		    strcmp(op, "sign") == 0) {
			at = i;
		}
		i++;
	}
	assert_true(at >= 0);
	cJSON_DeleteItemFromArray(rows, at);
	bm = ut_render(hil_pqm4_md, rep);
	csv = ut_render(hil_pqm4_csv, rep);
	assert_non_null(strstr(bm, "| toysig (2 executions) | ref | AVG: "));
	assert_non_null(
		strstr(strstr(bm, "| toysig (2 executions)"), " | - | AVG: "));
	assert_non_null(
		strstr(strstr(bm, "# Memory Evaluation"), "| toysig | ref | "));
	assert_non_null(strstr(csv, "toysig (2 executions),ref,"));
	assert_non_null(
		strstr(strstr(csv, "toysig (2 executions),ref,"), ",-,-,-,"));
	free(bm);
	free(csv);
	cJSON_Delete(rep);
	release(&f);
}

/* A pq run states the tool and host as hilrun run does, through the same
 * steps (runner_image.c): $HILRUN_HOST, the system, the tree's commit. */
static void test_provenance_is_hilrun_runs(void **state)
{
	const char *root = getenv("HIL_SRC_DIR");
	struct hil_run *run = calloc(1, sizeof(*run));

	(void)state;
	assert_non_null(run);
	assert_int_equal(setenv("HILRUN_HOST", "labhost-7", 1), 0);
	hil_pq_provenance(root != NULL ? root : ".", run);
	unsetenv("HILRUN_HOST");
	assert_string_equal(run->host, "labhost-7");
	assert_non_null(strstr(run->host_os, "Linux"));
	assert_true(run->tool_commit[0] != '\0');
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_files_become_rows_of_the_model),
		cmocka_unit_test(test_pq_rows_round_trip_through_report_json),
		cmocka_unit_test(test_report_renders_a_pq_run),
		cmocka_unit_test(test_compare_of_two_pq_runs),
		cmocka_unit_test(test_energy_estimate_of_pq_rows),
		cmocka_unit_test(test_long_scheme_names),
		cmocka_unit_test(test_estimates_carry_the_profiles_error_bar),
		cmocka_unit_test(
			test_a_failed_call_fails_its_row_without_a_host_build),
		cmocka_unit_test(test_an_operation_not_run_is_a_dash),
		cmocka_unit_test(test_provenance_is_hilrun_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
