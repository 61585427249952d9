/* pqrun: a post-quantum run's files (scripts/pq-bench.sh's calls.tsv, rows.tsv, run.tsv, skipped.tsv) made into rows of the one result model. */
#ifndef HIL_PQRUN_H
#define HIL_PQRUN_H

#include <stddef.h>

#include "config/config.h"
#include "result/run.h"

/* pqm4's signed message length: the msg_len of sign and verify rows. */
#define HIL_PQ_MLEN 59u

/**
 * Read the run folder dir that scripts/pq-bench.sh wrote and make it into
 * run: one row per scheme, implementation and operation (keypair, encaps,
 * decaps; keypair, sign, verify) with its samples (emulated instructions,
 * the empty call's count subtracted) and the cycle model's estimates (the
 * empty call's bracket subtracted), their statistics (hil_stats_compute,
 * as every row's), the peak stack, the pq fields (code size, hashing
 * shares, verification, randombytes) and digests folded over the runs.
 * cfg receives what a report states of the run's configuration: the board
 * and clock of run.tsv, the schemes (algs, with their folders when given),
 * and the folders that were not run (not_for_board, with the reason);
 * run->cfg points to it. The caller zeroes run and cfg before, sets
 * run->started, run->jailed and the tool's provenance, and frees the rows
 * with hil_run_free().
 * @param folders the scheme folders in the order given (NULL: none known),
 *        n of them: an implementation with assembly gets the model's error
 *        bar for assembly.
 * @return HIL_OK; HIL_ERR_IO (a file missing or unreadable) or
 *         HIL_ERR_ARG (a line that is not what pq-bench.sh writes), each
 *         logged naming the file and line; HIL_ERR_NOMEM.
 */
int hil_pq_collect(const char *dir, const char *const *folders, size_t n,
		   struct hil_config *cfg, struct hil_run *run);

/**
 * The tool's provenance as hilrun run states it: the tree's git commit and
 * whether it is dirty, the host ($HILRUN_HOST or the machine's name) and
 * its system.
 */
void hil_pq_provenance(const char *root, struct hil_run *run);

#endif /* HIL_PQRUN_H */
