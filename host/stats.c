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
	double mean = 0.0, m2 = 0.0, delta;
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

	/*
	 * Welford's update: no catastrophic cancellation when the spread is
	 * small next to the values (cycle counts around 1e6 varying by a few),
	 * and exact (mean = value, m2 = 0) when all samples are equal.
	 */
	for (i = 0; i < n; i++) {
		delta = s[i] - mean;
		mean += delta / (double)(i + 1);
		m2 += delta * (s[i] - mean);
	}

	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = sorted_median(s, n);
	out->mean = mean;
	out->stddev = n < 2 ? 0.0 : sqrt(m2 / (double)(n - 1));

	/* MAD: the median of the absolute deviations from the median. */
	for (i = 0; i < n; i++) {
		s[i] = fabs(s[i] - out->median);
	}
	qsort(s, n, sizeof(*s), cmp_double);
	out->mad = sorted_median(s, n);

	free(s);
	return HIL_OK;
}
