# host.mk: the host tool (build/hilrun) and its library; included by the top-level Makefile.
#
# Every .c under host/ is part of the library except the command-line entry
# (host/cli/main.c), the QEMU plugin (host/emu/plugin, built by emu.mk) and
# the main of a foreign implementation's host build (host/refhelper, built by
# firmware.mk's host-impl). The memory-system profiles the plugin compiles
# are host/drivers/board/memsys.c, part of the library like any driver: a new
# driver or module is a new file, never a Makefile edit.

HOST_CC ?= cc
PKGS := libcjson libserialport libftdi1 libelf sqlite3
HOST_WARN := -std=c99 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wno-format-truncation
HOST_CFLAGS := $(HOST_WARN) -O2 -g -Ihost -Iprotocol -Itarget -MMD -MP
HOST_LDLIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lmd -lm -lpthread
ifeq ($(SAN),1)
HOST_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
HOST_LDFLAGS += -fsanitize=address,undefined
BUILD := build/san
endif
HOST_CFLAGS += $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
HB := $(BUILD)/host

HOST_MAIN_SRCS := host/cli/main.c
HOST_LIB_SRCS := $(sort $(filter-out $(HOST_MAIN_SRCS) host/emu/plugin/% host/refhelper/%, \
	$(shell find host -name '*.c'))) protocol/hilp.c

# Every object is compiled under a name of this make's own (its shell's pid)
# and renamed once whole, as libhil.a is made (below): two makes in one
# checkout that both find an object out of date never read one the other is
# writing, and a compile killed half-way leaves a stray .tmp, not a
# truncated object newer than its source. The dependency file keeps the
# object's name and target (-MF, -MT).
HOST_OUT = -MT $@ -MF $(@:.o=.d) -o $@.$$$$.tmp
HOST_COMMIT = mv -f $@.$$$$.tmp $@

# Host builds of every implementation: expected outputs and `crypt --on host`.
define host_impl_rules
$(HB)/crypto/$(1)/%.o: target/crypto/$(1)/%.c
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(call impl_defs,$(1),target/crypto/$(1)) -c $$< $$(HOST_OUT) && $$(HOST_COMMIT)
$(HB)/crypto/$(1)/glue.o: target/glue.c
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(call impl_defs,$(1),target/crypto/$(1)) -c $$< $$(HOST_OUT) && $$(HOST_COMMIT)
HOST_CRYPTO_OBJS += $(patsubst target/crypto/$(1)/%.c,$(HB)/crypto/$(1)/%.o,$(call impl_srcs,$(1))) $(HB)/crypto/$(1)/glue.o
endef
$(foreach i,$(ALL_IMPLS),$(eval $(call host_impl_rules,$(i))))

# Rewritten only when the list changes, so that nothing is rebuilt needlessly.
$(HB)/gen/algs.h: FORCE
	@mkdir -p $(@D)
	@rm -f $@.tmp
	@for i in $(foreach i,$(ALL_IMPLS),$(call impl_sym,$(i))); do echo "HIL_ALG($$i)" >> $@.tmp; done
	@touch $@.tmp && (cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@)

$(HB)/registry.o: target/registry.c $(HB)/gen/algs.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(HB)/gen -c $< $(HOST_OUT) && $(HOST_COMMIT)

$(HB)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -c $< $(HOST_OUT) && $(HOST_COMMIT)

HOST_LIB_OBJS := $(patsubst %.c,$(HB)/%.o,$(HOST_LIB_SRCS)) $(HB)/registry.o \
	$(HOST_CRYPTO_OBJS)

# The archive is made under a name of this make's own (its shell's pid) and
# renamed over libhil.a. A rename is atomic: another make in the same
# checkout (make all while make build/tests/test_X links, each finding the
# archive out of date) reads the old archive or the new one, never one that
# is missing (`rm -f; ar rcs` left a moment with none) or half written (ar
# writing into the name the other links from), and a make killed half-way
# leaves a stray .tmp, not a truncated libhil.a newer than its objects.
$(HB)/libhil.a: $(HOST_LIB_OBJS)
	rm -f $@.$$$$.tmp && $(AR) rcs $@.$$$$.tmp $^ && mv -f $@.$$$$.tmp $@ || \
		{ rm -f $@.$$$$.tmp; exit 1; }

$(BUILD)/hilrun: $(HB)/host/cli/main.o $(HB)/libhil.a
	$(HOST_CC) $(HOST_LDFLAGS) -o $@ $^ $(HOST_LDLIBS)

# The dependency files of the host objects, and only those (mk/firmware.mk).
-include $(wildcard $(HOST_LIB_OBJS:.o=.d) $(HB)/host/cli/main.d)
