/* linkset: a digest of the symbolic links of a folder (each link's path in the folder and the real path it leads to), taken when the folder is checked and again when it is copied, to tell that no link came, went or moved in between. */
#ifndef HIL_LINKSET_H
#define HIL_LINKSET_H

#include <stddef.h>

#define HIL_LINKSET_DIGEST 32 /* SHA-256 */

struct hil_linkset;

/**
 * An empty set.
 * @param out receives it; free with hil_linkset_free().
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_linkset_new(struct hil_linkset **out);

/** Free; NULL is allowed. */
void hil_linkset_free(struct hil_linkset *s);

/**
 * Add one link.
 * @param rel its path inside the folder ("sub/x.h").
 * @param target the real path it leads to, "" when it leads nowhere.
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_linkset_add(struct hil_linkset *s, const char *rel, const char *target);

/**
 * The digest of the set, whatever order the links were added in (they are
 * sorted first): equal digests mean the same links leading to the same
 * places.
 */
void hil_linkset_digest(struct hil_linkset *s,
			unsigned char out[HIL_LINKSET_DIGEST]);

#endif /* HIL_LINKSET_H */
