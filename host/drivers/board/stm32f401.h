/* stm32f401: facts of the STM32F401xD/xE that both boards built on it share (the Nucleo and its emulated stand-in). */
#ifndef HIL_STM32F401_H
#define HIL_STM32F401_H

#include "drivers/board/board.h"

/* The clocks target/boards/nucleo-f401re configures, 84 MHz first. */
extern const struct hil_clock_profile hil_stm32f401_clocks[];

/* DS10086 Rev 3's run-current tables 20 to 25 (energy estimate). */
extern const struct hil_idd_table hil_stm32f401_t20, hil_stm32f401_t21,
	hil_stm32f401_t22, hil_stm32f401_t23, hil_stm32f401_t24,
	hil_stm32f401_t25;

/* All of them, NULL-terminated: the boards' run_current. */
extern const struct hil_idd_table *const hil_stm32f401_run_current[];

#endif /* HIL_STM32F401_H */
