/* leakmodel: the leak test's runs in the cycle model's estimated cycles: each leak BENCH's records paired with its runs and split by class. */
#ifndef HIL_LEAKMODEL_H
#define HIL_LEAKMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "emu/cyclemodel.h"
#include "leak.h"

/**
 * Split the cycle model's records of one leak BENCH by class. The records
 * that follow a BENCH are one per timed() bracket (target/bench.c): its
 * warm-up runs', then its timed runs'. The last `runs` consecutive records
 * whose instruction counts equal the samples one for one are the runs', in
 * order; each one's cycles (as recorded: the model's overhead included, as
 * the counts include the stub's) go to its run's class.
 * @param samples the runs' counts; bit 31 (HILP_LEAK_CLASS) is ignored.
 * @param classes each run's class, 0 fixed or 1 random (the host's replay).
 * @param cls the two classes, added to.
 * @return HIL_OK; HIL_ERR_PROTO when no `runs` records match the samples
 *         (nothing added); HIL_ERR_ARG for a NULL pointer or runs 0.
 */
int hil_leak_model_take(const struct hil_cyclemodel_rec *recs, size_t n,
			const uint32_t *samples, const uint8_t *classes,
			size_t runs, struct hil_leak_class cls[2]);

/**
 * Read the records appended since the last read and split them as
 * hil_leak_model_take() does (samples NULL: only read past them).
 * @return HIL_OK; HIL_ERR_PROTO (no match, or a malformed record);
 *         HIL_ERR_IO; HIL_ERR_NOMEM; HIL_ERR_ARG.
 */
int hil_leak_model_batch(struct hil_cyclemodel_reader *r,
			 const uint32_t *samples, const uint8_t *classes,
			 size_t runs, struct hil_leak_class cls[2]);

/**
 * Skip the records appended since the last read (those of the row's own
 * BENCH, or of anything before the leak test).
 * @return HIL_OK or the codes of hil_cyclemodel_read().
 */
int hil_leak_model_skip(struct hil_cyclemodel_reader *r);

#endif /* HIL_LEAKMODEL_H */
