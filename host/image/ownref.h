/* ownref: the host build of a user's folder of an algorithm hilrun does not bundle, run as a jailed process of its own, as the reference its target build is checked against. */
#ifndef HIL_OWNREF_H
#define HIL_OWNREF_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "registry.h"

struct hil_proc;

struct hil_ownref {
	struct hil_proc *proc; /* the helper (host/refhelper), or NULL */
	int fd;		       /* our end of its stdin and stdout; -1 */
	/* Its glue's description (name and impl NULL: the caller's);
	 * never any function: the code is in the helper, not here. */
	struct registry_alg alg;
	unsigned has; /* its functions: REFWIRE_HAS_* (image/refwire.h) */
	int started;  /* it built, started and described itself (stays
			 * set when it dies later: calls then fail) */
	char mode[64];
	char exe[4096]; /* fw_dir/host/<sym> */
};

/**
 * Build the folder of a (its firmware build made the link
 * fw_dir/src/<alg>_<impl>) for this host with `make host-impl` (output
 * appended to log_path), start the program it makes, and ask it what it
 * is. Both make and the program run in a jail when jail is set
 * (util/jail.h): the folder read-only, a constructor or anything else in
 * it runs there, never in hilrun.
 * @param stop hilrun's stop flag (main's), or NULL: make is killed once it
 *        is set (HIL_ERR_INTERRUPTED).
 * @param out zeroed first; close it with hil_ownref_close(), also after a
 *        failure.
 * @return HIL_OK; HIL_ERR_BUILD when it does not build, start or describe
 *         itself (inline assembly, say: reported as info, not an error);
 *         HIL_ERR_NA when make (or the jail) cannot be run.
 */
int hil_ownref_build(const char *root, const char *fw_dir,
		     const struct hil_config_alg *a, const char *log_path,
		     int jail, const volatile sig_atomic_t *stop,
		     struct hil_ownref *out);

/** Did r build, start and describe itself (hil_ownref_build() succeeded)? */
int hil_ownref_started(const struct hil_ownref *r);

/** Does r's helper have the functions of kind (HILP_KIND_*)? */
int hil_ownref_has(const struct hil_ownref *r, uint8_t kind);

/**
 * hil_ref_run() (image/refcrypto/refcrypto.h) done by the helper.
 * @return as hil_ref_run(); HIL_ERR_PROCESS when the helper died, or
 *         HIL_ERR_TIMEOUT when it did not answer (it is then stopped, and
 *         every later call fails the same way).
 */
int hil_ownref_run(struct hil_ownref *r, uint8_t op, const uint8_t *key,
		   const uint8_t *npub, const uint8_t *ad, size_t adlen,
		   const uint8_t *msg, size_t msglen, size_t xof_len,
		   uint8_t *out, size_t cap, size_t *out_len, int *rejected);

/** hil_ref_bench_digest() done by the helper; errors as hil_ownref_run(). */
int hil_ownref_bench_digest(struct hil_ownref *r, uint8_t op, size_t msg_len,
			    size_t ad_len, size_t xof_len, unsigned runs,
			    uint32_t seed, uint32_t *digest);

/** Stop the helper; r may be zeroed (fd 0 is never ours) or NULL. */
void hil_ownref_close(struct hil_ownref *r);

#endif /* HIL_OWNREF_H */
