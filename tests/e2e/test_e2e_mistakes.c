/* test_e2e_mistakes: classic benchmarking mistakes committed on purpose under QEMU, each caught or isolated by hilrun. */
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

#include "drivers/flasher/flasher.h"
#include "image/build.h"
#include "config/config.h"
#include "image/elfinfo.h"
#include "e2e_util.h"
#include "util/err.h"
#include "drivers/link/link.h"
#include "util/proc.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/session.h"
#include "util/util.h"

/*
 * The fixtures (tests/fixtures/<name>/, each with a comment saying what it
 * gets wrong) are named relative to the source tree, which is also the
 * base_dir of every configuration here: "path" is resolved against it.
 */
#define LAZY_DIR     "tests/fixtures/lazy-ascon"
#define NOISY_DIR    "tests/fixtures/noisy-ascon"
#define SLOW_KS_DIR  "tests/fixtures/slow-keysetup"
#define AEAD	     "ascon-aead128"
#define BLOCK	     "speck64-128-ecb"
#define HANDSHAKE_MS 10000u
#define RUN_NAME     "e2e-mistakes" /* images of equal flags are shared */

/* The mkdtemp() root of everything this file writes; removed at the end. */
static char tmp_root[64];

/* The hilrun source tree (HILRUN_ROOT, or found from this executable). */
static char src_root[HIL_PATH];

/* ---------------------------------------------------------------- helpers */

/* ------------------------------------------------- configurations, runs */

/* What varies between the configurations of this file. */
struct cfg_params {
	const char *algs;	/* the "algorithms" array, without brackets */
	const char *cflags;	/* the "cflags" array, without brackets */
	const char *operations; /* "\"encrypt\"" when NULL */
	unsigned runs;
	const char *results; /* results_dir */
};

/*
 * The JSON of a small QEMU configuration. Every one is named RUN_NAME, so
 * that images of the same flags and algorithms are built once and shared
 * (hilrun names the image folder after the name and what goes into it).
 */
static void config_json(char *buf, size_t len, const struct cfg_params *p)
{
	int n = snprintf(
		buf, len,
		"{ \"name\": \"" RUN_NAME "\","
		" \"board\": { \"name\": \"qemu-netduino\" },"
		" \"flasher\": { \"type\": \"qemu\" },"
		" \"link\": { \"type\": \"socket\" },"
		" \"build\": { \"cflags\": [%s] },"
		" \"algorithms\": [%s],"
		" \"bench\": { \"operations\": [%s], \"lengths\": [16, 64],"
		" \"ad_lengths\": [0], \"runs\": %u, \"warmup\": 2, \"seed\": 1 },"
		" \"results_dir\": \"%s\" }",
		p->cflags != NULL ? p->cflags : "\"-O2\"", p->algs,
		p->operations != NULL ? p->operations : "\"encrypt\"", p->runs,
		p->results);

	assert_true(n > 0 && (size_t)n < len);
}

/* Parse p; an external "path" is resolved against the source tree. */
static void make_config(struct hil_config *cfg, const struct cfg_params *p)
{
	char json[4096];
	char err[1024] = "";
	int ret;

	config_json(json, sizeof(json), p);
	ret = hil_config_parse(json, src_root, cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		fail_msg("config rejected: %s\n%s", err, json);
	}
}

/* tmp_root/sub, created; the results folder of one test. */
static void results_dir(char *buf, size_t len, const char *sub)
{
	snprintf(buf, len, "%s/%s", tmp_root, sub);
	e2e_make_dir(buf);
}

/* One whole hilrun walk of cfg; @return its result. */
static int run_config(const struct hil_config *cfg, const char *results,
		      struct hil_run *run)
{
	struct hil_runner_opts opts;

	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results;
	return hil_runner_run(cfg, &opts, run);
}

/* What a test holds, released by its teardown also when an assertion
 * stops the test half-way. */
struct held {
	struct hil_session *s;
	struct hil_link *link;
	struct hil_flasher *fl;
	struct hil_run *runs[3]; /* freed with hil_run_free */
	cJSON *reports[3];
	void *mem;
	/* What mem holds is freed first by this, when set (configurations'
	 * algorithms, firmware lists). */
	void (*mem_free)(void *mem);
	size_t n_cfgs; /* mem is that many configurations, when not 0 */
};

static int held_setup(void **state)
{
	*state = calloc(1, sizeof(struct held));
	return *state != NULL ? 0 : -1;
}

