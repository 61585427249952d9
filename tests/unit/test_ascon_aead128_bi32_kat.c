/* test_ascon_aead128_bi32_kat: the bit-interleaved Ascon-AEAD128 against all 1089 official known-answer vectors, its rejection of forgeries, and agreement with the reference on random inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_aead.h"
#include "aead_kat_suite.h"
#include "kat_suite.h"

/*
 * The reference implementation (target/crypto/ascon-aead128/ref), linked
 * in beside the one under test: the test build compiles it with
 * -Dcrypto_aead_encrypt=ref_encrypt -Dcrypto_aead_decrypt=ref_decrypt.
 */
int ref_encrypt(unsigned char *c, unsigned long long *clen,
		const unsigned char *m, unsigned long long mlen,
		const unsigned char *ad, unsigned long long adlen,
		const unsigned char *nsec, const unsigned char *npub,
		const unsigned char *k);
int ref_decrypt(unsigned char *m, unsigned long long *mlen, unsigned char *nsec,
		const unsigned char *c, unsigned long long clen,
		const unsigned char *ad, unsigned long long adlen,
		const unsigned char *npub, const unsigned char *k);

/* The file crosses PT lengths 0..32 with AD lengths 0..32: 32 * 33 have a non-empty PT (or AD). */
#define NONEMPTY 1056ul

static const struct aead_kat_suite suite = {
	/* The official ascon-c file (SP 800-232 variant), copied unchanged into tests/kat. */
	.file = "asconaead128_LWC_AEAD_KAT_128_128.txt",
	.vectors = 1089, /* the last: 32 bytes of PT and AD, cut short */
	.keybytes = CRYPTO_KEYBYTES,
	.noncebytes = CRYPTO_NPUBBYTES,
	.tagbytes = CRYPTO_ABYTES,
	.encrypt = crypto_aead_encrypt,
	.decrypt = crypto_aead_decrypt,
	.flips = AEAD_KAT_FLIP_ONE_PER_VECTOR,
	.ct_forgeries = NONEMPTY, /* every vector with a PT */
	.ad_forgeries = NONEMPTY, /* every vector with an AD */
	.first_is_empty = 1,
};

static void test_ascon_aead128_bi32_all_kat_vectors_encrypt(void **state)
{
	(void)state;
	aead_kat_check_encrypt(&suite);
}

static void test_ascon_aead128_bi32_all_kat_vectors_decrypt(void **state)
{
	(void)state;
	aead_kat_check_decrypt(&suite);
}

static void test_ascon_aead128_bi32_rejects_flipped_tag_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_tag(&suite);
}

static void
test_ascon_aead128_bi32_rejects_flipped_ciphertext_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ciphertext(&suite);
}

static void test_ascon_aead128_bi32_rejects_flipped_ad_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ad(&suite);
}

static void test_ascon_aead128_bi32_rejects_truncated_input(void **state)
{
	(void)state;
	aead_kat_check_rejects_truncated(&suite);
}

static void test_ascon_aead128_bi32_accepts_null_for_empty_inputs(void **state)
{
	(void)state;
	aead_kat_check_null_for_empty(&suite);
}

/* PT and AD lengths 0..RANDOM_MAXLEN; see the test for how they are drawn. */
#define RANDOM_MAXLEN 300u
#define RANDOM_TRIALS (3u * (RANDOM_MAXLEN + 1u))

/* xorshift32 (Marsaglia): a fixed, reproducible stream; no quality needed. */
static uint32_t rng_state = 0x2545f491u;

static uint32_t rng_next(void)
{
	uint32_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rng_state = x;
	return x;
}

static void rng_fill(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		p[i] = (unsigned char)(rng_next() >> 24);
	}
}

/*
 * Random key, nonce, PT and AD with lengths 0..300: first every PT length
 * with a random AD length, then every AD length with a random PT length,
 * then 301 pairs both random. bi32 and ref produce the same ciphertext
 * and tag, each decrypts what the other encrypted, and both reject the
 * same forgery. Output buffers carry canary tails, as in the suite.
 */
