/* nrf52840_dk: the board driver of Nordic's nRF52840-DK (nRF52840, Cortex-M4F at 64 MHz), programmed through its on-board J-Link. */
#include "drivers/board/board.h"

static const char *const flashers[] = {"openocd", "pyocd", NULL};
static const struct hil_board_flasher_arg flasher_args[] = {
	{"openocd", "board/nordic_nrf52_dk.cfg"},
	{"pyocd", "nrf52840"},
	{NULL, NULL},
};

/* UARTE0 on P0.06/P0.08, the J-Link's virtual COM port. */
static const char *const links[] = {"serial", NULL};

/*
 * One clock: the 64 MHz HFCLK from the HFXO (the chip has no PLL to
 * choose). The flash behind the NVMC instruction cache (ICACHECNF, on by
 * default in this board's build) is not characterised in wait states by
 * the Product Specification as far as this was checked: the figures are
 * marked unverified in target/boards/nrf52840-dk/clock_math.h, and the
 * cycle model's nrf52840-icache and nrf52840-nocache profiles say so;
 * nrf52840-cal fits them to published counts.
 */
/*
 * The stub reports NVMC ICACHECNF in the flash_acr field: CACHEEN is bit 0
 * (nRF52840 PS, NVMC). The flash has no wait-state, prefetch or data-cache
 * setting to report.
 */
static void flash_state(uint32_t reg, struct hil_flash_state *out)
{
	out->wait_states = -1;
	out->prefetch = -1;
	out->icache = (int)(reg & 1u);
	out->dcache = -1;
}

static const struct hil_clock_profile clocks[] = {
	{.hz = 64000000,
	 .wait_states = 0,
	 .cache = 1,
	 .source =
		 "nRF52840 PS, CLOCK (HFXO 64 MHz) and NVMC ICACHECNF; flash timing unverified"},
	{.hz = 0},
};

const struct hil_board_driver hil_board_nrf52840_dk = {
	.name = "nrf52840-dk",
	.summary =
		"Nordic nRF52840-DK: nRF52840, Cortex-M4F at 64 MHz, DWT cycle counter, UARTE0 on the J-Link VCOM",
	.mcu = "nRF52840",
	.emulated = 0,
	.flashers = flashers,
	.links = links,
	.clocks = clocks,
	/* HIL_ICACHE=1, the board's default build, as calibrated on the
	 * NIST LWC Nano 33 BLE counts (its estimates carry an error bar);
	 * nrf52840-icache (uncalibrated) and nrf52840-nocache (HIL_ICACHE=0)
	 * stay selectable with cycle_model.profile. */
	.cycle_profile = "nrf52840-cal",
	/* The Product Specification's "CPU running" table: only its title
	 * in the page index was found, never its figures: no estimate. */
	.run_current = NULL,
	.run_current_missing =
		"the nRF52840 Product Specification's CPU-running current table was not available to transcribe",
	/* OpenOCD 0.12's board file: interface/jlink.cfg, SWD, target/nrf52.cfg. */
	.flasher_args = flasher_args,
	.port_by_id = "usb-SEGGER_J-Link_<serial>-if00",
	.flash_state = flash_state,
	.default_config = "configs/nrf52840-dk.json",
};
