/* Unit tests of the leak test on the cycle model's cycles: a leak BENCH's records paired with its runs and split by class (warm-ups skipped, class bits ignored, mismatches refused), read from a record file, and the emulator's early-stop rule with the model's classes. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hilp.h"
#include "run/leak.h"
#include "run/leakmodel.h"
#include "unit_util.h"
#include "util/err.h"

static struct hil_cyclemodel_rec rec(uint64_t insns, uint64_t cycles)
{
	struct hil_cyclemodel_rec r;

	memset(&r, 0, sizeof(r));
	r.insns = insns;
	r.cycles = cycles;
	r.min = cycles;
	r.max = cycles;
	return r;
}

static void classes_from(const double *x, size_t n, struct hil_leak_class *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		hil_leak_class_add(c, x[i]);
	}
}

/*
 * A table lookup on an emulator: every run executes 3695 instructions, but
 * behind the model's data cache the random inputs' runs take other cycles.
 * Two warm-up runs (fixed inputs, same count) come first and are skipped.
 */
static void test_records_split_by_class_after_the_warmups(void **state)
{
	struct hil_cyclemodel_rec recs[8];
	const uint32_t samples[6] = {3695,
				     3695 | HILP_LEAK_CLASS,
				     3695,
				     3695 | HILP_LEAK_CLASS,
				     3695 | HILP_LEAK_CLASS,
				     3695};
	const uint8_t classes[6] = {0, 1, 0, 1, 1, 0};
	struct hil_leak_class cls[2];

	(void)state;
	memset(cls, 0, sizeof(cls));
	recs[0] = rec(3695, 9000); /* warm-ups: a colder cache */
	recs[1] = rec(3695, 8000);
	recs[2] = rec(3695, 5016);
	recs[3] = rec(3695, 5000);
	recs[4] = rec(3695, 5016);
	recs[5] = rec(3695, 5030);
	recs[6] = rec(3695, 5006);
	recs[7] = rec(3695, 5016);
	assert_int_equal(hil_leak_model_take(recs, 8, samples, classes, 6, cls),
			 HIL_OK);
	assert_int_equal(cls[0].n, 3);
	assert_int_equal(cls[1].n, 3);
	/* fixed: 5016 three times; random: 5000, 5030, 5006 */
	assert_true(hil_leak_class_mean(&cls[0]) == 5016.0);
	assert_true(hil_leak_class_var(&cls[0]) == 0.0);
	assert_true(hil_leak_class_mean(&cls[1]) == 5012.0);
	/* deviations -12, 18, -6: 144 + 324 + 36 = 504, over n - 1 = 2 */
	assert_true(hil_leak_class_var(&cls[1]) == 252.0);
	/* More batches add to the same classes. */
	assert_int_equal(
		hil_leak_model_take(recs + 2, 6, samples, classes, 6, cls),
		HIL_OK);
	assert_int_equal(cls[0].n + cls[1].n, 12);
}

/* The runs' records are the last ones that match: here the warm-up of a
 * decryption differs in count, and records of an earlier BENCH lead. */
static void test_the_matching_window_is_found_by_counts(void **state)
{
	struct hil_cyclemodel_rec recs[7];
	const uint32_t samples[3] = {700, 690 | HILP_LEAK_CLASS, 700};
	const uint8_t classes[3] = {0, 1, 0};
	struct hil_leak_class cls[2];

	(void)state;
	memset(cls, 0, sizeof(cls));
	recs[0] = rec(700, 1); /* an earlier BENCH's */
	recs[1] = rec(690, 2);
	recs[2] = rec(800, 3); /* warm-up */
	recs[3] = rec(700, 900);
	recs[4] = rec(690, 880);
	recs[5] = rec(700, 902);
	recs[6] = rec(12, 40); /* something after: not a run */
	assert_int_equal(hil_leak_model_take(recs, 7, samples, classes, 3, cls),
			 HIL_OK);
	assert_int_equal(cls[0].n, 2);
	assert_int_equal(cls[1].n, 1);
	assert_true(hil_leak_class_mean(&cls[0]) == 901.0);
	assert_true(hil_leak_class_mean(&cls[1]) == 880.0);
}

