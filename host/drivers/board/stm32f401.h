/* stm32f401: facts of the STM32F401xD/xE that both boards built on it share (the Nucleo and its emulated stand-in). */
#ifndef HIL_STM32F401_H
#define HIL_STM32F401_H

#include "drivers/board/board.h"

/* The clocks target/boards/nucleo-f401re configures, 84 MHz first. */
extern const struct hil_clock_profile hil_stm32f401_clocks[];

/* DS10086's run current (energy estimate without a sensor). */
extern const struct hil_idd_table hil_stm32f401_run_current;

#endif /* HIL_STM32F401_H */
