/* test_mps2_counter_math: the mps2-an386 board's instruction count from two 25 MHz timer counts (qemu-mps2-an386/counter_math.h) is exact at every phase, across timer 1's 2^32-tick wraps and timer 2's 2^40-tick wrap. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "boards/qemu-mps2-an386/counter_math.h"

/*
 * What the board's timers read at instruction n, as QEMU makes them under
 * -icount shift=10: virtual time 1024 * n ns plus the time offset t0 of
 * timer start (0..1023 ns: the timers start at an instruction, but
 * rounding inside QEMU may add up to a tick), a 40 ns tick. Timer 2 is
 * read `gap` instructions after timer 1 and counts at 1/256. Both are
 * reported as elapsed ticks modulo 2^32, as hal.c's ~VALUE gives them.
 * The timers start with a register write, which QEMU performs at an
 * instruction boundary: t0 is a tick or so, never half an instruction
 * (512 ns); the last test shows that the rounding needs that.
 */
static void timers_at(uint64_t n, uint64_t t0_ns, unsigned gap, uint32_t *lo,
		      uint32_t *hi)
{
	uint64_t t1 = n * 1024u + t0_ns;
	uint64_t t2 = (n + gap) * 1024u + t0_ns;

	*lo = (uint32_t)(t1 / 40u);
	*hi = (uint32_t)(t2 / 40u / 256u);
}

static uint32_t count_at(uint64_t n, uint64_t t0_ns, unsigned gap)
{
	uint32_t lo, hi;

	timers_at(n, t0_ns, gap, &lo, &hi);
	return mps2_counter_insns(lo, hi);
}

/* Differences of two reads are the instructions between them, mod 2^32. */
static void check_span(uint64_t from, uint64_t len, uint64_t t0_ns,
		       unsigned gap)
{
	uint32_t a = count_at(from, t0_ns, gap);
	uint32_t b = count_at(from + len, t0_ns, gap);

	if ((uint32_t)(b - a) != (uint32_t)len) {
		fail_msg(
			"from %llu, %llu instructions, t0 %llu ns, gap %u: counted %u",
			(unsigned long long)from, (unsigned long long)len,
			(unsigned long long)t0_ns, gap, (unsigned)(b - a));
	}
}

static void test_short_spans_are_exact_at_every_phase(void **state)
{
	uint64_t n, len, t0;

	(void)state;
	/* Every phase of the 25.6-tick pattern: 128 instructions = 3 277 ticks
	 * of 40 ns = 5 whole periods of the pattern (5 * 25.6 = 128). */
	for (t0 = 0; t0 < 512; t0 += 40) {
		for (n = 0; n < 256; n++) {
			for (len = 0; len < 64; len++) {
				check_span(n, len, t0, 12);
			}
			check_span(n, 8406, t0, 12);
			check_span(n, 82563, t0, 12);
		}
	}
}

static void test_count_starts_at_zero_and_steps_by_one(void **state)
{
	uint64_t n;

	(void)state;
	for (n = 0; n < 100000; n++) {
		assert_int_equal(count_at(n, 0, 10), (uint32_t)n);
	}
}

/* Timer 1 wraps every 2^32 ticks, 167 772 160 instructions. */
static void test_spans_across_timer1_wraps_are_exact(void **state)
{
	const uint64_t wrap = (1ull << 32) * 40u / 1024u; /* in instructions */
	uint64_t k, d;

	(void)state;
	assert_int_equal(wrap, 167772160u);
	for (k = 1; k < 300; k += 7) {
		for (d = 0; d < 40; d++) {
			/* Short spans that straddle the k-th wrap. */
			check_span(k * wrap - d, 2 * d + 1, 0, 12);
			check_span(k * wrap - d, 80 + d, 600, 30);
		}
		/* A span longer than one wrap (but < 2^32 instructions). */
		check_span(k * wrap - 5, 3 * wrap + 11, 0, 12);
	}
}

/* Timer 2 wraps every 2^40 ticks (42 949 672 960 instructions): the count
 * goes on modulo 2^32 without a jump. */
static void test_spans_across_timer2_wrap_are_exact(void **state)
{
	const uint64_t wrap2 = (1ull << 40) * 40u / 1024u;
	uint64_t d;

	(void)state;
	assert_true(wrap2 == 42949672960ull);
	for (d = 0; d < 2000; d += 3) {
		check_span(wrap2 - d, 2 * d + 5, 0, 12);
		check_span(2 * wrap2 - d, d + 1000000, 200, 12);
	}
}

/* The precondition is real: a start 13 ticks (520 ns, about half an
 * instruction) off an instruction boundary puts the rounding on its edge,
 * and some spans miscount by one. */
static void test_a_start_off_the_instruction_boundary_miscounts(void **state)
{
	uint64_t n, len;
	int wrong = 0;

	(void)state;
	for (n = 0; n < 64 && !wrong; n++) {
		for (len = 0; len < 64 && !wrong; len++) {
			wrong = (uint32_t)(count_at(n + len, 520, 12) -
					   count_at(n, 520, 12)) != len;
		}
	}
	assert_true(wrong);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_spans_are_exact_at_every_phase),
		cmocka_unit_test(test_count_starts_at_zero_and_steps_by_one),
		cmocka_unit_test(test_spans_across_timer1_wraps_are_exact),
		cmocka_unit_test(test_spans_across_timer2_wrap_are_exact),
		cmocka_unit_test(
			test_a_start_off_the_instruction_boundary_miscounts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
