/* runner_verify: checks an implementation on the target (against its host build, or a round trip and its KAT file) before anything of it is timed. */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"
#include "katrun.h"
#include "util/log.h"
#include "image/refcrypto/refcrypto.h"
#include "session/session.h"
#include "session/stub.h"

#define VERIFY_MAX_MSG 80u

/* Why s's check failed, for its failed row (s->why, while s->explain). */
__attribute__((format(printf, 2, 3))) static void
verify_why(struct rn_subject *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->explain) {
		return;
	}
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

/* One operation on the target and on the host build; 0 when they agree. */
static int compare_once(struct rn_target *t, struct rn_subject *s, int index,
			uint8_t op, const uint8_t *key, const uint8_t *npub,
			const uint8_t *ad, size_t ad_len, const uint8_t *msg,
			size_t msg_len, size_t xof_len, uint8_t *got,
			size_t cap, size_t *got_len)
{
	const struct registry_alg *ref = &s->alg;
	uint8_t want[VERIFY_MAX_MSG + 1024];
	size_t want_len = 0;
	uint32_t count = 0;
	int rej_w = 0;
	int rej_g = 0;
	int ret;

	ret = hil_rn_ref_run(s, op, key, npub, ad, ad_len, msg, msg_len,
			     xof_len, want, sizeof(want), &want_len, &rej_w);
	if (ret == HIL_OK) {
		ret = hil_target_exec_counted(
			t->conn.session, (uint8_t)index, op, key, ref->keybytes,
			npub, ref->npubbytes, ad, ad_len, msg, msg_len, xof_len,
			got, cap, got_len, &rej_g, &count);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	hil_rn_work_note(t, index, op, (uint32_t)(msg_len + ad_len), count);
	if (rej_w || rej_g || want_len != *got_len ||
	    memcmp(want, got, want_len) != 0) {
		hil_err("%s/%s: the target's %s of %zu bytes (ad %zu) differs from the host build",
			ref->name, ref->impl, hil_rn_op_name(op), msg_len,
			ad_len);
		verify_why(
			s,
			"the target's %s of %zu bytes (ad %zu) differs from the host's (the bundled reference, or the host build of the same sources)",
			hil_rn_op_name(op), msg_len, ad_len);
		return HIL_ERR_VERIFY;
	}
	return HIL_OK;
}

/* An AEAD's decryption on the target gives back the plaintext and rejects
 * a forged tag. */
static int check_decrypt(struct rn_target *t, struct rn_subject *s, int index,
			 const uint8_t *key, const uint8_t *npub,
			 const uint8_t *ad, size_t ad_len, const uint8_t *msg,
			 size_t msg_len, uint8_t *ct, size_t ct_len)
{
	const struct registry_alg *ref = &s->alg;
	uint8_t back[VERIFY_MAX_MSG + 64];
	size_t back_len = 0;
	int rej = 0;
	int ret;

	ret = hil_target_exec(t->conn.session, (uint8_t)index, HILP_OP_DECRYPT,
			      key, ref->keybytes, npub, ref->npubbytes, ad,
			      ad_len, ct, ct_len, 0, back, sizeof(back),
			      &back_len, &rej);
	if (ret != HIL_OK) {
		return ret;
	}
	if (rej || back_len != msg_len || memcmp(back, msg, msg_len) != 0) {
		hil_err("%s/%s: decryption on the target does not give back the plaintext (%zu bytes)",
			ref->name, ref->impl, msg_len);
		verify_why(
			s,
			"decryption on the target does not give back the plaintext (%zu bytes)",
			msg_len);
		return HIL_ERR_VERIFY;
	}
	ct[ct_len - 1] ^= 0x01; /* a forged tag */
	ret = hil_target_exec(t->conn.session, (uint8_t)index, HILP_OP_DECRYPT,
			      key, ref->keybytes, npub, ref->npubbytes, ad,
			      ad_len, ct, ct_len, 0, back, sizeof(back),
			      &back_len, &rej);
	ct[ct_len - 1] ^= 0x01;
	if (ret != HIL_OK) {
		return ret;
	}
	if (!rej) {
		hil_err("%s/%s: the target accepted a forged tag", ref->name,
			ref->impl);
		verify_why(
			s,
			"the target accepted a forged tag (the ciphertext's last byte flipped, %zu bytes)",
			msg_len);
		return HIL_ERR_VERIFY;
	}
	return HIL_OK;
}

/* The inputs the target makes from seed for a generated EXEC and BENCH. */
static void seeded_inputs(const struct registry_alg *ref, uint32_t seed,
			  uint8_t *key, uint8_t *npub, uint8_t *ad,
			  size_t ad_len, uint8_t *msg, size_t msg_len)
{
	uint32_t rng = hilp_prng_init(seed);

	hilp_prng_fill(&rng, key, ref->keybytes);
	hilp_prng_fill(&rng, npub, ref->npubbytes);
	hilp_prng_fill(&rng, ad, ad_len);
	hilp_prng_fill(&rng, msg, msg_len);
}

/*
 * An AEAD at one point, in two requests: a generated decryption whose
 * digest covers the ciphertext the target made and the plaintext it
 * decrypted to (HILP_EXEC_ROUNDTRIP), against the host build's ciphertext
 * and the message, then the same ciphertext with a forged tag, which must
 * be refused. A disagreement is confirmed, and said precisely, the exact
 * way (LOAD, EXEC, FETCH of the encryption, then the decryption and the
 * forgery). @param want the host build's ciphertext of msg.
 */
static int check_seeded_aead(struct rn_target *t, struct rn_subject *s,
			     int index, uint32_t seed, const uint8_t *key,
			     const uint8_t *npub, const uint8_t *ad,
			     size_t ad_len, const uint8_t *msg, size_t msg_len,
			     uint8_t *want, size_t want_len)
{
	uint8_t got[VERIFY_MAX_MSG + 1024];
	struct hilp_exec_rep rep;
	size_t got_len = 0;
	uint32_t digest;
	int rej = 0;
	int ret;

	ret = hil_target_exec_gen(t->conn.session, (uint8_t)index,
				  HILP_OP_DECRYPT, seed, HILP_EXEC_ROUNDTRIP,
				  msg_len, ad_len, 0, &rep, &rej);
	if (ret != HIL_OK) {
		return ret;
	}
	digest = hilp_digest_update(HILP_DIGEST_INIT, want, want_len);
	digest = hilp_digest_update(digest, msg, msg_len);
	if (!rej) {
		/* The decryption's work; its encryption's is about the same
		 * (work_timeout_ms). */
		hil_rn_work_note(t, index, HILP_OP_DECRYPT,
				 (uint32_t)(msg_len + ad_len), rep.count);
	}
	if (!rej && rep.out_len == msg_len && rep.digest == digest) {
		ret = hil_target_exec_gen(
			t->conn.session, (uint8_t)index, HILP_OP_DECRYPT, seed,
			HILP_EXEC_FORGE, msg_len, ad_len, 0, &rep, &rej);
		if (ret != HIL_OK || rej) {
			return ret;
		}
	}
	ret = compare_once(t, s, index, HILP_OP_ENCRYPT, key, npub, ad, ad_len,
			   msg, msg_len, 0, got, sizeof(got), &got_len);
	if (ret != HIL_OK) {
		return ret;
	}
	return check_decrypt(t, s, index, key, npub, ad, ad_len, msg, msg_len,
			     want, want_len);
}

/*
 * One operation on inputs from seed, on the target by a generated EXEC (one
 * request: the target answers the output's digest) and on the host build.
 * When the digests differ, the exact comparison of the outputs (LOAD, EXEC,
 * FETCH) is the verdict, so a wrong figure is reported byte for byte, never
 * on a digest alone. An AEAD's encryption is checked with its decryption
 * and a forged one (check_seeded_aead). @return HIL_OK when they agree.
 */
static int check_seeded(struct rn_target *t, struct rn_subject *s, int index,
			uint8_t op, uint32_t seed, size_t ad_len,
			size_t msg_len, size_t xof_len)
{
	const struct registry_alg *ref = &s->alg;
	uint8_t key[64], npub[64], ad[64], msg[VERIFY_MAX_MSG];
	uint8_t want[VERIFY_MAX_MSG + 1024], got[VERIFY_MAX_MSG + 1024];
	struct hilp_exec_rep rep;
	size_t want_len = 0, got_len = 0;
	int rej_w = 0, rej_g = 0;
	int ret;

	seeded_inputs(ref, seed, key, npub, ad, ad_len, msg, msg_len);
	ret = hil_rn_ref_run(s, op, key, npub, ad, ad_len, msg, msg_len,
			     xof_len, want, sizeof(want), &want_len, &rej_w);
	if (ret != HIL_OK) {
		return ret;
	}
	if (op == HILP_OP_ENCRYPT && ref->kind == HILP_KIND_AEAD && !rej_w) {
		return check_seeded_aead(t, s, index, seed, key, npub, ad,
					 ad_len, msg, msg_len, want, want_len);
	}
	ret = hil_target_exec_gen(t->conn.session, (uint8_t)index, op, seed, 0,
				  msg_len, ad_len, xof_len, &rep, &rej_g);
	if (ret != HIL_OK) {
		return ret;
	}
	if (!rej_g) {
		hil_rn_work_note(t, index, op, (uint32_t)(msg_len + ad_len),
				 rep.count);
	}
	if (rej_w || rej_g || rep.out_len != want_len ||
	    rep.digest !=
		    hilp_digest_update(HILP_DIGEST_INIT, want, want_len)) {
		return compare_once(t, s, index, op, key, npub, ad, ad_len, msg,
				    msg_len, xof_len, got, sizeof(got),
				    &got_len);
	}
	return HIL_OK;
}

/*
 * Before any timing: run the algorithm on the target for a set of lengths
 * with PRNG inputs and compare with the host build of the same sources
 * (which passes the official vectors in make test); check that decryption
 * round-trips and that a forged tag is rejected. Each point is one
 * generated EXEC (an AEAD's two) rather than the loads, call and fetch of
 * the exact path, which a disagreement still takes.
 */
static int verify_alg(struct rn_target *t, struct rn_subject *s, int index)
{
	const struct registry_alg *ref = &s->alg;
	static const uint32_t msg_lens[] = {0, 1, 15, 16, 17, 33, 64, 79};
	static const uint32_t ad_lens[] = {0, 1, 16, 17};
	size_t i, j;
	uint8_t op = ref->kind == HILP_KIND_HASH || ref->kind == HILP_KIND_XOF
			     ? HILP_OP_HASH
			     : HILP_OP_ENCRYPT;
	size_t n_ad = ref->kind == HILP_KIND_AEAD ? 4 : 1;
	int ret;

	for (i = 0; i < sizeof(msg_lens) / sizeof(msg_lens[0]); i++) {
		size_t len = msg_lens[i];
		size_t xof_len = 0;

		if (ref->kind == HILP_KIND_BLOCK) {
			len = (len % 5) * ref->blockbytes; /* whole blocks */
		}
		if (ref->kind == HILP_KIND_XOF && i % 2 == 1) {
			xof_len = len + 1; /* other lengths than the default */
		}
		for (j = 0; j < n_ad; j++) {
			uint32_t seed = 0xC0FFEE00u + (uint32_t)(i * 16 + j);

			ret = check_seeded(t, s, index, op, seed, ad_lens[j],
					   len, xof_len);
			if (ret == HIL_OK && ref->kind == HILP_KIND_BLOCK &&
			    i == 0) {
				ret = check_seeded(t, s, index,
						   HILP_OP_KEYSETUP, seed, 0, 0,
						   0);
			}
			if (ret != HIL_OK) {
				return ret;
			}
		}
	}
	return HIL_OK;
}

/*
 * The checks that need no host build: an AEAD's decryption on the target
 * gives back what its encryption made and rejects a forged tag; any other
 * kind gives the same output twice for the same input.
 */
static int verify_roundtrip(struct rn_target *t, struct rn_subject *s,
			    int index)
{
	const struct registry_alg *ref = &s->alg;
	static const uint32_t msg_lens[] = {0, 1, 15, 16, 17, 64};
	uint8_t key[64], npub[64], ad[64], msg[VERIFY_MAX_MSG];
	uint8_t got[VERIFY_MAX_MSG + 1024], again[VERIFY_MAX_MSG + 1024];
	uint32_t rng = hilp_prng_init(0x5EEDu);
	uint8_t op = ref->kind == HILP_KIND_HASH || ref->kind == HILP_KIND_XOF
			     ? HILP_OP_HASH
			     : HILP_OP_ENCRYPT;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(msg_lens) / sizeof(msg_lens[0]); i++) {
		size_t len = msg_lens[i];
		size_t ad_len = ref->kind == HILP_KIND_AEAD ? i * 3 : 0;
		size_t got_len = 0, again_len = 0;
		int rej = 0;

		if (ref->kind == HILP_KIND_BLOCK) {
			len = (len % 5) * ref->blockbytes;
		}
		hilp_prng_fill(&rng, key, sizeof(key));
		hilp_prng_fill(&rng, npub, sizeof(npub));
		hilp_prng_fill(&rng, ad, sizeof(ad));
		hilp_prng_fill(&rng, msg, sizeof(msg));
		ret = hil_target_exec(t->conn.session, (uint8_t)index, op, key,
				      ref->keybytes, npub, ref->npubbytes, ad,
				      ad_len, msg, len, 0, got, sizeof(got),
				      &got_len, &rej);
		if (ret != HIL_OK) {
			return ret;
		}
		if (ref->kind == HILP_KIND_AEAD) {
			ret = check_decrypt(t, s, index, key, npub, ad, ad_len,
					    msg, len, got, got_len);
			if (ret != HIL_OK) {
				return ret;
			}
			continue;
		}
		ret = hil_target_exec(t->conn.session, (uint8_t)index, op, key,
				      ref->keybytes, npub, ref->npubbytes, ad,
				      ad_len, msg, len, 0, again, sizeof(again),
				      &again_len, &rej);
		if (ret != HIL_OK) {
			return ret;
		}
		if (got_len != again_len || memcmp(got, again, got_len) != 0) {
			hil_err("%s/%s: the target gives two outputs for one input (%zu bytes)",
				ref->name, ref->impl, len);
			verify_why(
				s,
				"the target gives two outputs for one input (%zu bytes)",
				len);
			return HIL_ERR_VERIFY;
		}
	}
	return HIL_OK;
}