/* Teardown: everything released, and no emulator of ours survives. */
static int held_teardown(void **state)
{
	struct held *h = *state;
	size_t i;

	if (h != NULL) {
		hil_session_close(h->s);
		hil_link_close(h->link);
		hil_flasher_close(h->fl);
		for (i = 0; i < 3; i++) {
			if (h->runs[i] != NULL) {
				hil_run_free(h->runs[i]);
				free(h->runs[i]);
			}
			cJSON_Delete(h->reports[i]);
		}
		for (i = 0; h->mem != NULL && i < h->n_cfgs; i++) {
			hil_config_free(&((struct hil_config *)h->mem)[i]);
		}
		if (h->mem != NULL && h->mem_free != NULL) {
			h->mem_free(h->mem);
		}
		free(h->mem);
		free(h);
		*state = NULL;
	}
	return e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS) ? 0 : -1;
}

/* A zeroed run in slot i of h, freed by the teardown. */
static struct hil_run *held_run(struct held *h, size_t i)
{
	h->runs[i] = calloc(1, sizeof(struct hil_run));
	assert_non_null(h->runs[i]);
	return h->runs[i];
}

/* ---------------------------------------------------------- report.json */

static int need_bool(const cJSON *o, const char *key)
{
	const cJSON *it = e2e_need(o, key);

	if (!cJSON_IsBool(it)) {
		fail_msg("report.json: \"%s\" is not a boolean", key);
	}
	return cJSON_IsTrue(it);
}

/* The report.json of a finished run, parsed (held in slot i of h). */
static const cJSON *load_report(struct held *h, size_t i,
				const struct hil_run *run)
{
	char path[HIL_PATH + 32];
	char *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/report.json", run->dir);
	assert_int_equal(hil_read_file(path, &text, &len), HIL_OK);
	h->reports[i] = cJSON_Parse(text);
	free(text);
	if (h->reports[i] == NULL) {
		fail_msg("%s is not JSON", path);
	}
	return h->reports[i];
}

/* The report's row of impl's op at msg_len (the only one), or a failure. */
static const cJSON *row_of(const cJSON *report, const char *alg,
			   const char *impl, const char *op, double msg_len)
{
	const cJSON *row, *found = NULL;

	cJSON_ArrayForEach(row, e2e_need(report, "rows"))
	{
		if (strcmp(e2e_need_str(row, "algorithm"), alg) == 0 &&
		    strcmp(e2e_need_str(row, "implementation"), impl) == 0 &&
		    strcmp(e2e_need_str(row, "operation"), op) == 0 &&
		    e2e_need_num(row, "msg_len") == msg_len) {
			if (found != NULL) {
				fail_msg("two rows for %s/%s %s %.0f", alg,
					 impl, op, msg_len);
			}
			found = row;
		}
	}
	if (found == NULL) {
		fail_msg("no row for %s/%s %s %.0f bytes", alg, impl, op,
			 msg_len);
	}
	return found;
}

/* How many rows the report has for alg/impl. */
static int rows_of(const cJSON *report, const char *alg, const char *impl)
{
	const cJSON *row;
	int n = 0;

	cJSON_ArrayForEach(row, e2e_need(report, "rows"))
	{
		if (strcmp(e2e_need_str(row, "algorithm"), alg) == 0 &&
		    strcmp(e2e_need_str(row, "implementation"), impl) == 0) {
			n++;
		}
	}
	return n;
}

/* A row that was measured, verified, and whose digest matched. */
static void assert_row_ok(const cJSON *row)
{
	if (strcmp(e2e_need_str(row, "status"), "ok") != 0 ||
	    !need_bool(row, "verified") ||
	    !need_bool(e2e_need(row, "digest"), "match")) {
		fail_msg("%s/%s %s %.0f bytes is not ok: %s",
			 e2e_need_str(row, "algorithm"),
			 e2e_need_str(row, "implementation"),
			 e2e_need_str(row, "operation"),
			 e2e_need_num(row, "msg_len"),
			 cJSON_GetObjectItemCaseSensitive(row, "error") != NULL
				 ? e2e_need_str(row, "error")
				 : "(no error)");
	}
}

