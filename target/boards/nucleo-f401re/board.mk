# nucleo-f401re: the real STM32F401RE board, included by the top-level Makefile.
#
#   make firmware BOARD=nucleo-f401re HIL_CLOCK_HZ=24000000
#
# HIL_CLOCK_HZ: 84000000 (PLL, 2 wait states, prefetch and caches on: the
# realistic profile), 24000000 (PLL) or 16000000 (HSI), both 0 wait states.
# HIL_PREFETCH: empty (default) prefetch on where there are wait states
# (84 MHz), 0 off (FLASH_ACR 0x602 at 84 MHz), 1 on (config: board.prefetch).
# HIL_BAUD: USART2 rate to the ST-LINK virtual COM port.
# Soft float for the same reasons as qemu-netduino (integer-only crypto).

HIL_CLOCK_HZ ?= $(CLOCK_HZ)
HIL_BAUD ?= 115200
HIL_PREFETCH ?=

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c target/boards/common/hal_common.c \
	target/boards/common/dwt.c \
	target/boards/nucleo-f401re/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
	-DHIL_CLOCK_HZ=$(HIL_CLOCK_HZ) -DHIL_BAUD=$(HIL_BAUD) \
	$(if $(HIL_PREFETCH),-DHIL_PREFETCH=$(HIL_PREFETCH))
BOARD_LDSCRIPT := target/boards/common/stm32f401re.ld
# Stack size (default 8 KiB): add -Wl,--defsym=__stack_size=16384
BOARD_LDFLAGS :=
