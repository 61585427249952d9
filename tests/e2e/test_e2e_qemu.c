/* test_e2e_qemu: end-to-end tests of the host library against the real stub running under QEMU; no emulator may outlive a test. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "bench.h"
#include "drivers/flasher/flasher.h"
#include "image/build.h"
#include "config/config.h"
#include "image/elfinfo.h"
#include "e2e_util.h"
#include "util/err.h"
#include "hilp.h"
#include "image/kat.h"
#include "drivers/link/link.h"
#include "util/proc.h"
#include "image/refcrypto/refcrypto.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/session.h"
#include "session/stub.h"
#include "util/util.h"

#define ALG_NAME     "ascon-aead128"
#define ALG_IMPL     "ref"
#define KAT_FILE     "tests/kat/asconaead128_LWC_AEAD_KAT_128_128.txt"
#define HANDSHAKE_MS 10000u

/* The mkdtemp() root of everything this file writes; removed at the end. */
static char tmp_root[64];

/* ---------------------------------------------------------------- helpers */

/* Per-test teardown: no emulator started under tmp_root survives a test. */
static int no_qemu_left(void **state)
{
	(void)state;
	return e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS) ? 0 : -1;
}

/* What varies between the configurations of this file. */
struct cfg_params {
	const char *program; /* flasher.program; NULL: the default */
	const char *opt;     /* "-O2" when NULL */
	unsigned timeout_ms; /* link; 500 when 0 */
	unsigned retries;    /* link; 3 when 0 */
	unsigned runs;	     /* 30 when 0 */
	unsigned warmup;
	const char *lengths; /* "0, 16, 64" when NULL */
	const char *results; /* results_dir */
};

/*
 * The JSON of a small QEMU configuration. Every configuration here is named
 * "e2e", so that images with the same flags are built once and shared.
 */
static void config_json(char *buf, size_t len, const struct cfg_params *p)
{
	char program[HIL_CFG_STR + 32] = "";

	if (p->program != NULL) {
		snprintf(program, sizeof(program), ", \"program\": \"%s\"",
			 p->program);
	}
	snprintf(buf, len,
		 "{ \"name\": \"e2e\","
		 " \"board\": { \"name\": \"qemu-netduino\" },"
		 " \"flasher\": { \"type\": \"qemu\"%s },"
		 " \"link\": { \"type\": \"socket\", \"timeout_ms\": %u,"
		 " \"retries\": %u },"
		 " \"build\": { \"cflags\": [\"%s\"] },"
		 " \"algorithms\": [\"" ALG_NAME "\"],"
		 " \"bench\": { \"operations\": [\"encrypt\", \"decrypt\"],"
		 " \"lengths\": [%s], \"ad_lengths\": [0], \"runs\": %u,"
		 " \"warmup\": %u, \"seed\": 1 },"
		 " \"results_dir\": \"%s\" }",
		 program, p->timeout_ms ? p->timeout_ms : 500u,
		 p->retries ? p->retries : 3u, p->opt ? p->opt : "-O2",
		 p->lengths ? p->lengths : "0, 16, 64", p->runs ? p->runs : 30u,
		 p->warmup, p->results ? p->results : tmp_root);
}

static void make_config(struct hil_config *cfg, const struct cfg_params *p)
{
	char json[2048];
	char err[512] = "";
	int ret;

	config_json(json, sizeof(json), p);
	ret = hil_config_parse(json, NULL, cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		fail_msg("config rejected: %s\n%s", err, json);
	}
}

/* Bring a target up in tmp_root/sub, running ALG_NAME/ALG_IMPL; faults may
 * be NULL. */
static struct e2e_target *target_up(const char *sub, const struct cfg_params *p,
				    const struct hil_link_faults *faults)
{
	struct hil_config cfg = {0};
	struct e2e_target *t;

	make_config(&cfg, p);
	t = e2e_target_up(&cfg, tmp_root, sub, faults, ALG_NAME, ALG_IMPL);
	hil_config_free(&cfg);
	return t;
}

/* ------------------------------------------------ group 1: whole runs */

static void need_true(const cJSON *o, const char *key)
{
	if (!cJSON_IsTrue(e2e_need(o, key))) {
		fail_msg("report.json: \"%s\" is not true", key);
	}
}

static void check_row(const cJSON *row, const char *unit)
{
	const char *op = e2e_need_str(row, "operation");
	double len = e2e_need_num(row, "msg_len");
	double runs = e2e_need_num(row, "runs");
	const cJSON *samples = e2e_need(row, "samples");
	const cJSON *per_byte = e2e_need(row, "per_byte");
	const cJSON *s;
	double median = e2e_need_num(row, "median");

	assert_string_equal(e2e_need_str(row, "algorithm"), ALG_NAME);
	assert_string_equal(e2e_need_str(row, "implementation"), ALG_IMPL);
	assert_true(strcmp(op, "encrypt") == 0 || strcmp(op, "decrypt") == 0);
	assert_true(len == 0 || len == 16 || len == 64);
	assert_true(e2e_need_num(row, "ad_len") == 0);
	assert_string_equal(e2e_need_str(row, "unit"), unit);
	assert_null(strstr(e2e_need_str(row, "unit"), "cycles"));
	assert_true(runs == 30);
	assert_true(e2e_need_num(row, "warmup") == 3);
	assert_true(cJSON_IsArray(samples));
	assert_int_equal(cJSON_GetArraySize(samples), 30);
	cJSON_ArrayForEach(s, samples)
	{
		assert_true(cJSON_IsNumber(s));
		assert_true(s->valuedouble > 0);
	}
	e2e_need_num(row, "mean");
	e2e_need_num(row, "stddev");
	assert_true(e2e_need_num(row, "min") <= median);
	assert_true(median <= e2e_need_num(row, "max"));
	if (len == 0) {
		assert_true(cJSON_IsNull(per_byte));
	} else {
		assert_true(cJSON_IsNumber(per_byte));
		assert_true(fabs(per_byte->valuedouble - median / len) < 1e-9);
	}
	e2e_need_num(row, "overhead_subtracted");
	assert_true(e2e_need_num(row, "stack_bytes") > 0);
	need_true(row, "verified");
	need_true(e2e_need(row, "digest"), "match");
}

