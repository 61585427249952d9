/* init_steps: the NUCLEO-L4R5ZI's clock and pin set-up as a table of register steps (the row format of nucleo-l476rg/init_steps.h), applied by hal.c. */
#ifndef L4R5_INIT_STEPS_H
#define L4R5_INIT_STEPS_H

#include <stdint.h>

#include "regs_l4r5.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  20000000 (default) or 120000000
 *
 * Wiring (UM2179, the Nucleo-144 user manual): LPUART1 TX = PG7, RX = PG8
 * (AF8) is the ST-LINK's virtual COM port on this board; PG[15:2] are
 * supplied by VDDIO2, isolated until PWR_CR2.IOSV is set. Trigger = PF13
 * = Arduino D7 on the ZIO connector (the Nucleo-64 boards' D7 is PA8),
 * push-pull, high while a measurement window is open.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 20000000
#endif

#define HSI_HZ	     CLOCK_HSI16_HZ
#define TRIGGER_PIN  13u /* PF13 */
#define TRIGGER_PORT GPIOF
#define UART_TX_PIN  7u /* PG7 */
#define UART_RX_PIN  8u /* PG8 */
#define AF8_LPUART1  8u

/*
 * Clock profiles, both from HSI16 through the PLL (clock_math.h: RM0432's
 * limits on the L476's arithmetic):
 *   20 MHz = HSI16 / 2 * 10 / 4 (VCO 80 MHz), 0 WS, FLASH_ACR 0x600,
 *            range 1 normal: pqm4's benchmark setting;
 *  120 MHz = HSI16 / 2 * 30 / 2 (VCO 240 MHz), 5 WS, FLASH_ACR 0x705,
 *            range 1 boost.
 * AHB, APB1 and APB2 run undivided (120 MHz is allowed on every bus).
 * Caches on in both, prefetch only with wait states, as on the other
 * boards.
 */
#if !CLOCK_PROFILE_SUPPORTED(HIL_CLOCK_HZ)
#error "HIL_CLOCK_HZ must be 20000000 or 120000000"
#endif

#define USE_PLL (HIL_CLOCK_HZ != HSI_HZ)
#define BOOST	CLOCK_NEEDS_BOOST(HIL_CLOCK_HZ)
#define WS	CLOCK_FLASH_WS(HIL_CLOCK_HZ, 1u)
#define ACR_ON                                                                 \
	(FLASH_ACR_LATENCY(WS) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 (WS != 0 ? FLASH_ACR_PRFTEN : 0u))
#define ACR_ALL                                                                \
	(FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |          \
	 FLASH_ACR_DCEN | FLASH_ACR_ICRST | FLASH_ACR_DCRST)
#define PLLCFGR_SET CLOCK_PLLCFGR_HSI_FOR(HIL_CLOCK_HZ)

#if USE_PLL && !CLOCK_PLL_CAN(HSI_HZ, HIL_CLOCK_HZ)
#error "the PLL cannot make HIL_CLOCK_HZ from the HSI16"
#endif
#if WS == CLOCK_WS_INVALID
#error "HIL_CLOCK_HZ is beyond what the L4R5 runs in voltage range 1"
#endif

/* The row format (8-byte rows, STEP()) and step_clear/step_set. */
#include "../common/stm32l4_steps.h"

/*
 * The sequence (RM0432: "Dynamic voltage scaling management" for range 1
 * and its boost mode, §3.3.3 "increasing the CPU frequency", the RCC
 * chapter for the clocks). The first TO_HSI steps start every boot and
 * are also the fallback after a timeout:
 * - clocks of PWR, LPUART1, GPIOF and GPIOG on, each read back;
 * - voltage range 1 (the reset value), VOSF awaited; VDDIO2 declared valid
 *   (PWR_CR2.IOSV) so that PG7/PG8 leave isolation;
 * - SYSCLK to HSI16 with the APBs /1 and the PLL off (a debugger may have
 *   left it running); HCLK /1, or /2 for 120 MHz (below). R1MODE is left as it is: boost mode also runs any
 *   lower clock, so a fallback from a failed 120 MHz start needs no step
 *   back to normal mode (which costs footprint, not correctness).
 * For 120 MHz the manual's boost sequence follows: HCLK halved (HPRE /2,
 * already in the TO_HSI steps) before SYSCLK rises, R1MODE cleared,
 * wait states raised, the PLL started and SYSCLK switched; hal.c then
 * waits at least 1 us and sets HPRE back to /1 (after a fallback too:
 * the HSI16 then runs undivided). For 20 MHz: wait states, PLL, switch.
 */
static const struct reg_step clock_steps[] = {
	STEP(APB1(RCC_APB1ENR1), 0, RCC_APB1ENR1_PWREN, POLL | SHIFT(0)),
	STEP(APB1(RCC_APB1ENR2), 0, RCC_APB1ENR2_LPUART1EN, POLL | SHIFT(0)),
	STEP(APB1(RCC_AHB2ENR), 0, RCC_AHB2ENR_GPIOFEN | RCC_AHB2ENR_GPIOGEN,
	     POLL | SHIFT(0)),
	STEP(APB1(PWR_CR1), PWR_CR1_VOS_MASK, PWR_CR1_VOS_RANGE1, NO_WAIT),
	STEP(APB1(PWR_SR2), PWR_SR2_VOSF, 0, POLL_ONLY),
	STEP(APB1(PWR_CR2), 0, PWR_CR2_IOSV, NO_WAIT),
	STEP(APB1(RCC_CR), 0, RCC_CR_HSION, POLL | SHIFT(2)),
	STEP(APB1(RCC_CFGR), RCC_CFGR_SW_MASK, RCC_CFGR_SW_HSI16,
	     POLL | SHIFT(2)),
	STEP(APB1(RCC_CFGR),
	     RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK | RCC_CFGR_PPRE2_MASK,
	     BOOST ? RCC_CFGR_HPRE_DIV2 : 0u, NO_WAIT),
	STEP(APB1(RCC_CR), RCC_CR_PLLON, 0, POLL | SHIFT(1)),
#define TO_HSI 10u
#if BOOST
	STEP(APB1(PWR_CR5), PWR_CR5_R1MODE, 0, NO_WAIT),
	STEP(APB1(PWR_SR2), PWR_SR2_VOSF, 0, POLL_ONLY),
#endif
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
 * PG7/PG8 to AF8 (LPUART1), pull-up on RX so that a floating line reads
 * idle; PF13 output, driven low (BSRR) before the mode switch. Its OTYPER
 * bit is not written: GPIO registers reset with the chip (SYSRESETREQ
 * too), to push-pull, and the row would put the 120 MHz image over the
 * stub's footprint budget. Only our pins' fields change. Applied from
 * GPIOA_BASE.
 */
static const struct reg_step gpio_steps[] = {
	STEP(PORT(GPIO_AFRL(GPIOG)), GPIO_AFR_MASK(UART_TX_PIN),
	     GPIO_AFR(UART_TX_PIN, AF8_LPUART1), NO_WAIT),
	STEP(PORT(GPIO_AFRH(GPIOG)), GPIO_AFR_MASK(UART_RX_PIN),
	     GPIO_AFR(UART_RX_PIN, AF8_LPUART1), NO_WAIT),
	STEP(PORT(GPIO_PUPDR(GPIOG)), GPIO_PUPDR_MASK(UART_RX_PIN),
	     GPIO_PUPDR_PULLUP(UART_RX_PIN), NO_WAIT),
	STEP(PORT(GPIO_MODER(GPIOG)),
	     GPIO_MODER_MASK(UART_TX_PIN) | GPIO_MODER_MASK(UART_RX_PIN),
	     GPIO_MODER_AF(UART_TX_PIN) | GPIO_MODER_AF(UART_RX_PIN), NO_WAIT),
	STEP(PORT(GPIO_BSRR(GPIOF)), 0, GPIO_BSRR_RESET(TRIGGER_PIN), NO_WAIT),
	STEP(PORT(GPIO_MODER(GPIOF)), GPIO_MODER_MASK(TRIGGER_PIN),
	     GPIO_MODER_OUTPUT(TRIGGER_PIN), NO_WAIT),
};

#endif /* L4R5_INIT_STEPS_H */
