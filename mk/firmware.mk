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
FW_CORE_SRCS := target/main.c target/bench.c target/boards/common/reply.c protocol/hilp.c \
	$(BOARD_SRCS)

# Code of the user's own (an external folder, "alg/impl=DIR") is compiled with
# the config's flags but without -Werror: its warnings are not ours to police.
# They are kept beside each object (.warn) and counted by hilrun.
# It is GNU C (gnu11), as the NIST LWC and SUPERCOP trees are written and
# compiled (inline asm, typeof, statement expressions): strict C99 is the
# stub's own rule, not theirs. C++ (.cpp) goes to g++ with the same flags, in
# the way the Arduino cores compile it (no exceptions, no RTTI).
FW_FOREIGN_CFLAGS := $(subst -std=c99,-std=gnu11,$(filter-out -Werror,$(FW_CFLAGS)))
FW_CXX := $(CROSS)g++
fw_cxxflags = $(filter-out -std=%,$(1)) -std=gnu++11 -fno-exceptions -fno-rtti -fno-threadsafe-statics
impl_foreign = $(if $(word 2,$(subst =, ,$(1))),1,)
# The entry points an implementation may export (see target/glue.c); every
# other global symbol of it is made local, so that any number of
# implementations, from one code base or several, share one image.
IMPL_API := aead_encrypt aead_decrypt hash xof block_keysetup block_ecb_encrypt \
	lwc_aead_cipher lwc_hash_ctx
impl_objs = $(patsubst $(2)/%,$(FW_DIR)/obj/$(1)/%.o,$(basename $(call impl_all_srcs,$(2))))

# Every object is compiled under a temporary name and renamed once the
# compiler is done: a compile killed half-way (SIGKILL: no recipe left to
# fail, .DELETE_ON_ERROR cannot help) leaves X.o.tmp, never a truncated X.o
# newer than its source, which make would take as up to date and the link
# choke on for good. The dependency file keeps the object's own name and
# target (-MF, -MT), as -MMD alone would name them after X.o.tmp.
FW_OUT = -MT $@ -MF $(@:.o=.d) -o $@.tmp
FW_COMMIT = mv -f $@.tmp $@

# $(1) = alg/impl, $(2) = its folder, $(3) = compiler flags.
define fw_impl_rules
$(FW_DIR)/obj/$(1)/%.o: $(2)/%.c $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(3) $(call impl_defs,$(1),$(2)) -c $$< $$(FW_OUT) 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; test $$$$st -ne 0 || $$(FW_COMMIT); exit $$$$st
$(FW_DIR)/obj/$(1)/%.o: $(2)/%.S $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(3) $(call impl_defs,$(1),$(2)) -c $$< $$(FW_OUT) 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; test $$$$st -ne 0 || $$(FW_COMMIT); exit $$$$st
$(FW_DIR)/obj/$(1)/%.o: $(2)/%.s $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(3) $(call impl_defs,$(1),$(2)) -c $$< $$(FW_OUT) 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; test $$$$st -ne 0 || $$(FW_COMMIT); exit $$$$st
$(FW_DIR)/obj/$(1)/%.o: $(2)/%.cpp $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CXX) $(call fw_cxxflags,$(3)) $(call impl_defs,$(1),$(2)) -c $$< $$(FW_OUT) 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; test $$$$st -ne 0 || $$(FW_COMMIT); exit $$$$st
# One object per implementation: a partial link, then every global symbol
# but the API entry points made local, checked with nm; made as code.o.tmp
# and renamed once checked, so that nothing half-made is ever code.o.
$(FW_DIR)/crypto/$(1)/code.o: $(call impl_objs,$(1),$(2))
	@mkdir -p $$(@D)
	$(CROSS)ld -r -d -o $$@.all $$^
	$(CROSS)objcopy $(foreach a,$(IMPL_API),--keep-global-symbol=$(call impl_sym,$(1))_$(a)) $$@.all $$@.tmp
	@rm -f $$@.all
	@left=$$$$($(CROSS)nm -g --defined-only $$@.tmp | awk '{print $$$$3}' | \
		grep -v -x $(foreach a,$(IMPL_API),-e $(call impl_sym,$(1))_$(a))); \
	if [ -n "$$$$left" ]; then echo "$(1): symbols still exported after localisation: $$$$left" >&2; \
		rm -f $$@.tmp; exit 1; fi
	@mv -f $$@.tmp $$@
