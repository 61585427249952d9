# nucleo-l4r5zi: the STM32L4R5ZI on a Nucleo-144 (pqm4's default board since 2024), included by the top-level Makefile.
#
#   make firmware BOARD=nucleo-l4r5zi CLOCK_HZ=120000000
#
# HIL_CLOCK_HZ: 20000000 (pqm4's benchmark setting: PLL, 0 wait states,
# caches on, no prefetch; the default) or 120000000 (PLL, range 1 boost
# mode, 5 wait states, prefetch and caches on). The Makefile's own
# CLOCK_HZ default is the F401's 84 MHz, which this board does not build:
# when CLOCK_HZ was not given, this board's default is 20 MHz.
# HIL_BAUD: LPUART1 rate to the ST-LINK virtual COM port.
# Soft float for the same reasons as the other boards.
#
# The L4R5's UART (LPUART1) and UID are not the F4's: hal.c defines
# hal_uart_*, hal_reset and hal_uid, as on the L476 board, whose register
# names (regs_l476.h) and clock arithmetic (clock_math.h) it reuses.

ifeq ($(origin CLOCK_HZ),file)
HIL_CLOCK_HZ ?= 20000000
else
HIL_CLOCK_HZ ?= $(CLOCK_HZ)
endif
HIL_BAUD ?= 115200

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c target/boards/common/dwt.c \
	target/boards/nucleo-l4r5zi/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
	-DHIL_CLOCK_HZ=$(HIL_CLOCK_HZ) -DHIL_BAUD=$(HIL_BAUD)
BOARD_LDSCRIPT := target/boards/nucleo-l4r5zi/stm32l4r5zi.ld
# Stack size (default 8 KiB): add -Wl,--defsym=__stack_size=16384
BOARD_LDFLAGS :=
