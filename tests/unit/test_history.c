/* test_history: the run history refuses what it cannot trust (a damaged database, a report with a forged status, start time, a key given twice, one row twice, a database behind a link), and its trends (text and page) compare like with like, mark a change of tool commit and plot the estimate on labelled axes. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "lab/history.h"
#include "util/err.h"
#include "unit_util.h"

static char tmp[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hil-history-XXXXXX");
	return mkdtemp(tmp) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return ut_rm_tree(tmp);
}

/* A fixture report, loaded for a test to edit. */
static cJSON *fixture(const char *name)
{
	char path[4096], *text = malloc(1 << 20);
	size_t n;
	cJSON *r;
	FILE *f;

	assert_non_null(text);
	snprintf(text, 1 << 20, "tests/fixtures/%s", name);
	ut_src_path(path, sizeof(path), text);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	text[n] = '\0';
	r = cJSON_Parse(text);
	free(text);
	assert_non_null(r);
	return r;
}

static cJSON *base_report(void)
{
	return fixture("report-min.json");
}

/* o[key] = v, added when o has no key. */
static void set_str(cJSON *o, const char *key, const char *v)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) == NULL) {
		assert_non_null(cJSON_AddStringToObject(o, key, v));
		return;
	}
	assert_non_null(cJSON_ReplaceItemInObjectCaseSensitive(
		o, key, cJSON_CreateString(v)));
}

static cJSON *run_of(cJSON *r)
{
	return cJSON_GetObjectItemCaseSensitive(r, "run");
}

/* Write text as dir/name/report.json; path receives the file. */
static void write_report_text(const char *name, const char *text, char *path,
			      size_t len)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, len, "%s/report.json", dir);
	ut_write_file(path, text, strlen(text), 0644);
}

static void write_report(const char *name, const cJSON *r, char *path,
			 size_t len)
{
	char *text = cJSON_Print(r);

	assert_non_null(text);
	write_report_text(name, text, path, len);
	free(text);
}

/* hil_history_import of one path into db; stderr into err. */
static int import_one(const char *db, const char *path, char *err, size_t len)
{
	struct ut_capture c;
	FILE *out = fopen("/dev/null", "w");
	int ret;

	assert_non_null(out);
	ut_capture_begin(&c);
	ret = hil_history_import(db, &path, 1, out);
	ut_capture_end(&c, err, len);
	fclose(out);
	return ret;
}

/* hil_history_print of q into out (a buffer); stderr into err. */
static int print_q(const char *db, const struct hil_history_query *q, char *out,
		   size_t olen, char *err, size_t elen)
{
	struct ut_capture c;
	char path[128];
	FILE *f;
	size_t n;
	int ret;

	snprintf(path, sizeof(path), "%s/print.out", tmp);
	f = fopen(path, "w+");
	assert_non_null(f);
	ut_capture_begin(&c);
	ret = hil_history_print(db, q, f);
	ut_capture_end(&c, err, elen);
	rewind(f);
	n = fread(out, 1, olen - 1, f);
	out[n] = '\0';
	fclose(f);
	return ret;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s != NULL; s = strstr(s + 1, what)) {
		n++;
	}
	return n;
}

/* Runs listed by `hilrun history` (lines naming the config). */
static int runs_listed(const char *db, const char *config)
{
	struct hil_history_query q;
	char out[8192], err[1024];

	memset(&q, 0, sizeof(q));
	q.msg_len = q.ad_len = -1;
	assert_int_equal(print_q(db, &q, out, sizeof(out), err, sizeof(err)),
			 HIL_OK);
	return count(out, config);
}

static void test_import_refuses_a_forged_status_or_time(void **state)
{
	static const struct {
		const char *key, *value, *said;
	} bad[] = {
		{"status", "zzz", "\"run.status\" is \"zzz\""},
		{"status", "", "\"run.status\" is \"\""},
		{"started", "9999-99-99", "\"run.started\" is \"9999-99-99\""},
		{"started", "2026-13-01T00:00:00Z", "\"run.started\""},
		{"started", "yesterday", "\"run.started\""},
		{"finished", "2026-12-02 09:54:42", "\"run.finished\""},
	};
	char db[128], path[256], err[2048], name[32];
	size_t i;

	(void)state;
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *r = base_report();

		set_str(run_of(r), bad[i].key, bad[i].value);
		snprintf(name, sizeof(name), "bad%zu", i);
		write_report(name, r, path, sizeof(path));
		cJSON_Delete(r);
		assert_int_equal(import_one(db, path, err, sizeof(err)),
				 HIL_ERR_ARG);
		assert_non_null(strstr(err, path));
		assert_non_null(strstr(err, bad[i].said));
	}
	/* The same report with its own values is recorded. */
	{
		cJSON *r = base_report();

		write_report("good", r, path, sizeof(path));
		cJSON_Delete(r);
		assert_int_equal(import_one(db, path, err, sizeof(err)),
				 HIL_OK);
		assert_int_equal(runs_listed(db, " qemu "), 1);
	}
}

static void test_import_refuses_a_key_or_a_row_given_twice(void **state)
{
	char db[128], path[256], err[2048], *text, *at, *dup;
	cJSON *r = base_report(), *rows, *row;
	size_t n;

	(void)state;
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	/* "run": {"status": "partial", "status": "complete", ...}: cJSON
	 * reads the first, another reader the last. */
	text = cJSON_PrintUnformatted(r);
	assert_non_null(text);
	at = strstr(text, "\"run\":{");
	assert_non_null(at);
	n = strlen(text);
	dup = malloc(n + 64);
	assert_non_null(dup);
	at += strlen("\"run\":{");
	snprintf(dup, n + 64, "%.*s\"status\":\"partial\",%s", (int)(at - text),
		 text, at);
	free(text);
	write_report_text("dupkey", dup, path, sizeof(path));
	free(dup);
	assert_int_equal(import_one(db, path, err, sizeof(err)), HIL_ERR_ARG);
	assert_non_null(strstr(err, "run: \"status\""));
	assert_non_null(strstr(err, "a key given twice"));

	/* One row twice, with two medians: which would the history keep? */
	rows = cJSON_GetObjectItemCaseSensitive(r, "rows");
	row = cJSON_Duplicate(cJSON_GetArrayItem(rows, 0), 1);
	assert_non_null(row);
	cJSON_ReplaceItemInObjectCaseSensitive(row, "median",
					       cJSON_CreateNumber(1));
	cJSON_AddItemToArray(rows, row);
	write_report("duprow", r, path, sizeof(path));
	cJSON_Delete(r);
	assert_int_equal(import_one(db, path, err, sizeof(err)), HIL_ERR_ARG);
	assert_non_null(strstr(err, "are the same row"));
	assert_non_null(strstr(err, "rows[0]"));
	assert_non_null(strstr(err, "rows[7]"));
	/* Nothing of either got in. */
	assert_int_equal(access(db, F_OK), -1);
}

