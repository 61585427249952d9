/* crypto_xof.h: the extendable-output API of target/crypto/README.md (NIST LWC hash API with an output length). */
#ifndef CRYPTO_XOF_H
#define CRYPTO_XOF_H

/*
 * The build may rename the function (-Dcrypto_xof=...) so that several
 * implementations can be linked into one image; this header then declares
 * the renamed symbol as well.
 */

/**
 * Hash inlen bytes of in to outlen bytes of output. Any outlen may be
 * asked for; a shorter output is a prefix of a longer one.
 * @param out    receives outlen bytes (may be NULL when outlen is 0).
 * @param outlen the output length in bytes, 0 included.
 * @param in     the message (may be NULL when inlen is 0).
 * @param inlen  its length in bytes.
 * @return 0.
 */
int crypto_xof(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen);

#endif /* CRYPTO_XOF_H */
