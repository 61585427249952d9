/* glue: describes one implementation folder to the registry; compiled once per implementation. */
#include "api.h"
#include "bench.h"
#include "hilp.h"
#include "registry.h"

/*
 * The build compiles this file with the implementation's folder on the
 * include path and with HIL_ALG_SYM, HIL_ALG_NAME, HIL_ALG_IMPL defined, and
 * renames the API functions to HIL_ALG_SYM-prefixed ones with -D, so that
 * several implementations coexist in one image unchanged. The kind is read
 * from api.h in the order of target/crypto/README.md.
 */
#ifndef HIL_ALG_SYM
#error "HIL_ALG_SYM must name the implementation"
#endif

#define HIL_PASTE2(a, b) a##b
#define HIL_PASTE(a, b)	 HIL_PASTE2(a, b)

/*
 * The stub's buffers (bench.h) hold every constant of this implementation:
 * checked here, when the image is built, rather than by the stub at run
 * time. A negative array size means the constant in the name is too large.
 */
#define GLUE_FITS(what, cond) typedef char what[(cond) ? 1 : -1]

#ifdef CRYPTO_CONSTANT_TIME
#define GLUE_CONSTANT_TIME CRYPTO_CONSTANT_TIME
#else
#define GLUE_CONSTANT_TIME -1
#endif

#if defined(CRYPTO_XOF)
int crypto_xof(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen);

GLUE_FITS(glue_BYTES_exceeds_BENCH_MAX_TAG, CRYPTO_BYTES <= BENCH_MAX_TAG);

#ifndef CRYPTO_MODE
#define CRYPTO_MODE "XOF"
#endif
const struct registry_alg HIL_PASTE(HIL_ALG_SYM, _alg) = {
	.name = HIL_ALG_NAME,
	.impl = HIL_ALG_IMPL,
	.kind = HILP_KIND_XOF,
	.abytes = CRYPTO_BYTES,
	.constant_time = GLUE_CONSTANT_TIME,
	.mode = CRYPTO_MODE,
	.xof = crypto_xof,
};
#elif defined(CRYPTO_BLOCKBYTES)
int crypto_block_keysetup(unsigned char *ks, const unsigned char *k);
int crypto_block_ecb_encrypt(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks);

GLUE_FITS(glue_KEYBYTES_exceeds_BENCH_MAX_KEY,
	  CRYPTO_KEYBYTES <= BENCH_MAX_KEY);
GLUE_FITS(glue_KSBYTES_exceeds_BENCH_MAX_KS, CRYPTO_KSBYTES <= BENCH_MAX_KS);

#ifndef CRYPTO_MODE
#define CRYPTO_MODE "ECB"
#endif
const struct registry_alg HIL_PASTE(HIL_ALG_SYM, _alg) = {
	.name = HIL_ALG_NAME,
	.impl = HIL_ALG_IMPL,
	.kind = HILP_KIND_BLOCK,
	.keybytes = CRYPTO_KEYBYTES,
	.blockbytes = CRYPTO_BLOCKBYTES,
	.ksbytes = CRYPTO_KSBYTES,
	.constant_time = GLUE_CONSTANT_TIME,
	.mode = CRYPTO_MODE,
	.keysetup = crypto_block_keysetup,
	.ecb_encrypt = crypto_block_ecb_encrypt,
};
#elif defined(CRYPTO_ABYTES)
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

#ifdef HIL_LWC_AEAD
/*
 * A folder of the NIST LWC benchmarking framework: its lwc_crypto_aead.c
 * names the entry points in lwc_aead_cipher, and they need not be called
 * crypto_aead_* (rweather's folders name ascon128a_aead_encrypt there and
 * define no crypto_aead_encrypt at all). Called through those pointers, as
 * that framework calls them; -O2 makes each of these a jump.
 */
#include "lwc_crypto_aead.h"

extern aead_ctx lwc_aead_cipher;