static void test_run_writes_report_with_required_keys(void **state)
{
	struct cfg_params p = {.warmup = 3};
	struct hil_config cfg = {0};
	struct hil_run run;
	struct hil_runner_opts opts;
	char results[HIL_PATH], path[HIL_PATH + 64], link[HIL_PATH];
	char *text = NULL, *line;
	size_t len = 0;
	cJSON *root;
	const cJSON *o, *rows, *row;
	const char *s;
	int seen[2][3] = {{0}};
	int n_lines = 0, i, j;
	struct stat st;
	ssize_t n;

	(void)state;
	snprintf(results, sizeof(results), "%s/r1", tmp_root);
	p.results = results;
	make_config(&cfg, &p);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results;
	assert_int_equal(hil_runner_run(&cfg, &opts, &run), HIL_OK);
	assert_int_equal(run.n_rows, 6);

	snprintf(path, sizeof(path), "%s/report.json", run.dir);
	assert_int_equal(hil_read_file(path, &text, &len), HIL_OK);
	root = cJSON_Parse(text);
	free(text);
	assert_non_null(root);

	e2e_need_num(root, "schema_version");
	o = e2e_need(root, "build");
	s = e2e_need_str(o, "compiler");
	assert_true(s[0] != '\0');
	assert_true(strstr(s, "arm-none-eabi") != NULL ||
		    strstr(s, "GCC") != NULL);
	assert_true(cJSON_IsArray(e2e_need(o, "cflags")));
	assert_true(e2e_is_hex(e2e_need_str(o, "elf_sha256"), 64));
	assert_true(e2e_is_hex(e2e_need_str(o, "build_id"), 40));
	assert_string_equal(e2e_need_str(o, "build_id"), run.build_id);

	o = e2e_need(root, "board");
	assert_string_equal(e2e_need_str(o, "name"), "qemu-netduino");
	assert_true(cJSON_IsNull(e2e_need(o, "clock_hz")));
	assert_string_equal(e2e_need_str(o, "counter_unit"),
			    "instructions (emulated)");

	rows = e2e_need(root, "rows");
	assert_true(cJSON_IsArray(rows));
	assert_int_equal(cJSON_GetArraySize(rows), 6);
	cJSON_ArrayForEach(row, rows)
	{
		int op, l;

		check_row(row, "instructions (emulated)");
		op = strcmp(e2e_need_str(row, "operation"), "decrypt") == 0;
		l = e2e_need_num(row, "msg_len") == 0	 ? 0
		    : e2e_need_num(row, "msg_len") == 16 ? 1
							 : 2;
		seen[op][l]++;
	}
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 3; j++) {
			assert_int_equal(seen[i][j], 1);
		}
	}
	cJSON_Delete(root);

	/* results/latest -> the run folder (relative, so the tree can move) */
	snprintf(path, sizeof(path), "%s/latest", results);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, run.id);
	snprintf(path, sizeof(path), "%s/latest/report.json", results);
	assert_int_equal(access(path, R_OK), 0);

	/* The journal: one JSON line per row. */
	snprintf(path, sizeof(path), "%s/journal.jsonl", run.dir);
	assert_int_equal(hil_read_file(path, &text, &len), HIL_OK);
	for (line = text; *line != '\0';) {
		char *nl = strchr(line, '\n');
		cJSON *r;

		assert_non_null(nl); /* every line is complete */
		*nl = '\0';
		r = cJSON_Parse(line);
		assert_non_null(r);
		check_row(r, "instructions (emulated)");
		cJSON_Delete(r);
		n_lines++;
		line = nl + 1;
	}
	free(text);
	assert_int_equal(n_lines, 6);
	hil_run_free(&run);
	hil_config_free(&cfg);
}

static void test_two_runs_give_identical_medians(void **state)
{
	struct cfg_params p = {.warmup = 3};
	struct hil_config cfg = {0};
	struct hil_run a, b;
	struct hil_runner_opts opts;
	char ra[HIL_PATH], rb[HIL_PATH];
	size_t i;
	uint32_t k;

	(void)state;
	/* Own results folders: the two runs must not share anything. */
	snprintf(ra, sizeof(ra), "%s/r2a", tmp_root);
	snprintf(rb, sizeof(rb), "%s/r2b", tmp_root);
	make_config(&cfg, &p);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = ra;
	assert_int_equal(hil_runner_run(&cfg, &opts, &a), HIL_OK);
	opts.results_dir = rb;
	assert_int_equal(hil_runner_run(&cfg, &opts, &b), HIL_OK);

	assert_string_equal(a.build_id, b.build_id);
	assert_int_equal(a.n_rows, 6);
	assert_int_equal(a.n_rows, b.n_rows);
	for (i = 0; i < a.n_rows; i++) {
		const struct hil_row *x = &a.rows[i], *y = &b.rows[i];

		assert_true(x->ok && y->ok);
		assert_string_equal(x->operation, y->operation);
		assert_int_equal(x->msg_len, y->msg_len);
		assert_int_equal(x->runs, y->runs);
		if (x->stats.median != y->stats.median) {
			fail_msg("%s %u bytes: median %.1f then %.1f",
				 x->operation, (unsigned)x->msg_len,
				 x->stats.median, y->stats.median);
		}
		for (k = 0; k < x->runs; k++) {
			assert_true(x->samples[k] == y->samples[k]);
		}
		assert_int_equal(x->overhead, y->overhead);
		assert_int_equal(x->stack_bytes, y->stack_bytes);
		assert_int_equal(x->digest_got, y->digest_got);
	}
	hil_run_free(&a);
	hil_run_free(&b);
	hil_config_free(&cfg);
}

/* --------------------------------- group 2: one target shared by tests */

static struct e2e_target *shared;

static int shared_up(void **state)
{
	struct cfg_params p = {0};

	shared = target_up("shared", &p, NULL);
	*state = shared;
	return 0;
}

static int shared_down(void **state)
{
	(void)state;
	e2e_target_down(shared);
	shared = NULL;
	return e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS) ? 0 : -1;
}

/* Per-test teardown: the shared target is the only emulator alive. */
static int only_shared_qemu(void **state)
{
	(void)state;
	if (shared == NULL) {
		return -1;
	}
	if (e2e_count_qemu(shared->run.dir, NULL) != 1) {
		fprintf(stderr, "e2e: the shared QEMU is gone\n");
		return -1;
	}
	return e2e_qemu_gone(tmp_root, shared->run.dir, E2E_HANG_MS) ? 0 : -1;
}