/* Never a cycle figure paired with the wrong run: no match, nothing. */
static void test_records_that_do_not_match_are_refused(void **state)
{
	struct hil_cyclemodel_rec recs[4];
	const uint32_t samples[3] = {700, 700, 700};
	const uint8_t classes[3] = {0, 1, 0};
	struct hil_leak_class cls[2];

	(void)state;
	memset(cls, 0, sizeof(cls));
	recs[0] = rec(700, 900);
	recs[1] = rec(700, 900);
	recs[2] = rec(701, 900); /* one count off */
	recs[3] = rec(700, 900);
	assert_int_equal(hil_leak_model_take(recs, 4, samples, classes, 3, cls),
			 HIL_ERR_PROTO);
	/* too few records */
	assert_int_equal(hil_leak_model_take(recs, 2, samples, classes, 3, cls),
			 HIL_ERR_PROTO);
	assert_int_equal(hil_leak_model_take(NULL, 0, samples, classes, 3, cls),
			 HIL_ERR_PROTO);
	assert_int_equal(cls[0].n + cls[1].n, 0);
	assert_int_equal(hil_leak_model_take(recs, 4, samples, classes, 0, cls),
			 HIL_ERR_ARG);
	assert_int_equal(hil_leak_model_take(recs, 4, NULL, classes, 3, cls),
			 HIL_ERR_ARG);
	assert_int_equal(hil_leak_model_take(recs, 4, samples, NULL, 3, cls),
			 HIL_ERR_ARG);
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Through a record file as the plugin writes it: the row's own records are
 * skipped, each BENCH's read after its reply. */
static void test_batches_are_read_from_the_record_file(void **state)
{
	char dir[] = "/tmp/hil-leakmodel-XXXXXX";
	char path[64];
	struct hil_cyclemodel_reader *r = NULL;
	const uint32_t samples[2] = {50 | HILP_LEAK_CLASS, 50};
	const uint8_t classes[2] = {1, 0};
	struct hil_leak_class cls[2];

	(void)state;
	memset(cls, 0, sizeof(cls));
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cycles.txt", dir);
	append(path,
	       "# hilrun-cyclemodel 1 ws=2 art=on agu=on p=1/2/3 "
	       "counter=0x40000024 range=0x0-0x0 api=0-1\n"
	       "B seq=1 cycles=60 min=60 max=60 insns=50 div=0 flash=0\n");
	assert_int_equal(hil_cyclemodel_open(&r, path, 0), HIL_OK);
	assert_int_equal(hil_leak_model_skip(r), HIL_OK);
	/* one warm-up, two runs */
	append(path,
	       "B seq=2 cycles=70 min=70 max=70 insns=50 div=0 flash=0\n"
	       "B seq=3 cycles=64 min=64 max=64 insns=50 div=0 flash=0\n"
	       "B seq=4 cycles=61 min=61 max=61 insns=50 div=0 flash=0\n");
	assert_int_equal(hil_leak_model_batch(r, samples, classes, 2, cls),
			 HIL_OK);
	assert_true(hil_leak_class_mean(&cls[1]) == 64.0);
	assert_true(hil_leak_class_mean(&cls[0]) == 61.0);
	/* Nothing new: the batch's records are missing. */
	assert_int_equal(hil_leak_model_batch(r, samples, classes, 2, cls),
			 HIL_ERR_PROTO);
	assert_int_equal(cls[0].n + cls[1].n, 2);
	assert_int_equal(hil_leak_model_batch(NULL, samples, classes, 2, cls),
			 HIL_ERR_ARG);
	hil_cyclemodel_close(r);
	assert_int_equal(ut_rm_tree(dir), 0);
}

/*
 * The emulator's early stop (docs/method.md): identical instruction counts
 * in both classes end the test only when the model's cycles of the same
 * runs are identical too.
 */
static void test_early_stop_needs_identical_model_cycles(void **state)
{
	const double insns[] = {3695, 3695, 3695};
	const double other[] = {3710, 3710, 3710};
	const double cycles[] = {5016, 5016, 5016};
	const double cache[] = {5000, 5030, 5006};
	const double slower[] = {5020, 5020, 5020};
	struct hil_leak_class counts[2], model[2], diff[2], one[2];

	(void)state;
	classes_from(insns, 3, &counts[0]);
	classes_from(insns, 3, &counts[1]);
	classes_from(cycles, 3, &model[0]);
	classes_from(cycles, 3, &model[1]);
	/* Constant time in both: stop, with or without the model. */
	assert_true(hil_leak_identical(counts));
	assert_true(hil_leak_may_stop(counts, NULL));
	assert_true(hil_leak_may_stop(counts, model));
	/* Same instructions, cycles spread by a data cache: go on. */
	classes_from(cache, 3, &model[1]);
	assert_false(hil_leak_identical(model));
	assert_false(hil_leak_may_stop(counts, model));
	assert_true(hil_leak_may_stop(counts, NULL));
	/* Constant cycles in each class, but not the same: go on. */
	classes_from(cycles, 3, &diff[0]);
	classes_from(slower, 3, &diff[1]);
	assert_false(hil_leak_may_stop(counts, diff));
	/* Instructions differ: never, whatever the model says. */
	classes_from(other, 3, &counts[1]);
	classes_from(cycles, 3, &model[1]);
	assert_false(hil_leak_may_stop(counts, NULL));
	assert_false(hil_leak_may_stop(counts, model));
	/* Fewer than two runs of a class: not yet. */
	classes_from(insns, 3, &one[0]);
	classes_from(insns, 1, &one[1]);
	assert_false(hil_leak_identical(one));
	assert_false(hil_leak_may_stop(one, NULL));
	assert_false(hil_leak_identical(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_split_by_class_after_the_warmups),
		cmocka_unit_test(test_the_matching_window_is_found_by_counts),
		cmocka_unit_test(test_records_that_do_not_match_are_refused),
		cmocka_unit_test(test_batches_are_read_from_the_record_file),
		cmocka_unit_test(test_early_stop_needs_identical_model_cycles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
