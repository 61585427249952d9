/* lwc_crypto_aead.h: the NIST LWC benchmarking framework's AEAD descriptor, supplied so that an implementation folder's own lwc_crypto_aead.c compiles unchanged (hilrun reads none of it). */
#ifndef LWC_CRYPTO_AEAD_H
#define LWC_CRYPTO_AEAD_H

/*
 * Written from the structure described in the NIST repository's
 * implementations/README.md: each folder of that repository defines one
 * aead_ctx named lwc_aead_cipher in lwc_crypto_aead.c. hilrun compiles that
 * file like the folder's others, so that the folder builds exactly as
 * published; nothing refers to lwc_aead_cipher (hilrun finds the API by
 * api.h and target/glue.c), so the linker drops it (--gc-sections) and it
 * costs the image nothing.
 */

/* C linkage for the API, also when the glue is C++ (lwc_crypto_aead.cpp):
 * its definitions of the API functions then export their C names. */
#ifdef __cplusplus
extern "C" {
#endif

#include "crypto_aead.h"

typedef int (*fn_aead_encrypt)(unsigned char *c, unsigned long long *clen,
			       const unsigned char *m, unsigned long long mlen,
			       const unsigned char *ad,
			       unsigned long long adlen,
			       const unsigned char *nsec,
			       const unsigned char *npub,
			       const unsigned char *k);

typedef int (*fn_aead_decrypt)(unsigned char *m, unsigned long long *mlen,
			       unsigned char *nsec, const unsigned char *c,
			       unsigned long long clen, const unsigned char *ad,
			       unsigned long long adlen,
			       const unsigned char *npub,
			       const unsigned char *k);

typedef struct {
	const char *variant_name; /* e.g. "ascon128v12" */
	const char *impl_name;	  /* e.g. "ref" */
	int KeyBytes;		  /* CRYPTO_KEYBYTES */
	int NonceBytes;		  /* CRYPTO_NPUBBYTES */
	int ABytes;		  /* CRYPTO_ABYTES */
	fn_aead_encrypt encrypt;
	fn_aead_decrypt decrypt;
} aead_ctx;

#ifdef __cplusplus
}
#endif

#endif /* LWC_CRYPTO_AEAD_H */
