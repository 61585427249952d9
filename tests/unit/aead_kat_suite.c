/* aead_kat_suite: the known-answer and forgery checks shared by the AEAD tests (see aead_kat_suite.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aead_kat_suite.h"
#include "kat_suite.h"

/* Differing vectors reported by name; the count of all of them follows. */
#define REPORT_MAX 10ul

struct vec {
	unsigned long count;
	const unsigned char *key, *nonce, *pt, *ad, *ct;
	size_t ptlen, adlen, ctlen;
};

/* What a decryption is given: a vector's input, or one with a field altered. */
struct input {
	const unsigned char *c, *ad, *nonce, *key;
	size_t clen, adlen;
};

/* Field-sized buffers: file scope rather than the stack. */
static unsigned char out[KAT_FIELD_MAX + AEAD_KAT_TAG_MAX + AEAD_KAT_TAIL];

static void to_vec(const struct aead_kat_suite *s, const struct kat_record *r,
		   struct vec *v)
{
	const struct kat_field *key = kat_suite_need(r, "Key");
	const struct kat_field *nonce = kat_suite_need(r, "Nonce");
	const struct kat_field *pt = kat_suite_need(r, "PT");
	const struct kat_field *ad = kat_suite_need(r, "AD");
	const struct kat_field *ct = kat_suite_need(r, "CT");

	assert_int_equal(key->len, s->keybytes);
	assert_int_equal(nonce->len, s->noncebytes);
	assert_int_equal(ct->len, pt->len + s->tagbytes);
	v->count = r->count;
	v->key = key->data;
	v->nonce = nonce->data;
	v->pt = pt->data;
	v->ptlen = pt->len;
	v->ad = ad->data;
	v->adlen = ad->len;
	v->ct = ct->data;
	v->ctlen = ct->len;
}

/* A check of one vector; ctx is the check's own state (a count, ...). */
typedef void check_fn(const struct aead_kat_suite *s, const struct vec *v,
		      void *ctx);

/*
 * Run check on every vector of the file, with ctx passed through, and
 * require the number of vectors the suite says.
 */
static void for_each_vector(const struct aead_kat_suite *s, check_fn *check,
			    void *ctx)
{
	struct kat_suite_iter it;
	const struct kat_record *r;
	struct vec v;

	/* The buffers here and in the checks are sized by these limits. */
	assert_true(s->keybytes <= AEAD_KAT_KEY_MAX);
	assert_true(s->noncebytes <= AEAD_KAT_NONCE_MAX);
	assert_true(s->tagbytes > 0 && s->tagbytes <= AEAD_KAT_TAG_MAX);
	for (r = kat_suite_first(&it, s->file, 0); r != NULL;
	     r = kat_suite_next(&it)) {
		to_vec(s, r, &v);
		check(s, &v, ctx);
	}
	assert_int_equal(it.n, s->vectors);
}

static void check_encrypt(const struct aead_kat_suite *s, const struct vec *v,
			  void *ctx)
{
	unsigned long *mismatches = ctx;
	unsigned long long clen = 0;
	int ret;

	memset(out, AEAD_KAT_CANARY, sizeof(out));
	ret = s->encrypt(out, &clen, v->pt, v->ptlen, v->ad, v->adlen, NULL,
			 v->nonce, v->key);
	assert_int_equal(ret, 0);
	assert_int_equal(clen, v->ctlen);
	if (memcmp(out, v->ct, v->ctlen) != 0) {
		if (*mismatches < REPORT_MAX) {
			print_error("encrypt: Count = %lu differs\n", v->count);
		}
		(*mismatches)++;
	}
	assert_true(kat_suite_all_bytes(out + v->ctlen, AEAD_KAT_TAIL,
					AEAD_KAT_CANARY));
}

void aead_kat_check_encrypt(const struct aead_kat_suite *s)
{
	unsigned long mismatches = 0;

	for_each_vector(s, check_encrypt, &mismatches);
	assert_int_equal(mismatches, 0);
}

static void check_decrypt(const struct aead_kat_suite *s, const struct vec *v,
			  void *ctx)
{
	unsigned long *mismatches = ctx;
	unsigned long long mlen = 12345;
	int ret;

	memset(out, AEAD_KAT_CANARY, sizeof(out));
	ret = s->decrypt(out, &mlen, NULL, v->ct, v->ctlen, v->ad, v->adlen,
			 v->nonce, v->key);
	if (ret != 0 || mlen != v->ptlen || memcmp(out, v->pt, v->ptlen) != 0) {
		if (*mismatches < REPORT_MAX) {
			print_error("decrypt: Count = %lu: ret %d, mlen %llu\n",
				    v->count, ret, mlen);
		}
		(*mismatches)++;
	}
	assert_true(kat_suite_all_bytes(out + v->ptlen, AEAD_KAT_TAIL,
					AEAD_KAT_CANARY));
}

