/* test_chacha20poly1305_kat: AEAD_CHACHA20_POLY1305 against both RFC 8439 vectors both ways, and its rejection of forgeries without releasing plaintext. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_aead.h"
#include "aead_kat_suite.h"

/* Bytes of PT and of AD over the whole file. */
#define PT_BYTES   379ul /* 114 + 265 */
#define AD_BYTES   24ul	 /* 12 + 12 */
/* Vectors whose PT / AD ends in a partial 16-byte block (zero padding before Poly1305). */
#define PARTIAL_PT 2ul
#define PARTIAL_AD 2ul
#define POLY_BLOCK 16

static const struct aead_kat_suite suite = {
	/* Copied unchanged from the shared vectors into tests/kat (sources: its SOURCES.txt). */
	.file = "chacha20poly1305.txt",
	/*
	 * Count 1 is the Sec. 2.8.2 example, Count 2 the Appendix A.5 decryption
	 * vector. The AEAD is deterministic, so A.5 is also checked the other way:
	 * encrypting its plaintext must give its ciphertext and tag.
	 * A.5 (265 bytes of PT, 12 of AD) is the one cut short.
	 */
	.vectors = 2,
	.keybytes = CRYPTO_KEYBYTES,
	.noncebytes = CRYPTO_NPUBBYTES,
	.tagbytes = CRYPTO_ABYTES,
	.encrypt = crypto_aead_encrypt,
	.decrypt = crypto_aead_decrypt,
	.flips = AEAD_KAT_FLIP_EVERY_BYTE,
	.ct_forgeries = PT_BYTES,
	.ad_forgeries = AD_BYTES,
	/*
	 * No vector has an empty PT and AD: the empty-input check encrypts
	 * nothing under Count 1's key and nonce, and the tag alone must decrypt.
	 */
	.first_is_empty = 0,
};

static void test_chacha20poly1305_all_kat_vectors_encrypt(void **state)
{
	(void)state;
	aead_kat_check_encrypt(&suite);
	/* The padding of a partial last block of PT and of AD was exercised. */
	aead_kat_check_partial_blocks(&suite, POLY_BLOCK, PARTIAL_PT,
				      PARTIAL_AD);
}

static void test_chacha20poly1305_all_kat_vectors_decrypt(void **state)
{
	(void)state;
	aead_kat_check_decrypt(&suite);
}

/* Every byte of the tag, one bit each. */
static void test_chacha20poly1305_rejects_every_flipped_tag_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_tag(&suite);
}

/* Every byte of the ciphertext body, one bit each. */
static void
test_chacha20poly1305_rejects_every_flipped_ciphertext_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ciphertext(&suite);
}

/* Every byte of the associated data, one bit each. */
static void test_chacha20poly1305_rejects_every_flipped_ad_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ad(&suite);
}

/* Every byte of the nonce and of the key, one bit each: a different Poly1305 key and key stream. */
static void test_chacha20poly1305_rejects_wrong_nonce_or_key(void **state)
{
	(void)state;
	aead_kat_check_rejects_wrong_nonce_or_key(&suite);
}

static void test_chacha20poly1305_rejects_truncated_input(void **state)
{
	(void)state;
	aead_kat_check_rejects_truncated(&suite);
}

static void test_chacha20poly1305_accepts_null_for_empty_inputs(void **state)
{
	(void)state;
	aead_kat_check_null_for_empty(&suite);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chacha20poly1305_all_kat_vectors_encrypt),
		cmocka_unit_test(test_chacha20poly1305_all_kat_vectors_decrypt),
		cmocka_unit_test(
			test_chacha20poly1305_rejects_every_flipped_tag_byte),
		cmocka_unit_test(
			test_chacha20poly1305_rejects_every_flipped_ciphertext_byte),
		cmocka_unit_test(
			test_chacha20poly1305_rejects_every_flipped_ad_byte),
		cmocka_unit_test(
			test_chacha20poly1305_rejects_wrong_nonce_or_key),
		cmocka_unit_test(test_chacha20poly1305_rejects_truncated_input),
		cmocka_unit_test(
			test_chacha20poly1305_accepts_null_for_empty_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
