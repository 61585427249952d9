/* eta: how long a run has left, from the last complete run's time and each row's work, never from the count of rows alone. */
#ifndef HIL_ETA_H
#define HIL_ETA_H

#include <stdint.h>

/*
 * What the estimate knows. Work is in counter ticks of the target (calls x
 * ticks of one call), so a row of 2048 bytes weighs what it costs, not
 * what a row of 16 does. Times are the caller's clock, in ms: a test gives
 * its own.
 */
struct hil_eta {
	double last_s;	    /* the last complete run's working time; < 0:
			       none recorded */
	double total_work;  /* every planned row's work */
	double done_work;   /* of the rows finished */
	double row_work;    /* of the row in progress (0: none) */
	long long start_ms; /* when measuring began */
	long long done_ms;  /* when the last row finished (start_ms: none) */
};

/**
 * A row's work: calls x the ticks of one call, scaled from a call of the
 * same operation already seen (hil_benchtime_scale), else from bytes at
 * the run's average cost per byte.
 * @param seen_count ticks of one call seen at seen_bytes; 0: none seen.
 * @param ticks_per_byte what a byte costs where nothing was seen (> 0).
 */
double hil_eta_row_work(uint32_t calls, uint64_t seen_count,
			uint32_t seen_bytes, uint32_t bytes,
			double ticks_per_byte);

/**
 * Seconds left at now_ms: the rest of the work at a rate that starts as
 * the last complete run's (its time over the same plan's work) and moves
 * to this run's own as its rows finish; time already spent in the row in
 * progress is taken off, never below what the rows after it need.
 * @return seconds (>= 0), or -1 when there is nothing to go on yet (no
 *         earlier run and no row finished).
 */
long long hil_eta_left_s(const struct hil_eta *e, long long now_ms);

#endif /* HIL_ETA_H */
