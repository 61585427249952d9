/* test_e2e_nist: trees in the NIST LWC benchmarking repository's layout drop in as published under QEMU: its glue files, .s and C++ sources, GNU C, lwc_arch_* markers, AVR folders, a folder that does not link, the KAT beside the folders, more folders than one image holds. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "e2e_util.h"
#include "image/build.h"
#include "result/run.h"
#include "run/runner.h"
#include "util/err.h"
#include "util/util.h"

/*
 * tests/fixtures/nist-tree/crypto_aead/toyaead128: one variant of a toy
 * (not cryptographic) AEAD, its KAT file beside its folders as NIST keeps
 * it, and six folders: ref (GNU C, the framework's glue lwc_crypto_aead.c),
 * sfile (its mixing step in a plain .s file), cxx (C++, the glue a .cpp
 * that also defines the API), avr_marked (lwc_arch_avr, code that cannot
 * build for ARM), avr_unmarked (AVR assembly, no marker), nolink (compiles,
 * calls a function nobody defines), winnames (its Toy.h included as
 * "toy.h", as folders written on Windows do), othernonce (a consistent
 * AEAD that is not the one the KAT file describes: its nonce absorbed after
 * the key, as xoodyak's XKCP folders do it in the NIST repository), u64tag
 * (stores its tag through a uint64_t pointer at c + mlen, as ISAP's opt_32
 * does: an STRD the Cortex-M4 faults on when it is not word-aligned).
 */
#define TREE	 "tests/fixtures/nist-tree/crypto_aead"
#define VARIANT	 TREE "/toyaead128"
#define RUN_NAME "e2e-nist"

static char tmp_root[64];
static char src_root[HIL_PATH];

/* The runs here: encrypt and decrypt at lengths (a JSON list's inside),
 * two runs each, no warm-up, no leak runs. */
static void make_config(struct hil_config *cfg, const char *algs,
			const char *lengths, const char *results)
{
	char bench[512];
	int n;

	n = snprintf(bench, sizeof(bench),
		     "\"operations\": [\"encrypt\", \"decrypt\"],"
		     " \"lengths\": [%s], \"ad_lengths\": [0], \"runs\": 2,"
		     " \"warmup\": 0, \"seed\": 1, \"leak_runs\": 0",
		     lengths);
	assert_true(n > 0 && (size_t)n < sizeof(bench));
	e2e_qemu_config(cfg, src_root, RUN_NAME, algs, bench, results);
}

static size_t rows_of(const struct hil_run *run, const char *impl)
{
	size_t i, n = 0;

	for (i = 0; i < run->n_rows; i++) {
		n += strcmp(run->rows[i].implementation, impl) == 0;
	}
	return n;
}

/* Every row of impl measured and verified, by verified_by when not NULL;
 * @return how many. */
static size_t rows_ok(const struct hil_run *run, const char *impl,
		      const char *verified_by)
{
	size_t i, n = 0;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (strcmp(r->implementation, impl) != 0) {
			continue;
		}
		if (!r->ok || !r->verified) {
			fail_msg("%s/%s %s %u B: ok %d verified %d: %s",
				 r->algorithm, r->implementation, r->operation,
				 (unsigned)r->msg_len, r->ok, r->verified,
				 r->error);
		}
		if (verified_by != NULL) {
			assert_string_equal(r->verified_by, verified_by);
		}
		n++;
	}
	return n;
}

