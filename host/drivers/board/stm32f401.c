/* stm32f401: the STM32F401xD/xE's clock profiles (RM0368) and datasheet run current (DS10086), shared by the boards built on it. */
#include "drivers/board/stm32f401.h"

#include <stddef.h>

#include "drivers/board/idd.h"

/*
 * RM0368 Table 6 (number of wait states according to HCLK, 2.7-3.6 V):
 * 0 WS up to 30 MHz, 1 WS up to 64 MHz, 2 WS up to 84 MHz (DS10086 Rev 3
 * Table 15, p. 61: 84 MHz with 2 wait states at 2.7-3.6 V). The board code
 * sets 2 WS with the ART's prefetch and both caches at 84 MHz (FLASH_ACR
 * 0x702) by default, or the same without prefetch (0x602) when built with
 * HIL_PREFETCH=0 (board.prefetch false), and 0 WS with both caches but no
 * prefetch at 24 and 16 MHz (0x600: target/boards/nucleo-f401re/hal.c,
 * ACR_ON). The cycle model's profiles are the same three
 * (drivers/board/memsys.c).
 */
const struct hil_clock_profile hil_stm32f401_clocks[] = {
	{.hz = 84000000,
	 .wait_states = 2,
	 .cache = 1,
	 .prefetch = 1,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-art"},
	{.hz = 84000000,
	 .wait_states = 2,
	 .cache = 1,
	 .prefetch = 0,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-art-noprefetch"},
	{.hz = 24000000,
	 .wait_states = 0,
	 .cache = 1,
	 .prefetch = 0,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-0ws"},
	{.hz = 16000000,
	 .wait_states = 0,
	 .cache = 1,
	 .prefetch = 0,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-0ws"},
	{.hz = 0},
};

/*
 * DS10086 (STM32F401xD/xE datasheet, DocID025644 Rev 3, January 2015),
 * §6.3.6 "Supply current characteristics", p. 65, for every table below:
 * I_DD in Run mode, code with data processing, external clock 4 MHz with
 * the PLL on, f_PCLK1 = f_HCLK / 2, f_PCLK2 = f_HCLK, voltage scaling
 * Scale 3 up to 60 MHz and Scale 2 above, flash wait states as Table 15
 * (p. 61) for the supply, all I/O inputs at a static level, the code a
 * reduced one whose consumption is equivalent to CoreMark's. Typical: 25 C
 * and V_DD 3.3 V unless the table says otherwise; maximum: V_DD 3.6 V at
 * the temperature of its column. Footnotes: +1.6 mA per ADC while ADON is
 * set (the stub never turns an ADC on). Columns per point: typ 25 C, max
 * 25 / 85 / 105 C with all peripherals disabled, then the same with all
 * enabled. Figures in mA, as printed.
 */

/* Table 20 (p. 66): ART accelerator disabled, code from SRAM, V_DD 1.7 V. */
static const struct hil_idd_point t20[] = {
	{20000000u, 3.6, 3.8, 4.8, 5.8, 6.0, 6.3, 7.3, 8.3},
	{40000000u, 6.7, 7.1, 8.1, 9.1, 11.4, 11.9, 12.9, 13.9},
	{60000000u, 9.2, 10.5, 11.5, 12.8, 15.8, 16.5, 17.5, 18.7},
	{84000000u, 12.7, 13.5, 14.5, 16.3, 21.8, 23.1, 24.1, 25.3},
};

/* Table 21 (p. 66): ART accelerator disabled, code from SRAM; no V_DD in
 * its title: the section's 3.3 V for typical figures. */
static const struct hil_idd_point t21[] = {
	{20000000u, 3.8, 4.0, 5.0, 6.0, 6.2, 6.5, 7.5, 8.5},
	{40000000u, 6.9, 7.3, 8.3, 9.3, 11.6, 12.1, 13.1, 14.1},
	{60000000u, 9.5, 10.5, 11.5, 12.8, 16.0, 16.9, 17.9, 19.8},
	{84000000u, 12.9, 14.0, 15.0, 16.3, 22.0, 23.1, 24.1, 25.3},
};

/* Table 22 (p. 67): from flash, ART accelerator on except prefetch,
 * V_DD 1.7 V. */
static const struct hil_idd_point t22[] = {
	{20000000u, 4.0, 5.1, 6.1, 7.2, 6.9, 8.0, 9.0, 10.1},
	{30000000u, 4.9, 6.2, 7.2, 8.3, 8.8, 10.0, 11.1, 12.2},
	{40000000u, 6.0, 7.3, 8.3, 9.4, 10.8, 12.1, 13.2, 14.2},
	{60000000u, 8.2, 9.4, 10.5, 11.5, 15.1, 16.3, 17.4, 18.4},
	{84000000u, 12.3, 13.6, 14.7, 15.7, 23.2, 24.5, 25.6, 26.6},
};

/* Table 23 (p. 67): from flash, ART accelerator on except prefetch,
 * V_DD 3.3 V. */
static const struct hil_idd_point t23[] = {
	{20000000u, 4.2, 5.3, 6.3, 7.4, 7.1, 8.2, 9.2, 10.3},
	{30000000u, 5.1, 6.4, 7.4, 8.5, 9.0, 10.2, 11.3, 12.4},
	{40000000u, 6.2, 7.5, 8.5, 9.6, 11.0, 12.3, 13.4, 14.4},
	{60000000u, 8.4, 9.6, 10.7, 11.7, 15.3, 16.5, 17.6, 18.6},
	{84000000u, 12.5, 13.8, 14.9, 15.9, 23.4, 24.7, 25.8, 26.8},
};

/* Table 24 (p. 68): from flash, ART accelerator disabled; no V_DD in its
 * title: the section's 3.3 V for typical figures. */
static const struct hil_idd_point t24[] = {
	{20000000u, 6.9, 7.2, 8.2, 9.2, 9.8, 10.1, 11.1, 12.1},
	{30000000u, 8.8, 9.2, 10.2, 11.2, 12.6, 13.1, 14.1, 15.1},
	{40000000u, 10.6, 11.2, 12.2, 13.3, 15.5, 16.1, 17.1, 18.1},
	{60000000u, 14.9, 15.3, 16.3, 17.3, 21.7, 22.1, 23.2, 24.2},
	{84000000u, 20.2, 21.3, 23.4, 25.4, 31.1, 32.2, 34.3, 36.3},
};

/* Table 25 (p. 68): from flash, ART accelerator on with prefetch; no V_DD
 * in its title: the section's 3.3 V for typical figures. */
static const struct hil_idd_point t25[] = {
	{20000000u, 7.3, 8.2, 9.2, 10.2, 10.2, 11.1, 12.1, 13.1},
	{30000000u, 9.0, 10.2, 11.2, 12.3, 12.9, 14.1, 15.1, 16.1},
	{40000000u, 11.2, 12.3, 13.3, 14.3, 16.0, 17.1, 18.1, 19.2},
	{60000000u, 15.3, 16.4, 17.4, 18.4, 22.2, 23.3, 24.3, 25.3},
	{84000000u, 21.6, 22.4, 23.5, 24.5, 32.5, 33.3, 34.3, 35.4},
};

#define NPTS(a) (sizeof(a) / sizeof((a)[0]))
#define DS	"STM32F401xD/xE datasheet DS10086 (DocID025644 Rev 3)"
#define COMMON                                                                  \
	"external clock 4 MHz with the PLL on, f_PCLK1 = f_HCLK/2, voltage "    \
	"scaling 3 up to 60 MHz and 2 above, code equivalent to CoreMark's in " \
	"consumption; the stub clocks only USART2, GPIOA and its counter, "     \
	"idle while an operation runs, so all peripherals disabled is the "     \
	"estimate"

const struct hil_idd_table hil_stm32f401_t20 = {
	.chip = "STM32F401xD/xE",
	.source = DS ", Table 20, p. 66: I_DD in Run mode, code from SRAM, "
		     "ART accelerator disabled, V_DD 1.7 V",
	.table = "DS10086 Rev 3 Table 20 (p. 66)",
	.conditions = "code from SRAM, ART off, V_DD 1.7 V; " COMMON,
	.vdd = 1.7,
	.art = 0,
	.prefetch = 0,
	.sram = 1,
	.pts = t20,
	.n = NPTS(t20),
};

const struct hil_idd_table hil_stm32f401_t21 = {
	.chip = "STM32F401xD/xE",
	.source = DS ", Table 21, p. 66: I_DD in Run mode, code from SRAM, "
		     "ART accelerator disabled, V_DD 3.3 V (typ)",
	.table = "DS10086 Rev 3 Table 21 (p. 66)",
	.conditions = "code from SRAM, ART off; " COMMON,
	.vdd = 3.3,
	.art = 0,
	.prefetch = 0,
	.sram = 1,
	.pts = t21,
	.n = NPTS(t21),
};

const struct hil_idd_table hil_stm32f401_t22 = {
	.chip = "STM32F401xD/xE",
	.source = DS ", Table 22, p. 67: I_DD in Run mode, code from flash, "
		     "ART accelerator on except prefetch, V_DD 1.7 V",
	.table = "DS10086 Rev 3 Table 22 (p. 67)",
	.conditions =
		"code from flash, ART on, prefetch off, V_DD 1.7 V; " COMMON,
	.vdd = 1.7,
	.art = 1,
	.prefetch = 0,
	.sram = 0,
	.pts = t22,
	.n = NPTS(t22),
};

const struct hil_idd_table hil_stm32f401_t23 = {
	.chip = "STM32F401xD/xE",
	.source = DS ", Table 23, p. 67: I_DD in Run mode, code from flash, "
		     "ART accelerator on except prefetch, V_DD 3.3 V",
	.table = "DS10086 Rev 3 Table 23 (p. 67)",
	.conditions = "code from flash, ART on, prefetch off; " COMMON,
	.vdd = 3.3,
	.art = 1,
	.prefetch = 0,
	.sram = 0,
	.pts = t23,
	.n = NPTS(t23),
};

const struct hil_idd_table hil_stm32f401_t24 = {
	.chip = "STM32F401xD/xE",
	.source = DS ", Table 24, p. 68: I_DD in Run mode, code from flash, "
		     "ART accelerator disabled, V_DD 3.3 V (typ)",
	.table = "DS10086 Rev 3 Table 24 (p. 68)",
	.conditions =
		"code from flash, ART off (no caches, no prefetch); " COMMON,
	.vdd = 3.3,
	.art = 0,
	.prefetch = 0,
	.sram = 0,
	.pts = t24,
	.n = NPTS(t24),
};

const struct hil_idd_table hil_stm32f401_t25 = {
	.chip = "STM32F401xD/xE",
	.source = DS ", Table 25, p. 68: I_DD in Run mode, code from flash, "
		     "ART accelerator on with prefetch, V_DD 3.3 V (typ)",
	.table = "DS10086 Rev 3 Table 25 (p. 68)",
	.conditions = "code from flash, ART on with prefetch; " COMMON,
	.vdd = 3.3,
	.art = 1,
	.prefetch = 1,
	.sram = 0,
	.pts = t25,
	.n = NPTS(t25),
};

const struct hil_idd_table *const hil_stm32f401_run_current[] = {
	&hil_stm32f401_t25,
	&hil_stm32f401_t23,
	&hil_stm32f401_t24,
	&hil_stm32f401_t22,
	&hil_stm32f401_t21,
	&hil_stm32f401_t20,
	NULL,
};
