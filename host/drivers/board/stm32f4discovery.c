/* stm32f4discovery: the board driver of ST's STM32F4DISCOVERY (STM32F407VG, Cortex-M4F at up to 168 MHz; the board of pqm4's 2022 table), programmed through its ST-LINK/V2. */
#include "drivers/board/board.h"
#include "drivers/board/stm32f407.h"

/* pyOCD is not listed: its chip checks (pyocd_chip.c) do not know the F407. */
static const char *const flashers[] = {"openocd", NULL};
static const struct hil_board_flasher_arg flasher_args[] = {
	/* Debian 12's OpenOCD board file for this board: ST-LINK (hla_swd),
	 * target/stm32f4x.cfg, SRST only. */
	{"openocd", "board/stm32f4discovery.cfg"},
	{NULL, NULL},
};

/*
 * USART2 on PA2 (TX) / PA3 (RX) through a USB-serial adapter, as pqm4
 * wires it: the MB997's ST-LINK/V2 has no virtual COM port (later
 * revisions' ST-LINK/V2-A do, on the same pins).
 */
static const char *const links[] = {"serial", NULL};

const struct hil_board_driver hil_board_stm32f4discovery = {
	.name = "stm32f4discovery",
	.summary =
		"ST STM32F4DISCOVERY: STM32F407VG, Cortex-M4F, DWT cycle counter, USART2 on PA2/PA3 (USB-serial adapter)",
	.mcu = "STM32F407VG",
	.emulated = 0,
	.flashers = flashers,
	.links = links,
	.clocks = hil_stm32f407_clocks,
	/* Per clock (stm32f407.c); none for the board as a whole. */
	.cycle_profile = NULL,
	/* DS8626's run-current table is not transcribed: no estimate. */
	.run_current = NULL,
	.run_current_missing =
		"the STM32F407 datasheet's run-current tables (DS8626) are not transcribed",
	.supply_v = 3.0,
	.flasher_args = flasher_args,
	/* The USB-serial adapter's, not ST's; an FTDI cable's looks so. */
	.port_by_id =
		"usb-FTDI_TTL232R-3V3_<serial>-if00-port0 (a USB-serial adapter on PA2/PA3)",
	.flash_state = hil_stm32_flash_acr,
	.default_config = "configs/stm32f4discovery.json",
};
