/* clock_math: the STM32F407's clock limits (RM0090) on top of the STM32F4 clock-tree, flash-latency and USART arithmetic of nucleo-f401re/clock_math.h, as compile-time macros and pure functions. */
#ifndef F407_CLOCK_MATH_H
#define F407_CLOCK_MATH_H

/*
 * The F407's RCC, flash interface and USART have the F401's register
 * layout and formulas (RM0090 Rev 19 §6.3, §3.9, §30.6 against RM0368's),
 * so the arithmetic is the F401 board's; what differs is the limits
 * (RM0090 Rev 19):
 * - §6.3.2 (RCC_PLLCFGR): VCO output 100..432 MHz, PLLN 50..432 (the F401:
 *   192..432 for both); VCO input 1..2 MHz, PLLM 2..63, PLLP 2/4/6/8,
 *   PLLQ 2..15 with PLL48CK at most 48 MHz, as on the F401.
 * - §6.3.3 and the datasheet DS8626: SYSCLK/HCLK at most 168 MHz, APB1
 *   (PCLK1) at most 42 MHz, APB2 (PCLK2) at most 84 MHz.
 * - §3.5.1 Table 10, 2.7..3.6 V: 0 WS up to 30 MHz, one more per 30 MHz,
 *   5 WS from 150 to 168 MHz (the F401's rule, one step further).
 * - §5.4.1 (PWR_CR.VOS): Scale 1, needed above 144 MHz, is the F407's reset
 *   value; the board does not touch it.
 * So from the HSI: 168 MHz = HSI / 10 * 210 / 2 (VCO 336 MHz, Q = 7),
 * 24 MHz = HSI / 10 * 90 / 6 (VCO 144 MHz, Q = 3: the F407's lower VCO
 * bound lets the PLL make 24 MHz itself, where the F401 needs 48 MHz
 * halved by HPRE).
 */
#define CLOCK_CHIP_LIMITS
#define CLOCK_SYSCLK_MAX_HZ  168000000u
#define CLOCK_APB2_MAX_HZ    84000000u
#define CLOCK_VCO_OUT_MIN_HZ 100000000u
#define CLOCK_PLLN_MIN	     50u

/* The clock profiles the board builds: pqm4's 24 MHz (0 WS) and full speed. */
#define CLOCK_PROFILES_HZ	    24000000u, 168000000u
#define CLOCK_PROFILE_SUPPORTED(hz) ((hz) == 24000000u || (hz) == 168000000u)

#include "../nucleo-f401re/clock_math.h"

#endif /* F407_CLOCK_MATH_H */