/* The row's samples agree with its statistics: runs of them, min..max. */
static void assert_samples(const cJSON *row, unsigned runs)
{
	const cJSON *samples = e2e_need(row, "samples");
	const cJSON *s;
	double min = e2e_need_num(row, "min"), max = e2e_need_num(row, "max");

	assert_int_equal(cJSON_GetArraySize(samples), runs);
	cJSON_ArrayForEach(s, samples)
	{
		assert_true(cJSON_IsNumber(s));
		assert_true(s->valuedouble >= min && s->valuedouble <= max);
	}
}

/* QEMU is deterministic: every sample of a quiet implementation is equal. */
static void assert_no_spread(const cJSON *row)
{
	double median = e2e_need_num(row, "median");
	const cJSON *ci = e2e_need(row, "ci95");

	assert_true(e2e_need_num(row, "stddev") == 0);
	assert_true(e2e_need_num(row, "mad") == 0);
	assert_true(e2e_need_num(row, "outliers") == 0);
	assert_true(e2e_need_num(row, "min") == median);
	assert_true(e2e_need_num(row, "max") == median);
	assert_int_equal(cJSON_GetArraySize(ci), 2);
	assert_true(cJSON_GetArrayItem(ci, 0)->valuedouble == median);
	assert_true(cJSON_GetArrayItem(ci, 1)->valuedouble == median);
}

/* ---------------------------------------------- mistake 1: memoisation */

/*
 * The lazy fixture returns at once, writing nothing, when it is called
 * again with the same buffers and lengths: what a compiler makes of a
 * benchmark loop whose output nobody reads. Verification (lengths change
 * from call to call) cannot see it; the poisoned output buffer and the
 * digest of every output can.
 */
static void test_lazy_implementation_fails_the_digest_check(void **state)
{
	struct held *h = *state;
	struct cfg_params p = {
		.algs = "\"" AEAD "\", { \"name\": \"" AEAD "\","
			" \"impl\": \"lazy\", \"path\": \"" LAZY_DIR "\" }",
		.runs = 20,
	};
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = held_run(h, 0);
	const cJSON *report, *ref_row, *lazy_row;
	char results[HIL_PATH], want_path[HIL_PATH + 64];
	char msg[65536];
	static const double lens[] = {16, 64};
	struct e2e_capture cap;
	size_t i;
	int ret;

	assert_non_null(cfg);
	h->mem = cfg;
	h->n_cfgs = 1;
	results_dir(results, sizeof(results), "t1");
	p.results = results;
	make_config(cfg, &p);
	/* "path" was taken relative to the base_dir given to the parser. */
	snprintf(want_path, sizeof(want_path), "%s/%s", src_root, LAZY_DIR);
	assert_string_equal(cfg->algs[1].path, want_path);

	e2e_capture_begin(&cap, tmp_root);
	ret = run_config(cfg, results, run);
	e2e_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_VERIFY);
	e2e_assert_contains(msg, AEAD "/lazy encrypt 16 bytes: output digest");
	e2e_assert_contains(msg, AEAD "/lazy encrypt 64 bytes: output digest");
	assert_null(strstr(msg, AEAD "/ref encrypt 16 bytes"));
	assert_null(strstr(msg, AEAD "/ref encrypt 64 bytes"));

	report = load_report(h, 0, run);
	/* Everything was measured; two of the rows are not to be trusted. */
	assert_string_equal(e2e_need_str(e2e_need(report, "run"), "status"),
			    "complete");
	assert_int_equal(cJSON_GetArraySize(e2e_need(report, "rows")), 4);
	assert_int_equal(rows_of(report, AEAD, "lazy"), 2);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		const cJSON *d;

		ref_row = row_of(report, AEAD, "ref", "encrypt", lens[i]);
		lazy_row = row_of(report, AEAD, "lazy", "encrypt", lens[i]);

		/* The reference in the same image and run is unaffected. */
		assert_row_ok(ref_row);
		assert_no_spread(ref_row);

		/* It passed verification (so it was measured at all)... */
		assert_true(need_bool(lazy_row, "verified"));
		/* ...and every row of it failed on the digest. */
		assert_string_equal(e2e_need_str(lazy_row, "status"), "failed");
		d = e2e_need(lazy_row, "digest");
		assert_false(need_bool(d, "match"));
		assert_true(e2e_is_hex(e2e_need_str(d, "expected"), 8));
		assert_true(e2e_is_hex(e2e_need_str(d, "measured"), 8));
		assert_string_not_equal(e2e_need_str(d, "expected"),
					e2e_need_str(d, "measured"));
		e2e_assert_contains(e2e_need_str(lazy_row, "error"),
				    e2e_need_str(d, "expected"));
		e2e_assert_contains(e2e_need_str(lazy_row, "error"),
				    e2e_need_str(d, "measured"));
		/* The figure it would have had reported: free encryption,
		 * whatever the length. Its samples stay in the report. */
		assert_samples(lazy_row, p.runs);
		assert_true(e2e_need_num(lazy_row, "median") * 10 <
			    e2e_need_num(ref_row, "median"));
		/* The host computed what the reference measured. */
		assert_string_equal(
			e2e_need_str(e2e_need(ref_row, "digest"), "expected"),
			e2e_need_str(d, "expected"));
	}
	/* The run's own model says the same. */
	for (i = 0; i < run->n_rows; i++) {
		int lazy = strcmp(run->rows[i].implementation, "lazy") == 0;

		assert_int_equal(run->rows[i].ok, !lazy);
		assert_true(run->rows[i].verified);
	}
}

