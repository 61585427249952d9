/* glue: describes one NIST LWC implementation folder to the registry; compiled once per implementation. */
#include "api.h"
#include "hilp.h"
#include "registry.h"

/*
 * The build compiles this file with the implementation's folder on the
 * include path and with HIL_ALG_SYM, HIL_ALG_NAME, HIL_ALG_IMPL defined, and
 * renames the NIST API functions to HIL_ALG_SYM-prefixed ones with -D, so
 * that several implementations coexist in one image unchanged.
 */
#ifndef HIL_ALG_SYM
#error "HIL_ALG_SYM must name the implementation"
#endif

#define HIL_PASTE2(a, b) a##b
#define HIL_PASTE(a, b) HIL_PASTE2(a, b)

#ifdef CRYPTO_ABYTES
int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k);
int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k);

const struct registry_alg HIL_PASTE(HIL_ALG_SYM, _alg) = {
	.name = HIL_ALG_NAME,
	.impl = HIL_ALG_IMPL,
	.kind = HILP_KIND_AEAD,
	.keybytes = CRYPTO_KEYBYTES,
	.npubbytes = CRYPTO_NPUBBYTES,
	.abytes = CRYPTO_ABYTES,
	.encrypt = crypto_aead_encrypt,
	.decrypt = crypto_aead_decrypt,
	.hash = 0,
};
#elif defined(CRYPTO_BYTES)
int crypto_hash(unsigned char *out, const unsigned char *in,
		unsigned long long inlen);

const struct registry_alg HIL_PASTE(HIL_ALG_SYM, _alg) = {
	.name = HIL_ALG_NAME,
	.impl = HIL_ALG_IMPL,
	.kind = HILP_KIND_HASH,
	.keybytes = 0,
	.npubbytes = 0,
	.abytes = CRYPTO_BYTES,
	.encrypt = 0,
	.decrypt = 0,
	.hash = crypto_hash,
};
#else
#error "api.h defines neither CRYPTO_ABYTES (AEAD) nor CRYPTO_BYTES (hash)"
#endif
