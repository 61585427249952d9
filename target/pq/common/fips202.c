/* fips202: hilrun's own portable Keccak-f[1600] and the SHA-3/SHAKE functions of fips202.h, written from FIPS 202 for schemes whose config names no common code. */
#include "fips202.h"

#include <string.h>

#define NROUNDS	  24
#define ROL(a, n) (((a) << (n)) | ((a) >> (64 - (n))))

/* FIPS 202, 3.2.5: the round constants of iota. */
static const uint64_t round_constants[NROUNDS] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

/* rho's offsets and pi's lane order, walked as one cycle from lane 1. */
static const uint8_t rho_offsets[24] = {1,  3,	6,  10, 15, 21, 28, 36,
					45, 55, 2,  14, 27, 41, 56, 8,
					25, 43, 62, 18, 39, 61, 20, 44};
static const uint8_t pi_lanes[24] = {10, 7,  11, 17, 18, 3,  5,	 16,
				     8,	 21, 24, 4,  15, 23, 19, 13,
				     12, 2,  20, 14, 22, 9,  6,	 1};

static void keccak_f1600(uint64_t *s)
{
	uint64_t c[5], t;
	unsigned r, i, j;

	for (r = 0; r < NROUNDS; r++) {
		for (i = 0; i < 5; i++) {
			c[i] = s[i] ^ s[i + 5] ^ s[i + 10] ^ s[i + 15] ^
			       s[i + 20];
		}
		for (i = 0; i < 5; i++) {
			t = c[(i + 4) % 5] ^ ROL(c[(i + 1) % 5], 1);
			for (j = 0; j < 25; j += 5) {
				s[j + i] ^= t;
			}
		}
		t = s[1];
		for (i = 0; i < 24; i++) {
			uint64_t u = s[pi_lanes[i]];

			s[pi_lanes[i]] = ROL(t, rho_offsets[i]);
			t = u;
		}
		for (j = 0; j < 25; j += 5) {
			for (i = 0; i < 5; i++) {
				c[i] = s[j + i];
			}
			for (i = 0; i < 5; i++) {
				s[j + i] ^= ~c[(i + 1) % 5] & c[(i + 2) % 5];
			}
		}
		s[0] ^= round_constants[r];
	}
}

static void xor_byte(uint64_t *s, size_t pos, uint8_t b)
{
	s[pos / 8] ^= (uint64_t)b << (8 * (pos % 8));
}

static uint8_t get_byte(const uint64_t *s, size_t pos)
{
	return (uint8_t)(s[pos / 8] >> (8 * (pos % 8)));
}

/* Incremental absorb: s[25] is the position in the current block. */
static void inc_init(uint64_t *s)
{
	memset(s, 0, 26 * sizeof(uint64_t));
}

static void inc_absorb(uint64_t *s, size_t rate, const uint8_t *in,
		       size_t inlen)
{
	size_t pos = (size_t)s[25];

	while (inlen > 0) {
		xor_byte(s, pos++, *in++);
		inlen--;
		if (pos == rate) {
			keccak_f1600(s);
			pos = 0;
		}
	}
	s[25] = pos;
}

/* Pad (domain bits p, then the final 1 bit); s[25] then counts the bytes
 * left to squeeze from the current block: none until the next permutation. */
static void inc_finalize(uint64_t *s, size_t rate, uint8_t p)
{
	xor_byte(s, (size_t)s[25], p);
	xor_byte(s, rate - 1, 0x80);
	s[25] = 0;
}

static void inc_squeeze(uint8_t *out, size_t outlen, uint64_t *s, size_t rate)
{
	while (outlen > 0) {
		if (s[25] == 0) {
			keccak_f1600(s);
			s[25] = rate;
		}
		*out++ = get_byte(s, rate - (size_t)s[25]);
		s[25]--;
		outlen--;
	}
}

/* Non-incremental: absorb everything and pad, no permutation yet. */
static void absorb_once(uint64_t *s, size_t rate, const uint8_t *in,
			size_t inlen, uint8_t p)
{
	uint64_t t[26];

	inc_init(t);
	inc_absorb(t, rate, in, inlen);
	inc_finalize(t, rate, p);
	memcpy(s, t, 25 * sizeof(uint64_t));
}

static void squeeze_blocks(uint8_t *out, size_t nblocks, uint64_t *s,
			   size_t rate)
{
	size_t i;

	while (nblocks-- > 0) {
		keccak_f1600(s);
		for (i = 0; i < rate; i++) {
			*out++ = get_byte(s, i);
		}
	}
}

#define SHAKE_PAD 0x1F
#define SHA3_PAD  0x06

void shake128_absorb(shake128ctx *state, const uint8_t *input, size_t inlen)
{
	absorb_once(state->ctx, SHAKE128_RATE, input, inlen, SHAKE_PAD);
}

void shake128_squeezeblocks(uint8_t *output, size_t nblocks, shake128ctx *state)
{
	squeeze_blocks(output, nblocks, state->ctx, SHAKE128_RATE);
}

void shake128_ctx_release(shake128ctx *state)
{
	(void)state;
}

