/* algnames: the algorithm and implementation names of a config checked against what hilrun bundles, before anything is built. */
#ifndef HIL_ALGNAMES_H
#define HIL_ALGNAMES_H

#include "config.h"

/**
 * Check every algorithms[i] of cfg: a bundled implementation must exist by
 * that algorithm and implementation name; a folder of the user's own
 * ("path") may name any algorithm. A near miss is suggested ("did you mean
 * ...?"), and the message names the config file and the JSON path.
 * @return HIL_OK, or HIL_ERR_CONFIG (reported).
 */
int hil_algnames_check(const struct hil_config *cfg);

/** hil_algnames_check() with the message into err (len bytes), not logged. */
int hil_algnames_why(const struct hil_config *cfg, char *err, size_t len);

/**
 * The bundled algorithm name nearest to name (a typo's likely intent), or
 * NULL when none is near; of_alg non-NULL: among that algorithm's
 * implementation names instead.
 */
const char *hil_algnames_nearest(const char *name, const char *of_alg);

#endif /* HIL_ALGNAMES_H */
