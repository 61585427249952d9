/* encrypt.c: portable reference AEAD_CHACHA20_POLY1305 (RFC 8439) behind the NIST LWC API. */
#include <stdint.h>

#include "api.h"
#include "crypto_aead.h"

/*
 * Everything except the two API functions is static (the build renames
 * those per implementation). RFC 8439 is little-endian throughout; loads
 * and stores go byte by byte, which is alignment-neutral on the M4.
 */
#define CHACHA_BLOCK 64
#define POLY_BLOCK   16

/*
 * Sec. 2.8: the block counter is 32 bits and starts at 1 for the message,
 * so at most 2^32 - 1 blocks: 2^38 - 64 bytes (the RFC's own limit).
 */
#define AEAD_MAX_PBYTES ((UINT64_C(1) << 38) - 64)

static uint32_t load32_le(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void store32_le(unsigned char *p, uint32_t x)
{
	p[0] = (unsigned char)x;
	p[1] = (unsigned char)(x >> 8);
	p[2] = (unsigned char)(x >> 16);
	p[3] = (unsigned char)(x >> 24);
}

static uint32_t rol32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32u - n)); /* n is 7, 8, 12 or 16 */
}

/* ---------------------------------------------------------------- ChaCha20 */

/* Sec. 2.3: constants, key, counter, nonce; only the counter changes per block. */
struct chacha {
	uint32_t in[16];
};

static void chacha_init(struct chacha *st, const unsigned char *k,
			const unsigned char *npub)
{
	unsigned int i;

	st->in[0] = 0x61707865; /* "expa" */
	st->in[1] = 0x3320646e; /* "nd 3" */
	st->in[2] = 0x79622d32; /* "2-by" */
	st->in[3] = 0x6b206574; /* "te k" */
	for (i = 0; i < 8; i++) {
		st->in[4 + i] = load32_le(k + 4 * i);
	}
	st->in[12] = 0;
	for (i = 0; i < 3; i++) {
		st->in[13 + i] = load32_le(npub + 4 * i);
	}
}

/* Sec. 2.1: the quarter round (a macro, so the four words stay in registers). */
#define QR(a, b, c, d)                                                         \
	do {                                                                   \
		a += b;                                                        \
		d = rol32(d ^ a, 16);                                          \
		c += d;                                                        \
		b = rol32(b ^ c, 12);                                          \
		a += b;                                                        \
		d = rol32(d ^ a, 8);                                           \
		c += d;                                                        \
		b = rol32(b ^ c, 7);                                           \
	} while (0)

/* Sec. 2.3: 20 rounds (10 column + diagonal pairs), add the input, serialize. */
static void chacha_block(const struct chacha *st, uint32_t counter,
			 unsigned char out[CHACHA_BLOCK])
{
	uint32_t x[16];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		x[i] = st->in[i];
	}
	x[12] = counter;
	for (i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++) {
		uint32_t in = i == 12 ? counter : st->in[i];

		store32_le(out + 4 * i, x[i] + in);
	}
}

/* Sec. 2.4: out = in xor key stream, blocks counted from 1 (Sec. 2.8). */
static void chacha_xor(const struct chacha *st, unsigned char *out,
		       const unsigned char *in, unsigned long long len)
{
	unsigned char ks[CHACHA_BLOCK];
	uint32_t counter = 1;
	unsigned int i, n;

	while (len > 0) {
		chacha_block(st, counter, ks);
		counter++;
		n = len < CHACHA_BLOCK ? (unsigned int)len : CHACHA_BLOCK;
		for (i = 0; i < n; i++) {
			out[i] = in[i] ^ ks[i];
		}
		out += n;
		in += n;
		len -= n;
	}
}

/* ---------------------------------------------------------------- Poly1305 */

/*
 * Sec. 2.5: h = (h + block) * r mod p, p = 2^130 - 5. Numbers mod p are
 * five 26-bit limbs (130 bits). r is clamped, so every limb of r is below
 * 2^26 and, since 2^130 = 5 mod p, a product limb that lands at 2^130 or
 * above comes back multiplied by 5: s_i = 5 r_i < 2^29. With h_i < 2^27
 * each 64-bit column sum is below 5 * 2^27 * 2^29 < 2^59: no overflow.
 * No branch and no table depends on r, s, the message or h.
 */
struct poly1305 {
	uint32_t r[5], s[5]; /* s[i] = 5 * r[i]; s[0] unused */
	uint32_t h[5];
	uint32_t pad[4]; /* the second half of the one-time key, "s" in the RFC */
};

#define LIMB 0x3ffffffu /* 2^26 - 1 */

