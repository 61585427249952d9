/* sweep: several configurations run one after another (rebuilt, reflashed, identified, measured) and compared. */
#ifndef HIL_SWEEP_H
#define HIL_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "runner.h"

#define HIL_SWEEP_MAX 32

struct hil_sweep {
	char name[HIL_CFG_NAME];
	struct hil_config *cfgs; /* n entries, owned */
	size_t n;
};

/**
 * Load a sweep file: {"name": ..., "configs": ["a.json", ...]} (paths
 * relative to the sweep file), or {"name": ..., "base": "qemu.json",
 * "cflags": [["-O0"], ["-O2", "-flto"], ...]}: the base once per flag set,
 * each named <base name>-<flags> (e.g. qemu-O2_flto).
 * @param err receives a message naming the file and JSON path on failure.
 * @return HIL_OK, HIL_ERR_CONFIG, HIL_ERR_IO, HIL_ERR_NOMEM.
 */
int hil_sweep_load(const char *path, struct hil_sweep *sw, char *err,
		   size_t errlen);

/** A sweep of the given config files (`--config a --config b`). */
int hil_sweep_from_files(char *const *paths, size_t n, struct hil_sweep *sw,
			 char *err, size_t errlen);

void hil_sweep_free(struct hil_sweep *sw);

/**
 * Run every configuration, up to jobs at once (0: as many as there are
 * cores; each writes its own report; a failure of one does not stop the
 * others), then print the comparison to out (the same whatever jobs) and write
 * it as <results>/<sweep-id>/sweep.md with sweep.json listing the runs.
 * @return HIL_OK when every run measured everything; otherwise the first
 *         error met (HIL_ERR_VERIFY when only rows failed).
 */
int hil_sweep_run(const struct hil_sweep *sw,
		  const struct hil_runner_opts *opts, unsigned jobs, FILE *out);

#endif /* HIL_SWEEP_H */
