/* init_steps: the NUCLEO-L476RG's clock and pin set-up as a table of register steps, applied by hal.c and read back on the host by tests/unit/test_l476_init_steps.c. */
#ifndef L476_INIT_STEPS_H
#define L476_INIT_STEPS_H

#include <stdint.h>

#include "regs_l476.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  80000000 (default), 24000000 or 16000000
 *
 * Wiring, the same as on the NUCLEO-F401RE (both are Nucleo-64 boards,
 * UM1724): USART2 TX = PA2, RX = PA3 (AF7), routed to the ST-LINK virtual
 * COM port by the default solder bridges. Trigger = PA8 = Arduino D7,
 * push-pull, high while a measurement window is open: the F401 board's
 * pin, so that a probe or an INA219 set-up moves from one board to the
 * other unchanged.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 80000000
#endif

#define HSI_HZ	     CLOCK_HSI16_HZ
#define TRIGGER_PIN  8u /* PA8 */
#define TRIGGER_PORT GPIOA
#define USART_TX_PIN 2u /* PA2 */
#define USART_RX_PIN 3u /* PA3 */
#define AF7_USART2   7u

/*
 * Clock profiles, all from the HSI16 (the board's HSE is the ST-LINK's
 * MCO, which depends on solder bridges, and the MSI's range is whatever a
 * debugger last left; HSI16 needs nothing). Every figure below is an
 * integer constant expression from clock_math.h (RM0351 limits there,
 * checked against the manual's numbers by tests/unit/test_l476_clock_math.c),
 * so the image holds results, not arithmetic:
 *   80 MHz = HSI16 / 2 * 20 / 2 (VCO 160 MHz), 4 WS, FLASH_ACR 0x704;
 *   24 MHz = HSI16 / 2 * 12 / 4 (VCO 96 MHz), 1 WS, FLASH_ACR 0x701;
 *   16 MHz = HSI16 itself, 0 WS, FLASH_ACR 0x600.
 * The VCO input (8 MHz) and outputs stay inside 4..16 and 64..344 MHz for
 * an HSI16 anywhere within +-1 %. AHB, APB1 and APB2 run undivided: the
 * L476 allows 80 MHz on every bus in voltage range 1.
 *
 * Caches (ICEN, DCEN) are on in every profile, prefetch (PRFTEN) only
 * where there are wait states, as on the F401 board: at 0 WS a flash
 * access costs the same with or without them.
 */
#if !CLOCK_PROFILE_SUPPORTED(HIL_CLOCK_HZ)
#error "HIL_CLOCK_HZ must be 80000000, 24000000 or 16000000"
#endif

#define USE_PLL (HIL_CLOCK_HZ != HSI_HZ)
#define BOOST	0 /* range 1 boost mode is the L4R5's; 80 MHz needs none */
#define WS	CLOCK_FLASH_WS(HIL_CLOCK_HZ, 1u)
#define ACR_ON                                                                 \
	(FLASH_ACR_LATENCY(WS) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 (WS != 0 ? FLASH_ACR_PRFTEN : 0u))
#define ACR_ALL                                                                \
	(FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |          \
	 FLASH_ACR_DCEN | FLASH_ACR_ICRST | FLASH_ACR_DCRST)
/* RCC_PLLCFGR for this profile (PLLSRC = HSI16, PLLREN, P and Q off). */
#define PLLCFGR_SET CLOCK_PLLCFGR_HSI_FOR(HIL_CLOCK_HZ)

#if USE_PLL && !CLOCK_PLL_CAN(HSI_HZ, HIL_CLOCK_HZ)
#error "the PLL cannot make HIL_CLOCK_HZ from the HSI16"
#endif
#if WS == CLOCK_WS_INVALID
#error "HIL_CLOCK_HZ is beyond what the L476 runs in voltage range 1"
#endif

/* The row format (8-byte rows, STEP()) and step_clear/step_set. */
#include "../common/stm32l4_steps.h"

/*
 * The sequence (RM0351 §5.1.8 dynamic voltage scaling, §3.3.3 "increasing
 * the CPU frequency", §6.2 clocks). The first TO_HSI steps start every
 * boot and are also the fallback after a timeout:
 * - clocks of PWR, USART2 and GPIOA on, each read back, then a DSB in
 *   reg_apply: the F401 board's precaution for its errata's "delay
 *   after an RCC peripheral clock enabling", kept here (not checked
 *   against the L476's errata sheet; it costs nothing);
 * - voltage range 1 (its reset value; set anyway, and VOSF awaited,
 *   before SYSCLK leaves the MSI: range 2 would need 2 wait states even
 *   at 16 MHz). The MSI runs at 4 MHz after reset, or at 24 MHz with
 *   FLASH_ACR = 0x103 after OpenOCD's stm32l4x.cfg reset-init;
 * - SYSCLK to the HSI16 with every bus /1 and the PLL off (a debugger may
 *   have left it running; its configuration may only change while it is
 *   off, §6.4.4).
 * Then the flash latency is raised and read back (RM0351: check that the
 * new number of wait states is taken into account by reading FLASH_ACR;
 * the caches are reset while disabled, and the third write clears
 * ICRST/DCRST again, as on the F401), the PLL is programmed (PLLSRC =
 * HSI16, PLLREN on, P and Q outputs off) and started, and SW is switched.
 * That is CLOCK_STEPS steps, applied from PERIPH_BASE_APB1.
 */
