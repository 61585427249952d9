/* test_l476_clock_math: the NUCLEO-L476RG's PLL, flash-latency and USART divider arithmetic (nucleo-l476rg/clock_math.h, run by hal.c) against the numbers of RM0351. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "boards/nucleo-l476rg/clock_math.h"

#define MHZ 1000000u

/* ---- register layout (RM0351 §6.4, §5.4, §3.7.1; ST's stm32l476xx.h) ---- */

static void test_register_addresses_and_fields_match_rm0351(void **state)
{
	(void)state;
	/* Addresses only: nothing is dereferenced on the host. */
	assert_int_equal((uintptr_t)&RCC_CR, 0x40021000u);
	assert_int_equal((uintptr_t)&RCC_CFGR, 0x40021008u);
	assert_int_equal((uintptr_t)&RCC_PLLCFGR, 0x4002100Cu);
	assert_int_equal((uintptr_t)&RCC_AHB2ENR, 0x4002104Cu);
	assert_int_equal((uintptr_t)&RCC_APB1ENR1, 0x40021058u);
	assert_int_equal((uintptr_t)&RCC_CCIPR, 0x40021088u);
	assert_int_equal((uintptr_t)&FLASH_ACR, 0x40022000u);
	assert_int_equal((uintptr_t)&PWR_CR1, 0x40007000u);
	assert_int_equal((uintptr_t)&PWR_SR2, 0x40007014u);
	assert_int_equal((uintptr_t)&GPIO_MODER(GPIOA), 0x48000000u);
	assert_int_equal((uintptr_t)&GPIO_AFRL(GPIOA), 0x48000020u);
	assert_int_equal((uintptr_t)&USART_BRR(USART2), 0x4000440Cu);
	assert_int_equal((uintptr_t)&USART_ISR(USART2), 0x4000441Cu);
	assert_int_equal((uintptr_t)&USART_ICR(USART2), 0x40004420u);
	assert_int_equal((uintptr_t)&USART_RDR(USART2), 0x40004424u);
	assert_int_equal((uintptr_t)&USART_TDR(USART2), 0x40004428u);
	/* Not the F4's 0x1FFF7A10. */
	assert_int_equal(UID_BASE, 0x1FFF7590u);

	/* hal.c's polls: each ready/status field sits `wait` bits above. */
	assert_int_equal(RCC_CR_HSION << 2, RCC_CR_HSIRDY);
	assert_int_equal(RCC_CR_PLLON << 1, RCC_CR_PLLRDY);
	assert_int_equal(RCC_CFGR_SW_MASK << 2, RCC_CFGR_SWS_MASK);
	assert_int_equal(RCC_CFGR_SW_HSI16 << 2, RCC_CFGR_SWS_HSI16);
	assert_int_equal(RCC_CFGR_SW_PLL << 2, RCC_CFGR_SWS_PLL);
	/* CFGR: HPRE 7:4, PPRE1 10:8, PPRE2 13:11 (not the F4's 12:10). */
	assert_int_equal(RCC_CFGR_HPRE_MASK, 0xF0u);
	assert_int_equal(RCC_CFGR_PPRE1_MASK, 0x700u);
	assert_int_equal(RCC_CFGR_PPRE2_MASK, 0x3800u);

	/* PLLCFGR: PLLSRC 1:0, PLLM 6:4, PLLN 14:8, PLLPEN 16, PLLP 17,
	 * PLLQEN 20, PLLQ 22:21, PLLREN 24, PLLR 26:25. */
	assert_int_equal(RCC_PLLCFGR_PLLSRC_MSI, 1u);
	assert_int_equal(RCC_PLLCFGR_PLLSRC_HSI, 2u);
	assert_int_equal(RCC_PLLCFGR_PLLM_SHIFT, 4);
	assert_int_equal(RCC_PLLCFGR_PLLN_SHIFT, 8);
	assert_int_equal(RCC_PLLCFGR_PLLREN, 1u << 24);
	assert_int_equal(RCC_PLLCFGR_PLLR_SHIFT, 25);
	assert_int_equal(RCC_PLLCFGR_FIELDS,
			 0x3u | 0x7u << 4 | 0x7Fu << 8 | 1u << 16 | 1u << 17 |
				 1u << 20 | 3u << 21 | 1u << 24 | 3u << 25);

	/* FLASH_ACR: LATENCY 2:0, PRFTEN 8, ICEN 9, DCEN 10, ICRST 11, DCRST 12. */
	assert_int_equal(FLASH_ACR_LATENCY_MASK, 7u);
	assert_int_equal(FLASH_ACR_PRFTEN, 1u << 8);
	assert_int_equal(FLASH_ACR_ICEN, 1u << 9);
	assert_int_equal(FLASH_ACR_DCEN, 1u << 10);
	assert_int_equal(FLASH_ACR_ICRST, 1u << 11);
	assert_int_equal(FLASH_ACR_DCRST, 1u << 12);

	/* PWR: VOS 10:9 = 01 for range 1, VOSF bit 10 of SR2. */
	assert_int_equal(PWR_CR1_VOS_RANGE1, 0x200u);
	assert_int_equal(PWR_SR2_VOSF, 0x400u);

	/* USART: UE is bit 0 (bit 13 on the F4); ORE/RXNE/TC/TXE 3/5/6/7. */
	assert_int_equal(USART_CR1_UE, 1u);
	assert_int_equal(USART_ISR_ORE, 1u << 3);
	assert_int_equal(USART_ISR_RXNE, 1u << 5);
	assert_int_equal(USART_ISR_TC, 1u << 6);
	assert_int_equal(USART_ISR_TXE, 1u << 7);
	assert_int_equal(USART_ICR_ORECF, 1u << 3);
}

