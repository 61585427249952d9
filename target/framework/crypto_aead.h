/* crypto_aead.h: the NIST LWC / SUPERCOP AEAD API, supplied by the framework to every implementation folder. */
#ifndef CRYPTO_AEAD_H
#define CRYPTO_AEAD_H

/*
 * As in the NIST LWC and SUPERCOP frameworks, an implementation folder
 * includes this header and defines the two functions. Lengths are
 * unsigned long long, as there. The build renames both functions per
 * implementation (-Dcrypto_aead_encrypt=...), so the declarations follow.
 * An implementation's own copy of this header, in its folder, is found
 * first and is used instead.
 */

/**
 * Encrypt mlen bytes of m with associated data ad under key k and public
 * nonce npub; c receives the ciphertext and the tag, *clen their length.
 * @return 0.
 */
int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k);

/**
 * Check the tag of c (clen bytes, tag included) over ad and decrypt it
 * into m (*mlen bytes).
 * @return 0 when the tag verifies, a negative value (nothing released)
 *         when it does not.
 */
int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k);

#endif /* CRYPTO_AEAD_H */