/*
 * The same mistake through the command line: the exit status is 1, "some
 * rows failed", whatever figures the table shows.
 */
static void test_lazy_implementation_makes_hilrun_exit_1(void **state)
{
	const char *bin = getenv("HILRUN_BIN");
	struct held *h = *state;
	char results[HIL_PATH], conf[HIL_PATH + 32], log[HIL_PATH + 32];
	char algs[HIL_PATH + 128], json[HIL_PATH + 4096];
	struct cfg_params p = {.runs = 20};
	const cJSON *report;
	struct hil_run *latest = held_run(h, 0);
	int status = -1;
	FILE *f;

	if (bin == NULL || bin[0] == '\0') {
		fprintf(stderr, "e2e: HILRUN_BIN is not set\n");
		skip();
	}
	results_dir(results, sizeof(results), "t1b");
	/* A file anywhere: the folder is named by its absolute path. */
	snprintf(algs, sizeof(algs),
		 "{ \"name\": \"" AEAD "\", \"impl\": \"lazy\","
		 " \"path\": \"%s/" LAZY_DIR "\" }",
		 src_root);
	p.algs = algs;
	p.results = results;
	config_json(json, sizeof(json), &p);
	snprintf(conf, sizeof(conf), "%s/lazy.json", results);
	snprintf(log, sizeof(log), "%s/hilrun.log", results);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	{
		char *const argv[] = {(char *)bin, "--config", conf,
				      "--results", results,    NULL};

		assert_int_equal(hil_proc_run(argv, log, 120000, &status),
				 HIL_OK);
	}
	if (status != 1) {
		fail_msg("hilrun exited %d, not 1 (see %s)", status, log);
	}
	snprintf(latest->dir, sizeof(latest->dir), "%s/latest", results);
	report = load_report(h, 0, latest);
	assert_string_equal(
		e2e_need_str(row_of(report, AEAD, "lazy", "encrypt", 16),
			     "status"),
		"failed");
	assert_string_equal(
		e2e_need_str(row_of(report, AEAD, "lazy", "encrypt", 64),
			     "status"),
		"failed");
}

/* --------------------------------------------- mistake 2: stale images */

/* The images and runs of the stale-image test. */
struct stale {
	struct hil_config o2, os;
	struct hil_firmware fw_o2, fw_os;
	struct hil_elf_info ei_o2, ei_os;
	struct hil_run board; /* what hilrun believes it flashed */
};

/* What the stale-image test's state owns, freed (the teardown's). */
static void stale_free(void *mem)
{
	struct stale *st = mem;

	hil_config_free(&st->o2);
	hil_config_free(&st->os);
	hil_firmware_free(&st->fw_o2);
	hil_firmware_free(&st->fw_os);
	hil_run_free(&st->board);
}

static void stale_params(struct cfg_params *p, const char *results,
			 const char *cflags)
{
	memset(p, 0, sizeof(*p));
	p->algs = "\"" BLOCK "\"";
	p->cflags = cflags;
	p->runs = 20;
	p->results = results;
}

/*
 * Yesterday's image is still on the board: the configuration now says
 * -O2, but the board runs the -Os image of the previous run. Measuring it
 * would attribute -Os figures to -O2. hilrun reads the GNU build-id of the
 * image it built and refuses a stub that reports another one, before any
 * measurement; and two runs whose images differ never share a build-id.
 */