/* ---- flash wait states (RM0351 §3.3.3) ---- */

/* Range 1: 0 WS up to 16 MHz, then one more every 16 MHz up to 80. */
static void test_flash_wait_states_range1_at_each_boundary(void **state)
{
	static const struct {
		uint32_t hz, ws;
	} t[] = {
		{1u, 0},
		{16 * MHZ, 0},
		{16 * MHZ + 1u, 1},
		{24 * MHZ, 1},
		{32 * MHZ, 1},
		{32 * MHZ + 1u, 2},
		{48 * MHZ, 2},
		{48 * MHZ + 1u, 3},
		{64 * MHZ, 3},
		{64 * MHZ + 1u, 4},
		{80 * MHZ, 4},
		{80 * MHZ + 1u, CLOCK_WS_INVALID},
		{0, CLOCK_WS_INVALID},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(clock_flash_ws(t[i].hz, 1), t[i].ws);
		assert_int_equal(CLOCK_FLASH_WS(t[i].hz, 1u), t[i].ws);
	}
}

/* Range 2: 0 WS up to 6 MHz, 1 to 12, 2 to 18, 3 to 26; nothing above. */
static void test_flash_wait_states_range2_at_each_boundary(void **state)
{
	static const struct {
		uint32_t hz, ws;
	} t[] = {
		{1u, 0},
		{6 * MHZ, 0},
		{6 * MHZ + 1u, 1},
		{12 * MHZ, 1},
		{12 * MHZ + 1u, 2},
		{18 * MHZ, 2},
		{18 * MHZ + 1u, 3},
		{26 * MHZ, 3},
		{26 * MHZ + 1u, CLOCK_WS_INVALID},
		{16 * MHZ, 2},
		{80 * MHZ, CLOCK_WS_INVALID},
		{0, CLOCK_WS_INVALID},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(clock_flash_ws(t[i].hz, 2), t[i].ws);
	}
	/* There is no range 0 or 3 on the L476. */
	assert_int_equal(clock_flash_ws(16 * MHZ, 0), CLOCK_WS_INVALID);
	assert_int_equal(clock_flash_ws(16 * MHZ, 3), CLOCK_WS_INVALID);
}

/* ---- PLL (RM0351 §6.4.4) ---- */