/* The checks of one implementation before it is timed (see
 * hil_rn_prepare_subjects). */
static int verify_subject(struct rn_target *t, struct rn_subject *s, int index)
{
	if (s->check == CHECK_HOST) {
		return verify_alg(t, s, index);
	}
	return verify_roundtrip(t, s, index);
}

const char *hil_rn_check_name(const struct rn_subject *s)
{
	switch (s->check) {
	case CHECK_HOST:
		return s->kat[0] ? "host build and KAT" : "host build";
	case CHECK_KAT:
		return "KAT (no host build)";
	default:
		return "none (unverified)";
	}
}

/* Checks of a verification that failed on a link that damages frames. */
#define VERIFY_AGAIN 3

/* The host build's opinion on a KAT vector the target failed (ctx: the
 * subject, struct rn_subject). */
static int kat_host_run(void *ctx, uint8_t op, const uint8_t *key,
			const uint8_t *npub, const uint8_t *ad, size_t adlen,
			const uint8_t *msg, size_t msglen, size_t xof_len,
			uint8_t *out, size_t cap, size_t *out_len,
			int *rejected)
{
	return hil_rn_ref_run(ctx, op, key, npub, ad, adlen, msg, msglen,
			      xof_len, out, cap, out_len, rejected);
}

/* The checks of one implementation on the target: its outputs against the
 * host build (or a round trip), then its KAT file if it has one; a failed
 * check's or vector's explanation goes to s->why (with the host build's
 * opinion on a vector when there is one). */