/* A report of many rows of run id, each of its own algorithm prefix, so
 * that a second run's rows (another prefix) go to the right of every
 * tree of the database and leave its other pages alone. */
static void many_rows(const char *name, const char *id, const char *prefix,
		      char *path, size_t len)
{
	cJSON *r = base_report(), *rows, *proto;
	int i;

	set_str(run_of(r), "id", id);
	rows = cJSON_GetObjectItemCaseSensitive(r, "rows");
	proto = cJSON_Duplicate(cJSON_GetArrayItem(rows, 0), 1);
	while (cJSON_GetArraySize(rows) > 0) {
		cJSON_DeleteItemFromArray(rows, 0);
	}
	for (i = 0; i < 1500; i++) {
		cJSON *row = cJSON_Duplicate(proto, 1);
		char alg[64];

		snprintf(alg, sizeof(alg), "%s-%05d", prefix, i);
		set_str(row, "algorithm", alg);
		cJSON_AddItemToArray(rows, row);
	}
	cJSON_Delete(proto);
	write_report(name, r, path, len);
	cJSON_Delete(r);
}

/* The page number of a leaf of the rows table halfway through it. */
static off_t middle_leaf(const char *db)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	off_t leaves[4096];
	size_t n = 0;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(
				 h,
				 "SELECT pageno FROM dbstat WHERE name = 'rows'"
				 " AND pagetype = 'leaf' ORDER BY pageno",
				 -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW && n < 4096) {
		leaves[n++] = (off_t)sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	assert_true(n > 4);
	return leaves[n / 2];
}

static void test_import_refuses_a_damaged_history(void **state)
{
	char db[128], path[256], err[2048], page[4096];
	struct stat st;
	off_t pages;
	int fd;

	(void)state;
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	many_rows("first", "20261202-095438-a", "alg-a", path, sizeof(path));
	assert_int_equal(import_one(db, path, err, sizeof(err)), HIL_OK);
	/* A leaf page of the rows table in the middle, overwritten: a
	 * disk's bad sector (SQLite's dbstat says which pages are leaves). */
	assert_int_equal(stat(db, &st), 0);
	assert_true(st.st_size / 4096 > 12);
	pages = middle_leaf(db);
	memset(page, 0xa5, sizeof(page));
	fd = open(db, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, page, sizeof(page), (pages - 1) * 4096),
			 (ssize_t)sizeof(page));
	close(fd);
	/* The next import would not touch that page, and yet is refused. */
	many_rows("second", "20261202-095438-b", "alg-z", path, sizeof(path));
	assert_int_equal(import_one(db, path, err, sizeof(err)), HIL_ERR_IO);
	assert_non_null(strstr(err, "the run history is damaged"));
	assert_non_null(strstr(err, db));
	assert_null(strstr(err, ": recorded"));
	/* Listing the runs reads every row's status: it meets the page and
	 * says so, rather than show a list cut short as if whole. */
	{
		struct hil_history_query q;
		char out[8192];

		memset(&q, 0, sizeof(q));
		q.msg_len = q.ad_len = -1;
		assert_int_equal(
			print_q(db, &q, out, sizeof(out), err, sizeof(err)),
			HIL_ERR_IO);
		assert_non_null(strstr(err, "reading the run history"));
	}
}

static void test_a_history_behind_a_link_is_named_as_such(void **state)
{
	struct hil_history_query q;
	char db[128], link[128], path[256], out[4096], err[2048];
	cJSON *r = base_report();

	(void)state;
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	snprintf(link, sizeof(link), "%s/link.sqlite", tmp);
	write_report("one", r, path, sizeof(path));
	cJSON_Delete(r);
	assert_int_equal(import_one(db, path, err, sizeof(err)), HIL_OK);
	assert_int_equal(symlink(db, link), 0);
	memset(&q, 0, sizeof(q));
	q.msg_len = q.ad_len = -1;
	assert_int_not_equal(
		print_q(link, &q, out, sizeof(out), err, sizeof(err)), HIL_OK);
	assert_null(strstr(err, "no run history there yet"));
	assert_non_null(strstr(err, "a symbolic link"));
	assert_non_null(strstr(err, db));
	/* An import through it too, and nothing is written there. */
	assert_int_equal(import_one(link, path, err, sizeof(err)), HIL_ERR_IO);
	assert_non_null(strstr(err, "a symbolic link"));
	/* A missing one is still "not yet". */
	snprintf(link, sizeof(link), "%s/none.sqlite", tmp);
	assert_int_not_equal(
		print_q(link, &q, out, sizeof(out), err, sizeof(err)), HIL_OK);
	assert_non_null(strstr(err, "no run history there yet"));
}

/* report-model.json (rows with the model's estimate) as run id of config
 * "qemu-cli", started at when, with flags and tool commit, imported. */
