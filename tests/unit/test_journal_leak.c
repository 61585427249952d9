/* Unit tests of the journal's leak entries: both t statistics (the counter's and the cycle model's), their flags and a failed model side come back from journal.jsonl as written, and a journal from before the model's t still reads. */
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

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "hilp.h"
#include "report/report.h"
#include "run/journal.h"
#include "result/run.h"
#include "result/stats.h"
#include "unit_util.h"
#include "util/err.h"

static double samples[3] = {3692, 3692, 3692};

static void make_run(struct hil_run *run)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->build_id, sizeof(run->build_id), "0123abcd");
	run->info.counter_unit = HILP_UNIT_INSTRUCTIONS_EMU;
	run->model.enabled = 1;
	snprintf(run->model.profile, sizeof(run->model.profile),
		 "stm32f401-art");
	snprintf(
		run->model.unit, sizeof(run->model.unit),
		"cycles (estimated, Cortex-M4 model, stm32f401-art: 2 WS, ART on)");
}

static void make_row(struct hil_row *r, uint32_t len)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->algorithm, sizeof(r->algorithm), "aes128-ecb");
	snprintf(r->implementation, sizeof(r->implementation), "ref");
	r->operation = "encrypt";
	r->mode = "ECB";
	r->msg_len = len;
	r->runs = 3;
	r->warmup = 2;
	r->seed = 1;
	r->samples = samples;
	assert_int_equal(hil_stats_compute(samples, 3, &r->stats), HIL_OK);
	r->verified = 1;
	r->ok = 1;
	r->leak.state = 1;
	r->leak.n[0] = 102;
	r->leak.n[1] = 98;
	r->leak.mean[0] = 3695;
	r->leak.mean[1] = 3695;
}

/* A line of the journal as the runner writes it. */
static void append_row(FILE *f, const struct hil_run *run,
		       const struct hil_row *r)
{
	char *line = hil_report_row_json(run, r);

	assert_non_null(line);
	fprintf(f, "%s\n", line);
	free(line);
}

static void test_both_statistics_come_back_from_the_journal(void **state)
{
	char dir[] = "/tmp/hil-jleak-XXXXXX";
	char path[64];
	struct hil_run run;
	struct hil_row a, b, *rows = NULL;
	size_t n = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	make_run(&run);
	/* Flagged by the model's cycles alone, as table-based AES is. */
	make_row(&a, 16);
	a.leak.model_state = 1;
	a.leak.model.t = 6.045;
	a.leak.model.flagged = 1;
	a.leak.model.n[0] = 102;
	a.leak.model.n[1] = 98;
	a.leak.model.mean[0] = 5015.75;
	a.leak.model.mean[1] = 5008.5;
	a.leak.model.stddev[0] = 0.5;
	a.leak.model.stddev[1] = 11.75;
	/* Flagged by the counts; the model's records did not match. */
	make_row(&b, 64);
	b.leak.t = 250.5;
	b.leak.flagged = 1;
	b.leak.mean[0] = 3800;
	b.leak.stddev[1] = 2;
	b.leak.model_state = -1;
	snprintf(
		b.leak.model_why, sizeof(b.leak.model_why),
		"the cycle model's records of BENCH 1 do not match its 32 runs");
	f = fopen(path, "w");
	assert_non_null(f);
	append_row(f, &run, &a);
	append_row(f, &run, &b);
	fclose(f);

	assert_int_equal(hil_journal_load(path, run.build_id, &rows, &n),
			 HIL_OK);
	assert_int_equal(n, 2);
	assert_int_equal(rows[0].leak.state, 1);
	assert_false(rows[0].leak.flagged);
	assert_true(rows[0].leak.t == 0.0);
	assert_int_equal(rows[0].leak.model_state, 1);
	assert_true(rows[0].leak.model.flagged);
	assert_true(rows[0].leak.model.t == 6.045);
	assert_int_equal(rows[0].leak.model.n[0], 102);
	assert_int_equal(rows[0].leak.model.n[1], 98);
	assert_true(rows[0].leak.model.mean[0] == 5015.75);
	assert_true(rows[0].leak.model.mean[1] == 5008.5);
	assert_true(rows[0].leak.model.stddev[0] == 0.5);
	assert_true(rows[0].leak.model.stddev[1] == 11.75);
	assert_true(hil_row_leak_flagged(&rows[0].leak));

	assert_true(rows[1].leak.flagged);
	assert_true(rows[1].leak.t == 250.5);
	assert_true(rows[1].leak.mean[0] == 3800);
	assert_true(rows[1].leak.stddev[1] == 2);
	assert_int_equal(rows[1].leak.model_state, -1);
	assert_string_equal(rows[1].leak.model_why, b.leak.model_why);
	assert_true(hil_row_leak_flagged(&rows[1].leak));
	hil_journal_free(rows, n);
	assert_int_equal(ut_rm_tree(dir), 0);
}

