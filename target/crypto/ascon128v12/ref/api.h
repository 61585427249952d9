/* api.h: NIST LWC parameters of Ascon-128 v1.2 (the CAESAR/NIST LWC submission, before SP 800-232), reference implementation. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_KEYBYTES	     16 /* 128-bit key */
#define CRYPTO_NSECBYTES     0	/* no secret message number */
#define CRYPTO_NPUBBYTES     16 /* 128-bit nonce */
#define CRYPTO_ABYTES	     16 /* 128-bit tag appended to the ciphertext */
#define CRYPTO_NOOVERLAP     1	/* input and output buffers must not overlap */
/* No secret-dependent branches or table lookups. */
#define CRYPTO_CONSTANT_TIME 1

#endif /* CRYPTO_API_H */
