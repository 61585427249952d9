/* stats: median, mean, standard deviation, min, max and MAD of measured samples. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

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

	/*
	 * 95% confidence interval of the median from order statistics: the
	 * number of samples below the median is Binomial(n, 1/2), so ranks
	 * n/2 -+ 1.96 sqrt(n)/2 bound it (normal approximation, good from
	 * n of about 10; below that the interval is the whole range).
	 */
	if (n < 10) {
		out->ci95_low = s[0];
		out->ci95_high = s[n - 1];
	} else {
		double half = 1.96 * sqrt((double)n) / 2.0;
		double lo = floor((double)n / 2.0 - half);
		double hi = ceil((double)n / 2.0 + half);

		if (lo < 1.0) {
			lo = 1.0;
		}
		if (hi > (double)n) {
			hi = (double)n;
		}
		out->ci95_low = s[(size_t)lo - 1];
		out->ci95_high = s[(size_t)hi - 1];
	}

	/* MAD: the median of the absolute deviations from the median. */
	for (i = 0; i < n; i++) {
		s[i] = fabs(s[i] - out->median);
	}
	qsort(s, n, sizeof(*s), cmp_double);
	out->mad = sorted_median(s, n);
	free(s);

	out->outliers = 0;
	for (i = 0; i < n; i++) {
		if (hil_stats_is_outlier(out, x[i])) {
			out->outliers++;
		}
	}
	return HIL_OK;
}

int hil_stats_is_outlier(const struct hil_stats *s, double x)
{
	double d = fabs(x - s->median);

	if (s->mad == 0.0) {
		return d != 0.0;
	}
	return 0.6745 * d / s->mad > HIL_STATS_OUTLIER_Z;
}

int hil_stats_fit_linear(const double *x, const double *y, size_t n, double *a,
			 double *b, double *r2)
{
	double mx = 0.0, my = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, sse = 0.0;
	size_t i;

	if (x == NULL || y == NULL || n < 2) {
		return HIL_ERR_ARG;
	}
	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0.0) {
		return HIL_ERR_ARG;
	}
	*b = sxy / sxx;
	*a = my - *b * mx;
	for (i = 0; i < n; i++) {
		double e = y[i] - (*a + *b * x[i]);

		sse += e * e;
	}
	*r2 = syy > 0.0 ? 1.0 - sse / syy : 1.0;
	return HIL_OK;
}