static const struct reg_step clock_steps[] = {
	STEP(APB1(RCC_APB1ENR1), 0, RCC_APB1ENR1_PWREN | RCC_APB1ENR1_USART2EN,
	     POLL | SHIFT(0)),
	STEP(APB1(RCC_AHB2ENR), 0, RCC_AHB2ENR_GPIOAEN, POLL | SHIFT(0)),
	STEP(APB1(PWR_CR1), PWR_CR1_VOS_MASK, PWR_CR1_VOS_RANGE1, NO_WAIT),
	STEP(APB1(PWR_SR2), PWR_SR2_VOSF, 0, POLL_ONLY),
	STEP(APB1(RCC_CR), 0, RCC_CR_HSION, POLL | SHIFT(2)),
	STEP(APB1(RCC_CFGR), RCC_CFGR_SW_MASK, RCC_CFGR_SW_HSI16,
	     POLL | SHIFT(2)),
	STEP(APB1(RCC_CFGR),
	     RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK | RCC_CFGR_PPRE2_MASK, 0,
	     NO_WAIT),
	STEP(APB1(RCC_CR), RCC_CR_PLLON, 0, POLL | SHIFT(1)),
#define TO_HSI 8u
	STEP(APB1(FLASH_ACR), ACR_ALL, FLASH_ACR_LATENCY(WS), NO_WAIT),
	STEP(APB1(FLASH_ACR), 0, FLASH_ACR_ICRST | FLASH_ACR_DCRST, NO_WAIT),
	STEP(APB1(FLASH_ACR), ACR_ALL, ACR_ON, POLL | SHIFT(0)),
#if USE_PLL
	{0, 0, APB1(RCC_PLLCFGR), 0, PLLCFGR_ROW | NO_WAIT},
	STEP(APB1(RCC_CR), 0, RCC_CR_PLLON, POLL | SHIFT(1)),
	STEP(APB1(RCC_CFGR), RCC_CFGR_SW_MASK, RCC_CFGR_SW_PLL,
	     POLL | SHIFT(2)),
#endif
};

/*
 * RM0351 GPIO chapter: PA2/PA3 to AF7 (USART2), pull-up on RX so that a
 * floating line reads idle; PA8 push-pull output, driven low (BSRR reads
 * as 0) before the mode switch so that the trigger never glitches high at
 * boot. Every pin resets to analog mode here; only our pins' fields change
 * (PA13/PA14 stay SWD). GPIO_STEPS steps, applied from GPIOA_BASE.
 */
static const struct reg_step gpio_steps[] = {
	STEP(PORT(GPIO_AFRL(GPIOA)),
	     GPIO_AFR_MASK(USART_TX_PIN) | GPIO_AFR_MASK(USART_RX_PIN),
	     GPIO_AFR(USART_TX_PIN, AF7_USART2) |
		     GPIO_AFR(USART_RX_PIN, AF7_USART2),
	     NO_WAIT),
	STEP(PORT(GPIO_PUPDR(GPIOA)), GPIO_PUPDR_MASK(USART_RX_PIN),
	     GPIO_PUPDR_PULLUP(USART_RX_PIN), NO_WAIT),
	STEP(PORT(GPIO_BSRR(GPIOA)), 0, GPIO_BSRR_RESET(TRIGGER_PIN), NO_WAIT),
	STEP(PORT(GPIO_OTYPER(GPIOA)), 1u << TRIGGER_PIN, 0, NO_WAIT),
	STEP(PORT(GPIO_MODER(GPIOA)),
	     GPIO_MODER_MASK(USART_TX_PIN) | GPIO_MODER_MASK(USART_RX_PIN) |
		     GPIO_MODER_MASK(TRIGGER_PIN),
	     GPIO_MODER_AF(USART_TX_PIN) | GPIO_MODER_AF(USART_RX_PIN) |
		     GPIO_MODER_OUTPUT(TRIGGER_PIN),
	     NO_WAIT),
};

#endif /* L476_INIT_STEPS_H */
