/* qemu_mps2_an386: the board driver of the emulated board with megabytes of RAM, QEMU 7.2's mps2-an386 (Cortex-M4; pqm4's emulated platform), with the same counter and cycle model as qemu-netduino. */
#include "drivers/board/board.h"
#include "drivers/board/stm32f407.h"

static const char *const flashers[] = {"qemu", NULL};
/*
 * QEMU's machine, and 1024 ns of virtual time per instruction (icount
 * shift 10): the stub makes its instruction count from a 25 MHz timer,
 * exact only at that shift (target/boards/qemu-mps2-an386/hal.c).
 */
static const struct hil_board_flasher_arg flasher_args[] = {
	{"qemu", "mps2-an386,shift=10"},
	{NULL, NULL},
};
/* Semihosting only: the MPS2's CMSDK UARTs are not connected to the host. */
static const char *const links[] = {"semihost", NULL};

/*
 * It stands in for the STM32F4DISCOVERY (pqm4's 2022 board) as
 * qemu-netduino stands in for the Nucleo: the same clock choices, which
 * only the cycle model reads (QEMU has no clock tree here). The code sits
 * in SSRAM1 at 0, which the model prices as flash over its first MiB
 * (README.md of the target folder).
 */
const struct hil_board_driver hil_board_qemu_mps2_an386 = {
	.name = "qemu-mps2-an386",
	.summary =
		"QEMU 7.2 mps2-an386 (emulated Cortex-M4, 4 MiB code + 4 MiB data RAM): counts instructions; the cycle model estimates cycles",
	.mcu = "STM32F407VG (emulated by an Arm MPS2 AN386)",
	.emulated = 1,
	.flashers = flashers,
	.links = links,
	.clocks = hil_stm32f407_clocks,
	.cycle_profile = NULL,
	/* Dual timer 1's VALUE: the read the model brackets on. */
	.model_counter = 0x40002004u,
	.run_current = NULL,
	.run_current_missing =
		"an emulated MPS2 AN386 has no datasheet run current: it stands in for no one chip",
	.supply_v = 0,
	.flasher_args = flasher_args,
	.default_config = "configs/qemu-mps2-an386.json",
};
