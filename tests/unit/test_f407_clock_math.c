/* test_f407_clock_math: the STM32F4DISCOVERY's PLL, flash-latency, bus-divider and USART arithmetic (stm32f4discovery/clock_math.h: the F401's formulas with the F407's limits, run by hal.c) against the numbers of RM0090. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "boards/stm32f4discovery/clock_math.h"

#define MHZ 1000000u

/* RM0090 §6.3.3, DS8626: 168 MHz core, APB1 42 MHz, APB2 84 MHz;
 * §6.3.2: VCO output 100..432 MHz, PLLN 50..432. */
static void test_limits_are_the_f407s(void **state)
{
	(void)state;
	assert_int_equal(CLOCK_SYSCLK_MAX_HZ, 168 * MHZ);
	assert_int_equal(CLOCK_APB1_MAX_HZ, 42 * MHZ);
	assert_int_equal(CLOCK_APB2_MAX_HZ, 84 * MHZ);
	assert_int_equal(CLOCK_VCO_OUT_MIN_HZ, 100 * MHZ);
	assert_int_equal(CLOCK_VCO_OUT_MAX_HZ, 432 * MHZ);
	assert_int_equal(CLOCK_PLLN_MIN, 50);
	assert_int_equal(CLOCK_PLLN_MAX, 432);
	assert_true(CLOCK_PROFILE_SUPPORTED(24 * MHZ));
	assert_true(CLOCK_PROFILE_SUPPORTED(168 * MHZ));
	assert_false(CLOCK_PROFILE_SUPPORTED(84 * MHZ));
	assert_false(CLOCK_PROFILE_SUPPORTED(16 * MHZ));
}

/* 168 MHz = 16 MHz / 10 * 210 / 2, PLL48CK = 336 / 7 = 48 MHz. */
static void test_168mhz_is_m10_n210_p2_q7(void **state)
{
	struct clock_profile prof;

	(void)state;
	assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, 168 * MHZ, &prof), 1);
	assert_int_equal(prof.ahb_div, 1);
	assert_int_equal(prof.pll.m, 10);
	assert_int_equal(prof.pll.n, 210);
	assert_int_equal(prof.pll.p, 2);
	assert_int_equal(prof.pll.q, 7);
	assert_int_equal(clock_vco_out_hz(CLOCK_HSI_HZ, &prof.pll), 336 * MHZ);
	assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI_HZ, &prof.pll),
			 168 * MHZ);
	assert_int_equal(clock_pllcfgr(&prof.pll),
			 CLOCK_PLLCFGR_FOR(CLOCK_HSI_HZ, 168 * MHZ));
	assert_int_equal(CLOCK_PLLCFGR_FOR(CLOCK_HSI_HZ, 168 * MHZ),
			 10u | 210u << 6 | 0u << 16 | 7u << 24);
	/* Table 10, 2.7..3.6 V: 150 < HCLK <= 168 MHz needs 5 WS. */
	assert_int_equal(prof.flash_ws, 5);
	assert_int_equal(prof.apb1_div, 4);
	assert_int_equal(prof.apb1_hz, 42 * MHZ);
	assert_int_equal(CLOCK_APB2_DIV(168 * MHZ), 2);
	assert_int_equal(CLOCK_PPRE_BITS(2) << CLOCK_CFGR_PPRE2_SHIFT,
			 4u << 13);
	assert_int_equal(CLOCK_PPRE_BITS(4) << CLOCK_CFGR_PPRE1_SHIFT,
			 5u << 10);
}

/* 24 MHz: the F407's VCO may go down to 100 MHz, so the PLL makes 24 MHz
 * itself (VCO 144 MHz, P = 6), where the F401 halves 48 MHz by HPRE. */
static void test_24mhz_is_m10_n90_p6_q3_at_0ws(void **state)
{
	struct clock_profile prof;

	(void)state;
	assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, 24 * MHZ, &prof), 1);
	assert_int_equal(prof.ahb_div, 1);
	assert_int_equal(prof.sysclk_hz, 24 * MHZ);
	assert_int_equal(prof.pll.m, 10);
	assert_int_equal(prof.pll.n, 90);
	assert_int_equal(prof.pll.p, 6);
	assert_int_equal(prof.pll.q, 3);
	assert_true(clock_pll_valid(CLOCK_HSI_HZ, &prof.pll));
	assert_int_equal(CLOCK_PLLCFGR_FOR(CLOCK_HSI_HZ, 24 * MHZ),
			 10u | 90u << 6 | 2u << 16 | 3u << 24);
	/* pqm4's setting: 0 WS (Table 10: up to 30 MHz). */
	assert_int_equal(prof.flash_ws, 0);
	assert_int_equal(prof.apb1_div, 1);
	assert_int_equal(CLOCK_APB2_DIV(24 * MHZ), 1);
}

/* Both VCOs stay in range for an HSI 1 % off either way (its trim). */
static void test_vco_in_range_over_the_hsi_tolerance(void **state)
{
	const uint32_t hz[] = {CLOCK_PROFILES_HZ};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
		struct clock_profile prof;
		uint64_t vco;

		assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, hz[i], &prof),
				 1);
		vco = clock_vco_out_hz(CLOCK_HSI_HZ, &prof.pll);
		assert_true(vco * 99u / 100u >= CLOCK_VCO_OUT_MIN_HZ);
		assert_true(vco * 101u / 100u <= CLOCK_VCO_OUT_MAX_HZ);
		assert_true(vco / prof.pll.q <= CLOCK_PLL48_MAX_HZ);
	}
}

/* Table 10: one more wait state per 30 MHz; nothing above 168 MHz. */
static void test_wait_states_follow_table_10(void **state)
{
	(void)state;
	assert_int_equal(clock_flash_ws(30 * MHZ), 0);
	assert_int_equal(clock_flash_ws(30 * MHZ + 1), 1);
	assert_int_equal(clock_flash_ws(120 * MHZ), 3);
	assert_int_equal(clock_flash_ws(150 * MHZ), 4);
	assert_int_equal(clock_flash_ws(150 * MHZ + 1), 5);
	assert_int_equal(clock_flash_ws(168 * MHZ), 5);
	assert_int_equal(clock_flash_ws(168 * MHZ + 1), CLOCK_WS_INVALID);
	assert_false(CLOCK_PLL_POSSIBLE(CLOCK_HSI_HZ, 180 * MHZ));
}

/* USART2 on APB1 (RM0090 §30.3.4, OVER8 = 0): 115200 Bd. */
static void test_usart2_dividers_at_both_profiles(void **state)
{
	(void)state;
	assert_int_equal(clock_usart_brr(42 * MHZ, 115200), 0x16D);
	assert_int_equal(clock_usart_brr(24 * MHZ, 115200), 208);
	assert_int_equal(clock_usart_brr(CLOCK_HSI_HZ, 115200), 139);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits_are_the_f407s),
		cmocka_unit_test(test_168mhz_is_m10_n210_p2_q7),
		cmocka_unit_test(test_24mhz_is_m10_n90_p6_q3_at_0ws),
		cmocka_unit_test(test_vco_in_range_over_the_hsi_tolerance),
		cmocka_unit_test(test_wait_states_follow_table_10),
		cmocka_unit_test(test_usart2_dividers_at_both_profiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
