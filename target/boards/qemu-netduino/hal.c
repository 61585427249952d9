/* hal for QEMU 7.2 `-M netduinoplus2` (STM32F405 model): USART2 link, TIM2 as an instruction counter. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs.h"

/*
 * What QEMU 7.2 models on this machine (measured):
 * - RCC, GPIO and the flash interface are "unimplemented devices": they
 *   read 0 and ignore writes. So there is no clock setup here at all: a
 *   wait for HSIRDY/PLLRDY would never end. Peripheral clocks need no enable.
 * - USART2 (the second -serial) ignores BRR and drops every byte received
 *   before CR1.UE and CR1.RE are set: the host handshakes, never assumes.
 * - TIM2 is clocked at 1 GHz of virtual time. Under
 *   `-icount shift=0,align=off,sleep=off` one instruction is 1 ns, so CNT
 *   counts executed instructions exactly and reproducibly.
 * - DWT->CYCCNT reads 0.
 */

uint8_t hal_init(void)
{
	/* 8N1; BRR as for 115200 Bd from a 42 MHz APB1 (ignored by QEMU, harmless). */
	USART_CR1(USART2) = 0;
	USART_CR2(USART2) = 0;
	USART_CR3(USART2) = 0;
	USART_BRR(USART2) = 365u;
	USART_CR1(USART2) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;

	/* Free-running 32-bit up-counter, no prescaler (RM0090 §18.3). */
	TIM2_CR1 = 0;
	TIM2_PSC = 0;
	TIM2_ARR = 0xFFFFFFFFu;
	TIM2_EGR = TIM_EGR_UG; /* load PSC/ARR now, CNT = 0 */
	TIM2_SR = 0;
	TIM2_CR1 = TIM_CR1_CEN;
	return HILP_ST_OK;
}

/* hal_uart_getc/putc: hal_common.c, as on the Nucleo (QEMU never sets ORE). */

uint32_t hal_counter_read(void)
{
	return TIM2_CNT;
}

/* TIM2 runs from hal_init on; no debugger can stop it here. */
void hal_counter_arm(void)
{
}

/*
 * clock_hz is 0, not the F405's nominal 168 MHz: the count is of emulated
 * instructions, with no time base and no wait states or pipeline, so no
 * figure derived from a clock (time, energy) would mean anything. The host
 * treats 0 as "unknown" and the EMULATED flag says why.
 */
void hal_counter_info(struct hal_counter_info *info)
{
	info->unit = HILP_UNIT_INSTRUCTIONS_EMU;
	info->counter_hz = 0;
	info->clock_hz = 0;
	info->flash_acr = 0;
	info->flags = HILP_INFO_EMULATED;
}

/*
 * QEMU 7.2 maps nothing at the UID address 0x1FFF7A10: a read takes a
 * precise BusFault (measured: CFSR 0x8200, BFAR 0x1FFF7A10, escalated to
 * HardFault). board.mk defines HAL_BOARD_UID so hal_common.c leaves this
 * to us, and we report twelve zero bytes: no real STM32 has that UID, so
 * the host can read it as "none".
 */
void hal_uid(uint8_t uid[12])
{
	unsigned i;

	for (i = 0; i < 12u; i++) {
		uid[i] = 0;
	}
}

/* GPIO is not modelled by QEMU on this machine, and nothing could watch the pin. */
void hal_trigger(int on)
{
	(void)on;
}

const char *hal_board_name(void)
{
	return "qemu-netduino";
}
