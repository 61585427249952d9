/* test_nucleo_clock_math: the NUCLEO-F401RE's PLL, flash-latency and USART divider arithmetic (clock_math.h, run by hal.c) against the values of RM0368. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "boards/nucleo-f401re/clock_math.h"

#define MHZ 1000000u

/* ---- register layout (RM0368 §6.3.2, §6.3.3, §3.8.1, §19.6) ---- */

static void test_register_addresses_and_fields_match_rm0368(void **state)
{
	(void)state;
	/* Addresses only: nothing is dereferenced on the host. */
	assert_int_equal((uintptr_t)&RCC_CR, 0x40023800u);
	assert_int_equal((uintptr_t)&RCC_PLLCFGR, 0x40023804u);
	assert_int_equal((uintptr_t)&RCC_CFGR, 0x40023808u);
	assert_int_equal((uintptr_t)&FLASH_ACR, 0x40023C00u);
	assert_int_equal((uintptr_t)&USART_BRR(USART2), 0x40004408u);
	/* PLLCFGR: PLLM 5:0, PLLN 14:6, PLLP 17:16, PLLSRC 22, PLLQ 27:24. */
	assert_int_equal(RCC_PLLCFGR_PLLM_SHIFT, 0);
	assert_int_equal(RCC_PLLCFGR_PLLN_SHIFT, 6);
	assert_int_equal(RCC_PLLCFGR_PLLP_SHIFT, 16);
	assert_int_equal(RCC_PLLCFGR_PLLSRC_HSE, 1u << 22);
	assert_int_equal(RCC_PLLCFGR_PLLQ_SHIFT, 24);
	assert_int_equal(RCC_PLLCFGR_FIELDS, 0x3Fu | 0x1FFu << 6 | 3u << 16 |
						     1u << 22 | 0xFu << 24);
	/* CFGR PPRE1 is bits 12:10: /2 = 100b. */
	assert_int_equal(CLOCK_CFGR_PPRE1_SHIFT, 10);
	assert_int_equal(clock_ppre_bits(2) << CLOCK_CFGR_PPRE1_SHIFT,
			 RCC_CFGR_PPRE1_DIV2);
	assert_int_equal(clock_ppre_bits(1) << CLOCK_CFGR_PPRE1_SHIFT,
			 RCC_CFGR_PPRE1_DIV1);
	assert_int_equal(clock_ppre_bits(4), 5);
	assert_int_equal(clock_ppre_bits(8), 6);
	assert_int_equal(clock_ppre_bits(16), 7);
	/* FLASH_ACR: LATENCY 3:0, PRFTEN 8, ICEN 9, DCEN 10. */
	assert_int_equal(FLASH_ACR_LATENCY(2), 2);
	assert_int_equal(FLASH_ACR_PRFTEN, 1u << 8);
	assert_int_equal(FLASH_ACR_ICEN, 1u << 9);
	assert_int_equal(FLASH_ACR_DCEN, 1u << 10);
}

/* ---- PLL ---- */

static void test_pll_84mhz_from_hsi_is_m10_n210_p4(void **state)
{
	struct clock_pll pll;
	uint32_t cfgr;

	(void)state;
	assert_int_equal(clock_pll_find(CLOCK_HSI_HZ, 84 * MHZ, &pll), 1);
	assert_int_equal(pll.m, 10);
	assert_int_equal(pll.n, 210);
	assert_int_equal(pll.p, 4);
	assert_int_equal(pll.q, 7);
	assert_true(clock_pll_valid(CLOCK_HSI_HZ, &pll));

	/* VCO input 1.6 MHz, VCO output 336 MHz (RM0368 §6.3.2). */
	assert_int_equal(clock_vco_in_hz(CLOCK_HSI_HZ, &pll), 1600000u);
	assert_int_equal(clock_vco_out_hz(CLOCK_HSI_HZ, &pll), 336 * MHZ);
	assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI_HZ, &pll), 84 * MHZ);
	assert_int_equal(clock_vco_out_hz(CLOCK_HSI_HZ, &pll) / pll.q,
			 48 * MHZ);
	assert_int_equal(clock_ahb_div(CLOCK_HSI_HZ, 84 * MHZ), 1);

	/* The register: PLLP /4 is encoded 01, PLLSRC = 0 (HSI). */
	assert_int_equal(clock_pllp_bits(4), 1);
	cfgr = clock_pllcfgr(&pll);
	assert_int_equal(cfgr & 0x3Fu, 10);
	assert_int_equal(cfgr >> 6 & 0x1FFu, 210);
	assert_int_equal(cfgr >> 16 & 3u, 1);
	assert_int_equal(cfgr & RCC_PLLCFGR_PLLSRC_HSE, 0);
	assert_int_equal(cfgr >> 24 & 0xFu, 7);
	assert_int_equal(cfgr & ~RCC_PLLCFGR_FIELDS, 0);
	assert_int_equal(cfgr, 0x0701348Au);
	/* What hal.c programs is the same value, at compile time. */
	assert_int_equal(CLOCK_PLLCFGR_FOR(CLOCK_HSI_HZ, 84 * MHZ), cfgr);
}

