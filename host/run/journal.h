/* journal: the rows of a run read back from its journal.jsonl, for --resume. */
#ifndef HIL_JOURNAL_H
#define HIL_JOURNAL_H

#include <stddef.h>

#include "result/run.h"

/**
 * Read the measured rows of a journal (one JSON row per line, as the runner
 * appends them) that were measured on the image with build_id and are ok.
 * Rows of another image, failed rows and damaged lines (a crash mid-write
 * leaves at most the last one) are skipped with a note. Statistics are
 * recomputed from the samples.
 * @param rows receives a malloc'd array (free with hil_journal_free).
 * @return HIL_OK (also for a missing journal: no rows), HIL_ERR_NOMEM.
 */
int hil_journal_load(const char *path, const char *build_id,
		     struct hil_row **rows, size_t *n);

void hil_journal_free(struct hil_row *rows, size_t n);

/**
 * Append one line (len bytes, its '\n' included) to the journal open on fd
 * and make it durable (fsync) before returning: only then may the row be
 * reported as measured. On a failed or short write or a failed fsync (a
 * full file system, an I/O error) the journal is cut back to its length
 * before the call, so it never keeps a partial line, and the error is
 * logged naming the file system (hil_journal_fs_error).
 * @param path the journal's path, for the message.
 * @return HIL_OK or HIL_ERR_IO.
 */
int hil_journal_append(int fd, const char *path, const char *line, size_t len);

/**
 * Log that writing path failed with errno err, naming the file system it is
 * on (its mount point, found by walking up to where the device changes), the
 * space left there (no space left: "is full", whatever err says), and what
 * to do: free space, then --resume (resumable) or run again.
 * @param what "the journal", "run.json", ... for the message.
 */
void hil_journal_fs_error(const char *what, const char *path, int err,
			  int resumable);

/** The canonical name of an operation ("encrypt", ...), or NULL. */
const char *hil_journal_op(const char *name);

#endif /* HIL_JOURNAL_H */
