/* crypt: `hilrun crypt`: one operation on the host build or on the emulated target. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"crypt"
#include "crypt.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/algnames.h"
#include "drivers/board/board.h"
#include "util/err.h"
#include "hilp.h"
#include "util/log.h"
#include "util/proc.h"
#include "image/refcrypto/refcrypto.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/stub.h"
#include "util/util.h"

#define CRYPT_MAX 4096u

struct crypt_bufs {
	uint8_t key[64], npub[64], ad[CRYPT_MAX], in[CRYPT_MAX];
	uint8_t out[CRYPT_MAX + 64];
	size_t keylen, npublen, adlen, inlen, outlen;
};

static int decode_arg(const char *what, const char *hex, uint8_t *out,
		      size_t cap, size_t want, size_t *len)
{
	long n;

	if (hex == NULL) {
		if (want == 0) {
			*len = 0;
			return HIL_OK;
		}
		hil_err("%s is required (%zu bytes in hex)", what, want);
		return HIL_ERR_ARG;
	}
	n = hil_hex_decode(hex, out, cap);
	if (n < 0) {
		hil_err("%s: \"%.40s%s\" is not hex of at most %zu bytes", what,
			hex, strlen(hex) > 40 ? "..." : "", cap);
		return HIL_ERR_ARG;
	}
	if (want != (size_t)-1 && (size_t)n != want) {
		hil_err("%s must be %zu bytes, got %ld", what, want, n);
		return HIL_ERR_ARG;
	}
	*len = (size_t)n;
	return HIL_OK;
}

static int parse_op(const char *op, const struct registry_alg *ref,
		    uint8_t *out)
{
	int hashing = ref->kind == HILP_KIND_HASH || ref->kind == HILP_KIND_XOF;

	if (op == NULL) {
		*out = hashing ? HILP_OP_HASH : HILP_OP_ENCRYPT;
	} else if (strcmp(op, "encrypt") == 0) {
		*out = HILP_OP_ENCRYPT;
	} else if (strcmp(op, "decrypt") == 0) {
		*out = HILP_OP_DECRYPT;
	} else if (strcmp(op, "hash") == 0) {
		*out = HILP_OP_HASH;
	} else if (strcmp(op, "keysetup") == 0) {
		*out = HILP_OP_KEYSETUP;
	} else {
		hil_err("unknown operation \"%s\" (encrypt, decrypt, hash or keysetup)",
			op);
		return HIL_ERR_ARG;
	}
	if (!hil_ref_has_op(ref, *out)) {
		hil_err("%s/%s (%s) has no %s operation", ref->name, ref->impl,
			ref->mode, op);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

static int on_qemu(const struct hil_crypt_args *a,
		   const struct registry_alg *ref, uint8_t op,
		   struct crypt_bufs *b, int *rejected)
{
	struct hil_runner_opts opts;
	struct hil_target_conn conn;
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	struct hil_run *run;
	char algs_list[160];
	char tmpl[] = "/tmp/hilrun-crypt-XXXXXX";
	size_t n_algs = 0;
	size_t i;
	int index = -1;
	int ret;

	if (a->cfg == NULL || !hil_board_emulated(a->cfg->board.name)) {
		hil_err("--on qemu needs a configuration for the emulated board");
		return HIL_ERR_ARG;
	}
	run = calloc(1, sizeof(*run));
	if (run == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (mkdtemp(tmpl) == NULL) {
		free(run);
		hil_err("cannot create a temporary directory");
		return HIL_ERR_IO;
	}
	run->cfg = a->cfg;
	snprintf(run->dir, sizeof(run->dir), "%s", tmpl);
	snprintf(algs_list, sizeof(algs_list), "%s/%s", ref->name, ref->impl);
	memset(&opts, 0, sizeof(opts));
	opts.algs_override = algs_list;
	opts.no_jail = cli_no_jail(0); /* jailed where it can be */
	opts.stop = a->stop;

	ret = hil_runner_bring_up(a->cfg, &opts, run, &conn);
	if (ret == HIL_OK) {
		ret = hil_target_algs(conn.session, algs, HIL_TARGET_MAX_ALGS,
				      &n_algs);
	}
	for (i = 0; ret == HIL_OK && i < n_algs; i++) {
		if (strcmp(algs[i].name, ref->name) == 0 &&
		    strcmp(algs[i].impl, ref->impl) == 0) {
			index = (int)i;
		}
	}
	if (ret == HIL_OK && index < 0) {
		hil_err("%s is not in the image built for it", algs_list);
		ret = HIL_ERR_MISMATCH;
	}
	if (ret == HIL_OK) {
		ret = hil_target_exec(conn.session, (uint8_t)index, op, b->key,
				      b->keylen, b->npub, b->npublen, b->ad,
				      b->adlen, b->in, b->inlen, a->xof_len,
				      b->out, sizeof(b->out), &b->outlen,
				      rejected);
	}
	hil_runner_take_down(&conn, run);
	{
		/* The emulator's files are of no use once it has stopped. */
		char *rm[] = {"rm", "-rf", tmpl, NULL};
		int st;

		(void)hil_proc_run(rm, NULL, 10000, &st);
	}
	hil_run_free(run);
	free(run);
	return ret;
}