$(FW_DIR)/crypto/$(1)/glue.o: target/glue.c $(FW_DIR)/flags
	@mkdir -p $$(@D)
	$(FW_CC) $(FW_CFLAGS) $(call impl_defs,$(1),$(2)) -c $$< $$(FW_OUT) && $$(FW_COMMIT)
# The implementation linked alone, as the image would link it (its glue
# the root, --gc-sections, the board's linker script, the same libraries):
# a folder whose objects do not link is found by itself (make fw-impl), not
# by the image's link.
$(FW_DIR)/crypto/$(1)/link.ok: $(FW_DIR)/crypto/$(1)/code.o $(FW_DIR)/crypto/$(1)/glue.o $(FW_HEAP_LIB)
	$(FW_CC) $(BOARD_CFLAGS) $(OPT) -nostartfiles --specs=nano.specs -Wl,--gc-sections \
		-T $(BOARD_LDSCRIPT) $(BOARD_LDFLAGS) -Wl,--entry=$(call impl_sym,$(1))_alg -Wl,--undefined=$(call impl_sym,$(1))_alg \
		-o $$@.elf $(FW_DIR)/crypto/$(1)/code.o $(FW_DIR)/crypto/$(1)/glue.o $(FW_LDLIBS) 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; test $$$$st -ne 0 || touch $$@; exit $$$$st
