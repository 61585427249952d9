/* ascon_common.h: the Ascon permutation on 64-bit words, byte-order helpers and the hash/XOF sponge, shared by the reference Ascon folders. */
#ifndef ASCON_COMMON_H
#define ASCON_COMMON_H

/*
 * Everything here is static inline, so each implementation folder that
 * includes this header gets its own private copy and no global symbol is
 * added to the image. An implementation includes it as
 * "../../ascon-common/ascon_common.h" (relative to its own folder); this
 * folder has no api.h, so the build does not treat it as an implementation.
 *
 * The permutation is the same in Ascon v1.2 and NIST SP 800-232; the two
 * differ in how bytes are mapped to the 64-bit words (big-endian in v1.2,
 * little-endian in SP 800-232, its Appendix A), so both loaders are here.
 * Loads and stores go byte by byte: endian- and alignment-neutral on every
 * host and on the Cortex-M4.
 */

#include <stdint.h>

/* The 320-bit state as five 64-bit words S0..S4. */
struct ascon_state {
	uint64_t x[5];
};

static inline uint64_t ascon_ror64(uint64_t x, unsigned int n)
{
	/* n is always 1..63 here, so neither shift is by 64. */
	return (x >> n) | (x << (64u - n));
}

/*
 * SP 800-232 Sec. 3.2, Table 5: the round constants c_0..c_15 of the
 * 16-round permutation are 0x3c, 0x2d, 0x1e, 0x0f, 0xf0, 0xe1, ..., 0x4b:
 * high nibble 3 - i and low nibble 0xc + i, both mod 16. Ascon-p[rnd] uses
 * the last rnd of them, c_{16-rnd}..c_15. Ascon v1.2 lists only the last
 * twelve (p^12 from 0xf0, p^6 from 0x96): the same values.
 */
static inline uint64_t ascon_rc(unsigned int i)
{
	return (uint64_t)((((3u - i) & 0xfu) << 4) | ((0xcu + i) & 0xfu));
}

/* One round: constant addition, substitution layer, linear diffusion layer (SP 800-232 Sec. 3.2-3.4). */
static inline void ascon_round(struct ascon_state *s, uint64_t c)
{
	uint64_t x0 = s->x[0], x1 = s->x[1], x2 = s->x[2];
	uint64_t x3 = s->x[3], x4 = s->x[4];
	uint64_t t0, t1, t2, t3, t4;

	/* p_C: the constant goes into the low byte of S2. */
	x2 ^= c;

	/* p_S: the 5-bit S-box on all 64 columns, in bitsliced form. */
	x0 ^= x4;
	x4 ^= x3;
	x2 ^= x1;
	t0 = ~x0 & x1;
	t1 = ~x1 & x2;
	t2 = ~x2 & x3;
	t3 = ~x3 & x4;
	t4 = ~x4 & x0;
	x0 ^= t1;
	x1 ^= t2;
	x2 ^= t3;
	x3 ^= t4;
	x4 ^= t0;
	x1 ^= x0;
	x0 ^= x4;
	x3 ^= x2;
	x2 = ~x2;

	/* p_L: each word xored with two rotations of itself. */
	s->x[0] = x0 ^ ascon_ror64(x0, 19) ^ ascon_ror64(x0, 28);
	s->x[1] = x1 ^ ascon_ror64(x1, 61) ^ ascon_ror64(x1, 39);
	s->x[2] = x2 ^ ascon_ror64(x2, 1) ^ ascon_ror64(x2, 6);
	s->x[3] = x3 ^ ascon_ror64(x3, 10) ^ ascon_ror64(x3, 17);
	s->x[4] = x4 ^ ascon_ror64(x4, 7) ^ ascon_ror64(x4, 41);
}

/* Ascon-p[rounds], rounds 1..16 (SP 800-232 Sec. 3; v1.2's p^a and p^b). */
static inline void ascon_permute(struct ascon_state *s, unsigned int rounds)
{
	unsigned int i;

	for (i = 16u - rounds; i < 16u; i++) {
		ascon_round(s, ascon_rc(i));
	}
}

/* Little-endian load of n <= 8 bytes (SP 800-232); missing high bytes are zero. */
static inline uint64_t ascon_load_le(const unsigned char *p, unsigned int n)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		x |= (uint64_t)p[i] << (8u * i);
	}
	return x;
}

/* Little-endian store of the low n <= 8 bytes of x. */
static inline void ascon_store_le(unsigned char *p, uint64_t x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		p[i] = (unsigned char)(x >> (8u * i));
	}
}

/* Big-endian load of n <= 8 bytes (v1.2): byte 0 is the top byte; missing low bytes are zero. */
static inline uint64_t ascon_load_be(const unsigned char *p, unsigned int n)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		x |= (uint64_t)p[i] << (56u - 8u * i);
	}
	return x;
}

/* Big-endian store of the top n <= 8 bytes of x. */
static inline void ascon_store_be(unsigned char *p, uint64_t x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		p[i] = (unsigned char)(x >> (56u - 8u * i));
	}
}

/*
 * SP 800-232 Algorithm 2 (pad) with its little-endian bit order: a 1 bit
 * right after the last data bit is the byte 0x01 at byte offset n (0..7)
 * of the word (v1.2 instead has 0x80 at the top end).
 */
static inline uint64_t ascon_pad_le(unsigned int n)
{
	return UINT64_C(0x01) << (8u * n);
}

/*
 * SP 800-232 Sec. 5.1-5.2 (Ascon-Hash256, Ascon-XOF128): S = p[12](IV || 0^256),
 * then M is absorbed 64 bits at a time into S0 with p[12] after each
 * block, the last block padded (a whole-block M gets one more block, of
 * padding only).
 */
static inline void ascon_sponge_absorb(struct ascon_state *s, uint64_t iv,
				       const unsigned char *in,
				       unsigned long long inlen)
{
	s->x[0] = iv;
	s->x[1] = 0;
	s->x[2] = 0;
	s->x[3] = 0;
	s->x[4] = 0;
	ascon_permute(s, 12);
	while (inlen >= 8) {
		s->x[0] ^= ascon_load_le(in, 8);
		ascon_permute(s, 12);
		in += 8;
		inlen -= 8;
	}
	s->x[0] ^= ascon_load_le(in, (unsigned int)inlen) ^
		   ascon_pad_le((unsigned int)inlen);
}

/*
 * The squeezing phase: p[12], then 64 bits of S0 per block, with p[12]
 * between blocks; the last block is cut to what is left of outlen.
 */
static inline void ascon_sponge_squeeze(struct ascon_state *s,
					unsigned char *out,
					unsigned long long outlen)
{
	ascon_permute(s, 12);
	while (outlen > 8) {
		ascon_store_le(out, s->x[0], 8);
		ascon_permute(s, 12);
		out += 8;
		outlen -= 8;
	}
	ascon_store_le(out, s->x[0], (unsigned int)outlen);
}

#endif /* ASCON_COMMON_H */
