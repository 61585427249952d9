# firmware.mk: the target stub for one board, configuration and set of implementations (make firmware); hilrun runs it per configuration.
# Built by hilrun for each configuration (own FW_DIR per configuration).
BOARD ?= qemu-netduino
OPT ?= -O2
CLOCK_HZ ?= 84000000
ALGS ?= ascon-aead128/ref
FW_DIR ?= $(BUILD)/fw/manual-$(BOARD)
CROSS ?= arm-none-eabi-
FW_CC := $(CROSS)gcc

ifneq ($(filter firmware fw-%,$(MAKECMDGOALS)),)
include target/boards/$(BOARD)/board.mk
endif

FW_CFLAGS := -std=c99 -Wall -Wextra -Werror $(OPT) -g \
	-ffunction-sections -fdata-sections -ffreestanding \
	$(BOARD_CFLAGS) -Iprotocol -Itarget -Itarget/boards/common -MMD -MP
FW_LDFLAGS := $(BOARD_CFLAGS) $(OPT) -flto -nostartfiles --specs=nano.specs \
	-Wl,--gc-sections -Wl,--build-id=sha1 -Wl,-Map=$(FW_DIR)/stub.map \
	-T $(BOARD_LDSCRIPT) $(BOARD_LDFLAGS)
FW_CORE_SRCS := target/main.c target/bench.c protocol/hilp.c $(BOARD_SRCS)

