/* registry: the algorithms built into this image, behind the NIST LWC API. */
#ifndef REGISTRY_H
#define REGISTRY_H

#include <stddef.h>
#include <stdint.h>

typedef int (*registry_aead_encrypt_fn)(
	unsigned char *c, unsigned long long *clen, const unsigned char *m,
	unsigned long long mlen, const unsigned char *ad,
	unsigned long long adlen, const unsigned char *nsec,
	const unsigned char *npub, const unsigned char *k);
typedef int (*registry_aead_decrypt_fn)(
	unsigned char *m, unsigned long long *mlen, unsigned char *nsec,
	const unsigned char *c, unsigned long long clen,
	const unsigned char *ad, unsigned long long adlen,
	const unsigned char *npub, const unsigned char *k);
typedef int (*registry_hash_fn)(unsigned char *out, const unsigned char *in,
				unsigned long long inlen);
typedef int (*registry_xof_fn)(unsigned char *out, unsigned long long outlen,
			       const unsigned char *in,
			       unsigned long long inlen);
typedef int (*registry_keysetup_fn)(unsigned char *ks, const unsigned char *k);
typedef int (*registry_ecb_fn)(unsigned char *c, const unsigned char *m,
			       unsigned long long mlen,
			       const unsigned char *ks);

/* One implementation, described by the constants of its api.h. */
struct registry_alg {
	const char *name; /* e.g. "ascon-aead128" */
	const char *impl; /* e.g. "ref" */
	uint8_t kind;	  /* HILP_KIND_* */
	uint8_t keybytes;
	uint8_t npubbytes;
	uint8_t abytes;	      /* tag bytes, digest bytes, default XOF output */
	uint8_t blockbytes;   /* block ciphers: block size */
	uint16_t ksbytes;     /* block ciphers: expanded key size */
	int8_t constant_time; /* CRYPTO_CONSTANT_TIME: 1, 0, or -1 unstated */
	const char *mode;     /* CRYPTO_MODE, or the kind's default */
	registry_aead_encrypt_fn encrypt;
	registry_aead_decrypt_fn decrypt;
	registry_hash_fn hash;
	registry_xof_fn xof;
	registry_keysetup_fn keysetup;
	registry_ecb_fn ecb_encrypt;
};

/** Number of implementations in this image. */
size_t registry_count(void);

/** Implementation i, or NULL when i >= registry_count(). */
const struct registry_alg *registry_get(size_t i);

#endif /* REGISTRY_H */