static void test_pll_80mhz_from_hsi16_is_m2_n20_r2(void **state)
{
	struct clock_pll pll;
	uint32_t cfgr;

	(void)state;
	assert_int_equal(clock_pll_find(CLOCK_HSI16_HZ, 80 * MHZ, &pll), 1);
	assert_int_equal(pll.m, 2);
	assert_int_equal(pll.n, 20);
	assert_int_equal(pll.r, 2);
	assert_true(clock_pll_valid(CLOCK_HSI16_HZ, &pll));
	assert_int_equal(clock_vco_in_hz(CLOCK_HSI16_HZ, &pll), 8 * MHZ);
	assert_int_equal(clock_vco_out_hz(CLOCK_HSI16_HZ, &pll), 160 * MHZ);
	assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI16_HZ, &pll), 80 * MHZ);

	/* PLLSRC = 10 (HSI16), PLLM field 1 (/2), PLLN 20, PLLREN, PLLR 00. */
	cfgr = clock_pllcfgr(RCC_PLLCFGR_PLLSRC_HSI, &pll);
	assert_int_equal(cfgr, 0x01001412u);
	assert_int_equal(CLOCK_PLLCFGR_HSI_FOR(80 * MHZ), cfgr);
	assert_int_equal(cfgr & ~RCC_PLLCFGR_FIELDS, 0);
}

/*
 * The MSI at its reset range (4 MHz): M = 1 is the only divider, its VCO
 * input sits exactly on the 4 MHz floor (legal; ST's own default set-up),
 * N = 40 makes a 160 MHz VCO, R = 2 80 MHz.
 */
static void test_pll_80mhz_from_msi_4mhz_is_m1_n40_r2(void **state)
{
	struct clock_pll pll;

	(void)state;
	assert_int_equal(clock_pll_find(CLOCK_MSI_RANGE6_HZ, 80 * MHZ, &pll),
			 1);
	assert_int_equal(pll.m, 1);
	assert_int_equal(pll.n, 40);
	assert_int_equal(pll.r, 2);
	assert_int_equal(clock_vco_in_hz(CLOCK_MSI_RANGE6_HZ, &pll), 4 * MHZ);
	assert_int_equal(clock_vco_out_hz(CLOCK_MSI_RANGE6_HZ, &pll),
			 160 * MHZ);
	assert_int_equal(clock_pll_sysclk_hz(CLOCK_MSI_RANGE6_HZ, &pll),
			 80 * MHZ);
	assert_int_equal(clock_pllcfgr(RCC_PLLCFGR_PLLSRC_MSI, &pll),
			 0x01002801u);

	/* The MSI's 16 MHz range gives what the HSI16 gives. */
	assert_int_equal(clock_pll_find(CLOCK_MSI_RANGE8_HZ, 80 * MHZ, &pll),
			 1);
	assert_int_equal(pll.m, 2);
	assert_int_equal(pll.n, 20);
	assert_int_equal(pll.r, 2);
}

/*
 * From HSI16, M = 1 would put the VCO input on the 16 MHz ceiling (legal
 * at nominal, ST's CubeMX default, out of range on a part 1 % fast), so
 * the board's choice is M = 2; clock_pll_valid still accepts M = 1.
 */
static void test_pll_keeps_the_vco_input_off_the_16mhz_ceiling(void **state)
{
	const struct clock_pll st_default = {1, 10, 2};

	(void)state;
	assert_int_equal(CLOCK_PLL_M(CLOCK_HSI16_HZ), 2);
	assert_int_equal(CLOCK_PLL_VIN(CLOCK_HSI16_HZ), 8 * MHZ);
	assert_true(clock_pll_valid(CLOCK_HSI16_HZ, &st_default));
	assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI16_HZ, &st_default),
			 80 * MHZ);
	assert_false(CLOCK_IN_RANGE_TOL(16 * MHZ, CLOCK_VCO_IN_MIN_HZ,
					CLOCK_VCO_IN_MAX_HZ));
	assert_true(CLOCK_IN_RANGE_TOL(8 * MHZ, CLOCK_VCO_IN_MIN_HZ,
				       CLOCK_VCO_IN_MAX_HZ));
	/* The MSI's 4 MHz has no divider with margin: nominal is the fallback. */
	assert_int_equal(CLOCK_FIRST_M(CLOCK_VIN_OK_TOL, CLOCK_MSI_RANGE6_HZ),
			 0);
	assert_int_equal(CLOCK_PLL_M(CLOCK_MSI_RANGE6_HZ), 1);
}

