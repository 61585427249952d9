/* crypto_block.h: the hilrun block-cipher API (key setup, then ECB over whole blocks), supplied by the framework to every implementation folder. */
#ifndef CRYPTO_BLOCK_H
#define CRYPTO_BLOCK_H

/*
 * The build may rename both functions with -D so that several
 * implementations can be linked into one image; this header then declares
 * the renamed symbols as well.
 */

/**
 * Expand a key for crypto_block_ecb_encrypt().
 * @param ks receives the expanded key, CRYPTO_KSBYTES bytes (any alignment).
 * @param k  the key, CRYPTO_KEYBYTES bytes.
 * @return 0.
 */
int crypto_block_keysetup(unsigned char *ks, const unsigned char *k);

/**
 * Encrypt mlen bytes in ECB mode: each CRYPTO_BLOCKBYTES block on its own.
 * @param c    receives mlen bytes of ciphertext; may equal m (in place).
 * @param m    the plaintext.
 * @param mlen a whole number of blocks (0 is allowed and writes nothing).
 * @param ks   the expanded key from crypto_block_keysetup().
 * @return 0, or -1 (nothing written) when mlen is not a multiple of
 *         CRYPTO_BLOCKBYTES.
 */
int crypto_block_ecb_encrypt(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks);

#endif /* CRYPTO_BLOCK_H */