static void poly_init(struct poly1305 *p, const unsigned char key[32])
{
	/* Sec. 2.5: clear the top 4 bits of r[3,7,11,15] and the low 2 of r[4,8,12]. */
	uint32_t t0 = load32_le(key) & 0x0fffffff;
	uint32_t t1 = load32_le(key + 4) & 0x0ffffffc;
	uint32_t t2 = load32_le(key + 8) & 0x0ffffffc;
	uint32_t t3 = load32_le(key + 12) & 0x0ffffffc;
	unsigned int i;

	/* The 128-bit r as bits 0-25, 26-51, 52-77, 78-103, 104-127. */
	p->r[0] = t0 & LIMB;
	p->r[1] = (t0 >> 26 | t1 << 6) & LIMB;
	p->r[2] = (t1 >> 20 | t2 << 12) & LIMB;
	p->r[3] = (t2 >> 14 | t3 << 18) & LIMB;
	p->r[4] = t3 >> 8;
	for (i = 0; i < 5; i++) {
		p->s[i] = p->r[i] * 5;
		p->h[i] = 0;
	}
	for (i = 0; i < 4; i++) {
		p->pad[i] = load32_le(key + 16 + 4 * i);
	}
}

/*
 * One 16-byte block with the 2^128 bit set (the 0x01 byte appended in
 * Sec. 2.5). The AEAD pads its input to whole blocks itself (Sec. 2.8), so
 * Poly1305 never sees a short block here.
 */
static void poly_block(struct poly1305 *p, const unsigned char *b)
{
	const uint32_t *r = p->r, *s = p->s;
	uint32_t t0 = load32_le(b), t1 = load32_le(b + 4);
	uint32_t t2 = load32_le(b + 8), t3 = load32_le(b + 12);
	uint32_t h0, h1, h2, h3, h4;
	uint64_t d0, d1, d2, d3, d4;
	uint32_t c;

	h0 = p->h[0] + (t0 & LIMB);
	h1 = p->h[1] + ((t0 >> 26 | t1 << 6) & LIMB);
	h2 = p->h[2] + ((t1 >> 20 | t2 << 12) & LIMB);
	h3 = p->h[3] + ((t2 >> 14 | t3 << 18) & LIMB);
	h4 = p->h[4] + (t3 >> 8 | 1u << 24);

	/* Schoolbook product; limbs at 2^(26*(i+j)) with i + j >= 5 wrap with 5. */
	d0 = (uint64_t)h0 * r[0] + (uint64_t)h1 * s[4] + (uint64_t)h2 * s[3] +
	     (uint64_t)h3 * s[2] + (uint64_t)h4 * s[1];
	d1 = (uint64_t)h0 * r[1] + (uint64_t)h1 * r[0] + (uint64_t)h2 * s[4] +
	     (uint64_t)h3 * s[3] + (uint64_t)h4 * s[2];
	d2 = (uint64_t)h0 * r[2] + (uint64_t)h1 * r[1] + (uint64_t)h2 * r[0] +
	     (uint64_t)h3 * s[4] + (uint64_t)h4 * s[3];
	d3 = (uint64_t)h0 * r[3] + (uint64_t)h1 * r[2] + (uint64_t)h2 * r[1] +
	     (uint64_t)h3 * r[0] + (uint64_t)h4 * s[4];
	d4 = (uint64_t)h0 * r[4] + (uint64_t)h1 * r[3] + (uint64_t)h2 * r[2] +
	     (uint64_t)h3 * r[1] + (uint64_t)h4 * r[0];

	/* Partial carry: limbs back below 2^26, except h1 which may reach 2^26 + small. */
	d1 += d0 >> 26;
	d2 += d1 >> 26;
	d3 += d2 >> 26;
	d4 += d3 >> 26;
	c = (uint32_t)(d4 >> 26);
	h0 = (uint32_t)d0 & LIMB;
	h1 = (uint32_t)d1 & LIMB;
	h2 = (uint32_t)d2 & LIMB;
	h3 = (uint32_t)d3 & LIMB;
	h4 = (uint32_t)d4 & LIMB;
	h0 += c * 5;
	h1 += h0 >> 26;
	h0 &= LIMB;

	p->h[0] = h0;
	p->h[1] = h1;
	p->h[2] = h2;
	p->h[3] = h3;
	p->h[4] = h4;
}

/* Sec. 2.8: data in whole blocks, the last one padded with zeros; p may be NULL when len is 0. */
static void poly_padded(struct poly1305 *p, const unsigned char *d,
			unsigned long long len)
{
	unsigned char last[POLY_BLOCK];
	unsigned int i;

	while (len >= POLY_BLOCK) {
		poly_block(p, d);
		d += POLY_BLOCK;
		len -= POLY_BLOCK;
	}
	if (len > 0) {
		for (i = 0; i < POLY_BLOCK; i++) {
			last[i] = i < len ? d[i] : 0;
		}
		poly_block(p, last);
	}
}

