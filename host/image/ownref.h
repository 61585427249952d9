/* ownref: the host build of a user's folder of an algorithm hilrun does not bundle, loaded as the reference its target build is checked against. */
#ifndef HIL_OWNREF_H
#define HIL_OWNREF_H

#include <stddef.h>

#include "config/config.h"
#include "registry.h"

struct hil_ownref {
	void *handle;		 /* dlopen() of the shared object */
	struct registry_alg alg; /* its glue's description, with its functions */
	char so[4096];		 /* fw_dir/host/<sym>.so */
};

/**
 * Build the folder of a (its firmware build made the link
 * fw_dir/src/<alg>_<impl>) for this host with `make host-impl`, output
 * appended to log_path, and load it.
 * @return HIL_OK; HIL_ERR_BUILD when it does not build or load for the
 *         host (inline assembly, say: reported as info, not an error);
 *         HIL_ERR_NA when make cannot be run.
 */
int hil_ownref_build(const char *root, const char *fw_dir,
		     const struct hil_config_alg *a, const char *log_path,
		     struct hil_ownref *out);

/** Unload; r may be zeroed or NULL. */
void hil_ownref_close(struct hil_ownref *r);

#endif /* HIL_OWNREF_H */