static void test_ascon_aead128_bi32_matches_ref_on_random_lengths(void **state)
{
	static unsigned char pt[RANDOM_MAXLEN], ad[RANDOM_MAXLEN];
	static unsigned char c_bi[RANDOM_MAXLEN + CRYPTO_ABYTES + AEAD_KAT_TAIL];
	static unsigned char
		c_ref[RANDOM_MAXLEN + CRYPTO_ABYTES + AEAD_KAT_TAIL];
	static unsigned char p_out[RANDOM_MAXLEN + AEAD_KAT_TAIL];
	unsigned char key[CRYPTO_KEYBYTES], nonce[CRYPTO_NPUBBYTES];
	unsigned long long clen_bi, clen_ref, mlen;
	size_t ptlen, adlen, ctlen;
	unsigned int trial, tried_here = 0;

	(void)state;
	for (trial = 0; trial < RANDOM_TRIALS; trial++) {
		ptlen = rng_next() % (RANDOM_MAXLEN + 1u);
		adlen = rng_next() % (RANDOM_MAXLEN + 1u);
		if (trial <= RANDOM_MAXLEN) {
			ptlen = trial;
		} else if (trial <= 2u * RANDOM_MAXLEN + 1u) {
			adlen = trial - (RANDOM_MAXLEN + 1u);
		}
		ctlen = ptlen + CRYPTO_ABYTES;
		rng_fill(key, sizeof(key));
		rng_fill(nonce, sizeof(nonce));
		rng_fill(pt, ptlen);
		rng_fill(ad, adlen);

		memset(c_bi, AEAD_KAT_CANARY, sizeof(c_bi));
		memset(c_ref, AEAD_KAT_CANARY, sizeof(c_ref));
		assert_int_equal(crypto_aead_encrypt(c_bi, &clen_bi, pt, ptlen,
						     ad, adlen, NULL, nonce,
						     key),
				 0);
		assert_int_equal(ref_encrypt(c_ref, &clen_ref, pt, ptlen, ad,
					     adlen, NULL, nonce, key),
				 0);
		assert_int_equal(clen_bi, ctlen);
		assert_int_equal(clen_ref, ctlen);
		if (memcmp(c_bi, c_ref, ctlen) != 0) {
			fail_msg(
				"trial %u: PT %zu, AD %zu bytes: bi32 and ref ciphertexts differ",
				trial, ptlen, adlen);
		}
		assert_true(kat_suite_all_bytes(c_bi + ctlen, AEAD_KAT_TAIL,
						AEAD_KAT_CANARY));

		/* Each decrypts the other's output. */
		memset(p_out, AEAD_KAT_CANARY, sizeof(p_out));
		mlen = 12345;
		assert_int_equal(crypto_aead_decrypt(p_out, &mlen, NULL, c_ref,
						     ctlen, ad, adlen, nonce,
						     key),
				 0);
		assert_int_equal(mlen, ptlen);
		assert_memory_equal(p_out, pt, ptlen);
		assert_true(kat_suite_all_bytes(p_out + ptlen, AEAD_KAT_TAIL,
						AEAD_KAT_CANARY));
		memset(p_out, AEAD_KAT_CANARY, sizeof(p_out));
		mlen = 12345;
		assert_int_equal(ref_decrypt(p_out, &mlen, NULL, c_bi, ctlen,
					     ad, adlen, nonce, key),
				 0);
		assert_int_equal(mlen, ptlen);
		assert_memory_equal(p_out, pt, ptlen);

		/* One random bit of the ciphertext or tag flipped: both reject. */
		c_bi[rng_next() % ctlen] ^=
			(unsigned char)(1u << (rng_next() % 8));
		memset(p_out, AEAD_KAT_CANARY, sizeof(p_out));
		mlen = 12345;
		assert_int_equal(crypto_aead_decrypt(p_out, &mlen, NULL, c_bi,
						     ctlen, ad, adlen, nonce,
						     key),
				 -1);
		assert_int_equal(mlen, 0);
		assert_true(kat_suite_all_bytes(p_out, ptlen, 0));
		assert_true(kat_suite_all_bytes(p_out + ptlen, AEAD_KAT_TAIL,
						AEAD_KAT_CANARY));
		assert_int_equal(ref_decrypt(p_out, &mlen, NULL, c_bi, ctlen,
					     ad, adlen, nonce, key),
				 -1);
		tried_here++;
	}
	assert_int_equal(tried_here, RANDOM_TRIALS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_ascon_aead128_bi32_all_kat_vectors_encrypt),
		cmocka_unit_test(
			test_ascon_aead128_bi32_all_kat_vectors_decrypt),
		cmocka_unit_test(
			test_ascon_aead128_bi32_rejects_flipped_tag_byte),
		cmocka_unit_test(
			test_ascon_aead128_bi32_rejects_flipped_ciphertext_byte),
		cmocka_unit_test(
			test_ascon_aead128_bi32_rejects_flipped_ad_byte),
		cmocka_unit_test(
			test_ascon_aead128_bi32_rejects_truncated_input),
		cmocka_unit_test(
			test_ascon_aead128_bi32_accepts_null_for_empty_inputs),
		cmocka_unit_test(
			test_ascon_aead128_bi32_matches_ref_on_random_lengths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
