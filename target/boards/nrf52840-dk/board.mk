# nrf52840-dk: the Nordic nRF52840-DK (PCA10056), included by the top-level Makefile.
#
#   make firmware BOARD=nrf52840-dk HIL_ICACHE=0
#
# HIL_CLOCK_HZ: 64000000 only (the core has no other clock: clock_math.h).
# The Makefile's CLOCK_HZ default (84000000, the Nucleo's) is not ours:
# it is used only when given on the command line or in the environment,
# and then anything but 64000000 fails the build (hal.c #error).
# HIL_BAUD: UARTE0 rate to the J-Link OB virtual COM port, one of the PS table.
# HIL_ICACHE: 1 (default) NVMC instruction cache on, 0 off.
# Soft float as on the other boards: the same crypto objects and libc
# multilib (v7e-m/nofp) everywhere, so the boards compare like for like.
# No common/hal_common.c (STM32 USART2 and UID): common/hal_core.c and
# common/dwt.c, and the rest in hal.c.

ifeq ($(filter command line environment,$(origin CLOCK_HZ)),)
HIL_CLOCK_HZ ?= 64000000
else
HIL_CLOCK_HZ ?= $(CLOCK_HZ)
endif
HIL_BAUD ?= 115200
HIL_ICACHE ?= 1

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c target/boards/common/dwt.c \
	target/boards/nrf52840-dk/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
	-DHIL_CLOCK_HZ=$(HIL_CLOCK_HZ) -DHIL_BAUD=$(HIL_BAUD) \
	-DHIL_ICACHE=$(HIL_ICACHE)
BOARD_LDSCRIPT := target/boards/nrf52840-dk/nrf52840.ld
# Stack size (default 8 KiB): add -Wl,--defsym=__stack_size=16384
BOARD_LDFLAGS :=
