/* test_l476_init_steps: the NUCLEO-L476RG's register set-up table (nucleo-l476rg/init_steps.h, applied by hal.c) read back row by row against RM0351's sequence, at the default 80 MHz profile. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#define HIL_CLOCK_HZ 80000000u
#include "boards/nucleo-l476rg/init_steps.h"

/* One step as hal.c's reg_apply performs it: full words, what it does. */
struct want_step {
	uint32_t addr;
	uint32_t clear;
	uint32_t set;
	int write; /* reg = (reg & ~clear) | set */
	int poll; /* then wait for (clear | set) << shift to read set << shift */
	int shift;
};

/*
 * The sequence in RM0351's numbers (addresses from §2.2.2 and the register
 * maps, bits from the register descriptions), written out by hand rather
 * than from regs_l476.h so that a wrong macro shows up here too.
 */
static const struct want_step want_clock[] = {
	/* RCC_APB1ENR1: PWREN (28) | USART2EN (17), read back */
	{0x40021058u, 0, 0x10020000u, 1, 1, 0},
	/* RCC_AHB2ENR: GPIOAEN, read back */
	{0x4002104Cu, 0, 0x1u, 1, 1, 0},
	/* PWR_CR1: VOS = 01 (range 1) */
	{0x40007000u, 0x600u, 0x200u, 1, 0, 0},
	/* PWR_SR2: wait for VOSF = 0, no write */
	{0x40007014u, 0x400u, 0, 0, 1, 0},
	/* RCC_CR: HSION, wait for HSIRDY (bit 10) */
	{0x40021000u, 0, 0x100u, 1, 1, 2},
	/* RCC_CFGR: SW = HSI16, wait for SWS = HSI16 */
	{0x40021008u, 0x3u, 0x1u, 1, 1, 2},
	/* RCC_CFGR: HPRE, PPRE1, PPRE2 = /1 */
	{0x40021008u, 0x3FF0u, 0, 1, 0, 0},
	/* RCC_CR: PLL off, wait for PLLRDY = 0 */
	{0x40021000u, 0x1000000u, 0, 1, 1, 1},
	/* FLASH_ACR: 4 WS, caches and prefetch off */
	{0x40022000u, 0x1F07u, 0x4u, 1, 0, 0},
	/* FLASH_ACR: ICRST | DCRST while the caches are off */
	{0x40022000u, 0, 0x1800u, 1, 0, 0},
	/* FLASH_ACR = 0x704 (4 WS, PRFTEN, ICEN, DCEN), read back */
	{0x40022000u, 0x1F07u, 0x704u, 1, 1, 0},
	/* RCC_PLLCFGR: HSI16, M = 2, N = 20, R = 2, PLLREN; reserved kept */
	{0x4002100Cu, 0x07737F73u, 0x01001412u, 1, 0, 0},
	/* RCC_CR: PLLON, wait for PLLRDY */
	{0x40021000u, 0, 0x1000000u, 1, 1, 1},
	/* RCC_CFGR: SW = PLL, wait for SWS = PLL */
	{0x40021008u, 0x3u, 0x3u, 1, 1, 2},
};

static const struct want_step want_gpio[] = {
	/* GPIOA_AFRL: AF7 on PA2 and PA3 */
	{0x48000020u, 0xFF00u, 0x7700u, 1, 0, 0},
	/* GPIOA_PUPDR: pull-up on PA3 */
	{0x4800000Cu, 0xC0u, 0x40u, 1, 0, 0},
	/* GPIOA_BSRR: PA8 low */
	{0x48000018u, 0, 0x1000000u, 1, 0, 0},
	/* GPIOA_OTYPER: PA8 push-pull */
	{0x48000004u, 0x100u, 0, 1, 0, 0},
	/* GPIOA_MODER: PA2, PA3 alternate function, PA8 output */
	{0x48000000u, 0x300F0u, 0x100A0u, 1, 0, 0},
};

