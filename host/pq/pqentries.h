/* pqentries: the algorithm entries of a post-quantum configuration (mupq/pqm4 layout) read and expanded into scheme folders and common-code folders. */
#ifndef HIL_PQENTRIES_H
#define HIL_PQENTRIES_H

#include <stddef.h>

#include "util/linkset.h"

#define HIL_PQ_MAX_DIRS	  64
#define HIL_PQ_MAX_COMMON 8
#define HIL_PQ_PATH	  1024

/* What one configuration asks hilrun pq to run. */
struct hil_pq_plan {
	char dirs[HIL_PQ_MAX_DIRS][HIL_PQ_PATH]; /* folders with api.h */
	size_t n_dirs;
	char common[HIL_PQ_MAX_COMMON][HIL_PQ_PATH]; /* "common": [...] */
	size_t n_common;
	char host_common[HIL_PQ_MAX_COMMON][HIL_PQ_PATH]; /* "host_common" */
	size_t n_host_common;
	/* "links_within" of every entry (real paths): folders a link in a
	 * scheme folder of that entry, or in a common folder, may lead into
	 * (image/pqsnap.h). */
	char within[HIL_PQ_MAX_COMMON][HIL_PQ_PATH];
	size_t n_within;
	unsigned dir_within[HIL_PQ_MAX_DIRS]; /* bit k: within[k] is its */
	/* The links each folder's check found (image/snapshot.h), which its
	 * copy must find again. */
	unsigned char dir_links[HIL_PQ_MAX_DIRS][HIL_LINKSET_DIGEST];
	unsigned char common_links[HIL_PQ_MAX_COMMON][HIL_LINKSET_DIGEST];
	unsigned char host_links[HIL_PQ_MAX_COMMON][HIL_LINKSET_DIGEST];
};

/**
 * Read a configuration's "algorithms" entries in today's forms,
 * {"name", "impl", "path"} (path: a folder with api.h) or
 * {"tree", "pattern"} (every tree/SCHEME/IMPL folder with an api.h whose
 * "SCHEME/IMPL" matches the fnmatch pattern), each with an optional
 * "common": [folders], "host_common": [folders] and "links_within":
 * [folders] (each inside the configuration file's folder). Relative paths
 * are the configuration file's. Every entry must name the same common
 * folders (one image build rule per run). The caller then checks every
 * scheme and common folder as its copy will be made (image/pqsnap.h,
 * hil_pq_plan_check).
 * @param err receives a message naming the file, the entry and what is
 *        wrong (NUL-terminated, len bytes).
 * @return HIL_OK, HIL_ERR_CONFIG (bad entry, no folder matched) or
 *         HIL_ERR_IO (the file cannot be read).
 */
int hil_pq_plan_load(const char *path, struct hil_pq_plan *plan, char *err,
		     size_t len);

#endif /* HIL_PQENTRIES_H */