static void import_quick_run(const char *db, const char *id, const char *when,
			     const char *flags, const char *commit)
{
	cJSON *r = fixture("report-model.json"), *cf;
	char path[256], err[2048];

	set_str(run_of(r), "id", id);
	set_str(run_of(r), "config_name", "qemu-cli");
	set_str(run_of(r), "started", when);
	set_str(run_of(r), "finished", when);
	set_str(cJSON_GetObjectItemCaseSensitive(r, "tool"), "commit", commit);
	cf = cJSON_CreateArray();
	if (strchr(flags, ' ') != NULL) {
		cJSON_AddItemToArray(cf, cJSON_CreateString("-O2"));
		cJSON_AddItemToArray(cf, cJSON_CreateString("-funroll-loops"));
	} else {
		cJSON_AddItemToArray(cf, cJSON_CreateString(flags));
	}
	cJSON_ReplaceItemInObjectCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(r, "build"), "cflags", cf);
	write_report(id, r, path, sizeof(path));
	cJSON_Delete(r);
	assert_int_equal(import_one(db, path, err, sizeof(err)), HIL_OK);
}

/* Quick runs are all "qemu-cli": -O2 and -O2 -funroll-loops are two
 * series, and a change across two tool commits is marked. */
static void test_trend_compares_like_with_like(void **state)
{
	struct hil_history_query q;
	char db[128], out[16384], err[2048];
	const char *unrolled, *o2;

	(void)state;
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	import_quick_run(db, "20261201-010000-qemu-cli", "2026-12-01T01:00:00Z",
			 "-O2", "aaaaaaaaaaaaaaaa");
	import_quick_run(db, "20261202-010000-qemu-cli", "2026-12-02T01:00:00Z",
			 "-O2 -funroll-loops", "aaaaaaaaaaaaaaaa");
	import_quick_run(db, "20261203-010000-qemu-cli", "2026-12-03T01:00:00Z",
			 "-O2", "bbbbbbbbbbbbbbbb");
	memset(&q, 0, sizeof(q));
	q.alg = "ascon-aead128";
	q.impl = "ref";
	q.op = "encrypt";
	q.msg_len = 16;
	q.ad_len = 0;
	assert_int_equal(print_q(db, &q, out, sizeof(out), err, sizeof(err)),
			 HIL_OK);
	fprintf(stderr, "%s", out);
	/* Two tables of the one row, the second saying why it is apart. */
	assert_int_equal(count(out, "ascon-aead128/ref encrypt, 16 B"), 2);
	assert_int_equal(count(out, "config qemu-cli on qemu-netduino,"), 2);
	o2 = strstr(out, "flags \"-O2\"");
	unrolled = strstr(out, "flags \"-O2 -funroll-loops\"");
	assert_non_null(o2);
	assert_non_null(unrolled);
	assert_non_null(strstr(out, "a series of its own"));
	/* The -O2 series: two runs, the second of another commit (its
	 * median's change and its estimate's are both marked). */
	assert_int_equal(count(out, "+0.00%*"), 2);
	assert_int_equal(count(out, "(another commit)"), 1);
	assert_non_null(strstr(out, "another hilrun commit"));
	/* The same config and flags on another board: a trend of its own. */
	{
		cJSON *r = fixture("report-model.json");
		char path[256];

		set_str(run_of(r), "id", "20261204-010000-qemu-cli");
		set_str(run_of(r), "config_name", "qemu-cli");
		set_str(run_of(r), "started", "2026-12-04T01:00:00Z");
		set_str(run_of(r), "finished", "2026-12-04T01:00:00Z");
		set_str(cJSON_GetObjectItemCaseSensitive(r, "board"), "id",
			"qemu-b1");
		write_report("other-board", r, path, sizeof(path));
		cJSON_Delete(r);
		assert_int_equal(import_one(db, path, err, sizeof(err)),
				 HIL_OK);
	}
	memset(&q, 0, sizeof(q));
	q.alg = "ascon-aead128";
	q.impl = "ref";
	q.op = "encrypt";
	q.msg_len = 16;
	q.ad_len = 0;
	assert_int_equal(print_q(db, &q, out, sizeof(out), err, sizeof(err)),
			 HIL_OK);
	assert_int_equal(count(out, "ascon-aead128/ref encrypt, 16 B"), 3);
	assert_int_equal(
		count(out, "config qemu-cli on qemu-b1, flags \"-O2\""), 1);
	/* And the runs list shows each run's commit. */
	memset(&q, 0, sizeof(q));
	q.msg_len = q.ad_len = -1;
	assert_int_equal(print_q(db, &q, out, sizeof(out), err, sizeof(err)),
			 HIL_OK);
	assert_int_equal(count(out, "aaaaaaaaaaaa "), 2);
	assert_int_equal(count(out, "bbbbbbbbbbbb "), 1);
	assert_int_equal(count(out, "11c183c64617 "), 1);
}

/* The y ticks of page: each label a multiple of the first nonzero one,
 * which is 1, 2, 2.5 or 5 times a power of ten. @return how many. */
static int check_round_ticks(const char *page)
{
	const char *p = page, *tag = "text-anchor=\"end\">";
	double first = 0;
	int n = 0;

	while ((p = strstr(p, tag)) != NULL) {
		double v, m;

		p += strlen(tag);
		v = strtod(p, NULL);
		if (v > 0 && first == 0) {
			first = v;
			for (m = first; m >= 10; m /= 10) {
			}
			for (; m < 1; m *= 10) {
			}
			assert_true(m == 1 || m == 2 || m == 2.5 || m == 5);
		}
		if (first > 0) {
			double k = v / first;

			assert_true(k - (double)(long)k < 1e-9);
		}
		n++;
	}
	return n;
}

