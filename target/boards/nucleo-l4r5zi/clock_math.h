/* clock_math: the STM32L4R5's clock limits (RM0432) on top of the STM32L4 PLL and flash-latency arithmetic of nucleo-l476rg/clock_math.h, and its LPUART divider, as compile-time macros and pure functions. */
#ifndef L4R5_CLOCK_MATH_H
#define L4R5_CLOCK_MATH_H

#include <stdint.h>

/*
 * The L4R5 (an STM32L4+) has the L476's RCC_PLLCFGR formulas and ranges
 * (RM0432's RCC_PLLCFGR description against RM0351's: VCO input 4..16 MHz, output
 * 64..344 MHz, PLLN 8..86 (ST's LL driver checks the same for the L4R),
 * PLLR 2/4/6/8; PLLM is 4 bits wide here, 1..16, of which the arithmetic
 * uses 1..8, the L476's field) and its flash interface registers; what
 * differs (RM0432):
 * - "Dynamic voltage scaling management" (PWR chapter): range 1 runs up to 80 MHz in normal
 *   mode (PWR_CR5.R1MODE = 1, its reset value) and up to 120 MHz in boost
 *   mode (R1MODE = 0); range 2 up to 26 MHz.
 * - §3.3.3 "Read access latency", the table of wait states against HCLK: range 1, 0 WS up
 *   to 20 MHz, one more per 20 MHz, 5 WS from 100 up to 120 MHz; range 2,
 *   0 WS up to 8 MHz, 1 up to 16, 2 up to 26. (ST's
 *   stm32l4xx_ll_utils.c tabulates exactly these for the L4R/L4S.)
 * So from HSI16 (VCO input 8 MHz, M = 2): 20 MHz = x10 / 4 (VCO 80 MHz),
 * 0 WS: pqm4's benchmark setting; 120 MHz = x30 / 2 (VCO 240 MHz), 5 WS,
 * boost mode.
 */
#define CLOCK_CHIP_LIMITS
#define CLOCK_SYSCLK_MAX_HZ	   120000000u /* range 1 boost */
#define CLOCK_SYSCLK_NORMAL_MAX_HZ 80000000u  /* range 1 normal (R1MODE = 1) */
#define CLOCK_WS_STEP_R1_HZ	   20000000u
#define CLOCK_FLASH_WS_R2(hclk)                                                \
	((hclk) == 0u || (hclk) > 26000000u ? CLOCK_WS_INVALID                 \
	 : (hclk) <= 8000000u		    ? 0u                               \
	 : (hclk) <= 16000000u		    ? 1u                               \
					    : 2u)

/* The clock profiles the board builds: pqm4's 20 MHz (0 WS) and full speed. */
#define CLOCK_PROFILES_HZ	    20000000u, 120000000u
#define CLOCK_PROFILE_SUPPORTED(hz) ((hz) == 20000000u || (hz) == 120000000u)

/* Boost mode (R1MODE = 0) above range 1 normal's 80 MHz. */
#define CLOCK_NEEDS_BOOST(hclk) ((hclk) > CLOCK_SYSCLK_NORMAL_MAX_HZ)

#include "../nucleo-l476rg/clock_math.h"

/*
 * LPUART1 (RM0432, LPUART chapter, "LPUART baud rate generation"): BRR =
 * 256 * f_ck / baud, rounded, in 20 bits and at least 0x300; f_ck must
 * also lie between 3 and 4096 times the baud rate. f_ck = PCLK1 = HCLK
 * here (RCC_CCIPR.LPUART1SEL at its reset value, APB1 undivided).
 * 115200 Bd: 20 MHz -> 44444 (+0.001 %), 120 MHz -> 266667 (0.000 %),
 * 16 MHz (HSI16 after a fallback) -> 35556 (-0.001 %). 64-bit: 256 *
 * 120 MHz is beyond 32 bits.
 */
#define CLOCK_LPUART_BRR_MIN	      0x300u
#define CLOCK_LPUART_BRR_MAX	      0xFFFFFu
#define CLOCK_LPUART_ROUND(fck, baud) ((256ull * (fck) + (baud) / 2u) / (baud))
#define CLOCK_LPUART_BRR(fck, baud)                                            \
	((baud) == 0u || (uint64_t)(fck) < 3ull * (baud) ||                    \
			 (uint64_t)(fck) > 4096ull * (baud) ||                 \
			 CLOCK_LPUART_ROUND(fck, baud) <                       \
				 CLOCK_LPUART_BRR_MIN ||                       \
			 CLOCK_LPUART_ROUND(fck, baud) > CLOCK_LPUART_BRR_MAX  \
		 ? 0u                                                          \
		 : (uint32_t)CLOCK_LPUART_ROUND(fck, baud))

/* The LPUART divider for baud from fck (CLOCK_LPUART_BRR); 0 if none fits. */
static inline uint32_t clock_lpuart_brr(uint32_t fck_hz, uint32_t baud)
{
	return CLOCK_LPUART_BRR(fck_hz, baud);
}

#endif /* L4R5_CLOCK_MATH_H */
