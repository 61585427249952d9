/* leakmodel: the leak test's runs in the cycle model's estimated cycles: each leak BENCH's records paired with its runs and split by class. */
#define HIL_LOG_PREFIX "leak"
#include "leakmodel.h"

#include <stdlib.h>

#include "hilp.h"
#include "util/err.h"

/* Do the records from k on count what the samples count, one for one? */
static int window_matches(const struct hil_cyclemodel_rec *recs, size_t k,
			  const uint32_t *samples, size_t runs)
{
	size_t i;

	for (i = 0; i < runs; i++) {
		if (recs[k + i].insns !=
		    (uint64_t)(samples[i] & HILP_LEAK_COUNT_MASK)) {
			return 0;
		}
	}
	return 1;
}

int hil_leak_model_take(const struct hil_cyclemodel_rec *recs, size_t n,
			const uint32_t *samples, const uint8_t *classes,
			size_t runs, struct hil_leak_class cls[2])
{
	size_t k, i;

	if (samples == NULL || classes == NULL || cls == NULL || runs == 0 ||
	    (recs == NULL && n > 0)) {
		return HIL_ERR_ARG;
	}
	if (n < runs) {
		return HIL_ERR_PROTO;
	}
	/* The latest window: the timed runs come after the warm-ups, whose
	 * counts (the fixed inputs') may equal some of theirs. */
	for (k = n - runs + 1; k-- > 0;) {
		if (window_matches(recs, k, samples, runs)) {
			break;
		}
		if (k == 0) {
			return HIL_ERR_PROTO;
		}
	}
	for (i = 0; i < runs; i++) {
		hil_leak_class_add(&cls[classes[i] & 1u],
				   (double)recs[k + i].cycles);
	}
	return HIL_OK;
}

int hil_leak_model_batch(struct hil_cyclemodel_reader *r,
			 const uint32_t *samples, const uint8_t *classes,
			 size_t runs, struct hil_leak_class cls[2])
{
	struct hil_cyclemodel_rec *recs = NULL;
	size_t n = 0;
	int ret;

	if (r == NULL) {
		return HIL_ERR_ARG;
	}
	ret = hil_cyclemodel_read(r, &recs, &n);
	if (ret == HIL_OK && samples != NULL) {
		ret = hil_leak_model_take(recs, n, samples, classes, runs, cls);
	}
	free(recs);
	return ret;
}

int hil_leak_model_skip(struct hil_cyclemodel_reader *r)
{
	return hil_leak_model_batch(r, NULL, NULL, 0, NULL);
}