/* A journal written before the model's t: "flagged" was the counter's. */
static void test_an_older_journal_line_still_reads(void **state)
{
	char dir[] = "/tmp/hil-jleak-XXXXXX";
	char path[64];
	struct hil_run run;
	struct hil_row a, *rows = NULL;
	cJSON *o, *leak;
	char *line;
	size_t n = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	make_run(&run);
	run.model.enabled = 0;
	make_row(&a, 64);
	a.leak.t = 99;
	a.leak.flagged = 1;
	line = hil_report_row_json(&run, &a);
	assert_non_null(line);
	o = cJSON_Parse(line);
	free(line);
	assert_non_null(o);
	leak = cJSON_GetObjectItemCaseSensitive(o, "leak");
	assert_non_null(leak);
	cJSON_DeleteItemFromObjectCaseSensitive(leak, "flagged_by");
	cJSON_DeleteItemFromObjectCaseSensitive(leak, "unit");
	assert_null(cJSON_GetObjectItemCaseSensitive(leak, "model_cycles"));
	line = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", line);
	fclose(f);
	free(line);

	assert_int_equal(hil_journal_load(path, run.build_id, &rows, &n),
			 HIL_OK);
	assert_int_equal(n, 1);
	assert_true(rows[0].leak.flagged);
	assert_int_equal(rows[0].leak.model_state, 0);
	assert_true(hil_row_leak_flagged(&rows[0].leak));
	hil_journal_free(rows, n);
	assert_int_equal(ut_rm_tree(dir), 0);
}

/* issue #33 finding 10: a journal another user could have written (made
 * under a umask of 000 or 002) is not resumed: its rows are measured again.
 * A link in its place is not followed. */
static void test_a_journal_others_could_write_is_not_resumed(void **state)
{
	char dir[] = "/tmp/hil-jforge-XXXXXX";
	char path[64], other[64];
	struct hil_run run;
	struct hil_row a, *rows = NULL;
	size_t n = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	make_run(&run);
	make_row(&a, 16);
	f = fopen(path, "w");
	assert_non_null(f);
	append_row(f, &run, &a);
	fclose(f);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(hil_journal_load(path, run.build_id, &rows, &n),
			 HIL_OK);
	assert_int_equal(n, 0);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(chmod(dir, 0777), 0); /* its folder, then */
	assert_int_equal(hil_journal_load(path, run.build_id, &rows, &n),
			 HIL_OK);
	assert_int_equal(n, 0);
	assert_int_equal(chmod(dir, 0700), 0);
	assert_int_equal(hil_journal_load(path, run.build_id, &rows, &n),
			 HIL_OK);
	assert_int_equal(n, 1);
	hil_journal_free(rows, n);
	/* A link to a journal elsewhere. */
	snprintf(other, sizeof(other), "%s/elsewhere.jsonl", dir);
	assert_int_equal(rename(path, other), 0);
	assert_int_equal(symlink(other, path), 0);
	rows = NULL;
	assert_int_equal(hil_journal_load(path, run.build_id, &rows, &n),
			 HIL_OK);
	assert_int_equal(n, 0);
	unlink(path);
	unlink(other);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_both_statistics_come_back_from_the_journal),
		cmocka_unit_test(test_an_older_journal_line_still_reads),
		cmocka_unit_test(
			test_a_journal_others_could_write_is_not_resumed),
	};

	/* As hilrun's main does: what the library writes is not group- or
	 * world-writable, whatever umask the test was started with. */
	umask(022);
	setenv("HILRUN_LOG", "1", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