/*
 * 24 MHz straight from the PLL would need a VCO of 24 * 8 = 192 MHz, the
 * very bottom of the range (the old M16 N192 P8), out of range for an HSI
 * just below 16 MHz. The PLL makes 48 MHz instead and HPRE halves it.
 */
static void test_pll_24mhz_is_48mhz_halved_by_the_ahb_prescaler(void **state)
{
	struct clock_pll pll;
	uint32_t cfgr;

	(void)state;
	assert_int_equal(clock_pll_find(CLOCK_HSI_HZ, 24 * MHZ, &pll), 0);
	assert_int_equal(clock_ahb_div(CLOCK_HSI_HZ, 24 * MHZ), 2);
	assert_int_equal(CLOCK_PLL_SYSCLK(CLOCK_HSI_HZ, 24 * MHZ), 48 * MHZ);
	assert_int_equal(clock_pll_find(CLOCK_HSI_HZ, 48 * MHZ, &pll), 1);
	assert_int_equal(pll.m, 10);
	assert_int_equal(pll.n, 240);
	assert_int_equal(pll.p, 8);
	assert_int_equal(pll.q, 8);
	assert_int_equal(clock_pllp_bits(8), 3);
	assert_int_equal(clock_vco_out_hz(CLOCK_HSI_HZ, &pll), 384 * MHZ);
	assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI_HZ, &pll), 48 * MHZ);
	cfgr = clock_pllcfgr(&pll);
	assert_int_equal(CLOCK_PLLCFGR_FOR(CLOCK_HSI_HZ, 24 * MHZ), cfgr);
	assert_int_equal(cfgr, 0x08033C0Au);
	/* HPRE /2 is 1000b in RCC_CFGR bits 7:4. */
	assert_int_equal(clock_hpre_bits(2) << CLOCK_CFGR_HPRE_SHIFT, 0x80u);
	assert_int_equal(clock_hpre_bits(2) << CLOCK_CFGR_HPRE_SHIFT &
				 ~RCC_CFGR_HPRE_MASK,
			 0);
	assert_int_equal(clock_hpre_bits(1), 0);
	assert_int_equal(clock_hpre_bits(4), 9);
}

/*
 * Every profile the board builds, at the nominal HSI and 1 % either side:
 * the VCO input within 1..2 MHz, the VCO output within 192..432 MHz,
 * computed here from the register fields in floating point, not by
 * clock_math.h's own margin arithmetic; SYSCLK and HCLK exactly what the
 * profile says at nominal; the 24 and 16 MHz profiles at 0 wait states.
 */
static void
test_every_profile_keeps_the_pll_in_range_over_hsi_tolerance(void **state)
{
	static const uint32_t profiles[] = {CLOCK_PROFILES_HZ};
	static const double hsi_err[] = {-0.01, 0.0, 0.01};
	size_t i, k;

	(void)state;
	assert_int_equal(sizeof(profiles) / sizeof(profiles[0]), 3);
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct clock_profile p;
		uint32_t hz = profiles[i];

		assert_true(CLOCK_PROFILE_SUPPORTED(hz));
		assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, hz, &p), 1);
		assert_int_equal(p.hclk_hz, hz);
		assert_int_equal(p.sysclk_hz, hz * p.ahb_div);
		assert_true(p.sysclk_hz <= 84 * MHZ);
		assert_true(p.flash_ws <= 2);
		if (hz <= 30 * MHZ) {
			assert_int_equal(p.flash_ws, 0);
		}
		if (!p.use_pll) {
			assert_int_equal(hz, CLOCK_HSI_HZ);
			assert_int_equal(p.ahb_div, 1);
			continue;
		}
		assert_true(clock_pll_valid(CLOCK_HSI_HZ, &p.pll));
		assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI_HZ, &p.pll),
				 p.sysclk_hz);
		for (k = 0; k < sizeof(hsi_err) / sizeof(hsi_err[0]); k++) {
			double hsi = CLOCK_HSI_HZ * (1.0 + hsi_err[k]);
			double vin = hsi / p.pll.m;
			double vco = vin * p.pll.n;

			if (vin < 1e6 || vin > 2e6 || vco < 192e6 ||
			    vco > 432e6) {
				fail_msg(
					"%u Hz profile at HSI %+.0f %%: VCO in %.0f Hz, out %.0f Hz",
					(unsigned)hz, hsi_err[k] * 100, vin,
					vco);
			}
		}
	}
	/* And nothing else is a profile. */
	assert_false(CLOCK_PROFILE_SUPPORTED(48 * MHZ));
	assert_false(CLOCK_PROFILE_SUPPORTED(0));
}

