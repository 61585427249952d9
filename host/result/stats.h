/* stats: summary statistics of measured samples. */
#ifndef HIL_STATS_H
#define HIL_STATS_H

#include <stddef.h>

struct hil_stats {
	size_t n;
	double median; /* middle value; mean of the two middle ones for even n */
	double mean;
	double stddev; /* sample standard deviation (n - 1); 0 for n < 2 */
	double min;
	double max;
	double mad; /* median absolute deviation from the median, unscaled */
	double ci95_low;  /* 95% confidence interval of the median: order */
	double ci95_high; /* statistics, distribution-free (see stats.c) */
	size_t outliers;  /* samples flagged by hil_stats_is_outlier */
};

/* Modified z-score above which a sample is flagged (Iglewicz and Hoaglin). */
#define HIL_STATS_OUTLIER_Z 3.5

/**
 * Is x an outlier of the samples s describes? |0.6745 (x - median) / MAD|
 * above HIL_STATS_OUTLIER_Z; when MAD is 0 (most samples equal, as under
 * an emulator) any value other than the median is one. Flagged, counted,
 * never dropped.
 */
int hil_stats_is_outlier(const struct hil_stats *s, double x);

/**
 * Least-squares fit y = a + b x over n points.
 * @param r2 receives the coefficient of determination (1 when y is
 *        constant and fitted exactly).
 * @return HIL_OK, or HIL_ERR_ARG for fewer than 2 points or all x equal.
 */
int hil_stats_fit_linear(const double *x, const double *y, size_t n, double *a,
			 double *b, double *r2);

/**
 * Compute the statistics of n samples (the input is not modified).
 * @return HIL_OK, HIL_ERR_ARG when n is 0, a pointer is NULL or a sample is
 *         not finite (NaN, infinity), HIL_ERR_NOMEM.
 */
int hil_stats_compute(const double *x, size_t n, struct hil_stats *out);

#endif /* HIL_STATS_H */
