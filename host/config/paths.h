/* paths: output paths a configuration names stay inside the working directory; the command line may send output anywhere. */
#ifndef HIL_PATHS_H
#define HIL_PATHS_H

#include <stddef.h>

#include "config.h"

/**
 * Whether path stays inside the working directory: relative, and no ".."
 * component climbs above the directory it starts from ("a/../b" stays,
 * "../x" and "a/../../x" leave). The test is on the text alone: a symbolic
 * link inside the working directory was put there by its owner and is
 * followed like any directory.
 * @return 1 if confined; 0 if not (absolute, escaping, empty, NULL).
 */
int hil_path_confined(const char *path);

/**
 * Check every output path a configuration can name (today results_dir; the
 * others are inputs: extends, algorithm folders, known-answer files). A
 * configuration is a file anyone may hand to a lab host or drop into a
 * spool, so it may not make hilrun write outside the working directory;
 * the user's own --results DIR (or --output DIR) on the command line may.
 * @param err receives a message naming the file, the key and the path,
 *        e.g. "configs/x.json: results_dir \"/etc\": a configuration may
 *        only name ..." (NUL-terminated, len bytes; the caller adds what
 *        the user can do instead); may be NULL.
 * @return HIL_OK, HIL_ERR_CONFIG (a path leaves the working directory) or
 *         HIL_ERR_ARG (cfg NULL).
 */
int hil_path_check_config(const struct hil_config *cfg, char *err, size_t len);

#endif /* HIL_PATHS_H */