static void test_trend_page_plots_the_estimate_on_labelled_axes(void **state)
{
	struct hil_history_query q;
	char db[128], html[128], *page = malloc(1 << 20);
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(page);
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	snprintf(html, sizeof(html), "%s/trend.html", tmp);
	import_quick_run(db, "20261201-010000-qemu-cli", "2026-12-01T01:00:00Z",
			 "-O2", "aaaaaaaaaaaaaaaa");
	import_quick_run(db, "20261202-010000-qemu-cli", "2026-12-02T01:00:00Z",
			 "-O2 -funroll-loops", "aaaaaaaaaaaaaaaa");
	import_quick_run(db, "20261203-010000-qemu-cli", "2026-12-03T01:00:00Z",
			 "-O2", "aaaaaaaaaaaaaaaa");
	memset(&q, 0, sizeof(q));
	q.alg = "ascon-aead128";
	q.impl = "ref";
	q.op = "encrypt";
	q.msg_len = 16;
	q.ad_len = 0;
	assert_int_equal(hil_history_html(db, &q, html), HIL_OK);
	f = fopen(html, "r");
	assert_non_null(f);
	n = fread(page, 1, (1 << 20) - 1, f);
	fclose(f);
	page[n] = '\0';
	/* Two charts (flags apart), the estimate plotted: 5325 for this row,
	 * the median 4695 only in the tables. */
	assert_int_equal(count(page, "<svg "), 2);
	assert_int_equal(count(page, "<circle "), 3);
	assert_non_null(strstr(page, "model estimate, cycles (estimated"));
	assert_int_equal(count(page, ": 5325, commit aaaaaaaaaaaa</title>"), 3);
	assert_null(strstr(page, ": 4695, commit"));
	assert_non_null(strstr(page, "a series of its own"));
	/* x labels: each run's start; y ticks round. */
	assert_non_null(strstr(page, ">12-01 01:00</text>"));
	assert_non_null(strstr(page, ">12-03 01:00</text>"));
	assert_true(check_round_ticks(page) >= 4);
	free(page);
}

/*
 * r's estimates as under profile (cycle_model.profile, unit and the
 * rows'), with error bar err % for assembly (err < 0: null, as an
 * uncalibrated profile's).
 */
static void calibrate(cJSON *r, const char *profile, double err)
{
	cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "cycle_model");
	cJSON *row;
	char unit[256];

	snprintf(unit, sizeof(unit),
		 "cycles (estimated, Cortex-M4 model, %s: 3 WS, cache on)",
		 profile);
	set_str(m, "profile", profile);
	set_str(m, "unit", unit);
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(r, "rows"))
	{
		cJSON *o =
			cJSON_GetObjectItemCaseSensitive(row, "model_cycles");

		if (!cJSON_IsObject(o)) {
			continue;
		}
		set_str(o, "unit", unit);
		cJSON_DeleteItemFromObjectCaseSensitive(o, "error_pct");
		if (err < 0) {
			assert_non_null(cJSON_AddNullToObject(o, "error_pct"));
			continue;
		}
		assert_non_null(cJSON_AddNumberToObject(o, "error_pct", err));
		set_str(o, "error_kind", "assembly");
		set_str(o, "error_from", "a stated cross-validation");
	}
}

/* A quick run (report-model.json, config qemu-cli, flags -O2) at when,
 * its estimates under profile with error bar err, row 0's scaled by k. */
static void import_cal_run(const char *db, const char *id, const char *when,
			   const char *profile, double err, double k,
			   char *said, size_t len)
{
	cJSON *r = fixture("report-model.json"), *m;
	char path[256], out[512], log[2048];
	struct ut_capture c;
	FILE *f;
	size_t n;
	int ret;

	set_str(run_of(r), "id", id);
	set_str(run_of(r), "config_name", "qemu-cli");
	set_str(run_of(r), "started", when);
	set_str(run_of(r), "finished", when);
	set_str(cJSON_GetObjectItemCaseSensitive(r, "tool"), "commit",
		"aaaaaaaaaaaaaaaa");
	calibrate(r, profile, err);
	m = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "rows"),
				   0),
		"model_cycles");
	cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "median"),
			     5325 * k);
	snprintf(path, sizeof(path), "%s/%s/report.json", tmp, id);
	if (access(path, F_OK) != 0) {
		write_report(id, r, path, sizeof(path));
	} else {
		char *text = cJSON_Print(r);

		ut_write_file(path, text, strlen(text), 0644);
		free(text);
	}
	cJSON_Delete(r);
	snprintf(out, sizeof(out), "%s/import.out", tmp);
	f = fopen(out, "w+");
	assert_non_null(f);
	ut_capture_begin(&c);
	{
		const char *p = path;

		ret = hil_history_import(db, &p, 1, f);
	}
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_OK);
	rewind(f);
	n = said != NULL ? fread(said, 1, len - 1, f) : 0;
	if (said != NULL) {
		said[n] = '\0';
	}
	fclose(f);
}

/* The trend of ascon-aead128/ref encrypt at 16 B (row 0) as text into out
 * and as a page into page (1 MB). */
static void trend_of(const char *db, char *out, size_t len, char *page)
{
	struct hil_history_query q;
	char err[2048], html[128];
	FILE *f;
	size_t n;

	memset(&q, 0, sizeof(q));
	q.alg = "ascon-aead128";
	q.impl = "ref";
	q.op = "encrypt";
	q.msg_len = 16;
	q.ad_len = 0;
	assert_int_equal(print_q(db, &q, out, len, err, sizeof(err)), HIL_OK);
	snprintf(html, sizeof(html), "%s/trend.html", tmp);
	assert_int_equal(hil_history_html(db, &q, html), HIL_OK);
	f = fopen(html, "r");
	assert_non_null(f);
	n = fread(page, 1, (1 << 20) - 1, f);
	fclose(f);
	page[n] = '\0';
}

/*
 * Issue 27 item 3: the history stores each estimate's error bar and shows
 * it (terminal and page); the estimate's change from the run before is
 * marked within the model's error when the two error bars together
 * (± 11 % each: ± 16 %) cover it (+5 %), not beyond (+30 %); the page
 * draws a bar on every point.
 */
