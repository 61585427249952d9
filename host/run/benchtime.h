/* benchtime: how long a BENCH may take, from the counter value of one run already seen, never from message bytes alone. */
#ifndef HIL_BENCHTIME_H
#define HIL_BENCHTIME_H

#include <stdint.h>

/*
 * The slowest rate, in instructions per second, at which QEMU is assumed
 * to run the stub: the cycle-model plugin runs it at about 88 M/s on a
 * quiet machine (issue #14); this floor leaves a loaded one twenty times
 * slower still room.
 */
#define HIL_BENCHTIME_QEMU_HZ 4000000u

/* Counter ticks allowed per byte of message and associated data on top of
 * the operation itself: poisoning and digesting the output, and a leak
 * test's fresh inputs, all outside the timed region. */
#define HIL_BENCHTIME_TICKS_PER_BYTE 32u

/* Calls of the operation besides the runs and warm-up: the stack-painting
 * call and a decryption's untimed encryption of its input. */
#define HIL_BENCHTIME_EXTRA_CALLS 2u

/* The margin over the estimate, as a factor. */
#define HIL_BENCHTIME_MARGIN 2u

/* What one BENCH's timeout is sized from. */
struct hil_benchtime {
	uint64_t count;	  /* counter ticks of one call (hil_benchtime_scale) */
	uint32_t bytes;	  /* the request's message plus associated data */
	uint32_t calls;	  /* runs + warm-up of the request */
	uint64_t rate_hz; /* conservative counter ticks per second (> 0) */
	uint32_t base_ms; /* latency allowance: the link's reply timeout */
	uint32_t baud;	  /* the configured link speed; 0: no serial time */
	uint32_t wire_bytes; /* request and reply frames, as sent */
};

/**
 * The reply timeout of one BENCH:
 *   base_ms + transfer of wire_bytes at baud (10 bits a byte)
 *   + MARGIN x (calls + EXTRA_CALLS) x (count + TICKS_PER_BYTE x bytes)
 *     / rate_hz, in ms, rounded up.
 * @return milliseconds, capped at UINT32_MAX.
 */
uint32_t hil_benchtime_ms(const struct hil_benchtime *in);

/**
 * The counter value of one call at `bytes`, from one seen at `seen_bytes`
 * (message plus associated data): scaled by (bytes + 1) / (seen_bytes + 1)
 * for a longer input, kept for a shorter one. For a cost a + b x len that
 * is an upper bound whenever the fixed cost a is at least the cost b of one
 * byte, which holds for every cipher and hash here.
 * @return ticks, capped at UINT64_MAX / 2.
 */
uint64_t hil_benchtime_scale(uint64_t seen_count, uint32_t seen_bytes,
			     uint32_t bytes);

/**
 * A conservative counter rate for a board's counter unit (HILP_UNIT_*).
 * @param clock_hz the configured core clock, for a cycle counter.
 * @return ticks per second; 0 when the unit is unknown.
 */
uint64_t hil_benchtime_rate(uint8_t counter_unit, uint32_t clock_hz);

#endif /* HIL_BENCHTIME_H */
