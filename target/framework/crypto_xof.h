/* crypto_xof.h: the extendable-output API (the LWC hash API with an output length), supplied by the framework. */
#ifndef CRYPTO_XOF_H
#define CRYPTO_XOF_H

/*
 * An implementation folder whose api.h defines CRYPTO_XOF includes this
 * header and defines crypto_xof; the build renames it per implementation
 * (-Dcrypto_xof=...). Its own copy in the folder, if any, is found first.
 */

/**
 * Hash inlen bytes of in into outlen bytes of out; a shorter output is a
 * prefix of a longer one.
 * @return 0.
 */
int crypto_xof(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen);

#endif /* CRYPTO_XOF_H */
