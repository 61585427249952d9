# nucleo-l476rg: the STM32L476RG on a Nucleo-64 (ST-LINK/V2-1), included by the top-level Makefile.
#
#   make firmware BOARD=nucleo-l476rg CLOCK_HZ=16000000
#
# HIL_CLOCK_HZ: 80000000 (PLL, 4 wait states, prefetch and caches on: the
# realistic profile), 24000000 (PLL, 1 wait state) or 16000000 (HSI16,
# 0 wait states). The Makefile's own CLOCK_HZ default is the F401's
# 84 MHz, which this chip cannot run: when CLOCK_HZ was not given (on the
# command line or in the environment), this board's default is 80 MHz.
# HIL_BAUD: USART2 rate to the ST-LINK virtual COM port.
# Soft float for the same reasons as the other boards (integer-only
# crypto, the same objects and libc multilib everywhere).
#
# The L4's USART and UID are not the F4's, so hal.c defines hal_uart_*,
# hal_reset and hal_uid, and the board links common/hal_core.c (interrupts,
# stack bounds, build-id) and common/dwt.c, not common/hal_common.c.

ifeq ($(origin CLOCK_HZ),file)
HIL_CLOCK_HZ ?= 80000000
else
HIL_CLOCK_HZ ?= $(CLOCK_HZ)
endif
HIL_BAUD ?= 115200

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c target/boards/common/dwt.c \
	target/boards/nucleo-l476rg/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
	-DHIL_CLOCK_HZ=$(HIL_CLOCK_HZ) -DHIL_BAUD=$(HIL_BAUD)
BOARD_LDSCRIPT := target/boards/nucleo-l476rg/stm32l476rg.ld
# Stack size (default 8 KiB): add -Wl,--defsym=__stack_size=16384
BOARD_LDFLAGS :=
