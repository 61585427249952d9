# stm32f4discovery: the STM32F407VG on ST's STM32F4DISCOVERY (MB997, ST-LINK/V2), the board of pqm4's 2022 table, included by the top-level Makefile.
#
#   make firmware BOARD=stm32f4discovery CLOCK_HZ=168000000
#
# HIL_CLOCK_HZ: 24000000 (pqm4's benchmark setting: PLL, 0 wait states,
# caches on, no prefetch; the default) or 168000000 (PLL, 5 wait states,
# prefetch and caches on). The Makefile's own CLOCK_HZ default is the
# F401's 84 MHz, which this board does not build: when CLOCK_HZ was not
# given, this board's default is 24 MHz.
# HIL_BAUD: USART2 rate (PA2 TX, PA3 RX, to a USB-serial adapter).
# Soft float for the same reasons as the other boards.
#
# The F407's USART2, UID (0x1FFF7A10) and reset are the F401's:
# common/hal_common.c serves both.

ifeq ($(origin CLOCK_HZ),file)
HIL_CLOCK_HZ ?= 24000000
else
HIL_CLOCK_HZ ?= $(CLOCK_HZ)
endif
HIL_BAUD ?= 115200

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c target/boards/common/hal_common.c \
	target/boards/common/dwt.c \
	target/boards/stm32f4discovery/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
	-DHIL_CLOCK_HZ=$(HIL_CLOCK_HZ) -DHIL_BAUD=$(HIL_BAUD)
BOARD_LDSCRIPT := target/boards/stm32f4discovery/stm32f407vg.ld
# Stack size (default 8 KiB): add -Wl,--defsym=__stack_size=16384
BOARD_LDFLAGS :=
