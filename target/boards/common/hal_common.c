/* hal_common: the hal.h functions that are identical on every STM32F4 board (core, USART2, linker symbols, UID). */
#include <stdint.h>

#include "hal.h"
#include "hilp.h"
#include "regs.h"
#include "usart_rx.h"

/* stm32f401re.ld */
extern uint8_t __stack_bottom[], __stack_top[];
extern const uint8_t __build_id_start[], __build_id_end[];

#define NT_GNU_BUILD_ID 3u
#define NOTE_HDR	12u	    /* namesz, descsz, type */
#define NOTE_GNU	0x00554E47u /* "GNU\0" read as a little-endian word */
#define RESET_TX_WAIT	200000u	    /* > 10 bit times at 9600 Bd and 168 MHz */
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
void hal_irq_off(void)
{
	__asm volatile("cpsid i" ::: "memory");
}

void hal_irq_on(void)
{
	__asm volatile("cpsie i" ::: "memory");
}

uintptr_t hal_stack_bottom(void)
{
	return (uintptr_t)__stack_bottom;
}

uintptr_t hal_stack_top(void)
{
	return (uintptr_t)__stack_top;
}

uintptr_t hal_stack_pointer(void)
{
	uintptr_t sp;

	__asm volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

/*
 * ELF note (the section holds exactly one when linked with --build-id):
 * namesz = 4, descsz, type = NT_GNU_BUILD_ID, "GNU\0", desc[descsz].
 * The linker script aligns the section to 4, so the header is read as
 * words (little-endian: "GNU\0" is NOTE_GNU). Anything else (no note,
 * another note, an id longer than the protocol carries) returns 0 rather
 * than a truncated id that could never match.
 */
const uint8_t *hal_build_id(uint8_t *len)
{
	const uint32_t *n = (const uint32_t *)(uintptr_t)__build_id_start;
	uint32_t size = (uint32_t)(__build_id_end - __build_id_start);
	uint32_t descsz;

	*len = 0;
	if (size < NOTE_HDR + 4u || n[0] != 4u || n[2] != NT_GNU_BUILD_ID ||
	    n[3] != NOTE_GNU) {
		return 0;
	}
	descsz = n[1];
	if (descsz == 0u || descsz > 20u || descsz > size - (NOTE_HDR + 4u)) {
		return 0;
	}
	*len = (uint8_t)descsz;
	return __build_id_start + NOTE_HDR + 4u;
}

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
