/* snapshot: the copy of a user's implementation folder that a build compiles, taken when the build starts and checked against what the configuration's load checked, so that a file swapped after the check (for a link, a FIFO, a device) is never read. */
#ifndef HIL_SNAPSHOT_H
#define HIL_SNAPSHOT_H

#include <stddef.h>

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

/**
 * Remove the file, link or folder tree name in the folder dir_fd without
 * following any link (a link is removed, never what it leads to).
 * @return HIL_OK (also when there is nothing) or HIL_ERR_IO.
 */
int hil_snapshot_remove_at(int dir_fd, const char *name);

#endif /* HIL_SNAPSHOT_H */