/* 24 MHz: R = 2 would need a 48 MHz VCO, below 64 MHz; R = 4 gives 96. */
static void test_pll_24mhz_from_hsi16_is_m2_n12_r4(void **state)
{
	struct clock_pll pll;
	uint32_t cfgr;

	(void)state;
	assert_int_equal(clock_pll_find(CLOCK_HSI16_HZ, 24 * MHZ, &pll), 1);
	assert_int_equal(pll.m, 2);
	assert_int_equal(pll.n, 12);
	assert_int_equal(pll.r, 4);
	assert_int_equal(clock_vco_out_hz(CLOCK_HSI16_HZ, &pll), 96 * MHZ);
	assert_int_equal(clock_pllr_bits(4), 1);
	cfgr = clock_pllcfgr(RCC_PLLCFGR_PLLSRC_HSI, &pll);
	assert_int_equal(cfgr, 0x03000C12u);
	assert_int_equal(CLOCK_PLLCFGR_HSI_FOR(24 * MHZ), cfgr);
	assert_int_equal(clock_pllr_bits(2), 0);
	assert_int_equal(clock_pllr_bits(6), 2);
	assert_int_equal(clock_pllr_bits(8), 3);
}

/* Settings outside RM0351's ranges are refused, field by field. */
static void test_pll_refuses_out_of_range_settings(void **state)
{
	static const struct {
		uint32_t in;
		struct clock_pll pll;
		const char *why;
	} bad[] = {
		{16 * MHZ, {0, 20, 2}, "PLLM 0"},
		{16 * MHZ, {9, 20, 2}, "PLLM above 8"},
		{16 * MHZ, {2, 7, 8}, "PLLN below 8"},
		{16 * MHZ, {2, 87, 8}, "PLLN above 86"},
		{16 * MHZ, {2, 20, 3}, "PLLR odd"},
		{16 * MHZ, {2, 20, 10}, "PLLR above 8"},
		{16 * MHZ, {2, 20, 0}, "PLLR 0"},
		{16 * MHZ, {3, 15, 2}, "PLLM does not divide the input"},
		{4 * MHZ, {2, 40, 2}, "VCO input 2 MHz, below 4"},
		{32 * MHZ, {1, 10, 4}, "VCO input 32 MHz, above 16"},
		{4 * MHZ, {1, 15, 2}, "VCO output 60 MHz, below 64"},
		{16 * MHZ, {2, 44, 8}, "VCO output 352 MHz, above 344"},
		{16 * MHZ, {2, 40, 2}, "PLLCLK 160 MHz, above 80"},
		{16 * MHZ, {2, 22, 2}, "PLLCLK 88 MHz, above 80"},
	};
	struct clock_pll pll;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (clock_pll_valid(bad[i].in, &bad[i].pll)) {
			fail_msg("accepted: %s", bad[i].why);
		}
	}
	/* The edges themselves are legal at nominal. */
	pll = (struct clock_pll){2, 8, 2}; /* VCO 64 MHz */
	assert_true(clock_pll_valid(16 * MHZ, &pll));
	pll = (struct clock_pll){2, 43, 6}; /* VCO 344 MHz, 57.3 MHz out */
	assert_true(clock_pll_valid(16 * MHZ, &pll));

	/* No setting: above 80 MHz, 0 Hz, no input, an input below 4 MHz. */
	assert_int_equal(clock_pll_find(CLOCK_HSI16_HZ, 80 * MHZ + 1u, &pll),
			 0);
	assert_int_equal(pll.m | pll.n | pll.r, 0);
	assert_int_equal(clock_pll_find(CLOCK_HSI16_HZ, 84 * MHZ, &pll), 0);
	assert_int_equal(clock_pll_find(CLOCK_HSI16_HZ, 0, &pll), 0);
	assert_int_equal(clock_pll_find(0, 80 * MHZ, &pll), 0);
	assert_int_equal(clock_pll_find(2 * MHZ, 80 * MHZ, &pll), 0);
	/* 8 MHz: even R = 8 leaves the VCO at 64 MHz, on the edge. */
	assert_int_equal(clock_pll_find(CLOCK_HSI16_HZ, 8 * MHZ, &pll), 0);
	assert_false(CLOCK_PLL_CAN(CLOCK_HSI16_HZ, 81 * MHZ));
}