FW_CRYPTO_OBJS += $(FW_DIR)/crypto/$(1)/code.o $(FW_DIR)/crypto/$(1)/glue.o
endef
FW_ALGS := $(filter-out none,$(ALGS))
$(foreach i,$(FW_ALGS),$(if $(wildcard $(call impl_dir,$(i))/api.h),,$(error no api.h in $(call impl_dir,$(i)) for $(call impl_id,$(i)))))
# target/heap.c (the stub's _sbrk) sits alone in an archive searched together
# with libc: it is linked only when an implementation's malloc needs _sbrk.
# C++ in any folder of the image: libstdc++'s support (nano) is searched too.
FW_HEAP_LIB := $(FW_DIR)/heap/libstubheap.a
FW_LDLIBS = -Wl,--start-group $(FW_HEAP_LIB) -lc $(if $(FW_HAS_CXX),-lstdc++ -lsupc++) -Wl,--end-group
FW_HAS_CXX := $(strip $(foreach i,$(FW_ALGS),$(wildcard $(call impl_dir,$(i))/*.cpp)))
$(foreach i,$(FW_ALGS),$(eval $(call fw_impl_rules,$(call impl_id,$(i)),$(call impl_dir,$(i)),$(if $(call impl_foreign,$(i)),$(FW_FOREIGN_CFLAGS),$(FW_CFLAGS)))))

# A user's folder built for the host, with its glue, as a program of its own
# (host/refhelper: requests on stdin, results on stdout): the reference its
# target build is checked against. hilrun runs it jailed, as a separate
# process; nothing of it is ever loaded into hilrun.
# HOST_IMPL is "alg/impl=DIR"; DIR is hilrun's link to the folder. Code that
# does not build for the host (assembly) simply fails here.
HOST_IMPL ?=
HOST_IMPL_EXE = $(FW_DIR)/host/$(call impl_sym,$(call impl_id,$(HOST_IMPL)))
HOST_IMPL_CPP = $(wildcard $(call impl_dir,$(HOST_IMPL))/*.cpp)
HOST_CXX ?= c++
HOST_REF_SRCS := host/refhelper/refhelper.c host/image/refcrypto/refcrypto.c \
	protocol/hilp.c host/util/log.c
.PHONY: host-impl
host-impl:
	@test -n "$(HOST_IMPL)" || { echo "host-impl: HOST_IMPL=alg/impl=DIR is required" >&2; exit 2; }
	@test -z "$(call impl_asm,$(call impl_dir,$(HOST_IMPL)))" || { echo "$(call impl_id,$(HOST_IMPL)): has assembly files (.S, .s): no host build" >&2; exit 1; }
	@mkdir -p $(dir $(HOST_IMPL_EXE))
	$(foreach f,$(HOST_IMPL_CPP),$(HOST_CXX) -std=gnu++11 -O1 -g -Iprotocol -Itarget \
		$(call impl_defs,$(call impl_id,$(HOST_IMPL)),$(call impl_dir,$(HOST_IMPL))) \
		-c $(f) -o $(HOST_IMPL_EXE).$(notdir $(basename $(f))).o &&) true
	$(HOST_CC) -std=gnu11 -O1 -g -Iprotocol -Itarget -Ihost \
		$(call impl_defs,$(call impl_id,$(HOST_IMPL)),$(call impl_dir,$(HOST_IMPL))) \
		-o $(HOST_IMPL_EXE) $(wildcard $(call impl_dir,$(HOST_IMPL))/*.c) target/glue.c \
		$(foreach f,$(HOST_IMPL_CPP),$(HOST_IMPL_EXE).$(notdir $(basename $(f))).o) \
		$(HOST_REF_SRCS) $(if $(HOST_IMPL_CPP),-lstdc++)

# The flags file changes whenever the build inputs change, so that nothing
# built with other flags is ever reused; the rules that compile a folder
# (its -D renames, its languages, the foreign flags) are inputs too.
FW_RULES_SUM := $(firstword $(shell cat mk/impl.mk mk/firmware.mk | cksum))
$(FW_DIR)/flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' "BOARD=$(BOARD) OPT=$(OPT) ALGS=$(FW_ALGS)" "CFLAGS=$(FW_CFLAGS)" \
		"LDFLAGS=$(FW_LDFLAGS) $(FW_LDLIBS)" "RULES=$(FW_RULES_SUM)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(FW_DIR)/gen/algs.h: $(FW_DIR)/flags
	@mkdir -p $(@D)
	@rm -f $@.tmp
	@for i in $(foreach i,$(FW_ALGS),$(call impl_sym,$(call impl_id,$(i)))); do echo "HIL_ALG($$i)" >> $@.tmp; done
	@touch $@.tmp && mv $@.tmp $@

$(FW_DIR)/registry.o: target/registry.c $(FW_DIR)/gen/algs.h
	$(FW_CC) $(FW_CFLAGS) -I$(FW_DIR)/gen -c $< $(FW_OUT) && $(FW_COMMIT)

# The stub's own code is optimised across files (LTO) to keep it small; the
# implementations are compiled exactly as the config says, without LTO, so
# that nothing of the harness is inlined into what is measured.
$(FW_DIR)/core/%.o: %.c $(FW_DIR)/flags
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -flto -c $< $(FW_OUT) && $(FW_COMMIT)

FW_OBJS := $(patsubst %.c,$(FW_DIR)/core/%.o,$(FW_CORE_SRCS)) \
	$(FW_DIR)/registry.o $(FW_CRYPTO_OBJS)

# (FW_HEAP_LIB and FW_LDLIBS: above, before the implementations' rules.)
$(FW_DIR)/heap/heap.o: target/heap.c $(FW_DIR)/flags
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -c $< $(FW_OUT) && $(FW_COMMIT)
# target/syscalls.c (_exit, _write..., for guest code's assert()) is a second member,
# pulled in only when referenced.
$(FW_DIR)/heap/syscalls.o: target/syscalls.c $(FW_DIR)/flags
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -c $< $(FW_OUT) && $(FW_COMMIT)
$(FW_HEAP_LIB): $(FW_DIR)/heap/heap.o $(FW_DIR)/heap/syscalls.o
	@rm -f $@.tmp
	$(CROSS)ar rcs $@.tmp $^
	@mv -f $@.tmp $@

# Linked under a temporary name and renamed: a link killed half-way (hilrun
# stopped or killed, the machine down) leaves stub.elf.tmp, never an empty or
# truncated stub.elf newer than its objects, which make would take as up to
# date and hilrun would load (a link that fails: .DELETE_ON_ERROR). The old
# image, if any, stays older than what changed: the next make links again.
$(FW_DIR)/stub.elf: $(FW_OBJS) $(FW_HEAP_LIB) $(BOARD_LDSCRIPT)
	$(FW_CC) $(FW_LDFLAGS) -o $@.tmp $(FW_OBJS) $(FW_LDLIBS)
	$(CROSS)size $@.tmp
	mv -f $@.tmp $@

.PHONY: firmware fw-impl
firmware: $(FW_DIR)/stub.elf

# The implementations' objects alone, without the image (hilrun builds each
# folder of the user's this way to find one that does not build).
fw-impl: $(foreach i,$(FW_ALGS),$(FW_DIR)/crypto/$(call impl_id,$(i))/link.ok)

# Dependency files are make syntax: only those of the objects this build
# makes are read, never whatever lies under build/ (a planted .d file would
# run its recipe at the next build). host.mk and tests.mk include theirs.
FW_DEPS := $(FW_OBJS) $(FW_DIR)/heap/heap.o \
	$(foreach i,$(FW_ALGS),$(call impl_objs,$(call impl_id,$(i)),$(call impl_dir,$(i))))
-include $(wildcard $(FW_DEPS:.o=.d))

