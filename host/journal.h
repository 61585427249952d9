/* journal: the rows of a run read back from its journal.jsonl, for --resume. */
#ifndef HIL_JOURNAL_H
#define HIL_JOURNAL_H

#include <stddef.h>

#include "run.h"

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

/** The canonical name of an operation ("encrypt", ...), or NULL. */
const char *hil_journal_op(const char *name);

#endif /* HIL_JOURNAL_H */
