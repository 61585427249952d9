/* test_speck64128_kat: Speck64/128 ECB against the 5 reference vectors in byte form and in the paper's word form, multi-block ECB, and partial blocks rejected. */
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
#define LE_FILE	    "speck64128_le_bytes.txt"
#define WORDS_FILE  "speck64128_words.txt"
#define KAT_VECTORS 5ul

/* Output buffers get a canary tail: a write past the output length shows up. */
#define CANARY 0xA5
#define TAIL   32

struct vec {
	unsigned long count;
	unsigned char key[CRYPTO_KEYBYTES];
	unsigned char pt[CRYPTO_BLOCKBYTES];
	unsigned char ct[CRYPTO_BLOCKBYTES];
};

static unsigned char ks[CRYPTO_KSBYTES + TAIL];
static unsigned char out[KAT_VECTORS * CRYPTO_BLOCKBYTES + TAIL];

/* Byte form: Key/PT/CT as the bytes a caller passes; Nonce and AD empty. */
static void le_to_vec(const struct kat_record *r, struct vec *v)
{
	kat_suite_need_len(r, "Nonce", 0);
	kat_suite_need_len(r, "AD", 0);
	v->count = r->count;
	memcpy(v->key, kat_suite_need_len(r, "Key", CRYPTO_KEYBYTES)->data,
	       CRYPTO_KEYBYTES);
	memcpy(v->pt, kat_suite_need_len(r, "PT", CRYPTO_BLOCKBYTES)->data,
	       CRYPTO_BLOCKBYTES);
	memcpy(v->ct, kat_suite_need_len(r, "CT", CRYPTO_BLOCKBYTES)->data,
	       CRYPTO_BLOCKBYTES);
}

/*
 * Word form, as in the paper: KeyWords = l2 l1 l0 k0, PTWords/CTWords = x y,
 * each word written most significant digit first. The byte convention
 * stores each word little-endian, lowest-index word first (k0 l0 l1 l2,
 * y x), which is the whole hex string read backwards: byte i of the byte
 * form is byte n-1-i of the decoded word form.
 */
static void words_to_bytes(unsigned char *b, const unsigned char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		b[i] = w[n - 1 - i];
	}
}

static void words_to_vec(const struct kat_record *r, struct vec *v)
{
	v->count = r->count;
	words_to_bytes(v->key,
		       kat_suite_need_len(r, "KeyWords", CRYPTO_KEYBYTES)->data,
		       CRYPTO_KEYBYTES);
	words_to_bytes(
		v->pt,
		kat_suite_need_len(r, "PTWords", CRYPTO_BLOCKBYTES)->data,
		CRYPTO_BLOCKBYTES);
	words_to_bytes(
		v->ct,
		kat_suite_need_len(r, "CTWords", CRYPTO_BLOCKBYTES)->data,
		CRYPTO_BLOCKBYTES);
}

/* Read every vector of a file into v[]; returns how many there were. */
static unsigned long read_vectors(const char *file,
				  void (*conv)(const struct kat_record *r,
					       struct vec *v),
				  struct vec *v, unsigned long cap)
{
	struct kat_suite_iter it;
	const struct kat_record *r;

	for (r = kat_suite_first(&it, file, cap); r != NULL;
	     r = kat_suite_next(&it)) {
		conv(r, &v[it.n - 1]); /* it.n counts this record */
	}
	return it.n;
}

/* Key setup fills exactly CRYPTO_KSBYTES; one block encrypts to the vector. */
static void check_vector(const char *file, const struct vec *v)
{
	memset(ks, CANARY, sizeof(ks));
	assert_int_equal(crypto_block_keysetup(ks, v->key), 0);
	assert_true(kat_suite_all_bytes(ks + CRYPTO_KSBYTES, TAIL, CANARY));
	memset(out, CANARY, sizeof(out));
	assert_int_equal(
		crypto_block_ecb_encrypt(out, v->pt, CRYPTO_BLOCKBYTES, ks), 0);
	if (memcmp(out, v->ct, CRYPTO_BLOCKBYTES) != 0) {
		fail_msg("%s: Count = %lu differs", file, v->count);
	}
	assert_true(kat_suite_all_bytes(out + CRYPTO_BLOCKBYTES, TAIL, CANARY));
}

