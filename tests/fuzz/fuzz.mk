# fuzz.mk: libFuzzer targets (wire codec, stub command loop, config loader, KAT reader, report reader) and their regression test; included by the Makefile.
#
#   make fuzz                            build every target, run each for FUZZ_SECONDS
#   make fuzz FUZZ_SECONDS=600           longer
#   make fuzz-stub FUZZ_SECONDS=600      one target (frame, stub, config, kat, report)
#   make fuzz-build                      build only
#   make fuzz FUZZ_FLAGS="-fork=2 -ignore_crashes=1"   go on past crashes
#   make fuzz-seeds                      write the generated seeds (frame, stub) again
#
# Needs clang with its libFuzzer runtime (Debian: clang libclang-rt-dev) and
# libcjson-dev. Seeds in tests/fuzz/corpus/<target>/ are read, never written;
# what the fuzzer finds goes to $(FZ)/corpus/<target>/, crashes to
# $(FZ)/artifacts/<target>-crash-* and each run's log to $(FZ)/<target>.log.
# A crash worth keeping is minimised (tests/fuzz/README.md) and saved as
# tests/fuzz/regressions/<target>-<name>, which test_fuzz_regressions runs.
#
# Include this after UNIT_TESTS is complete and before UNIT_BINS is set: it
# adds the regression test to the unit tests.

FUZZ_SECONDS ?= 30
# Extra libFuzzer options, e.g. "-fork=2 -ignore_crashes=1" to go on past a crash.
FUZZ_FLAGS ?=
FUZZ_CC ?= clang
FUZZ_TARGETS := frame stub config kat report
# One of each kind (AEAD, hash, XOF, block cipher): every path of bench.c.
FUZZ_STUB_IMPLS := ascon-aead128/ref ascon-hash256/ref ascon-xof128/ref \
	aes128-ecb/ref

FZ := $(or $(BUILD),build)/fuzz
FZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -g -O1
FZ_CFLAGS := $(FZ_SAN) -std=c99 -Wall -Wextra -Wno-unknown-attributes \
	-Ihost -Iprotocol -Itarget -Itests/fuzz -DFUZZ_LIBFUZZER \
	-DFUZZ_SRC_DIR='"$(CURDIR)"' -MMD -MP
FZ_LDLIBS := $(shell pkg-config --libs libcjson libserialport 2>/dev/null || \
	echo -lcjson -lserialport) -lm

# ---------------------------------------------------------------- the stub
# target/main.c, bench.c, registry.c and boards/common/reply.c as they are, on fuzz_board.c's HAL,
# with the implementations behind fuzz_budget.c's wrappers. Every symbol
# gets an fz_ prefix so that the regression test can link libhil.a too.
fz_sym = fz_$(subst .,_,$(subst +,_,$(subst -,_,$(subst /,_,$(1)))))
fz_api = -Dcrypto_aead_encrypt=$(1)_aead_encrypt \
	-Dcrypto_aead_decrypt=$(1)_aead_decrypt -Dcrypto_hash=$(1)_hash \
	-Dcrypto_xof=$(1)_xof -Dcrypto_block_keysetup=$(1)_block_keysetup \
	-Dcrypto_block_ecb_encrypt=$(1)_block_ecb_encrypt
FZ_STUB_DEFS := -Dmain=stub_main -Dregistry_count=fz_registry_count \
	-Dregistry_get=fz_registry_get -include tests/fuzz/fuzz_stub.h
FZ_STUB_CORE := target/main.c target/bench.c target/registry.c \
	target/boards/common/reply.c

# $(1) = implementation, $(2) = object folder, $(3) and $(4) = the names of
# the compiler and flags variables, $(5) = the variable collecting objects.
define fz_impl_rules
$(2)/impl/$(1)/%.o: target/crypto/$(1)/%.c tests/fuzz/fuzz.mk
	@mkdir -p $$(@D)
	$$($(3)) $$($(4)) $(call fz_api,$(call fz_sym,$(1))) \
		-Itarget/crypto/$(1) -Itarget/framework -c $$< -o $$@
$(2)/impl/$(1)/glue.o: target/glue.c tests/fuzz/fuzz.mk
	@mkdir -p $$(@D)
	$$($(3)) $$($(4)) $(call fz_api,$(call fz_sym,$(1))_budget) \
		-DHIL_ALG_SYM=$(call fz_sym,$(1)) \
		-DHIL_ALG_NAME='"$(firstword $(subst /, ,$(1)))"' \
		-DHIL_ALG_IMPL='"$(lastword $(subst /, ,$(1)))"' \
		-Itarget/crypto/$(1) -Itarget/framework -c $$< -o $$@
$(2)/impl/$(1)/fuzz_budget.o: tests/fuzz/fuzz_budget.c tests/fuzz/fuzz.mk
	@mkdir -p $$(@D)
	$$($(3)) $$($(4)) -DHIL_ALG_SYM=$(call fz_sym,$(1)) \
		-Itarget/crypto/$(1) -Itarget/framework -c $$< -o $$@
