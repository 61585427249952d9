/* test_eta: the run's time left, on a fake clock: by work and the last run's time, not by rows. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/eta.h"

/*
 * Issue 31 item 7: 58 rows whose costs differ 100-fold (the last ones the
 * long messages); the rows-based estimate said "about 4 s left" at row 46
 * of a run that took 35 s. By work, with the last run's 35 s, the estimate
 * at that point is the rest of the work at the last run's pace.
 */
static void test_eta_weighs_rows_by_their_work(void **state)
{
	struct hil_eta e = {0};
	double w[58], total = 0, done = 0;
	int i;

	(void)state;
	for (i = 0; i < 58; i++) {
		/* 40 short rows (1 unit), 18 long ones (100 units). */
		w[i] = i < 40 ? 1.0 : 100.0;
		total += w[i];
	}
	for (i = 0; i < 45; i++) {
		done += w[i];
	}
	e.last_s = 35.0;
	e.total_work = total;
	e.done_work = done;
	e.row_work = w[45];
	e.start_ms = 0;
	/* This run goes at the last one's pace: 45 rows done at 17 s
	 * would be 35 s x done / total. */
	e.done_ms = (long long)(35000.0 * done / total);
	e.start_ms = 0;
	/* Left: 35 s x the remaining share, about 26 s; rows alone would
	 * say 17 x 13 / 45 = 5 s. */
	assert_in_range(hil_eta_left_s(&e, e.done_ms), 25, 27);
}

/* Without an earlier run, this run's own pace by work. */
static void test_eta_without_a_last_run_uses_this_runs_pace(void **state)
{
	struct hil_eta e = {0};

	(void)state;
	e.last_s = -1;
	e.total_work = 1000;
	e.start_ms = 5000;
	/* Nothing done yet: nothing to go on. */
	e.done_ms = e.start_ms;
	assert_int_equal(hil_eta_left_s(&e, 6000), -1);
	/* 100 units in 10 s: 900 more are 90 s. */
	e.done_work = 100;
	e.done_ms = 15000;
	assert_int_equal(hil_eta_left_s(&e, 15000), 90);
}

/* Time spent in the row in progress comes off the estimate, but never
 * below what the rows after it need: the estimate keeps moving while a
 * long row runs, and does not reach zero before the last row. */
static void test_eta_moves_during_a_long_row(void **state)
{
	struct hil_eta e = {0};
	long long a, b, c;

	(void)state;
	e.last_s = 100;
	e.total_work = 100;
	e.done_work = 10;
	e.row_work = 50;
	e.start_ms = 0;
	e.done_ms = 10000; /* at the last run's pace */
	a = hil_eta_left_s(&e, 10000);
	b = hil_eta_left_s(&e, 30000);
	c = hil_eta_left_s(&e, 200000);
	assert_int_equal(a, 90);
	assert_int_equal(b, 70);
	/* Long past the row's share: the 40 units after it remain. */
	assert_int_equal(c, 40);
}

/* A row's work: scaled from a call seen, else from bytes. */
static void test_eta_row_work(void **state)
{
	(void)state;
	/* Nothing seen: (bytes + 64) at the average cost, x calls. */
	assert_true(hil_eta_row_work(10, 0, 0, 64, 2.0) == 10 * 128 * 2.0);
	/* Seen at the same length: that call's ticks, x calls. */
	assert_true(hil_eta_row_work(10, 5000, 64, 64, 2.0) == 50000.0);
	/* A longer message costs more than a shorter one. */
	assert_true(hil_eta_row_work(10, 5000, 64, 2048, 2.0) >
		    hil_eta_row_work(10, 5000, 64, 64, 2.0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eta_weighs_rows_by_their_work),
		cmocka_unit_test(
			test_eta_without_a_last_run_uses_this_runs_pace),
		cmocka_unit_test(test_eta_moves_during_a_long_row),
		cmocka_unit_test(test_eta_row_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