static void test_stale_image_is_refused_before_measuring(void **state)
{
	struct held *h = *state;
	struct stale *st = calloc(1, sizeof(*st));
	struct hil_run *run_o2 = held_run(h, 0);
	struct hil_run *run_os = held_run(h, 1);
	struct cfg_params p;
	struct e2e_capture cap;
	const cJSON *b_o2, *b_os;
	char results[HIL_PATH], dir[HIL_PATH + 16], log[HIL_PATH + 32];
	char msg[16384];
	int ret;

	assert_non_null(st);
	h->mem = st;
	h->mem_free = stale_free;
	results_dir(results, sizeof(results), "t2");
	stale_params(&p, results, "\"-O2\"");
	make_config(&st->o2, &p);
	stale_params(&p, results, "\"-Os\"");
	make_config(&st->os, &p);

	/* Monday: a -O2 run. Tuesday: the flags change, a -Os run. */
	assert_int_equal(run_config(&st->o2, results, run_o2), HIL_OK);
	assert_int_equal(run_config(&st->os, results, run_os), HIL_OK);
	b_o2 = e2e_need(load_report(h, 0, run_o2), "build");
	b_os = e2e_need(load_report(h, 1, run_os), "build");
	assert_true(e2e_is_hex(e2e_need_str(b_o2, "build_id"), 40));
	assert_true(e2e_is_hex(e2e_need_str(b_os, "build_id"), 40));
	/* Rebuilt from other flags: another image, another identity. */
	assert_string_not_equal(e2e_need_str(b_o2, "build_id"),
				e2e_need_str(b_os, "build_id"));
	assert_string_not_equal(e2e_need_str(b_o2, "elf_sha256"),
				e2e_need_str(b_os, "elf_sha256"));
	assert_string_not_equal(e2e_need_str(b_o2, "elf"),
				e2e_need_str(b_os, "elf"));

	/* Wednesday: the configuration says -O2 again. Building it gives
	 * back Monday's image, untouched by Tuesday's build. */
	snprintf(log, sizeof(log), "%s/build.log", results);
	assert_int_equal(
		hil_build_firmware(&st->o2, src_root, log, NULL, &st->fw_o2),
		HIL_OK);
	assert_int_equal(
		hil_build_firmware(&st->os, src_root, log, NULL, &st->fw_os),
		HIL_OK);
	assert_string_equal(st->fw_o2.elf, e2e_need_str(b_o2, "elf"));
	assert_string_equal(st->fw_os.elf, e2e_need_str(b_os, "elf"));
	assert_int_equal(hil_elf_info(st->fw_o2.elf, &st->ei_o2), HIL_OK);
	assert_int_equal(hil_elf_info(st->fw_os.elf, &st->ei_os), HIL_OK);
	assert_string_equal(st->ei_o2.build_id_hex,
			    e2e_need_str(b_o2, "build_id"));
	assert_string_equal(st->ei_os.build_id_hex,
			    e2e_need_str(b_os, "build_id"));
	assert_string_equal(st->ei_o2.sha256_hex,
			    e2e_need_str(b_o2, "elf_sha256"));

	/* ...but the board still runs Tuesday's -Os image. */
	snprintf(dir, sizeof(dir), "%s/board", results);
	e2e_make_dir(dir);
	e2e_qemu_open_elf(dir, st->fw_os.elf, 2000, HANDSHAKE_MS, &h->fl,
			  &h->link, &h->s, &st->board.info);

	/* hilrun knows what it built: -O2. The stub says otherwise. */
	assert_int_equal(hil_firmware_copy(&st->board.fw, &st->fw_o2), HIL_OK);
	snprintf(st->board.build_id, sizeof(st->board.build_id), "%s",
		 st->ei_o2.build_id_hex);
	e2e_capture_begin(&cap, tmp_root);
	ret = hil_runner_identify(&st->board);
	e2e_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_MISMATCH);
	e2e_assert_contains(msg, st->ei_os.build_id_hex); /* what runs */
	e2e_assert_contains(msg, st->ei_o2.build_id_hex); /* what was built */
	e2e_assert_contains(msg, st->fw_o2.elf);

	/* The stub is alive and well: the refusal is about identity alone. */
	snprintf(st->board.build_id, sizeof(st->board.build_id), "%s",
		 st->ei_os.build_id_hex);
	assert_int_equal(hil_runner_identify(&st->board), HIL_OK);
}

/* ---------------------------------------- mistake 3: key setup inside */

