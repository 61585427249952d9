/* refcrypto: host builds of the bundled implementations, for expected outputs and digests. */
#ifndef HIL_REFCRYPTO_H
#define HIL_REFCRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "registry.h"

/**
 * Find an implementation built into the host.
 * @param impl NULL or "" for the reference implementation ("ref") of
 *        name, or its first one when it has no "ref".
 * @return the entry (static, not freed) or NULL.
 */
const struct registry_alg *hil_ref_find(const char *name, const char *impl);

/** Write the known "name/impl" pairs, comma-separated, into buf (for messages). */
void hil_ref_list(char *buf, size_t len);

/**
 * Run one operation on the host (HILP_OP_*): msg -> out. A block cipher's
 * key is expanded first; HILP_OP_KEYSETUP outputs the expanded key.
 * @param xof_len XOF output bytes (0: the default); ignored by other kinds.
 * @param rejected set when the implementation returned non-zero.
 * @return HIL_OK, or HIL_ERR_ARG for an operation the kind does not have, a
 *         small buffer, or a block cipher message that is not whole blocks.
 */
int hil_ref_run(const struct registry_alg *a, uint8_t op, const uint8_t *key,
		const uint8_t *npub, const uint8_t *ad, size_t adlen,
		const uint8_t *msg, size_t msglen, size_t xof_len, uint8_t *out,
		size_t cap, size_t *out_len, int *rejected);

/** Is op one that implementations of this kind offer? */
int hil_ref_has_op(const struct registry_alg *a, uint8_t op);

/** The output length of op on msglen bytes (0 when op does not apply). */
size_t hil_ref_out_len(const struct registry_alg *a, uint8_t op, size_t msglen,
		       size_t xof_len);

/**
 * The digest a BENCH of runs timed calls must return: inputs regenerated
 * from seed exactly as the stub does (protocol/hilp.h), outputs folded.
 * @return HIL_OK, HIL_ERR_ARG, HIL_ERR_NOMEM or HIL_ERR_VERIFY when the host
 *         build itself fails the operation.
 */
int hil_ref_bench_digest(const struct registry_alg *a, uint8_t op,
			 size_t msg_len, size_t ad_len, size_t xof_len,
			 unsigned runs, uint32_t seed, uint32_t *digest);

#endif /* HIL_REFCRYPTO_H */
