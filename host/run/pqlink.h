/* pqlink: a post-quantum run on a board with a link: the images scripts/pq-bench.sh built for it flashed through the board's flasher, the pq stub's PQRUN records read through the session, and written as the calls.tsv and rows.tsv lines pqrun.c makes rows of. */
#ifndef HIL_PQLINK_H
#define HIL_PQLINK_H

#include <signal.h>
#include <stddef.h>

#include "config/config.h"
#include "hilp.h"

/* How long one timed call may take before the board is taken as hung,
 * unless hilrun pq --call-timeout says otherwise (pqm4's slowest clean
 * signing at 24 MHz takes minutes). */
#define HIL_PQ_CALL_TIMEOUT_MS 600000u

/**
 * The board of a pq run: the "board", "flasher" and "link" sections of
 * the pq configuration at path, read by the configuration loader (its
 * defaults, checks and messages), with board.name replaced by board when
 * given. Nothing else of the file is read here (its algorithms are
 * hil_pq_plan_load()'s). Without board and without a "board" section,
 * the run is the emulated mps2's under the cycle model (HIL_ERR_NA).
 * @param board a board driver's name, or NULL.
 * @param cfg receives the configuration (no algorithms).
 * @param err receives the loader's message (len bytes).
 * @return HIL_OK; HIL_ERR_NA (no board named: cfg untouched);
 *         HIL_ERR_CONFIG, HIL_ERR_IO or HIL_ERR_NOMEM.
 */
int hil_pq_board_config(const char *path, const char *board,
			struct hil_config *cfg, char *err, size_t len);

/* What one PQRUN said, record by record (hil_pq_stream_add()). The caller
 * zeroes it and sets kind; hil_pq_stream_free() frees calls. */
struct hil_pq_stream {
	const char *kind; /* the image's: "KEM" or "SIGN" */
	unsigned runs;	  /* the runs PQRUN asked for (0: any) */
	struct hilp_pq_rec head;
	int have_head, have_end;
	struct hilp_pq_rec fault;
	int have_fault;
	struct hilp_pq_rec *calls; /* 3 x head.runs, in order */
	size_t n;
	char why[256]; /* a record refused: what was wrong with it */
};

/**
 * One PQRUN reply (data, seq first) added to the stream arg, checked
 * against what came before: one HEAD of this image's kind first, then the
 * CALLs in order (keypair, then the second and third operation, run by
 * run), then an END that counts them; a FAULT at any point. The session's
 * callback (hil_session_reply_fn).
 * @return HIL_OK; HIL_ERR_PROTO with st->why naming what is wrong (a
 *         malformed record, another version of the records: an image of
 *         PQRUN version 1 had its runs compiled in, a record out of order
 *         or after the END, a HEAD of another kind or of other runs than
 *         asked); HIL_ERR_NOMEM.
 */
int hil_pq_stream_add(void *st, const uint8_t *data, size_t len);

/** Free what hil_pq_stream_add() allocated. */
void hil_pq_stream_free(struct hil_pq_stream *st);

/**
 * Run every image of out/images.tsv on cfg's board, one after the other:
 * flash it, open the link, handshake, check its build-id, send PQRUN and
 * read its records. Each call received is appended to out/calls.tsv, each
 * operation with a call to out/rows.tsv (verified against the host
 * build's output that images.tsv names); an image that could not be run
 * to its end (no handshake, another image, a fault, a silence, a damaged
 * or malformed record) is appended to out/skipped.tsv with the reason,
 * the calls it completed kept. The stub's INFO (counter unit, clock) is
 * appended to out/run.tsv (once: not again on a resumed run). Each image's
 * lines are made durable after it ran; one that ran to its END is then
 * marked finished in out/done.tsv (pqjournal.h), and an image whose folder
 * done.tsv already marks (a resumed run's) is not run again.
 * @param jail 1: the flasher runs its tool jailed.
 * @param stop ends a wait at once when set (NULL: none).
 * @param call_ms how long one record may take (0: HIL_PQ_CALL_TIMEOUT_MS).
 * @param runs the runs of each operation, asked for with every PQRUN (1 to
 *        HILP_PQ_MAX_RUNS): the images take any number.
 * @return HIL_OK (each image's outcome is in the files); HIL_ERR_IO when a
 *         file cannot be read or written; HIL_ERR_INTERRUPTED.
 */
int hil_pq_board_run(const struct hil_config *cfg, const char *out, int jail,
		     const volatile sig_atomic_t *stop, unsigned call_ms,
		     unsigned runs);

#endif /* HIL_PQLINK_H */