static int kat_wanted(unsigned long count)
{
	static const unsigned long listed[] = {1,   2,	 17,   33,  34,
					       100, 545, 1057, 1089};
	size_t i;

	for (i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		if (listed[i] == count) {
			return 1;
		}
	}
	return count % 97 == 0;
}

static const struct kat_field *kat_need(const struct kat_record *r,
					const char *name)
{
	const struct kat_field *f = kat_find(r, name);

	if (f == NULL) {
		fail_msg("KAT Count %lu: no %s", r->count, name);
	}
	return f;
}

/* EXEC of op on in with the record's key, nonce and AD. */
static void kat_exec(struct e2e_target *t, uint8_t op,
		     const struct kat_record *r, const uint8_t *in,
		     size_t in_len, uint8_t *out, size_t cap, size_t *out_len,
		     int *rejected)
{
	const struct kat_field *key = kat_need(r, "Key");
	const struct kat_field *nonce = kat_need(r, "Nonce");
	const struct kat_field *ad = kat_need(r, "AD");
	int ret;

	ret = hil_target_exec(t->conn.session, (uint8_t)t->alg, op, key->data,
			      key->len, nonce->data, nonce->len, ad->data,
			      ad->len, in, in_len, 0, out, cap, out_len,
			      rejected);
	if (ret != HIL_OK) {
		fail_msg("KAT Count %lu: EXEC failed: %s", r->count,
			 hil_strerror(ret));
	}
}

static void test_kat_sample_matches_on_target(void **state)
{
	struct e2e_target *t = *state;
	struct kat_file *kf = calloc(1, sizeof(*kf));
	struct kat_record *r = calloc(1, sizeof(*r));
	const char *src = getenv("HIL_SRC_DIR");
	char path[HIL_PATH];
	uint8_t out[KAT_FIELD_MAX + 64], forged[KAT_FIELD_MAX + 64];
	size_t out_len;
	int tested = 0, got, rejected;

	assert_non_null(kf);
	assert_non_null(r);
	snprintf(path, sizeof(path), "%s/%s", src ? src : ".", KAT_FILE);
	if (kat_open(kf, path) != KAT_OK) {
		fail_msg("%s", kf->err);
	}
	for (;;) {
		const struct kat_field *pt, *ct;

		got = kat_next(kf, r);
		if (got < 0) {
			fail_msg("%s", kf->err);
		}
		if (got == 0) {
			break;
		}
		if (!kat_wanted(r->count)) {
			continue;
		}
		pt = kat_need(r, "PT");
		ct = kat_need(r, "CT");

		kat_exec(t, HILP_OP_ENCRYPT, r, pt->data, pt->len, out,
			 sizeof(out), &out_len, &rejected);
		assert_int_equal(rejected, 0);
		assert_int_equal(out_len, ct->len);
		if (memcmp(out, ct->data, ct->len) != 0) {
			fail_msg("KAT Count %lu: the target's CT differs",
				 r->count);
		}

		kat_exec(t, HILP_OP_DECRYPT, r, ct->data, ct->len, out,
			 sizeof(out), &out_len, &rejected);
		assert_int_equal(rejected, 0);
		assert_int_equal(out_len, pt->len);
		assert_memory_equal(out, pt->data, pt->len);

		/* One flipped byte, walking over ciphertext and tag. */
		memcpy(forged, ct->data, ct->len);
		forged[r->count % ct->len] ^= 0x80;
		out_len = 12345;
		kat_exec(t, HILP_OP_DECRYPT, r, forged, ct->len, out,
			 sizeof(out), &out_len, &rejected);
		if (rejected != 1 || out_len != 0) {
			fail_msg("KAT Count %lu: a forged CT was accepted",
				 r->count);
		}
		tested++;
	}
	kat_close(kf);
	free(kf);
	free(r);
	/* 1, 2, 17, 33, 34, 100, 545, 1057, 1089 and 97, 194, ..., 1067 */
	assert_int_equal(tested, 20);
}

/* One command straight through the session; returns the target's status. */
static uint8_t call_status(struct e2e_target *t, uint8_t cmd, uint8_t scmd,
			   const uint8_t *payload, size_t plen)
{
	uint8_t reply[HILP_MAX_DATA];
	size_t len = 0;
	uint8_t st = 0xEE;

	assert_int_equal(hil_session_call(t->conn.session, cmd, scmd, payload,
					  plen, reply, sizeof(reply), &len, &st,
					  0),
			 HIL_OK);
	return st;
}

static uint8_t bench_status(struct e2e_target *t,
			    const struct hilp_bench_req *r)
{
	uint8_t data[HILP_MAX_DATA];
	size_t n = hilp_bench_req_encode(0, r, data);

	/* The session puts its own sequence byte in front. */
	return call_status(t, HILP_CMD_BENCH, HILP_OP_ENCRYPT, data + 1, n - 1);
}

static uint8_t exec_status(struct e2e_target *t, uint8_t op,
			   const struct hilp_exec_req *r)
{
	uint8_t data[HILP_MAX_DATA];
	size_t n = hilp_exec_req_encode(0, r, data);

	return call_status(t, HILP_CMD_EXEC, op, data + 1, n - 1);
}

static uint8_t load_status(struct e2e_target *t, uint8_t buf, uint16_t off,
			   size_t n)
{
	uint8_t data[HILP_MAX_DATA] = {0};

	hilp_put_u16(data, off);
	memset(data + 2, 0xA5, n);
	return call_status(t, HILP_CMD_LOAD, buf, data, n + 2);
}

static uint8_t fetch_status(struct e2e_target *t, uint8_t buf, uint16_t off,
			    uint8_t count)
{
	uint8_t data[3];

	hilp_put_u16(data, off);
	data[2] = count;
	return call_status(t, HILP_CMD_FETCH, buf, data, sizeof(data));
}

/*
 * A LOAD or FETCH of n bytes at an offset (from the end of the message
 * buffer, msg_buf - off, when from_end) and the status the stub answers.
 */
struct buf_case {
	int fetch;
	uint8_t buf;
	int from_end;
	uint16_t off;
	size_t n;
	uint8_t want;
};

