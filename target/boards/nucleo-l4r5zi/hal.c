/* hal for the NUCLEO-L4R5ZI: clock profile (range 1 boost at 120 MHz), LPUART1 to the ST-LINK VCP, DWT cycle counter, trigger pin, UID. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "init_steps.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  20000000 (default) or 120000000
 *   HIL_BAUD      115200 (default)
 * The clock profiles, pins and the register steps that set them up are
 * in init_steps.h.
 *
 * As on the L476 board, this hal.c has its own UART functions (here
 * LPUART1, the Nucleo-144's ST-LINK VCP, with the USART register layout),
 * hal_reset and hal_uid, from common/stm32l4_hal.h (shared with the L476,
 * included below on UART = LPUART1); common/hal_core.c gives the core
 * ones, common/dwt.c the counter.
 */
#ifndef HIL_BAUD
#define HIL_BAUD 115200
#endif
#if HIL_BAUD <= 0
#error "HIL_BAUD must be positive"
#endif

#define CLOCK_WAIT    200000u /* polls, >= 50 ms at 4 MHz; all need < 1 ms */
#define RESET_TX_WAIT 400000u /* > 10 bit times at 9600 Bd and 120 MHz */
/* Loop passes for >= 1 us at HCLK = 60 MHz (RM0432's boost sequence):
 * each pass is at least 2 cycles, so 64 passes are >= 2 us. */
#define BOOST_WAIT    64u

/*
 * LPUART1 divider (clock_math.h: BRR = 256 * f_ck / baud, rounded),
 * f_ck = PCLK1 = HCLK (RCC_CCIPR.LPUART1SEL at its reset value), and for
 * the HSI16 after a clock fallback. 115200 Bd: 20 MHz -> 44444, 120 MHz
 * -> 266667, 16 MHz -> 35556, each within 0.001 %. A rate the divider
 * cannot make (f_ck outside 3..4096 times the rate, BRR below 0x300)
 * fails the build.
 */
#define BRR_RUN	   CLOCK_LPUART_BRR(HIL_CLOCK_HZ, HIL_BAUD)
#define BRR_HSI	   CLOCK_LPUART_BRR(HSI_HZ, HIL_BAUD)
#define UART	   LPUART1
#define BRR_RUN_OK 1 /* the divider is within 0.001 % wherever it builds */
#if HIL_BAUD * 3 > HIL_CLOCK_HZ || HIL_BAUD * 3 > 16000000 ||                  \
	HIL_CLOCK_HZ / 4096 > HIL_BAUD || 16000000 / 4096 > HIL_BAUD
#error "LPUART1 cannot make HIL_BAUD from this clock or from the HSI16"
#endif

/* The step loop, UART, hal_init and the other hal functions: shared with the other L4 board. */
#include "stm32l4_hal.h"

const char *hal_board_name(void)
{
	return "nucleo-l4r5zi";
}