static void test_trend_shows_error_bars_and_changes_within_them(void **state)
{
	char db[128], out[16384], *page = malloc(1 << 20);

	(void)state;
	assert_non_null(page);
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	import_cal_run(db, "20261201-010000-qemu-cli", "2026-12-01T01:00:00Z",
		       "nrf52840-cal", 11, 1, NULL, 0);
	import_cal_run(db, "20261202-010000-qemu-cli", "2026-12-02T01:00:00Z",
		       "nrf52840-cal", 11, 1.05, NULL, 0);
	import_cal_run(db, "20261203-010000-qemu-cli", "2026-12-03T01:00:00Z",
		       "nrf52840-cal", 11, 1.05 * 1.3, NULL, 0);
	trend_of(db, out, sizeof(out), page);
	fprintf(stderr, "%s", out);
	assert_int_equal(count(out, " 5325 \xc2\xb1 11 % "), 1);
	assert_int_equal(count(out, " 5591 \xc2\xb1 11 % "), 1);
	assert_int_equal(count(out, " +5.00%~ "), 1);
	assert_int_equal(count(out, " +30.00% "), 1);
	assert_int_equal(count(out, "+30.00%~"), 0);
	/* Said once under the tables. */
	assert_int_equal(count(out, "model est. \xc2\xb1 N % = the estimate's "
				    "expected error against the real board"),
			 1);
	assert_int_equal(count(out, "~ within the model's error: "), 1);
	assert_null(strstr(out, "no error bar"));
	/* The page: the figure with its bar, the change marked, a bar drawn
	 * on each of the three points, the hover saying it too. */
	assert_int_equal(count(page, "<td>5325 \xc2\xb1 11 %</td>"), 1);
	assert_int_equal(
		count(page,
		      "<td class=\"within\">+5.00 % (within the model's error)"),
		1);
	assert_int_equal(count(page, "<td>+30.00 %</td>"), 1);
	assert_int_equal(count(page, "class=\"errbar\""), 3);
	assert_int_equal(count(page, ": 5325 \xc2\xb1 11 %, commit"), 1);
	assert_int_equal(count(page, "the estimate's expected error against "
				     "the real board"),
			 1);
	free(page);
}

/* An uncalibrated profile's estimates: no error bar, and why, said once
 * under the trend, not per run. */
static void test_trend_says_once_why_estimates_have_no_error_bar(void **state)
{
	char db[128], out[16384], *page = malloc(1 << 20);

	(void)state;
	assert_non_null(page);
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	import_cal_run(db, "20261201-010000-qemu-cli", "2026-12-01T01:00:00Z",
		       "nrf52840-icache", -1, 1, NULL, 0);
	import_cal_run(db, "20261202-010000-qemu-cli", "2026-12-02T01:00:00Z",
		       "nrf52840-icache", -1, 1.05, NULL, 0);
	trend_of(db, out, sizeof(out), page);
	assert_int_equal(count(out, "model est.: no error bar: profile "
				    "nrf52840-icache is not calibrated"),
			 1);
	assert_null(strstr(out, "\xc2\xb1"));
	assert_null(strstr(out, "%~"));
	assert_int_equal(count(page, "no error bar: profile nrf52840-icache "
				     "is not calibrated"),
			 1);
	assert_null(strstr(page, "class=\"errbar\""));
	assert_null(strstr(page, "(within the model's error)"));
	free(page);
}

/*
 * A history made before the error bars (and before the energy estimate,
 * the host and the model columns) still opens: its trend shows its
 * estimate and says no error bar was recorded; importing into it adds the
 * columns, records a new run with its error bar, and importing the run
 * it already holds fills in that run's error bar.
 */