/*
 * The fixture is Speck64/128 with a key setup padded by some 20000 turns of
 * useless work (outputs unchanged). Timing key setup inside every
 * encryption would charge all of that to each message. hilrun measures it
 * in a row of its own and expands the key outside the timed region of the
 * encrypt rows, which are then those of the reference.
 */
static void test_key_setup_appears_only_in_its_own_row(void **state)
{
	struct held *h = *state;
	struct cfg_params p = {
		.algs = "\"" BLOCK "\", { \"name\": \"" BLOCK "\","
			" \"impl\": \"slow\", \"path\": \"" SLOW_KS_DIR "\" }",
		.runs = 20,
	};
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = held_run(h, 0);
	static const double lens[] = {16, 64};
	const cJSON *report, *ks_slow, *ks_ref;
	char results[HIL_PATH];
	size_t i;

	assert_non_null(cfg);
	h->mem = cfg;
	h->n_cfgs = 1;
	results_dir(results, sizeof(results), "t3");
	p.results = results;
	make_config(cfg, &p);
	assert_int_equal(run_config(cfg, results, run), HIL_OK);
	report = load_report(h, 0, run);

	/* Per implementation: encrypt at 16 and 64 bytes, and key setup. */
	assert_int_equal(cJSON_GetArraySize(e2e_need(report, "rows")), 6);
	assert_int_equal(rows_of(report, BLOCK, "slow"), 3);
	ks_slow = row_of(report, BLOCK, "slow", "keysetup", 0);
	ks_ref = row_of(report, BLOCK, "ref", "keysetup", 0);
	assert_row_ok(ks_slow);
	assert_row_ok(ks_ref);
	assert_samples(ks_slow, p.runs);
	assert_true(cJSON_IsNull(e2e_need(ks_slow, "per_byte")));

	/* The padding is all in the keysetup row... */
	assert_true(e2e_need_num(ks_slow, "median") > 20000);
	assert_true(e2e_need_num(ks_ref, "median") < 1000);

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		const cJSON *enc_slow =
			row_of(report, BLOCK, "slow", "encrypt", lens[i]);
		const cJSON *enc_ref =
			row_of(report, BLOCK, "ref", "encrypt", lens[i]);
		double slow = e2e_need_num(enc_slow, "median");
		double ref = e2e_need_num(enc_ref, "median");

		assert_row_ok(enc_slow);
		assert_row_ok(enc_ref);
		assert_no_spread(enc_slow);
		/* ...and none of it in an encryption: the same code as the
		 * reference, the same count within a few instructions. */
		if (fabs(slow - ref) > 4) {
			fail_msg(
				"encrypt %.0f bytes: %.0f instructions, the reference %.0f",
				lens[i], slow, ref);
		}
		if (lens[i] == 16) {
			assert_true(slow < 1000);
		}
		assert_true(slow < e2e_need_num(ks_slow, "median") / 10);
	}
}

/* ------------------------------------------------- mistake 4: noise */

/*
 * The noisy fixture is a correct Ascon-AEAD128 that burns some 3000 loop
 * turns on every 7th call, as an interrupt or a cache refill would on a
 * board. One timed run, or a mean of a few, would report noise. hilrun
 * keeps every sample and its spread: the standard deviation, the range and
 * the outlier count expose the noise, while the median and MAD (robust
 * against a minority of slow runs) stay those of a quiet call.
 */