static int verify_once(struct rn_target *t, struct rn_subject *s, int index,
		       const struct hil_runner_opts *opts)
{
	struct hil_katrun_host host = {kat_host_run, s};
	int ret;

	s->why[0] = '\0';
	s->explain = 1;
	ret = verify_subject(t, s, index);
	s->explain = 0;
	if (hil_rn_stopping(opts)) {
		return HIL_ERR_INTERRUPTED; /* not a failed check */
	}
	if (ret == HIL_OK && s->kat[0] != '\0') {
		ret = hil_katrun_on_target_why(
			t->conn.session, (uint8_t)index, &s->alg, s->kat, 1,
			s->check == CHECK_HOST ? &host : NULL, s->why,
			sizeof(s->why));
	}
	/* The target answered that it took a fault (a crash, not a wrong
	 * answer): the caller recovers it and says what the fault was. */
	if (ret == HIL_ERR_TARGET && t->conn.session != NULL &&
	    hil_session_get_fault(t->conn.session)->seen) {
		ret = HIL_ERR_TARGET_FAULT;
	}
	return ret;
}

/*
 * verify_once, and a failure is believed only when it is not the link's:
 * after a lost link or a timeout the target is brought back (the recovery
 * ladder) and the check done again; a failure on a
 * link that has damaged frames (a damaged request may load other bytes,
 * and CRC-16 lets one damaged frame in 65536 through) is checked again, up to
 * VERIFY_AGAIN times, and the first pass wins. An implementation that is
 * wrong fails every time; no damaged frame makes a verification fail.
 */
