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
#include "kat.h"

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

static struct kat_record rec;
static struct vec vecs[KAT_VECTORS + 1];
static unsigned char ks[CRYPTO_KSBYTES + TAIL];
static unsigned char out[KAT_VECTORS * CRYPTO_BLOCKBYTES + TAIL];

static const struct kat_field *need(const char *name, size_t len)
{
	const struct kat_field *fl = kat_find(&rec, name);

	if (!fl) {
		fail_msg("Count = %lu: no %s field", rec.count, name);
	}
	if (fl->len != len) {
		fail_msg("Count = %lu: %s has %zu bytes, not %zu", rec.count,
			 name, fl->len, len);
	}
	return fl;
}

/* Read every vector of the file into vecs[]; returns how many there were. */
static unsigned long read_vectors(void)
{
	const char *dir = getenv("HIL_KAT_DIR");
	char path[1024];
	struct kat_file f;
	unsigned long n = 0;
	int ret;

	if (!dir || !*dir) {
		dir = "tests/kat";
	}
	snprintf(path, sizeof(path), "%s/%s", dir, KAT_FILE);
	if (kat_open(&f, path) != KAT_OK) {
		fail_msg("%s (run from the repository root or set HIL_KAT_DIR)",
			 f.err);
	}
	for (;;) {
		ret = kat_next(&f, &rec);
		if (ret < 0) {
			kat_close(&f);
			fail_msg("%s", f.err);
		}
		if (ret == 0) {
			break;
		}
		if (n == KAT_VECTORS + 1) {
			kat_close(&f);
			fail_msg("%s: more than %lu vectors", KAT_FILE,
				 KAT_VECTORS + 1);
		}
		need("Nonce", 0);
		need("AD", 0);
		vecs[n].count = rec.count;
		memcpy(vecs[n].key, need("Key", CRYPTO_KEYBYTES)->data,
		       CRYPTO_KEYBYTES);
		memcpy(vecs[n].pt, need("PT", CRYPTO_BLOCKBYTES)->data,
		       CRYPTO_BLOCKBYTES);
		memcpy(vecs[n].ct, need("CT", CRYPTO_BLOCKBYTES)->data,
		       CRYPTO_BLOCKBYTES);
		n++;
	}
	kat_close(&f);
	return n;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char b)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != b) {
			return 0;
		}
	}
	return 1;
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
		assert_true(all_bytes(ks + CRYPTO_KSBYTES, TAIL, CANARY));
		memset(out, CANARY, sizeof(out));
		assert_int_equal(crypto_block_ecb_encrypt(
					 out, v->pt, CRYPTO_BLOCKBYTES, ks),
				 0);
		if (memcmp(out, v->ct, CRYPTO_BLOCKBYTES) != 0) {
			print_error("Count = %lu differs\n", v->count);
			mismatches++;
		}
		assert_true(all_bytes(out + CRYPTO_BLOCKBYTES, TAIL, CANARY));
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
		assert_true(all_bytes(out + len, TAIL, CANARY));
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
		assert_true(all_bytes(out, sizeof(out), CANARY));
	}
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_block_ecb_encrypt(out, msg, 0, ks), 0);
	assert_true(all_bytes(out, sizeof(out), CANARY));
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
