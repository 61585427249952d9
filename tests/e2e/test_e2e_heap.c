/* test_e2e_heap: under QEMU, BENCH reports the peak heap of an implementation that calls malloc (newlib's rounding included) and 0 for the others. */
#define _XOPEN_SOURCE 700

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
#include "image/elfinfo.h"
#include "util/err.h"
#include "hilp.h"
#include "image/refcrypto/refcrypto.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/session.h"
#include "session/stub.h"

/* The fixture (tests/fixtures/heap-ascon/heap.c says what it does), named
 * relative to the source tree, the base_dir of the configuration. */
#define HEAP_DIR "tests/fixtures/heap-ascon"
#define AEAD	 "ascon-aead128"
#define TAG	 16u /* Ascon-AEAD128's tag */

/* The mkdtemp() root of everything this file writes; removed at the end. */
static char tmp_root[64];

/* The hilrun source tree (HILRUN_ROOT, or found from this executable). */
static char src_root[HIL_PATH];

/*
 * What newlib-nano's malloc (newlib 3.3, nano-mallocr.c) takes from _sbrk
 * on a fresh heap for a request of n bytes: n rounded up to a multiple of
 * 4, a 4-byte chunk header and 4 bytes of room to align the pointer to 8;
 * at least 12 (its smallest chunk), so malloc(0) takes 12.
 */
static uint32_t nano_chunk(uint32_t n)
{
	uint32_t size = ((n + 3u) & ~3u) + 8u;

	return size < 12u ? 12u : size;
}

/* The fixture's two live buffers: a copy of its input and one of the AD. */
static uint32_t fixture_heap(uint8_t op, uint32_t msg_len, uint32_t ad_len)
{
	uint32_t in = op == HILP_OP_DECRYPT ? msg_len + TAG : msg_len;

	return nano_chunk(in) + nano_chunk(ad_len);
}

/* A target with the reference and the fixture, shared by the tests. */
struct shared {
	struct hil_config cfg;
	struct hil_run run;
	struct hil_runner_opts opts;
	struct hil_target_conn conn;
	int ref;  /* index of ascon-aead128/ref in the image */
	int heap; /* index of ascon-aead128/heap */
};

