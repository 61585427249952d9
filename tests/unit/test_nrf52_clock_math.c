/* test_nrf52_clock_math: the nRF52840-DK's UARTE baud-rate table, core clock and ICACHECNF setting (clock_math.h, used by hal.c) against the nRF52840 Product Specification. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "boards/nrf52840-dk/clock_math.h"

/* hal.c checks its settings with #if: the macros must stay constant expressions. */
#if NRF52_UARTE_BAUDRATE(115200) != 0x01D60000u || NRF52_ICACHECNF(1) != 1u || \
	!NRF52_CLOCK_SUPPORTED(64000000)
#error "clock_math.h macros do not work in #if"
#endif

/*
 * The PS's UARTE BAUDRATE table (register BAUDRATE, 0x524), copied here
 * on its own rather than from clock_math.h: BAUDRATE value and the
 * "actual rate" the PS gives for it.
 */
static const struct {
	uint32_t baud, reg, actual;
} ps_table[] = {
	{1200, 0x0004F000, 1205},     {2400, 0x0009D000, 2396},
	{4800, 0x0013B000, 4808},     {9600, 0x00275000, 9598},
	{14400, 0x003AF000, 14401},   {19200, 0x004EA000, 19208},
	{28800, 0x0075C000, 28777},   {31250, 0x00800000, 31250},
	{38400, 0x009D0000, 38369},   {56000, 0x00E50000, 55944},
	{57600, 0x00EB0000, 57554},   {76800, 0x013A9000, 76923},
	{115200, 0x01D60000, 115108}, {230400, 0x03B00000, 231884},
	{250000, 0x04000000, 250000}, {460800, 0x07400000, 457143},
	{921600, 0x0F000000, 941176}, {1000000, 0x10000000, 1000000},
};

#define N_PS (sizeof(ps_table) / sizeof(ps_table[0]))

/* ---- register layout (PS register tables) ---- */

