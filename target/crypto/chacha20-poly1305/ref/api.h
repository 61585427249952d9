/* api.h: NIST LWC parameters of AEAD_CHACHA20_POLY1305 (RFC 8439), portable reference implementation. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_KEYBYTES	 32 /* 256-bit ChaCha20 key */
#define CRYPTO_NSECBYTES 0  /* no secret message number */
#define CRYPTO_NPUBBYTES 12 /* 96-bit nonce */
#define CRYPTO_ABYTES	 16 /* Poly1305 tag appended to the ciphertext */
#define CRYPTO_NOOVERLAP 1  /* input and output buffers must not overlap */
#define CRYPTO_CONSTANT_TIME                                                   \
	1 /* ARX cipher, 26-bit-limb Poly1305, masked final reduction and tag check */
#define CRYPTO_MODE "AEAD"

#endif /* CRYPTO_API_H */