static const struct hil_config_skipped *skipped_of(const struct hil_config *cfg,
						   const char *impl)
{
	size_t i;

	for (i = 0; i < cfg->n_not_for_board; i++) {
		if (strcmp(cfg->not_for_board[i].impl, impl) == 0) {
			return &cfg->not_for_board[i];
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------ tests */

/* The variant's folders are found and sorted out before anything builds:
 * the two AVR ones listed as not for this board, the others selected. */
static void test_avr_folders_are_listed_not_built(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	char results[128];
	const struct hil_config_skipped *sk;
	char why[200];

	(void)state;
	assert_non_null(cfg);
	e2e_results_dir(tmp_root, "select", results, sizeof(results));
	make_config(cfg, "{ \"tree\": \"" TREE "\" }", "0", results);
	assert_int_equal(cfg->n_algs, 7);
	assert_string_equal(cfg->algs[0].impl, "cxx");
	assert_string_equal(cfg->algs[1].impl, "nolink");
	assert_string_equal(cfg->algs[2].impl, "othernonce");
	assert_string_equal(cfg->algs[3].impl, "ref");
	assert_string_equal(cfg->algs[4].impl, "sfile");
	assert_string_equal(cfg->algs[5].impl, "u64tag");
	assert_string_equal(cfg->algs[6].impl, "winnames");
	assert_int_equal(cfg->n_not_for_board, 2);
	sk = skipped_of(cfg, "avr_marked");
	assert_non_null(sk);
	assert_string_equal(sk->name, "toyaead128");
	assert_non_null(strstr(sk->why, "lwc_arch_avr"));
	sk = skipped_of(cfg, "avr_unmarked");
	assert_non_null(sk);
	assert_non_null(strstr(sk->why, "assembly is for AVR"));
	assert_int_equal(hil_cfg_foreign_arch(VARIANT "/ref", why, sizeof(why)),
			 0);
	/* Assembly: a .s file; C with an asm statement; not a barrier. */
	assert_true(hil_build_has_assembly(VARIANT "/sfile"));
	assert_false(hil_build_has_assembly(VARIANT "/ref"));
	assert_false(hil_build_has_assembly(VARIANT "/cxx"));
	hil_config_free(cfg);
	free(cfg);
}

/*
 * The whole variant, as published: the glue files compile against the
 * framework headers hilrun supplies, GNU C builds, the .s is assembled, the
 * C++ is built with g++; ref and cxx are checked against their host
 * builds, sfile (assembly: no host build) by the KAT one level up; nolink
 * fails alone, with the linker's reason, and the rest is measured;
 * othernonce fails its KAT file's first vector, and its failed row says so
 * and that its host build gives the target's answer (the code, not its
 * build); u64tag's row names its UNALIGNED fault and where; the AVR
 * folders are in report.json as not for this board, with no row.
 */
static void test_a_variant_drops_in_as_published(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char results[128], report[HIL_PATH + 16];
	const struct hil_row *r = NULL;
	char *text = NULL;
	size_t i;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "variant", results, sizeof(results));
	make_config(cfg, "{ \"tree\": \"" TREE "\" }", "0, 16", results);
	assert_int_equal(e2e_run_config(cfg, results, run), HIL_ERR_VERIFY);
	assert_int_equal(rows_ok(run, "ref", "host build and KAT"), 4);
	assert_int_equal(rows_ok(run, "cxx", "host build and KAT"), 4);
	assert_int_equal(rows_ok(run, "sfile", "KAT (no host build)"), 4);
	assert_int_equal(rows_ok(run, "winnames", "host build and KAT"), 4);
	assert_int_equal(rows_of(run, "nolink"), 1);
	for (i = 0; i < run->n_rows; i++) {
		if (strcmp(run->rows[i].implementation, "nolink") == 0) {
			r = &run->rows[i];
		}
	}
	assert_non_null(r);
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "does not build"));
	assert_non_null(strstr(r->error, "toy_helper_nobody_defines"));
	assert_int_equal(rows_of(run, "othernonce"), 1);
	for (i = 0; i < run->n_rows; i++) {
		if (strcmp(run->rows[i].implementation, "othernonce") == 0) {
			r = &run->rows[i];
		}
	}
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "failed verification on the target: "
					 "fails vector Count = 1 of its KAT "
					 "file"));
	assert_non_null(strstr(r->error, "LWC_AEAD_KAT_128_128.txt (line 1)"));
	assert_non_null(strstr(r->error, "its host build of the same sources "
					 "gives the target's output"));
	/* u64tag crashed the target while it was checked: the fault in
	 * words and the function that took it, the target brought back. */
	assert_int_equal(rows_of(run, "u64tag"), 1);
	for (i = 0; i < run->n_rows; i++) {
		if (strcmp(run->rows[i].implementation, "u64tag") == 0) {
			r = &run->rows[i];
		}
	}
	assert_false(r->ok);
	assert_non_null(strstr(r->error,
			       "took a fault during verification "
			       "on the target: UsageFault UNALIGNED"));
	assert_non_null(strstr(r->error, "_aead_encrypt+0x"));
	assert_int_equal(rows_of(run, "avr_marked"), 0);
	assert_int_equal(rows_of(run, "avr_unmarked"), 0);
	snprintf(report, sizeof(report), "%s/report.json", run->dir);
	assert_int_equal(hil_read_file(report, &text, NULL), HIL_OK);
	e2e_assert_contains(text, "\"not_for_board\"");
	e2e_assert_contains(text, "avr_marked");
	e2e_assert_contains(text, "avr_unmarked");
	free(text);
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* More folders than one image holds (HIL_IMAGE_MAX_ALGS): one tree entry,
 * split over images of at most that many, every folder measured, under a
 * variant name longer than 23 characters (the ALG reply carries it whole),
 * each with its flash and RAM figures. */
