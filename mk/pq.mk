# pq.mk: one mupq-layout scheme (crypto_kem or crypto_sign folder) built into the pq stub for a board, and the same sources built for the host as its reference (hilrun pq runs both).
#
#   make pq-fw   PQ_SCHEME=DIR PQ_KIND=KEM|SIGN PQ_NS=NAMESPACE_ PQ_OUT=DIR \
#                [PQ_COMMON="DIR..."] [PQ_OPT=-O3] [PQ_RUNS=3] [PQ_SEED=1] [BOARD=...]
#   (PQ_RUNS: the text image's and the host reference's; a frames image
#   takes its runs from each PQRUN request)
#   make pq-host (the same variables): the host reference, when the scheme has no assembly
#   PQ_XFLAGS="FLAG..." (both): what the folder's config.mk adds (pqm4's
#                per-implementation flags, as hilrun read them, image/pqflags.h):
#                all of them to the scheme's own objects of the image, their
#                -D, -U and -I to the stub (it includes api.h) and to the host
#                reference (pqm4 adds them to its elf targets, which compile
#                the test program with the scheme)
#   PQ_HOST_SIGS=DIR (both): signatures from the host build (pq-bench -S): the
#                host reference prints them, the image is built with
#                DIR/pq_hostsigs.h made from them and times keypair and verify only
#
# The scheme's own .c, .S and .s files are compiled as they are (pqm4's flags:
# -O3 -std=gnu99, Cortex-M4 with the FPU, hard-float ABI) into PQ_OUT/fw/scheme,
# their sizes apart from everything else (pqm4's rule). The common code (the
# folders of PQ_COMMON, or hilrun's own target/pq/common) goes into an archive,
# so that only what the scheme calls is linked, and hilrun's randombytes
# (target/pq/pqrandom.c, linked before the archive) wins over any in it; a
# common file named randombytes.c is never built. A common file that does not
# compile (a HAL for another board) is left out, its errors kept in a .skip
# file beside it.
#
# PQ_OUTPUT: how the stub reports its calls: "text" over semihosting
# (SYS_WRITE0, then SYS_EXIT_EXTENDED: what scripts/pq-bench.sh reads under
# the cycle model), the default on qemu-mps2-an386; "frames", hilp's PQRUN
# records over the board's link (docs/protocol.md), the default on every
# other board, where the board's HAL link (USART, or semihosting with
# HIL_LINK=semihost) carries them.

PQ_SCHEME ?=
PQ_KIND ?= KEM
PQ_NS ?=
PQ_OUT ?= $(BUILD)/pq/manual
PQ_COMMON ?= target/pq/common
# The host reference's common code: by default the same folders (their .c
# files); pqm4's own host build takes mupq/common alone, whose C is portable
# where PQM4/common's aes.c calls assembly.
PQ_HOST_COMMON ?= $(PQ_COMMON)
PQ_OPT ?= -O3
PQ_XFLAGS ?=
PQ_XCPPFLAGS = $(filter -D% -U% -I%,$(PQ_XFLAGS))
PQ_RUNS ?= 3
PQ_SEED ?= 1
# The image's stack in bytes (empty: the board's default; the mps2's 256 KiB).
PQ_STACK ?=
ifeq ($(BOARD),qemu-mps2-an386)
PQ_OUTPUT ?= text
else
PQ_OUTPUT ?= frames
endif
ifeq ($(filter text frames,$(PQ_OUTPUT)),)
$(error PQ_OUTPUT=$(PQ_OUTPUT): text or frames)
endif
PQ_ARCH := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
PQ_CFLAGS = $(PQ_ARCH) $(PQ_OPT) -std=gnu99 -g -ffunction-sections \
	-fdata-sections $(PQ_COMMON_INC) $(PQ_PATHMAP)
