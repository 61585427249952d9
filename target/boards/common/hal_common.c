/* hal_common: the hal.h functions that are identical on every STM32F4 board (USART2, reset after the last byte, UID); the Cortex-M4 core ones are in hal_core.c. */
#include <stdint.h>

#include "hal.h"
#include "hilp.h"
#include "regs.h"
#include "usart_rx.h"

#define RESET_TX_WAIT 200000u /* > 10 bit times at 9600 Bd and 168 MHz */

#ifndef HAL_LINK_SEMIHOST /* built with HIL_LINK=semihost, link_semihost.c is the link */
/* Receive overruns since reset (usart_rx.h); reported in INFO. */
static uint32_t uart_overruns;

/* Both boards talk to the host on USART2 (the ST-LINK VCP; QEMU's second -serial). */
uint8_t hal_uart_getc(void)
{
	return usart_rx_getc(USART2, &uart_overruns);
}

void hal_uart_putc(uint8_t c)
{
	while (!(USART_SR(USART2) & USART_SR_TXE)) {
	}
	USART_DR(USART2) = c;
}

uint32_t hal_uart_overruns(void)
{
	return uart_overruns;
}
#endif /* HAL_LINK_SEMIHOST */

/*
 * Both boards talk on USART2: let the last byte of the reply leave the
 * shift register (TC, RM0368 §19.3.2) before the reset cuts it off. Then
 * SYSRESETREQ (ARMv7-M ARM B3.2.6), keeping PRIGROUP as the manual asks.
 */
void hal_reset(void)
{
	uint32_t n;

	for (n = 0; n < RESET_TX_WAIT; n++) {
		if (USART_SR(USART2) & USART_SR_TC) {
			break;
		}
	}
	__asm volatile("dsb" ::: "memory");
	SCB_AIRCR = SCB_AIRCR_VECTKEY | (SCB_AIRCR & SCB_AIRCR_PRIGROUP_MASK) |
		    SCB_AIRCR_SYSRESETREQ;
	__asm volatile("dsb" ::: "memory");
	for (;;) {
	}
}

#ifndef HAL_BOARD_UID /* defined by a board.mk whose hal.c has its own hal_uid() */
/* RM0368 §24.1: three words, U_ID[31:0] first; sent least significant byte first. */
void hal_uid(uint8_t uid[12])
{
	unsigned i;

	for (i = 0; i < 3u; i++) {
		hilp_put_u32(uid + 4u * i, MMIO32(UID_BASE + 4u * i));
	}
}
#endif /* HAL_BOARD_UID */