$(5) += $(patsubst target/crypto/$(1)/%.c,$(2)/impl/$(1)/%.o,$(wildcard target/crypto/$(1)/*.c)) \
	$(2)/impl/$(1)/glue.o $(2)/impl/$(1)/fuzz_budget.o
endef

# The command loop itself: $(1) = object folder, $(2) and $(3) = the names
# of the compiler and flags variables, $(4) = the variable collecting objects.
define fz_stub_rules
$(1)/gen/algs.h: tests/fuzz/fuzz.mk
	@mkdir -p $$(@D)
	@printf 'HIL_ALG(%s)\n' $(foreach i,$(FUZZ_STUB_IMPLS),$(call fz_sym,$(i))) > $$@
$(1)/core/%.o: %.c $(1)/gen/algs.h tests/fuzz/fuzz_stub.h
	@mkdir -p $$(@D)
	$$($(2)) $$($(3)) $$(FZ_STUB_DEFS) -I$(1)/gen -c $$< -o $$@
$(4) := $(patsubst %.c,$(1)/core/%.o,$(FZ_STUB_CORE))
endef

fz_stub = $(eval $(call fz_stub_rules,$(1),$(2),$(3),$(4)))$(foreach i,$(FUZZ_STUB_IMPLS),$(eval $(call fz_impl_rules,$(i),$(1),$(2),$(3),$(4))))
$(call fz_stub,$(FZ)/stub,FUZZ_CC,FZ_CFLAGS,FZ_STUB_OBJS)

# ---------------------------------------------------------------- targets
FZ_COMMON := tests/fuzz/fuzz_common.c
FZ_SRCS_frame := tests/fuzz/fuzz_frame.c protocol/hilp.c
FZ_SRCS_stub := tests/fuzz/fuzz_stub.c tests/fuzz/fuzz_board.c protocol/hilp.c
# The loader (every file of host/config but algnames.c, which would pull in
# the target's algorithm registry) and the board, flasher, link and sensor
# tables it asks (a sensor driver brings its chip, its model and the I2C
# buses; the flashers' doctor checks bring the doctor's report, pyOCD's
# image libelf; the link table brings libserialport).
FZ_DRIVERS := host/drivers/registry.c $(sort $(wildcard host/drivers/board/*.c)) \
	$(sort $(wildcard host/drivers/flasher/*.c)) \
	$(sort $(wildcard host/drivers/sensor/*.c host/drivers/i2c/*.c)) \
	$(sort $(wildcard host/drivers/link/*.c)) \
	host/drivers/doctor.c host/cli/doctor.c
FZ_SRCS_config := tests/fuzz/fuzz_config.c \
	$(filter-out host/config/algnames.c,$(sort $(wildcard host/config/*.c))) \
	$(FZ_DRIVERS) host/util/err.c host/util/util.c host/util/log.c \
	host/util/proc.c host/util/beneath.c host/util/jail.c host/util/linkset.c \
	host/util/elfwhole.c
FZ_PKGS_config := libftdi1 libserialport libelf
FZ_LIBS_drivers = $(shell pkg-config --libs $(FZ_PKGS_config) 2>/dev/null || \
		echo -lftdi1 -lserialport -lelf) -lpthread
$(FZ)/obj/host/drivers/i2c/%.o $(FZ)/obj/host/cli/%.o: FZ_CFLAGS += \
	$(shell pkg-config --cflags $(FZ_PKGS_config) 2>/dev/null)
$(FZ)/fuzz_config: FZ_LDLIBS += $(FZ_LIBS_drivers) -lmd
$(FZ)/fuzz_report: FZ_LDLIBS += $(FZ_LIBS_drivers) -lmd
FZ_SRCS_kat := tests/fuzz/fuzz_kat.c host/image/kat.c host/util/util.c \
	host/util/err.c host/util/log.c
# Every file of host/report but the writers from the in-memory run
# (table.c, modelratio.c, and any later file that includes the writer's
# json_int.h). The readers check and decode report.json through result/'s
# codec tables (headcodec, rowcodec, rowview, reportcheck), which name the
# board drivers and the cycle-model profiles, so those come along; run/ does
# not.
FZ_REPORT_WRITERS := host/report/table.c host/report/modelratio.c \
	$(shell grep -l '"json_int.h"' host/report/*.c 2>/dev/null)
FZ_SRCS_report := tests/fuzz/fuzz_report.c \
	$(filter-out $(FZ_REPORT_WRITERS),$(sort $(wildcard host/report/*.c))) \
	host/result/headcodec.c host/result/reportcheck.c \
	host/result/rowcodec.c host/result/rowview.c host/result/run.c \
	host/result/clocklabel.c host/image/firmware.c \
	host/result/stats.c host/image/elfinfo.c \
	host/emu/cyclemodel.c $(FZ_DRIVERS) \
	$(filter-out host/config/algnames.c,$(sort $(wildcard host/config/*.c))) \
	host/util/proc.c host/util/beneath.c host/util/jail.c host/util/linkset.c \
	host/util/util.c host/util/log.c host/util/err.c host/util/elfwhole.c

$(FZ)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FZ_CFLAGS) -c $< -o $@

fz_objs = $(patsubst %.c,$(FZ)/obj/%.o,$(FZ_COMMON) $(FZ_SRCS_$(1)))
$(foreach t,$(FUZZ_TARGETS),$(eval $(FZ)/fuzz_$(t): $(call fz_objs,$(t))))
$(FZ)/fuzz_stub: $(FZ_STUB_OBJS)

$(FZ)/fuzz_%: | $(FZ)/toolchain-ok
	$(FUZZ_CC) $(FZ_SAN) -o $@ $^ $(FZ_LDLIBS)

# A clear message rather than a link error when libFuzzer is missing.
$(FZ)/toolchain-ok:
	@mkdir -p $(@D)
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
		> $(FZ)/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $(FZ)/probe.c \
		-o $(FZ)/probe 2>/dev/null || { \
		echo "fuzz: '$(FUZZ_CC) -fsanitize=fuzzer' does not link;" \
			"install clang and libclang-rt-dev (make deps)" >&2; \
		exit 1; }
	@touch $@

FZ_BINS := $(addprefix $(FZ)/fuzz_,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-all fuzz-build fuzz-seeds $(addprefix fuzz-,$(FUZZ_TARGETS))

fuzz-build: $(FZ_BINS)

# `make test` (through `make unit`) links every fuzzer, without running
# one: a fuzzer that no longer links (a source moved between files) fails
# the suite rather than the next person who fuzzes by hand.
unit: $(FZ_BINS)

# In the hilrun tree the packages are checked first, as for `make test`;
# recursive, so that pkg-config is read after deps-check installed it.
FZ_DEPS := $(if $(wildcard scripts/deps.sh),deps-check)

fuzz: $(FZ_DEPS)
	@$(MAKE) -f $(firstword $(MAKEFILE_LIST)) --no-print-directory fuzz-all

# Every target runs even when one fails; the exit status says if any did.
fuzz-all: $(FZ_BINS)
	@fail=0; for t in $(FUZZ_TARGETS); do \
		tests/fuzz/run.sh $(FZ)/fuzz_$$t $$t $(FUZZ_SECONDS) $(FZ) \
			$(FUZZ_FLAGS) || \
			fail=1; \
	done; \
	test $$fail = 0 || { echo "make fuzz: a fuzzer found a crash" >&2; \
		exit 1; }; \
	echo "make fuzz: no crash in $(FUZZ_SECONDS) s per target"

$(addprefix fuzz-,$(FUZZ_TARGETS)): fuzz-%: $(FZ)/fuzz_%
	@tests/fuzz/run.sh $(FZ)/fuzz_$* $* $(FUZZ_SECONDS) $(FZ) $(FUZZ_FLAGS)

# Seeds made with the real encoder, so that they stay valid frames.
$(FZ)/gen_seeds: tests/fuzz/gen_seeds.c protocol/hilp.c
	@mkdir -p $(@D)
	$(or $(HOST_CC),cc) -std=c99 -Wall -Wextra -Iprotocol -o $@ $^

fuzz-seeds: $(FZ)/gen_seeds
	$(FZ)/gen_seeds tests/fuzz/corpus

# ---------------------------------------------------------------- regression test
# The same entry points and the same stub, built like the other unit tests
# (HOST_CC, HOST_CFLAGS: sanitizers with SAN=1), without libFuzzer.
ifneq ($(TB),)
FZ_HOST_CFLAGS = $(HOST_CFLAGS) -Itests/fuzz -DFUZZ_SRC_DIR='"$(CURDIR)"'
FZ_REG := $(TB)/fuzz
$(call fz_stub,$(FZ_REG)/stub,HOST_CC,FZ_HOST_CFLAGS,FZ_REG_STUB_OBJS)

$(FZ_REG)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(FZ_HOST_CFLAGS) -c $< -o $@

FZ_REG_OBJS := $(patsubst %.c,$(FZ_REG)/obj/%.o,$(FZ_COMMON) \
	tests/fuzz/fuzz_frame.c tests/fuzz/fuzz_stub.c tests/fuzz/fuzz_board.c \
	tests/fuzz/fuzz_config.c tests/fuzz/fuzz_kat.c tests/fuzz/fuzz_report.c) \
	$(FZ_REG_STUB_OBJS)

$(TB)/test_fuzz_regressions: tests/unit/test_fuzz_regressions.c \
		$(FZ_REG_OBJS) $(HB)/libhil.a
	@mkdir -p $(@D)
	$(HOST_CC) $(FZ_HOST_CFLAGS) $(HOST_LDFLAGS) -o $@ $< $(FZ_REG_OBJS) \
		$(HB)/libhil.a $(HOST_LDLIBS) -lcmocka

UNIT_TESTS += fuzz_regressions
endif
