/* encrypt.c: reference AES-128-GCM (NIST SP 800-38D), 96-bit IV and 128-bit tag, behind the NIST LWC API. */
#include <stdint.h>

#include "api.h"
#include "crypto_aead.h"
#include "../../aes-common/aes_core.h"

/*
 * Everything except the two API functions is static (the build renames
 * those per implementation). The AES-128 key is expanded in every call:
 * the LWC API has no key setup, so a per-message figure includes it.
 *
 * SP 800-38D numbers the bits of a block from the left: bit 0 is the most
 * significant bit of byte 0 (Sec. 6.1). GHASH below keeps a block as four
 * big-endian 32-bit words, w[0] holding bytes 0..3, so bit i is bit
 * 31 - i % 32 of w[i / 32].
 */
#define GCM_BLOCK 16

/*
 * Sec. 5.2.1.1: len(P) <= 2^39 - 256 bits, len(A) <= 2^64 - 1 bits. A
 * longer P would wrap the 32-bit counter of inc32 and reuse key stream.
 */
#define GCM_MAX_PBYTES ((UINT64_C(1) << 36) - 32)
#define GCM_MAX_ABYTES ((UINT64_C(1) << 61) - 1)

static uint32_t load32_be(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void store32_be(unsigned char *p, uint32_t x)
{
	p[0] = (unsigned char)(x >> 24);
	p[1] = (unsigned char)(x >> 16);
	p[2] = (unsigned char)(x >> 8);
	p[3] = (unsigned char)x;
}

struct ghash {
	uint32_t h[4]; /* the hash subkey H = CIPH_K(0^128) */
	uint32_t y[4]; /* the running value Y_i */
};

/*
 * Sec. 6.3, Algorithm 1: Y = Y * H in GF(2^128) with R = 11100001 || 0^120.
 * Every branch of the algorithm becomes a mask (0 or all ones), so the
 * time depends on neither Y nor H: 128 steps of xor, and, shift.
 */
static void ghash_mul(struct ghash *g)
{
	uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0;
	uint32_t v0 = g->h[0], v1 = g->h[1], v2 = g->h[2], v3 = g->h[3];
	unsigned int i;

	for (i = 0; i < 128; i++) {
		uint32_t take = 0u - ((g->y[i / 32] >> (31 - i % 32)) & 1u);
		uint32_t reduce = 0u - (v3 & 1u); /* LSB_1(V) */

		z0 ^= v0 & take;
		z1 ^= v1 & take;
		z2 ^= v2 & take;
		z3 ^= v3 & take;
		v3 = (v3 >> 1) | (v2 << 31);
		v2 = (v2 >> 1) | (v1 << 31);
		v1 = (v1 >> 1) | (v0 << 31);
		v0 = (v0 >> 1) ^ (0xe1000000u & reduce);
	}
	g->y[0] = z0;
	g->y[1] = z1;
	g->y[2] = z2;
	g->y[3] = z3;
}

static void ghash_block(struct ghash *g, const unsigned char *b)
{
	unsigned int j;

	for (j = 0; j < 4; j++) {
		g->y[j] ^= load32_be(b + 4 * j);
	}
	ghash_mul(g);
}

/*
 * Sec. 7.1 step 5: A and C each go in whole blocks, the last one padded
 * with zeros (0^v, 0^u). Nothing is read when len is 0, so p may be NULL.
 */
static void ghash_padded(struct ghash *g, const unsigned char *p,
			 unsigned long long len)
{
	unsigned char last[GCM_BLOCK];
	unsigned int i;

	while (len >= GCM_BLOCK) {
		ghash_block(g, p);
		p += GCM_BLOCK;
		len -= GCM_BLOCK;
	}
	if (len > 0) {
		for (i = 0; i < GCM_BLOCK; i++) {
			last[i] = i < len ? p[i] : 0;
		}
		ghash_block(g, last);
	}
}

/* Sec. 7.1 step 5: the last block, [len(A)]_64 || [len(C)]_64 in bits. */
static void ghash_lengths(struct ghash *g, unsigned long long adlen,
			  unsigned long long clen)
{
	unsigned char b[GCM_BLOCK];
	uint64_t abits = (uint64_t)adlen * 8, cbits = (uint64_t)clen * 8;

	store32_be(b, (uint32_t)(abits >> 32));
	store32_be(b + 4, (uint32_t)abits);
	store32_be(b + 8, (uint32_t)(cbits >> 32));
	store32_be(b + 12, (uint32_t)cbits);
	ghash_block(g, b);
}

/* The per-key and per-IV values shared by encryption and decryption. */
struct gcm {
	uint8_t rk[AES128_RKBYTES];
	unsigned char j0[GCM_BLOCK]; /* pre-counter block J0 */
	struct ghash g;
};

/* Sec. 7.1 steps 1-2 for a 96-bit IV: H = CIPH_K(0^128), J0 = IV || 0^31 || 1. */
static void gcm_init(struct gcm *s, const unsigned char *k,
		     const unsigned char *npub)
{
	unsigned char h[GCM_BLOCK];
	unsigned int i;

	aes128_expand_key(s->rk, k);
	for (i = 0; i < GCM_BLOCK; i++) {
		h[i] = 0;
	}
	aes128_encrypt_block(h, h, s->rk);
	for (i = 0; i < 4; i++) {
		s->g.h[i] = load32_be(h + 4 * i);
		s->g.y[i] = 0;
	}
	for (i = 0; i < CRYPTO_NPUBBYTES; i++) {
		s->j0[i] = npub[i];
	}
	store32_be(s->j0 + 12, 1);
}

/*
 * Sec. 6.5, GCTR from inc32(J0): out = in xor CIPH_K(CB_i); the last block
 * may be partial. The counter is the last 32 bits of the block, mod 2^32.
 */
static void gcm_ctr(const struct gcm *s, unsigned char *out,
		    const unsigned char *in, unsigned long long len)
{
	unsigned char cb[GCM_BLOCK], ks[GCM_BLOCK];
	uint32_t ctr = load32_be(s->j0 + 12);
	unsigned int i, n;

	for (i = 0; i < 12; i++) {
		cb[i] = s->j0[i];
	}
	while (len > 0) {
		ctr++;
		store32_be(cb + 12, ctr);
		aes128_encrypt_block(ks, cb, s->rk);
		n = len < GCM_BLOCK ? (unsigned int)len : GCM_BLOCK;
		for (i = 0; i < n; i++) {
			out[i] = in[i] ^ ks[i];
		}
		out += n;
		in += n;
		len -= n;
	}
}

/* Sec. 7.1 steps 5-6: T = MSB_128(GCTR(J0, S)) with S the GHASH of A, C and their lengths. */
static void gcm_tag(struct gcm *s, unsigned char *tag, const unsigned char *ad,
		    unsigned long long adlen, const unsigned char *c,
		    unsigned long long clen)
{
	unsigned char ej0[GCM_BLOCK];
	unsigned int i;

	ghash_padded(&s->g, ad, adlen);
	ghash_padded(&s->g, c, clen);
	ghash_lengths(&s->g, adlen, clen);
	aes128_encrypt_block(ej0, s->j0, s->rk);
	for (i = 0; i < 4; i++) {
		store32_be(tag + 4 * i, s->g.y[i]);
	}
	for (i = 0; i < GCM_BLOCK; i++) {
		tag[i] ^= ej0[i];
	}
}

int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k)
{
	struct gcm s;

	(void)nsec;
	if (mlen > GCM_MAX_PBYTES || adlen > GCM_MAX_ABYTES) {
		return -1;
	}
	gcm_init(&s, k, npub);
	gcm_ctr(&s, c, m, mlen);
	gcm_tag(&s, c + mlen, ad, adlen, c, mlen);
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
 * Sec. 7.2: the tag is computed over the ciphertext and checked before any
 * plaintext is produced. On failure the output area is zeroed, so a caller
 * that ignores the return value still sees no unverified plaintext.
 */
int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k)
{
	struct gcm s;
	unsigned char tag[CRYPTO_ABYTES];
	unsigned long long plen, i;

	(void)nsec;
	*mlen = 0;
	if (clen < CRYPTO_ABYTES) {
		return -1;
	}
	plen = clen - CRYPTO_ABYTES;
	if (plen > GCM_MAX_PBYTES || adlen > GCM_MAX_ABYTES) {
		return -1;
	}
	gcm_init(&s, k, npub);
	gcm_tag(&s, tag, ad, adlen, c, plen);
	if (tag_verify(tag, c + plen) != 0) {
		for (i = 0; i < plen; i++) {
			m[i] = 0;
		}
		return -1;
	}
	gcm_ctr(&s, m, c, plen);
	*mlen = plen;
	return 0;
}