void shake128_ctx_clone(shake128ctx *dest, const shake128ctx *src)
{
	memcpy(dest, src, sizeof(*dest));
}

void shake256_absorb(shake256ctx *state, const uint8_t *input, size_t inlen)
{
	absorb_once(state->ctx, SHAKE256_RATE, input, inlen, SHAKE_PAD);
}

void shake256_squeezeblocks(uint8_t *output, size_t nblocks, shake256ctx *state)
{
	squeeze_blocks(output, nblocks, state->ctx, SHAKE256_RATE);
}

void shake256_ctx_release(shake256ctx *state)
{
	(void)state;
}

void shake256_ctx_clone(shake256ctx *dest, const shake256ctx *src)
{
	memcpy(dest, src, sizeof(*dest));
}

/* The incremental APIs differ only in rate and padding. */
#define HIL_INC_API(name, type, rate, pad)                                     \
	void name##_inc_init(type *state)                                      \
	{                                                                      \
		inc_init(state->ctx);                                          \
	}                                                                      \
	void name##_inc_absorb(type *state, const uint8_t *input,              \
			       size_t inlen)                                   \
	{                                                                      \
		inc_absorb(state->ctx, rate, input, inlen);                    \
	}                                                                      \
	void name##_inc_ctx_clone(type *dest, const type *src)                 \
	{                                                                      \
		memcpy(dest, src, sizeof(*dest));                              \
	}                                                                      \
	void name##_inc_ctx_release(type *state)                               \
	{                                                                      \
		(void)state;                                                   \
	}

HIL_INC_API(shake128, shake128incctx, SHAKE128_RATE, SHAKE_PAD)
HIL_INC_API(shake256, shake256incctx, SHAKE256_RATE, SHAKE_PAD)
HIL_INC_API(sha3_256, sha3_256incctx, SHA3_256_RATE, SHA3_PAD)
HIL_INC_API(sha3_384, sha3_384incctx, SHA3_384_RATE, SHA3_PAD)
HIL_INC_API(sha3_512, sha3_512incctx, SHA3_512_RATE, SHA3_PAD)

void shake128_inc_finalize(shake128incctx *state)
{
	inc_finalize(state->ctx, SHAKE128_RATE, SHAKE_PAD);
}

void shake128_inc_squeeze(uint8_t *output, size_t outlen, shake128incctx *state)
{
	inc_squeeze(output, outlen, state->ctx, SHAKE128_RATE);
}

void shake256_inc_finalize(shake256incctx *state)
{
	inc_finalize(state->ctx, SHAKE256_RATE, SHAKE_PAD);
}

void shake256_inc_squeeze(uint8_t *output, size_t outlen, shake256incctx *state)
{
	inc_squeeze(output, outlen, state->ctx, SHAKE256_RATE);
}

static void xof(uint8_t *output, size_t outlen, const uint8_t *input,
		size_t inlen, size_t rate)
{
	uint64_t s[26];

	inc_init(s);
	inc_absorb(s, rate, input, inlen);
	inc_finalize(s, rate, SHAKE_PAD);
	inc_squeeze(output, outlen, s, rate);
}

void shake128(uint8_t *output, size_t outlen, const uint8_t *input,
	      size_t inlen)
{
	xof(output, outlen, input, inlen, SHAKE128_RATE);
}

void shake256(uint8_t *output, size_t outlen, const uint8_t *input,
	      size_t inlen)
{
	xof(output, outlen, input, inlen, SHAKE256_RATE);
}

/* A SHA-3 digest: pad, one permutation, the first outlen bytes. */
static void sha3_final(uint8_t *output, size_t outlen, uint64_t *s, size_t rate)
{
	inc_finalize(s, rate, SHA3_PAD);
	inc_squeeze(output, outlen, s, rate);
}

void sha3_256_inc_finalize(uint8_t *output, sha3_256incctx *state)
{
	sha3_final(output, 32, state->ctx, SHA3_256_RATE);
}

void sha3_384_inc_finalize(uint8_t *output, sha3_384incctx *state)
{
	sha3_final(output, 48, state->ctx, SHA3_384_RATE);
}

void sha3_512_inc_finalize(uint8_t *output, sha3_512incctx *state)
{
	sha3_final(output, 64, state->ctx, SHA3_512_RATE);
}

void sha3_256(uint8_t *output, const uint8_t *input, size_t inlen)
{
	sha3_256incctx c;

	sha3_256_inc_init(&c);
	sha3_256_inc_absorb(&c, input, inlen);
	sha3_256_inc_finalize(output, &c);
}

void sha3_384(uint8_t *output, const uint8_t *input, size_t inlen)
{
	sha3_384incctx c;

	sha3_384_inc_init(&c);
	sha3_384_inc_absorb(&c, input, inlen);
	sha3_384_inc_finalize(output, &c);
}

void sha3_512(uint8_t *output, const uint8_t *input, size_t inlen)
{
	sha3_512incctx c;

	sha3_512_inc_init(&c);
	sha3_512_inc_absorb(&c, input, inlen);
	sha3_512_inc_finalize(output, &c);
}
