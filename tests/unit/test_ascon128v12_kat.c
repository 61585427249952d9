/* test_ascon128v12_kat: the Ascon-128 v1.2 reference against all 1089 official known-answer vectors, and its rejection of forgeries. */
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

/* The official ascon-c file of Ascon-128 v1.2 (crypto_aead/ascon128v12), copied unchanged into tests/kat. */
#define KAT_FILE    "ascon128v12_LWC_AEAD_KAT_128_128.txt"
#define KAT_VECTORS 1089ul
/* The file crosses PT lengths 0..32 with AD lengths 0..32: 32 * 33 have a non-empty PT (or AD). */
#define NONEMPTY    1056ul

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

static unsigned long mismatches;

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
		if (mismatches < 5) {
			print_error("encrypt: Count = %lu differs\n", v->count);
		}
		mismatches++;
	}
	assert_true(all_bytes(out + v->ctlen, TAIL, CANARY));
}

static void test_ascon128v12_all_kat_vectors_encrypt(void **state)
{
	unsigned long n;

	(void)state;
	mismatches = 0;
	n = for_each_vector(check_encrypt);
	assert_int_equal(n, KAT_VECTORS);
	assert_int_equal(mismatches, 0);
}

static void check_decrypt(const struct vec *v)
{
	unsigned long long mlen = 12345;
	int ret;

	memset(out, CANARY, sizeof(out));
	ret = crypto_aead_decrypt(out, &mlen, NULL, v->ct, v->ctlen, v->ad,
				  v->adlen, v->nonce, v->key);
	if (ret != 0 || mlen != v->ptlen || memcmp(out, v->pt, v->ptlen) != 0) {
		if (mismatches < 5) {
			print_error("decrypt: Count = %lu: ret %d, mlen %llu\n",
				    v->count, ret, mlen);
		}
		mismatches++;
	}
	assert_true(all_bytes(out + v->ptlen, TAIL, CANARY));
}

static void test_ascon128v12_all_kat_vectors_decrypt(void **state)
{
	unsigned long n;

	(void)state;
	mismatches = 0;
	n = for_each_vector(check_decrypt);
	assert_int_equal(n, KAT_VECTORS);
	assert_int_equal(mismatches, 0);
}

/*
 * Decrypt a forged input: it must fail, report no length, and leave the
 * plaintext area all zero (not the canary, not partial plaintext), with
 * nothing written past it.
 */
static void expect_rejected(const struct vec *v, const unsigned char *c,
			    size_t clen, const unsigned char *ad)
{
	unsigned long long mlen = 12345;
	int ret;

	memset(out, CANARY, sizeof(out));
	ret = crypto_aead_decrypt(out, &mlen, NULL, c, clen, ad, v->adlen,
				  v->nonce, v->key);
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

/* One bit of one tag byte, a different bit and byte for each vector. */
static void check_flipped_tag(const struct vec *v)
{
	memcpy(in, v->ct, v->ctlen);
	in[v->ptlen + v->count % CRYPTO_ABYTES] ^=
		(unsigned char)(1u << (v->count % 8));
	expect_rejected(v, in, v->ctlen, v->ad);
	tried++;
}

static void test_ascon128v12_rejects_flipped_tag_byte(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_tag), KAT_VECTORS);
	assert_int_equal(tried, KAT_VECTORS);
}

static void check_flipped_ciphertext(const struct vec *v)
{
	if (v->ptlen == 0) {
		return;
	}
	memcpy(in, v->ct, v->ctlen);
	in[v->count % v->ptlen] ^= (unsigned char)(1u << (v->count % 8));
	expect_rejected(v, in, v->ctlen, v->ad);
	tried++;
}

static void test_ascon128v12_rejects_flipped_ciphertext_byte(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_ciphertext),
			 KAT_VECTORS);
	assert_int_equal(tried, NONEMPTY); /* every vector with a PT */
}

static void check_flipped_ad(const struct vec *v)
{
	unsigned char ad[KAT_FIELD_MAX];

	if (v->adlen == 0) {
		return;
	}
	memcpy(ad, v->ad, v->adlen);
	ad[v->count % v->adlen] ^= (unsigned char)(1u << (v->count % 8));
	expect_rejected(v, v->ct, v->ctlen, ad);
	tried++;
}

static void test_ascon128v12_rejects_flipped_ad_byte(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_ad), KAT_VECTORS);
	assert_int_equal(tried, NONEMPTY); /* every vector with an AD */
}

/* Every length shorter than a tag, and the real ciphertext minus its last byte. */
static void check_truncated(const struct vec *v)
{
	size_t clen;

	if (v->count != KAT_VECTORS) {
		return; /* the last vector: 32 bytes of PT and AD */
	}
	for (clen = 0; clen < CRYPTO_ABYTES; clen++) {
		expect_rejected(v, v->ct, clen, v->ad);
	}
	expect_rejected(v, v->ct, v->ctlen - 1, v->ad);
	tried++;
}

static void test_ascon128v12_rejects_truncated_input(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_truncated), KAT_VECTORS);
	assert_int_equal(tried, 1);
}

/* Count = 1 (empty PT and AD) through NULL pointers, as callers may pass them. */
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

static void test_ascon128v12_accepts_null_for_empty_inputs(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_null_empty), KAT_VECTORS);
	assert_int_equal(tried, 1);
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
