/* test_ascon128v12_kat: the Ascon-128 v1.2 reference against all 1089 official known-answer vectors, and its rejection of forgeries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_aead.h"
#include "aead_kat_suite.h"

/* The file crosses PT lengths 0..32 with AD lengths 0..32: 32 * 33 have a non-empty PT (or AD). */
#define NONEMPTY 1056ul

static const struct aead_kat_suite suite = {
	/* The official ascon-c file of Ascon-128 v1.2 (crypto_aead/ascon128v12), copied unchanged into tests/kat. */
	.file = "ascon128v12_LWC_AEAD_KAT_128_128.txt",
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

static void test_ascon128v12_all_kat_vectors_encrypt(void **state)
{
	(void)state;
	aead_kat_check_encrypt(&suite);
}

static void test_ascon128v12_all_kat_vectors_decrypt(void **state)
{
	(void)state;
	aead_kat_check_decrypt(&suite);
}

static void test_ascon128v12_rejects_flipped_tag_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_tag(&suite);
}

static void test_ascon128v12_rejects_flipped_ciphertext_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ciphertext(&suite);
}

static void test_ascon128v12_rejects_flipped_ad_byte(void **state)
{
	(void)state;
	aead_kat_check_rejects_flipped_ad(&suite);
}

static void test_ascon128v12_rejects_truncated_input(void **state)
{
	(void)state;
	aead_kat_check_rejects_truncated(&suite);
}

static void test_ascon128v12_accepts_null_for_empty_inputs(void **state)
{
	(void)state;
	aead_kat_check_null_for_empty(&suite);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascon128v12_all_kat_vectors_encrypt),
		cmocka_unit_test(test_ascon128v12_all_kat_vectors_decrypt),
		cmocka_unit_test(test_ascon128v12_rejects_flipped_tag_byte),
		cmocka_unit_test(
			test_ascon128v12_rejects_flipped_ciphertext_byte),
		cmocka_unit_test(test_ascon128v12_rejects_flipped_ad_byte),
		cmocka_unit_test(test_ascon128v12_rejects_truncated_input),
		cmocka_unit_test(
			test_ascon128v12_accepts_null_for_empty_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
