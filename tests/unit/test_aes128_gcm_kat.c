/* test_aes128_gcm_kat: AES-128-GCM against all 10 GCM-spec / CAVS vectors both ways, and its rejection of forgeries without releasing plaintext. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_aead.h"
#include "kat.h"

/* Copied unchanged from the shared vectors into tests/kat (sources: its SOURCES.txt). */
#define KAT_FILE    "aes128_gcm.txt"
#define KAT_VECTORS 10ul
/* Bytes of PT and of AD over the whole file. */
#define PT_BYTES    255ul /* 16 + 64 + 60 + 16 + 16 + 32 + 51 */
#define AD_BYTES    162ul /* 20 + 16 + 16 + 20 + 90 */
/* Vectors whose PT / AD ends in a partial block (zero padding in GHASH). */
#define PARTIAL_PT  2ul /* Count 4 (60 bytes), 10 (51) */
#define PARTIAL_AD  3ul /* Count 4 (20 bytes), 9 (20), 10 (90) */
#define GCM_BLOCK   16

/* Output buffers get a canary tail: a write past the output length shows up. */
#define CANARY 0xA5
#define TAIL   32

struct vec {
	unsigned long count;
	const unsigned char *key, *nonce, *pt, *ad, *ct;
	size_t ptlen, adlen, ctlen;
};

/* Big (tens of KiB): file scope rather than the stack. */
static struct kat_record rec;
static unsigned char out[KAT_FIELD_MAX + CRYPTO_ABYTES + TAIL];
static unsigned char in[KAT_FIELD_MAX + CRYPTO_ABYTES];

static const struct kat_field *need(const char *name)
{
	const struct kat_field *fl = kat_find(&rec, name);

	if (!fl) {
		fail_msg("Count = %lu: no %s field", rec.count, name);
	}
	return fl;
}

static void to_vec(struct vec *v)
{
	const struct kat_field *key = need("Key"), *nonce = need("Nonce");
	const struct kat_field *pt = need("PT"), *ad = need("AD");
	const struct kat_field *ct = need("CT");

	assert_int_equal(key->len, CRYPTO_KEYBYTES);
	assert_int_equal(nonce->len, CRYPTO_NPUBBYTES);
	assert_int_equal(ct->len, pt->len + CRYPTO_ABYTES);
	v->count = rec.count;
	v->key = key->data;
	v->nonce = nonce->data;
	v->pt = pt->data;
	v->ptlen = pt->len;
	v->ad = ad->data;
	v->adlen = ad->len;
	v->ct = ct->data;
	v->ctlen = ct->len;
}

/* Run check on every vector of the file; returns how many there were. */
static unsigned long for_each_vector(void (*check)(const struct vec *v))
{
	const char *dir = getenv("HIL_KAT_DIR");
	char path[1024];
	struct kat_file f;
	struct vec v;
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
		to_vec(&v);
		check(&v);
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

static unsigned long mismatches, partial_pt, partial_ad;

static void check_encrypt(const struct vec *v)
{
	unsigned long long clen = 0;
	int ret;

	memset(out, CANARY, sizeof(out));
	ret = crypto_aead_encrypt(out, &clen, v->pt, v->ptlen, v->ad, v->adlen,
				  NULL, v->nonce, v->key);
	assert_int_equal(ret, 0);
	assert_int_equal(clen, v->ctlen);
	if (memcmp(out, v->ct, v->ctlen) != 0) {
		print_error("encrypt: Count = %lu differs\n", v->count);
		mismatches++;
	}
	assert_true(all_bytes(out + v->ctlen, TAIL, CANARY));
	partial_pt += v->ptlen % GCM_BLOCK != 0;
	partial_ad += v->adlen % GCM_BLOCK != 0;
}

static void test_aes128_gcm_all_kat_vectors_encrypt(void **state)
{
	(void)state;
	mismatches = partial_pt = partial_ad = 0;
	assert_int_equal(for_each_vector(check_encrypt), KAT_VECTORS);
	assert_int_equal(mismatches, 0);
	/* The padding of a partial last block of PT and of AD was exercised. */
	assert_int_equal(partial_pt, PARTIAL_PT);
	assert_int_equal(partial_ad, PARTIAL_AD);
}

static void check_decrypt(const struct vec *v)
{
	unsigned long long mlen = 12345;
	int ret;

	memset(out, CANARY, sizeof(out));
	ret = crypto_aead_decrypt(out, &mlen, NULL, v->ct, v->ctlen, v->ad,
				  v->adlen, v->nonce, v->key);
	if (ret != 0 || mlen != v->ptlen || memcmp(out, v->pt, v->ptlen) != 0) {
		print_error("decrypt: Count = %lu: ret %d, mlen %llu\n",
			    v->count, ret, mlen);
		mismatches++;
	}
	assert_true(all_bytes(out + v->ptlen, TAIL, CANARY));
}

static void test_aes128_gcm_all_kat_vectors_decrypt(void **state)
{
	(void)state;
	mismatches = 0;
	assert_int_equal(for_each_vector(check_decrypt), KAT_VECTORS);
	assert_int_equal(mismatches, 0);
}

/*
 * Decrypt a forged input: it must fail, report no length, and leave the
 * plaintext area all zero (not the canary, not partial plaintext), with
 * nothing written past it.
 */
static void expect_rejected(const struct vec *v, const unsigned char *c,
			    size_t clen, const unsigned char *ad,
			    const unsigned char *nonce,
			    const unsigned char *key)
{
	unsigned long long mlen = 12345;
	int ret;

	memset(out, CANARY, sizeof(out));
	ret = crypto_aead_decrypt(out, &mlen, NULL, c, clen, ad, v->adlen,
				  nonce, key);
	if (ret != -1) {
		fail_msg("Count = %lu: forged input accepted (ret %d)",
			 v->count, ret);
	}
	assert_int_equal(mlen, 0);
	if (clen >= CRYPTO_ABYTES) {
		assert_true(all_bytes(out, clen - CRYPTO_ABYTES, 0));
		assert_true(
			all_bytes(out + clen - CRYPTO_ABYTES, TAIL, CANARY));
	} else {
		/* Too short to hold a tag: nothing may be written at all. */
		assert_true(all_bytes(out, TAIL, CANARY));
	}
}

static unsigned long tried;

/* Every byte of the tag, one bit each. */
static void check_flipped_tag(const struct vec *v)
{
	size_t i;

	for (i = 0; i < CRYPTO_ABYTES; i++) {
		memcpy(in, v->ct, v->ctlen);
		in[v->ptlen + i] ^= (unsigned char)(1u << (i % 8));
		expect_rejected(v, in, v->ctlen, v->ad, v->nonce, v->key);
		tried++;
	}
}

static void test_aes128_gcm_rejects_every_flipped_tag_byte(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_tag), KAT_VECTORS);
	assert_int_equal(tried, KAT_VECTORS * CRYPTO_ABYTES);
}