/* Sec. 2.5: fully reduce h mod p, add the pad mod 2^128, write the tag. */
static void poly_finish(struct poly1305 *p, unsigned char tag[16])
{
	uint32_t h0 = p->h[0], h1 = p->h[1], h2 = p->h[2], h3 = p->h[3];
	uint32_t h4 = p->h[4];
	uint32_t g0, g1, g2, g3, g4, c, keep;
	uint64_t f;

	/* Full carry: h < 2^130 with every limb below 2^26. */
	h2 += h1 >> 26;
	h1 &= LIMB;
	h3 += h2 >> 26;
	h2 &= LIMB;
	h4 += h3 >> 26;
	h3 &= LIMB;
	h0 += (h4 >> 26) * 5;
	h4 &= LIMB;
	h1 += h0 >> 26;
	h0 &= LIMB;

	/*
	 * Now h < 2^130 but possibly >= p. g = h + 5 - 2^130 is non-negative
	 * exactly when h >= p, and then h mod p = g. Select by mask.
	 */
	g0 = h0 + 5;
	c = g0 >> 26;
	g0 &= LIMB;
	g1 = h1 + c;
	c = g1 >> 26;
	g1 &= LIMB;
	g2 = h2 + c;
	c = g2 >> 26;
	g2 &= LIMB;
	g3 = h3 + c;
	c = g3 >> 26;
	g3 &= LIMB;
	g4 = h4 + c - (1u << 26);
	/* All ones when g4 did not go negative, i.e. h >= p: take g. */
	keep = (g4 >> 31) - 1;
	h0 = (h0 & ~keep) | (g0 & keep);
	h1 = (h1 & ~keep) | (g1 & keep);
	h2 = (h2 & ~keep) | (g2 & keep);
	h3 = (h3 & ~keep) | (g3 & keep);
	h4 = (h4 & ~keep) | (g4 & keep);

	/* Back to four 32-bit words (h mod 2^128), then + pad with carries. */
	f = (uint64_t)(h0 | h1 << 26) + p->pad[0];
	store32_le(tag, (uint32_t)f);
	f = (uint64_t)(h1 >> 6 | h2 << 20) + p->pad[1] + (f >> 32);
	store32_le(tag + 4, (uint32_t)f);
	f = (uint64_t)(h2 >> 12 | h3 << 14) + p->pad[2] + (f >> 32);
	store32_le(tag + 8, (uint32_t)f);
	f = (uint64_t)(h3 >> 18 | h4 << 8) + p->pad[3] + (f >> 32);
	store32_le(tag + 12, (uint32_t)f);
}

/* ---------------------------------------------------------------- AEAD */

/*
 * Sec. 2.8: the Poly1305 key is the first 32 bytes of block 0 (Sec. 2.6),
 * then the tag covers AD || pad || C || pad || le64(adlen) || le64(clen).
 */
static void aead_tag(const struct chacha *st, unsigned char tag[16],
		     const unsigned char *ad, unsigned long long adlen,
		     const unsigned char *c, unsigned long long clen)
{
	unsigned char block0[CHACHA_BLOCK], lens[POLY_BLOCK];
	struct poly1305 p;

	chacha_block(st, 0, block0);
	poly_init(&p, block0);
	poly_padded(&p, ad, adlen);
	poly_padded(&p, c, clen);
	store32_le(lens, (uint32_t)adlen);
	store32_le(lens + 4, (uint32_t)(adlen >> 32));
	store32_le(lens + 8, (uint32_t)clen);
	store32_le(lens + 12, (uint32_t)(clen >> 32));
	poly_block(&p, lens);
	poly_finish(&p, tag);
}

int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k)
{
	struct chacha st;

	(void)nsec;
	if (mlen > AEAD_MAX_PBYTES) {
		return -1;
	}
	chacha_init(&st, k, npub);
	chacha_xor(&st, c, m, mlen);
	aead_tag(&st, c + mlen, ad, adlen, c, mlen);
	*clen = mlen + CRYPTO_ABYTES;
	return 0;
}

/* Compare two tags in a time that depends on neither: 0 if equal, -1 if not. */
static int tag_verify(const unsigned char *a, const unsigned char *b)
{
	unsigned int diff = 0, i;

	for (i = 0; i < CRYPTO_ABYTES; i++) {
		diff |= (unsigned int)(a[i] ^ b[i]);
	}
	/* diff is 0..255: (diff - 1) >> 8 is all ones only for 0. */
	return (int)(1u & ((diff - 1u) >> 8)) - 1;
}

/*
 * The tag is computed over the ciphertext and checked (RFC 8439 Sec. 4,
 * in constant time) before any plaintext is produced; on failure the
 * output area is zeroed, so no unverified plaintext is released.
 */
int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k)
{
	struct chacha st;
	unsigned char tag[CRYPTO_ABYTES];
	unsigned long long plen, i;

	(void)nsec;
	*mlen = 0;
	if (clen < CRYPTO_ABYTES) {
		return -1;
	}
	plen = clen - CRYPTO_ABYTES;
	if (plen > AEAD_MAX_PBYTES) {
		return -1;
	}
	chacha_init(&st, k, npub);
	aead_tag(&st, tag, ad, adlen, c, plen);
	if (tag_verify(tag, c + plen) != 0) {
		for (i = 0; i < plen; i++) {
			m[i] = 0;
		}
		return -1;
	}
	chacha_xor(&st, m, c, plen);
	*mlen = plen;
	return 0;
}
