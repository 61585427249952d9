/* qemu_netduino: the board driver of the emulated board, QEMU 7.2's netduinoplus2 (STM32F405 model) running the same stub as the Nucleo. */
#include "drivers/board/board.h"
#include "drivers/board/stm32f401.h"

static const char *const flashers[] = {"qemu", NULL};
/*
 * Semihosting on QEMU's stdio first: a whole frame per call and no CPU
 * burnt while the stub waits (docs/protocol.md, "Transports"). "socket"
 * is USART2 on a unix socket (libserialport cannot open QEMU's pty), the
 * path the real boards' code takes.
 */
static const char *const links[] = {"semihost", "socket", NULL};

/*
 * It stands in for the Nucleo-F401RE: the same clock choices (only the
 * cycle model's flash profile reads them; QEMU has no clock tree) and the
 * same chip's run current for an energy estimate.
 */
const struct hil_board_driver hil_board_qemu_netduino = {
	.name = "qemu-netduino",
	.summary =
		"QEMU 7.2 netduinoplus2 (emulated STM32F4, Cortex-M4): counts instructions; the cycle model estimates cycles",
	.mcu = "STM32F401RE (emulated by an STM32F405 model)",
	.emulated = 1,
	.flashers = flashers,
	.links = links,
	.clocks = hil_stm32f401_clocks,
	/* The F401's memory system, not the emulated F405's: the model
	 * estimates the Nucleo. */
	.cycle_profile = "stm32f401-art",
	.run_current = hil_stm32f401_run_current,
	.supply_v = 3.3,
	.default_config = "configs/qemu.json",
};
