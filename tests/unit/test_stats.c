/* Unit tests of the sample statistics: known values, edge sizes, stability and the untouched input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "util/err.h"
#include "result/stats.h"

#define EPS 1e-9

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol) {
		print_error("got %.17g, want %.17g (tolerance %g)\n", got, want,
			    tol);
		fail();
	}
}

static void test_odd_n_with_an_outlier_gives_known_values(void **state)
{
	const double x[] = {4, 100, 1, 3, 2};
	struct hil_stats s;

	(void)state;
	assert_int_equal(hil_stats_compute(x, 5, &s), HIL_OK);
	assert_int_equal(s.n, 5);
	assert_near(s.median, 3, 0);
	assert_near(s.mad, 1, 0); /* deviations 2 97 1 0 1 -> 1 */
	assert_near(s.mean, 22, EPS);
	assert_near(s.min, 1, 0);
	assert_near(s.max, 100, 0);
	/* sum of squared deviations: 441+400+361+324+6084 = 7610 */
	assert_near(s.stddev, sqrt(7610.0 / 4), EPS);
}

static void test_even_n_takes_the_mean_of_the_middle_pair(void **state)
{
	const double x[] = {7, 1, 5, 3};
	struct hil_stats s;

	(void)state;
	assert_int_equal(hil_stats_compute(x, 4, &s), HIL_OK);
	assert_near(s.median, 4, 0);
	/* deviations 3 3 1 1 -> sorted 1 1 3 3 -> 2 */
	assert_near(s.mad, 2, 0);
	assert_near(s.mean, 4, 0);
	/* squared deviations 9 + 9 + 1 + 1 = 20, over n - 1 = 3 */
	assert_near(s.stddev, sqrt(20.0 / 3), EPS);
	assert_near(s.min, 1, 0);
	assert_near(s.max, 7, 0);
}

static void test_single_sample_has_zero_spread(void **state)
{
	const double x[] = {1234.5};
	struct hil_stats s;

	(void)state;
	assert_int_equal(hil_stats_compute(x, 1, &s), HIL_OK);
	assert_int_equal(s.n, 1);
	assert_near(s.median, 1234.5, 0);
	assert_near(s.mean, 1234.5, 0);
	assert_near(s.min, 1234.5, 0);
	assert_near(s.max, 1234.5, 0);
	assert_near(s.stddev, 0, 0);
	assert_near(s.mad, 0, 0);
}

static void test_no_samples_or_no_pointers_are_argument_errors(void **state)
{
	const double x[] = {1};
	struct hil_stats s;

	(void)state;
	assert_int_equal(hil_stats_compute(x, 0, &s), HIL_ERR_ARG);
	assert_int_equal(hil_stats_compute(NULL, 3, &s), HIL_ERR_ARG);
	assert_int_equal(hil_stats_compute(x, 1, NULL), HIL_ERR_ARG);
}

static void test_non_finite_samples_are_argument_errors(void **state)
{
	double x[] = {1, 2, 3};
	struct hil_stats s;

	(void)state;
	x[1] = NAN;
	assert_int_equal(hil_stats_compute(x, 3, &s), HIL_ERR_ARG);
	x[1] = INFINITY;
	assert_int_equal(hil_stats_compute(x, 3, &s), HIL_ERR_ARG);
}

static void test_all_equal_samples_give_exact_results(void **state)
{
	double x[1000];
	struct hil_stats s;
	size_t i;

	(void)state;
	/* 0.1 is not representable: a naive sum/n would drift off it. */
	for (i = 0; i < 1000; i++) {
		x[i] = 0.1;
	}
	assert_int_equal(hil_stats_compute(x, 1000, &s), HIL_OK);
	assert_true(s.mean == 0.1);
	assert_true(s.median == 0.1);
	assert_true(s.stddev == 0.0);
	assert_true(s.mad == 0.0);
	assert_true(s.min == 0.1 && s.max == 0.1);
}

static void test_input_is_not_modified(void **state)
{
	double x[] = {9, -3, 5.5, 0, 2, 2, 1e6};
	double copy[sizeof(x) / sizeof(x[0])];
	struct hil_stats s;

	(void)state;
	memcpy(copy, x, sizeof(x));
	assert_int_equal(hil_stats_compute(x, 7, &s), HIL_OK);
	assert_memory_equal(x, copy, sizeof(x));
	assert_near(s.median, 2, 0);
	assert_near(s.min, -3, 0);
	assert_near(s.max, 1e6, 0);
}

/* Cycle counts near 1e9 that differ by a few: the textbook one-pass formula
 * (sum of squares minus square of sum) cancels to garbage here. */
static void test_small_spread_on_a_large_offset_is_accurate(void **state)
{
	double x[1000];
	struct hil_stats s;
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		x[i] = 1e9 + (double)(i % 2); /* 1e9, 1e9 + 1, ... */
	}
	assert_int_equal(hil_stats_compute(x, 1000, &s), HIL_OK);
	assert_near(s.mean, 1e9 + 0.5, 1e-6);
	/* 1000 deviations of 0.5: sqrt(250 / 999) */
	assert_near(s.stddev, sqrt(250.0 / 999), 1e-9);
	assert_near(s.median, 1e9 + 0.5, 0);
	assert_near(s.mad, 0.5, 0);
}

