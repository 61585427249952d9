/* sha2: hilrun's own portable SHA-224/256/384/512, written from FIPS 180-4, behind mupq's sha2.h names for schemes whose config names no common code. */
#include "sha2.h"

#include <string.h>

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint64_t load64(const uint8_t *p)
{
	return (uint64_t)load32(p) << 32 | load32(p + 4);
}

static void store64(uint8_t *p, uint64_t v)
{
	store32(p, (uint32_t)(v >> 32));
	store32(p + 4, (uint32_t)v);
}

/* The byte count after the state, little-endian. */
static uint64_t count_get(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--) {
		v = v << 8 | p[i];
	}
	return v;
}

static void count_set(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		p[i] = (uint8_t)(v >> (8 * i));
	}
}

/* FIPS 180-4, 4.2.2 and 4.2.3. */
static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static const uint64_t k512[80] = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
	0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
	0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
	0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
	0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
	0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
	0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
	0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
	0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
	0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
	0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
	0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
	0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
	0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
	0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
	0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
	0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
	0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
	0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
	0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
	0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};

/*
 * FIPS 180-4's two compression functions, 6.2.2 (32-bit words, 64 rounds)
 * and 6.4.2 (64-bit words, 80 rounds), kept apart although they read
 * alike: they differ in the word type, the rotation counts, the round count
 * and the constants, so that one shared body would take either a macro that
 * writes both (harder to check against the standard than the two as they
 * are), or 64-bit words for SHA-256 too, which on a Cortex-M4 (no 64-bit
 * operations) would make every SHA-256 call the schemes make slower, and
 * their measured cycles with it. What is the same for both (the padding and
 * length, the API) is written once below: finalize() and HIL_SHA2_API.
 */
static void blocks256(uint8_t *ctx, const uint8_t *in, size_t n)
{
	uint32_t h[8], w[64];
	size_t b;
	int i;

	for (i = 0; i < 8; i++) {
		h[i] = load32(ctx + 4 * i);
	}
	for (b = 0; b < n; b++, in += 64) {
		uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4],
			 f = h[5], g = h[6], hh = h[7];

		for (i = 0; i < 16; i++) {
			w[i] = load32(in + 4 * i);
		}
		for (i = 16; i < 64; i++) {
			uint32_t s0 = ROR32(w[i - 15], 7) ^
				      ROR32(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = ROR32(w[i - 2], 17) ^
				      ROR32(w[i - 2], 19) ^ (w[i - 2] >> 10);

			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		for (i = 0; i < 64; i++) {
			uint32_t t1 =
				hh +
				(ROR32(e, 6) ^ ROR32(e, 11) ^ ROR32(e, 25)) +
				((e & f) ^ (~e & g)) + k256[i] + w[i];
			uint32_t t2 =
				(ROR32(a, 2) ^ ROR32(a, 13) ^ ROR32(a, 22)) +
				((a & bb) ^ (a & c) ^ (bb & c));

			hh = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = bb;
			bb = a;
			a = t1 + t2;
		}
		h[0] += a;
		h[1] += bb;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
	}
	for (i = 0; i < 8; i++) {
		store32(ctx + 4 * i, h[i]);
	}
	count_set(ctx + 32, count_get(ctx + 32) + 64 * (uint64_t)n);
}

static void blocks512(uint8_t *ctx, const uint8_t *in, size_t n)
{
	uint64_t h[8], w[80];
	size_t b;
	int i;

	for (i = 0; i < 8; i++) {
		h[i] = load64(ctx + 8 * i);
	}
	for (b = 0; b < n; b++, in += 128) {
		uint64_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4],
			 f = h[5], g = h[6], hh = h[7];

		for (i = 0; i < 16; i++) {
			w[i] = load64(in + 8 * i);
		}
		for (i = 16; i < 80; i++) {
			uint64_t s0 = ROR64(w[i - 15], 1) ^
				      ROR64(w[i - 15], 8) ^ (w[i - 15] >> 7);
			uint64_t s1 = ROR64(w[i - 2], 19) ^
				      ROR64(w[i - 2], 61) ^ (w[i - 2] >> 6);

			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		for (i = 0; i < 80; i++) {
			uint64_t t1 =
				hh +
				(ROR64(e, 14) ^ ROR64(e, 18) ^ ROR64(e, 41)) +
				((e & f) ^ (~e & g)) + k512[i] + w[i];
			uint64_t t2 =
				(ROR64(a, 28) ^ ROR64(a, 34) ^ ROR64(a, 39)) +
				((a & bb) ^ (a & c) ^ (bb & c));

			hh = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = bb;
			bb = a;
			a = t1 + t2;
		}
		h[0] += a;
		h[1] += bb;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
	}
	for (i = 0; i < 8; i++) {
		store64(ctx + 8 * i, h[i]);
	}
	count_set(ctx + 64, count_get(ctx + 64) + 128 * (uint64_t)n);
}

/* The rest of the message, the padding and the length; the first outlen
 * bytes of the state are the digest. */
static void finalize(uint8_t *out, size_t outlen, uint8_t *ctx,
		     const uint8_t *in, size_t inlen, size_t block,
		     size_t statelen)
{
	uint8_t pad[256];
	uint64_t bits;
	size_t whole = inlen / block, rest, padlen, i;

	if (block == 64) {
		blocks256(ctx, in, whole);
	} else {
		blocks512(ctx, in, whole);
	}
	rest = inlen - whole * block;
	bits = (count_get(ctx + statelen) + rest) * 8;
	memset(pad, 0, sizeof(pad));
	memcpy(pad, in + whole * block, rest);
	pad[rest] = 0x80;
	padlen = rest + 1 + (block == 64 ? 8 : 16) <= block ? block : 2 * block;
	for (i = 0; i < 8; i++) {
		pad[padlen - 1 - i] = (uint8_t)(bits >> (8 * i));
	}
	if (block == 64) {
		blocks256(ctx, pad, padlen / block);
	} else {
		blocks512(ctx, pad, padlen / block);
	}
	memcpy(out, ctx, outlen);
}

static const uint32_t iv224[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17,
				  0xf70e5939, 0xffc00b31, 0x68581511,
				  0x64f98fa7, 0xbefa4fa4};
static const uint32_t iv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				  0xa54ff53a, 0x510e527f, 0x9b05688c,
				  0x1f83d9ab, 0x5be0cd19};
