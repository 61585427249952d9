# qemu-mps2-an386: QEMU 7.2 `-M mps2-an386` (Arm MPS2 with the AN386 FPGA image: a Cortex-M4 with 4 MiB of code RAM and 4 MiB of data RAM), included by the top-level Makefile.
#
# The board pqm4 runs its schemes on under QEMU; here it is the emulated
# board for images that the netduinoplus2's 96 KiB (as linked) or 192 KiB
# cannot hold. Same stub, same protocol, the same instruction counter and
# cycle model as qemu-netduino (see hal.c for how the count is made).
#
# HIL_LINK: semihosting is this board's only link (the CMSDK UARTs are not
# wired to the host), so link_semihost.c is built whether HIL_LINK is
# "semihost" (what the host passes) or empty (the image checks' default).
#
# Soft float as on the other boards. HAL_BOARD_UID: hal.c has its own
# hal_uid() (the MPS2 has no device UID), and no hal_common.c is linked.
HIL_LINK ?=

ifneq ($(HIL_LINK),semihost)
ifneq ($(HIL_LINK),)
$(error HIL_LINK=$(HIL_LINK): qemu-mps2-an386 is reached through semihosting only (semihost or empty))
endif
endif

BOARD_SRCS := target/boards/common/startup.c \
	target/boards/common/hal_core.c \
	target/boards/common/link_semihost.c \
	target/boards/qemu-mps2-an386/hal.c
BOARD_CFLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -DHAL_BOARD_UID \
	-DHAL_LINK_SEMIHOST
BOARD_LDSCRIPT := target/boards/qemu-mps2-an386/mps2_an386.ld
# Stack size (default here 256 KiB, out of 4 MiB): -Wl,--defsym=__stack_size=N
BOARD_LDFLAGS :=