static const struct buf_case buf_cases[] = {
	{0, HILP_BUF_MSG, 1, 4, 4, HILP_ST_OK},
	{0, HILP_BUF_MSG, 1, 3, 4, HILP_ST_TOO_LONG},
	{0, HILP_BUF_MSG, 1, 0, 1, HILP_ST_TOO_LONG},
	{0, HILP_BUF_MSG, 0, 0xFFF0, 16, HILP_ST_TOO_LONG},
	{0, HILP_BUF_KEY, 0, BENCH_MAX_KEY, 1, HILP_ST_TOO_LONG},
	{0, 9, 0, 0, 1, HILP_ST_BAD_ARG},
	{0, HILP_BUF_OUT, 0, 0, 1, HILP_ST_BAD_ARG},
	{1, HILP_BUF_OUT, 1, 4, 4, HILP_ST_OK},
	{1, HILP_BUF_OUT, 1, 3, 4, HILP_ST_TOO_LONG},
	{1, HILP_BUF_OUT, 0, 0xFFFF, 1, HILP_ST_TOO_LONG},
	{1, HILP_BUF_MSG, 0, 0, HILP_MAX_DATA - 1u, HILP_ST_TOO_LONG},
	{1, 9, 0, 0, 1, HILP_ST_BAD_ARG},
};

static void test_stub_rejects_requests_beyond_its_buffers(void **state)
{
	struct e2e_target *t = *state;
	const struct hilp_info *info = &t->run.info;
	/* The stub's message buffer holds ciphertext||tag (target/bench.h). */
	const uint16_t msg_buf = BENCH_MAX_MSG + BENCH_MAX_TAG;
	struct hilp_bench_req br;
	struct hilp_exec_req er;
	uint8_t reply[HILP_MAX_DATA], data[HILP_MAX_DATA] = {0};
	struct hilp_info again;
	size_t len = 0, i;
	uint8_t st = 0xEE;

	assert_true(info->max_msg > 0 && info->max_runs > 0);
	memset(&br, 0, sizeof(br));
	br.alg = (uint8_t)t->alg;
	br.msg_len = 16;
	br.runs = 2;
	br.warmup = 0;
	br.seed = 1;

	/* The baseline is accepted, so the refusals below are about size. */
	assert_int_equal(bench_status(t, &br), HILP_ST_OK);
	br.msg_len = (uint16_t)(info->max_msg + 1u);
	assert_int_equal(bench_status(t, &br), HILP_ST_TOO_LONG);
	br.msg_len = 16;
	br.ad_len = (uint16_t)(info->max_ad + 1u);
	assert_int_equal(bench_status(t, &br), HILP_ST_TOO_LONG);
	br.ad_len = 0;
	br.runs = (uint16_t)(info->max_runs + 1u);
	assert_int_equal(bench_status(t, &br), HILP_ST_TOO_LONG);
	br.runs = 0;
	assert_int_equal(bench_status(t, &br), HILP_ST_BAD_ARG);
	br.runs = 2;
	br.alg = 200;
	assert_int_equal(bench_status(t, &br), HILP_ST_NO_ALG);

	memset(&er, 0, sizeof(er));
	er.alg = (uint8_t)t->alg;
	er.msg_len = (uint16_t)(info->max_msg + 1u);
	assert_int_equal(exec_status(t, HILP_OP_ENCRYPT, &er),
			 HILP_ST_TOO_LONG);
	er.msg_len = 0;
	er.alg = 200;
	assert_int_equal(exec_status(t, HILP_OP_ENCRYPT, &er), HILP_ST_NO_ALG);
	assert_int_equal(call_status(t, HILP_CMD_ALG, 200, NULL, 0),
			 HILP_ST_NO_ALG);

	/* LOAD and FETCH: the last bytes of a buffer fit, one more does not
	 * (FETCH: nor more than one reply frame holds); no such buffer. */
	for (i = 0; i < sizeof(buf_cases) / sizeof(buf_cases[0]); i++) {
		const struct buf_case *c = &buf_cases[i];
		uint16_t off =
			(uint16_t)(c->from_end ? msg_buf - c->off : c->off);

		if (c->fetch) {
			st = fetch_status(t, c->buf, off, (uint8_t)c->n);
		} else {
			st = load_status(t, c->buf, off, c->n);
		}
		if (st != c->want) {
			fail_msg(
				"%s %u bytes at %u of buffer %u: status 0x%02x, expected 0x%02x",
				c->fetch ? "FETCH" : "LOAD", (unsigned)c->n,
				(unsigned)off, (unsigned)c->buf, st, c->want);
		}
		assert_int_equal(st, c->want);
	}

	/* Unknown command bytes: a letter, and one outside ASCII letters. */
	assert_int_equal(call_status(t, 'Z', 0, NULL, 0), HILP_ST_BAD_CMD);
	assert_int_equal(call_status(t, 0x7F, 3, data, 4), HILP_ST_BAD_CMD);

	/* After all of that the stub still answers, unchanged. */
	assert_int_equal(hil_session_call(t->conn.session, HILP_CMD_INFO, 0,
					  NULL, 0, reply, sizeof(reply), &len,
					  &st, 0),
			 HIL_OK);
	assert_int_equal(st, HILP_ST_OK);
	data[0] = 0;
	memcpy(data + 1, reply, len);
	assert_int_equal(hilp_info_decode(data, len + 1, &again), 0);
	assert_int_equal(again.build_id_len, info->build_id_len);
	assert_memory_equal(again.build_id, info->build_id, info->build_id_len);
	assert_int_equal(again.max_msg, info->max_msg);
	/* The stub reports its UART overrun count (QEMU's USART never
	 * overruns: it holds input back while RXNE is set). */
	assert_int_equal(again.has_uart_overruns, 1);
	assert_int_equal(again.uart_overruns, 0);
	assert_int_equal(info->has_uart_overruns, 1);
}

/* Raw reply frames read straight off the link. */
struct raw {
	struct hil_link *link;
	struct hilp_rx rx;
	uint8_t buf[512];
	size_t pos, len;
};

/*
 * The next frame from the target, decoded as a reply.
 * @return 1 with *dec the decoder's status, 0 when nothing came in time.
 */
