/* test_aes128_gcm_kat: AES-128-GCM against all 10 GCM-spec / CAVS vectors both ways, and its rejection of forgeries without releasing plaintext. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_aead.h"
#include "aead_kat_suite.h"

/* Bytes of PT and of AD over the whole file. */
#define PT_BYTES   255ul /* 16 + 64 + 60 + 16 + 16 + 32 + 51 */
#define AD_BYTES   162ul /* 20 + 16 + 16 + 20 + 90 */
/* Vectors whose PT / AD ends in a partial block (zero padding in GHASH). */
#define PARTIAL_PT 2ul /* Count 4 (60 bytes), 10 (51) */
#define PARTIAL_AD 3ul /* Count 4 (20 bytes), 9 (20), 10 (90) */
#define GCM_BLOCK  16

static const struct aead_kat_suite suite = {
	/* Copied unchanged from the shared vectors into tests/kat (sources: its SOURCES.txt). */
	.file = "aes128_gcm.txt",
	.vectors = 10, /* the last: 51 bytes of PT, 90 of AD, cut short */
	.keybytes = CRYPTO_KEYBYTES,
	.noncebytes = CRYPTO_NPUBBYTES,
	.tagbytes = CRYPTO_ABYTES,
	.encrypt = crypto_aead_encrypt,
	.decrypt = crypto_aead_decrypt,
	.flips = AEAD_KAT_FLIP_EVERY_BYTE,
	.ct_forgeries = PT_BYTES,
	.ad_forgeries = AD_BYTES,
	.first_is_empty = 1, /* Count = 1: the tag alone */
};

static void test_aes128_gcm_all_kat_vectors_encrypt(void **state)
{
	(void)state;
	aead_kat_check_encrypt(&suite);
	/* The padding of a partial last block of PT and of AD was exercised. */
	aead_kat_check_partial_blocks(&suite, GCM_BLOCK, PARTIAL_PT,
				      PARTIAL_AD);
}

static void test_aes128_gcm_all_kat_vectors_decrypt(void **state)
{
	(void)state;
	aead_kat_check_decrypt(&suite);
}

/* Every byte of the tag, one bit each. */
static void test_aes128_gcm_rejects_every_flipped_tag_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_tag(&suite);
}

/* Every byte of the ciphertext body, one bit each. */
static void test_aes128_gcm_rejects_every_flipped_ciphertext_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ciphertext(&suite);
}

/* Every byte of the associated data, one bit each. */
static void test_aes128_gcm_rejects_every_flipped_ad_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ad(&suite);
}

/* Every byte of the nonce and of the key, one bit each: a different H, J0 or key stream. */
static void test_aes128_gcm_rejects_wrong_nonce_or_key(void **state)
{
	(void)state;
	aead_kat_check_rejects_wrong_nonce_or_key(&suite);
}

static void test_aes128_gcm_rejects_truncated_input(void **state)
{
	(void)state;
	aead_kat_check_rejects_truncated(&suite);
}

static void test_aes128_gcm_accepts_null_for_empty_inputs(void **state)
{
	(void)state;
	aead_kat_check_null_for_empty(&suite);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aes128_gcm_all_kat_vectors_encrypt),
		cmocka_unit_test(test_aes128_gcm_all_kat_vectors_decrypt),
		cmocka_unit_test(
			test_aes128_gcm_rejects_every_flipped_tag_byte),
		cmocka_unit_test(
			test_aes128_gcm_rejects_every_flipped_ciphertext_byte),
		cmocka_unit_test(test_aes128_gcm_rejects_every_flipped_ad_byte),
		cmocka_unit_test(test_aes128_gcm_rejects_wrong_nonce_or_key),
		cmocka_unit_test(test_aes128_gcm_rejects_truncated_input),
		cmocka_unit_test(test_aes128_gcm_accepts_null_for_empty_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