static int shared_up(void **state)
{
	struct shared *t = calloc(1, sizeof(*t));
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	char json[2048], err[1024] = "";
	size_t n = 0, i;
	int ret;

	if (t == NULL) {
		return -1;
	}
	snprintf(json, sizeof(json),
		 "{ \"name\": \"e2e-heap\","
		 " \"board\": { \"name\": \"qemu-netduino\" },"
		 " \"flasher\": { \"type\": \"qemu\" },"
		 " \"link\": { \"type\": \"socket\" },"
		 " \"build\": { \"cflags\": [\"-O2\"] },"
		 " \"algorithms\": [\"" AEAD "\", { \"name\": \"" AEAD "\","
		 " \"impl\": \"heap\", \"path\": \"" HEAP_DIR "\" }],"
		 " \"results_dir\": \"%s\" }",
		 tmp_root);
	ret = hil_config_parse(json, src_root, &t->cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		fprintf(stderr, "config rejected: %s\n%s\n", err, json);
		free(t);
		return -1;
	}
	snprintf(t->run.dir, sizeof(t->run.dir), "%s/heap", tmp_root);
	e2e_make_dir(t->run.dir);
	t->run.cfg = &t->cfg;
	t->opts.results_dir = tmp_root;
	ret = hil_runner_bring_up(&t->cfg, &t->opts, &t->run, &t->conn);
	if (ret == HIL_OK) {
		ret = hil_target_algs(t->conn.session, algs,
				      HIL_TARGET_MAX_ALGS, &n);
	}
	t->ref = t->heap = -1;
	for (i = 0; ret == HIL_OK && i < n; i++) {
		if (strcmp(algs[i].name, AEAD) == 0) {
			if (strcmp(algs[i].impl, "ref") == 0) {
				t->ref = (int)i;
			} else if (strcmp(algs[i].impl, "heap") == 0) {
				t->heap = (int)i;
			}
		}
	}
	if (ret != HIL_OK || t->ref < 0 || t->heap < 0) {
		fprintf(stderr,
			"bring-up failed (%s) or an algorithm is missing\n",
			hil_strerror(ret));
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

/* One BENCH of 5 runs; its samples go to samples (5). */
static void bench(struct shared *t, int alg, uint8_t op, uint16_t msg_len,
		  uint16_t ad_len, struct hilp_bench_rep *rep,
		  uint32_t *samples)
{
	struct hilp_bench_req req;

	memset(&req, 0, sizeof(req));
	req.alg = (uint8_t)alg;
	req.msg_len = msg_len;
	req.ad_len = ad_len;
	req.runs = 5;
	req.warmup = 1;
	req.seed = 4242;
	assert_int_equal(
		hil_target_bench(t->conn.session, op, &req, rep, samples, 0),
		HIL_OK);
}

static void test_image_links_the_heap_only_for_malloc(void **state)
{
	struct shared *t = *state;

	/* malloc came with the fixture, and with it the stub's _sbrk. */
	assert_int_equal(hil_elf_has_symbol(t->run.fw.elf, "malloc"), 1);
	assert_int_equal(hil_elf_has_symbol(t->run.fw.elf, "_sbrk"), 1);
	assert_int_equal(hil_elf_has_symbol(t->run.fw.elf, "bench_heap_reset"),
			 1);
	/* (test_image_checks: an image without the fixture has neither.) */
}

static void test_heap_bytes_are_what_the_fixture_allocates(void **state)
{
	static const uint16_t lens[] = {0, 1, 16, 61, 100, 1024};
	static const uint16_t ads[] = {0, 13};
	static const uint8_t ops[] = {HILP_OP_ENCRYPT, HILP_OP_DECRYPT};
	const struct registry_alg *ref = hil_ref_find(AEAD, "ref");
	struct shared *t = *state;
	struct hilp_bench_rep rep, rep_ref;
	uint32_t samples[5], digest;
	size_t l, a, o;

	assert_non_null(ref);
	for (o = 0; o < 2; o++) {
		for (a = 0; a < 2; a++) {
			for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
				uint32_t want =
					fixture_heap(ops[o], lens[l], ads[a]);

				bench(t, t->heap, ops[o], lens[l], ads[a], &rep,
				      samples);
				bench(t, t->ref, ops[o], lens[l], ads[a],
				      &rep_ref, samples);
				if (rep.heap_bytes != want) {
					fail_msg(
						"%s %u bytes, ad %u: heap %u, the fixture allocates %u",
						ops[o] ? "decrypt" : "encrypt",
						lens[l], ads[a], rep.heap_bytes,
						want);
				}
				/* The reference calls no malloc. */
				assert_int_equal(rep_ref.heap_bytes, 0);
				/* Both computed the right outputs. */
				assert_int_equal(
					hil_ref_bench_digest(ref, ops[o],
							     lens[l], ads[a], 0,
							     5, 4242, &digest),
					HIL_OK);
				assert_int_equal(rep.digest, digest);
				assert_int_equal(rep_ref.digest, digest);
				/* The copies' stack is the fixture's own. */
				assert_true(rep.stack_bytes > 0);
			}
		}
	}
	/* Two examples worked by hand: encrypt 100 bytes, no AD: 100 + 8
	 * and 12 for malloc(0); decrypt 61 + 16 = 77 -> 80 + 8, 13 -> 24. */
	assert_int_equal(fixture_heap(HILP_OP_ENCRYPT, 100, 0), 120);
	assert_int_equal(fixture_heap(HILP_OP_DECRYPT, 61, 13), 112);
}

static void test_heap_is_fresh_for_every_bench(void **state)
{
	struct shared *t = *state;
	struct hilp_bench_rep r1, r2, r3;
	uint32_t s1[5], s2[5], s3[5];

	/*
	 * After a BENCH the fixture's chunks sit on malloc's free list; without
	 * the reset the next BENCH's call would reuse them and report 0 bytes,
	 * and the first timed run would cost differently from the others.
	 */
	bench(t, t->heap, HILP_OP_ENCRYPT, 64, 0, &r1, s1);
	bench(t, t->heap, HILP_OP_ENCRYPT, 64, 0, &r2, s2);
	assert_int_equal(r1.heap_bytes, fixture_heap(HILP_OP_ENCRYPT, 64, 0));
	assert_int_equal(r2.heap_bytes, r1.heap_bytes);
	assert_memory_equal(s1, s2, sizeof(s1));
	/* A larger row in between leaves no trace either. */
	bench(t, t->heap, HILP_OP_DECRYPT, 2000, 0, &r3, s3);
	assert_int_equal(r3.heap_bytes, fixture_heap(HILP_OP_DECRYPT, 2000, 0));
	bench(t, t->heap, HILP_OP_ENCRYPT, 64, 0, &r2, s2);
	assert_int_equal(r2.heap_bytes, r1.heap_bytes);
	assert_memory_equal(s1, s2, sizeof(s1));
	/* malloc costs instructions: the fixture is slower than the ref. */
	bench(t, t->ref, HILP_OP_ENCRYPT, 64, 0, &r3, s3);
	assert_true(s1[0] > s3[0]);
}

static void test_exec_after_benches_uses_a_sound_heap(void **state)
{
	const struct registry_alg *ref = hil_ref_find(AEAD, "ref");
	struct shared *t = *state;
	uint8_t key[16], npub[16], ad[7], msg[200];
	uint8_t want[256], got[256];
	size_t want_len = 0, got_len = 0;
	uint32_t rng = hilp_prng_init(99);
	int rej_w = 0, rej_g = 0;
	unsigned i;

	assert_non_null(ref);
	/* EXEC does not reset the heap: malloc runs on the state the last
	 * BENCH left, over and over. */
	for (i = 0; i < 20; i++) {
		size_t len = (i * 37u) % sizeof(msg);

		hilp_prng_fill(&rng, key, sizeof(key));
		hilp_prng_fill(&rng, npub, sizeof(npub));
		hilp_prng_fill(&rng, ad, sizeof(ad));
		hilp_prng_fill(&rng, msg, sizeof(msg));
		assert_int_equal(hil_ref_run(ref, HILP_OP_ENCRYPT, key, npub,
					     ad, i % 8, msg, len, 0, want,
					     sizeof(want), &want_len, &rej_w),
				 HIL_OK);
		assert_int_equal(
			hil_target_exec(t->conn.session, (uint8_t)t->heap,
					HILP_OP_ENCRYPT, key, sizeof(key), npub,
					sizeof(npub), ad, i % 8, msg, len, 0,
					got, sizeof(got), &got_len, &rej_g),
			HIL_OK);
		assert_int_equal(rej_g, 0);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_links_the_heap_only_for_malloc),
		cmocka_unit_test(
			test_heap_bytes_are_what_the_fixture_allocates),
		cmocka_unit_test(test_heap_is_fresh_for_every_bench),
		cmocka_unit_test(test_exec_after_benches_uses_a_sound_heap),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-heap-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_heap", tests, shared_up,
					     shared_down);
	return e2e_main_end(tmp_root, failed);
}
