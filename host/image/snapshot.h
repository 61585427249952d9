/* snapshot: the copy of a user's implementation folder that a build compiles, taken when the build starts and checked against what the configuration's load checked, so that a file swapped after the check (for a link, a FIFO, a device) is never read. */
#ifndef HIL_SNAPSHOT_H
#define HIL_SNAPSHOT_H

#include <stddef.h>

#include "util/linkset.h"

/*
 * What the copy holds, entry by entry of the folder (its sub-folders too,
 * at most 8 deep and 20000 entries, as the load's check):
 * - a regular file: its bytes, its mode's permission bits and its
 *   modification time (so that make rebuilds only what changed); it is
 *   opened without following a link and only when it is a regular file
 *   (util/beneath.h): a file swapped for a link, a FIFO or a device after
 *   it was listed is refused, never read;
 * - a folder: a folder, copied in turn;
 * - a symbolic link: leading inside the folder, a link to the copy of what
 *   it leads to; leading outside, a link to the real path it leads to
 *   (which the jail shows, or not); leading nowhere, nothing. The links
 *   found must be exactly those the load's check found
 *   (hil_config_alg.links): none added, removed or leading elsewhere;
 * - anything else (a FIFO, a device, a socket): refused.
 */

/**
 * Copy the folder src into dst, made afresh (whatever was at dst is
 * removed first, never through a link; its parent must exist).
 * @param links the digest of src's links as checked (util/linkset.h), or
 *        NULL: not compared.
 * @param why receives the reason on failure, naming the entry at fault.
 * @return HIL_OK; HIL_ERR_CONFIG (src is not as it was checked: a link
 *         came, went or moved, or an entry is not a regular file, folder
 *         or link); HIL_ERR_IO; HIL_ERR_NOMEM.
 */
int hil_snapshot_copy(const char *src, const char *dst,
		      const unsigned char *links, char *why, size_t len);

/* Links leading out of the folder taken as what they lead to (the pq
 * lane's snapshots, image/pqsnap.c). */
struct hil_snapshot_follow {
	/* Real paths of the folders a link may lead into (at or below). */
	const char *const *roots;
	size_t n_roots;
	/* What they are, for the refusal's message (e.g. "the scheme's
	 * folder, \"common\", \"links_within\": /a, /b"); may be NULL. */
	const char *allowed;
};

/**
 * hil_snapshot_copy, and with follow non-NULL, a link leading out of the
 * folder is not made again: when the real path it leads to lies inside
 * one of follow's roots, what it leads to is copied in its place (a
 * regular file: its bytes, mode and time, opened beneath that root
 * without following a link on the way; a folder: copied in turn, within
 * the same limits); anywhere else, the copy is refused (HIL_ERR_CONFIG),
 * why naming the link and where it leads. Links inside the folder stay
 * links to the copy, as with hil_snapshot_copy. The links digest covers
 * every link met, followed ones included (their path in the copy).
 */
int hil_snapshot_copy_ex(const char *src, const char *dst,
			 const unsigned char *links,
			 const struct hil_snapshot_follow *follow, char *why,
			 size_t len);

/**
 * The check of a folder, as hil_snapshot_copy_ex would copy it (same
 * walk, same refusals, follow as there), writing nothing.
 * @param links receives the digest of its links (util/linkset.h), to be
 *        given to hil_snapshot_copy_ex when the copy is made.
 * @return HIL_OK or as hil_snapshot_copy_ex, why set.
 */
int hil_snapshot_check(const char *src,
		       const struct hil_snapshot_follow *follow,
		       unsigned char links[HIL_LINKSET_DIGEST], char *why,
		       size_t len);

/**
 * Remove the file, link or folder tree name in the folder dir_fd without
 * following any link (a link is removed, never what it leads to).
 * @return HIL_OK (also when there is nothing) or HIL_ERR_IO.
 */
int hil_snapshot_remove_at(int dir_fd, const char *name);

#endif /* HIL_SNAPSHOT_H */
