/* test_benchtime: the arithmetic of a BENCH's reply timeout (host/run/benchtime.c), checked against numbers worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "run/benchtime.h"
#include "hilp.h"

static void test_qemu_row_timeout_by_hand(void **state)
{
	struct hil_benchtime t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.count = 100000; /* instructions of one call, seen before */
	t.bytes = 64;
	t.calls = 1010; /* 1000 runs + 10 warm-up */
	t.rate_hz = hil_benchtime_rate(HILP_UNIT_INSTRUCTIONS_EMU, 84000000u);
	t.base_ms = 2000;
	t.baud = 115200;
	t.wire_bytes = 771;
	/* (100000 + 32 * 64) = 102048 ticks a call, x (1010 + 2) calls x 2
	 * = 206545152 ticks at 4 M/s = 51636.288 -> 51637 ms; 771 bytes of
	 * 10 bits at 115200 baud = 66.9 -> 67 ms; plus 2000. */
	assert_int_equal(t.rate_hz, 4000000u);
	assert_int_equal(hil_benchtime_ms(&t), 2000u + 51637u + 67u);
}

static void test_board_row_timeout_by_hand(void **state)
{
	struct hil_benchtime t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.count = 5000; /* cycles */
	t.bytes = 16;
	t.calls = 110;
	t.rate_hz = hil_benchtime_rate(HILP_UNIT_CYCLES, 84000000u);
	t.base_ms = 2000;
	t.baud = 115200;
	t.wire_bytes = 100;
	/* 5512 x 112 x 2 = 1234688 cycles at 84 MHz = 14.7 -> 15 ms;
	 * 1000 bits at 115200 baud = 8.7 -> 9 ms. */
	assert_int_equal(t.rate_hz, 84000000u);
	assert_int_equal(hil_benchtime_ms(&t), 2000u + 15u + 9u);
	/* The slower clock profile: 1234688 / 16 MHz = 77.2 -> 78 ms. */
	t.rate_hz = hil_benchtime_rate(HILP_UNIT_CYCLES, 16000000u);
	assert_int_equal(hil_benchtime_ms(&t), 2000u + 78u + 9u);
}

static void test_timeout_rounds_up_and_saturates(void **state)
{
	struct hil_benchtime t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.rate_hz = 1000000000u;
	assert_int_equal(hil_benchtime_ms(&t), 0u); /* no work, no link */
	t.count = 1; /* 1 x 2 calls x 2 = 4 ns: still a whole ms */
	assert_int_equal(hil_benchtime_ms(&t), 1u);
	t.baud = 0; /* a socket: no serial transfer time */
	t.wire_bytes = 1000;
	assert_int_equal(hil_benchtime_ms(&t), 1u);
	t.count = UINT64_MAX;
	t.calls = UINT32_MAX;
	t.rate_hz = 1;
	assert_int_equal(hil_benchtime_ms(&t), UINT32_MAX);
	t.rate_hz = 0; /* never a division by zero */
	assert_int_equal(hil_benchtime_ms(&t), UINT32_MAX);
}

static void test_scale_to_a_longer_input_by_hand(void **state)
{
	(void)state;
	assert_int_equal(hil_benchtime_scale(1000, 0, 1024), 1025000u);
	assert_int_equal(hil_benchtime_scale(1000, 255, 1023), 4000u);
	assert_int_equal(hil_benchtime_scale(7, 2, 3), 10u); /* 9.33 up */
	/* The same or a shorter input costs no more than the one seen. */
	assert_int_equal(hil_benchtime_scale(1000, 64, 64), 1000u);
	assert_int_equal(hil_benchtime_scale(1000, 79, 16), 1000u);
	assert_true(hil_benchtime_scale(UINT64_MAX / 2, 0, 65535) > 0);
}

/* For a cost a + b x len with a >= b, the scaled figure is never below the
 * real one, from any length seen to any longer one. */
static void test_scale_is_an_upper_bound_of_a_linear_cost(void **state)
{
	static const uint32_t lens[] = {0, 1, 15, 16, 64, 79, 256, 1024, 4096};
	static const uint64_t costs[][2] = {
		{10, 10}, {400, 12}, {3000, 90}, {250000, 1}};
	size_t i, j, k;

	(void)state;
	for (k = 0; k < sizeof(costs) / sizeof(costs[0]); k++) {
		uint64_t a = costs[k][0], b = costs[k][1];

		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
				uint64_t got = hil_benchtime_scale(
					a + b * lens[i], lens[i], lens[j]);

				assert_true(got >= a + b * lens[j] ||
					    lens[j] < lens[i]);
			}
		}
	}
}

static void test_rate_per_counter_unit(void **state)
{
	(void)state;
	assert_int_equal(hil_benchtime_rate(HILP_UNIT_NS_HOST, 0), 1000000000u);
	assert_int_equal(hil_benchtime_rate(HILP_UNIT_INSTRUCTIONS_EMU, 0),
			 HIL_BENCHTIME_QEMU_HZ);
	assert_int_equal(hil_benchtime_rate(0x7F, 84000000u), 0u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_row_timeout_by_hand),
		cmocka_unit_test(test_board_row_timeout_by_hand),
		cmocka_unit_test(test_timeout_rounds_up_and_saturates),
		cmocka_unit_test(test_scale_to_a_longer_input_by_hand),
		cmocka_unit_test(test_scale_is_an_upper_bound_of_a_linear_cost),
		cmocka_unit_test(test_rate_per_counter_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
