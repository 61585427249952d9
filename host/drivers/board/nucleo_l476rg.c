/* nucleo_l476rg: the board driver of ST's Nucleo-L476RG (STM32L476RG, Cortex-M4F at up to 80 MHz, the lower-power STM32), programmed through its ST-LINK. */
#include "drivers/board/board.h"

static const char *const flashers[] = {"openocd", "pyocd", NULL};
static const struct hil_board_flasher_arg flasher_args[] = {
	{"openocd", "board/st_nucleo_l4.cfg"},
	/* pyOCD 0.13.1 has no L476 target; the L475's (same die, DEV_ID
	 * 0x415, same 1 MiB flash and flash algorithm) drives it. */
	{"pyocd", "stm32l475xg"},
	{NULL, NULL},
};

/* USART2 on PA2/PA3 is the ST-LINK's virtual COM port. */
static const char *const links[] = {"serial", NULL};

/*
 * The clocks target/boards/nucleo-l476rg sets (clock_math.h), all from
 * HSI16 in voltage range 1. Wait states from RM0351's table of flash
 * read latency against HCLK in range 1 (0 WS to 16 MHz, 1 to 32, ..., 4 to
 * 80); the board code turns the instruction and data caches on at every
 * clock (FLASH_ACR ICEN/DCEN) and prefetch on above 0 WS. 80 MHz is the
 * default: the chip cannot run the F401's 84.
 */
static const struct hil_clock_profile clocks[] = {
	{.hz = 80000000,
	 .wait_states = 4,
	 .cache = 1,
	 .prefetch = 1,
	 .source = "RM0351 flash read latency table, range 1"},
	{.hz = 24000000,
	 .wait_states = 1,
	 .cache = 1,
	 .prefetch = 1,
	 .source = "RM0351 flash read latency table, range 1"},
	{.hz = 16000000,
	 .wait_states = 0,
	 .cache = 1,
	 .source = "RM0351 flash read latency table, range 1"},
	{.hz = 0},
};

const struct hil_board_driver hil_board_nucleo_l476rg = {
	.name = "nucleo-l476rg",
	.summary =
		"ST Nucleo-L476RG: STM32L476RG, Cortex-M4F, DWT cycle counter, USART2 on the ST-LINK VCP",
	.mcu = "STM32L476RG",
	.emulated = 0,
	.flashers = flashers,
	.links = links,
	.clocks = clocks,
	/* RM0351's ART (its cache geometry) was not read where the profiles
	 * were written: no profile, the model takes the clock's wait states
	 * (docs/cycle-model.md, "Memory-system profiles"). */
	.cycle_profile = NULL,
	/* DS10198's run-current tables: no readable copy was found (stored
	 * search of DS10198, December 2026: only other STM32L datasheets'
	 * pages and headline figures): no estimate. */
	.run_current = NULL,
	.run_current_missing =
		"the STM32L476 datasheet's run-current tables (DS10198) were not available to transcribe",
	.supply_v = 3.3,
	.flasher_args = flasher_args,
	.port_by_id = "usb-STMicroelectronics_STM32_STLink_<serial>-if02",
	.flash_state = hil_stm32_flash_acr,
	.default_config = "configs/nucleo-l476rg.json",
};