static void test_an_old_history_opens_imports_and_gets_error_bars(void **state)
{
	static const char old_schema[] =
		"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
		"INSERT INTO meta VALUES('schema', '1');"
		"CREATE TABLE runs(id TEXT PRIMARY KEY, started TEXT,"
		" finished TEXT, status TEXT, config TEXT, board TEXT, unit TEXT,"
		" cflags TEXT, tool_commit TEXT, dirty INTEGER, dir TEXT);"
		"CREATE TABLE rows(run_id TEXT NOT NULL REFERENCES runs(id)"
		" ON DELETE CASCADE, algorithm TEXT, implementation TEXT,"
		" operation TEXT, msg_len INTEGER, ad_len INTEGER, status TEXT,"
		" median REAL, model_median REAL, energy_uj REAL,"
		" PRIMARY KEY(run_id, algorithm, implementation, operation,"
		" msg_len, ad_len));"
		"INSERT INTO runs VALUES('20261201-010000-qemu-cli',"
		" '2026-12-01T01:00:00Z', '2026-12-01T01:00:00Z', 'complete',"
		" 'qemu-cli', 'qemu-netduino', 'instructions (emulated)', '-O2',"
		" 'aaaaaaaaaaaaaaaa', 0, '');"
		"INSERT INTO rows VALUES('20261201-010000-qemu-cli',"
		" 'ascon-aead128', 'ref', 'encrypt', 16, 0, 'ok', 4695, 5325,"
		" NULL);";
	char db[128], out[16384], said[512], *page = malloc(1 << 20);
	sqlite3 *h;
	sqlite3_stmt *st;

	(void)state;
	assert_non_null(page);
	snprintf(db, sizeof(db), "%s/old.sqlite", tmp);
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, old_schema, NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(h);
	/* Read as it is. */
	trend_of(db, out, sizeof(out), page);
	assert_int_equal(count(out, " 5325 "), 1);
	assert_int_equal(count(out, "no error bar recorded for 1 estimate:"),
			 1);
	assert_int_equal(count(page, "no error bar recorded for 1 run,"), 1);
	/* A new run imported into it: recorded with its error bar. */
	import_cal_run(db, "20261202-010000-qemu-cli", "2026-12-02T01:00:00Z",
		       "nrf52840-cal", 11, 1, said, sizeof(said));
	assert_non_null(strstr(said, ": recorded\n"));
	trend_of(db, out, sizeof(out), page);
	assert_int_equal(count(out, " 5325 \xc2\xb1 11 % "), 1);
	assert_int_equal(count(out, "no error bar recorded for 1 estimate:"),
			 1);
	/* The run it held, imported again: its error bar filled in, once. */
	import_cal_run(db, "20261201-010000-qemu-cli", "2026-12-01T01:00:00Z",
		       "nrf52840-cal", 11, 1, said, sizeof(said));
	assert_non_null(strstr(
		said, ": already recorded; the estimates' error bars added\n"));
	import_cal_run(db, "20261201-010000-qemu-cli", "2026-12-01T01:00:00Z",
		       "nrf52840-cal", 11, 1, said, sizeof(said));
	assert_non_null(strstr(said, ": already recorded, unchanged\n"));
	trend_of(db, out, sizeof(out), page);
	assert_int_equal(count(out, " 5325 \xc2\xb1 11 % "), 2);
	assert_null(strstr(out, "no error bar recorded"));
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(
		sqlite3_prepare_v2(h,
				   "SELECT model_error_pct, model_error_kind"
				   " FROM rows WHERE run_id ="
				   " '20261201-010000-qemu-cli'",
				   -1, &st, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_true(sqlite3_column_double(st, 0) == 11);
	assert_string_equal((const char *)sqlite3_column_text(st, 1),
			    "assembly");
	sqlite3_finalize(st);
	sqlite3_close(h);
	free(page);
}

/*
 * A run that ends here records each estimate's error bar as report.json
 * carries it: its profile's figure for assembly (a folder with a .s file)
 * or for C, and "none" under an uncalibrated profile.
 */
static void test_a_finished_run_records_its_error_bars(void **state)
{
	static const char *const impls[] = {"sfile", "ref"};
	static const char *const profiles[] = {"nrf52840-cal",
					       "nrf52840-icache"};
	const char *src = getenv("HIL_SRC_DIR");
	char db[128];
	size_t p, i;

	(void)state;
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	for (p = 0; p < 2; p++) {
		struct hil_config *cfg = calloc(1, sizeof(*cfg));
		struct hil_run *run = calloc(1, sizeof(*run));
		struct hil_row rows[2];
		sqlite3 *h;
		sqlite3_stmt *st;

		assert_non_null(cfg);
		assert_non_null(run);
		memset(rows, 0, sizeof(rows));
		for (i = 0; i < 2; i++) {
			struct hil_config_alg *a;

			assert_int_equal(hil_config_add_alg(cfg, &a), HIL_OK);
			snprintf(cfg->algs[i].name, sizeof(cfg->algs[i].name),
				 "toyaead128");
			snprintf(cfg->algs[i].impl, sizeof(cfg->algs[i].impl),
				 "%s", impls[i]);
			snprintf(cfg->algs[i].path, sizeof(cfg->algs[i].path),
				 "%s/tests/fixtures/nist-tree/crypto_aead/"
				 "toyaead128/%s",
				 src != NULL ? src : ".", impls[i]);
			snprintf(rows[i].algorithm, sizeof(rows[i].algorithm),
				 "toyaead128");
			snprintf(rows[i].implementation,
				 sizeof(rows[i].implementation), "%s",
				 impls[i]);
			rows[i].operation = "encrypt";
			rows[i].msg_len = 16;
			rows[i].ok = 1;
			rows[i].stats.median = 1000;
			rows[i].model.ok = 1;
			rows[i].model.stats.median = 1200;
		}
		snprintf(cfg->name, sizeof(cfg->name), "dk");
		snprintf(cfg->board.name, sizeof(cfg->board.name),
			 "nrf52840-dk");
		run->cfg = cfg;
		run->rows = rows;
		run->n_rows = 2;
		run->model.enabled = 1;
		snprintf(run->model.profile, sizeof(run->model.profile), "%s",
			 profiles[p]);
		snprintf(run->id, sizeof(run->id), "2026120%zu-010000-dk",
			 p + 1);
		snprintf(run->started, sizeof(run->started),
			 "2026-12-0%zuT01:00:00Z", p + 1);
		run->status = "complete";
		assert_int_equal(hil_history_record(db, run), HIL_OK);
		run->rows = NULL;
		free(run);
		hil_config_free(cfg);
		free(cfg);

		assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
		assert_int_equal(
			sqlite3_prepare_v2(
				h,
				"SELECT implementation, model_error_pct,"
				" model_error_kind FROM rows WHERE run_id = ?1"
				" ORDER BY implementation DESC",
				-1, &st, NULL),
			SQLITE_OK);
		sqlite3_bind_text(st, 1,
				  p == 0 ? "20261201-010000-dk"
					 : "20261202-010000-dk",
				  -1, SQLITE_STATIC);
		for (i = 0; i < 2; i++) {
			assert_int_equal(sqlite3_step(st), SQLITE_ROW);
			assert_string_equal(
				(const char *)sqlite3_column_text(st, 0),
				impls[i]);
			if (p == 1) {
				assert_int_equal(sqlite3_column_type(st, 1),
						 SQLITE_NULL);
				assert_string_equal(
					(const char *)sqlite3_column_text(st,
									  2),
					"none");
				continue;
			}
			assert_true(sqlite3_column_double(st, 1) ==
				    (i == 0 ? 11 : 35));
			assert_string_equal(
				(const char *)sqlite3_column_text(st, 2),
				i == 0 ? "assembly" : "C");
		}
		sqlite3_finalize(st);
		sqlite3_close(h);
	}
}

/* report-model.json as run id of board at when, under tmp/page/runs/id,
 * with row 0's median and estimate scaled by k and row 1 failed when
 * asked; imported into db. */
static void import_board_run_cal(const char *db, const char *id,
				 const char *board, const char *when, double k,
				 int fail_row1, const char *profile,
				 double err);

static void import_board_run(const char *db, const char *id, const char *board,
			     const char *when, double k, int fail_row1)
{
	import_board_run_cal(db, id, board, when, k, fail_row1, NULL, 0);
}

/* import_board_run, its estimates under profile (NULL: the fixture's)
 * with error bar err. */
static void import_board_run_cal(const char *db, const char *id,
				 const char *board, const char *when, double k,
				 int fail_row1, const char *profile, double err)
{
	cJSON *r = fixture("report-model.json"), *rows, *row, *m;
	char name[128], path[256], log[2048];

	set_str(run_of(r), "id", id);
	set_str(run_of(r), "config_name", "nightly");
	set_str(run_of(r), "started", when);
	set_str(run_of(r), "finished", when);
	set_str(cJSON_GetObjectItemCaseSensitive(r, "board"), "id", board);
	if (profile != NULL) {
		calibrate(r, profile, err);
	}
	rows = cJSON_GetObjectItemCaseSensitive(r, "rows");
	row = cJSON_GetArrayItem(rows, 0);
	cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "median"),
			     4695 * k);
	m = cJSON_GetObjectItemCaseSensitive(row, "model_cycles");
	cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "median"),
			     5325 * k);
	if (fail_row1) {
		set_str(cJSON_GetArrayItem(rows, 1), "status", "failed");
	}
	snprintf(name, sizeof(name), "page");
	snprintf(path, sizeof(path), "%s/page", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/page/runs", tmp);
	mkdir(path, 0755);
	snprintf(name, sizeof(name), "page/runs/%s", id);
	write_report(name, r, path, sizeof(path));
	cJSON_Delete(r);
	assert_int_equal(import_one(db, path, log, sizeof(log)), HIL_OK);
}