static int raw_next(struct raw *r, struct hilp_packet *p, uint8_t *dec,
		    unsigned timeout_ms)
{
	uint64_t deadline = e2e_ms_now() + timeout_ms;

	for (;;) {
		while (r->pos < r->len) {
			int k = hilp_rx_push(&r->rx, r->buf[r->pos++]);

			assert_true(k >= 0); /* the stub's frames are small */
			if (k == 1 && r->rx.len > 0) {
				*dec = hilp_decode_reply(r->rx.buf, r->rx.len,
							 p);
				hilp_rx_init(&r->rx);
				return 1;
			}
		}
		{
			uint64_t now = e2e_ms_now();
			int n;

			if (now >= deadline) {
				return 0;
			}
			n = hil_link_read(r->link, r->buf, sizeof(r->buf),
					  (unsigned)(deadline - now));
			assert_true(n >= 0);
			if (n == 0) {
				return 0;
			}
			r->pos = 0;
			r->len = (size_t)n;
		}
	}
}

static void raw_send(struct raw *r, const uint8_t *p, size_t n)
{
	assert_int_equal(hil_link_write(r->link, p, n, 1000), HIL_OK);
}

/* The target's next packet must be the status ['e', st] and nothing else. */
static uint8_t raw_status(struct raw *r)
{
	struct hilp_packet p;
	uint8_t dec = 0xEE;

	assert_int_equal(raw_next(r, &p, &dec, E2E_HANG_MS), 1);
	assert_int_equal(dec, HILP_ST_OK);
	assert_int_equal(p.cmd, HILP_ERROR);
	assert_int_equal(p.dlen, 1);
	/* ... and then silence: one status per frame, no reply. */
	assert_int_equal(raw_next(r, &p, &dec, 100), 0);
	return p.data[0];
}

static void
test_stub_rejects_corrupted_truncated_and_oversized_frames(void **state)
{
	struct e2e_target *t = *state;
	struct raw r;
	struct hilp_packet p;
	uint8_t frame[HILP_MAX_FRAME], big[301];
	uint8_t data[HILP_MAX_DATA];
	uint8_t seq = 0x5A, dec = 0xEE, st;
	const uint8_t zero = 0;
	size_t n;

	memset(&r, 0, sizeof(r));
	r.link = t->conn.link;
	hilp_rx_init(&r.rx);
	assert_int_equal(hil_link_drain(r.link), HIL_OK);
	raw_send(&r, &zero, 1); /* a lone 0x00: the stub starts afresh */
	assert_int_equal(raw_next(&r, &p, &dec, 100), 0);

	/* A valid INFO frame with its command byte flipped: bad CRC. */
	n = hilp_encode_request(HILP_CMD_INFO, 0, &seq, 1, frame);
	assert_true(n > 3);
	frame[1] ^= 0x01; /* the first byte after the COBS code: 'i' */
	raw_send(&r, frame, n);
	assert_int_equal(raw_status(&r), HILP_ST_BAD_CRC);

	/* A LOAD frame cut in half, then the delimiter. */
	memset(data, 0x11, 40);
	data[0] = seq;
	data[1] = 0;
	data[2] = 0;
	n = hilp_encode_request(HILP_CMD_LOAD, HILP_BUF_AD, data, 40, frame);
	raw_send(&r, frame, n / 2);
	raw_send(&r, &zero, 1);
	st = raw_status(&r);
	assert_true(st == HILP_ST_BAD_CRC || st == HILP_ST_BAD_LEN);

	/* 300 non-zero bytes, more than any frame: bad length, once. */
	memset(big, 0x41, 300);
	big[300] = 0;
	raw_send(&r, big, sizeof(big));
	assert_int_equal(raw_status(&r), HILP_ST_BAD_LEN);

	/* The stub resynchronised on the 0x00: a valid request is answered. */
	seq = 0x33;
	n = hilp_encode_request(HILP_CMD_INFO, 0, &seq, 1, frame);
	raw_send(&r, frame, n);
	assert_int_equal(raw_next(&r, &p, &dec, E2E_HANG_MS), 1);
	assert_int_equal(dec, HILP_ST_OK);
	assert_int_equal(p.cmd, HILP_REPLY);
	assert_true(p.dlen > 1);
	assert_int_equal(p.data[0], seq);
	assert_int_equal(raw_status(&r), HILP_ST_OK);

	/* And the session on the same link still works. */
	assert_int_equal(call_status(t, HILP_CMD_INFO, 0, NULL, 0), HILP_ST_OK);
}

/* The energy window runs the operation back to back: its ticks are the
 * count times one call, within the loop's own few instructions per call,
 * and its output is the one the host expects. */
static void test_energy_window_counts_the_whole_loop(void **state)
{
	struct hilp_bench_req bq = {0};
	struct hilp_bench_rep br;
	struct hilp_energy_req eq = {0};
	struct hilp_energy_rep er;
	uint32_t samples[20];
	uint8_t key[16], npub[16], msg[64], ct[80];
	uint32_t rng = hilp_prng_init(5);
	uint32_t want;
	size_t len = 0;
	int rej = 0;
	double per_call;

	(void)state;
	bq.alg = (uint8_t)shared->alg;
	bq.msg_len = 64;
	bq.runs = 20;
	bq.warmup = 1;
	bq.seed = 5;
	assert_int_equal(hil_target_bench(shared->conn.session, HILP_OP_ENCRYPT,
					  &bq, &br, samples, 0),
			 HIL_OK);
	eq.alg = (uint8_t)shared->alg;
	eq.msg_len = 64;
	eq.seed = 5;
	eq.count = 500;
	/* 500 calls under the cycle model on a loaded machine: far more than
	 * the session's default, and a hang bound only. */
	assert_int_equal(hil_target_energy(shared->conn.session,
					   HILP_OP_ENCRYPT, &eq, &er, 120000),
			 HIL_OK);
	assert_int_equal(er.count, 500);
	per_call = (double)er.ticks / er.count;
	/* samples include the calibrated overhead (not subtracted here). */
	assert_true(per_call > samples[0] - br.overhead - 20.0);
	assert_true(per_call < samples[0] + 20.0);
	hilp_prng_fill(&rng, key, sizeof(key));
	hilp_prng_fill(&rng, npub, sizeof(npub));
	hilp_prng_fill(&rng, msg, sizeof(msg));
	assert_int_equal(hil_ref_run(e2e_ref_alg(ALG_NAME, ALG_IMPL),
				     HILP_OP_ENCRYPT, key, npub, NULL, 0, msg,
				     sizeof(msg), 0, ct, sizeof(ct), &len,
				     &rej),
			 HIL_OK);
	want = hilp_digest_update(HILP_DIGEST_INIT, ct, len);
	assert_int_equal(er.digest, want);
	/* A count of zero is a bad argument, not a hang. */
	eq.count = 0;
	assert_int_equal(hil_target_energy(shared->conn.session,
					   HILP_OP_ENCRYPT, &eq, &er, 0),
			 HIL_ERR_TARGET);
}