/*
 * Every profile the board builds, with the HSI16 at nominal and 1 %
 * either side: the VCO input within 4..16 MHz and the VCO output within
 * 64..344 MHz, computed here from the fields in floating point, not by
 * clock_math.h's own margin arithmetic; at nominal, HCLK is exactly the
 * profile and the wait states those of range 1.
 */
static void test_every_profile_stays_in_range_over_hsi_tolerance(void **state)
{
	static const uint32_t profiles[] = {CLOCK_PROFILES_HZ};
	static const uint32_t want_ws[] = {4, 1, 0};
	static const double hsi_err[] = {-0.01, 0.0, 0.01};
	size_t i, k;

	(void)state;
	assert_int_equal(sizeof(profiles) / sizeof(profiles[0]), 3);
	assert_int_equal(profiles[0], 80 * MHZ);
	assert_int_equal(profiles[1], 24 * MHZ);
	assert_int_equal(profiles[2], 16 * MHZ);
	for (i = 0; i < 3; i++) {
		struct clock_profile p;
		uint32_t hz = profiles[i];

		assert_true(CLOCK_PROFILE_SUPPORTED(hz));
		assert_int_equal(clock_profile_for(hz, 115200u, &p), 1);
		assert_int_equal(p.hclk_hz, hz);
		assert_int_equal(p.flash_ws, want_ws[i]);
		assert_int_equal(p.use_pll, hz != CLOCK_HSI16_HZ);
		if (!p.use_pll) {
			continue;
		}
		assert_int_equal(clock_pll_sysclk_hz(CLOCK_HSI16_HZ, &p.pll),
				 hz);
		for (k = 0; k < 3; k++) {
			double src = CLOCK_HSI16_HZ * (1.0 + hsi_err[k]);
			double vin = src / p.pll.m, vco = vin * p.pll.n;

			assert_true(vin >= 4e6 && vin <= 16e6);
			assert_true(vco >= 64e6 && vco <= 344e6);
		}
	}
	/* What the board refuses to build. */
	assert_false(CLOCK_PROFILE_SUPPORTED(84 * MHZ));
	assert_false(CLOCK_PROFILE_SUPPORTED(48 * MHZ));
	{
		struct clock_profile p;

		assert_int_equal(clock_profile_for(84 * MHZ, 115200u, &p), 0);
		assert_int_equal(p.flash_ws, CLOCK_WS_INVALID);
		assert_int_equal(clock_profile_for(0, 115200u, &p), 0);
	}
}

/* The FLASH_ACR each profile programs, and so reports in INFO. */
static void test_flash_acr_per_profile(void **state)
{
	(void)state;
	/* hal.c: LATENCY | ICEN | DCEN, PRFTEN only with wait states. */
#define ACR(ws)                                                                \
	(FLASH_ACR_LATENCY(ws) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 ((ws) != 0 ? FLASH_ACR_PRFTEN : 0u))
	assert_int_equal(ACR(clock_flash_ws(80 * MHZ, 1)), 0x704u);
	assert_int_equal(ACR(clock_flash_ws(24 * MHZ, 1)), 0x701u);
	assert_int_equal(ACR(clock_flash_ws(16 * MHZ, 1)), 0x600u);
#undef ACR
}

/* ---- USART2 BRR (USART baud rate generation, OVER8 = 0) ---- */