int hil_crypt(const struct hil_crypt_args *a, FILE *out)
{
	struct crypt_bufs *b;
	const struct registry_alg *ref;
	char name[128];
	char *impl;
	char *hex = NULL;
	uint8_t op;
	int rejected = 0;
	int ret;

	snprintf(name, sizeof(name), "%s", a->alg);
	impl = strchr(name, '/');
	if (impl != NULL) {
		*impl++ = '\0';
	}
	ref = hil_ref_find(name, impl);
	if (ref == NULL) {
		char known[1024];

		const char *near = hil_algnames_nearest(name, NULL);
		char sug[2 * sizeof(name)] = "";

		/* A typo in the implementation, or in the algorithm. */
		if (near != NULL && impl != NULL && strcmp(near, name) == 0) {
			near = hil_algnames_nearest(impl, name);
			if (near != NULL) {
				snprintf(sug, sizeof(sug), "%s/%s", name, near);
			}
		} else if (near != NULL) {
			snprintf(sug, sizeof(sug), "%s%s%s", near,
				 impl != NULL ? "/" : "",
				 impl != NULL ? impl : "");
		}
		hil_ref_list(known, sizeof(known));
		if (sug[0] != '\0') {
			hil_err("unknown algorithm \"%s\" (did you mean \"%s\"? known: %s)",
				a->alg, sug, known);
		} else {
			hil_err("unknown algorithm \"%s\" (known: %s)", a->alg,
				known);
		}
		return HIL_ERR_ARG;
	}
	ret = parse_op(a->op, ref, &op);
	if (ret != HIL_OK) {
		return ret;
	}
	b = calloc(1, sizeof(*b));
	if (b == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = decode_arg("--key", a->key_hex, b->key, sizeof(b->key),
			 ref->keybytes, &b->keylen);
	if (ret == HIL_OK) {
		ret = decode_arg("--nonce", a->nonce_hex, b->npub,
				 sizeof(b->npub), ref->npubbytes, &b->npublen);
	}
	if (ret == HIL_OK) {
		ret = decode_arg("--ad", a->ad_hex ? a->ad_hex : "", b->ad,
				 sizeof(b->ad), (size_t)-1, &b->adlen);
	}
	if (ret == HIL_OK) {
		ret = decode_arg(op == HILP_OP_DECRYPT ? "--ct" : "--pt",
				 a->in_hex ? a->in_hex : "", b->in,
				 sizeof(b->in), (size_t)-1, &b->inlen);
	}
	if (ret == HIL_OK && op == HILP_OP_DECRYPT && b->inlen < ref->abytes) {
		hil_err("--ct must hold at least the %u-byte tag", ref->abytes);
		ret = HIL_ERR_ARG;
	}
	if (ret == HIL_OK && ref->kind == HILP_KIND_BLOCK &&
	    op == HILP_OP_ENCRYPT && b->inlen % ref->blockbytes != 0) {
		hil_err("--pt: %s works on whole %u-byte blocks (%s); %zu bytes is not a multiple",
			ref->name, ref->blockbytes, ref->mode, b->inlen);
		ret = HIL_ERR_ARG;
	}
	if (ret == HIL_OK && a->xof_len != 0 && ref->kind != HILP_KIND_XOF) {
		hil_err("--outlen applies to an XOF only");
		ret = HIL_ERR_ARG;
	}
	if (ret == HIL_OK && a->xof_len > CRYPT_MAX) {
		hil_err("--outlen: at most %u bytes", CRYPT_MAX);
		ret = HIL_ERR_ARG;
	}
	if (ret != HIL_OK) {
		goto out;
	}
	if (a->on == NULL || strcmp(a->on, "host") == 0) {
		ret = hil_ref_run(ref, op, b->key, b->npub, b->ad, b->adlen,
				  b->in, b->inlen, a->xof_len, b->out,
				  sizeof(b->out), &b->outlen, &rejected);
	} else if (hil_flasher_emulator(a->on)) {
		/* An emulator's name (the flasher of an emulated board). */
		ret = on_qemu(a, ref, op, b, &rejected);
	} else {
		char where[64];

		hil_flasher_emulator_names("host", where, sizeof(where));
		hil_err("--on %s: expected %s", a->on, where);
		ret = HIL_ERR_ARG;
	}
	if (ret != HIL_OK) {
		goto out;
	}
	if (rejected) {
		hil_err("%s/%s rejected the input (authentication failed): no output",
			ref->name, ref->impl);
		ret = HIL_ERR_VERIFY;
		goto out;
	}
	hex = malloc(2 * b->outlen + 1);
	if (hex == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	hil_hex_encode(b->out, b->outlen, hex);
	fprintf(out, "%s %s %s\n", ref->name,
		op == HILP_OP_DECRYPT	       ? "pt"
		: op == HILP_OP_HASH	       ? "digest"
		: op == HILP_OP_KEYSETUP       ? "expanded-key"
		: ref->kind == HILP_KIND_BLOCK ? "ct"
					       : "ct||tag",
		/* An empty output is written as an empty input is given: "". */
		b->outlen > 0 ? hex : "\"\"");
out:
	free(hex);
	free(b);
	return ret;
}
