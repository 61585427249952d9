/* katrun: known-answer vectors of an implementation run on the target through the protocol. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"kat"
#include "katrun.h"

#include <stdio.h>
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

/* The target's answer to one vector, kept to explain a failure. */
struct kat_try {
	uint8_t op;
	const struct kat_field *in;   /* PT, CT or Msg */
	const struct kat_field *want; /* CT, PT or MD */
	uint8_t got[KAT_FIELD_MAX + 64];
	size_t got_len;
	int rejected;
};

/* What the host build says of the vector the target failed. */
static void second_opinion(const struct hil_katrun_host *host,
			   const struct kat_record *r, const struct kat_try *t,
			   size_t xof_len, char *buf, size_t len)
{
	const struct kat_field *key = field(r, "Key");
	const struct kat_field *npub = field(r, "Nonce");
	const struct kat_field *ad = field(r, "AD");
	uint8_t *h;
	size_t h_len = 0;
	int rej = 0;
	int ret;

	if (host == NULL || host->run == NULL) {
		snprintf(buf, len,
			 "; no host build to tell the code from its build");
		return;
	}
	h = malloc(sizeof(t->got));
	if (h == NULL) {
		snprintf(buf, len,
			 "; the host build was not asked (no memory)");
		return;
	}
	ret = host->run(host->ctx, t->op, key->data, npub->data, ad->data,
			ad->len, t->in->data, t->in->len, xof_len, h,
			sizeof(t->got), &h_len, &rej);
	if (ret != HIL_OK) {
		snprintf(buf, len, "; the host build could not run it");
	} else if (rej == t->rejected && h_len == t->got_len &&
		   memcmp(h, t->got, h_len) == 0) {
		snprintf(
			buf, len,
			"; its host build of the same sources gives the target's output: the code itself does not compute what the KAT file says (not a build or target fault)");
	} else if (!rej && h_len == t->want->len &&
		   memcmp(h, t->want->data, h_len) == 0) {
		snprintf(
			buf, len,
			"; its host build gives the KAT file's answer: the target's build of it differs (compiler, flags or target)");
	} else {
		snprintf(
			buf, len,
			"; its host build gives a third answer, neither the target's nor the KAT file's");
	}
	free(h);
}

static int check_one(struct hil_session *s, uint8_t index,
		     const struct registry_alg *subj,
		     const struct kat_record *r, const char *path,
		     const struct hil_katrun_host *host, char *why,
		     size_t why_len)
{
	const struct kat_field *key = field(r, "Key");
	const struct kat_field *npub = field(r, "Nonce");
	const struct kat_field *ad = field(r, "AD");
	const struct kat_field *pt = field(r, "PT");
	const struct kat_field *ct = field(r, "CT");
	const struct kat_field *msg = field(r, "Msg");
	const struct kat_field *md = field(r, "MD");
	struct kat_try *t = calloc(1, sizeof(*t));
	size_t xof_len = 0;
	int ret;

	if (t == NULL) {
		return HIL_ERR_NOMEM;
	}
	switch (subj->kind) {
	case HILP_KIND_AEAD:
	case HILP_KIND_BLOCK:
		t->op = HILP_OP_ENCRYPT;
		t->in = pt;
		t->want = ct;
		ret = hil_target_exec(s, index, HILP_OP_ENCRYPT, key->data,
				      key->len, npub->data, npub->len, ad->data,
				      ad->len, pt->data, pt->len, 0, t->got,
				      sizeof(t->got), &t->got_len,
				      &t->rejected);
		if (ret == HIL_OK && (t->rejected || t->got_len != ct->len ||
				      memcmp(t->got, ct->data, ct->len) != 0)) {
			ret = HIL_ERR_VERIFY;
		}
		if (ret == HIL_OK && subj->kind == HILP_KIND_AEAD) {
			t->op = HILP_OP_DECRYPT;
			t->in = ct;
			t->want = pt;
			ret = hil_target_exec(
				s, index, HILP_OP_DECRYPT, key->data, key->len,
				npub->data, npub->len, ad->data, ad->len,
				ct->data, ct->len, 0, t->got, sizeof(t->got),
				&t->got_len, &t->rejected);
			if (ret == HIL_OK &&
			    (t->rejected || t->got_len != pt->len ||
			     memcmp(t->got, pt->data, pt->len) != 0)) {
				ret = HIL_ERR_VERIFY;
			}
		}
		break;
	case HILP_KIND_HASH:
	case HILP_KIND_XOF:
		t->op = HILP_OP_HASH;
		t->in = msg;
		t->want = md;
		xof_len = subj->kind == HILP_KIND_XOF ? md->len : 0;
		ret = hil_target_exec(s, index, HILP_OP_HASH, NULL, 0, NULL, 0,
				      NULL, 0, msg->data, msg->len, xof_len,
				      t->got, sizeof(t->got), &t->got_len,
				      &t->rejected);
		if (ret == HIL_OK && (t->rejected || t->got_len != md->len ||
				      memcmp(t->got, md->data, md->len) != 0)) {
			ret = HIL_ERR_VERIFY;
		}
		break;
	default:
		ret = HIL_ERR_ARG;
		break;
	}
	if (ret == HIL_ERR_VERIFY) {
		char more[200];
		const char *what =
			t->op == HILP_OP_ENCRYPT
				? "the target's CT (ciphertext and tag) differs from the file's"
			: t->op == HILP_OP_DECRYPT
				? (t->rejected
					   ? "the target rejects the file's CT"
					   : "the target's decryption of the file's CT is not its PT")
				: "the target's MD differs from the file's";

		second_opinion(host, r, t, xof_len, more, sizeof(more));
		hil_err("%s:%lu: vector Count = %lu fails on the target's %s/%s (%s)%s",
			path, r->line, r->count, subj->name, subj->impl, what,
			more);
		if (why != NULL && why_len > 0) {
			snprintf(
				why, why_len,
				"fails vector Count = %lu of its KAT file %s (line %lu): %s%s",
				r->count, path, r->line, what, more);
		}
	}
	free(t);
	return ret;
}

int hil_katrun_on_target(struct hil_session *s, uint8_t index,
			 const struct registry_alg *subj, const char *path,
			 unsigned every)
{
	return hil_katrun_on_target_why(s, index, subj, path, every, NULL, NULL,
					0);
}

int hil_katrun_on_target_why(struct hil_session *s, uint8_t index,
			     const struct registry_alg *subj, const char *path,
			     unsigned every, const struct hil_katrun_host *host,
			     char *why, size_t why_len)
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
	if (why != NULL && why_len > 0) {
		why[0] = '\0';
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
		ret = check_one(s, index, subj, r, path, host, why, why_len);
		if (ret != HIL_OK) {
			break;
		}
		n++;
	}
	if (ret == HIL_OK && k == 0 && have_last) {
		ret = check_one(s, index, subj, last, path, host, why, why_len);
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
