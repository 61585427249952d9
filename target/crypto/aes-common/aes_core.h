/* aes_core.h: a small table-based AES-128 encryption core (FIPS 197), private to the AES folders that include it. */
#ifndef AES_CORE_H
#define AES_CORE_H

/*
 * Included by target/crypto/aes128-ecb/ref and target/crypto/aes128-gcm/ref
 * (#include "../../aes-common/aes_core.h"). Everything here is static, so
 * each including folder gets its own copy and no symbol is shared between
 * implementations. There is no .c file and no api.h here: the build does
 * not take this folder for an implementation.
 *
 * Not constant time: SubBytes (and SubWord in the key schedule) reads a
 * 256-byte table at secret indices. The Cortex-M4 core has no data cache,
 * but the STM32F4 flash accelerator caches flash reads, and other targets
 * have caches, so timing may depend on the key and the data; whoever
 * includes this core reports CRYPTO_CONSTANT_TIME 0. MixColumns and the
 * Rcon update use xtime without branches.
 *
 * Section numbers are those of FIPS 197 (2001); the 2023 update keeps the
 * algorithm and renumbers a few of them.
 *
 * The state is the FIPS 197 byte array: s[r + 4c] is row r, column c, in
 * the order the bytes come in (Sec. 3.4).
 */
#include <stdint.h>

#define AES128_ROUNDS  10			  /* Nr for Nk = 4 (Sec. 5) */
#define AES128_RKBYTES (16 * (AES128_ROUNDS + 1)) /* 176: 44 words */

/* Sec. 5.1.1, Fig. 7: inverse in GF(2^8) mod x^8+x^4+x^3+x+1, then the affine map with 0x63. */
/* clang-format off: eight entries a line, so row r holds S(8r)..S(8r+7) */
static const uint8_t aes_sbox[256] = {
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
	0xb0, 0x54, 0xbb, 0x16,
};
/* clang-format on */

/* Sec. 4.2.1: multiply by x in GF(2^8); the reduction is masked, not branched. */
static uint8_t aes_xtime(uint8_t a)
{
	unsigned int x = a;

	return (uint8_t)((x << 1) ^ (0x1bu & (0u - (x >> 7))));
}

/* Sec. 5.2, Fig. 11: the 44 words of the round keys, byte by byte. */
static void aes128_expand_key(uint8_t rk[AES128_RKBYTES], const uint8_t k[16])
{
	uint8_t rcon = 0x01; /* Rcon[i/4] = x^(i/4 - 1) in GF(2^8) */
	unsigned int i;

	for (i = 0; i < 16; i++) {
		rk[i] = k[i];
	}
	for (i = 16; i < AES128_RKBYTES; i += 4) {
		const uint8_t *prev = rk + i - 4; /* w[i-1] */
		uint8_t t0 = prev[0], t1 = prev[1], t2 = prev[2], t3 = prev[3];

		if (i % 16 == 0) {
			/* SubWord(RotWord(w[i-1])) xor Rcon; i is public. */
			uint8_t r = t0;

			t0 = (uint8_t)(aes_sbox[t1] ^ rcon);
			t1 = aes_sbox[t2];
			t2 = aes_sbox[t3];
			t3 = aes_sbox[r];
			rcon = aes_xtime(rcon);
		}
		rk[i] = rk[i - 16] ^ t0;
		rk[i + 1] = rk[i - 15] ^ t1;
		rk[i + 2] = rk[i - 14] ^ t2;
		rk[i + 3] = rk[i - 13] ^ t3;
	}
}

static void aes_add_round_key(uint8_t s[16], const uint8_t *rk)
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		s[i] ^= rk[i];
	}
}

/*
 * Sec. 5.1.1 and 5.1.2 in one pass: row r moves left by r columns, so the
 * new s[r][c] is S(old s[r][(c + r) mod 4]).
 */
static void aes_sub_shift(uint8_t s[16])
{
	uint8_t t[16];
	unsigned int r, c;

	for (c = 0; c < 4; c++) {
		for (r = 0; r < 4; r++) {
			t[r + 4 * c] = aes_sbox[s[r + 4 * ((c + r) & 3)]];
		}
	}
	for (r = 0; r < 16; r++) {
		s[r] = t[r];
	}
}

/*
 * Sec. 5.1.3: each column times {03}x^3 + {01}x^2 + {01}x + {02}. With
 * t = a0^a1^a2^a3, row 0 is 2a0^3a1^a2^a3 = a0 ^ t ^ xtime(a0^a1), and
 * the other rows likewise, rotated.
 */
static void aes_mix_columns(uint8_t s[16])
{
	unsigned int c;

	for (c = 0; c < 4; c++) {
		uint8_t *col = s + 4 * c;
		uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
		uint8_t t = (uint8_t)(a0 ^ a1 ^ a2 ^ a3);

		col[0] = (uint8_t)(a0 ^ t ^ aes_xtime((uint8_t)(a0 ^ a1)));
		col[1] = (uint8_t)(a1 ^ t ^ aes_xtime((uint8_t)(a1 ^ a2)));
		col[2] = (uint8_t)(a2 ^ t ^ aes_xtime((uint8_t)(a2 ^ a3)));
		col[3] = (uint8_t)(a3 ^ t ^ aes_xtime((uint8_t)(a3 ^ a0)));
	}
}

/* Sec. 5.1, Fig. 5: Cipher(); out may equal in. */
static void aes128_encrypt_block(uint8_t out[16], const uint8_t in[16],
				 const uint8_t rk[AES128_RKBYTES])
{
	uint8_t s[16];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		s[i] = in[i];
	}
	aes_add_round_key(s, rk);
	for (i = 1; i < AES128_ROUNDS; i++) {
		aes_sub_shift(s);
		aes_mix_columns(s);
		aes_add_round_key(s, rk + 16 * i);
	}
	aes_sub_shift(s);
	aes_add_round_key(s, rk + 16 * AES128_ROUNDS);
	for (i = 0; i < 16; i++) {
		out[i] = s[i];
	}
}

#endif /* AES_CORE_H */