# PQ_MAP: the run's build folder (hilrun pq: OUTDIR/build, where the copies
# of the sources are), named pq-build in the debug information and
# __FILE__, so that the same sources give the same image (build-id) in
# any run's folder.
PQ_PATHMAP = $(if $(PQ_MAP),-ffile-prefix-map=$(PQ_MAP)=pq-build)
# Every object notes the headers it read (-MMD, beside it as .d; -MP: a
# header removed is no error): a changed header rebuilds what includes it,
# the stub's board and HAL headers as much as a scheme's own.
PQ_DEPFLAGS := -MMD -MP
PQ_COMMON_INC = $(foreach d,$(PQ_COMMON),-I$(d))
PQ_STUB_DEFS = -DPQ_KIND_$(PQ_KIND) -DPQ_NS=$(PQ_NS) -DPQ_SEED=$(PQ_SEED)
# The runs are compiled into the text image and the host reference only:
# the frames image takes them from each PQRUN request (one image, one
# build-id, for any number of runs).
PQ_FW_RUNS = $(if $(filter text,$(PQ_OUTPUT)),$(PQ_RUNS))
PQ_HOST_SIGS ?=
PQ_FW_SIGS = $(if $(PQ_HOST_SIGS),-DPQ_HOST_SIGS -I$(PQ_HOST_SIGS))
PQ_FW_SIGS_DEP = $(if $(PQ_HOST_SIGS),$(PQ_HOST_SIGS)/pq_hostsigs.h)
# (the image's output only: the host reference prints text on any board)
ifneq ($(PQ_HOST_SIGS),)
ifneq ($(filter pq-fw,$(MAKECMDGOALS)),)
ifeq ($(PQ_OUTPUT),frames)
$(error PQ_HOST_SIGS (pq-bench -S) needs PQ_OUTPUT=text: the frames stub does not take the host's signatures)
endif
endif
endif

ifneq ($(filter pq-fw pq-host,$(MAKECMDGOALS)),)
ifeq ($(PQ_SCHEME),)
$(error PQ_SCHEME=DIR (a folder with api.h) is required)
endif
ifeq ($(wildcard $(PQ_SCHEME)/api.h),)
$(error no api.h in $(PQ_SCHEME))
endif
ifeq ($(filter pq-fw,$(MAKECMDGOALS)),pq-fw)
include target/boards/$(BOARD)/board.mk
endif
endif

comma := ,
PQ_FW := $(PQ_OUT)/fw
pq_srcs = $(wildcard $(1)/*.c $(1)/*.S $(1)/*.s)
pq_obj = $(2)/$(notdir $(basename $(1))).$(subst .,,$(suffix $(1))).o
PQ_SCHEME_SRCS := $(call pq_srcs,$(PQ_SCHEME))
PQ_SCHEME_OBJS := $(foreach s,$(PQ_SCHEME_SRCS),$(call pq_obj,$(s),$(PQ_FW)/scheme))

# Common folder N goes to common/N, so that two folders' fips202.c do not meet.
pq_index = $(words $(wordlist 1,$(2),$(1)))
PQ_COMMON_N := $(shell seq 1 $(words $(PQ_COMMON)) 2>/dev/null)
pq_common_all = $(filter-out %/randombytes.c,$(call pq_srcs,$(word $(1),$(2))))
# A file whose stem an earlier common folder already has is left out, as
# pqm4's library list does: PQM4/common/keccakf1600.S, not
# PQM4/mupq/common/keccakf1600.c. The host build sees only .c files, so
# there the stems of earlier .c files alone shadow.
pq_shadow = $(foreach x,c S s,$(addprefix %/,$(addsuffix .$(x),$(1))))
PQ_SEEN :=
PQ_HSEEN :=
define pq_pick
PQ_CSRC_$(1) := $$(filter-out $$(call pq_shadow,$$(PQ_SEEN)),$$(call pq_common_all,$(1),$(PQ_COMMON)))
PQ_SEEN += $$(basename $$(notdir $$(PQ_CSRC_$(1))))
endef
define pq_hpick
PQ_HSRC_$(1) := $$(filter-out $$(call pq_shadow,$$(PQ_HSEEN)),$$(filter %.c,$$(call pq_common_all,$(1),$(PQ_HOST_COMMON))))
PQ_HSEEN += $$(basename $$(notdir $$(PQ_HSRC_$(1))))
endef
PQ_HCOMMON_N := $(shell seq 1 $(words $(PQ_HOST_COMMON)) 2>/dev/null)
$(foreach n,$(PQ_COMMON_N),$(eval $(call pq_pick,$(n))))
$(foreach n,$(PQ_HCOMMON_N),$(eval $(call pq_hpick,$(n))))
pq_common_srcs = $(PQ_CSRC_$(1))
pq_host_common_srcs = $(PQ_HSRC_$(1))
PQ_COMMON_OBJS := $(foreach n,$(PQ_COMMON_N),$(foreach s,$(call pq_common_srcs,$(n)),$(call pq_obj,$(s),$(PQ_FW)/common/$(n))))

# $(1) source, $(2) object, $(3) compiler, $(4) flags, $(5) 1: may be skipped,
# $(6) the flags file of its build (the image's or the host reference's)
define pq_compile_rule
$(2): $(1) $(6)
	@mkdir -p $$(@D)
	@rm -f $$@.skip
	$(if $(5),$(3) $(4) $(PQ_DEPFLAGS) -c $$< -o $$@ 2> $$@.warn || { mv $$@.warn $$@.skip; \
		echo "left out (does not compile): $$<" >&2; \
		$(3) $(4) -x c -c /dev/null -o $$@; },$(3) $(4) $(PQ_DEPFLAGS) -c $$< -o $$@ 2> $$@.warn; \
		st=$$$$?; cat $$@.warn >&2; exit $$$$st)
endef
$(foreach s,$(PQ_SCHEME_SRCS),$(eval $(call pq_compile_rule,$(s),$(call pq_obj,$(s),$(PQ_FW)/scheme),$(CROSS)gcc,$(PQ_CFLAGS) $(PQ_XFLAGS) -I$(PQ_SCHEME),,$(PQ_FW)/flags)))
$(foreach n,$(PQ_COMMON_N),$(foreach s,$(call pq_common_srcs,$(n)),$(eval $(call pq_compile_rule,$(s),$(call pq_obj,$(s),$(PQ_FW)/common/$(n)),$(CROSS)gcc,$(PQ_CFLAGS),1,$(PQ_FW)/flags))))

# Text output makes its own semihosting calls; frames go through the
# board's link, whatever carries it.
ifeq ($(PQ_OUTPUT),frames)
PQ_BOARD_SRCS = $(BOARD_SRCS) protocol/hilp.c target/boards/common/reply.c
PQ_FW_DEFS = -DPQ_FRAMES
else
PQ_BOARD_SRCS = $(filter-out %/link_semihost.c,$(BOARD_SRCS))
PQ_FW_DEFS =
endif
PQ_STUB_SRCS = target/pq/pqstub.c target/pq/pqrandom.c $(PQ_BOARD_SRCS)
PQ_STUB_OBJS = $(patsubst %.c,$(PQ_FW)/stub/%.o,$(notdir $(PQ_STUB_SRCS)))
$(PQ_FW)/stub/%.o: target/pq/%.c $(PQ_FW)/flags $(PQ_FW_SIGS_DEP)
	@mkdir -p $(@D)
	$(CROSS)gcc -Iprotocol -Itarget -Itarget/boards/common -I$(PQ_SCHEME) $(PQ_CFLAGS) \
		$(PQ_XCPPFLAGS) $(filter -D%,$(BOARD_CFLAGS)) $(PQ_STUB_DEFS) $(if $(PQ_FW_RUNS),-DPQ_RUNS=$(PQ_FW_RUNS)) \
		$(PQ_FW_DEFS) $(PQ_FW_SIGS) -Wall -Wextra \
		-Werror=incompatible-pointer-types $(PQ_DEPFLAGS) -c $< -o $@
$(PQ_FW)/stub/%.o: target/boards/common/%.c $(PQ_FW)/flags
	@mkdir -p $(@D)
	$(CROSS)gcc $(PQ_ARCH) -O2 -std=c99 -ffunction-sections $(filter -D%,$(BOARD_CFLAGS)) \
		-Iprotocol -Itarget -Itarget/boards/common $(PQ_DEPFLAGS) -c $< -o $@
$(PQ_FW)/stub/%.o: protocol/%.c $(PQ_FW)/flags
	@mkdir -p $(@D)
	$(CROSS)gcc $(PQ_ARCH) -Os -std=c99 -ffunction-sections -fdata-sections \
		-Iprotocol $(PQ_DEPFLAGS) -c $< -o $@
$(PQ_FW)/stub/%.o: target/boards/$(BOARD)/%.c $(PQ_FW)/flags
	@mkdir -p $(@D)
	$(CROSS)gcc $(PQ_ARCH) -O2 -std=c99 -ffunction-sections $(filter -D%,$(BOARD_CFLAGS)) \
		-Iprotocol -Itarget -Itarget/boards/common $(PQ_DEPFLAGS) -c $< -o $@

$(PQ_FW)/libpqcommon.a: $(PQ_COMMON_OBJS) $(PQ_FW)/flags
	@rm -f $@
	$(CROSS)ar rcs $@ $(PQ_COMMON_OBJS)

$(PQ_FW)/stub.elf: $(PQ_STUB_OBJS) $(PQ_SCHEME_OBJS) $(PQ_FW)/libpqcommon.a $(BOARD_LDSCRIPT) \
		$(PQ_OUT)/stack
	$(CROSS)gcc $(PQ_ARCH) -nostartfiles --specs=nano.specs --specs=nosys.specs \
		-Wl,--gc-sections -Wl,--build-id=sha1 -Wl,-Map=$(PQ_FW)/stub.map \
		-Wl,--no-warn-rwx-segments -T $(BOARD_LDSCRIPT) $(BOARD_LDFLAGS) \
		$(if $(PQ_STACK),-Wl$(comma)--defsym=__stack_size=$(PQ_STACK)) -o $@.tmp \
		$(PQ_STUB_OBJS) $(PQ_SCHEME_OBJS) \
		-Wl,--start-group $(PQ_FW)/libpqcommon.a -lc -Wl,--end-group && mv -f $@.tmp $@
	$(CROSS)size -t $(PQ_SCHEME_OBJS) > $(PQ_FW)/scheme.size
	$(CROSS)size -t $(PQ_COMMON_OBJS) > $(PQ_FW)/common.size
	$(CROSS)nm -n -S --defined-only $@ > $(PQ_FW)/stub.nm

# ---- the host reference: the scheme's C and the common C, native
PQ_HOST := $(PQ_OUT)/host
PQ_HOST_CFLAGS = -O2 -std=gnu99 -g -DPQ_HOSTED $(foreach d,$(PQ_HOST_COMMON),-I$(d)) $(PQ_PATHMAP)
PQ_HOST_SCHEME_OBJS := $(foreach s,$(filter %.c,$(PQ_SCHEME_SRCS)),$(call pq_obj,$(s),$(PQ_HOST)/scheme))
PQ_HOST_COMMON_OBJS := $(foreach n,$(PQ_HCOMMON_N),$(foreach s,$(call pq_host_common_srcs,$(n)),$(call pq_obj,$(s),$(PQ_HOST)/common/$(n))))
$(foreach s,$(filter %.c,$(PQ_SCHEME_SRCS)),$(eval $(call pq_compile_rule,$(s),$(call pq_obj,$(s),$(PQ_HOST)/scheme),$(HOST_CC),$(PQ_HOST_CFLAGS) $(PQ_XCPPFLAGS) -I$(PQ_SCHEME),,$(PQ_HOST)/flags)))
$(foreach n,$(PQ_HCOMMON_N),$(foreach s,$(call pq_host_common_srcs,$(n)),$(eval $(call pq_compile_rule,$(s),$(call pq_obj,$(s),$(PQ_HOST)/common/$(n)),$(HOST_CC),$(PQ_HOST_CFLAGS),1,$(PQ_HOST)/flags))))

$(PQ_HOST)/libpqcommon.a: $(PQ_HOST_COMMON_OBJS) $(PQ_HOST)/flags
	@rm -f $@
	ar rcs $@ $(PQ_HOST_COMMON_OBJS)

# (pqstub.c includes the scheme's api.h, and on the host no other header of
# ours: it is compiled here with the link, without a .d of its own.)
$(PQ_HOST)/ref: target/pq/pqstub.c target/pq/pqrandom.c $(wildcard $(PQ_SCHEME)/api.h) \
		$(PQ_HOST_SCHEME_OBJS) $(PQ_HOST)/libpqcommon.a $(PQ_HOST)/flags
	@test -z "$(filter %.S %.s,$(PQ_SCHEME_SRCS))" || { echo "$(PQ_SCHEME): has assembly (.S/.s): no host build" >&2; exit 1; }
	$(HOST_CC) $(PQ_HOST_CFLAGS) $(PQ_XCPPFLAGS) $(PQ_STUB_DEFS) -DPQ_RUNS=$(PQ_RUNS) $(if $(PQ_HOST_SIGS),-DPQ_SIGS_DUMP) \
		-Werror=incompatible-pointer-types \
		-I$(PQ_SCHEME) -o $@ \
		target/pq/pqstub.c target/pq/pqrandom.c $(PQ_HOST_SCHEME_OBJS) $(PQ_HOST)/libpqcommon.a

# The stack's size is the link's alone: a new size links again, and
# compiles nothing (scripts/pq-bench.sh links a board's image twice).
$(PQ_OUT)/stack: FORCE
	@mkdir -p $(@D)
	@echo "STACK=$(PQ_STACK)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# Each build's flags file changes whenever its inputs do: nothing built
# otherwise is reused. The image's and the host reference's are apart, so
# that building one does not make the other's objects stale.
$(PQ_FW)/flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' "BOARD=$(BOARD) $(BOARD_CFLAGS) OUTPUT=$(PQ_OUTPUT) LINK=$(HIL_LINK) SCHEME=$(PQ_SCHEME) KIND=$(PQ_KIND) NS=$(PQ_NS)" \
		"COMMON=$(PQ_COMMON) CFLAGS=$(PQ_CFLAGS) XFLAGS=$(PQ_XFLAGS) RUNS=$(PQ_FW_RUNS) SEED=$(PQ_SEED) DEPS=$(PQ_DEPFLAGS) HOST_SIGS=$(PQ_HOST_SIGS)" \
		"OBJS=$(PQ_SCHEME_OBJS) $(PQ_COMMON_OBJS)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(PQ_HOST)/flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' "SCHEME=$(PQ_SCHEME) KIND=$(PQ_KIND) NS=$(PQ_NS) HOST_COMMON=$(PQ_HOST_COMMON)" \
		"CC=$(HOST_CC) CFLAGS=$(PQ_HOST_CFLAGS) XFLAGS=$(PQ_XCPPFLAGS) RUNS=$(PQ_RUNS) SEED=$(PQ_SEED) DEPS=$(PQ_DEPFLAGS) HOST_SIGS=$(PQ_HOST_SIGS)" \
		"OBJS=$(PQ_HOST_SCHEME_OBJS) $(PQ_HOST_COMMON_OBJS)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

.PHONY: pq-fw pq-host
pq-fw: $(PQ_FW)/stub.elf
pq-host: $(PQ_HOST)/ref

# The headers each object read (PQ_DEPFLAGS): only the dependency files of
# the objects this build makes are read, as firmware.mk does.
ifneq ($(filter pq-fw pq-host,$(MAKECMDGOALS)),)
PQ_DEPS := $(PQ_STUB_OBJS) $(PQ_SCHEME_OBJS) $(PQ_COMMON_OBJS) \
	$(PQ_HOST_SCHEME_OBJS) $(PQ_HOST_COMMON_OBJS)
-include $(wildcard $(PQ_DEPS:.o=.d))
endif