/* The margin check itself: exact edges fail, values just inside pass. */
static void test_range_margin_rejects_the_edges(void **state)
{
	(void)state;
	assert_false(CLOCK_IN_RANGE_TOL(192 * MHZ, 192 * MHZ, 432 * MHZ));
	assert_false(CLOCK_IN_RANGE_TOL(432 * MHZ, 192 * MHZ, 432 * MHZ));
	assert_true(CLOCK_IN_RANGE_TOL(194 * MHZ, 192 * MHZ, 432 * MHZ));
	assert_true(CLOCK_IN_RANGE_TOL(427 * MHZ, 192 * MHZ, 432 * MHZ));
	assert_false(CLOCK_IN_RANGE_TOL(428 * MHZ, 192 * MHZ, 432 * MHZ));
	/* VCO input: 1 MHz (M = 16) and 2 MHz (M = 8) are both refused. */
	assert_false(CLOCK_VIN_OK(CLOCK_HSI_HZ, 16u));
	assert_false(CLOCK_VIN_OK(CLOCK_HSI_HZ, 8u));
	assert_true(CLOCK_VIN_OK(CLOCK_HSI_HZ, 10u));
	assert_int_equal(CLOCK_PLL_M(CLOCK_HSI_HZ), 10);
}

static void test_pll_refuses_what_the_f401_cannot_run(void **state)
{
	struct clock_pll pll;
	struct clock_profile prof;

	(void)state;
	assert_int_equal(clock_pll_find(CLOCK_HSI_HZ, 100 * MHZ, &pll), 0);
	assert_int_equal(clock_pll_find(CLOCK_HSI_HZ, 0, &pll), 0);
	/* 20 MHz: every P gives a VCO below 192 MHz (160 at P = 8). */
	assert_int_equal(clock_pll_find(CLOCK_HSI_HZ, 20 * MHZ, &pll), 0);
	assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, 100 * MHZ, &prof), 0);

	/* Each limit on its own. */
	pll = (struct clock_pll){.m = 16, .n = 336, .p = 4, .q = 7};
	assert_true(clock_pll_valid(CLOCK_HSI_HZ, &pll));
	pll.m = 4; /* 4 MHz VCO input */
	pll.n = 84;
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll));
	pll = (struct clock_pll){.m = 32, .n = 336, .p = 4, .q = 7};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* 0.5 MHz in */
	pll = (struct clock_pll){.m = 16, .n = 433, .p = 4, .q = 7};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* VCO 433 */
	pll = (struct clock_pll){.m = 16, .n = 191, .p = 2, .q = 4};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* VCO 191 */
	pll = (struct clock_pll){.m = 16, .n = 336, .p = 3, .q = 7};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* P odd */
	pll = (struct clock_pll){.m = 16, .n = 336, .p = 4, .q = 6};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* 56 MHz PLL48 */
	pll = (struct clock_pll){.m = 16, .n = 336, .p = 4, .q = 16};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* Q 4 bits */
	pll = (struct clock_pll){.m = 10, .n = 180, .p = 6, .q = 6};
	assert_false(clock_pll_valid(CLOCK_HSI_HZ, &pll)); /* PLLN < 192 */
	pll = (struct clock_pll){.m = 1, .n = 200, .p = 4, .q = 7};
	assert_false(clock_pll_valid(2 * MHZ, &pll)); /* PLLM >= 2 */
}

/* ---- flash latency (RM0368 §3.4.1, Table 6, 2.7..3.6 V) ---- */

