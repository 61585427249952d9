/* test_aes128_ecb_kat: AES-128 ECB encryption against all 19 FIPS 197 / AESAVS vectors, multi-block ECB, and partial blocks rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_block.h"
#include "kat_suite.h"

/* Copied unchanged from the shared vectors into tests/kat (sources: its SOURCES.txt). */
#define KAT_FILE    "aes128_ecb.txt"
#define KAT_VECTORS 19ul

/* Output buffers get a canary tail: a write past the output length shows up. */
#define CANARY 0xA5
#define TAIL   32

struct vec {
	unsigned long count;
	unsigned char key[CRYPTO_KEYBYTES];
	unsigned char pt[CRYPTO_BLOCKBYTES];
	unsigned char ct[CRYPTO_BLOCKBYTES];
};

static struct vec vecs[KAT_VECTORS + 1];
static unsigned char ks[CRYPTO_KSBYTES + TAIL];
static unsigned char out[KAT_VECTORS * CRYPTO_BLOCKBYTES + TAIL];

/* Read every vector of the file into vecs[]; returns how many there were. */
static unsigned long read_vectors(void)
{
	struct kat_suite_iter it;
	const struct kat_record *r;
	struct vec *v;

	for (r = kat_suite_first(&it, KAT_FILE, KAT_VECTORS + 1); r != NULL;
	     r = kat_suite_next(&it)) {
		v = &vecs[it.n - 1]; /* it.n counts this record */
		kat_suite_need_len(r, "Nonce", 0);
		kat_suite_need_len(r, "AD", 0);
		v->count = r->count;
		memcpy(v->key,
		       kat_suite_need_len(r, "Key", CRYPTO_KEYBYTES)->data,
		       CRYPTO_KEYBYTES);
		memcpy(v->pt,
		       kat_suite_need_len(r, "PT", CRYPTO_BLOCKBYTES)->data,
		       CRYPTO_BLOCKBYTES);
		memcpy(v->ct,
		       kat_suite_need_len(r, "CT", CRYPTO_BLOCKBYTES)->data,
		       CRYPTO_BLOCKBYTES);
	}
	return it.n;
}

/* Key setup fills exactly CRYPTO_KSBYTES; one block encrypts to the vector. */
static void test_aes128_ecb_all_kat_vectors_encrypt(void **state)
{
	unsigned long i, mismatches = 0;

	(void)state;
	assert_int_equal(read_vectors(), KAT_VECTORS);
	for (i = 0; i < KAT_VECTORS; i++) {
		const struct vec *v = &vecs[i];

		memset(ks, CANARY, sizeof(ks));
		assert_int_equal(crypto_block_keysetup(ks, v->key), 0);
		assert_true(
			kat_suite_all_bytes(ks + CRYPTO_KSBYTES, TAIL, CANARY));
		memset(out, CANARY, sizeof(out));
		assert_int_equal(crypto_block_ecb_encrypt(
					 out, v->pt, CRYPTO_BLOCKBYTES, ks),
				 0);
		if (memcmp(out, v->ct, CRYPTO_BLOCKBYTES) != 0) {
			print_error("Count = %lu differs\n", v->count);
			mismatches++;
		}
		assert_true(kat_suite_all_bytes(out + CRYPTO_BLOCKBYTES, TAIL,
						CANARY));
	}
	assert_int_equal(mismatches, 0);
}

/*
 * Under each vector's key, all 19 plaintexts in one ECB call give the same
 * bytes as 19 one-block calls, and the vector's own block its ciphertext.
 */
static void test_aes128_ecb_multi_block_equals_block_by_block(void **state)
{
	unsigned char msg[KAT_VECTORS * CRYPTO_BLOCKBYTES];
	unsigned char one[CRYPTO_BLOCKBYTES];
	const size_t len = sizeof(msg);
	unsigned long i, j;

	(void)state;
	assert_int_equal(read_vectors(), KAT_VECTORS);
	for (j = 0; j < KAT_VECTORS; j++) {
		memcpy(msg + j * CRYPTO_BLOCKBYTES, vecs[j].pt,
		       CRYPTO_BLOCKBYTES);
	}
	for (i = 0; i < KAT_VECTORS; i++) {
		assert_int_equal(crypto_block_keysetup(ks, vecs[i].key), 0);
		memset(out, CANARY, sizeof(out));
		assert_int_equal(crypto_block_ecb_encrypt(out, msg, len, ks),
				 0);
		assert_true(kat_suite_all_bytes(out + len, TAIL, CANARY));
		for (j = 0; j < KAT_VECTORS; j++) {
			assert_int_equal(crypto_block_ecb_encrypt(
						 one,
						 msg + j * CRYPTO_BLOCKBYTES,
						 CRYPTO_BLOCKBYTES, ks),
					 0);
			assert_memory_equal(out + j * CRYPTO_BLOCKBYTES, one,
					    CRYPTO_BLOCKBYTES);
		}
		assert_memory_equal(out + i * CRYPTO_BLOCKBYTES, vecs[i].ct,
				    CRYPTO_BLOCKBYTES);
	}
}

/* A length that is not a whole number of blocks returns -1 and writes nothing; 0 blocks is fine. */
static void test_aes128_ecb_rejects_partial_block(void **state)
{
	static const unsigned long long bad[] = {1, 8, 15, 17, 31, 33, 303};
	unsigned char msg[KAT_VECTORS * CRYPTO_BLOCKBYTES];
	size_t i;

	(void)state;
	assert_int_equal(read_vectors(), KAT_VECTORS);
	memset(msg, 0x5A, sizeof(msg));
	assert_int_equal(crypto_block_keysetup(ks, vecs[0].key), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(bad[i] <= sizeof(msg));
		memset(out, CANARY, sizeof(out));
		assert_int_equal(crypto_block_ecb_encrypt(out, msg, bad[i], ks),
				 -1);
		assert_true(kat_suite_all_bytes(out, sizeof(out), CANARY));
	}
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_block_ecb_encrypt(out, msg, 0, ks), 0);
	assert_true(kat_suite_all_bytes(out, sizeof(out), CANARY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aes128_ecb_all_kat_vectors_encrypt),
		cmocka_unit_test(
			test_aes128_ecb_multi_block_equals_block_by_block),
		cmocka_unit_test(test_aes128_ecb_rejects_partial_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
