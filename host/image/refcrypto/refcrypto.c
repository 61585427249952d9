/* refcrypto: host builds of the bundled implementations, for expected outputs and digests. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"refcrypto"
#include "refcrypto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "hilp.h"
#include "util/log.h"

const struct registry_alg *hil_ref_find(const char *name, const char *impl)
{
	size_t i;

	/* No implementation named: the reference one ("ref") if there is one. */
	if ((impl == NULL || impl[0] == '\0') &&
	    hil_ref_find(name, "ref") != NULL) {
		return hil_ref_find(name, "ref");
	}

	for (i = 0; i < registry_count(); i++) {
		const struct registry_alg *a = registry_get(i);

		if (strcmp(a->name, name) != 0) {
			continue;
		}
		if (impl == NULL || impl[0] == '\0' ||
		    strcmp(a->impl, impl) == 0) {
			return a;
		}
	}
	return NULL;
}

void hil_ref_list(char *buf, size_t len)
{
	size_t i;
	size_t o = 0;

	if (len == 0) {
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < registry_count() && o < len; i++) {
		const struct registry_alg *a = registry_get(i);
		int n = snprintf(buf + o, len - o, "%s%s/%s", i ? ", " : "",
				 a->name, a->impl);

		if (n < 0) {
			break;
		}
		o += (size_t)n;
	}
}

int hil_ref_has_op(const struct registry_alg *a, uint8_t op)
{
	switch (a->kind) {
	case HILP_KIND_AEAD:
		return op == HILP_OP_ENCRYPT || op == HILP_OP_DECRYPT;
	case HILP_KIND_HASH:
	case HILP_KIND_XOF:
		return op == HILP_OP_HASH;
	case HILP_KIND_BLOCK:
		return op == HILP_OP_ENCRYPT || op == HILP_OP_KEYSETUP;
	default:
		return 0;
	}
}

size_t hil_ref_out_len(const struct registry_alg *a, uint8_t op, size_t msglen,
		       size_t xof_len)
{
	if (!hil_ref_has_op(a, op)) {
		return 0;
	}
	switch (a->kind) {
	case HILP_KIND_AEAD:
		return op == HILP_OP_ENCRYPT ? msglen + a->abytes
		       : msglen >= a->abytes ? msglen - a->abytes
					     : 0;
	case HILP_KIND_HASH:
		return a->abytes;
	case HILP_KIND_XOF:
		return xof_len != 0 ? xof_len : a->abytes;
	default:
		return op == HILP_OP_KEYSETUP ? a->ksbytes : msglen;
	}
}

int hil_ref_run(const struct registry_alg *a, uint8_t op, const uint8_t *key,
		const uint8_t *npub, const uint8_t *ad, size_t adlen,
		const uint8_t *msg, size_t msglen, size_t xof_len, uint8_t *out,
		size_t cap, size_t *out_len, int *rejected)
{
	unsigned long long n = 0;
	uint8_t ks[1024];
	int r;

	*rejected = 0;
	*out_len = 0;
	if (!hil_ref_has_op(a, op) ||
	    cap < hil_ref_out_len(a, op, msglen, xof_len)) {
		return HIL_ERR_ARG;
	}
	switch (a->kind) {
	case HILP_KIND_AEAD:
		if (op == HILP_OP_ENCRYPT) {
			r = a->encrypt(out, &n, msg, msglen, ad, adlen, NULL,
				       npub, key);
		} else {
			r = a->decrypt(out, &n, NULL, msg, msglen, ad, adlen,
				       npub, key);
		}
		break;
	case HILP_KIND_HASH:
		r = a->hash(out, msg, msglen);
		n = a->abytes;
		break;
	case HILP_KIND_XOF:
		n = hil_ref_out_len(a, op, msglen, xof_len);
		r = a->xof(out, n, msg, msglen);
		break;
	case HILP_KIND_BLOCK:
		if (a->ksbytes > sizeof(ks) ||
		    (op == HILP_OP_ENCRYPT && msglen % a->blockbytes != 0)) {
			return HIL_ERR_ARG;
		}
		if (op == HILP_OP_KEYSETUP) {
			r = a->keysetup(out, key);
			n = a->ksbytes;
			break;
		}
		r = a->keysetup(ks, key);
		if (r == 0) {
			r = a->ecb_encrypt(out, msg, msglen, ks);
		}
		n = msglen;
		break;
	default:
		return HIL_ERR_ARG;
	}
	if (r != 0) {
		*rejected = 1;
		return HIL_OK;
	}
	*out_len = (size_t)n;
	return HIL_OK;
}

int hil_ref_bench_digest(const struct registry_alg *a, uint8_t op,
			 size_t msg_len, size_t ad_len, size_t xof_len,
			 unsigned runs, uint32_t seed, uint32_t *digest)
{
	uint8_t key[64];
	uint8_t npub[64];
	uint8_t *ad = NULL;
	uint8_t *msg = NULL;
	uint8_t *out = NULL;
	uint8_t *pt = NULL;
	uint32_t rng = hilp_prng_init(seed);
	size_t cap = msg_len + xof_len + a->abytes + a->ksbytes + 64;
	size_t out_len = 0;
	size_t pt_len = 0;
	int rejected = 0;
	unsigned i;
	int ret = HIL_ERR_NOMEM;

	if (a->keybytes > sizeof(key) || a->npubbytes > sizeof(npub)) {
		return HIL_ERR_ARG;
	}
	ad = malloc(ad_len + 1);
	msg = malloc(msg_len + 1);
	out = malloc(cap);
	pt = malloc(cap);
	if (ad == NULL || msg == NULL || out == NULL || pt == NULL) {
		goto out;
	}
	/* The stub's order: key, nonce, ad, msg. */
	hilp_prng_fill(&rng, key, a->keybytes);
	hilp_prng_fill(&rng, npub, a->npubbytes);
	hilp_prng_fill(&rng, ad, ad_len);
	hilp_prng_fill(&rng, msg, msg_len);

	if (op == HILP_OP_DECRYPT) {
		ret = hil_ref_run(a, HILP_OP_ENCRYPT, key, npub, ad, ad_len,
				  msg, msg_len, 0, out, cap, &out_len,
				  &rejected);
		if (ret == HIL_OK && !rejected) {
			ret = hil_ref_run(a, op, key, npub, ad, ad_len, out,
					  out_len, 0, pt, cap, &pt_len,
					  &rejected);
			memcpy(out, pt, pt_len);
			out_len = pt_len;
		}
	} else {
		ret = hil_ref_run(a, op, key, npub, ad, ad_len, msg, msg_len,
				  xof_len, out, cap, &out_len, &rejected);
	}
	if (ret != HIL_OK) {
		goto out;
	}
	if (rejected) {
		hil_err("the host build of %s/%s failed its own operation",
			a->name, a->impl);
		ret = HIL_ERR_VERIFY;
		goto out;
	}
	*digest = HILP_DIGEST_INIT;
	for (i = 0; i < runs; i++) {
		*digest = hilp_digest_update(*digest, out, out_len);
	}
	ret = HIL_OK;
out:
	free(pt);
	free(out);
	free(msg);
	free(ad);
	return ret;
}