static void test_speck64128_encrypts_le_byte_vectors(void **state)
{
	struct vec v[KAT_VECTORS + 1];
	unsigned long i, n;

	(void)state;
	n = read_vectors(LE_FILE, le_to_vec, v, KAT_VECTORS + 1);
	assert_int_equal(n, KAT_VECTORS);
	for (i = 0; i < n; i++) {
		check_vector(LE_FILE, &v[i]);
	}
}

static void test_speck64128_encrypts_word_vectors_in_le_byte_order(void **state)
{
	struct vec v[KAT_VECTORS + 1];
	unsigned long i, n;

	(void)state;
	n = read_vectors(WORDS_FILE, words_to_vec, v, KAT_VECTORS + 1);
	assert_int_equal(n, KAT_VECTORS);
	for (i = 0; i < n; i++) {
		check_vector(WORDS_FILE, &v[i]);
	}
}

/* The two files hold the same vectors: the byte mapping above is the right one. */
static void test_speck64128_word_file_maps_onto_byte_file(void **state)
{
	struct vec a[KAT_VECTORS + 1], b[KAT_VECTORS + 1];
	unsigned long i;

	(void)state;
	assert_int_equal(read_vectors(LE_FILE, le_to_vec, a, KAT_VECTORS + 1),
			 KAT_VECTORS);
	assert_int_equal(
		read_vectors(WORDS_FILE, words_to_vec, b, KAT_VECTORS + 1),
		KAT_VECTORS);
	for (i = 0; i < KAT_VECTORS; i++) {
		assert_int_equal(a[i].count, b[i].count);
		assert_memory_equal(a[i].key, b[i].key, CRYPTO_KEYBYTES);
		assert_memory_equal(a[i].pt, b[i].pt, CRYPTO_BLOCKBYTES);
		assert_memory_equal(a[i].ct, b[i].ct, CRYPTO_BLOCKBYTES);
	}
}

/*
 * Under each vector's key, the five plaintexts in one ECB call give the same
 * bytes as five one-block calls, and the vector's own block its ciphertext.
 */
static void test_speck64128_ecb_multi_block_equals_block_by_block(void **state)
{
	struct vec v[KAT_VECTORS + 1];
	unsigned char msg[KAT_VECTORS * CRYPTO_BLOCKBYTES];
	unsigned char one[CRYPTO_BLOCKBYTES];
	const size_t len = sizeof(msg);
	unsigned long i, j;

	(void)state;
	assert_int_equal(read_vectors(LE_FILE, le_to_vec, v, KAT_VECTORS + 1),
			 KAT_VECTORS);
	for (j = 0; j < KAT_VECTORS; j++) {
		memcpy(msg + j * CRYPTO_BLOCKBYTES, v[j].pt, CRYPTO_BLOCKBYTES);
	}
	for (i = 0; i < KAT_VECTORS; i++) {
		assert_int_equal(crypto_block_keysetup(ks, v[i].key), 0);
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
		assert_memory_equal(out + i * CRYPTO_BLOCKBYTES, v[i].ct,
				    CRYPTO_BLOCKBYTES);
	}
}

/* A length that is not a whole number of blocks returns -1 and writes nothing; 0 blocks is fine. */
static void test_speck64128_ecb_rejects_partial_block(void **state)
{
	static const unsigned long long bad[] = {1, 7, 9, 15, 17, 39};
	unsigned char msg[KAT_VECTORS * CRYPTO_BLOCKBYTES];
	struct vec v[KAT_VECTORS + 1];
	size_t i;

	(void)state;
	assert_int_equal(read_vectors(LE_FILE, le_to_vec, v, KAT_VECTORS + 1),
			 KAT_VECTORS);
	memset(msg, 0x5A, sizeof(msg));
	assert_int_equal(crypto_block_keysetup(ks, v[0].key), 0);
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
		cmocka_unit_test(test_speck64128_encrypts_le_byte_vectors),
		cmocka_unit_test(
			test_speck64128_encrypts_word_vectors_in_le_byte_order),
		cmocka_unit_test(test_speck64128_word_file_maps_onto_byte_file),
		cmocka_unit_test(
			test_speck64128_ecb_multi_block_equals_block_by_block),
		cmocka_unit_test(test_speck64128_ecb_rejects_partial_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