static void test_noisy_implementation_shows_spread_and_outliers(void **state)
{
	struct held *h = *state;
	const unsigned runs = 50, every = 7;
	struct cfg_params p = {
		.algs = "\"" AEAD "\", { \"name\": \"" AEAD "\","
			" \"impl\": \"noisy\", \"path\": \"" NOISY_DIR "\" }",
		.operations = "\"encrypt\", \"decrypt\"",
		.runs = runs,
	};
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = held_run(h, 0);
	static const char *const ops[] = {"encrypt", "decrypt"};
	static const double lens[] = {16, 64};
	const cJSON *report;
	char results[HIL_PATH];
	size_t o, i;

	assert_non_null(cfg);
	h->mem = cfg;
	h->n_cfgs = 1;
	results_dir(results, sizeof(results), "t4");
	p.results = results;
	make_config(cfg, &p);
	/* Noise is not an error: the outputs are right. */
	assert_int_equal(run_config(cfg, results, run), HIL_OK);
	report = load_report(h, 0, run);
	assert_int_equal(cJSON_GetArraySize(e2e_need(report, "rows")), 8);

	for (o = 0; o < 2; o++) {
		for (i = 0; i < 2; i++) {
			const cJSON *noisy =
				row_of(report, AEAD, "noisy", ops[o], lens[i]);
			const cJSON *ref =
				row_of(report, AEAD, "ref", ops[o], lens[i]);
			double median = e2e_need_num(noisy, "median");
			double min = e2e_need_num(noisy, "min");
			double max = e2e_need_num(noisy, "max");
			double outliers = e2e_need_num(noisy, "outliers");
			const cJSON *ci = e2e_need(noisy, "ci95");
			const cJSON *s;
			int k = 0, slow = 0, first = -1, last = -1;

			/* Deterministic emulator: the reference has no
			 * spread at all. */
			assert_row_ok(ref);
			assert_samples(ref, runs);
			assert_no_spread(ref);

			assert_row_ok(noisy);
			assert_samples(noisy, runs);
			/* The spread is there for everyone to see. */
			assert_true(e2e_need_num(noisy, "stddev") > 0);
			assert_true(max - min > 2500);
			assert_true(e2e_need_num(noisy, "mean") > median);
			/* One run in 7 is slow: 7 or 8 of 50, all flagged. */
			if (outliers < runs / every ||
			    outliers > runs / every + 1) {
				fail_msg("%s %.0f: %.0f outliers in %u runs",
					 ops[o], lens[i], outliers, runs);
			}
			/* The quiet runs are the majority: they are the
			 * minimum, the median, the whole 95% interval of the
			 * median, and (all equal) MAD is 0. */
			assert_true(min == median);
			assert_true(e2e_need_num(noisy, "mad") == 0);
			assert_true(cJSON_GetArrayItem(ci, 0)->valuedouble ==
				    median);
			assert_true(cJSON_GetArrayItem(ci, 1)->valuedouble ==
				    median);
			/* A quiet call is the reference plus the counter. */
			assert_true(median >= e2e_need_num(ref, "median"));
			assert_true(median <= e2e_need_num(ref, "median") + 64);

			/* The raw samples show the period: the slow ones are
			 * exactly 7 apart, and they are the outliers. */
			cJSON_ArrayForEach(s, e2e_need(noisy, "samples"))
			{
				if (s->valuedouble != median) {
					assert_true(s->valuedouble >
						    median + 2500);
					if (last >= 0) {
						assert_int_equal(k - last,
								 every);
					} else {
						first = k;
					}
					last = k;
					slow++;
				}
				k++;
			}
			assert_true(first >= 0 && first < (int)every);
			assert_int_equal(slow, (int)outliers);
		}
	}
}

/* ----------------------------------------- mistake 5: unrecorded flags */

/*
 * Two figures from images built with different flags, compared as if they
 * were one: one extra flag changes what is measured. Every report records
 * the flags and the image's identity, so two builds can be told apart.
 */
static void test_one_flag_changes_cflags_and_build_id(void **state)
{
	struct held *h = *state;
	struct cfg_params p = {.algs = "\"" BLOCK "\"", .runs = 20};
	struct hil_config *cfg = calloc(2, sizeof(*cfg));
	static const char *const cflags[2] = {"\"-O2\"",
					      "\"-O2\", \"-funroll-loops\""};
	const cJSON *build[2], *flags, *row;
	char results[HIL_PATH];
	size_t i;

	assert_non_null(cfg);
	h->mem = cfg;
	h->n_cfgs = 2;
	results_dir(results, sizeof(results), "t5");
	p.results = results;
	for (i = 0; i < 2; i++) {
		struct hil_run *run = held_run(h, i);
		const cJSON *report;

		p.cflags = cflags[i];
		make_config(&cfg[i], &p);
		assert_int_equal(run_config(&cfg[i], results, run), HIL_OK);
		report = load_report(h, i, run);
		build[i] = e2e_need(report, "build");
		assert_string_equal(
			e2e_need_str(e2e_need(report, "run"), "status"),
			"complete");
		/* Both measured, verified, digests matched. */
		assert_int_equal(cJSON_GetArraySize(e2e_need(report, "rows")),
				 3);
		cJSON_ArrayForEach(row, e2e_need(report, "rows"))
		{
			assert_row_ok(row);
		}
	}

	/* The flags as configured... */
	flags = e2e_need(build[0], "cflags");
	assert_int_equal(cJSON_GetArraySize(flags), 1);
	assert_string_equal(cJSON_GetArrayItem(flags, 0)->valuestring, "-O2");
	flags = e2e_need(build[1], "cflags");
	assert_int_equal(cJSON_GetArraySize(flags), 2);
	assert_string_equal(cJSON_GetArrayItem(flags, 0)->valuestring, "-O2");
	assert_string_equal(cJSON_GetArrayItem(flags, 1)->valuestring,
			    "-funroll-loops");
	/* ...as the compiler got them... */
	assert_null(
		strstr(e2e_need_str(build[0], "all_flags"), "-funroll-loops"));
	assert_non_null(
		strstr(e2e_need_str(build[1], "all_flags"), "-funroll-loops"));
	/* ...and two images that cannot be mistaken for each other. */
	for (i = 0; i < 2; i++) {
		assert_true(e2e_is_hex(e2e_need_str(build[i], "build_id"), 40));
		assert_true(
			e2e_is_hex(e2e_need_str(build[i], "elf_sha256"), 64));
	}
	assert_string_not_equal(e2e_need_str(build[0], "build_id"),
				e2e_need_str(build[1], "build_id"));
	assert_string_not_equal(e2e_need_str(build[0], "elf_sha256"),
				e2e_need_str(build[1], "elf_sha256"));
	assert_string_not_equal(e2e_need_str(build[0], "directory"),
				e2e_need_str(build[1], "directory"));
}

