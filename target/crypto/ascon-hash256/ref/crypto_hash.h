/* crypto_hash.h: the NIST LWC hash API (SUPERCOP calling convention). */
#ifndef CRYPTO_HASH_H
#define CRYPTO_HASH_H

/*
 * The build may rename the function (-Dcrypto_hash=...) so that several
 * implementations can be linked into one image; this header then declares
 * the renamed symbol as well.
 */

/**
 * Hash inlen bytes of in.
 * @param out   receives the CRYPTO_BYTES-byte digest.
 * @param in    the message (may be NULL when inlen is 0).
 * @param inlen its length in bytes.
 * @return 0.
 */
int crypto_hash(unsigned char *out, const unsigned char *in,
		unsigned long long inlen);

#endif /* CRYPTO_HASH_H */
