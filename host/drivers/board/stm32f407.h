/* stm32f407: facts of the STM32F407VG that the boards built on it share (the STM32F4DISCOVERY and the emulated board standing in for it, mps2-an386). */
#ifndef HIL_STM32F407_H
#define HIL_STM32F407_H

#include "drivers/board/board.h"

/* The clocks target/boards/stm32f4discovery configures, 24 MHz first. */
extern const struct hil_clock_profile hil_stm32f407_clocks[];

#endif /* HIL_STM32F407_H */