/*
 * A mistake the runner finds in the configuration is kept with its
 * message (run.error) for the result files: a daemon's job result said only
 * "invalid configuration", the reason being in the daemon's log alone.
 */
static void test_a_config_mistake_is_kept_for_the_result(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char results[HIL_PATH], err[1024] = "";

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	results_dir(results, sizeof(results), "typo");
	assert_int_equal(
		hil_config_parse(
			"{\"name\": \"typo\", \"algorithms\": [\"ascon-aed128\"]}",
			src_root, cfg, err, sizeof(err)),
		HIL_OK);
	assert_int_equal(run_config(cfg, results, run), HIL_ERR_CONFIG);
	assert_non_null(strstr(run->error, "algorithms[0].name"));
	assert_non_null(strstr(run->error, "did you mean \"ascon-aead128\""));
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/*
 * A flag that stops the compiler from compiling (-fself-test=x: cc1 "self
 * tests are not enabled", objects of nothing) is a permanent mistake: refused
 * when the config loads (a flag allowlist), or at the latest when the image
 * turns out to hold no stub, a failed build (exit 2). It used to link a
 * 36-byte image that QEMU locked up on, read as a board that did not
 * answer: exit 5, "worth a retry".
 */
static void test_a_flag_that_stops_the_compiler_is_no_transient(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char results[HIL_PATH], err[1024] = "";
	int ret;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	results_dir(results, sizeof(results), "selftest");
	ret = hil_config_parse(
		"{\"name\": \"selftest\", \"build\": {\"cflags\": [\"-O2\", \"-fself-test=x\"]},"
		" \"algorithms\": [\"ascon-aead128\"],"
		" \"bench\": {\"lengths\": [16], \"runs\": 5, \"leak_runs\": 0}}",
		src_root, cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		assert_int_equal(ret, HIL_ERR_CONFIG);
		assert_non_null(strstr(err, "-fself-test"));
	} else {
		assert_int_equal(run_config(cfg, results, run), HIL_ERR_BUILD);
		assert_false(run->transient);
		hil_run_free(run);
	}
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* ---------------------------------------------------------------- main */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_config_mistake_is_kept_for_the_result),
		cmocka_unit_test(
			test_a_flag_that_stops_the_compiler_is_no_transient),
		cmocka_unit_test_setup_teardown(
			test_lazy_implementation_fails_the_digest_check,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_lazy_implementation_makes_hilrun_exit_1,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_stale_image_is_refused_before_measuring,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_key_setup_appears_only_in_its_own_row, held_setup,
			held_teardown),
		cmocka_unit_test_setup_teardown(
			test_noisy_implementation_shows_spread_and_outliers,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_one_flag_changes_cflags_and_build_id, held_setup,
			held_teardown),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-mistakes-XXXXXX") != 0) {
		return 1;
	}

	/* One test alone, by name pattern (cmocka's filter). */
	if (getenv("E2E_FILTER") != NULL) {
		cmocka_set_test_filter(getenv("E2E_FILTER"));
	}
	failed = cmocka_run_group_tests_name("e2e_mistakes", tests, NULL, NULL);

	return e2e_main_end(tmp_root, failed);
}