static void test_flash_wait_states_follow_table_6_at_3v3(void **state)
{
	(void)state;
	assert_int_equal(clock_flash_ws(84 * MHZ), 2);
	assert_int_equal(clock_flash_ws(24 * MHZ), 0);
	assert_int_equal(clock_flash_ws(16 * MHZ), 0);
	/* The band edges: 0 WS up to 30 MHz, 1 WS up to 60, 2 WS up to 84. */
	assert_int_equal(clock_flash_ws(30 * MHZ), 0);
	assert_int_equal(clock_flash_ws(30 * MHZ + 1), 1);
	assert_int_equal(clock_flash_ws(60 * MHZ), 1);
	assert_int_equal(clock_flash_ws(60 * MHZ + 1), 2);
	assert_int_equal(clock_flash_ws(84 * MHZ + 1), CLOCK_WS_INVALID);
	assert_int_equal(clock_flash_ws(0), CLOCK_WS_INVALID);
}

/* ---- the three profiles ---- */

static void test_profiles_84_24_16_mhz(void **state)
{
	struct clock_profile p;

	(void)state;
	assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, 84 * MHZ, &p), 1);
	assert_true(p.use_pll);
	assert_int_equal(p.flash_ws, 2);
	assert_int_equal(p.apb1_div, 2);
	assert_int_equal(p.apb1_hz, 42 * MHZ); /* APB1 max (§6.3.3) */
	assert_int_equal(clock_ppre_bits(p.apb1_div), 4); /* 100b: /2 */

	assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, 24 * MHZ, &p), 1);
	assert_true(p.use_pll);
	assert_int_equal(p.ahb_div, 2);
	assert_int_equal(p.sysclk_hz, 48 * MHZ);
	assert_int_equal(p.flash_ws, 0); /* Table 6 goes by HCLK: 24 MHz */
	assert_int_equal(p.apb1_div, 1);
	assert_int_equal(p.apb1_hz, 24 * MHZ);

	assert_int_equal(clock_profile_for(CLOCK_HSI_HZ, 16 * MHZ, &p), 1);
	assert_false(p.use_pll); /* the HSI itself */
	assert_int_equal(p.flash_ws, 0);
	assert_int_equal(p.apb1_div, 1);
	assert_int_equal(p.apb1_hz, 16 * MHZ);
}

static void test_apb1_divider_keeps_42mhz(void **state)
{
	(void)state;
	assert_int_equal(clock_apb1_div(16 * MHZ), 1);
	assert_int_equal(clock_apb1_div(42 * MHZ), 1);
	assert_int_equal(clock_apb1_div(42 * MHZ + 1), 2);
	assert_int_equal(clock_apb1_div(84 * MHZ), 2);
}

/* ---- USART baud rate (RM0368 §19.3.4) ---- */

static void test_brr_115200_from_42mhz_is_0x16d(void **state)
{
	uint32_t brr;
	int32_t err;

	(void)state;
	brr = clock_usart_brr(42 * MHZ, 115200);
	assert_int_equal(brr, 0x16D);
	assert_int_equal(brr >> 4, 22);	  /* DIV_Mantissa */
	assert_int_equal(brr & 0xFu, 13); /* DIV_Fraction: 22.8125 */
	/* 42 MHz / (16 * 22.8125) = 115068 Bd actually sent. */
	assert_int_equal(clock_usart_actual_baud(42 * MHZ, brr), 115068);
	err = clock_baud_error_ppm(42 * MHZ, 115200, brr);
	assert_true(err > -20000 && err < 20000);
	assert_int_equal(err, -1141); /* -0.11 % */
}

static void test_brr_at_the_other_profiles(void **state)
{
	(void)state;
	/* 24 MHz: 208.33 -> 208 (+0.16 %); 16 MHz: 138.89 -> 139 (-0.08 %). */
	assert_int_equal(clock_usart_brr(24 * MHZ, 115200), 208);
	assert_int_equal(clock_baud_error_ppm(24 * MHZ, 115200, 208), 1602);
	assert_int_equal(clock_usart_brr(16 * MHZ, 115200), 139);
	assert_int_equal(clock_baud_error_ppm(16 * MHZ, 115200, 139), -799);
	/* Higher rates where the divider is exact enough. */
	assert_int_equal(clock_usart_brr(42 * MHZ, 921600), 46);
	assert_int_equal(clock_usart_brr(42 * MHZ, 1000000), 42);
	assert_int_equal(clock_usart_brr(42 * MHZ, 2000000), 21);
}

