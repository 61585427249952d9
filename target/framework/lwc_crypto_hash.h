/* lwc_crypto_hash.h: the NIST LWC benchmarking framework's hash descriptor, supplied so that an implementation folder's own lwc_crypto_hash.c compiles unchanged (hilrun reads none of it). */
#ifndef LWC_CRYPTO_HASH_H
#define LWC_CRYPTO_HASH_H

/*
 * Written from the structure described in the NIST repository's
 * implementations/README.md: each hash folder there defines one hash_ctx
 * named lwc_hash_ctx in lwc_crypto_hash.c. As with lwc_crypto_aead.h,
 * nothing refers to it and the linker drops it.
 */

/* C linkage for the API, also when the glue is C++ (lwc_crypto_aead.cpp):
 * its definitions of the API functions then export their C names. */
#ifdef __cplusplus
extern "C" {
#endif

#include "crypto_hash.h"

typedef int (*fn_hash)(unsigned char *out, const unsigned char *in,
		       unsigned long long inlen);

typedef struct {
	const char *variant_name; /* e.g. "asconhashv12" */
	const char *impl_name;	  /* e.g. "ref" */
	int DigestSize;		  /* CRYPTO_BYTES */
	fn_hash hash;
} hash_ctx;

#ifdef __cplusplus
}
#endif

#endif /* LWC_CRYPTO_HASH_H */