static void test_large_n_matches_closed_forms(void **state)
{
	const size_t n = 1000000;
	double *x = malloc(n * sizeof(*x));
	struct hil_stats s;
	double want;
	size_t i;

	(void)state;
	assert_non_null(x);
	/* 0 .. n-1 in a scrambled order (multiplier coprime to n). */
	for (i = 0; i < n; i++) {
		x[i] = (double)((i * 7919) % n);
	}
	assert_int_equal(hil_stats_compute(x, n, &s), HIL_OK);
	assert_int_equal(s.n, n);
	assert_near(s.min, 0, 0);
	assert_near(s.max, (double)(n - 1), 0);
	assert_near(s.median, (double)(n - 1) / 2, 0);
	assert_near(s.mean, (double)(n - 1) / 2, 1e-6);
	/* Variance of 0..n-1 with n - 1 in the denominator: n (n + 1) / 12;
	 * a million rounded squares leave ~1e-11 of relative error. */
	want = sqrt((double)n * (double)(n + 1) / 12);
	assert_near(s.stddev, want, want * 1e-10);
	/* |x - 499999.5| is 0.5, 0.5, 1.5, 1.5, ...: its median is n/4. */
	assert_near(s.mad, (double)n / 4, 0);
	free(x);
}

static void
test_ci95_of_the_median_brackets_it_by_order_statistics(void **state)
{
	double x[100];
	struct hil_stats st;
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++) {
		x[i] = (double)(99 - i); /* 0..99, reversed */
	}
	assert_int_equal(hil_stats_compute(x, 100, &st), HIL_OK);
	/* ranks floor(50 - 9.8) = 40 and ceil(50 + 9.8) = 60: values 39 and 59 */
	assert_true(st.ci95_low == 39.0);
	assert_true(st.ci95_high == 59.0);
	assert_true(st.ci95_low <= st.median && st.median <= st.ci95_high);
	/* Few samples: the whole range. */
	assert_int_equal(hil_stats_compute(x, 5, &st), HIL_OK);
	assert_true(st.ci95_low == 95.0 && st.ci95_high == 99.0);
}

static void test_outliers_are_flagged_and_counted_not_dropped(void **state)
{
	double x[] = {100, 101, 99, 100, 102, 98, 100, 5000, 100, 101};
	double same[] = {7, 7, 7, 7, 9};
	struct hil_stats st;

	(void)state;
	assert_int_equal(hil_stats_compute(x, 10, &st), HIL_OK);
	assert_int_equal(st.outliers, 1);
	assert_true(hil_stats_is_outlier(&st, 5000));
	assert_false(hil_stats_is_outlier(&st, 102));
	assert_true(st.max == 5000.0); /* still in the statistics */
	/* MAD 0, as under the emulator: anything off the median is flagged. */
	assert_int_equal(hil_stats_compute(same, 5, &st), HIL_OK);
	assert_int_equal(st.outliers, 1);
}

static void test_linear_fit_recovers_fixed_and_per_byte_cost(void **state)
{
	const double len[] = {16, 64, 256, 1024};
	double y[4];
	double a, b, r2;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		y[i] = 900.0 + 12.5 * len[i];
	}
	assert_int_equal(hil_stats_fit_linear(len, y, 4, &a, &b, &r2), HIL_OK);
	assert_true(fabs(a - 900.0) < 1e-6);
	assert_true(fabs(b - 12.5) < 1e-9);
	assert_true(fabs(r2 - 1.0) < 1e-12);
	y[1] += 400.0; /* not on the line: r2 below 1 */
	assert_int_equal(hil_stats_fit_linear(len, y, 4, &a, &b, &r2), HIL_OK);
	assert_true(r2 < 1.0 && r2 > 0.9);
	assert_int_equal(hil_stats_fit_linear(len, y, 1, &a, &b, &r2),
			 HIL_ERR_ARG);
	assert_int_equal(hil_stats_fit_linear(y, len, 0, &a, &b, &r2),
			 HIL_ERR_ARG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_n_with_an_outlier_gives_known_values),
		cmocka_unit_test(test_even_n_takes_the_mean_of_the_middle_pair),
		cmocka_unit_test(test_single_sample_has_zero_spread),
		cmocka_unit_test(
			test_no_samples_or_no_pointers_are_argument_errors),
		cmocka_unit_test(test_non_finite_samples_are_argument_errors),
		cmocka_unit_test(test_all_equal_samples_give_exact_results),
		cmocka_unit_test(test_input_is_not_modified),
		cmocka_unit_test(
			test_small_spread_on_a_large_offset_is_accurate),
		cmocka_unit_test(test_large_n_matches_closed_forms),
		cmocka_unit_test(
			test_ci95_of_the_median_brackets_it_by_order_statistics),
		cmocka_unit_test(
			test_outliers_are_flagged_and_counted_not_dropped),
		cmocka_unit_test(
			test_linear_fit_recovers_fixed_and_per_byte_cost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
