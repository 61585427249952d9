/* Unit tests of the host builds of the bundled implementations: lookup, one-shot runs, and the bench digest the stub must reproduce. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/err.h"
#include "hilp.h"
#include "image/refcrypto/refcrypto.h"

static void test_find_by_name_and_implementation(void **state)
{
	const struct registry_alg *a;
	char list[256];

	(void)state;
	a = hil_ref_find("ascon-aead128", "ref");
	assert_non_null(a);
	assert_int_equal(a->kind, HILP_KIND_AEAD);
	assert_int_equal(a->keybytes, 16);
	assert_int_equal(a->npubbytes, 16);
	assert_int_equal(a->abytes, 16);
	assert_ptr_equal(hil_ref_find("ascon-aead128", NULL), a);
	assert_null(hil_ref_find("ascon-aead128", "nonexistent"));
	assert_null(hil_ref_find("rot13", NULL));
	hil_ref_list(list, sizeof(list));
	assert_non_null(strstr(list, "ascon-aead128/ref"));
}

/* First vector of the official Ascon-AEAD128 KAT file (Count = 1). */
static void test_run_matches_first_kat_vector(void **state)
{
	const struct registry_alg *a = hil_ref_find("ascon-aead128", "ref");
	const uint8_t want[] = {0x4F, 0x9C, 0x27, 0x82, 0x11, 0xBE, 0xC9, 0x31,
				0x6B, 0xF6, 0x8F, 0x46, 0xEE, 0x8B, 0x2E, 0xC6};
	uint8_t key[16], npub[16], out[64];
	size_t len = 0;
	int rej = 1;
	int i;

	(void)state;
	for (i = 0; i < 16; i++) {
		key[i] = (uint8_t)i;
		npub[i] = (uint8_t)(0x10 + i);
	}
	assert_int_equal(hil_ref_run(a, HILP_OP_ENCRYPT, key, npub, NULL, 0,
				     NULL, 0, 0, out, sizeof(out), &len, &rej),
			 HIL_OK);
	assert_int_equal(rej, 0);
	assert_int_equal(len, 16);
	assert_memory_equal(out, want, 16);
}

static void test_run_reports_rejected_decryption(void **state)
{
	const struct registry_alg *a = hil_ref_find("ascon-aead128", "ref");
	uint8_t key[16] = {0}, npub[16] = {0}, ct[32], pt[32];
	size_t len = 0;
	int rej = 0;

	(void)state;
	assert_int_equal(hil_ref_run(a, HILP_OP_ENCRYPT, key, npub, NULL, 0,
				     (const uint8_t *)"0123456789abcdef", 16, 0,
				     ct, sizeof(ct), &len, &rej),
			 HIL_OK);
	ct[31] ^= 1;
	assert_int_equal(hil_ref_run(a, HILP_OP_DECRYPT, key, npub, NULL, 0, ct,
				     len, 0, pt, sizeof(pt), &len, &rej),
			 HIL_OK);
	assert_int_equal(rej, 1);
	assert_int_equal(len, 0);
	/* A hash operation on an AEAD and a small buffer are argument errors. */
	assert_int_equal(hil_ref_run(a, HILP_OP_HASH, key, npub, NULL, 0, ct,
				     16, 0, pt, sizeof(pt), &len, &rej),
			 HIL_ERR_ARG);
	assert_int_equal(hil_ref_run(a, HILP_OP_ENCRYPT, key, npub, NULL, 0, ct,
				     16, 0, pt, 8, &len, &rej),
			 HIL_ERR_ARG);
}

/* The digest must be what the stub computes: inputs from the PRNG in the
 * order key, nonce, ad, msg; the output folded once per timed run. */
static void test_bench_digest_follows_the_protocol(void **state)
{
	const struct registry_alg *a = hil_ref_find("ascon-aead128", "ref");
	uint8_t key[16], npub[16], ad[5], msg[33], ct[64], pt[64];
	uint32_t rng = hilp_prng_init(7);
	uint32_t want = HILP_DIGEST_INIT;
	uint32_t got = 0;
	size_t len = 0, ptlen = 0;
	int rej = 0;
	int i;

	(void)state;
	hilp_prng_fill(&rng, key, sizeof(key));
	hilp_prng_fill(&rng, npub, sizeof(npub));
	hilp_prng_fill(&rng, ad, sizeof(ad));
	hilp_prng_fill(&rng, msg, sizeof(msg));
	assert_int_equal(hil_ref_run(a, HILP_OP_ENCRYPT, key, npub, ad,
				     sizeof(ad), msg, sizeof(msg), 0, ct,
				     sizeof(ct), &len, &rej),
			 HIL_OK);
	for (i = 0; i < 3; i++) {
		want = hilp_digest_update(want, ct, len);
	}
	assert_int_equal(hil_ref_bench_digest(a, HILP_OP_ENCRYPT, sizeof(msg),
					      sizeof(ad), 0, 3, 7, &got),
			 HIL_OK);
	assert_int_equal(got, want);

	assert_int_equal(hil_ref_run(a, HILP_OP_DECRYPT, key, npub, ad,
				     sizeof(ad), ct, len, 0, pt, sizeof(pt),
				     &ptlen, &rej),
			 HIL_OK);
	want = HILP_DIGEST_INIT;
	for (i = 0; i < 3; i++) {
		want = hilp_digest_update(want, pt, ptlen);
	}
	assert_int_equal(hil_ref_bench_digest(a, HILP_OP_DECRYPT, sizeof(msg),
					      sizeof(ad), 0, 3, 7, &got),
			 HIL_OK);
	assert_int_equal(got, want);
	/* Another seed gives another digest. */
	assert_int_equal(hil_ref_bench_digest(a, HILP_OP_ENCRYPT, sizeof(msg),
					      sizeof(ad), 0, 3, 8, &got),
			 HIL_OK);
	assert_int_not_equal(got, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_by_name_and_implementation),
		cmocka_unit_test(test_run_matches_first_kat_vector),
		cmocka_unit_test(test_run_reports_rejected_decryption),
		cmocka_unit_test(test_bench_digest_follows_the_protocol),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
