/* counter_math: the instruction count of the mps2-an386 board from its two 25 MHz dual-timer counts (hal.c says why), a pure function shared by the stub and a host test. */
#ifndef MPS2_COUNTER_MATH_H
#define MPS2_COUNTER_MATH_H

#include <stdint.h>

/*
 * lo: timer 1's ticks since it started, modulo 2^32 (~VALUE of a
 * free-running down-counter from 0xFFFFFFFF); hi: timer 2's, the same
 * time at prescale 256, read just after. At 1024 ns of virtual time per
 * instruction (icount shift 10) a 25 MHz tick is 1/25.6 instruction.
 * - The wraps of lo: hi * 256 is lo's full count to within 256 ticks
 *   (plus the few instructions between the reads), so the number of
 *   2^32 wraps is (hi * 256 - lo) / 2^32 rounded to the nearest.
 * - The ticks E (known modulo 2^40, timer 2's wrap) are within one tick
 *   of 25.6 n, so n = round(E * 5 / 128) exactly; and 2^40 * 5 / 128 is
 *   10 * 2^32, so the result modulo 2^32 does not jump when E wraps.
 * Branch-free, no division, no libgcc call: it runs inside the timed
 * region (as calibrated overhead) on the stub.
 */
static inline uint32_t mps2_counter_insns(uint32_t lo, uint32_t hi)
{
	uint32_t wraps =
		(uint32_t)(((uint64_t)hi * 256u - lo + 0x80000000u) >> 32);
	uint64_t ticks = (uint64_t)wraps << 32 | lo;

	return (uint32_t)((ticks * 5u + 64u) >> 7);
}

#endif /* MPS2_COUNTER_MATH_H */
