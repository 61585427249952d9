/* nucleo_f401re: the board driver of ST's Nucleo-F401RE (STM32F401RE, Cortex-M4 at up to 84 MHz), programmed through its ST-LINK. */
#include "drivers/board/board.h"
#include "drivers/board/stm32f401.h"

static const char *const flashers[] = {"openocd", NULL};
static const struct hil_board_flasher_arg flasher_args[] = {
	{"openocd", "board/st_nucleo_f4.cfg"},
	{NULL, NULL},
};

/* USART2 on PA2/PA3 is the ST-LINK's virtual COM port. */
static const char *const links[] = {"serial", NULL};

const struct hil_board_driver hil_board_nucleo_f401re = {
	.name = "nucleo-f401re",
	.summary =
		"ST Nucleo-F401RE: STM32F401RE, Cortex-M4, DWT cycle counter, USART2 on the ST-LINK VCP",
	.mcu = "STM32F401RE",
	.emulated = 0,
	.flashers = flashers,
	.links = links,
	.clocks = hil_stm32f401_clocks,
	.cycle_profile = "stm32f401-art",
	.run_current = hil_stm32f401_run_current,
	.supply_v = 3.3,
	.flasher_args = flasher_args,
	.port_by_id = "usb-STMicroelectronics_STM32_STLink_<serial>-if02",
	.flash_state = hil_stm32_flash_acr,
	.default_config = "configs/nucleo.json",
};