# Code of the user's own (an external folder, "alg/impl=DIR") is compiled with
# the config's flags but without -Werror: its warnings are not ours to police.
# They are kept beside each object (.warn) and counted by hilrun.
FW_FOREIGN_CFLAGS := $(filter-out -Werror,$(FW_CFLAGS))
impl_foreign = $(if $(word 2,$(subst =, ,$(1))),1,)
# The entry points an implementation may export (see target/glue.c); every
# other global symbol of it is made local, so that any number of
# implementations, from one code base or several, share one image.
IMPL_API := aead_encrypt aead_decrypt hash xof block_keysetup block_ecb_encrypt
impl_objs = $(patsubst $(2)/%,$(FW_DIR)/obj/$(1)/%.o,$(basename $(wildcard $(2)/*.c $(2)/*.S)))

# $(1) = alg/impl, $(2) = its folder, $(3) = compiler flags.
define fw_impl_rules
$(FW_DIR)/obj/$(1)/%.o: $(2)/%.c $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(3) $(call impl_defs,$(1),$(2)) -c $$< -o $$@ 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; exit $$$$st
$(FW_DIR)/obj/$(1)/%.o: $(2)/%.S $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(3) $(call impl_defs,$(1),$(2)) -c $$< -o $$@ 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; exit $$$$st
# One object per implementation: a partial link, then every global symbol
# but the API entry points made local, checked with nm.
$(FW_DIR)/crypto/$(1)/code.o: $(call impl_objs,$(1),$(2))
	@mkdir -p $$(@D)
	$(CROSS)ld -r -d -o $$@.all $$^
	$(CROSS)objcopy $(foreach a,$(IMPL_API),--keep-global-symbol=$(call impl_sym,$(1))_$(a)) $$@.all $$@
	@rm -f $$@.all
	@left=$$$$($(CROSS)nm -g --defined-only $$@ | awk '{print $$$$3}' | \
		grep -v -x $(foreach a,$(IMPL_API),-e $(call impl_sym,$(1))_$(a))); \
	if [ -n "$$$$left" ]; then echo "$(1): symbols still exported after localisation: $$$$left" >&2; \
		rm -f $$@; exit 1; fi
$(FW_DIR)/crypto/$(1)/glue.o: target/glue.c $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(FW_CFLAGS) $(call impl_defs,$(1),$(2)) -c $$< -o $$@
FW_CRYPTO_OBJS += $(FW_DIR)/crypto/$(1)/code.o $(FW_DIR)/crypto/$(1)/glue.o
endef
FW_ALGS := $(filter-out none,$(ALGS))
$(foreach i,$(FW_ALGS),$(if $(wildcard $(call impl_dir,$(i))/api.h),,$(error no api.h in $(call impl_dir,$(i)) for $(call impl_id,$(i)))))
$(foreach i,$(FW_ALGS),$(eval $(call fw_impl_rules,$(call impl_id,$(i)),$(call impl_dir,$(i)),$(if $(call impl_foreign,$(i)),$(FW_FOREIGN_CFLAGS),$(FW_CFLAGS)))))

# A user's folder built for the host, with its glue, as a program of its own
# (host/refhelper: requests on stdin, results on stdout): the reference its
# target build is checked against. hilrun runs it jailed, as a separate
# process; nothing of it is ever loaded into hilrun.
# HOST_IMPL is "alg/impl=DIR"; DIR is hilrun's link to the folder. Code that
# does not build for the host (assembly) simply fails here.
HOST_IMPL ?=
HOST_IMPL_EXE = $(FW_DIR)/host/$(call impl_sym,$(call impl_id,$(HOST_IMPL)))
HOST_REF_SRCS := host/refhelper/refhelper.c host/image/refcrypto/refcrypto.c \
	protocol/hilp.c host/util/log.c
.PHONY: host-impl
host-impl:
	@test -n "$(HOST_IMPL)" || { echo "host-impl: HOST_IMPL=alg/impl=DIR is required" >&2; exit 2; }
	@test -z "$(wildcard $(call impl_dir,$(HOST_IMPL))/*.S)" || { echo "$(call impl_id,$(HOST_IMPL)): has assembly files (.S): no host build" >&2; exit 1; }
	@mkdir -p $(dir $(HOST_IMPL_EXE))
	$(HOST_CC) -std=c99 -O1 -g -Iprotocol -Itarget -Ihost \
		$(call impl_defs,$(call impl_id,$(HOST_IMPL)),$(call impl_dir,$(HOST_IMPL))) \
		-o $(HOST_IMPL_EXE) $(wildcard $(call impl_dir,$(HOST_IMPL))/*.c) target/glue.c \
		$(HOST_REF_SRCS)

# The flags file changes whenever the build inputs change, so that nothing
# built with other flags is ever reused.
$(FW_DIR)/flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' "BOARD=$(BOARD) OPT=$(OPT) ALGS=$(FW_ALGS)" "CFLAGS=$(FW_CFLAGS)" \
		"LDFLAGS=$(FW_LDFLAGS) $(FW_LDLIBS)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(FW_DIR)/gen/algs.h: $(FW_DIR)/flags
	@mkdir -p $(@D)
	@rm -f $@.tmp
	@for i in $(foreach i,$(FW_ALGS),$(call impl_sym,$(call impl_id,$(i)))); do echo "HIL_ALG($$i)" >> $@.tmp; done
	@touch $@.tmp && mv $@.tmp $@

$(FW_DIR)/registry.o: target/registry.c $(FW_DIR)/gen/algs.h
	$(FW_CC) $(FW_CFLAGS) -I$(FW_DIR)/gen -c $< -o $@

# The stub's own code is optimised across files (LTO) to keep it small; the
# implementations are compiled exactly as the config says, without LTO, so
# that nothing of the harness is inlined into what is measured.
$(FW_DIR)/core/%.o: %.c $(FW_DIR)/flags
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -flto -c $< -o $@

FW_OBJS := $(patsubst %.c,$(FW_DIR)/core/%.o,$(FW_CORE_SRCS)) \
	$(FW_DIR)/registry.o $(FW_CRYPTO_OBJS)

# target/heap.c (the stub's _sbrk) sits alone in an archive searched together
# with libc: it is linked only when an implementation's malloc needs _sbrk.
FW_HEAP_LIB := $(FW_DIR)/heap/libstubheap.a
FW_LDLIBS = -Wl,--start-group $(FW_HEAP_LIB) -lc -Wl,--end-group
$(FW_DIR)/heap/heap.o: target/heap.c $(FW_DIR)/flags
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@
$(FW_HEAP_LIB): $(FW_DIR)/heap/heap.o
	@rm -f $@
	$(CROSS)ar rcs $@ $<

$(FW_DIR)/stub.elf: $(FW_OBJS) $(FW_HEAP_LIB) $(BOARD_LDSCRIPT)
	$(FW_CC) $(FW_LDFLAGS) -o $@ $(FW_OBJS) $(FW_LDLIBS)
	$(CROSS)size $@

.PHONY: firmware fw-impl
firmware: $(FW_DIR)/stub.elf

# The implementations' objects alone, without the image (hilrun builds each
# folder of the user's this way to find one that does not build).
fw-impl: $(foreach i,$(FW_ALGS),$(FW_DIR)/crypto/$(call impl_id,$(i))/code.o)

# Dependency files are make syntax: only those of the objects this build
# makes are read, never whatever lies under build/ (a planted .d file would
# run its recipe at the next build). host.mk and tests.mk include theirs.
FW_DEPS := $(FW_OBJS) $(FW_DIR)/heap/heap.o \
	$(foreach i,$(FW_ALGS),$(call impl_objs,$(call impl_id,$(i)),$(call impl_dir,$(i))))
-include $(wildcard $(FW_DEPS:.o=.d))