/* The night's page: per board the newest run, its failed rows, compare's
 * verdicts against the run before, a relative link to its report. */
static void test_night_page_shows_each_board(void **state)
{
	char db[128], html[128], *page = malloc(1 << 20);
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(page);
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	import_board_run(db, "20261201-010000-nightly", "qemu-a1",
			 "2026-12-01T01:00:00Z", 1, 0);
	import_board_run(db, "20261202-010000-nightly", "qemu-a1",
			 "2026-12-02T01:00:00Z", 1.1, 1);
	import_board_run(db, "20261202-013000-nightly", "qemu-b1",
			 "2026-12-02T01:30:00Z", 1, 0);
	import_board_run(db, "20261120-013000-nightly", "qemu-old",
			 "2026-11-20T01:30:00Z", 1, 0);
	snprintf(html, sizeof(html), "%s/page/night.html", tmp);
	assert_int_equal(hil_history_night(db, html), HIL_OK);
	f = fopen(html, "r");
	assert_non_null(f);
	n = fread(page, 1, (1 << 20) - 1, f);
	fclose(f);
	page[n] = '\0';
	assert_non_null(strstr(page, "the night of 2026-12-02"));
	/* One summary line per board, newest run only, linked relatively. */
	assert_int_equal(count(page, "<tr class="), 3);
	assert_int_equal(
		count(page,
		      "<a href=\"runs/20261202-010000-nightly/report.html\">"),
		2);
	assert_null(strstr(page, "runs/20261201-010000-nightly/report.html"));
	/* Complete with a failed row: yellow; complete: green; old: grey. */
	assert_int_equal(count(page, "<tr class=\"warn\">"), 1);
	assert_int_equal(count(page, "<tr class=\"good\">"), 1);
	assert_int_equal(count(page, "<tr class=\"stale\">"), 1);
	/* qemu-a1: its failed row, and compare's verdicts: row 0 worse by
	 * 10 %, row 1 failed (worse). */
	assert_non_null(strstr(page, "Rows that did not end ok"));
	assert_non_null(strstr(
		page, "<td>5325</td><td>5857.5</td><td class=\"bad\">worse"));
	assert_non_null(strstr(
		page, "<td>4695</td><td>5164.5</td><td class=\"bad\">worse"));
	assert_true(count(page, ">worse") >= 3);
	assert_non_null(strstr(page, ">3 worse, 0 better</td>"));
	assert_non_null(strstr(
		page, "Against the run before (20261201-010000-nightly"));
	/* qemu-b1: nothing to compare with. */
	assert_non_null(strstr(
		page, "No run of this board and configuration before it"));
	assert_non_null(
		strstr(page, "3 board configurations, 1 needing attention"));
	assert_non_null(strstr(page, "</html>"));
	free(page);
}

/*
 * The night's page with calibrated estimates: each with its error bar; an
 * estimate 5 % up (within ± 16 %) is worse, in yellow, marked within the
 * model's error and counted apart; the instruction count 5 % up is worse
 * as before.
 */
static void test_night_page_marks_estimates_within_their_error(void **state)
{
	char db[128], html[128], *page = malloc(1 << 20);
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(page);
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	import_board_run_cal(db, "20261201-010000-nightly", "qemu-a1",
			     "2026-12-01T01:00:00Z", 1, 0, "nrf52840-cal", 11);
	import_board_run_cal(db, "20261202-010000-nightly", "qemu-a1",
			     "2026-12-02T01:00:00Z", 1.05, 0, "nrf52840-cal",
			     11);
	snprintf(html, sizeof(html), "%s/page/night.html", tmp);
	assert_int_equal(hil_history_night(db, html), HIL_OK);
	f = fopen(html, "r");
	assert_non_null(f);
	n = fread(page, 1, (1 << 20) - 1, f);
	fclose(f);
	page[n] = '\0';
	assert_non_null(strstr(
		page,
		"<td>5325&nbsp;\xc2\xb1&nbsp;11&nbsp;%</td><td>5591.25&nbsp;"
		"\xc2\xb1&nbsp;11&nbsp;%</td><td class=\"warn\">worse, within the model's error "
		"(\xc2\xb1 16 %): the code's modelled cost changed; the "
		"board may not show it</td>"));
	assert_non_null(strstr(
		page, "<td>4695</td><td>4929.75</td><td class=\"bad\">worse"));
	assert_non_null(strstr(
		page, ">2 worse (1 within the model's error), 0 better</td>"));
	assert_null(strstr(page, "no error bar"));
	free(page);
}

/* report-min.json as run id of host and board, in tmp/dir. */
static void host_run(const char *dir, const char *id, const char *host,
		     const char *board, char *path, size_t len)
{
	cJSON *r = base_report();

	set_str(run_of(r), "id", id);
	set_str(cJSON_GetObjectItemCaseSensitive(r, "tool"), "host", host);
	set_str(cJSON_GetObjectItemCaseSensitive(r, "board"), "id", board);
	write_report(dir, r, path, len);
	cJSON_Delete(r);
}

/* The ids `hilrun history` lists, sorted, one per line into out. */
static void listed_ids(const char *db, char *out, size_t len)
{
	struct hil_history_query q;
	char text[8192], err[1024], *line, *save = NULL;
	char ids[8][128];
	size_t n = 0, i, j;

	memset(&q, 0, sizeof(q));
	q.msg_len = q.ad_len = -1;
	assert_int_equal(print_q(db, &q, text, sizeof(text), err, sizeof(err)),
			 HIL_OK);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "run ", 4) == 0 || n == 8) {
			continue;
		}
		sscanf(line, "%127s", ids[n++]);
	}
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (strcmp(ids[j], ids[i]) < 0) {
				char t[128];

				memcpy(t, ids[i], sizeof(t));
				memcpy(ids[i], ids[j], sizeof(t));
				memcpy(ids[j], t, sizeof(t));
			}
		}
	}
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		snprintf(out + strlen(out), len - strlen(out), "%s\n", ids[i]);
	}
}

