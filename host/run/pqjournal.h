/* pqjournal: what a post-quantum run keeps of each scheme folder that ran to its end (done.tsv, and that folder's lines of the run's .tsv files) and how to start it again (pq-run.json), for hilrun pq --resume. */
#ifndef HIL_PQJOURNAL_H
#define HIL_PQJOURNAL_H

#include <stddef.h>
#include <stdio.h>

#include "image/build.h"

/* The run folder's files of the journal. */
#define HIL_PQ_DONE_FILE "done.tsv"
#define HIL_PQ_RUN_FILE	 "pq-run.json"

/*
 * What hilrun pq --resume needs to start a run again: the options that
 * made it (the configuration, the runs, the seed, the board given) and
 * when it started. Written when the run starts, read back by --resume.
 */
struct hil_pq_resume {
	char config[HIL_PATH];	     /* absolute: found from anywhere */
	char config_given[HIL_PATH]; /* as given on the command line */
	char started[32];	     /* hil_utc_iso() */
	char board[64];		     /* --board as given, "" when none */
	unsigned long runs;
	unsigned long seed;
	int host_signatures; /* --host-signatures given */
};

/**
 * Write dir/pq-run.json (atomically) from r.
 * @return HIL_OK, HIL_ERR_IO (logged naming the file system) or
 *         HIL_ERR_NOMEM.
 */
int hil_pq_journal_write_run(const char *dir, const struct hil_pq_resume *r);

/**
 * Read dir/pq-run.json into r.
 * @return HIL_OK; HIL_ERR_ARG (not a pq run's folder: the message says
 *         what dir is, e.g. a hilrun run's folder) or HIL_ERR_CONFIG (a
 *         pq-run.json that is not what hilrun pq writes), logged.
 */
int hil_pq_journal_read_run(const char *dir, struct hil_pq_resume *r);

/**
 * Before a resumed run: keep what the earlier attempts finished and drop
 * the rest, so that the folders not finished run again. A folder is
 * finished when done.tsv has a whole line for it whose build-id is still
 * that of its image (build/pq/SCHEME_IMPL/fw/stub.elf, the folder run.tsv
 * names): an image built again since from other sources is run again
 * (said). done.tsv, rows.tsv, calls.tsv, skipped.tsv and images.tsv are
 * rewritten (atomically) with the lines of finished folders only: a
 * folder's lines from an attempt cut in its middle, a line cut short by a
 * kill, a folder stopped or left out, all go.
 * @param kept receives the number of finished folders kept.
 * @return HIL_OK; HIL_ERR_IO or HIL_ERR_NOMEM, logged.
 */
int hil_pq_journal_keep(const char *dir, size_t *kept);

/**
 * Whether done.tsv in dir has a whole line for scheme/impl.
 * @return 1 or 0.
 */
int hil_pq_journal_is_done(const char *dir, const char *scheme,
			   const char *impl);

/**
 * Mark scheme/impl finished: its line appended to dir/done.tsv with the
 * build-id of the image it ran, through the journal's append
 * (hil_journal_append: synced, never a partial line). The caller has
 * made that folder's lines of the other files durable before.
 * @return HIL_OK or HIL_ERR_IO (logged naming the file system).
 */
int hil_pq_journal_mark(const char *dir, const char *scheme, const char *impl,
			const char *build_id);

/**
 * Make the lines written to f durable (fflush, fsync) before a folder is
 * marked finished.
 * @param path f's path, for the message.
 * @return HIL_OK or HIL_ERR_IO (logged naming the file system).
 */
int hil_pq_journal_sync(FILE *f, const char *path);

#endif /* HIL_PQJOURNAL_H */