/* Every byte of the ciphertext body, one bit each. */
static void check_flipped_ciphertext(const struct vec *v)
{
	size_t i;

	for (i = 0; i < v->ptlen; i++) {
		memcpy(in, v->ct, v->ctlen);
		in[i] ^= (unsigned char)(1u << ((v->count + i) % 8));
		expect_rejected(v, in, v->ctlen, v->ad, v->nonce, v->key);
		tried++;
	}
}

static void test_aes128_gcm_rejects_every_flipped_ciphertext_byte(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_ciphertext),
			 KAT_VECTORS);
	assert_int_equal(tried, PT_BYTES);
}

/* Every byte of the associated data, one bit each. */
static void check_flipped_ad(const struct vec *v)
{
	unsigned char ad[KAT_FIELD_MAX];
	size_t i;

	for (i = 0; i < v->adlen; i++) {
		memcpy(ad, v->ad, v->adlen);
		ad[i] ^= (unsigned char)(1u << ((v->count + i) % 8));
		expect_rejected(v, v->ct, v->ctlen, ad, v->nonce, v->key);
		tried++;
	}
}

static void test_aes128_gcm_rejects_every_flipped_ad_byte(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_ad), KAT_VECTORS);
	assert_int_equal(tried, AD_BYTES);
}

/* Every byte of the nonce and of the key, one bit each: a different H, J0 or key stream. */
static void check_flipped_nonce_key(const struct vec *v)
{
	unsigned char nonce[CRYPTO_NPUBBYTES], key[CRYPTO_KEYBYTES];
	size_t i;

	for (i = 0; i < CRYPTO_NPUBBYTES; i++) {
		memcpy(nonce, v->nonce, CRYPTO_NPUBBYTES);
		nonce[i] ^= (unsigned char)(1u << (i % 8));
		expect_rejected(v, v->ct, v->ctlen, v->ad, nonce, v->key);
		tried++;
	}
	for (i = 0; i < CRYPTO_KEYBYTES; i++) {
		memcpy(key, v->key, CRYPTO_KEYBYTES);
		key[i] ^= (unsigned char)(1u << (i % 8));
		expect_rejected(v, v->ct, v->ctlen, v->ad, v->nonce, key);
		tried++;
	}
}

static void test_aes128_gcm_rejects_wrong_nonce_or_key(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_nonce_key), KAT_VECTORS);
	assert_int_equal(tried,
			 KAT_VECTORS * (CRYPTO_NPUBBYTES + CRYPTO_KEYBYTES));
}

/* Every length shorter than a tag, and the real ciphertext minus its last byte. */
static void check_truncated(const struct vec *v)
{
	size_t clen;

	if (v->count != KAT_VECTORS) {
		return; /* the last vector: 51 bytes of PT, 90 of AD */
	}
	for (clen = 0; clen < CRYPTO_ABYTES; clen++) {
		expect_rejected(v, v->ct, clen, v->ad, v->nonce, v->key);
	}
	expect_rejected(v, v->ct, v->ctlen - 1, v->ad, v->nonce, v->key);
	tried++;
}

static void test_aes128_gcm_rejects_truncated_input(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_truncated), KAT_VECTORS);
	assert_int_equal(tried, 1);
}

/* Count = 1 (empty PT and AD: the tag alone) through NULL pointers, as callers may pass them. */
static void check_null_empty(const struct vec *v)
{
	unsigned long long clen = 0, mlen = 12345;

	if (v->count != 1) {
		return;
	}
	assert_int_equal(v->ptlen, 0);
	assert_int_equal(v->adlen, 0);
	assert_int_equal(crypto_aead_encrypt(out, &clen, NULL, 0, NULL, 0, NULL,
					     v->nonce, v->key),
			 0);
	assert_int_equal(clen, CRYPTO_ABYTES);
	assert_memory_equal(out, v->ct, CRYPTO_ABYTES);
	assert_int_equal(crypto_aead_decrypt(NULL, &mlen, NULL, v->ct,
					     CRYPTO_ABYTES, NULL, 0, v->nonce,
					     v->key),
			 0);
	assert_int_equal(mlen, 0);
	tried++;
}

static void test_aes128_gcm_accepts_null_for_empty_inputs(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_null_empty), KAT_VECTORS);
	assert_int_equal(tried, 1);
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
