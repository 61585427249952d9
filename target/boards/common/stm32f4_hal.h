/* stm32f4_hal: the pin set-up, register-step loop, USART2 set-up and the hal_init/hal_counter_info/hal_trigger that every STM32F4 board's hal.c shares, included by it after its clock table. */
#ifndef STM32F4_HAL_H
#define STM32F4_HAL_H

#include <stdint.h>

#include "hal.h"
#include "hilp.h"
#include "regs.h"
#include "stm32f4_steps.h"

/*
 * Written once for the NUCLEO-F401RE and the STM32F4DISCOVERY (F407).
 * The including hal.c has already defined, besides what
 * common/stm32f4_steps.h needs: clock_steps[] and TO_HSI (its first
 * steps, the way back to the HSI), TRIGGER_PIN, USART_TX_PIN,
 * USART_RX_PIN, AF7_USART2, CLOCK_WAIT and HIL_CLOCK_HZ. Everything
 * here is static or a hal.h function: this file is included by exactly
 * one hal.c per image, at the place where the code used to be, so that
 * each board's image is what it was before the fold.
 */

/*
 * RCC §8.3 and §8.4 (both manuals): GPIOA and USART2 clocks on (each
 * read back, then a DSB in reg_apply: the STM32F401 errata sheet, "delay
 * after an RCC peripheral clock enabling", asks for both before the first
 * access to the peripheral; kept on the F407 without checking its errata
 * sheet, it costs nothing), PA2/PA3 to AF7 (USART2), pull-up on RX so that a
 * floating line reads idle; PA8 push-pull output, driven low (BSRR reads
 * as 0) before the mode switch so that the trigger never glitches high at
 * boot. Only our pins' fields change.
 */
static const struct reg_step gpio_steps[] = {
	{0, RCC_AHB1ENR_GPIOAEN, AHB1(RCC_AHB1ENR), 0},
	{0, RCC_APB1ENR_USART2EN, AHB1(RCC_APB1ENR), 0},
	{GPIO_AFR_MASK(USART_TX_PIN) | GPIO_AFR_MASK(USART_RX_PIN),
	 GPIO_AFR(USART_TX_PIN, AF7_USART2) |
		 GPIO_AFR(USART_RX_PIN, AF7_USART2),
	 AHB1(GPIO_AFRL(GPIOA)), NO_WAIT},
	{GPIO_PUPDR_MASK(USART_RX_PIN), GPIO_PUPDR_PULLUP(USART_RX_PIN),
	 AHB1(GPIO_PUPDR(GPIOA)), NO_WAIT},
	{0, GPIO_BSRR_RESET(TRIGGER_PIN), AHB1(GPIO_BSRR(GPIOA)), NO_WAIT},
	{1u << TRIGGER_PIN, 0, AHB1(GPIO_OTYPER(GPIOA)), NO_WAIT},
	{GPIO_MODER_MASK(USART_TX_PIN) | GPIO_MODER_MASK(USART_RX_PIN) |
		 GPIO_MODER_MASK(TRIGGER_PIN),
	 GPIO_MODER_AF(USART_TX_PIN) | GPIO_MODER_AF(USART_RX_PIN) |
		 GPIO_MODER_OUTPUT(TRIGGER_PIN),
	 AHB1(GPIO_MODER(GPIOA)), NO_WAIT},
};

#define STEPS(t) ((uint32_t)(sizeof(t) / sizeof((t)[0])))

/* Apply step[0..n). @return 1, or 0 at the first status that did not follow in time. */
static int reg_apply(const struct reg_step *step, uint32_t n)
{
	for (; n != 0u; n--, step++) {
		volatile uint32_t *reg = &MMIO32(PERIPH_BASE_AHB1 + step->reg);
		uint32_t mask, want, polls;

		*reg = (*reg & ~step->clear) | step->set;
		/* Every write completes before the next access (clock enables). */
		__asm volatile("dsb" ::: "memory");
		if (step->wait == NO_WAIT) {
			continue;
		}
		mask = (step->clear | step->set) << step->wait;
		want = step->set << step->wait;
		for (polls = CLOCK_WAIT; (*reg & mask) != want; polls--) {
			if (polls == 0u) {
				return 0;
			}
		}
	}
	return 1;
}

/* §19.3.2-3/§30.3.2-3: disabled while configured, then 8N1, TX and RX on. */
static void usart_init(uint32_t brr)
{
	/* Its clock came on with gpio_steps. */
	USART_CR1(USART2) = 0;
	USART_CR2(USART2) = 0; /* 1 stop bit */
	USART_CR3(USART2) = 0; /* no flow control */
	USART_BRR(USART2) = brr;
	USART_CR1(USART2) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;
}

/*
 * Clock first; after a timeout back to the HSI (a flash latency left
 * higher than needed is safe at 16 MHz) so that the UART still works to
 * report HILP_ST_CLOCK. Then the DWT cycle counter (ARMv7-M ARM C1.8 DWT,
 * C1.6.5 DEMCR): TRCENA powers the DWT; NOCYCCNT = 1 would mean this core
 * has no CYCCNT. SysTick is stopped: the stub takes no interrupts and
 * nothing else may run inside a window.
 */
uint8_t hal_init(void)
{
	uint8_t st;

	if (reg_apply(clock_steps, STEPS(clock_steps))) {
		st = BRR_RUN_OK ? HILP_ST_OK : HILP_ST_BAD_ARG;
	} else {
		(void)reg_apply(clock_steps, TO_HSI);
		st = HILP_ST_CLOCK;
	}
	/* Its polls, the clock enables read back, cannot time out. */
	(void)reg_apply(gpio_steps, STEPS(gpio_steps));
	usart_init(st != HILP_ST_CLOCK ? BRR_RUN : BRR_HSI);

	SYST_CSR = 0;
	hal_counter_arm();
	if (DWT_CTRL & DWT_CTRL_NOCYCCNT) {
		return st == HILP_ST_OK ? HILP_ST_UNSUPPORTED : st;
	}
	DWT_CYCCNT = 0;
	return st;
}

/* hal_uart_getc/putc: hal_common.c (usart_rx.h clears and counts ORE). */

/*
 * Everything as the chip reports it now, not as we meant it: SYSCLK from
 * SWS (the PLL only ever runs as this build programmed it; otherwise it is
 * the HSI, after a fallback or in the 16 MHz profile), FLASH_ACR, NOCYCCNT.
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
	GPIO_BSRR(GPIOA) =
		on ? GPIO_BSRR_SET(TRIGGER_PIN) : GPIO_BSRR_RESET(TRIGGER_PIN);
}

#endif /* STM32F4_HAL_H */
