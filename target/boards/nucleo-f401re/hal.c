/* hal for the NUCLEO-F401RE: clock profile, USART2 to the ST-LINK VCP, DWT cycle counter, trigger pin. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  84000000 (default), 24000000 or 16000000
 *   HIL_BAUD      115200 (default)
 *   HIL_PREFETCH  0 or 1; default 1 where there are wait states (84 MHz)
 *
 * Wiring: USART2 TX = PA2, RX = PA3 (AF7), routed to the ST-LINK virtual
 * COM port by the default solder bridges (SB13/SB14 on, SB62/SB63 off).
 * Trigger = PA8 = Arduino connector D7 (CN9 pin 8, morpho CN10 pin 23),
 * push-pull, high while a measurement window is open.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 84000000
#endif
#ifndef HIL_BAUD
#define HIL_BAUD 115200
#endif

#define HSI_HZ	     CLOCK_HSI_HZ
#define TRIGGER_PIN  8u /* PA8 */
#define USART_TX_PIN 2u /* PA2 */
#define USART_RX_PIN 3u /* PA3 */
#define AF7_USART2   7u
#define CLOCK_WAIT   200000u /* polls, ~50 ms at 16 MHz; PLL lock is < 0.2 ms */

/*
 * Clock profiles, all from the 16 MHz HSI (the board's HSE is the ST-LINK
 * MCO, which depends on solder bridges; HSI needs nothing). Every figure
 * below is an integer constant expression from clock_math.h (RM0368 limits
 * there, the same arithmetic checked against the manual by
 * tests/unit/test_nucleo_clock_math.c), so the image holds the results,
 * not the arithmetic: 84 MHz = HSI / 10 * 210 / 4 at 2 WS with APB1 /2
 * (42 MHz); 24 MHz = (HSI / 10 * 240 / 8) / 2, a 48 MHz PLL output halved
 * by the AHB prescaler, and 16 MHz = HSI, both at 0 WS with APB1 /1. The
 * PLL's VCO input (1.6 MHz) and output (336 and 384 MHz) stay inside
 * their 1..2 and 192..432 MHz ranges for an HSI anywhere within +-1 %
 * (clock_math.h); SYSCLK never exceeds 48 MHz in the 24 MHz profile.
 * VOS: PWR_CR resets to Scale 2, good for 84 MHz (RM0368 §5.4.1): untouched.
 *
 * 24 and 16 MHz run at 0 WS, where a flash access costs the same with or
 * without the ART caches: figures comparable to pqm4-style tables (pqm4 also
 * leaves ICEN/DCEN on at 0 WS). 84 MHz is the realistic profile, with
 * prefetch on as well: it only pays when there are wait states.
 */
#if !CLOCK_PROFILE_SUPPORTED(HIL_CLOCK_HZ)
#error "HIL_CLOCK_HZ must be 84000000, 24000000 or 16000000"
#endif
#if HIL_BAUD <= 0
#error "HIL_BAUD must be positive"
#endif

#define USE_PLL	 (HIL_CLOCK_HZ != HSI_HZ)
#define AHB_DIV	 (USE_PLL ? CLOCK_AHB_DIV(HSI_HZ, HIL_CLOCK_HZ) : 1u)
#define WS	 CLOCK_FLASH_WS(HIL_CLOCK_HZ)
#define APB1_DIV CLOCK_APB1_DIV(HIL_CLOCK_HZ)
#define APB1_HZ	 (HIL_CLOCK_HZ / APB1_DIV)
/*
 * Prefetch: on by default wherever there are wait states (RM0368 §3.4:
 * it helps only then); HIL_PREFETCH=0 turns it off at 84 MHz, for the
 * energy trade-off (DS10086 Tables 23 and 25: the same clock costs less
 * current without it).
 */
#ifndef HIL_PREFETCH
#define HIL_PREFETCH (WS != 0)
#endif
#if HIL_PREFETCH != 0 && HIL_PREFETCH != 1
#error "HIL_PREFETCH must be 0 or 1"
#endif
#define ACR_ON                                                                 \
	(FLASH_ACR_LATENCY(WS) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 (HIL_PREFETCH ? FLASH_ACR_PRFTEN : 0u))
#define ACR_ALL                                                                \
	(FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |          \
	 FLASH_ACR_DCEN | FLASH_ACR_ICRST | FLASH_ACR_DCRST)

#if USE_PLL && !CLOCK_PLL_POSSIBLE(HSI_HZ, HIL_CLOCK_HZ)
#error "the PLL cannot make HIL_CLOCK_HZ from the HSI"
#endif
#if WS == CLOCK_WS_INVALID || APB1_DIV == 0
#error "HIL_CLOCK_HZ is beyond what the F401 runs"
#endif