static void test_register_addresses_match_the_ps(void **state)
{
	(void)state;
	/* Addresses only: nothing is dereferenced on the host. */
	assert_int_equal((uintptr_t)&FICR_DEVICEID(0), 0x10000060u);
	assert_int_equal((uintptr_t)&FICR_DEVICEID(1), 0x10000064u);
	assert_int_equal((uintptr_t)&FICR_DEVICEADDR(0), 0x100000A4u);
	assert_int_equal((uintptr_t)&FICR_INFO_VARIANT, 0x10000104u);
	assert_int_equal((uintptr_t)&UICR_APPROTECT, 0x10001208u);
	assert_int_equal((uintptr_t)&APPROTECT_DISABLE, 0x40000558u);
	assert_int_equal((uintptr_t)&CLOCK_TASKS_HFCLKSTART, 0x40000000u);
	assert_int_equal((uintptr_t)&CLOCK_EVENTS_HFCLKSTARTED, 0x40000100u);
	assert_int_equal((uintptr_t)&CLOCK_HFCLKSTAT, 0x4000040Cu);
	assert_int_equal(CLOCK_HFCLKSTAT_SRC_XTAL |
				 CLOCK_HFCLKSTAT_STATE_RUNNING,
			 0x00010001u);
	assert_int_equal((uintptr_t)&NVMC_ICACHECNF, 0x4001E540u);
	assert_int_equal((uintptr_t)&NVMC_IHIT, 0x4001E548u);
	assert_int_equal((uintptr_t)&NVMC_IMISS, 0x4001E54Cu);
	assert_int_equal((uintptr_t)&UARTE_TASKS_STARTRX(UARTE0), 0x40002000u);
	assert_int_equal((uintptr_t)&UARTE_TASKS_STARTTX(UARTE0), 0x40002008u);
	assert_int_equal((uintptr_t)&UARTE_EVENTS_ENDRX(UARTE0), 0x40002110u);
	assert_int_equal((uintptr_t)&UARTE_EVENTS_ENDTX(UARTE0), 0x40002120u);
	assert_int_equal((uintptr_t)&UARTE_EVENTS_ERROR(UARTE0), 0x40002124u);
	assert_int_equal((uintptr_t)&UARTE_ERRORSRC(UARTE0), 0x40002480u);
	assert_int_equal((uintptr_t)&UARTE_ENABLE(UARTE0), 0x40002500u);
	assert_int_equal((uintptr_t)&UARTE_PSEL_RTS(UARTE0), 0x40002508u);
	assert_int_equal((uintptr_t)&UARTE_PSEL_TXD(UARTE0), 0x4000250Cu);
	assert_int_equal((uintptr_t)&UARTE_PSEL_CTS(UARTE0), 0x40002510u);
	assert_int_equal((uintptr_t)&UARTE_PSEL_RXD(UARTE0), 0x40002514u);
	assert_int_equal((uintptr_t)&UARTE_BAUDRATE(UARTE0), 0x40002524u);
	assert_int_equal((uintptr_t)&UARTE_RXD_PTR(UARTE0), 0x40002534u);
	assert_int_equal((uintptr_t)&UARTE_RXD_MAXCNT(UARTE0), 0x40002538u);
	assert_int_equal((uintptr_t)&UARTE_TXD_PTR(UARTE0), 0x40002544u);
	assert_int_equal((uintptr_t)&UARTE_TXD_MAXCNT(UARTE0), 0x40002548u);
	assert_int_equal((uintptr_t)&UARTE_CONFIG(UARTE0), 0x4000256Cu);
	assert_int_equal(UARTE_ENABLE_ENABLED, 8u);
	/* PSEL: PIN 4:0, PORT 5, CONNECT 31 (1 = disconnected). */
	assert_int_equal(UARTE_PSEL(0, 6), 6u);
	assert_int_equal(UARTE_PSEL(1, 8), 0x28u);
	/* GPIO: P1 at 0x50000300, PIN_CNF[n] at 0x700 + 4n. */
	assert_int_equal((uintptr_t)&GPIO_OUTSET(P0), 0x50000508u);
	assert_int_equal((uintptr_t)&GPIO_OUTCLR(P1), 0x5000080Cu);
	assert_int_equal((uintptr_t)&GPIO_PIN_CNF(P0, 6), 0x50000718u);
	assert_int_equal((uintptr_t)&GPIO_PIN_CNF(P1, 8), 0x50000A20u);
	assert_int_equal(GPIO_PIN_CNF_PULL_UP, 0xCu);
	/* INFO.VARIANT "AAF0" = 0x41414630: build code 'F'. */
	assert_int_equal(FICR_INFO_VARIANT_BUILD(0x41414630u), 'F');
	assert_int_equal(FICR_INFO_VARIANT_BUILD(0x41414330u), 'C');
}

/* ---- UARTE BAUDRATE ---- */

static void
test_baudrate_matches_the_ps_table_for_every_listed_rate(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N_PS; i++) {
		uint32_t b = ps_table[i].baud;

		print_message(
			"%7u Bd: BAUDRATE 0x%08X, actual %u Bd, %+d ppm\n",
			(unsigned)b, (unsigned)nrf52_uarte_baudrate(b),
			(unsigned)nrf52_uarte_actual_baud(b),
			(int)nrf52_uarte_error_ppm(b));
		assert_int_equal(nrf52_uarte_baudrate(b), ps_table[i].reg);
		assert_int_equal(nrf52_uarte_actual_baud(b),
				 ps_table[i].actual);
		/* The PS lists the register as a multiple of 0x1000. */
		assert_int_equal(nrf52_uarte_baudrate(b) & 0xFFFu, 0);
	}
}

/* The UARTE's 115200 Bd, not the legacy UART's 0x01D7E000 (115942 Bd). */
static void test_baudrate_115200_is_the_uarte_value(void **state)
{
	(void)state;
	assert_int_equal(nrf52_uarte_baudrate(115200), 0x01D60000u);
	assert_int_not_equal(nrf52_uarte_baudrate(115200), 0x01D7E000u);
	assert_int_equal(nrf52_uarte_actual_baud(115200), 115108u);
	/* 921600 Bd: 0x0F000000 on the UARTE, 0x0EBED000 on the UART. */
	assert_int_equal(nrf52_uarte_baudrate(921600), 0x0F000000u);
}

