/* encrypt.c: portable reference Ascon-128 v1.2 on 64-bit words behind the NIST LWC API. */
#include <stdint.h>

#include "api.h"
#include "crypto_aead.h"

#include "../../ascon-common/ascon_common.h"

/*
 * Everything except the two API functions is static: the firmware build
 * renames crypto_aead_encrypt/decrypt per implementation to link several
 * of them into one image, and any other global symbol would clash.
 *
 * Ascon v1.2 (Dobraunig, Eichlseder, Mendel, Schlaeffer: "Ascon v1.2",
 * submission to the NIST LWC process, Sec. 2.4) maps bytes to the 64-bit
 * words big-endian: byte 0 of a block is the top byte of S0. This is the
 * opposite of SP 800-232, so this is not Ascon-AEAD128 and the two share
 * no test vectors. The rate is 64 bits (S0 only), with p^12 around and
 * p^6 between blocks.
 */

/* Sec. 2.4: IV = k || r || a || b || 0^(160-k), i.e. 128, 64, 12, 6 as bytes. */
#define ASCON128_IV UINT64_C(0x80400c0600000000)
#define ASCON_RATE  8  /* bytes absorbed per permutation call */
#define ASCON_PA    12 /* rounds for initialization and finalization */
#define ASCON_PB    6  /* rounds between data blocks */

/* Sec. 2.4.2: domain separation, S xor (0^319 || 1): the LSB of S4. */
#define ASCON_DSEP UINT64_C(1)

/*
 * Padding: a single 1 bit after the data, then zeros. Big-endian, that is
 * the byte 0x80 at byte offset n (0..7) of the word.
 */
static uint64_t pad_be(unsigned int n)
{
	return UINT64_C(0x80) << (56u - 8u * n);
}

/* Sec. 2.4.1: S = p^a(IV || K || N) xor (0^192 || K). */
static void ascon_init(struct ascon_state *s, const unsigned char *k,
		       const unsigned char *npub)
{
	uint64_t k0 = ascon_load_be(k, 8);
	uint64_t k1 = ascon_load_be(k + 8, 8);

	s->x[0] = ASCON128_IV;
	s->x[1] = k0;
	s->x[2] = k1;
	s->x[3] = ascon_load_be(npub, 8);
	s->x[4] = ascon_load_be(npub + 8, 8);
	ascon_permute(s, ASCON_PA);
	s->x[3] ^= k0;
	s->x[4] ^= k1;
}

/*
 * Sec. 2.4.2: associated data is absorbed only when non-empty (an empty A
 * gets no padding block); the domain-separation bit is flipped in every
 * case.
 */
static void ascon_absorb_ad(struct ascon_state *s, const unsigned char *ad,
			    unsigned long long adlen)
{
	unsigned int r;

	if (adlen > 0) {
		while (adlen >= ASCON_RATE) {
			s->x[0] ^= ascon_load_be(ad, 8);
			ascon_permute(s, ASCON_PB);
			ad += ASCON_RATE;
			adlen -= ASCON_RATE;
		}
		/* Last block, padded (a whole-block A still gets a block of padding). */
		r = (unsigned int)adlen;
		s->x[0] ^= ascon_load_be(ad, r) ^ pad_be(r);
		ascon_permute(s, ASCON_PB);
	}
	s->x[4] ^= ASCON_DSEP;
}

/*
 * Sec. 2.4.4: S = p^a(S xor (0^64 || K || 0^128)); the tag is the last 128
 * bits of the state xored with K.
 */
static void ascon_final(struct ascon_state *s, const unsigned char *k,
			unsigned char *tag)
{
	uint64_t k0 = ascon_load_be(k, 8);
	uint64_t k1 = ascon_load_be(k + 8, 8);

	s->x[1] ^= k0;
	s->x[2] ^= k1;
	ascon_permute(s, ASCON_PA);
	ascon_store_be(tag, s->x[3] ^ k0, 8);
	ascon_store_be(tag + 8, s->x[4] ^ k1, 8);
}

int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k)
{
	struct ascon_state s;
	unsigned long long left = mlen;
	unsigned int r;

	(void)nsec;
	ascon_init(&s, k, npub);
	ascon_absorb_ad(&s, ad, adlen);

	/* Sec. 2.4.3: C_i = S_r xor P_i, S_r = C_i; no p^b after the last block. */
	while (left >= ASCON_RATE) {
		s.x[0] ^= ascon_load_be(m, 8);
		ascon_store_be(c, s.x[0], 8);
		ascon_permute(&s, ASCON_PB);
		m += ASCON_RATE;
		c += ASCON_RATE;
		left -= ASCON_RATE;
	}
	/* The last block is always padded, even when it is empty. */
	r = (unsigned int)left;
	s.x[0] ^= ascon_load_be(m, r);
	ascon_store_be(c, s.x[0], r);
	s.x[0] ^= pad_be(r);
	c += r;

	ascon_final(&s, k, c);
	*clen = mlen + CRYPTO_ABYTES;
	return 0;
}

/*
 * Replace the top n bytes of the state word *x by the ciphertext bytes cw
 * (cw has zero low bytes) and return the plaintext bytes *x xor cw (also
 * with zero low bytes).
 */
static uint64_t dec_word(uint64_t *x, uint64_t cw, unsigned int n)
{
	uint64_t p = *x ^ cw;
	uint64_t keep;

	if (n == 8) {
		*x = cw;
		return p;
	}
	if (n == 0) {
		return 0;
	}
	keep = ~UINT64_C(0) >> (8u * n); /* 0 < n < 8: the bytes not replaced */
	*x = (*x & keep) | cw;
	return p & ~keep;
}

int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k)
{
	struct ascon_state s;
	unsigned char tag[CRYPTO_ABYTES];
	unsigned long long plen, left;
	unsigned char *out = m;
	unsigned int r, i;
	unsigned int diff = 0;

	(void)nsec;
	*mlen = 0;
	if (clen < CRYPTO_ABYTES) {
		return -1;
	}
	plen = clen - CRYPTO_ABYTES;
	left = plen;

	ascon_init(&s, k, npub);
	ascon_absorb_ad(&s, ad, adlen);

	/* Sec. 2.4.3: P_i = S_r xor C_i, then S_r = C_i. */
	while (left >= ASCON_RATE) {
		ascon_store_be(m, dec_word(&s.x[0], ascon_load_be(c, 8), 8), 8);
		ascon_permute(&s, ASCON_PB);
		m += ASCON_RATE;
		c += ASCON_RATE;
		left -= ASCON_RATE;
	}
	/* Last (possibly empty) block: only r bytes of the rate are replaced, then padded. */
	r = (unsigned int)left;
	ascon_store_be(m, dec_word(&s.x[0], ascon_load_be(c, r), r), r);
	s.x[0] ^= pad_be(r);
	c += r;

	ascon_final(&s, k, tag);

	/*
	 * Constant-time comparison: every byte is looked at whatever the
	 * first difference, and the only branch is on the final verdict.
	 */
	for (i = 0; i < CRYPTO_ABYTES; i++) {
		diff |= (unsigned int)(tag[i] ^ c[i]);
	}
	if (diff != 0) {
		/*
		 * No unverified plaintext leaves this function. A loop rather
		 * than memset keeps the C library's out of the image (the stub
		 * leaves it out for footprint).
		 */
		for (left = 0; left < plen; left++) {
			out[left] = 0;
		}
		return -1;
	}
	*mlen = plen;
	return 0;
}