void aead_kat_check_decrypt(const struct aead_kat_suite *s)
{
	unsigned long mismatches = 0;

	for_each_vector(s, check_decrypt, &mismatches);
	assert_int_equal(mismatches, 0);
}

static struct input vector_input(const struct vec *v)
{
	struct input in;

	in.c = v->ct;
	in.clen = v->ctlen;
	in.ad = v->ad;
	in.adlen = v->adlen;
	in.nonce = v->nonce;
	in.key = v->key;
	return in;
}

/*
 * Decrypt a forged input: it must fail, report no length, and leave the
 * plaintext area all zero (not the canary, not partial plaintext), with
 * nothing written past it.
 */
static void expect_rejected(const struct aead_kat_suite *s, const struct vec *v,
			    const struct input *in)
{
	unsigned long long mlen = 12345;
	int ret;

	memset(out, AEAD_KAT_CANARY, sizeof(out));
	ret = s->decrypt(out, &mlen, NULL, in->c, in->clen, in->ad, in->adlen,
			 in->nonce, in->key);
	if (ret != -1) {
		fail_msg("Count = %lu: forged input accepted (ret %d)",
			 v->count, ret);
	}
	assert_int_equal(mlen, 0);
	if (in->clen >= s->tagbytes) {
		assert_true(
			kat_suite_all_bytes(out, in->clen - s->tagbytes, 0));
		assert_true(kat_suite_all_bytes(out + in->clen - s->tagbytes,
						AEAD_KAT_TAIL,
						AEAD_KAT_CANARY));
	} else {
		/* Too short to hold a tag: nothing may be written at all. */
		assert_true(kat_suite_all_bytes(out, AEAD_KAT_TAIL,
						AEAD_KAT_CANARY));
	}
}

/* Flip bit of field[i], a buffer that in reads from, expect rejection, undo. */
static void flip_one(const struct aead_kat_suite *s, const struct vec *v,
		     const struct input *in, unsigned char *field, size_t i,
		     unsigned int bit)
{
	field[i] ^= (unsigned char)(1u << bit);
	expect_rejected(s, v, in);
	field[i] ^= (unsigned char)(1u << bit);
}

/* Bit (first + i) % 8 of every byte i of field, one at a time; returns len. */
static size_t flip_every(const struct aead_kat_suite *s, const struct vec *v,
			 const struct input *in, unsigned char *field,
			 size_t len, unsigned long first)
{
	size_t i;

	for (i = 0; i < len; i++) {
		flip_one(s, v, in, field, i, (unsigned int)((first + i) % 8));
	}
	return len;
}

/*
 * The forgeries of s->flips in a field of len bytes; returns how many.
 * first: the bit flipped in byte 0 under FLIP_EVERY_BYTE.
 */
static size_t flip_field(const struct aead_kat_suite *s, const struct vec *v,
			 const struct input *in, unsigned char *field,
			 size_t len, unsigned long first)
{
	if (s->flips == AEAD_KAT_FLIP_EVERY_BYTE) {
		return flip_every(s, v, in, field, len, first);
	}
	if (len == 0) {
		return 0;
	}
	flip_one(s, v, in, field, v->count % len, (unsigned int)(v->count % 8));
	return 1;
}

static unsigned char forged_c[KAT_FIELD_MAX + AEAD_KAT_TAG_MAX];
static unsigned char forged_ad[KAT_FIELD_MAX];

/* The part of a vector the flip checks alter. */
enum part { PART_TAG, PART_CIPHERTEXT, PART_AD };

/* The part to alter, and how many forgeries were tried so far. */
struct flips {
	enum part part;
	unsigned long tried;
};

static void check_flipped(const struct aead_kat_suite *s, const struct vec *v,
			  void *ctx)
{
	struct flips *f = ctx;
	struct input in = vector_input(v);

	memcpy(forged_c, v->ct, v->ctlen);
	memcpy(forged_ad, v->ad, v->adlen);
	in.c = forged_c;
	in.ad = forged_ad;
	/* Under FLIP_EVERY_BYTE the bit moves with Count, but not in the tag. */
	switch (f->part) {
	case PART_TAG:
		f->tried += flip_field(s, v, &in, forged_c + v->ptlen,
				       s->tagbytes, 0);
		break;
	case PART_CIPHERTEXT:
		f->tried += flip_field(s, v, &in, forged_c, v->ptlen, v->count);
		break;
	case PART_AD:
		f->tried +=
			flip_field(s, v, &in, forged_ad, v->adlen, v->count);
		break;
	}
}

/* Run the flips of one part over the file; returns how many were tried. */
static unsigned long flip_all(const struct aead_kat_suite *s, enum part part)
{
	struct flips f;

	f.part = part;
	f.tried = 0;
	for_each_vector(s, check_flipped, &f);
	return f.tried;
}