static void test_baudrate_refuses_rates_the_ps_does_not_list(void **state)
{
	static const uint32_t bad[] = {0,      1,	300,	 600,
				       100000, 115199,	115201,	 128000,
				       500000, 2000000, 3000000, UINT32_MAX};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(nrf52_uarte_baudrate(bad[i]), 0);
		assert_int_equal(nrf52_uarte_actual_baud(bad[i]), 0);
		assert_int_equal(nrf52_uarte_error_ppm(bad[i]), INT32_MIN);
		assert_int_equal(nrf52_uarte_baud_within(bad[i]), 0);
	}
}

/* Errors from the PS's actual rates (truncated toward zero). */
static void test_baud_error_per_rate(void **state)
{
	(void)state;
	assert_int_equal(nrf52_uarte_error_ppm(115200), -798);
	assert_int_equal(nrf52_uarte_error_ppm(9600), -208);
	assert_int_equal(nrf52_uarte_error_ppm(460800), -7936);
	assert_int_equal(nrf52_uarte_error_ppm(921600), 21241);
	assert_int_equal(nrf52_uarte_error_ppm(31250), 0);
	assert_int_equal(nrf52_uarte_error_ppm(250000), 0);
	assert_int_equal(nrf52_uarte_error_ppm(1000000), 0);
}

/* Every listed rate is within 2 % except 921600 Bd (941176, +2.1 %). */
static void test_baud_within_2_percent_except_921600(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N_PS; i++) {
		uint32_t b = ps_table[i].baud;
		int32_t ppm = nrf52_uarte_error_ppm(b);
		int exact = ppm >= -20000 && ppm <= 20000;

		assert_int_equal(nrf52_uarte_baud_within(b), exact);
		assert_int_equal(nrf52_uarte_baud_within(b), b != 921600u);
	}
}

/* ---- core clock ---- */

static void test_core_clock_is_64mhz_and_nothing_else(void **state)
{
	(void)state;
	assert_int_equal(NRF52_CLOCK_HZ, 64000000u);
	assert_true(NRF52_CLOCK_SUPPORTED(64000000u));
	assert_false(NRF52_CLOCK_SUPPORTED(84000000u));
	assert_false(NRF52_CLOCK_SUPPORTED(16000000u));
	assert_false(NRF52_CLOCK_SUPPORTED(32000000u));
	assert_false(NRF52_CLOCK_SUPPORTED(0u));
}

/* ---- NVMC ICACHECNF ---- */

static void test_icachecnf_per_setting(void **state)
{
	(void)state;
	assert_int_equal(NVMC_ICACHECNF_CACHEEN, 1u << 0);
	assert_int_equal(NVMC_ICACHECNF_CACHEPROFEN, 1u << 8);
	/* On: CACHEEN only (no profiling counters); off: 0. */
	assert_int_equal(nrf52_icachecnf(1), 0x00000001u);
	assert_int_equal(nrf52_icachecnf(0), 0x00000000u);
	assert_int_equal(nrf52_icachecnf(2), NRF52_ICACHECNF_INVALID);
	assert_int_equal(nrf52_icachecnf(-1), NRF52_ICACHECNF_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_addresses_match_the_ps),
		cmocka_unit_test(
			test_baudrate_matches_the_ps_table_for_every_listed_rate),
		cmocka_unit_test(test_baudrate_115200_is_the_uarte_value),
		cmocka_unit_test(
			test_baudrate_refuses_rates_the_ps_does_not_list),
		cmocka_unit_test(test_baud_error_per_rate),
		cmocka_unit_test(test_baud_within_2_percent_except_921600),
		cmocka_unit_test(test_core_clock_is_64mhz_and_nothing_else),
		cmocka_unit_test(test_icachecnf_per_setting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
