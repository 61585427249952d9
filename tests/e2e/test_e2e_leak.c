/* test_e2e_leak: the timing-leak smoke test under QEMU: constant-time implementations pass, an early-exit tag compare is flagged, bad requests are refused. */
#define _XOPEN_SOURCE 700

#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "image/build.h"
#include "config/config.h"
#include "e2e_util.h"
#include "emu/cyclemodel.h"
#include "util/err.h"
#include "hilp.h"
#include "run/leak.h"
#include "image/refcrypto/refcrypto.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/session.h"
#include "session/stub.h"

/* The fixture (tests/fixtures/leaky-compare/leaky.c says what it does),
 * named relative to the source tree, the base_dir of the configuration. */
#define LEAKY_DIR "tests/fixtures/leaky-compare"
#define AEAD	  "ascon-aead128"
#define RUNS	  2000u /* two batches of 1000 */
#define LEN	  64u

/* The mkdtemp() root of everything this file writes; removed at the end. */
static char tmp_root[64];

/* The hilrun source tree (HILRUN_ROOT, or found from this executable). */
static char src_root[HIL_PATH];

/* Every bundled implementation, and the fixture last. */
static const char *const bundled[] = {
	"ascon-aead128/ref",   "ascon-aead128/bi32", "ascon128v12/ref",
	"ascon-hash256/ref",   "ascon-xof128/ref",   "chacha20-poly1305/ref",
	"speck64-128-ecb/ref", "aes128-ecb/ref",     "aes128-gcm/ref",
};
#define N_BUNDLED (sizeof(bundled) / sizeof(bundled[0]))

struct shared {
	struct hil_config cfg;
	struct hil_run run;
	struct hil_runner_opts opts;
	struct hil_target_conn conn;
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	size_t n_algs;
};

static int find_alg(const struct shared *t, const char *name, const char *impl)
{
	size_t i;

	for (i = 0; i < t->n_algs; i++) {
		if (strcmp(t->algs[i].name, name) == 0 &&
		    strcmp(t->algs[i].impl, impl) == 0) {
			return (int)i;
		}
	}
	fail_msg("%s/%s is not in the image", name, impl);
	return -1;
}