static int glue_lwc_encrypt(unsigned char *c, unsigned long long *clen,
			    const unsigned char *m, unsigned long long mlen,
			    const unsigned char *ad, unsigned long long adlen,
			    const unsigned char *nsec,
			    const unsigned char *npub, const unsigned char *k)
{
	return lwc_aead_cipher.encrypt(c, clen, m, mlen, ad, adlen, nsec, npub,
				       k);
}

static int glue_lwc_decrypt(unsigned char *m, unsigned long long *mlen,
			    unsigned char *nsec, const unsigned char *c,
			    unsigned long long clen, const unsigned char *ad,
			    unsigned long long adlen, const unsigned char *npub,
			    const unsigned char *k)
{
	return lwc_aead_cipher.decrypt(m, mlen, nsec, c, clen, ad, adlen, npub,
				       k);
}
#define GLUE_AEAD_ENCRYPT glue_lwc_encrypt
#define GLUE_AEAD_DECRYPT glue_lwc_decrypt
#else
#define GLUE_AEAD_ENCRYPT crypto_aead_encrypt
#define GLUE_AEAD_DECRYPT crypto_aead_decrypt
#endif

GLUE_FITS(glue_KEYBYTES_exceeds_BENCH_MAX_KEY,
	  CRYPTO_KEYBYTES <= BENCH_MAX_KEY);
GLUE_FITS(glue_NPUBBYTES_exceeds_BENCH_MAX_NPUB,
	  CRYPTO_NPUBBYTES <= BENCH_MAX_NPUB);
GLUE_FITS(glue_ABYTES_exceeds_BENCH_MAX_TAG, CRYPTO_ABYTES <= BENCH_MAX_TAG);

#ifndef CRYPTO_MODE
#define CRYPTO_MODE "AEAD"
#endif
const struct registry_alg HIL_PASTE(HIL_ALG_SYM, _alg) = {
	.name = HIL_ALG_NAME,
	.impl = HIL_ALG_IMPL,
	.kind = HILP_KIND_AEAD,
	.keybytes = CRYPTO_KEYBYTES,
	.npubbytes = CRYPTO_NPUBBYTES,
	.abytes = CRYPTO_ABYTES,
	.constant_time = GLUE_CONSTANT_TIME,
	.mode = CRYPTO_MODE,
	.encrypt = GLUE_AEAD_ENCRYPT,
	.decrypt = GLUE_AEAD_DECRYPT,
};
#elif defined(CRYPTO_BYTES)
int crypto_hash(unsigned char *out, const unsigned char *in,
		unsigned long long inlen);

#ifdef HIL_LWC_HASH
/* As HIL_LWC_AEAD above: through the framework's lwc_hash_ctx. */
#include "lwc_crypto_hash.h"

extern hash_ctx lwc_hash_ctx;

static int glue_lwc_hash(unsigned char *out, const unsigned char *in,
			 unsigned long long inlen)
{
	return lwc_hash_ctx.hash(out, in, inlen);
}
#define GLUE_HASH glue_lwc_hash
#else
#define GLUE_HASH crypto_hash
#endif

GLUE_FITS(glue_BYTES_exceeds_BENCH_MAX_TAG, CRYPTO_BYTES <= BENCH_MAX_TAG);

#ifndef CRYPTO_MODE
#define CRYPTO_MODE "hash"
#endif
const struct registry_alg HIL_PASTE(HIL_ALG_SYM, _alg) = {
	.name = HIL_ALG_NAME,
	.impl = HIL_ALG_IMPL,
	.kind = HILP_KIND_HASH,
	.abytes = CRYPTO_BYTES,
	.constant_time = GLUE_CONSTANT_TIME,
	.mode = CRYPTO_MODE,
	.hash = GLUE_HASH,
};
#else
#error "api.h defines none of CRYPTO_XOF, CRYPTO_BLOCKBYTES, CRYPTO_ABYTES, CRYPTO_BYTES"
#endif