static void test_a_tree_larger_than_an_image_is_split(void **state)
{
	static const char *const files[] = {"api.h", "toy.h", "toy.c",
					    "encrypt.c", "lwc_crypto_aead.c"};
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char tree[HIL_PATH], algs[HIL_PATH + 64], results[128];
	/* Three images; more implementations than a run once kept the
	 * sizes of (64). */
	const size_t n = 2 * HIL_IMAGE_MAX_ALGS + 1;
	size_t i, f, k;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	snprintf(tree, sizeof(tree), "%s/big/crypto_aead", tmp_root);
	for (i = 0; i < n; i++) {
		char dir[HIL_PATH + 32];

		/* A variant name longer than 23 characters, as
		 * photon-beetle's in the NIST repository. */
		snprintf(dir, sizeof(dir),
			 "%s/toyaead128withalongvariantname/c%02zu", tree, i);
		assert_int_equal(hil_mkdirs(dir), HIL_OK);
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			char from[HIL_PATH * 2], to[HIL_PATH * 2];
			char *text = NULL;
			size_t len = 0;

			snprintf(from, sizeof(from), "%s/%s/ref/%s", src_root,
				 VARIANT, files[f]);
			snprintf(to, sizeof(to), "%s/%s", dir, files[f]);
			assert_int_equal(hil_read_file(from, &text, &len),
					 HIL_OK);
			assert_int_equal(hil_write_atomic(to, text, len),
					 HIL_OK);
			free(text);
		}
	}
	e2e_results_dir(tmp_root, "big", results, sizeof(results));
	snprintf(algs, sizeof(algs), "{ \"tree\": \"%s\" }", tree);
	make_config(cfg, algs, "16", results);
	cfg->bench.operations = HIL_OPS_ENCRYPT;
	assert_int_equal(cfg->n_algs, n);
	assert_int_equal(e2e_run_config(cfg, results, run), HIL_OK);
	assert_int_equal(run->n_images, 3);
	/* The rows carry the variant's whole name, not its first 23
	 * characters (two photon-beetle variants shared those). */
	assert_string_equal(run->rows[0].algorithm,
			    "toyaead128withalongvariantname");
	for (k = 0; k < run->n_images; k++) {
		size_t words = 1;
		const char *p;

		for (p = run->images[k].algs; *p != '\0'; p++) {
			words += *p == ' ';
		}
		assert_true(words <= HIL_IMAGE_MAX_ALGS);
	}
	for (i = 0; i < n; i++) {
		char impl[8];

		snprintf(impl, sizeof(impl), "c%02zu", i);
		assert_int_equal(rows_ok(run, impl, NULL), 1);
		for (k = 0; k < run->n_impl_sizes; k++) {
			if (strcmp(run->impl_sizes[k].implementation, impl) ==
			    0) {
				break;
			}
		}
		assert_true(k < run->n_impl_sizes);
	}
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avr_folders_are_listed_not_built),
		cmocka_unit_test(test_a_variant_drops_in_as_published),
		cmocka_unit_test(test_a_tree_larger_than_an_image_is_split),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-nist-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_nist", tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
