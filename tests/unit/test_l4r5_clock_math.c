/* test_l4r5_clock_math: the NUCLEO-L4R5ZI's PLL, flash-latency, boost-mode and LPUART divider arithmetic (nucleo-l4r5zi/clock_math.h: the L476's formulas with RM0432's limits, run by hal.c) and its added register addresses. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "boards/nucleo-l4r5zi/regs_l4r5.h"
#include "boards/nucleo-l4r5zi/clock_math.h"

#define MHZ 1000000u

/* RM0432's register descriptions (ST's stm32l4r5xx.h has the same). */
static void test_added_registers_are_where_rm0432_puts_them(void **state)
{
	(void)state;
	/* Addresses only: nothing is dereferenced on the host. */
	assert_int_equal((uintptr_t)&PWR_CR2, 0x40007004u);
	assert_int_equal((uintptr_t)&PWR_CR5, 0x40007080u);
	assert_int_equal(PWR_CR5_R1MODE, 1u << 8);
	assert_int_equal(PWR_CR2_IOSV, 1u << 9);
	assert_int_equal((uintptr_t)&RCC_APB1ENR2, 0x4002105Cu);
	assert_int_equal(RCC_AHB2ENR_GPIOGEN, 1u << 6);
	assert_int_equal((uintptr_t)&GPIO_AFRH(GPIOG), 0x48001824u);
	assert_int_equal((uintptr_t)&GPIO_BSRR(GPIOF), 0x48001418u);
	assert_int_equal((uintptr_t)&USART_BRR(LPUART1), 0x4000800Cu);
	assert_int_equal((uintptr_t)&USART_ISR(LPUART1), 0x4000801Cu);
	assert_int_equal(UID_BASE, 0x1FFF7590u);
}

/* 20 MHz = 16 / 2 * 10 / 4, VCO 80 MHz: pqm4's setting at 0 WS, no boost. */
static void test_20mhz_is_m2_n10_r4_at_0ws(void **state)
{
	(void)state;
	assert_true(CLOCK_PLL_CAN(CLOCK_HSI16_HZ, 20 * MHZ));
	assert_int_equal(CLOCK_PLL_M(CLOCK_HSI16_HZ), 2);
	assert_int_equal(CLOCK_PLL_N(CLOCK_HSI16_HZ, 20 * MHZ), 10);
	assert_int_equal(CLOCK_PLL_R(CLOCK_HSI16_HZ, 20 * MHZ), 4);
	assert_int_equal(CLOCK_FLASH_WS(20 * MHZ, 1u), 0);
	assert_false(CLOCK_NEEDS_BOOST(20 * MHZ));
}

/* 120 MHz = 16 / 2 * 30 / 2, VCO 240 MHz, 5 WS, range 1 boost. */
static void test_120mhz_is_m2_n30_r2_at_5ws_in_boost(void **state)
{
	(void)state;
	assert_true(CLOCK_PLL_CAN(CLOCK_HSI16_HZ, 120 * MHZ));
	assert_int_equal(CLOCK_PLL_N(CLOCK_HSI16_HZ, 120 * MHZ), 30);
	assert_int_equal(CLOCK_PLL_R(CLOCK_HSI16_HZ, 120 * MHZ), 2);
	assert_int_equal(CLOCK_FLASH_WS(120 * MHZ, 1u), 5);
	assert_true(CLOCK_NEEDS_BOOST(120 * MHZ));
	assert_false(CLOCK_NEEDS_BOOST(80 * MHZ));
	assert_false(CLOCK_PLL_CAN(CLOCK_HSI16_HZ, 121 * MHZ));
}

/* RM0432 §3.3.3: range 1, one wait state per 20 MHz up to 5 at 120 MHz;
 * range 2: 0 to 8 MHz, 1 to 16, 2 to 26. */
static void test_wait_states_follow_rm0432(void **state)
{
	(void)state;
	assert_int_equal(CLOCK_FLASH_WS(20 * MHZ + 1, 1u), 1);
	assert_int_equal(CLOCK_FLASH_WS(40 * MHZ, 1u), 1);
	assert_int_equal(CLOCK_FLASH_WS(60 * MHZ, 1u), 2);
	assert_int_equal(CLOCK_FLASH_WS(80 * MHZ, 1u), 3);
	assert_int_equal(CLOCK_FLASH_WS(100 * MHZ, 1u), 4);
	assert_int_equal(CLOCK_FLASH_WS(100 * MHZ + 1, 1u), 5);
	assert_int_equal(CLOCK_FLASH_WS(120 * MHZ + 1, 1u), CLOCK_WS_INVALID);
	assert_int_equal(CLOCK_FLASH_WS(8 * MHZ, 2u), 0);
	assert_int_equal(CLOCK_FLASH_WS(16 * MHZ, 2u), 1);
	assert_int_equal(CLOCK_FLASH_WS(26 * MHZ, 2u), 2);
	assert_int_equal(CLOCK_FLASH_WS(26 * MHZ + 1, 2u), CLOCK_WS_INVALID);
}

/* LPUART: BRR = 256 * f_ck / baud, 0x300..0xFFFFF, f_ck 3..4096 x baud. */
static void test_lpuart_dividers(void **state)
{
	(void)state;
	assert_int_equal(clock_lpuart_brr(20 * MHZ, 115200), 44444);
	assert_int_equal(clock_lpuart_brr(120 * MHZ, 115200), 266667);
	assert_int_equal(clock_lpuart_brr(16 * MHZ, 115200), 35556);
	/* 256 * 120 MHz is beyond 32 bits: no wrap. */
	assert_int_equal(clock_lpuart_brr(120 * MHZ, 9600), 0);
	assert_int_equal(clock_lpuart_brr(20 * MHZ, 9600), 533333);
	/* f_ck above 4096 x baud, or BRR below 0x300. */
	assert_int_equal(clock_lpuart_brr(120 * MHZ, 1200), 0);
	assert_int_equal(clock_lpuart_brr(20 * MHZ, 7000000), 0);
	assert_int_equal(clock_lpuart_brr(20 * MHZ, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_added_registers_are_where_rm0432_puts_them),
		cmocka_unit_test(test_20mhz_is_m2_n10_r4_at_0ws),
		cmocka_unit_test(test_120mhz_is_m2_n30_r2_at_5ws_in_boost),
		cmocka_unit_test(test_wait_states_follow_rm0432),
		cmocka_unit_test(test_lpuart_dividers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
