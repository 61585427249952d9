# qemu-netduino: QEMU 7.2 `-M netduinoplus2` (STM32F405 model), included by the top-level Makefile.
#
# Soft float: the crypto code is integer-only, so an FPU buys nothing, and
# soft float keeps the same objects, libc multilib (v7e-m/nofp) and exception
# frames on both boards. startup.c enables the FPU only when a board is built
# with -mfloat-abi=hard or softfp (__ARM_FP), should one ever need it.
#
# HAL_BOARD_UID: QEMU maps nothing at the UID address (a read bus-faults),
# so this board's hal.c supplies hal_uid() instead of hal_common.c.
#
# HIL_LINK: the host link the stub is built for, from the config's
# link.type: empty (link "socket") for USART2, QEMU's second -serial;
# "semihost" for Arm semihosting on QEMU's console (common/link_semihost.c,
# -DHAL_LINK_SEMIHOST). The USART image does not depend on this variable.
HIL_LINK ?=

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c target/boards/common/hal_common.c \
	target/boards/qemu-netduino/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -DHAL_BOARD_UID
ifeq ($(HIL_LINK),semihost)
BOARD_SRCS += target/boards/common/link_semihost.c
BOARD_CFLAGS += -DHAL_LINK_SEMIHOST
else ifneq ($(HIL_LINK),)
$(error HIL_LINK=$(HIL_LINK): qemu-netduino is built for the USART (empty) or semihost)
endif
BOARD_LDSCRIPT := target/boards/common/stm32f401re.ld
# Stack size (default 8 KiB): add -Wl,--defsym=__stack_size=16384
BOARD_LDFLAGS :=
