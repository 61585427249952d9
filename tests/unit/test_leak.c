/* Unit tests of the leak test's statistics: Welch's t against hand-computed and published values, constant classes, precision on large counts, too few samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "util/err.h"
#include "run/leak.h"

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol) {
		print_error("got %.17g, want %.17g (tolerance %g)\n", got, want,
			    tol);
		fail();
	}
}

static void test_class_accumulates_mean_and_sample_variance(void **state)
{
	const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct hil_leak_class c = {0, 0.0, 0.0, 0.0};
	size_t i;

	(void)state;
	assert_near(hil_leak_class_var(&c), 0, 0);
	assert_near(hil_leak_class_mean(&c), 0, 0);
	for (i = 0; i < sizeof(x) / sizeof(x[0]); i++) {
		hil_leak_class_add(&c, x[i]);
	}
	assert_int_equal(c.n, 8);
	assert_near(hil_leak_class_mean(&c), 5, 1e-12);
	/* squared deviations 9+1+1+1+0+0+4+16 = 32, divided by n - 1 = 7 */
	assert_near(hil_leak_class_var(&c), 32.0 / 7.0, 1e-12);
}

static void test_welch_matches_a_hand_computed_value(void **state)
{
	const double a[] = {1, 2, 3, 4, 5};
	const double b[] = {2, 4, 6, 8};
	double t = 0;

	(void)state;
	/*
	 * mean 3, variance 10/4 = 2.5; mean 5, variance 20/3.
	 * t = (3 - 5) / sqrt(2.5/5 + (20/3)/4) = -2 / sqrt(13/6)
	 *   = -2 sqrt(6/13) = -1.3587324409735...
	 */
	assert_int_equal(hil_leak_welch(a, 5, b, 4, &t), HIL_OK);
	assert_near(t, -2.0 * sqrt(6.0 / 13.0), 1e-12);
	assert_near(t, -1.3587324409735149, 1e-12);
	/* Swapping the classes flips the sign only. */
	assert_int_equal(hil_leak_welch(b, 4, a, 5, &t), HIL_OK);
	assert_near(t, 2.0 * sqrt(6.0 / 13.0), 1e-12);
}

static void test_welch_with_one_constant_class(void **state)
{
	const double a[] = {10, 10, 10, 11};
	const double b[] = {10, 10, 10, 10};
	double t = 0;

	(void)state;
	/* mean 10.25, variance (3 * 0.0625 + 0.5625) / 3 = 0.25; the other
	 * class adds nothing: t = 0.25 / sqrt(0.25 / 4) = 1. */
	assert_int_equal(hil_leak_welch(a, 4, b, 4, &t), HIL_OK);
	assert_near(t, 1.0, 1e-12);
}

static void test_welch_matches_a_published_example(void **state)
{
	/* Welch's t-test, Wikipedia, first example (two samples of 15):
	 * published t = -2.46 (rounded); -2.4553564 to more digits. */
	const double a1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
	const double a2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
	double t = 0;

	(void)state;
	assert_int_equal(hil_leak_welch(a1, 15, a2, 15, &t), HIL_OK);
	assert_near(t, -2.46, 0.005);
	assert_near(t, -2.455356398286, 1e-9);
}

static void test_welch_keeps_its_digits_on_large_counts(void **state)
{
	/* Counts near 2^30, as cycles of a long operation: the spread is a
	 * few ticks on a large offset. Same t as without the offset:
	 * 0.1 / sqrt((5/3)/4 + 0.3/5) = 0.14484136... */
	const double small_a[] = {0, 1, 2, 3};
	const double small_b[] = {1, 1, 1, 2, 2};
	double a[4], b[5];
	double t0 = 0, t = 0;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		a[i] = 1073741824.0 + small_a[i];
	}
	for (i = 0; i < 5; i++) {
		b[i] = 1073741824.0 + small_b[i];
	}
	assert_int_equal(hil_leak_welch(small_a, 4, small_b, 5, &t0), HIL_OK);
	assert_near(t0, 0.1 / sqrt(5.0 / 12.0 + 0.06), 1e-12);
	assert_int_equal(hil_leak_welch(a, 4, b, 5, &t), HIL_OK);
	assert_near(t, t0, 1e-9);
}

static void test_constant_classes_give_zero_or_infinity(void **state)
{
	/* An emulator counts exactly: constant-time code gives two constant,
	 * equal classes; a branch on the data two constant, different ones. */
	const double same[] = {4698, 4698, 4698};
	const double more[] = {4713, 4713, 4713, 4713};
	double t = 1;

	(void)state;
	assert_int_equal(hil_leak_welch(same, 3, same, 3, &t), HIL_OK);
	assert_near(t, 0, 0);
	assert_int_equal(hil_leak_welch(more, 4, same, 3, &t), HIL_OK);
	assert_true(isinf(t) && t > 0);
	assert_int_equal(hil_leak_welch(same, 3, more, 4, &t), HIL_OK);
	assert_true(isinf(t) && t < 0);
	assert_true(fabs(t) > HIL_LEAK_T_THRESHOLD);
}

static void test_too_few_samples_are_argument_errors(void **state)
{
	const double a[] = {1, 2, 3};
	struct hil_leak_class c1 = {0, 0.0, 0.0, 0.0};
	struct hil_leak_class c3 = {0, 0.0, 0.0, 0.0};
	double t = 7;

	(void)state;
	assert_int_equal(hil_leak_welch(a, 1, a, 3, &t), HIL_ERR_ARG);
	assert_int_equal(hil_leak_welch(a, 3, a, 0, &t), HIL_ERR_ARG);
	assert_int_equal(hil_leak_welch(NULL, 3, a, 3, &t), HIL_ERR_ARG);
	assert_int_equal(hil_leak_welch(a, 3, NULL, 3, &t), HIL_ERR_ARG);
	assert_int_equal(hil_leak_welch(a, 3, a, 3, NULL), HIL_ERR_ARG);
	assert_near(t, 7, 0); /* untouched on error */
	hil_leak_class_add(&c1, 5);
	hil_leak_class_add(&c3, 1);
	hil_leak_class_add(&c3, 2);
	assert_near(hil_leak_class_var(&c1), 0, 0);
	assert_int_equal(hil_leak_welch_t(&c1, &c3, &t), HIL_ERR_ARG);
	assert_int_equal(hil_leak_welch_t(&c3, &c3, &t), HIL_OK);
	assert_near(t, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_class_accumulates_mean_and_sample_variance),
		cmocka_unit_test(test_welch_matches_a_hand_computed_value),
		cmocka_unit_test(test_welch_with_one_constant_class),
		cmocka_unit_test(test_welch_matches_a_published_example),
		cmocka_unit_test(test_welch_keeps_its_digits_on_large_counts),
		cmocka_unit_test(test_constant_classes_give_zero_or_infinity),
		cmocka_unit_test(test_too_few_samples_are_argument_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