/* ------------------------------------- group 3: a target per test */

/* What a test of this group holds open, released by its teardown also when
 * an assertion stops the test half-way. */
struct held {
	struct e2e_target *t;
	struct hil_session *s;
	struct hil_link *link;
	struct hil_flasher *fl;
	struct hil_proc *child;
	void *mem;
};

static int held_setup(void **state)
{
	*state = calloc(1, sizeof(struct held));
	return *state != NULL ? 0 : -1;
}

static int held_teardown(void **state)
{
	struct held *h = *state;

	if (h != NULL) {
		hil_session_close(h->s);
		hil_link_close(h->link);
		hil_flasher_close(h->fl);
		e2e_target_down(h->t);
		hil_proc_free(h->child);
		free(h->mem);
		free(h);
		*state = NULL;
	}
	return no_qemu_left(state);
}

static void test_session_recovers_from_a_corrupting_link(void **state)
{
	/*
	 * About 8 kB cross the link, so these rates hit it dozens of times:
	 * retries and bad frames are certain. A fault depends only on the seed
	 * and the byte's index, so the counts repeat from run to run (up to the
	 * number of handshake attempts, which depends on how fast QEMU boots).
	 * The faults lose some replies, and each such loss costs one
	 * timeout; on a loaded machine a slow QEMU costs more (a late reply
	 * doubles the next wait). 300 ms and retries 16 make a request fail
	 * only if seventeen attempts in a row are lost, which the faults
	 * alone never do and a slow machine, waited for, does not either.
	 */
	const struct hil_link_faults faults = {
		.seed = 20261202u,
		.corrupt_permille_rx = 5,
		.drop_permille_rx = 5,
		.corrupt_permille_tx = 5,
		.drop_permille_tx = 0,
		.silent_after_tx_bytes = -1,
	};
	struct cfg_params p = {.timeout_ms = 300, .retries = 16};
	const struct registry_alg *ref = e2e_ref_alg(ALG_NAME, ALG_IMPL);
	const struct hil_session_stats *stats;
	struct held *h = *state;
	struct e2e_target *t;
	struct hilp_bench_req br;
	struct hilp_bench_rep rep;
	uint32_t samples[20], digest = 0, rng = hilp_prng_init(6);
	unsigned i;
	int ret;

	h->t = target_up("t6", &p, &faults);
	t = h->t;
	for (i = 0; i < 30; i++) {
		uint8_t key[16], npub[16], ad[8], msg[64];
		uint8_t want[96], got[96], ct[96];
		size_t want_len = 0, got_len = 0, ct_len = 0;
		size_t msg_len = (i * 7u) % 48u, ad_len = i % 5u;
		uint8_t op = i % 2 ? HILP_OP_DECRYPT : HILP_OP_ENCRYPT;
		const uint8_t *in = msg;
		size_t in_len = msg_len;
		int rej_w = 0, rej_g = 0;

		hilp_prng_fill(&rng, key, sizeof(key));
		hilp_prng_fill(&rng, npub, sizeof(npub));
		hilp_prng_fill(&rng, ad, sizeof(ad));
		hilp_prng_fill(&rng, msg, sizeof(msg));
		if (op == HILP_OP_DECRYPT) {
			assert_int_equal(hil_ref_run(ref, HILP_OP_ENCRYPT, key,
						     npub, ad, ad_len, msg,
						     msg_len, 0, ct, sizeof(ct),
						     &ct_len, &rej_w),
					 HIL_OK);
			in = ct;
			in_len = ct_len;
		}
		assert_int_equal(hil_ref_run(ref, op, key, npub, ad, ad_len, in,
					     in_len, 0, want, sizeof(want),
					     &want_len, &rej_w),
				 HIL_OK);
		ret = hil_target_exec(t->conn.session, (uint8_t)t->alg, op, key,
				      sizeof(key), npub, sizeof(npub), ad,
				      ad_len, in, in_len, 0, got, sizeof(got),
				      &got_len, &rej_g);
		assert_int_equal(ret, HIL_OK);
		assert_int_equal(rej_g, 0);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
	}

	memset(&br, 0, sizeof(br));
	br.alg = (uint8_t)t->alg;
	br.msg_len = 64;
	br.runs = 20;
	br.warmup = 2;
	br.seed = 77;
	/* Twenty runs take milliseconds: 10 s only bounds a hang. */
	assert_int_equal(hil_target_bench(t->conn.session, HILP_OP_ENCRYPT, &br,
					  &rep, samples, 10000),
			 HIL_OK);
	assert_int_equal(hil_ref_bench_digest(ref, HILP_OP_ENCRYPT, 64, 0, 0,
					      20, 77, &digest),
			 HIL_OK);
	assert_int_equal(rep.digest, digest);
	for (i = 0; i < 20; i++) {
		assert_true(samples[i] > rep.overhead);
	}

	stats = hil_session_get_stats(t->conn.session);
	fprintf(stderr,
		"e2e: flaky link: %u requests, %u retries, %u bad frames, %u timeouts, %u long timeouts, %u target rejects, longest wait %u ms\n",
		stats->requests, stats->retries, stats->bad_frames,
		stats->timeouts, stats->long_timeouts, stats->target_rejects,
		stats->longest_wait_ms);
	assert_true(stats->retries > 0);
	assert_true(stats->bad_frames > 0 || stats->target_rejects > 0);
}

