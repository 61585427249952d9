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

/* USART2 divider and register-step rows, shared with the other STM32F4 board. */
#include "stm32f4_steps.h"

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

/* Pin set-up, step loop, USART2, hal_init, hal_counter_info, hal_trigger. */
#include "stm32f4_hal.h"

const char *hal_board_name(void)
{
	return "nucleo-f401re";
}
