/* eta: how long a run has left, from the last complete run's time and each row's work, never from the count of rows alone. */
#include "eta.h"

#include "benchtime.h"

/* A call's fixed cost, in bytes' worth, where nothing of it was seen. */
#define CALL_BYTES 64u

double hil_eta_row_work(uint32_t calls, uint64_t seen_count,
			uint32_t seen_bytes, uint32_t bytes,
			double ticks_per_byte)
{
	double one;

	if (seen_count > 0) {
		one = (double)hil_benchtime_scale(seen_count, seen_bytes,
						  bytes);
	} else {
		one = ((double)bytes + CALL_BYTES) * ticks_per_byte;
	}
	return (double)(calls > 0 ? calls : 1u) * one;
}

long long hil_eta_left_s(const struct hil_eta *e, long long now_ms)
{
	double rate_last = -1.0, rate_now = -1.0, rate, left, after, in_row;
	double f;

	if (e->total_work <= 0.0) {
		return -1;
	}
	if (e->last_s >= 0.0) {
		rate_last = e->last_s / e->total_work;
	}
	if (e->done_work > 0.0 && e->done_ms > e->start_ms) {
		rate_now = (double)(e->done_ms - e->start_ms) / 1000.0 /
			   e->done_work;
	}
	if (rate_last < 0.0 && rate_now < 0.0) {
		return -1;
	}
	/* The last run speaks for the plan until this one has done a
	 * share of its own work; then this run's pace takes over. */
	f = e->done_work / e->total_work;
	f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
	if (rate_last < 0.0) {
		rate = rate_now;
	} else if (rate_now < 0.0) {
		rate = rate_last;
	} else {
		rate = (1.0 - f) * rate_last + f * rate_now;
	}
	left = rate * (e->total_work - e->done_work);
	after = rate * (e->total_work - e->done_work - e->row_work);
	in_row = (double)(now_ms - (e->done_ms > e->start_ms ? e->done_ms
							     : e->start_ms)) /
		 1000.0;
	left -= in_row > 0.0 ? in_row : 0.0;
	if (left < after) {
		left = after;
	}
	return left > 0.0 ? (long long)(left + 0.5) : 0;
}
