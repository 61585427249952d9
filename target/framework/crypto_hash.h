/* crypto_hash.h: the NIST LWC / SUPERCOP hash API, supplied by the framework to every implementation folder. */
#ifndef CRYPTO_HASH_H
#define CRYPTO_HASH_H

/*
 * An implementation folder includes this header and defines crypto_hash;
 * the build renames it per implementation (-Dcrypto_hash=...). Its own copy
 * in the folder, if any, is found first.
 */

/**
 * Hash inlen bytes of in into out (CRYPTO_BYTES of api.h).
 * @return 0.
 */
int crypto_hash(unsigned char *out, const unsigned char *in,
		unsigned long long inlen);

#endif /* CRYPTO_HASH_H */