void aead_kat_check_rejects_flipped_tag(const struct aead_kat_suite *s)
{
	unsigned long per_vector = 1;

	if (s->flips == AEAD_KAT_FLIP_EVERY_BYTE) {
		per_vector = s->tagbytes;
	}
	assert_int_equal(flip_all(s, PART_TAG), s->vectors * per_vector);
}

void aead_kat_check_rejects_flipped_ciphertext(const struct aead_kat_suite *s)
{
	assert_int_equal(flip_all(s, PART_CIPHERTEXT), s->ct_forgeries);
}

void aead_kat_check_rejects_flipped_ad(const struct aead_kat_suite *s)
{
	assert_int_equal(flip_all(s, PART_AD), s->ad_forgeries);
}

static void check_flipped_nonce_key(const struct aead_kat_suite *s,
				    const struct vec *v, void *ctx)
{
	unsigned long *tried = ctx;
	unsigned char nonce[AEAD_KAT_NONCE_MAX], key[AEAD_KAT_KEY_MAX];
	struct input in = vector_input(v);

	memcpy(nonce, v->nonce, s->noncebytes);
	memcpy(key, v->key, s->keybytes);
	in.nonce = nonce;
	*tried += flip_every(s, v, &in, nonce, s->noncebytes, 0);
	in.nonce = v->nonce;
	in.key = key;
	*tried += flip_every(s, v, &in, key, s->keybytes, 0);
}

void aead_kat_check_rejects_wrong_nonce_or_key(const struct aead_kat_suite *s)
{
	unsigned long tried = 0;

	for_each_vector(s, check_flipped_nonce_key, &tried);
	assert_int_equal(tried, s->vectors * (s->noncebytes + s->keybytes));
}

static void check_truncated(const struct aead_kat_suite *s, const struct vec *v,
			    void *ctx)
{
	unsigned long *tried = ctx;
	struct input in = vector_input(v);

	if (v->count != s->vectors) {
		return;
	}
	for (in.clen = 0; in.clen < s->tagbytes; in.clen++) {
		expect_rejected(s, v, &in);
	}
	in.clen = v->ctlen - 1;
	expect_rejected(s, v, &in);
	(*tried)++;
}

void aead_kat_check_rejects_truncated(const struct aead_kat_suite *s)
{
	unsigned long tried = 0;

	for_each_vector(s, check_truncated, &tried);
	assert_int_equal(tried, 1);
}

static void check_null_empty(const struct aead_kat_suite *s,
			     const struct vec *v, void *ctx)
{
	unsigned long *tried = ctx;
	unsigned char tag[AEAD_KAT_TAG_MAX];
	unsigned long long clen = 0, mlen = 12345;
	struct input in = vector_input(v);

	if (v->count != 1) {
		return;
	}
	if (s->first_is_empty) {
		assert_int_equal(v->ptlen, 0);
		assert_int_equal(v->adlen, 0);
	}
	memset(out, AEAD_KAT_CANARY, sizeof(out));
	assert_int_equal(s->encrypt(out, &clen, NULL, 0, NULL, 0, NULL,
				    v->nonce, v->key),
			 0);
	assert_int_equal(clen, s->tagbytes);
	assert_true(kat_suite_all_bytes(out + s->tagbytes, AEAD_KAT_TAIL,
					AEAD_KAT_CANARY));
	if (s->first_is_empty) {
		assert_memory_equal(out, v->ct, s->tagbytes);
	}
	memcpy(tag, out, s->tagbytes);
	assert_int_equal(s->decrypt(NULL, &mlen, NULL, tag, s->tagbytes, NULL,
				    0, v->nonce, v->key),
			 0);
	assert_int_equal(mlen, 0);
	in.c = tag;
	in.clen = s->tagbytes;
	in.ad = NULL;
	in.adlen = 0;
	flip_one(s, v, &in, tag, s->tagbytes - 1, 7);
	(*tried)++;
}

void aead_kat_check_null_for_empty(const struct aead_kat_suite *s)
{
	unsigned long tried = 0;

	for_each_vector(s, check_null_empty, &tried);
	assert_int_equal(tried, 1);
}

struct partial {
	size_t block;
	unsigned long pt, ad;
};

static void count_partial(const struct aead_kat_suite *s, const struct vec *v,
			  void *ctx)
{
	struct partial *p = ctx;

	(void)s;
	p->pt += v->ptlen % p->block != 0;
	p->ad += v->adlen % p->block != 0;
}

void aead_kat_check_partial_blocks(const struct aead_kat_suite *s, size_t block,
				   unsigned long pt, unsigned long ad)
{
	struct partial p;

	assert_true(block > 0);
	p.block = block;
	p.pt = 0;
	p.ad = 0;
	for_each_vector(s, count_partial, &p);
	assert_int_equal(p.pt, pt);
	assert_int_equal(p.ad, ad);
}