int hil_rn_verify_believed(struct rn_target *t, struct rn_subject *s,
			   const struct hil_config_alg *ca, int index,
			   struct hil_run *run,
			   const struct hil_runner_opts *opts)
{
	int ret;
	unsigned again;

	memset(&t->loss, 0, sizeof(t->loss));
	ret = verify_once(t, s, index, opts);
	for (again = 0;; again++) {
		int lost = hil_rn_board_lost(t, ret);
		int link = hil_rn_note_loss(t, run, ret);

		if (!lost && ret != HIL_ERR_TIMEOUT) {
			break;
		}
		/*
		 * The link was lost, the emulator stopped, or a call failed:
		 * not the check. Bring the target back and check again: up
		 * to HIL_RN_LINK_AGAIN times when the board was lost or the
		 * target answered, damaged (the link's fault), once when it
		 * answered nothing at all (a hung stub hangs again).
		 */
		if (again >= (lost || link ? HIL_RN_LINK_AGAIN : 1u)) {
			break;
		}
		if (link) {
			hil_warn(
				"%s/%s: a call of the verification was lost to the link (the target answered, damaged): recovering and checking again (%u of %u)",
				ca->name, ca->impl, again + 1,
				HIL_RN_LINK_AGAIN);
		}
		ret = hil_rn_recover(t, run, opts);
		if (ret != HIL_OK) {
			t->loss.last_link = 0;
			return ret;
		}
		ret = verify_once(t, s, index, opts);
	}
	for (again = 1; again <= VERIFY_AGAIN; again++) {
		if (ret == HIL_OK || ret == HIL_ERR_TIMEOUT ||
		    ret == HIL_ERR_IO || ret == HIL_ERR_NOMEM ||
		    ret == HIL_ERR_INTERRUPTED ||
		    !hil_session_damaged(t->conn.session)) {
			break;
		}
		hil_warn(
			"%s/%s: verification failed on a link that damages frames: checking again (%u of %u)",
			ca->name, ca->impl, again, VERIFY_AGAIN);
		ret = verify_once(t, s, index, opts);
	}
	return ret;
}
