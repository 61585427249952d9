/* hal for the NUCLEO-L476RG: clock profile, USART2 to the ST-LINK VCP, DWT cycle counter, trigger pin, UID. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "init_steps.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  80000000 (default), 24000000 or 16000000
 *   HIL_BAUD      115200 (default)
 * The clock profiles, pins and the register steps that set them up are
 * in init_steps.h (a host test reads the steps back).
 *
 * This board's hal.c has its own USART functions, hal_reset and hal_uid:
 * the L4's USART has other registers than the F4's, and its UID sits
 * elsewhere. They, hal_init and the rest are written once for both L4
 * boards in common/stm32l4_hal.h, included below on UART = USART2.
 * common/hal_core.c gives the core ones (interrupts, stack bounds,
 * build-id), common/dwt.c the counter.
 */
#ifndef HIL_BAUD
#define HIL_BAUD 115200
#endif
#if HIL_BAUD <= 0
#error "HIL_BAUD must be positive"
#endif

#define CLOCK_WAIT    200000u /* polls, >= 50 ms at 4 MHz; all need < 1 ms */
#define RESET_TX_WAIT 200000u /* > 10 bit times at 9600 Bd and 80 MHz */

/*
 * USART2 divider (USART baud rate generation, OVER8 = 0: BRR = f_ck /
 * baud rounded, clock_math.h), f_ck = PCLK1 = HCLK (RCC_CCIPR.USART2SEL
 * at its reset value, PCLK1), and for the HSI16 after a clock fallback.
 * 115200 Bd: 80 MHz -> 694 (+0.06 %), 24 MHz -> 208 (+0.16 %), 16 MHz ->
 * 139 (-0.08 %). A rate more than 2 % off is still set to the nearest
 * divider and hal_init reports HILP_ST_BAD_ARG; a rate no divider can
 * make fails the build.
 */
#define BRR_RUN	   CLOCK_USART_BRR_NEAREST(HIL_CLOCK_HZ, HIL_BAUD)
#define BRR_RUN_OK (CLOCK_USART_BRR(HIL_CLOCK_HZ, HIL_BAUD) != 0u)
#define BRR_HSI	   CLOCK_USART_BRR_NEAREST(HSI_HZ, HIL_BAUD)
#define UART	   USART2
#if BRR_RUN == 0
#error "USART2 cannot make HIL_BAUD from this clock (BRR out of range)"
#endif

/* The step loop, UART, hal_init and the other hal functions: shared with the other L4 board. */
#include "stm32l4_hal.h"

const char *hal_board_name(void)
{
	return "nucleo-l476rg";
}
