/* ecb.c: AES-128 encryption (FIPS 197) behind the hilrun block-cipher API, ECB mode, on the shared table-based core. */
#include <stdint.h>

#include "api.h"
#include "crypto_block.h"
#include "../../aes-common/aes_core.h"

/* The expanded key is the FIPS 197 byte sequence of w[0..43]: no alignment needed. */
int crypto_block_keysetup(unsigned char *ks, const unsigned char *k)
{
	aes128_expand_key(ks, k);
	return 0;
}

int crypto_block_ecb_encrypt(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks)
{
	if (mlen % CRYPTO_BLOCKBYTES != 0) {
		return -1;
	}
	while (mlen > 0) {
		aes128_encrypt_block(c, m, ks);
		c += CRYPTO_BLOCKBYTES;
		m += CRYPTO_BLOCKBYTES;
		mlen -= CRYPTO_BLOCKBYTES;
	}
	return 0;
}
