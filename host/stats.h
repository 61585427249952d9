/* stats: summary statistics of measured samples. */
#ifndef HIL_STATS_H
#define HIL_STATS_H

#include <stddef.h>

struct hil_stats {
	size_t n;
	double median;	/* middle value; mean of the two middle ones for even n */
	double mean;
	double stddev;	/* sample standard deviation (n - 1); 0 for n < 2 */
	double min;
	double max;
	double mad;	/* median absolute deviation from the median, unscaled */
};

/**
 * Compute the statistics of n samples (the input is not modified).
 * @return HIL_OK, HIL_ERR_ARG when n is 0, a pointer is NULL or a sample is
 *         not finite (NaN, infinity), HIL_ERR_NOMEM.
 */
int hil_stats_compute(const double *x, size_t n, struct hil_stats *out);

#endif /* HIL_STATS_H */