static void check_rows(const struct reg_step *rows, uint32_t n, uint32_t base,
		       const struct want_step *want, size_t nwant)
{
	uint32_t i;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++) {
		const struct reg_step *r = &rows[i];

		assert_int_equal(base + 4u * r->reg, want[i].addr);
		assert_int_equal(step_clear(r), want[i].clear);
		assert_int_equal(step_set(r), want[i].set);
		assert_int_equal(!(r->flags & NO_WRITE), want[i].write);
		assert_int_equal(!!(r->flags & POLL), want[i].poll);
		if (want[i].poll) {
			assert_int_equal(r->flags & 3u,
					 (unsigned)want[i].shift);
		}
	}
}

static void test_a_row_is_eight_bytes(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct reg_step), 8);
}

static void test_clock_steps_are_rm0351s_sequence_at_80mhz(void **state)
{
	(void)state;
	check_rows(clock_steps, CLOCK_STEPS, PERIPH_BASE_APB1, want_clock,
		   sizeof(want_clock) / sizeof(want_clock[0]));
}

static void test_gpio_steps_set_up_usart2_pins_and_trigger(void **state)
{
	(void)state;
	check_rows(gpio_steps, GPIO_STEPS, GPIOA_BASE, want_gpio,
		   sizeof(want_gpio) / sizeof(want_gpio[0]));
}

/*
 * The fallback after a timeout re-applies the first TO_HSI steps: they
 * must end with SYSCLK on the HSI16 and the PLL off, and touch neither
 * the flash latency nor the PLL's configuration.
 */
static void test_fallback_prefix_ends_on_hsi16_with_pll_off(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(TO_HSI, 8);
	for (i = 0; i < TO_HSI; i++) {
		uint32_t addr = PERIPH_BASE_APB1 + 4u * clock_steps[i].reg;

		assert_int_not_equal(addr, 0x40022000u); /* FLASH_ACR */
		assert_int_not_equal(addr, 0x4002100Cu); /* RCC_PLLCFGR */
	}
	assert_int_equal(step_clear(&clock_steps[TO_HSI - 1]), 0x1000000u);
	assert_int_equal(step_set(&clock_steps[TO_HSI - 3]), 0x1u);
}

/*
 * RM0351 §3.3.3: the new latency is written and read back before SYSCLK
 * rises, and the PLL is configured only while it is off.
 */
static void test_latency_and_pll_order(void **state)
{
	uint32_t i, acr_read_back = 0, pll_off = 0, pllcfgr = 0, sw_pll = 0;

	(void)state;
	for (i = 0; i < CLOCK_STEPS; i++) {
		const struct reg_step *r = &clock_steps[i];
		uint32_t addr = PERIPH_BASE_APB1 + 4u * r->reg;

		if (addr == 0x40022000u && (r->flags & POLL) &&
		    (step_set(r) & 7u) == 4u) {
			acr_read_back = i + 1;
		}
		if (addr == 0x40021000u && step_clear(r) == 0x1000000u) {
			pll_off = i + 1;
		}
		if (addr == 0x4002100Cu) {
			pllcfgr = i + 1;
		}
		if (addr == 0x40021008u && step_set(r) == 0x3u) {
			sw_pll = i + 1;
		}
	}
	assert_true(acr_read_back != 0 && sw_pll != 0);
	assert_true(acr_read_back < sw_pll);
	assert_true(pll_off != 0 && pll_off < pllcfgr && pllcfgr < sw_pll);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_row_is_eight_bytes),
		cmocka_unit_test(
			test_clock_steps_are_rm0351s_sequence_at_80mhz),
		cmocka_unit_test(
			test_gpio_steps_set_up_usart2_pins_and_trigger),
		cmocka_unit_test(
			test_fallback_prefix_ends_on_hsi16_with_pll_off),
		cmocka_unit_test(test_latency_and_pll_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