/*
 * 115200 Bd at each profile, PCLK1 = HCLK: the divider, the rate it
 * really gives and its error. The HSI16 value is also the fallback's.
 */
static void test_brr_115200_at_each_profile_and_its_error(void **state)
{
	static const struct {
		uint32_t pclk, brr, actual;
		int32_t ppm;
	} t[] = {
		/* 80e6 / 694 = 115273.8 Bd */
		{80 * MHZ, 694u, 115273u, 640},
		/* 24e6 / 208 = 115384.6 Bd */
		{24 * MHZ, 208u, 115384u, 1602},
		/* 16e6 / 139 = 115107.9 Bd */
		{16 * MHZ, 139u, 115107u, -799},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t brr = clock_usart_brr(t[i].pclk, 115200u);

		assert_int_equal(brr, t[i].brr);
		assert_int_equal(CLOCK_USART_BRR(t[i].pclk, 115200u), brr);
		assert_int_equal(t[i].pclk / brr, t[i].actual);
		assert_int_equal(clock_baud_error_ppm(t[i].pclk, 115200u, brr),
				 t[i].ppm);
		assert_true(t[i].ppm < 2000 && t[i].ppm > -2000);
	}
}

/* Unhappy paths: no baud, a divider below 16 or beyond 16 bits, > 2 % off. */
static void test_brr_refuses_what_the_usart_cannot_make(void **state)
{
	struct clock_profile p;

	(void)state;
	assert_int_equal(clock_usart_brr_nearest(80 * MHZ, 0), 0);
	/* 16 MHz / 1.1 MBd = 14.5: below the minimum of 16. */
	assert_int_equal(clock_usart_brr_nearest(16 * MHZ, 1100000u), 0);
	/* Exactly 16 is the smallest legal divider. */
	assert_int_equal(clock_usart_brr_nearest(16 * MHZ, 1000000u), 16);
	/* 80 MHz / 1200 Bd = 66667: beyond 16 bits. */
	assert_int_equal(clock_usart_brr_nearest(80 * MHZ, 1200u), 0);
	assert_int_equal(clock_usart_brr_nearest(80 * MHZ, 2400u), 33333u);
	/* 16 MHz / 921600 = 17.36 -> 17 = 941176 Bd, +2.1 %: refused,
	 * though the nearest divider exists (hal.c then reports BAD_ARG). */
	assert_int_equal(clock_usart_brr_nearest(16 * MHZ, 921600u), 17);
	assert_int_equal(clock_usart_brr(16 * MHZ, 921600u), 0);
	assert_true(clock_baud_error_ppm(16 * MHZ, 921600u, 17) > 20000);
	assert_int_equal(clock_profile_for(16 * MHZ, 921600u, &p), 0);
	assert_int_equal(clock_baud_error_ppm(16 * MHZ, 115200u, 0), INT32_MIN);
	/* ... while 80 MHz makes 921600 Bd to -0.2 %. */
	assert_int_equal(clock_usart_brr(80 * MHZ, 921600u), 87);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_register_addresses_and_fields_match_rm0351),
		cmocka_unit_test(
			test_flash_wait_states_range1_at_each_boundary),
		cmocka_unit_test(
			test_flash_wait_states_range2_at_each_boundary),
		cmocka_unit_test(test_pll_80mhz_from_hsi16_is_m2_n20_r2),
		cmocka_unit_test(test_pll_80mhz_from_msi_4mhz_is_m1_n40_r2),
		cmocka_unit_test(
			test_pll_keeps_the_vco_input_off_the_16mhz_ceiling),
		cmocka_unit_test(test_pll_24mhz_from_hsi16_is_m2_n12_r4),
		cmocka_unit_test(test_pll_refuses_out_of_range_settings),
		cmocka_unit_test(
			test_every_profile_stays_in_range_over_hsi_tolerance),
		cmocka_unit_test(test_flash_acr_per_profile),
		cmocka_unit_test(test_brr_115200_at_each_profile_and_its_error),
		cmocka_unit_test(test_brr_refuses_what_the_usart_cannot_make),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
