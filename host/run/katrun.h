/* katrun: known-answer vectors of an implementation run on the target through the protocol. */
#ifndef HIL_KATRUN_H
#define HIL_KATRUN_H

#include <stdint.h>

#include "registry.h"
#include "session/session.h"

/**
 * Run every vector of a NIST LWC-style known-answer file on the target's
 * implementation at index: AEAD (Key, Nonce, PT, AD, CT = ciphertext||tag;
 * decryption gives PT back), hash and XOF (Msg, MD; an XOF produces as many
 * bytes as MD has), block cipher (Key, PT, CT).
 * @param subj the kind and sizes of the implementation.
 * @param every 1 for every vector; k to run every k-th vector (the first
 *        and last always), a sample for slow links.
 * @return HIL_OK; HIL_ERR_VERIFY naming the first failing vector (Count and
 *         line); HIL_ERR_CONFIG when the file cannot be read or parsed or
 *         has no vector; or a transport error.
 */
int hil_katrun_on_target(struct hil_session *s, uint8_t index,
			 const struct registry_alg *subj, const char *path,
			 unsigned every);

/**
 * A second opinion on a vector the target fails: the same operation run by
 * the host build of the implementation's own sources (hil_rn_ref_run()'s
 * signature without its context). Returns HIL_OK with its output, or an
 * error when it cannot say.
 */
struct hil_katrun_host {
	int (*run)(void *ctx, uint8_t op, const uint8_t *key,
		   const uint8_t *npub, const uint8_t *ad, size_t adlen,
		   const uint8_t *msg, size_t msglen, size_t xof_len,
		   uint8_t *out, size_t cap, size_t *out_len, int *rejected);
	void *ctx;
};

/**
 * hil_katrun_on_target(), and when a vector fails, why in why (a failed
 * row's reason): the vector (Count, file, line) and the operation, and,
 * with host (may be NULL: no host build), whether the host build of the
 * same sources gives the target's output (the code itself disagrees with
 * the KAT file: not a build or target fault) or the KAT's (the target
 * build is wrong). why is "" when nothing failed.
 */
int hil_katrun_on_target_why(struct hil_session *s, uint8_t index,
			     const struct registry_alg *subj, const char *path,
			     unsigned every, const struct hil_katrun_host *host,
			     char *why, size_t why_len);

#endif /* HIL_KATRUN_H */
