/* pqsnap: the copies a pq run builds from: each scheme and common folder of a plan checked when the configuration is loaded, then copied into the run's build folder (image/snapshot.c), a link followed only into a folder the configuration allows. */
#ifndef HIL_PQSNAP_H
#define HIL_PQSNAP_H

#include <stddef.h>

struct hil_pq_plan;

/*
 * Where a link may lead (docs/pq.md, "Links"): a link inside a folder
 * stays a link to the copy; a link out of it is replaced by what it
 * leads to when that lies in one of the folders the configuration allows
 * it: the run's scheme folders, common and host_common folders (all built
 * anyway), and, for a scheme folder, its entry's "links_within", for a
 * common folder every entry's. Any other link is refused, naming it and
 * where it leads.
 */

/**
 * Check every folder of plan as its copy will be made (regular files,
 * folders and allowed links only) and note each one's links
 * (plan->dir_links, common_links, host_links).
 * @param err receives the folder, the entry at fault and why.
 * @return HIL_OK, HIL_ERR_CONFIG, HIL_ERR_IO or HIL_ERR_NOMEM.
 */
int hil_pq_plan_check(struct hil_pq_plan *plan, char *err, size_t len);

/* The flags file hil_pq_plan_snapshot writes into build/src
 * (scripts/pq-bench.sh -F). */
#define HIL_PQ_FLAGS_FILE "flags.tsv"

/**
 * Copy every folder of plan into build/src (made afresh): scheme folder i
 * to build/src/NN/SCHEME/IMPL (its last two path parts kept: they name
 * its rows), common folder i to build/src/common/NN/NAME and host_common
 * folder i to build/src/host/NN/NAME. Each copy must find the links its
 * check found: a file swapped since for a link, a FIFO or a device, or a
 * link added or moved, is refused, never read. Then each scheme copy's
 * config.mk is read (image/pqflags.h) into build/src/flags.tsv, the
 * flags file scripts/pq-bench.sh takes with -F.
 * @param build an existing folder (absolute).
 * @param copy receives plan with the copies' paths in place of the
 *        folders (the caller's; it may not be plan).
 * @return HIL_OK or as hil_snapshot_copy_ex, err naming the folder.
 */
int hil_pq_plan_snapshot(const struct hil_pq_plan *plan, const char *build,
			 struct hil_pq_plan *copy, char *err, size_t len);

#endif /* HIL_PQSNAP_H */
