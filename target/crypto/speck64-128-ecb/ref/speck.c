/* speck.c: portable reference Speck64/128 (ePrint 2013/404) behind the hilrun block-cipher API, ECB mode. */
#include <stdint.h>

#include "api.h"
#include "crypto_block.h"

/*
 * Speck64/128 (paper Sec. 4.2, Table 4.1): n = 32-bit words, m = 4 key
 * words, T = 27 rounds, rotations alpha = 8 (right) and beta = 3 (left).
 *
 * Byte order. The paper writes words only; its Appendix C vector is
 *
 *	key  (l2, l1, l0, k0) = 1b1a1918 13121110 0b0a0908 03020100
 *	pt   (x, y)           = 3b726574 7475432d
 *	ct   (x, y)           = 8c6fa548 454e028b
 *
 * and the byte form used by most libraries (tests/kat/speck64128_le_bytes.txt)
 * is 00010203 08090a0b 10111213 18191a1b -> 2d437574 7465723b -> 8b024e45
 * 48a56f8c. So every word is stored little-endian, and the words go
 * lowest-index first: key bytes = k0 l0 l1 l2, block bytes = y x.
 * Loads and stores go byte by byte: alignment- and endian-neutral.
 */
#define SPECK_ROUNDS 27
#define SPECK_ALPHA  8
#define SPECK_BETA   3

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

static uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32u - n)); /* n is 3 or 8: no shift by 32 */
}

static uint32_t rol32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32u - n));
}

/*
 * Sec. 4.3: the key schedule reuses the round function with the round
 * number as key: l[i+m-1] = (k[i] + S^-8 l[i]) ^ i, k[i+1] = S^3 k[i] ^ l[i+m-1].
 * With m = 4 only three l words are live, so l[i % 3] holds l_i and is
 * overwritten by l_{i+3}.
 */
int crypto_block_keysetup(unsigned char *ks, const unsigned char *k)
{
	uint32_t key = load32_le(k);
	uint32_t l[3];
	uint32_t i;

	l[0] = load32_le(k + 4);
	l[1] = load32_le(k + 8);
	l[2] = load32_le(k + 12);
	for (i = 0; i < SPECK_ROUNDS; i++) {
		store32_le(ks + 4 * i, key);
		l[i % 3] = (key + ror32(l[i % 3], SPECK_ALPHA)) ^ i;
		key = rol32(key, SPECK_BETA) ^ l[i % 3];
	}
	return 0;
}

/* Sec. 4.1: R_k(x, y) = ((S^-8 x + y) ^ k, S^3 y ^ (S^-8 x + y) ^ k). */
static void speck_encrypt_block(unsigned char *c, const unsigned char *m,
				const unsigned char *ks)
{
	uint32_t y = load32_le(m), x = load32_le(m + 4);
	unsigned int i;

	for (i = 0; i < SPECK_ROUNDS; i++) {
		x = (ror32(x, SPECK_ALPHA) + y) ^ load32_le(ks + 4 * i);
		y = rol32(y, SPECK_BETA) ^ x;
	}
	store32_le(c, y);
	store32_le(c + 4, x);
}

int crypto_block_ecb_encrypt(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks)
{
	if (mlen % CRYPTO_BLOCKBYTES != 0) {
		return -1;
	}
	while (mlen > 0) {
		speck_encrypt_block(c, m, ks);
		c += CRYPTO_BLOCKBYTES;
		m += CRYPTO_BLOCKBYTES;
		mlen -= CRYPTO_BLOCKBYTES;
	}
	return 0;
}
