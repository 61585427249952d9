/* stm32l4_hal: the step loop, UART set-up and the hal_init, UART, reset, UID, counter-info and trigger functions that the STM32L4 boards' hal.c share, included by it in place. */
#ifndef STM32L4_HAL_H
#define STM32L4_HAL_H

#include <stdint.h>

#include "hal.h"
#include "hilp.h"

/*
 * Written once for the NUCLEO-L476RG (USART2) and the NUCLEO-L4R5ZI
 * (LPUART1, which has the USART's register layout), included by their
 * hal.c after their init_steps.h and before hal_board_name, where this
 * code used to stand, so that each board's image is what it was. The
 * including file defines: UART (the port to the ST-LINK VCP), BRR_RUN,
 * BRR_RUN_OK (1 where every rate that builds is close enough), BRR_HSI,
 * CLOCK_WAIT, RESET_TX_WAIT, and with BOOST (init_steps.h) BOOST_WAIT;
 * init_steps.h gives the tables, TO_HSI, HSI_HZ, TRIGGER_PORT and
 * TRIGGER_PIN.
 */

/*
 * Apply step[0..n) to the registers at base (init_steps.h).
 * @return 1, or 0 at the first status that did not follow in time.
 */
static int reg_apply(uint32_t base, const struct reg_step *step, uint32_t n)
{
	for (; n != 0u; n--, step++) {
		uint32_t f = step->flags;
		volatile uint32_t *reg = &MMIO32(base + 4u * step->reg);
		uint32_t clear = step_clear(step), set = step_set(step);
		uint32_t mask, want, polls;

		if (!(f & NO_WRITE)) {
			*reg = (*reg & ~clear) | set;
			/* Every write completes before the next access (clock enables). */
			__asm volatile("dsb" ::: "memory");
		}
		if (!(f & POLL)) {
			continue;
		}
		mask = (clear | set) << (f & 3u);
		want = set << (f & 3u);
		for (polls = CLOCK_WAIT; (*reg & mask) != want; polls--) {
			if (polls == 0u) {
				return 0;
			}
		}
	}
	return 1;
}

/* RM0351 USART / RM0432 LPUART chapter: disabled (UE = 0) while configured, then 8N1 on. */
static void usart_init(uint32_t brr)
{
	/* Its clock came on with clock_steps. */
	USART_CR1(UART) = 0;
	/*
	 * CR2 and CR3 keep their reset value 0 (every reset, SYSRESETREQ
	 * included, resets the UART; nothing else here writes them): 1 stop
	 * bit, no flow control, overrun detection on (OVRDIS = 0), and on the
	 * L4R5's LPUART1 FIFO off (CR1.FIFOEN = 0). Not writing them keeps the
	 * image within the stub's footprint budget.
	 */
	USART_BRR(UART) = brr;
	USART_CR1(UART) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;
}

/*
 * Clock first; after a timeout back to the HSI16 (a flash latency left
 * higher than needed is safe at 16 MHz) so that the UART still works to
 * report HILP_ST_CLOCK. Then the DWT cycle counter (ARMv7-M ARM C1.8 DWT,
 * C1.6.5 DEMCR): TRCENA powers the DWT; NOCYCCNT = 1 would mean this core
 * has no CYCCNT. SysTick is stopped: the stub takes no interrupts and
 * nothing else may run inside a window.
 */
uint8_t hal_init(void)
{
	uint8_t st = BRR_RUN_OK ? HILP_ST_OK : HILP_ST_BAD_ARG;
	uint32_t brr = BRR_RUN;

	if (!reg_apply(PERIPH_BASE_APB1, clock_steps, CLOCK_STEPS)) {
		(void)reg_apply(PERIPH_BASE_APB1, clock_steps, TO_HSI);
		st = HILP_ST_CLOCK;
		brr = BRR_HSI;
	}
#if BOOST
	{
		uint32_t n;

		/* At least 1 us at HCLK = SYSCLK / 2 (or the HSI16 / 2 after
		 * a fallback), then the full clock. */
		for (n = BOOST_WAIT; n != 0u; n--) {
			__asm volatile("" ::: "memory");
		}
		RCC_CFGR &= ~RCC_CFGR_HPRE_MASK;
	}
#endif
	(void)reg_apply(GPIOA_BASE, gpio_steps, GPIO_STEPS);
	usart_init(brr);

	SYST_CSR = 0;
	hal_counter_arm();
	if (DWT_CTRL & DWT_CTRL_NOCYCCNT) {
		return st == HILP_ST_OK ? HILP_ST_UNSUPPORTED : st;
	}
	DWT_CYCCNT = 0;
	return st;
}