/* One call on a silent link: HIL_ERR_TIMEOUT, bounded, clearly named. */
static void expect_silent_timeout(struct e2e_target *t, uint8_t cmd,
				  const uint8_t *payload, size_t plen,
				  unsigned timeout_ms, unsigned attempts)
{
	struct e2e_capture cap;
	char log[8192];
	uint8_t reply[HILP_MAX_DATA];
	uint8_t st = 0xEE;
	uint64_t t0, elapsed;
	unsigned timeouts0;
	int ret;

	timeouts0 = hil_session_get_stats(t->conn.session)->timeouts;
	e2e_capture_begin(&cap, tmp_root);
	t0 = e2e_ms_now();
	ret = hil_session_call(t->conn.session, cmd, 0, payload, plen, reply,
			       sizeof(reply), NULL, &st, 0);
	elapsed = e2e_ms_now() - t0;
	e2e_capture_end(&cap, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_TIMEOUT);
	/*
	 * It did wait for every attempt (a timeout cannot fire early), it
	 * made exactly that many attempts (the session's count, not the
	 * clock: silence does not add any), and it never hangs.
	 */
	assert_true(elapsed + 5 >= (uint64_t)timeout_ms * attempts);
	assert_int_equal(hil_session_get_stats(t->conn.session)->timeouts,
			 timeouts0 + attempts);
	assert_true(elapsed < E2E_HANG_MS);
	e2e_assert_contains(log, hil_link_where(t->conn.link));
	e2e_assert_contains(log, hil_session_cmd_name(cmd));
}

static void test_silent_target_times_out_with_a_clear_error(void **state)
{
	const struct hil_link_faults silent = {
		.seed = 1,
		.silent_after_tx_bytes = 0,
	};
	struct cfg_params p = {.timeout_ms = 250, .retries = 2};
	struct hilp_bench_req br;
	uint8_t data[HILP_MAX_DATA];
	struct held *h = *state;
	struct e2e_target *t;
	size_t n;

	/*
	 * Bring up on a good link, then put a silent wrapper around it: the
	 * stub stays alive (QEMU runs) but nothing it says arrives, exactly
	 * like a hung target.
	 */
	h->t = target_up("t7", &p, NULL);
	t = h->t;
	e2e_target_wrap_link(t, &silent, 250, 2);
	assert_string_equal(hil_link_where(t->conn.link),
			    hil_flasher_link_where(t->conn.flasher));

	expect_silent_timeout(t, HILP_CMD_INFO, NULL, 0, 250, 3);
	memset(&br, 0, sizeof(br));
	br.alg = (uint8_t)t->alg;
	br.msg_len = 16;
	br.runs = 2;
	br.seed = 1;
	n = hilp_bench_req_encode(0, &br, data);
	expect_silent_timeout(t, HILP_CMD_BENCH, data + 1, n - 1, 250, 3);
	assert_int_equal(hil_session_get_stats(t->conn.session)->timeouts, 6);
}

/* Two images and their identities. */
struct two_images {
	struct hil_firmware o2, os;
	struct hil_elf_info ei_o2, ei_os;
	struct hil_run run;
};

static void test_build_id_mismatch_is_refused(void **state)
{
	struct held *h = *state;
	struct cfg_params p = {0};
	struct hil_config cfg_o2, cfg_os;
	struct two_images *im = calloc(1, sizeof(*im));
	struct e2e_capture cap;
	char root[HIL_PATH], dir[HIL_PATH], log[HIL_PATH + 16];
	char msg[8192];
	int ret;

	assert_non_null(im);
	h->mem = im;
	assert_int_equal(hil_build_find_root(root, sizeof(root)), HIL_OK);
	snprintf(dir, sizeof(dir), "%s/t8", tmp_root);
	e2e_make_dir(dir);
	snprintf(log, sizeof(log), "%s/build.log", dir);

	p.opt = "-O2";
	make_config(&cfg_o2, &p);
	p.opt = "-Os";
	make_config(&cfg_os, &p);
	assert_int_equal(hil_build_firmware(&cfg_o2, root, log, NULL, &im->o2),
			 HIL_OK);
	assert_int_equal(hil_build_firmware(&cfg_os, root, log, NULL, &im->os),
			 HIL_OK);
	assert_string_not_equal(im->o2.elf, im->os.elf);
	assert_int_equal(hil_elf_info(im->o2.elf, &im->ei_o2), HIL_OK);
	assert_int_equal(hil_elf_info(im->os.elf, &im->ei_os), HIL_OK);
	assert_string_not_equal(im->ei_o2.build_id_hex, im->ei_os.build_id_hex);

	/* QEMU runs the -Os image... */
	e2e_qemu_open_elf(dir, im->os.elf, 500, HANDSHAKE_MS, &h->fl, &h->link,
			  &h->s, &im->run.info);

	/* ...and the run believes it built the -O2 one. */
	assert_int_equal(hil_firmware_copy(&im->run.fw, &im->o2), HIL_OK);
	snprintf(im->run.build_id, sizeof(im->run.build_id), "%s",
		 im->ei_o2.build_id_hex);
	e2e_capture_begin(&cap, tmp_root);
	ret = hil_runner_identify(&im->run);
	e2e_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_MISMATCH);
	e2e_assert_contains(msg, im->ei_o2.build_id_hex);
	e2e_assert_contains(msg, im->ei_os.build_id_hex);

	/* The right id is accepted: the refusal was about the id alone. */
	snprintf(im->run.build_id, sizeof(im->run.build_id), "%s",
		 im->ei_os.build_id_hex);
	assert_int_equal(hil_runner_identify(&im->run), HIL_OK);

	/* The stub said protocol 3; one that says another is refused with
	 * what to do (a protocol 2 stub's CRC-8 frames never get this far:
	 * test_session.c, test_handshake_refuses_a_protocol_2_stub_clearly). */
	assert_int_equal(im->run.info.protocol, HILP_PROTOCOL_VERSION);
	im->run.info.protocol = HILP_PROTOCOL_VERSION - 1;
	e2e_capture_begin(&cap, tmp_root);
	ret = hil_runner_identify(&im->run);
	e2e_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_MISMATCH);
	e2e_assert_contains(msg, "the stub speaks protocol 2, hilrun 3");
	e2e_assert_contains(msg, "rebuild the firmware");
	hil_run_free(&im->run);
	hil_firmware_free(&im->o2);
	hil_firmware_free(&im->os);
	hil_config_free(&cfg_o2);
	hil_config_free(&cfg_os);
}