static int shared_up(void **state)
{
	struct shared *t = calloc(1, sizeof(*t));
	char json[4096], algs[2048] = "", err[1024] = "";
	size_t i, o = 0;
	int ret;

	if (t == NULL) {
		return -1;
	}
	for (i = 0; i < N_BUNDLED; i++) {
		char name[64];
		const char *slash = strchr(bundled[i], '/');

		snprintf(name, sizeof(name), "%.*s", (int)(slash - bundled[i]),
			 bundled[i]);
		o += (size_t)snprintf(
			algs + o, sizeof(algs) - o,
			"{ \"name\": \"%s\", \"impl\": \"%s\" }, ", name,
			slash + 1);
	}
	snprintf(json, sizeof(json),
		 "{ \"name\": \"e2e-leak\","
		 " \"board\": { \"name\": \"qemu-netduino\" },"
		 " \"flasher\": { \"type\": \"qemu\" },"
		 " \"link\": { \"type\": \"socket\" },"
		 " \"build\": { \"cflags\": [\"-O2\"] },"
		 " \"algorithms\": [%s{ \"name\": \"" AEAD "\","
		 " \"impl\": \"leaky\", \"path\": \"" LEAKY_DIR "\" }],"
		 " \"results_dir\": \"%s\" }",
		 algs, tmp_root);
	ret = hil_config_parse(json, src_root, &t->cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		fprintf(stderr, "config rejected: %s\n%s\n", err, json);
		free(t);
		return -1;
	}
	snprintf(t->run.dir, sizeof(t->run.dir), "%s/leak", tmp_root);
	e2e_make_dir(t->run.dir);
	t->run.cfg = &t->cfg;
	t->opts.results_dir = tmp_root;
	ret = hil_runner_bring_up(&t->cfg, &t->opts, &t->run, &t->conn);
	if (ret == HIL_OK) {
		ret = hil_target_algs(t->conn.session, t->algs,
				      HIL_TARGET_MAX_ALGS, &t->n_algs);
	}
	if (ret != HIL_OK || t->n_algs != N_BUNDLED + 1) {
		fprintf(stderr, "bring-up failed (%s), or %zu algorithms\n",
			hil_strerror(ret), t->n_algs);
		hil_runner_take_down(&t->conn, &t->run);
		hil_run_free(&t->run);
		hil_config_free(&t->cfg);
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int shared_down(void **state)
{
	struct shared *t = *state;

	if (t != NULL) {
		hil_runner_take_down(&t->conn, &t->run);
		hil_run_free(&t->run);
		hil_config_free(&t->cfg);
		free(t);
	}
	return e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS) ? 0 : -1;
}

static void params(struct hil_leak_params *p, int alg, uint8_t op)
{
	memset(p, 0, sizeof(*p));
	p->alg = (uint8_t)alg;
	p->op = op;
	p->msg_len = LEN;
	p->runs = RUNS;
	p->warmup = 2;
	p->seed = 7;
	p->leak_seed = 2024;
}

static const char *op_name(uint8_t op)
{
	return op == HILP_OP_ENCRYPT   ? "encrypt"
	       : op == HILP_OP_DECRYPT ? "decrypt"
				       : "hash";
}

/* Run one leak test; the classes are about half and half each. */
static void leak(struct shared *t, const struct hil_leak_params *p,
		 struct hil_leak_result *r)
{
	int ret = hil_leak_run(t->conn.session, p, r);
	unsigned batch = p->batch != 0 ? p->batch : HIL_LEAK_BATCH;

	if (ret != HIL_OK) {
		fail_msg("%s/%s %s: %s", t->algs[p->alg].name,
			 t->algs[p->alg].impl, op_name(p->op),
			 hil_strerror(ret));
	}
	fprintf(stderr,
		"e2e: %s/%s %s %u bytes: t = %g (fixed %zu runs, mean %.1f; random %zu runs, mean %.1f)\n",
		t->algs[p->alg].name, t->algs[p->alg].impl, op_name(p->op),
		p->msg_len, r->t, r->n[0], r->mean[0], r->n[1], r->mean[1]);
	if (r->stddev[0] == 0.0 && r->stddev[1] == 0.0 &&
	    r->mean[0] == r->mean[1]) {
		/* Both classes identical (the emulator is deterministic):
		 * the test stops after the first batch. */
		assert_int_equal(r->batches, 1);
		assert_int_equal(r->n[0] + r->n[1],
				 p->runs < batch ? p->runs : batch);
	} else {
		assert_int_equal(r->n[0] + r->n[1], p->runs);
		assert_int_equal(r->batches, (p->runs + batch - 1) / batch);
	}
	/* Binomial(runs, 1/2): for 2000 runs, 1000 +/- 22 (one sigma). */
	assert_true(r->n[0] > (r->n[0] + r->n[1]) / 4 &&
		    r->n[1] > (r->n[0] + r->n[1]) / 4);
	assert_true(r->mean[0] > r->overhead && r->mean[1] > r->overhead);
}

static void test_constant_time_implementations_are_not_flagged(void **state)
{
	struct shared *t = *state;
	struct hil_leak_params p;
	struct hil_leak_result r;
	size_t i;
	int checked = 0;

	for (i = 0; i < N_BUNDLED; i++) {
		const struct hilp_alg_info *ai = &t->algs[i];
		const struct registry_alg *ref =
			hil_ref_find(ai->name, ai->impl);
		uint8_t ops[2];
		size_t n_ops = 0, o;

		assert_non_null(ref);
		if (ai->kind == HILP_KIND_AEAD) {
			ops[n_ops++] = HILP_OP_ENCRYPT;
			ops[n_ops++] = HILP_OP_DECRYPT;
		} else if (ai->kind == HILP_KIND_BLOCK) {
			ops[n_ops++] = HILP_OP_ENCRYPT;
		} else {
			ops[n_ops++] = HILP_OP_HASH;
		}
		for (o = 0; o < n_ops; o++) {
			params(&p, (int)i, ops[o]);
			leak(t, &p, &r);
			/*
			 * Only what api.h claims constant-time is held to it.
			 * The table-based AES (CRYPTO_CONSTANT_TIME 0) also
			 * passes here: QEMU counts instructions, and a table
			 * lookup costs the same instructions at any index.
			 */
			if (ref->constant_time != 1) {
				continue;
			}
			if (r.flagged || fabs(r.t) > HIL_LEAK_T_THRESHOLD) {
				fail_msg("%s/%s %s flagged: t = %g", ai->name,
					 ai->impl, op_name(ops[o]), r.t);
			}
			checked++;
		}
	}
	/* ascon x5 (AEAD: 2 ops each for 3), chacha, speck. */
	assert_true(checked >= 9);
}

static void test_early_exit_tag_compare_is_flagged(void **state)
{
	struct shared *t = *state;
	int leaky = find_alg(t, AEAD, "leaky");
	int ref = find_alg(t, AEAD, "ref");
	struct hil_leak_params p;
	struct hil_leak_result r, r_ref;

	params(&p, leaky, HILP_OP_DECRYPT);
	leak(t, &p, &r);
	assert_true(r.flagged);
	assert_true(fabs(r.t) > 10 * HIL_LEAK_T_THRESHOLD);
	/* The fixed class (15 tag bytes right) compares longer. */
	assert_true(r.t > 0);
	assert_true(r.mean[0] > r.mean[1]);

	/* The reference, same inputs: both classes cost the same. */
	params(&p, ref, HILP_OP_DECRYPT);
	leak(t, &p, &r_ref);
	assert_false(r_ref.flagged);
	assert_true(r_ref.mean[0] == r_ref.mean[1]);
	/* Rejected inputs take the same path in both: the leaky one costs
	 * the reference's plus at most the 15 extra compare turns. */
	assert_true(r.mean[1] >= r_ref.mean[1] - 200);

	/* Its encryption is the reference's: not flagged. */
	params(&p, leaky, HILP_OP_ENCRYPT);
	leak(t, &p, &r);
	assert_false(r.flagged);

	/* Another length, another seed: still found. */
	params(&p, leaky, HILP_OP_DECRYPT);
	p.msg_len = 0;
	p.leak_seed = 99;
	p.seed = 3;
	leak(t, &p, &r);
	assert_true(r.flagged);
}

static void test_same_seeds_give_the_same_result(void **state)
{
	struct shared *t = *state;
	struct hil_leak_params p;
	struct hil_leak_result a, b;

	/* QEMU counts exactly and the class order comes from the seed. */
	params(&p, find_alg(t, AEAD, "leaky"), HILP_OP_DECRYPT);
	p.runs = 300;
	p.batch = 128; /* three batches, the last one short */
	leak(t, &p, &a);
	leak(t, &p, &b);
	assert_int_equal(a.batches, 3);
	assert_int_equal(a.n[0], b.n[0]);
	assert_true(a.mean[0] == b.mean[0] && a.mean[1] == b.mean[1]);
	assert_true(a.t == b.t || (isinf(a.t) && isinf(b.t)));
	/* Another leak seed: another class order. */
	p.leak_seed = 2025;
	leak(t, &p, &b);
	assert_int_not_equal(a.n[0], b.n[0]);
}

/* One leak test straight through the API, no checks of the helper's. */
static void leak_raw(struct shared *t, const struct hil_leak_params *p,
		     struct hil_leak_result *r)
{
	assert_int_equal(hil_leak_run(t->conn.session, p, r), HIL_OK);
}

/*
 * On the emulator a first BENCH of a few runs (the probe) ends the test of
 * constant-time code; anywhere else the batch goes on from where the probe
 * left the stream, so a leaky implementation gets the very samples one
 * BENCH would have given: the same n, means and t, bit for bit.
 */
static void test_probe_stops_identical_classes_and_changes_no_t(void **state)
{
	struct shared *t = *state;
	struct hil_leak_params p;
	struct hil_leak_result a, b;

	params(&p, find_alg(t, AEAD, "ref"), HILP_OP_DECRYPT);
	p.runs = 300;
	p.probe = HIL_LEAK_PROBE;
	leak_raw(t, &p, &a);
	assert_int_equal(a.batches, 1);
	assert_int_equal(a.n[0] + a.n[1], HIL_LEAK_PROBE);
	assert_true(a.t == 0.0 && !a.flagged);

	params(&p, find_alg(t, AEAD, "leaky"), HILP_OP_DECRYPT);
	p.runs = 300; /* one batch of 300 */
	leak_raw(t, &p, &a);
	p.probe = HIL_LEAK_PROBE;
	leak_raw(t, &p, &b);
	assert_int_equal(a.batches, 1);
	assert_int_equal(b.batches, 2); /* the probe, then the other 268 */
	assert_int_equal(a.n[0], b.n[0]);
	assert_int_equal(a.n[1], b.n[1]);
	assert_true(a.mean[0] == b.mean[0] && a.mean[1] == b.mean[1]);
	assert_true(a.stddev[0] == b.stddev[0] && a.stddev[1] == b.stddev[1]);
	assert_true(memcmp(&a.t, &b.t, sizeof(a.t)) == 0);
	assert_true(a.flagged && b.flagged);
	/* Several batches: only the first is split. */
	p.batch = 128;
	p.probe = 0;
	leak_raw(t, &p, &a);
	p.probe = HIL_LEAK_PROBE;
	leak_raw(t, &p, &b);
	assert_int_equal(a.batches, 3);
	assert_int_equal(b.batches, 4);
	assert_true(memcmp(&a.t, &b.t, sizeof(a.t)) == 0);
	assert_int_equal(a.n[0], b.n[0]);
}

/*
 * Table-based AES on the emulator with the cycle model (#15 item 4): every
 * run executes the same instructions whatever the data, so their t is 0;
 * but its T-tables sit in flash behind the STM32F401's 8-line data cache
 * (profile stm32f401-art), and the model's cycles of the same runs tell
 * fixed from random inputs. Constant-time Ascon stays at t = 0 in both and
 * still stops after the probe.
 */
static void test_the_model_flags_table_lookups_instructions_cannot(void **state)
{
	struct shared *t = *state;
	struct hil_cyclemodel_reader *model = NULL;
	struct hil_leak_params p;
	struct hil_leak_result r;

	assert_true(t->run.model.enabled);
	assert_string_equal(t->run.model.profile, "stm32f401-art");
	assert_int_equal(hil_cyclemodel_open(&model, t->run.model.file, 1),
			 HIL_OK);

	params(&p, find_alg(t, "aes128-ecb", "ref"), HILP_OP_ENCRYPT);
	/* 16 blocks: the fixed message's lookups against random ones. */
	p.msg_len = 256;
	p.runs = 1000;
	p.probe = HIL_LEAK_PROBE;
	p.model = model;
	leak_raw(t, &p, &r);
	fprintf(stderr,
		"e2e: aes128-ecb/ref encrypt 256 bytes: instructions t = %g, model cycles t = %g (fixed mean %.1f, random mean %.1f)\n",
		r.t, r.model.t, r.model.mean[0], r.model.mean[1]);
	/* The instruction counts: identical classes, t = 0. */
	assert_true(r.t == 0.0);
	assert_false(r.flagged);
	assert_true(r.mean[0] == r.mean[1]);
	assert_true(r.stddev[0] == 0.0 && r.stddev[1] == 0.0);
	/* The model's cycles of the very same runs: flagged. */
	assert_int_equal(r.model.state, 1);
	assert_true(r.model.flagged);
	assert_true(fabs(r.model.t) > 2 * HIL_LEAK_T_THRESHOLD);
	assert_true(r.model.stddev[1] > 0.0);
	assert_int_equal(r.model.n[0], r.n[0]);
	assert_int_equal(r.model.n[1], r.n[1]);
	/* Identical counts did not stop it: the model's classes differed. */
	assert_int_equal(r.n[0] + r.n[1], 1000);
	assert_int_equal(r.batches, 2); /* the probe, then the rest */
	/* A cycle costs at least an instruction. */
	assert_true(r.model.mean[0] > r.mean[0]);

	/* Without the model the same test stops after the probe, t = 0. */
	p.model = NULL;
	leak_raw(t, &p, &r);
	assert_int_equal(r.model.state, 0);
	assert_int_equal(r.batches, 1);
	assert_int_equal(r.n[0] + r.n[1], HIL_LEAK_PROBE);

	/* Constant-time code: identical in both, and the probe ends it. */
	params(&p, find_alg(t, AEAD, "ref"), HILP_OP_ENCRYPT);
	p.runs = 1000;
	p.probe = HIL_LEAK_PROBE;
	p.model = model;
	leak_raw(t, &p, &r);
	assert_int_equal(r.model.state, 1);
	assert_true(r.t == 0.0 && r.model.t == 0.0);
	assert_false(r.flagged || r.model.flagged);
	assert_true(r.model.stddev[0] == 0.0 && r.model.stddev[1] == 0.0);
	assert_int_equal(r.batches, 1);
	assert_int_equal(r.n[0] + r.n[1], HIL_LEAK_PROBE);
	hil_cyclemodel_close(model);
}

static void test_ordinary_bench_is_unchanged_and_reports_no_heap(void **state)
{
	struct shared *t = *state;
	const struct registry_alg *ref = hil_ref_find(AEAD, "ref");
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	uint32_t samples[8], digest = 0;
	unsigned i;

	/* After leak tests, a BENCH makes its inputs afresh: right digest,
	 * no class bit, and no heap in an image without malloc. */
	memset(&req, 0, sizeof(req));
	req.alg = (uint8_t)find_alg(t, AEAD, "ref");
	req.msg_len = LEN;
	req.runs = 8;
	req.seed = 7;
	req.leak_seed = 0xFFFFFFFFu; /* not sent by hil_target_bench */
	assert_int_equal(hil_target_bench(t->conn.session, HILP_OP_DECRYPT,
					  &req, &rep, samples, 0),
			 HIL_OK);
	assert_int_equal(hil_ref_bench_digest(ref, HILP_OP_DECRYPT, LEN, 0, 0,
					      8, 7, &digest),
			 HIL_OK);
	assert_int_equal(rep.digest, digest);
	assert_int_equal(rep.heap_bytes, 0);
	assert_true(rep.stack_bytes > 0);
	for (i = 0; i < 8; i++) {
		assert_int_equal(samples[i] & HILP_LEAK_CLASS, 0);
		assert_int_equal(samples[i], samples[0]);
	}
}

static void test_requests_the_test_cannot_vary_are_refused(void **state)
{
	struct shared *t = *state;
	struct hil_leak_params p;
	struct hil_leak_result r;
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	uint32_t samples[4];

	params(&p, find_alg(t, "speck64-128-ecb", "ref"), HILP_OP_KEYSETUP);
	assert_int_equal(hil_leak_run(t->conn.session, &p, &r), HIL_ERR_ARG);
	params(&p, find_alg(t, AEAD, "ref"), HILP_OP_ENCRYPT);
	p.msg_len = 0;
	assert_int_equal(hil_leak_run(t->conn.session, &p, &r), HIL_ERR_ARG);
	params(&p, find_alg(t, AEAD, "ref"), HILP_OP_ENCRYPT);
	p.runs = 3;
	assert_int_equal(hil_leak_run(t->conn.session, &p, &r), HIL_ERR_ARG);
	params(&p, 200, HILP_OP_ENCRYPT);
	assert_int_equal(hil_leak_run(t->conn.session, &p, &r), HIL_ERR_ARG);
	/* The stub's own refusals come through as target errors. */
	params(&p, find_alg(t, "ascon-hash256", "ref"), HILP_OP_DECRYPT);
	assert_int_equal(hil_leak_run(t->conn.session, &p, &r), HIL_ERR_TARGET);
	memset(&req, 0, sizeof(req));
	req.alg = (uint8_t)find_alg(t, AEAD, "ref");
	req.msg_len = LEN;
	req.runs = 4;
	assert_int_equal(hil_target_bench_leak(t->conn.session, HILP_OP_ENCRYPT,
					       &req, &rep, samples, 0),
			 HIL_ERR_ARG); /* leak_seed 0 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_constant_time_implementations_are_not_flagged),
		cmocka_unit_test(test_early_exit_tag_compare_is_flagged),
		cmocka_unit_test(test_same_seeds_give_the_same_result),
		cmocka_unit_test(
			test_probe_stops_identical_classes_and_changes_no_t),
		cmocka_unit_test(
			test_the_model_flags_table_lookups_instructions_cannot),
		cmocka_unit_test(
			test_ordinary_bench_is_unchanged_and_reports_no_heap),
		cmocka_unit_test(
			test_requests_the_test_cannot_vary_are_refused),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-leak-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_leak", tests, shared_up,
					     shared_down);
	return e2e_main_end(tmp_root, failed);
}
