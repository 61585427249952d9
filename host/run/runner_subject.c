/* runner_subject: decides what each configured implementation is checked against, once the target's table is known. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"runner"
#include "runner_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/beneath.h"
#include "util/err.h"
#include "util/log.h"
#include "image/ownref.h"
#include "image/refcrypto/refcrypto.h"

int hil_rn_find_target_alg(const struct run_ctx *c, const char *name,
			   const char *impl)
{
	size_t i;

	for (i = 0; i < c->n_algs; i++) {
		if (strcmp(c->algs[i].name, name) == 0 &&
		    strcmp(c->algs[i].impl, impl) == 0) {
			return (int)i;
		}
	}
	return -1;
}

/* Does the image's implementation have the parameters of the reference? */
int hil_rn_same_api(const struct hilp_alg_info *t, const struct registry_alg *r)
{
	return t->kind == r->kind && t->keybytes == r->keybytes &&
	       t->npubbytes == r->npubbytes && t->abytes == r->abytes &&
	       t->blockbytes == r->blockbytes;
}

/*
 * A known-answer file beside a user's folder, in the NIST LWC names
 * (LWC_AEAD_KAT_*.txt, LWC_HASH_KAT_*.txt), into out; "" when none.
 */
static void kat_beside(const char *dir, uint8_t kind, char *out, size_t len)
{
	const char *prefix =
		kind == HILP_KIND_AEAD ? "LWC_AEAD_KAT_" : "LWC_HASH_KAT_";
	char best[256] = "";
	struct dirent *e;
	struct stat st;
	DIR *d;

	out[0] = '\0';
	d = opendir(dir);
	if (d == NULL) {
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);

		/* A regular file only, not through a link: a FIFO of that
		 * name would hold the run at its open (and the board's
		 * lock with it), a link could read a file elsewhere. */
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n > 4 &&
		    n < sizeof(best) &&
		    strcmp(e->d_name + n - 4, ".txt") == 0 &&
		    (best[0] == '\0' || strcmp(e->d_name, best) < 0)) {
			if (fstatat(dirfd(d), e->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) != 0) {
				continue;
			}
			if (!S_ISREG(st.st_mode)) {
				hil_warn(
					"%s/%s: not used as a known-answer file: it is %s",
					dir, e->d_name,
					hil_file_type_name(st.st_mode));
				continue;
			}
			snprintf(best, sizeof(best), "%s", e->d_name);
		}
	}
	closedir(d);
	if (best[0] != '\0') {
		snprintf(out, len, "%s/%s", dir, best);
	}
}

/* The mode a row states for an algorithm hilrun does not bundle: the
 * kind's (target/glue.c's defaults); a string of ours, as rows outlive the
 * host build that was loaded. */
static const char *kind_mode(uint8_t kind)
{
	switch (kind) {
	case HILP_KIND_AEAD:
		return "AEAD";
	case HILP_KIND_HASH:
		return "hash";
	case HILP_KIND_XOF:
		return "XOF";
	default:
		return "ECB";
	}
}

/* An implementation of an algorithm hilrun does not bundle, described by
 * the target's table (its api.h), with no host functions. */
static void subject_from_target(const struct hilp_alg_info *t,
				const struct hil_config_alg *ca,
				struct registry_alg *subject)
{
	memset(subject, 0, sizeof(*subject));
	subject->name = ca->name;
	subject->impl = ca->impl;
	subject->kind = t->kind;
	subject->keybytes = t->keybytes;
	subject->npubbytes = t->npubbytes;
	subject->abytes = t->abytes;
	subject->blockbytes = t->blockbytes;
	subject->constant_time = -1;
	subject->mode = kind_mode(t->kind);
}

/*
 * What each configured implementation is checked against, decided once the
 * target's table is known. A bundled algorithm: its bundled host build (an
 * external folder of it: the first bundled implementation). An algorithm
 * hilrun does not bundle, in the user's folder, in this order: the host
 * build of the same sources, its KAT file (given, or found beside it) with
 * a round trip on the target, or, when the config says "unverified", the
 * round trip alone with every row marked unverified.
 */
/* Why the build left ca out of the image, or NULL when it is in. */
const char *hil_rn_excluded_why(const struct run_ctx *c,
				const struct hil_config_alg *ca)
{
	char id[2 * HIL_CFG_NAME + 2];
	size_t i;

	snprintf(id, sizeof(id), "%s/%s", ca->name, ca->impl);
	for (i = 0; i < c->run->fw.n_excluded; i++) {
		if (strcmp(c->run->fw.excluded[i].impl, id) == 0) {
			return c->run->fw.excluded[i].why;
		}
	}
	return NULL;
}

