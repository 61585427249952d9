/* katrun: known-answer vectors of an implementation run on the target through the protocol. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"kat"
#include "katrun.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "hilp.h"
#include "image/kat.h"
#include "util/log.h"
#include "session/stub.h"

/* A field's bytes, or an empty field when the record lacks it. */
static const struct kat_field *field(const struct kat_record *r,
				     const char *name)
{
	static const struct kat_field empty;
	const struct kat_field *f = kat_find(r, name);

	return f != NULL ? f : &empty;
}

static int check_one(struct hil_session *s, uint8_t index,
		     const struct registry_alg *subj,
		     const struct kat_record *r, const char *path)
{
	const struct kat_field *key = field(r, "Key");
	const struct kat_field *npub = field(r, "Nonce");
	const struct kat_field *ad = field(r, "AD");
	const struct kat_field *pt = field(r, "PT");
	const struct kat_field *ct = field(r, "CT");
	const struct kat_field *msg = field(r, "Msg");
	const struct kat_field *md = field(r, "MD");
	uint8_t out[KAT_FIELD_MAX + 64];
	size_t out_len = 0;
	int rejected = 0;
	int ret;

	switch (subj->kind) {
	case HILP_KIND_AEAD:
	case HILP_KIND_BLOCK:
		ret = hil_target_exec(s, index, HILP_OP_ENCRYPT, key->data,
				      key->len, npub->data, npub->len, ad->data,
				      ad->len, pt->data, pt->len, 0, out,
				      sizeof(out), &out_len, &rejected);
		if (ret == HIL_OK && (rejected || out_len != ct->len ||
				      memcmp(out, ct->data, ct->len) != 0)) {
			ret = HIL_ERR_VERIFY;
		}
		if (ret == HIL_OK && subj->kind == HILP_KIND_AEAD) {
			ret = hil_target_exec(s, index, HILP_OP_DECRYPT,
					      key->data, key->len, npub->data,
					      npub->len, ad->data, ad->len,
					      ct->data, ct->len, 0, out,
					      sizeof(out), &out_len, &rejected);
			if (ret == HIL_OK &&
			    (rejected || out_len != pt->len ||
			     memcmp(out, pt->data, pt->len) != 0)) {
				ret = HIL_ERR_VERIFY;
			}
		}
		break;
	case HILP_KIND_HASH:
	case HILP_KIND_XOF:
		ret = hil_target_exec(s, index, HILP_OP_HASH, NULL, 0, NULL, 0,
				      NULL, 0, msg->data, msg->len,
				      subj->kind == HILP_KIND_XOF ? md->len : 0,
				      out, sizeof(out), &out_len, &rejected);
		if (ret == HIL_OK && (rejected || out_len != md->len ||
				      memcmp(out, md->data, md->len) != 0)) {
			ret = HIL_ERR_VERIFY;
		}
		break;
	default:
		ret = HIL_ERR_ARG;
		break;
	}
	if (ret == HIL_ERR_VERIFY) {
		hil_err("%s:%lu: vector Count = %lu fails on the target's %s/%s",
			path, r->line, r->count, subj->name, subj->impl);
	}
	return ret;
}

int hil_katrun_on_target(struct hil_session *s, uint8_t index,
			 const struct registry_alg *subj, const char *path,
			 unsigned every)
{
	struct kat_record *last = malloc(sizeof(*last));
	unsigned long seen = 0;
	int have_last = 0;
	struct kat_file *f = malloc(sizeof(*f));
	struct kat_record *r = malloc(sizeof(*r));
	unsigned long n = 0;
	int ret = HIL_OK;
	int k;

	if (f == NULL || r == NULL || last == NULL) {
		free(f);
		free(r);
		free(last);
		return HIL_ERR_NOMEM;
	}
	if (every == 0) {
		every = 1;
	}
	if (kat_open(f, path) != KAT_OK) {
		hil_err("%s", f->err);
		ret = HIL_ERR_CONFIG;
		goto out;
	}
	while ((k = kat_next(f, r)) == 1) {
		if (seen++ % every != 0) {
			memcpy(last, r, sizeof(*last)); /* kept for the end */
			have_last = 1;
			continue;
		}
		have_last = 0;
		ret = check_one(s, index, subj, r, path);
		if (ret != HIL_OK) {
			break;
		}
		n++;
	}
	if (ret == HIL_OK && k == 0 && have_last) {
		ret = check_one(s, index, subj, last, path);
		n += ret == HIL_OK;
	}
	if (ret == HIL_OK && k < 0) {
		hil_err("%s", f->err);
		ret = HIL_ERR_CONFIG;
	}
	if (ret == HIL_OK && n == 0) {
		hil_err("%s: no vectors", path);
		ret = HIL_ERR_CONFIG;
	}
	if (ret == HIL_OK) {
		hil_info(
			"%s/%s: %lu of the %lu vectors of %s pass on the target",
			subj->name, subj->impl, n, seen, path);
	}
	kat_close(f);
out:
	free(f);
	free(r);
	free(last);
	return ret;
}