/* The worked examples of RM0368 §19.3.4, as f_PCLK / baud = 16 * USARTDIV. */
static void
test_brr_fraction_rounds_and_carries_as_the_manual_shows(void **state)
{
	(void)state;
	/* USARTDIV 25.62: fraction 16 * 0.62 = 9.92 -> 10: BRR 0x19A. */
	assert_int_equal(clock_usart_brr_nearest(40992, 100), 0x19A);
	/* USARTDIV 50.99: fraction 15.84 -> 16 carries: BRR 0x330. */
	assert_int_equal(clock_usart_brr_nearest(81584, 100), 0x330);
	/* BRR 0x1BC is USARTDIV 27.75 (mantissa 27, fraction 12). */
	assert_int_equal(clock_usart_brr_nearest(44400, 100), 0x1BC);
}

static void test_brr_refuses_a_rate_more_than_2_percent_off(void **state)
{
	uint32_t nearest;

	(void)state;
	/* 921600 Bd from 16 MHz: 17.36 -> 17 gives 941176 Bd, +2.12 %. */
	nearest = clock_usart_brr_nearest(16 * MHZ, 921600);
	assert_int_equal(nearest, 17);
	assert_true(clock_baud_error_ppm(16 * MHZ, 921600, nearest) > 20000);
	assert_int_equal(clock_usart_brr(16 * MHZ, 921600), 0);
	/* Faster than f_PCLK / 16: USARTDIV below 1 (OVER8 = 0). */
	assert_int_equal(clock_usart_brr_nearest(42 * MHZ, 3000000), 0);
	assert_int_equal(clock_usart_brr(42 * MHZ, 3000000), 0);
	/* Slower than the 12-bit mantissa allows. */
	assert_int_equal(clock_usart_brr(84 * MHZ, 1200), 0);
	assert_int_equal(clock_usart_brr(42 * MHZ, 0), 0);
}

/*
 * The 32-bit test in clock_usart_brr (what the board runs) agrees with the
 * exact error: accepted exactly when |error| <= 2 %.
 */
static void test_brr_acceptance_matches_the_exact_error(void **state)
{
	static const uint32_t pclk[] = {16 * MHZ, 24 * MHZ, 42 * MHZ, 84 * MHZ};
	static const uint32_t baud[] = {1200,	2400,	 4800,	  9600,
					19200,	38400,	 57600,	  115200,
					230400, 460800,	 500000,  576000,
					921600, 1000000, 1500000, 2000000};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(pclk) / sizeof(pclk[0]); i++) {
		for (j = 0; j < sizeof(baud) / sizeof(baud[0]); j++) {
			uint32_t near =
				clock_usart_brr_nearest(pclk[i], baud[j]);
			uint32_t brr = clock_usart_brr(pclk[i], baud[j]);
			int64_t made = (int64_t)baud[j] * near;
			int64_t diff = (int64_t)pclk[i] - made;
			int ok;

			if (diff < 0) {
				diff = -diff;
			}
			ok = near != 0 && diff * 1000000 <= 20000 * made;
			if ((brr != 0) != ok || (ok && brr != near)) {
				fail_msg("%u Hz, %u Bd: brr %u, nearest %u",
					 (unsigned)pclk[i], (unsigned)baud[j],
					 (unsigned)brr, (unsigned)near);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_register_addresses_and_fields_match_rm0368),
		cmocka_unit_test(test_pll_84mhz_from_hsi_is_m10_n210_p4),
		cmocka_unit_test(
			test_pll_24mhz_is_48mhz_halved_by_the_ahb_prescaler),
		cmocka_unit_test(
			test_every_profile_keeps_the_pll_in_range_over_hsi_tolerance),
		cmocka_unit_test(test_range_margin_rejects_the_edges),
		cmocka_unit_test(test_pll_refuses_what_the_f401_cannot_run),
		cmocka_unit_test(test_flash_wait_states_follow_table_6_at_3v3),
		cmocka_unit_test(test_profiles_84_24_16_mhz),
		cmocka_unit_test(test_apb1_divider_keeps_42mhz),
		cmocka_unit_test(test_brr_115200_from_42mhz_is_0x16d),
		cmocka_unit_test(test_brr_at_the_other_profiles),
		cmocka_unit_test(
			test_brr_fraction_rounds_and_carries_as_the_manual_shows),
		cmocka_unit_test(
			test_brr_refuses_a_rate_more_than_2_percent_off),
		cmocka_unit_test(test_brr_acceptance_matches_the_exact_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
