/* api.h: NIST LWC parameters of AES-128-GCM (NIST SP 800-38D) with a 96-bit IV and a 128-bit tag, reference implementation. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_KEYBYTES	     16 /* AES-128 key; expanded inside every call */
#define CRYPTO_NSECBYTES     0	/* no secret message number */
#define CRYPTO_NPUBBYTES     12 /* 96-bit IV: J0 = IV || 0^31 || 1 */
#define CRYPTO_ABYTES	     16 /* 128-bit tag appended to the ciphertext */
#define CRYPTO_NOOVERLAP     1	/* input and output buffers must not overlap */
/*
 * 0: GHASH is a constant-time bitwise multiply, and the tag check is
 * constant time, but the AES core reads its S-box table at secret indices.
 */
#define CRYPTO_CONSTANT_TIME 0
#define CRYPTO_MODE	     "GCM"

#endif /* CRYPTO_API_H */
