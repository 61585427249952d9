/* stm32f401: the STM32F401xD/xE's clock profiles (RM0368) and datasheet run current (DS10086), shared by the boards built on it. */
#include "drivers/board/stm32f401.h"

#include <stddef.h>

#include "run/energyest.h"

/*
 * RM0368 Table 6 (number of wait states according to HCLK, 2.7-3.6 V):
 * 0 WS up to 30 MHz, 1 WS up to 64 MHz, 2 WS up to 84 MHz. The board code
 * sets 2 WS with the ART's prefetch and both caches at 84 MHz (FLASH_ACR
 * 0x702), and 0 WS with both caches but no prefetch at 24 and 16 MHz
 * (0x600: target/boards/nucleo-f401re/hal.c, ACR_ON). The cycle model's
 * profiles are the same two (emu/plugin/memsys.c).
 */
const struct hil_clock_profile hil_stm32f401_clocks[] = {
	{.hz = 84000000,
	 .wait_states = 2,
	 .cache = 1,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-art"},
	{.hz = 24000000,
	 .wait_states = 0,
	 .cache = 1,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-0ws"},
	{.hz = 16000000,
	 .wait_states = 0,
	 .cache = 1,
	 .source = "RM0368 Table 6, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-0ws"},
	{.hz = 0},
};

/*
 * The row wanted is DS10086's typical I_DD in Run mode, code with data
 * processing from flash, ART accelerator on, all peripherals disabled,
 * V_DD 3.3 V, 25 C: the stub clocks only USART2, GPIOA and its counter,
 * and none of them works while an operation runs. The figures are not
 * transcribed: the datasheet's table could not be read where this was
 * written (docs/method.md, "Energy estimated from the datasheet"). Until
 * they are, every row says so instead of a number.
 */
const struct hil_idd_table hil_stm32f401_run_current = {
	.chip = "STM32F401xD/xE",
	.source =
		"STM32F401xD/xE datasheet DS10086: I_DD, Run mode, code with data processing from flash, ART accelerator on, all peripherals disabled, typ, 25 C",
	.conditions =
		"code from flash with the ART accelerator on, all peripherals disabled (the stub clocks only USART2, GPIOA and its counter, idle while an operation runs), 25 C",
	.vdd = 3.3,
	.pts = NULL,
	.n = 0,
	.missing =
		"the STM32F401 datasheet's run-current figures (DS10086, I_DD in Run mode) are not transcribed yet: see docs/method.md",
};