static void test_missing_qemu_binary_is_a_clear_error(void **state)
{
	const char *program = "/nonexistent/qemu-system-arm";
	struct cfg_params p = {.program = program};
	struct hil_config cfg = {0};
	struct held *h = *state;
	struct hil_run *run = calloc(1, sizeof(*run));
	struct hil_runner_opts opts;
	struct hil_target_conn conn;
	struct e2e_capture cap;
	char msg[16384];
	int ret;

	assert_non_null(run);
	h->mem = run;
	make_config(&cfg, &p);
	assert_string_equal(cfg.flasher.program, program);
	snprintf(run->dir, sizeof(run->dir), "%s/t9", tmp_root);
	e2e_make_dir(run->dir);
	run->cfg = &cfg;
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = tmp_root;

	e2e_capture_begin(&cap, tmp_root);
	ret = hil_runner_bring_up(&cfg, &opts, run, &conn);
	hil_runner_take_down(&conn, run);
	e2e_capture_end(&cap, msg, sizeof(msg));
	assert_int_not_equal(ret, HIL_OK);
	assert_int_equal(ret, HIL_ERR_NA);
	e2e_assert_contains(msg, program);
	assert_int_equal(e2e_count_qemu(run->dir, NULL), 0);
	hil_run_free(run);
	hil_config_free(&cfg);
}

static void test_bad_elf_is_a_clear_error(void **state)
{
	struct held *h = *state;
	struct hil_flasher_params fp;
	struct e2e_capture cap;
	char dir[HIL_PATH], text[HIL_PATH + 16], msg[8192];
	FILE *f;
	int ret;

	snprintf(dir, sizeof(dir), "%s/t10", tmp_root);
	e2e_make_dir(dir);
	snprintf(text, sizeof(text), "%s/notes.txt", dir);
	f = fopen(text, "w");
	assert_non_null(f);
	fputs("this is not firmware\n", f);
	fclose(f);

	memset(&fp, 0, sizeof(fp));
	fp.run_dir = dir;
	assert_int_equal(hil_flasher_open(&h->fl, "qemu", &fp), HIL_OK);
	e2e_capture_begin(&cap, tmp_root);
	ret = hil_flasher_start(h->fl, text);
	e2e_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_ARG);
	e2e_assert_contains(msg, text);
	e2e_assert_contains(msg, "not an ELF");
	assert_int_equal(hil_flasher_check(h->fl), HIL_ERR_NA);
	assert_int_equal(e2e_count_qemu(dir, NULL), 0);
}

static void test_no_qemu_survives_a_killed_hilrun(void **state)
{
	/* Long enough that hilrun is still measuring when it is killed. */
	struct cfg_params p = {.runs = 1000, .lengths = "1024, 2048"};
	const char *bin = getenv("HILRUN_BIN");
	char results[HIL_PATH], conf[HIL_PATH + 16], log[HIL_PATH + 16];
	char json[2048];
	struct held *h = *state;
	uint64_t deadline;
	int status = -1;
	FILE *f;

	if (bin == NULL || bin[0] == '\0') {
		fprintf(stderr, "e2e: HILRUN_BIN is not set\n");
		skip();
	}
	snprintf(results, sizeof(results), "%s/r11", tmp_root);
	snprintf(conf, sizeof(conf), "%s/kill.json", tmp_root);
	snprintf(log, sizeof(log), "%s/kill.log", tmp_root);
	p.results = results;
	config_json(json, sizeof(json), &p);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	{
		char *const argv[] = {(char *)bin, "--config", conf,
				      "--results", results,    NULL};

		assert_int_equal(hil_proc_spawn(&h->child, argv, log), HIL_OK);
	}

	/* Wait for hilrun's QEMU to appear (it builds first: bounded). */
	deadline = e2e_ms_now() + 60000u;
	while (e2e_count_qemu(results, NULL) == 0) {
		if (!hil_proc_alive(h->child) || e2e_ms_now() >= deadline) {
			fail_msg("hilrun started no QEMU (see %s)", log);
		}
		e2e_sleep_ms(5);
	}

	/* SIGKILL hilrun alone, not its process group: nothing cleans up. */
	assert_int_equal(kill(hil_proc_pid(h->child), SIGKILL), 0);
	assert_int_equal(hil_proc_wait(h->child, 5000, &status), HIL_OK);
	assert_int_equal(status, 128 + SIGKILL);
	assert_true(e2e_qemu_gone(results, NULL, E2E_HANG_MS));
}

/* ---------------------------------------------------------------- main */

int main(void)
{
	const struct CMUnitTest runs[] = {
		cmocka_unit_test_teardown(
			test_run_writes_report_with_required_keys,
			no_qemu_left),
		cmocka_unit_test_teardown(test_two_runs_give_identical_medians,
					  no_qemu_left),
	};
	const struct CMUnitTest on_shared_target[] = {
		cmocka_unit_test_teardown(test_kat_sample_matches_on_target,
					  only_shared_qemu),
		cmocka_unit_test_teardown(
			test_stub_rejects_requests_beyond_its_buffers,
			only_shared_qemu),
		cmocka_unit_test_teardown(
			test_stub_rejects_corrupted_truncated_and_oversized_frames,
			only_shared_qemu),
		cmocka_unit_test_teardown(
			test_energy_window_counts_the_whole_loop,
			only_shared_qemu),
	};
	const struct CMUnitTest own_target[] = {
		cmocka_unit_test_setup_teardown(
			test_session_recovers_from_a_corrupting_link,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_silent_target_times_out_with_a_clear_error,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_build_id_mismatch_is_refused, held_setup,
			held_teardown),
		cmocka_unit_test_setup_teardown(
			test_missing_qemu_binary_is_a_clear_error, held_setup,
			held_teardown),
		cmocka_unit_test_setup_teardown(test_bad_elf_is_a_clear_error,
						held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_no_qemu_survives_a_killed_hilrun, held_setup,
			held_teardown),
	};
	int failed = 0;

	if (e2e_main_begin(NULL, 0, tmp_root, sizeof(tmp_root),
			   "/tmp/e2e-qemu-XXXXXX") != 0) {
		return 1;
	}

	failed += cmocka_run_group_tests_name("e2e_qemu: whole runs", runs,
					      NULL, NULL);
	failed += cmocka_run_group_tests_name("e2e_qemu: one shared target",
					      on_shared_target, shared_up,
					      shared_down);
	failed += cmocka_run_group_tests_name("e2e_qemu: a target per test",
					      own_target, NULL, NULL);

	return e2e_main_end(tmp_root, failed);
}