/* Receive overruns since reset; reported in INFO. */
static uint32_t uart_overruns;

/*
 * Wait for a received byte; count and clear overruns. This USART is not
 * the F4's (common/usart_rx.h): ORE is cleared only by writing ORECF to
 * USART_ICR, not by reading the data register, and while ORE is set the
 * receiver delivers no further RXNE, so a loop that only waited for RXNE
 * would hang for good after one overrun (RM0351 USART, RM0432 LPUART
 * "Overrun error";
 * the F4's ORE behaves alike, which is why usart_rx.h exists). When ORE
 * is set with RXNE, RDR still holds the byte received before the lost
 * one(s): it is returned, the framing (CRC, COBS) rejects the damaged
 * frame and the host retries. OVRDIS stays 0 so that overruns are seen.
 */
uint8_t hal_uart_getc(void)
{
	for (;;) {
		uint32_t isr = USART_ISR(UART);

		if (isr & USART_ISR_ORE) {
			USART_ICR(UART) = USART_ICR_ORECF;
			uart_overruns++;
		}
		if (isr & USART_ISR_RXNE) {
			return (uint8_t)USART_RDR(UART);
		}
	}
}

void hal_uart_putc(uint8_t c)
{
	while (!(USART_ISR(UART) & USART_ISR_TXE)) {
	}
	USART_TDR(UART) = c;
}

uint32_t hal_uart_overruns(void)
{
	return uart_overruns;
}

/*
 * Let the last byte of the reply leave the shift register (ISR.TC) before
 * the reset cuts it off, bounded; then SYSRESETREQ (ARMv7-M ARM B3.2.6),
 * keeping PRIGROUP as the manual asks.
 */
void hal_reset(void)
{
	uint32_t n;

	for (n = 0; n < RESET_TX_WAIT; n++) {
		if (USART_ISR(UART) & USART_ISR_TC) {
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

/*
 * Three words at UID_BASE (0x1FFF7590 on both the L476 and the L4R5, not
 * the F4's 0x1FFF7A10), UID[31:0] first;
 * least significant byte first on the wire, as on the other boards.
 */
void hal_uid(uint8_t uid[12])
{
	unsigned i;

	for (i = 0; i < 3u; i++) {
		hilp_put_u32(uid + 4u * i, MMIO32(UID_BASE + 4u * i));
	}
}

/*
 * Everything as the chip reports it now, not as we meant it: SYSCLK from
 * SWS (the PLL only ever runs as this build programmed it; otherwise it is
 * the HSI16, after a fallback or in the L476's 16 MHz profile: the MSI remains
 * only if even the HSI16 never became ready, which the boot status
 * HILP_ST_CLOCK already says), FLASH_ACR, NOCYCCNT.
 */
void hal_counter_info(struct hal_counter_info *info)
{
	uint32_t hz = (RCC_CFGR & RCC_CFGR_SWS_MASK) == RCC_CFGR_SWS_PLL
			      ? HIL_CLOCK_HZ
			      : HSI_HZ;

	info->unit = HILP_UNIT_CYCLES;
	info->clock_hz = hz;
	info->counter_hz = hz; /* CYCCNT counts core clock cycles */
	info->flash_acr = FLASH_ACR;
	info->flags =
		(DWT_CTRL & DWT_CTRL_NOCYCCNT) ? 0u : HILP_INFO_CYCLE_COUNTER;
}

void hal_trigger(int on)
{
	GPIO_BSRR(TRIGGER_PORT) =
		on ? GPIO_BSRR_SET(TRIGGER_PIN) : GPIO_BSRR_RESET(TRIGGER_PIN);
}
#endif /* STM32L4_HAL_H */
