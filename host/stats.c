/* stats: median, mean, standard deviation, min, max and MAD of measured samples. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of a sorted array of n > 0 values. */
static double sorted_median(const double *s, size_t n)
{
	if (n % 2 == 1) {
		return s[n / 2];
	}
	/* Halves first: the sum of two large values could overflow. */
	return s[n / 2 - 1] / 2 + s[n / 2] / 2;
}

int hil_stats_compute(const double *x, size_t n, struct hil_stats *out)
{
	double *s;
	double sum = 0.0, dmean, e, m2 = 0.0, c = 0.0, var;
	size_t i;

	if (x == NULL || n == 0 || out == NULL) {
		return HIL_ERR_ARG;
	}
	/* NaN has no place in a sort order and would poison every figure. */
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i])) {
			return HIL_ERR_ARG;
		}
	}
	if (n > (size_t)-1 / sizeof(*s)) {
		return HIL_ERR_NOMEM;
	}
	s = malloc(n * sizeof(*s));
	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);

	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = sorted_median(s, n);

	/*
	 * Corrected two-pass mean and variance on samples shifted by the
	 * median. The shift is exact for counts (integers below 2^53), so
	 * cycle counts around 1e9 that differ by a few keep every digit of
	 * their spread, and equal samples give the sample value and 0
	 * exactly. The second sum (c) cancels the rounding left in the mean.
	 */
	for (i = 0; i < n; i++) {
		sum += s[i] - out->median;
	}
	dmean = sum / (double)n;
	for (i = 0; i < n; i++) {
		e = (s[i] - out->median) - dmean;
		m2 += e * e;
		c += e;
	}
	out->mean = out->median + dmean;
	out->stddev = 0.0;
	if (n >= 2) {
		var = (m2 - c * c / (double)n) / (double)(n - 1);
		/* c * c / n <= m2 exactly; rounding must not make it NaN. */
		out->stddev = var > 0.0 ? sqrt(var) : 0.0;
	}

	/* MAD: the median of the absolute deviations from the median. */
	for (i = 0; i < n; i++) {
		s[i] = fabs(s[i] - out->median);
	}
	qsort(s, n, sizeof(*s), cmp_double);
	out->mad = sorted_median(s, n);

	free(s);
	return HIL_OK;
}
