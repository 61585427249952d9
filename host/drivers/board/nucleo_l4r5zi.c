/* nucleo_l4r5zi: the board driver of ST's Nucleo-L4R5ZI (STM32L4R5ZI, Cortex-M4F at up to 120 MHz, 2 MiB flash, 640 KiB SRAM; pqm4's default board since 2024), programmed through its ST-LINK. */
#include "drivers/board/board.h"

/* pyOCD is not listed: its chip checks (pyocd_chip.c) do not know the L4R5. */
static const char *const flashers[] = {"openocd", NULL};
static const struct hil_board_flasher_arg flasher_args[] = {
	/* Debian 12's OpenOCD: ST-LINK (hla_swd) and target/stm32l4x.cfg,
	 * whose flash driver knows the L4+ (DEV_ID 0x470). */
	{"openocd", "board/st_nucleo_l4.cfg"},
	{NULL, NULL},
};

/* LPUART1 on PG7/PG8 is the ST-LINK's virtual COM port on this Nucleo-144. */
static const char *const links[] = {"serial", NULL};

/*
 * The clocks target/boards/nucleo-l4r5zi sets (clock_math.h), from HSI16.
 * Wait states from RM0432's table of flash read latency against HCLK
 * (§3.3.3 "Read access latency"; ST's LL driver stm32l4xx_ll_utils.c
 * tabulates the same for the L4R/L4S): 0 WS up to 20 MHz, one more per
 * 20 MHz, 5 WS from 100 up to 120 MHz, voltage range 1; above 80 MHz only
 * in range 1 boost mode (PWR_CR5.R1MODE = 0, "Dynamic voltage scaling
 * management"). The board code turns the
 * instruction and data caches on at every clock and prefetch on above
 * 0 WS. 20 MHz is first, the default: pqm4's benchmark setting (20 MHz,
 * 0 WS).
 */
static const struct hil_clock_profile clocks[] = {
	{.hz = 20000000,
	 .wait_states = 0,
	 .cache = 1,
	 .source = "RM0432 §3.3.3 wait states vs HCLK, range 1"},
	{.hz = 120000000,
	 .wait_states = 5,
	 .cache = 1,
	 .source = "RM0432 §3.3.3 wait states vs HCLK, range 1 boost"},
	{.hz = 0},
};

const struct hil_board_driver hil_board_nucleo_l4r5zi = {
	.name = "nucleo-l4r5zi",
	.summary =
		"ST Nucleo-L4R5ZI: STM32L4R5ZI, Cortex-M4F, DWT cycle counter, LPUART1 on the ST-LINK VCP",
	.mcu = "STM32L4R5ZI",
	.emulated = 0,
	.flashers = flashers,
	.links = links,
	.clocks = clocks,
	/* RM0432's ART geometry was not read where this was written: no
	 * profile, the model takes the clock's wait states (at pqm4's 0 WS a
	 * miss costs nothing, so the geometry does not matter there). */
	.cycle_profile = NULL,
	/* DS12023's run-current table is not transcribed: no estimate. */
	.run_current = NULL,
	.run_current_missing =
		"the STM32L4R5 datasheet's run-current tables (DS12023) are not transcribed",
	.supply_v = 3.3,
	.flasher_args = flasher_args,
	.port_by_id = "usb-STMicroelectronics_STM32_STLink_<serial>-if02",
	.flash_state = hil_stm32_flash_acr,
	.default_config = "configs/nucleo-l4r5zi.json",
};
