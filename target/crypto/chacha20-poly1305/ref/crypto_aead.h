/* crypto_aead.h: the NIST LWC authenticated-encryption API (SUPERCOP calling convention). */
#ifndef CRYPTO_AEAD_H
#define CRYPTO_AEAD_H

/*
 * The build may rename both functions (-Dcrypto_aead_encrypt=...) so that
 * several implementations can be linked into one image; this header then
 * declares the renamed symbols as well.
 */

/**
 * Encrypt and authenticate m under key k and nonce npub, binding ad.
 * @param c     receives the ciphertext followed by the CRYPTO_ABYTES tag
 *              (mlen + CRYPTO_ABYTES bytes).
 * @param clen  receives mlen + CRYPTO_ABYTES.
 * @param nsec  unused (CRYPTO_NSECBYTES is 0); may be NULL.
 * @return 0, or -1 (nothing written) when mlen or adlen exceeds the
 *         limit of the algorithm (see its encrypt.c).
 */
int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k);

/**
 * Verify and decrypt c (ciphertext followed by the tag).
 * @param m     receives clen - CRYPTO_ABYTES bytes of plaintext; on failure
 *              those bytes are zeroed, so no unverified plaintext is released.
 * @param mlen  receives clen - CRYPTO_ABYTES on success, 0 on failure.
 * @param nsec  unused (CRYPTO_NSECBYTES is 0); may be NULL.
 * @return 0 if the tag is valid, -1 otherwise (also when clen < CRYPTO_ABYTES,
 *         or beyond the length limits, with nothing written).
 */
int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k);

#endif /* CRYPTO_AEAD_H */