/* Two hosts' runs with one id (same config, same second): both are named
 * ID@HOST:BOARD whichever was imported first; a third joins them; an
 * import again changes nothing. */
static void
test_import_names_runs_sharing_an_id_alike_in_any_order(void **state)
{
	const char *id = "20261202-095438-qemu";
	char a[256], b[256], c[256], err[2048];
	char db1[128], db2[128], l1[2048], l2[2048];

	(void)state;
	host_run("a", id, "lab-a", "qemu-a1", a, sizeof(a));
	host_run("b", id, "lab-b", "qemu-b1", b, sizeof(b));
	host_run("c", id, "lab-c", "qemu-c1", c, sizeof(c));
	snprintf(db1, sizeof(db1), "%s/one.sqlite", tmp);
	snprintf(db2, sizeof(db2), "%s/two.sqlite", tmp);
	assert_int_equal(import_one(db1, a, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db1, b, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db2, b, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db2, a, err, sizeof(err)), HIL_OK);
	listed_ids(db1, l1, sizeof(l1));
	listed_ids(db2, l2, sizeof(l2));
	assert_string_equal(l1, l2);
	assert_string_equal(l1, "20261202-095438-qemu@lab-a:qemu-a1\n"
				"20261202-095438-qemu@lab-b:qemu-b1\n");
	/* A third host's run of that second, and every one again. */
	assert_int_equal(import_one(db1, c, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db1, a, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db1, b, err, sizeof(err)), HIL_OK);
	listed_ids(db1, l1, sizeof(l1));
	assert_string_equal(l1, "20261202-095438-qemu@lab-a:qemu-a1\n"
				"20261202-095438-qemu@lab-b:qemu-b1\n"
				"20261202-095438-qemu@lab-c:qemu-c1\n");
	/* And a run alone keeps its plain id. */
	host_run("d", "20261203-010000-qemu", "lab-a", "qemu-a1", a, sizeof(a));
	assert_int_equal(import_one(db1, a, err, sizeof(err)), HIL_OK);
	assert_int_equal(runs_listed(db1, "20261203-010000-qemu "), 1);
}

/* report-min.json as run id of lab-a's qemu-a1, with that end and status. */
static void board_run(const char *dir, const char *id, const char *finished,
		      const char *status, char *path, size_t len)
{
	cJSON *r = base_report();

	set_str(run_of(r), "id", id);
	set_str(run_of(r), "finished", finished);
	set_str(run_of(r), "status", status);
	set_str(cJSON_GetObjectItemCaseSensitive(r, "tool"), "host", "lab-a");
	set_str(cJSON_GetObjectItemCaseSensitive(r, "board"), "id", "qemu-a1");
	write_report(dir, r, path, len);
	cJSON_Delete(r);
}

/*
 * Quick runs of one config on one board and host, one after the other in
 * the same second, share a run id: each is recorded (ID@HOST:BOARD, then
 * ~2, ~3), none replaces another (it used to: "recorded again", the first
 * lost), whether their ends differ or only their folders; an import again
 * changes nothing; a partial state of a complete run leaves the record; a
 * partial run resumed (another folder, complete) still replaces itself.
 */
static void test_runs_of_one_board_in_one_second_are_all_kept(void **state)
{
	const char *id = "20261202-095438-qemu";
	char a[256], b[256], c[256], p[256], err[2048], db[128], l[2048];

	(void)state;
	board_run("a", id, "2026-12-02T09:54:38Z", "complete", a, sizeof(a));
	board_run("b", id, "2026-12-02T09:54:39Z", "complete", b, sizeof(b));
	board_run("c", id, "2026-12-02T09:54:39Z", "complete", c, sizeof(c));
	board_run("p", id, "2026-12-02T09:54:38Z", "partial", p, sizeof(p));
	snprintf(db, sizeof(db), "%s/h.sqlite", tmp);
	assert_int_equal(import_one(db, a, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db, b, err, sizeof(err)), HIL_OK);
	assert_null(strstr(err, "recorded again"));
	assert_int_equal(import_one(db, c, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db, a, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db, b, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db, c, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db, p, err, sizeof(err)), HIL_OK);
	listed_ids(db, l, sizeof(l));
	assert_string_equal(l, "20261202-095438-qemu@lab-a:qemu-a1\n"
			       "20261202-095438-qemu@lab-a:qemu-a1~2\n"
			       "20261202-095438-qemu@lab-a:qemu-a1~3\n");

	/* A partial run, then the same run resumed elsewhere: one record. */
	snprintf(db, sizeof(db), "%s/r.sqlite", tmp);
	assert_int_equal(import_one(db, p, err, sizeof(err)), HIL_OK);
	assert_int_equal(import_one(db, a, err, sizeof(err)), HIL_OK);
	listed_ids(db, l, sizeof(l));
	assert_string_equal(l, "20261202-095438-qemu\n");
	assert_int_equal(runs_listed(db, " complete "), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_import_refuses_a_forged_status_or_time, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_import_refuses_a_key_or_a_row_given_twice, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_import_refuses_a_damaged_history, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_a_history_behind_a_link_is_named_as_such, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_trend_compares_like_with_like, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_trend_page_plots_the_estimate_on_labelled_axes,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_night_page_shows_each_board, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_night_page_marks_estimates_within_their_error,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_trend_shows_error_bars_and_changes_within_them,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_trend_says_once_why_estimates_have_no_error_bar,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_an_old_history_opens_imports_and_gets_error_bars,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_a_finished_run_records_its_error_bars, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_import_names_runs_sharing_an_id_alike_in_any_order,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_runs_of_one_board_in_one_second_are_all_kept,
			setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
