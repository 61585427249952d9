/* stm32f4_steps: the USART2 divider and the register-step row format that every STM32F4 board's hal.c shares, included by it before its clock table. */
#ifndef STM32F4_STEPS_H
#define STM32F4_STEPS_H

#include <stdint.h>

#include "regs.h"

/*
 * Written once for the NUCLEO-F401RE and the STM32F4DISCOVERY (F407),
 * whose hal.c include this file after their clock profile and before
 * their clock_steps[]; common/stm32f4_hal.h follows that table. The
 * including file defines HIL_BAUD, HSI_HZ and APB1_HZ, and includes its
 * clock_math.h. Section numbers: RM0368 (F401) first, RM0090 (F407)
 * after the slash.
 */

/*
 * USART2 divider (§19.3.4/§30.3.4, OVER8 = 0: BRR = f_APB1 / baud rounded,
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
 * RCC §6.3.1), SW 1:0 -> SWS 3:2 (shift 2, §6.3.3); FLASH_ACR and the
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

#endif /* STM32F4_STEPS_H */