void hil_rn_prepare_subjects(struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	char root[HIL_PATH];
	char log[HIL_PATH + 16];
	int have_root = hil_build_find_root(root, sizeof(root)) == HIL_OK;
	size_t a;

	snprintf(log, sizeof(log), "%s/build.log", c->run->dir);
	for (a = 0; a < cfg->n_algs; a++) {
		const struct hil_config_alg *ca = &cfg->algs[a];
		const struct registry_alg *ref =
			ca->path[0] != '\0' ? hil_ref_find(ca->name, NULL)
					    : hil_ref_find(ca->name, ca->impl);
		int index = hil_rn_find_target_alg(c, ca->name, ca->impl);
		struct registry_alg *subject = &c->subj[a];

		c->subj_ret[a] = HIL_OK;
		c->check[a] = CHECK_HOST;
		snprintf(c->kat[a], sizeof(c->kat[a]), "%s", ca->kat);
		if (hil_rn_excluded_why(c, ca) != NULL) {
			snprintf(c->why[a], sizeof(c->why[a]),
				 "does not build: %s",
				 hil_rn_excluded_why(c, ca));
			c->subj_ret[a] = HIL_ERR_BUILD;
			memset(subject, 0, sizeof(*subject));
			subject->name = ca->name;
			subject->impl = ca->impl;
			continue;
		}
		if (ref != NULL) {
			*subject = *ref;
			subject->impl = ca->impl;
			if (ca->path[0] != '\0') {
				subject->constant_time = -1;
			}
			continue;
		}
		if (ca->path[0] == '\0' || index < 0) {
			char known[1024];

			hil_ref_list(known, sizeof(known));
			snprintf(c->why[a], sizeof(c->why[a]),
				 "no such algorithm in this hilrun (known: %s)",
				 known);
			c->subj_ret[a] = ca->path[0] == '\0' ? HIL_ERR_CONFIG
							     : HIL_ERR_MISMATCH;
			memset(subject, 0, sizeof(*subject));
			subject->name = ca->name;
			subject->impl = ca->impl;
			continue;
		}
		subject_from_target(&c->algs[index], ca, subject);
		if (c->kat[a][0] == '\0') {
			kat_beside(ca->path, subject->kind, c->kat[a],
				   sizeof(c->kat[a]));
		}
		if (c->kat[a][0] == '\0') {
			/* The NIST LWC layout keeps it one level up, in the
			 * variant's folder beside its implementations. */
			char up[HIL_CFG_STR + 4];

			snprintf(up, sizeof(up), "%s/..", ca->path);
			kat_beside(up, subject->kind, c->kat[a],
				   sizeof(c->kat[a]));
		}
		if (have_root && subject->kind != HILP_KIND_BLOCK &&
		    hil_ownref_build(root, c->run->fw.dir, ca, log,
				     !c->opts->no_jail, c->opts->stop,
				     &c->own[a]) == HIL_OK &&
		    c->own[a].alg.kind == subject->kind) {
			*subject = c->own[a].alg;
			subject->name = ca->name;
			subject->impl = ca->impl;
			subject->constant_time = -1;
			subject->mode = kind_mode(subject->kind);
			hil_info(
				"%s/%s: an algorithm hilrun does not bundle: checked against the host build of its own sources%s",
				ca->name, ca->impl,
				c->kat[a][0] ? " and its known-answer file"
					     : "");
			continue;
		}
		/* Not of the kind its target build is: not its reference. */
		hil_ownref_close(&c->own[a]);
		c->own[a].started = 0;
		if (c->kat[a][0] != '\0') {
			c->check[a] = CHECK_KAT;
			hil_info(
				"%s/%s: an algorithm hilrun does not bundle, with no host build: checked by its known-answer file %s and a round trip on the target",
				ca->name, ca->impl, c->kat[a]);
			continue;
		}
		if (ca->unverified) {
			c->check[a] = CHECK_NONE;
			hil_warn(
				"%s/%s: no host build and no known-answer file: measured UNVERIFIED, as algorithms[%u].unverified asks (a round trip on the target only)",
				ca->name, ca->impl, ca->entry);
			continue;
		}
		snprintf(
			c->why[a], sizeof(c->why[a]),
			"cannot be verified: it does not build for this host (see build.log) and has no known-answer file (give algorithms[%u].kat, or put LWC_%s_KAT_*.txt beside it); to measure it anyway, unverified, set algorithms[%u].unverified to true",
			ca->entry,
			subject->kind == HILP_KIND_AEAD ? "AEAD" : "HASH",
			ca->entry);
		c->subj_ret[a] = HIL_ERR_VERIFY;
	}
}