/*
 * USART2 divider (RM0368 §19.3.4, OVER8 = 0: BRR = f_APB1 / baud rounded,
 * clock_math.h) for the APB1 clock we run at, and for the 16 MHz of the
 * HSI after a clock fallback. 115200 Bd: 42 MHz -> 365 = 0x16D (-0.11 %),
 * 24 MHz -> 208 (+0.16 %), 16 MHz -> 139 (-0.08 %). A rate more than 2 %
 * off is still set to the nearest divider (the host may yet get through)
 * and hal_init reports HILP_ST_BAD_ARG; a rate that no divider can make at
 * all fails the build.
 */
#define BRR_RUN	   CLOCK_USART_BRR_NEAREST(APB1_HZ, HIL_BAUD)
#define BRR_RUN_OK (CLOCK_USART_BRR(APB1_HZ, HIL_BAUD) != 0u)
#define BRR_HSI	   CLOCK_USART_BRR_NEAREST(HSI_HZ, HIL_BAUD)
#if BRR_RUN == 0
#error "USART2 cannot make HIL_BAUD from this APB1 clock (BRR out of range)"
#endif

/*
 * Register set-up as data: each step is reg = (reg & ~clear) | set on a
 * register of the AHB1 block (GPIOA, RCC, flash interface: reg is the
 * offset from PERIPH_BASE_AHB1), then, unless wait is NO_WAIT, a bounded
 * poll until the bits just written show up in their status field, `wait`
 * bits higher: HSION 0 -> HSIRDY 1 and PLLON 24 -> PLLRDY 25 (shift 1,
 * RM0368 §6.3.1), SW 1:0 -> SWS 3:2 (shift 2, §6.3.3); FLASH_ACR and the
 * clock enables read back in place (shift 0). One loop applies every
 * table, so a register write costs a 12-byte row, not its own code.
 */
struct reg_step {
	uint32_t clear;
	uint32_t set;
	uint16_t reg;
	uint8_t wait;
};

#define NO_WAIT 0xFFu
#define AHB1(r) ((uint16_t)((uintptr_t)(&(r)) - PERIPH_BASE_AHB1))

/*
 * Sequence of RM0368 §3.4.1 ("increasing the CPU frequency") and §6.2.3.
 * The first TO_HSI steps bring SYSCLK to the HSI with every bus /1 and the
 * PLL off (a debugger may have left it running; its configuration may only
 * change while it is off, §6.3.2): they start every boot and are also the
 * fallback after a timeout. Then the flash latency is raised and read back
 * ("check that the new number of wait states is taken into account ... by
 * reading the FLASH_ACR register"; caches may only be reset while
 * disabled, §3.8.1, and ICRST/DCRST do not clear themselves), the PLL is
 * programmed (PLLSRC = 0: HSI; reserved bits kept) and started, the AHB
 * and APB1 prescalers are set before SYSCLK rises, so that neither HCLK
 * (the flash latency is for HCLK) nor APB1 ever sees more than its
 * profile's frequency, and SW is switched.
 */
static const struct reg_step clock_steps[] = {
	{0, RCC_CR_HSION, AHB1(RCC_CR), 1},
	{RCC_CFGR_SW_MASK, RCC_CFGR_SW_HSI, AHB1(RCC_CFGR), 2},
	{RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK | RCC_CFGR_PPRE2_MASK, 0,
	 AHB1(RCC_CFGR), NO_WAIT},
	{RCC_CR_PLLON, 0, AHB1(RCC_CR), 1},
#define TO_HSI 4u
	{ACR_ALL, FLASH_ACR_LATENCY(WS), AHB1(FLASH_ACR), NO_WAIT},
	{0, FLASH_ACR_ICRST | FLASH_ACR_DCRST, AHB1(FLASH_ACR), NO_WAIT},
	{ACR_ALL, ACR_ON, AHB1(FLASH_ACR), 0},
#if USE_PLL
	{RCC_PLLCFGR_FIELDS, CLOCK_PLLCFGR_FOR(HSI_HZ, HIL_CLOCK_HZ),
	 AHB1(RCC_PLLCFGR), NO_WAIT},
	{0, RCC_CR_PLLON, AHB1(RCC_CR), 1},
#if APB1_DIV != 1 || AHB_DIV != 1
	{0,
	 CLOCK_PPRE_BITS(APB1_DIV) << CLOCK_CFGR_PPRE1_SHIFT |
		 CLOCK_HPRE_BITS(AHB_DIV) << CLOCK_CFGR_HPRE_SHIFT,
	 AHB1(RCC_CFGR), NO_WAIT},
#endif
	{RCC_CFGR_SW_MASK, RCC_CFGR_SW_PLL, AHB1(RCC_CFGR), 2},
#endif
};

/*
 * RM0368 §8.3 and §8.4: GPIOA and USART2 clocks on (each read back, then
 * a DSB in reg_apply: the STM32F401 errata sheet, "delay after an RCC
 * peripheral clock enabling", asks for both before the first access to
 * the peripheral), PA2/PA3 to AF7 (USART2), pull-up on RX so that a
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

/* RM0368 §19.3.2/§19.3.3: disabled while configured, then 8N1, TX and RX on. */
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

const char *hal_board_name(void)
{
	return "nucleo-f401re";
}
