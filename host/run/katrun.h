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

#endif /* HIL_KATRUN_H */