static const uint64_t iv384[8] = {0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL,
				  0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
				  0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL,
				  0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL};
static const uint64_t iv512[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
				  0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
				  0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
				  0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static void init32(uint8_t *ctx, const uint32_t *iv)
{
	int i;

	for (i = 0; i < 8; i++) {
		store32(ctx + 4 * i, iv[i]);
	}
	count_set(ctx + 32, 0);
}

static void init64(uint8_t *ctx, const uint64_t *iv)
{
	int i;

	for (i = 0; i < 8; i++) {
		store64(ctx + 8 * i, iv[i]);
	}
	count_set(ctx + 64, 0);
}

#define HIL_SHA2_API(name, init, iv, blocks, block, statelen, outlen)          \
	void name##_inc_init(name##ctx *state)                                 \
	{                                                                      \
		init(state->ctx, iv);                                          \
	}                                                                      \
	void name##_inc_ctx_clone(name##ctx *stateout,                         \
				  const name##ctx *statein)                    \
	{                                                                      \
		memcpy(stateout, statein, sizeof(*stateout));                  \
	}                                                                      \
	void name##_inc_blocks(name##ctx *state, const uint8_t *in,            \
			       size_t inblocks)                                \
	{                                                                      \
		blocks(state->ctx, in, inblocks);                              \
	}                                                                      \
	void name##_inc_finalize(uint8_t *out, name##ctx *state,               \
				 const uint8_t *in, size_t inlen)              \
	{                                                                      \
		finalize(out, outlen, state->ctx, in, inlen, block, statelen); \
	}                                                                      \
	void name##_inc_ctx_release(name##ctx *state)                          \
	{                                                                      \
		(void)state;                                                   \
	}                                                                      \
	void name(uint8_t *out, const uint8_t *in, size_t inlen)               \
	{                                                                      \
		name##ctx c;                                                   \
                                                                               \
		name##_inc_init(&c);                                           \
		name##_inc_finalize(out, &c, in, inlen);                       \
	}

HIL_SHA2_API(sha224, init32, iv224, blocks256, 64, 32, 28)
HIL_SHA2_API(sha256, init32, iv256, blocks256, 64, 32, 32)
HIL_SHA2_API(sha384, init64, iv384, blocks512, 128, 64, 48)
HIL_SHA2_API(sha512, init64, iv512, blocks512, 128, 64, 64)
