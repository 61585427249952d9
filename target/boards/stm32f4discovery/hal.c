/* hal for the STM32F4DISCOVERY (STM32F407VG): clock profile, USART2 on PA2/PA3, DWT cycle counter, trigger pin. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  24000000 (default) or 168000000
 *   HIL_BAUD      115200 (default)
 *
 * Wiring (UM1472, the STM32F4DISCOVERY's user manual: every pin on the
 * P1/P2 headers): USART2 TX = PA2, RX = PA3 (AF7) to a 3.3 V USB-serial
 * adapter, as pqm4 wires this board (the MB997's ST-LINK/V2 has no
 * virtual COM port; the ST-LINK/V2-A of later revisions routes one to
 * these pins). Trigger = PA8 (P2), push-pull, high while a measurement
 * window is open: the Nucleo boards' pin. The board's HSE is an 8 MHz
 * crystal; the HSI is used instead, as on the Nucleos, so that nothing
 * depends on it.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 24000000
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
 * Clock profiles, both from the 16 MHz HSI through the PLL. Every figure
 * below is an integer constant expression from clock_math.h (RM0090
 * limits there, the F401 board's arithmetic; checked against the manual
 * by tests/unit/test_f407_clock_math.c), so the image holds the results:
 * 168 MHz = HSI / 10 * 210 / 2 (VCO 336 MHz) at 5 WS with APB1 /4
 * (42 MHz) and APB2 /2 (84 MHz); 24 MHz = HSI / 10 * 90 / 6 (VCO
 * 144 MHz) at 0 WS with both APBs /1. The VCO input (1.6 MHz) and outputs
 * stay inside 1..2 and 100..432 MHz for an HSI anywhere within +-1 %.
 * VOS: PWR_CR resets to Scale 1 on the F405/F407, needed above 144 MHz
 * (RM0090 §5.4.1, PWR_CR): untouched.
 *
 * 24 MHz is pqm4's benchmark setting ("to avoid wait cycles"): 0 WS, I-
 * and D-cache on (as pqm4 sets them), no prefetch (it buys nothing at
 * 0 WS). 168 MHz is full speed, prefetch on as well.
 */
#if !CLOCK_PROFILE_SUPPORTED(HIL_CLOCK_HZ)
#error "HIL_CLOCK_HZ must be 24000000 or 168000000"
#endif
#if HIL_BAUD <= 0
#error "HIL_BAUD must be positive"
#endif

#define USE_PLL	 (HIL_CLOCK_HZ != HSI_HZ)
#define AHB_DIV	 (USE_PLL ? CLOCK_AHB_DIV(HSI_HZ, HIL_CLOCK_HZ) : 1u)
#define WS	 CLOCK_FLASH_WS(HIL_CLOCK_HZ)
#define APB1_DIV CLOCK_APB1_DIV(HIL_CLOCK_HZ)
#define APB1_HZ	 (HIL_CLOCK_HZ / APB1_DIV)
#define APB2_DIV CLOCK_APB2_DIV(HIL_CLOCK_HZ)
#define ACR_ON                                                                 \
	(FLASH_ACR_LATENCY(WS) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 (WS != 0 ? FLASH_ACR_PRFTEN : 0u))
#define ACR_ALL                                                                \
	(FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |          \
	 FLASH_ACR_DCEN | FLASH_ACR_ICRST | FLASH_ACR_DCRST)

#if USE_PLL && !CLOCK_PLL_POSSIBLE(HSI_HZ, HIL_CLOCK_HZ)
#error "the PLL cannot make HIL_CLOCK_HZ from the HSI"
#endif
#if WS == CLOCK_WS_INVALID || APB1_DIV == 0 || APB2_DIV == 0
#error "HIL_CLOCK_HZ is beyond what the F407 runs"
#endif

/* USART2 divider and register-step rows, shared with the other STM32F4 board. */
#include "stm32f4_steps.h"

/*
 * Sequence of RM0090 §3.5.1 ("increasing the CPU frequency") and §6.2.3,
 * as on the F401 board (RM0368 §3.4.1), plus the APB2 prescaler.
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
#if APB1_DIV != 1 || APB2_DIV != 1 || AHB_DIV != 1
	{0,
	 CLOCK_PPRE_BITS(APB1_DIV) << CLOCK_CFGR_PPRE1_SHIFT |
		 CLOCK_PPRE_BITS(APB2_DIV) << CLOCK_CFGR_PPRE2_SHIFT |
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
	return "stm32f4discovery";
}
