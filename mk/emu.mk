# emu.mk: the Cortex-M4 cycle-model plugin for QEMU (host/emu/plugin) and its tests; included by mk/tests.mk.
#
# The plugin is a host shared object that qemu-system-arm dlopen()s
# (-plugin $(CYCLE_PLUGIN),ws=N,art=on|off,out=PATH). It is built with the
# host compiler but never with the sanitizers (it runs inside QEMU, which is
# not built with them), and it links nothing of QEMU: QEMU provides the
# qemu_plugin_* functions when it loads it.
#
# Test targets:
#   emu-test      build and run the per-rule tests (tests/emu/)
#   EMU_BINS      the test binaries, for a runner loop like `unit`/`e2e`

EMU_CC ?= cc
EMU_DIR := build/emu
CYCLE_PLUGIN := $(EMU_DIR)/cyclemodel.so
EMU_SRCS := host/emu/plugin/plugin.c host/emu/plugin/cm4.c host/emu/plugin/thumb.c \
	host/drivers/board/memsys.c
EMU_CFLAGS := -std=c99 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -O2 -g -fPIC -fvisibility=hidden
EMU_LDFLAGS := -shared

$(CYCLE_PLUGIN): $(EMU_SRCS) $(wildcard host/emu/plugin/*.h) host/drivers/board/memsys.h
	@mkdir -p $(@D)
	$(EMU_CC) $(EMU_CFLAGS) $(EMU_LDFLAGS) -o $@ $(EMU_SRCS)

.PHONY: cycle-plugin
cycle-plugin: $(CYCLE_PLUGIN)

# ---- tests: tiny bare-metal images with hand-counted sequences
EMU_TB := $(TB)/emu
EMU_IMAGES := $(EMU_TB)/rules.elf $(EMU_TB)/flash.elf $(EMU_TB)/speed.elf \
	$(EMU_TB)/memsys.elf
EMU_ARM_FLAGS := -mcpu=cortex-m4 -mthumb -nostdlib -nostartfiles \
	-Wl,--build-id=none -T tests/emu/emu.ld

$(EMU_TB)/%.elf: tests/emu/%.S tests/emu/emu.ld tests/emu/emu.inc
	@mkdir -p $(@D)
	$(CROSS)gcc $(EMU_ARM_FLAGS) -Itests/emu -o $@ $<

# The model's decoder and rules alone, on the host (no QEMU).
$(TB)/test_emu_model: tests/emu/test_emu_model.c host/emu/plugin/cm4.c \
		host/emu/plugin/thumb.c host/drivers/board/memsys.c \
		$(wildcard host/emu/plugin/*.h) host/drivers/board/memsys.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ihost/emu/plugin $(HOST_LDFLAGS) -o $@ $< \
		host/emu/plugin/cm4.c host/emu/plugin/thumb.c \
		host/drivers/board/memsys.c -lcmocka

# QEMU with the plugin on the hand-counted images, and on the real stub.
$(TB)/test_emu_cyclemodel: tests/emu/test_emu_cyclemodel.c $(HB)/libhil.a \
		$(CYCLE_PLUGIN) $(EMU_IMAGES)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Itests/e2e \
		-DEMU_PLUGIN='"$(abspath $(CYCLE_PLUGIN))"' \
		-DEMU_IMAGES='"$(abspath $(EMU_TB))"' \
		$(HOST_LDFLAGS) -o $@ $< tests/e2e/e2e_util.c \
		$(HB)/libhil.a $(HOST_LDLIBS) -lcmocka

EMU_BINS := $(TB)/test_emu_model $(TB)/test_emu_cyclemodel

.PHONY: emu-test
emu-test: $(EMU_BINS)
	@fail=0; for t in $(EMU_BINS); do \
		echo "== $$t"; HIL_SRC_DIR=$(CURDIR) $$t || fail=1; done; \
	test $$fail = 0
