/* stm32f407: the STM32F407VG's clock profiles (RM0090), shared by the boards built on it. */
#include "drivers/board/stm32f407.h"

#include <stddef.h>

/*
 * RM0090 Rev 19 §3.5.1, Table 10 (number of wait states according to
 * HCLK, 2.7-3.6 V): 0 WS up to 30 MHz, then one more per 30 MHz: 5 WS
 * from 150 up to 168 MHz. target/boards/stm32f4discovery sets:
 * - 24 MHz, 0 WS, I- and D-cache on, no prefetch (FLASH_ACR 0x600):
 *   pqm4's benchmark setting ("24 MHz to avoid wait cycles", pqm4's
 *   2022 table); pqm4 also leaves ICEN/DCEN on. The cycle model's
 *   stm32f401-0ws profile is exactly this: its geometry (64 x 128-bit
 *   I-cache lines, 8 D-cache lines, 128-bit flash line) is sourced from
 *   RM0090 §3.5.2, this chip's own manual, and at 0 WS a miss costs
 *   nothing.
 * - 168 MHz, 5 WS, prefetch and both caches on (FLASH_ACR 0x705), Scale 1
 *   (PWR_CR.VOS, its reset value on the F405/F407: RM0090 §5.4.1). The
 *   model has no named profile for it: with none, it takes the clock's
 *   5 WS with the ART on, i.e. the same RM0090 geometry at 5 WS
 *   (docs/cycle-model.md, "How the config keys combine").
 * 24 MHz is first, the default: these boards are here for pqm4's tables.
 */
const struct hil_clock_profile hil_stm32f407_clocks[] = {
	{.hz = 24000000,
	 .wait_states = 0,
	 .cache = 1,
	 .source = "RM0090 Table 10, 2.7-3.6 V",
	 .cycle_profile = "stm32f401-0ws"},
	{.hz = 168000000,
	 .wait_states = 5,
	 .cache = 1,
	 .source = "RM0090 Table 10, 2.7-3.6 V",
	 .cycle_profile = NULL},
	{.hz = 0},
};
