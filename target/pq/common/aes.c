/* aes: hilrun's own portable, table-based AES (FIPS 197; not constant time) in ECB and CTR mode behind mupq's aes.h names, for schemes built without the user's common code. */
#include "aes.h"

#include <string.h>

/* FIPS 197 Fig. 7, the S-box. */
static const uint8_t sbox[256] = {
	0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b,
	0xfe, 0xd7, 0xab, 0x76, 0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0,
	0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0, 0xb7, 0xfd, 0x93, 0x26,
	0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
	0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2,
	0xeb, 0x27, 0xb2, 0x75, 0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0,
	0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84, 0x53, 0xd1, 0x00, 0xed,
	0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
	0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f,
	0x50, 0x3c, 0x9f, 0xa8, 0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5,
	0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2, 0xcd, 0x0c, 0x13, 0xec,
	0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
	0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14,
	0xde, 0x5e, 0x0b, 0xdb, 0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c,
	0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79, 0xe7, 0xc8, 0x37, 0x6d,
	0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
	0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f,
	0x4b, 0xbd, 0x8b, 0x8a, 0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e,
	0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e, 0xe1, 0xf8, 0x98, 0x11,
	0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
	0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f,
	0xb0, 0x54, 0xbb, 0x16};

static uint8_t xtime(uint8_t a)
{
	return (uint8_t)((a << 1) ^ (0x1b & (0u - (unsigned)(a >> 7))));
}

/* FIPS 197 5.2: nk key words, 4 (nr + 1) round-key words, as bytes. */
static void expand(uint8_t *rk, const uint8_t *key, unsigned nk, unsigned nr)
{
	unsigned i, total = 4 * (nr + 1);
	uint8_t rcon = 1;

	memcpy(rk, key, 4 * nk);
	for (i = nk; i < total; i++) {
		uint8_t t[4];
		unsigned j;

		memcpy(t, rk + 4 * (i - 1), 4);
		if (i % nk == 0) {
			uint8_t r = t[0];

			t[0] = (uint8_t)(sbox[t[1]] ^ rcon);
			t[1] = sbox[t[2]];
			t[2] = sbox[t[3]];
			t[3] = sbox[r];
			rcon = xtime(rcon);
		} else if (nk > 6 && i % nk == 4) {
			for (j = 0; j < 4; j++) {
				t[j] = sbox[t[j]];
			}
		}
		for (j = 0; j < 4; j++) {
			rk[4 * i + j] = rk[4 * (i - nk) + j] ^ t[j];
		}
	}
}

/* FIPS 197 5.1: one block; s[r + 4c] is row r, column c. */
static void encrypt_block(uint8_t out[16], const uint8_t in[16],
			  const uint8_t *rk, unsigned nr)
{
	uint8_t s[16], t[16];
	unsigned round, r, c;

	for (r = 0; r < 16; r++) {
		s[r] = in[r] ^ rk[r];
	}
	for (round = 1; round <= nr; round++) {
		for (c = 0; c < 4; c++) { /* SubBytes and ShiftRows */
			for (r = 0; r < 4; r++) {
				t[r + 4 * c] = sbox[s[r + 4 * ((c + r) & 3)]];
			}
		}
		if (round < nr) { /* MixColumns */
			for (c = 0; c < 4; c++) {
				uint8_t *a = t + 4 * c;
				uint8_t a0 = a[0], a1 = a[1], a2 = a[2],
					a3 = a[3];
				uint8_t x = (uint8_t)(a0 ^ a1 ^ a2 ^ a3);

				a[0] = (uint8_t)(a0 ^ x ^ xtime(a0 ^ a1));
				a[1] = (uint8_t)(a1 ^ x ^ xtime(a1 ^ a2));
				a[2] = (uint8_t)(a2 ^ x ^ xtime(a2 ^ a3));
				a[3] = (uint8_t)(a3 ^ x ^ xtime(a3 ^ a0));
			}
		}
		for (r = 0; r < 16; r++) {
			s[r] = t[r] ^ rk[16 * round + r];
		}
	}
	memcpy(out, s, 16);
}

static void ecb(unsigned char *out, const unsigned char *in, size_t nblocks,
		const uint8_t *rk, unsigned nr)
{
	while (nblocks-- > 0) {
		encrypt_block(out, in, rk, nr);
		out += 16;
		in += 16;
	}
}

static void ctr(unsigned char *out, size_t outlen, const unsigned char *iv,
		const uint8_t *rk, unsigned nr)
{
	uint8_t block[16], ks[16];
	uint32_t counter = 0;
	size_t n;

	memcpy(block, iv, AESCTR_NONCEBYTES);
	while (outlen > 0) {
		block[12] = (uint8_t)(counter >> 24);
		block[13] = (uint8_t)(counter >> 16);
		block[14] = (uint8_t)(counter >> 8);
		block[15] = (uint8_t)counter;
		encrypt_block(ks, block, rk, nr);
		n = outlen < 16 ? outlen : 16;
		memcpy(out, ks, n);
		out += n;
		outlen -= n;
		counter++;
	}
}

#define HIL_AES_API(bits, nk, nr)                                              \
	void aes##bits##_ecb_keyexp(aes##bits##ctx *r,                         \
				    const unsigned char *key)                  \
	{                                                                      \
		expand((uint8_t *)r->sk_exp, key, nk, nr);                     \
	}                                                                      \
	void aes##bits##_ctr_keyexp(aes##bits##ctx *r,                         \
				    const unsigned char *key)                  \
	{                                                                      \
		expand((uint8_t *)r->sk_exp, key, nk, nr);                     \
	}                                                                      \
	void aes##bits##_ecb(unsigned char *out, const unsigned char *in,      \
			     size_t nblocks, const aes##bits##ctx *ctx)        \
	{                                                                      \
		ecb(out, in, nblocks, (const uint8_t *)ctx->sk_exp, nr);       \
	}                                                                      \
	void aes##bits##_ctr(unsigned char *out, size_t outlen,                \
			     const unsigned char *iv,                          \
			     const aes##bits##ctx *ctx)                        \
	{                                                                      \
		ctr(out, outlen, iv, (const uint8_t *)ctx->sk_exp, nr);        \
	}                                                                      \
	void aes##bits##_ctx_release(aes##bits##ctx *r)                        \
	{                                                                      \
		(void)r;                                                       \
	}

HIL_AES_API(128, 4, 10)
HIL_AES_API(192, 6, 12)
HIL_AES_API(256, 8, 14)
