# hilrun: build the host tool, the target stub per board and configuration, and the tests.
#
#   make run      install what is missing, build, run the emulated benchmark
#   make test     build everything and run the whole test suite (SAN=1: sanitizers)
#   make bench    figures about the harness itself (stub size, ...)
#   make deps     install the Debian packages (as root)
#   make firmware BOARD=qemu-netduino OPT="-O2" ALGS="ascon-aead128/ref" FW_DIR=build/fw/x

.DEFAULT_GOAL := all
SHELL := /bin/sh

BUILD ?= build
CONFIG ?= configs/qemu.json

# ---------------------------------------------------------------- host
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

# Host modules, one responsibility each (see design.md section 2).
HOST_LIB_SRCS := host/err.c host/log.c host/config.c host/stats.c \
	host/link/link.c host/link/serial.c host/link/socket.c \
	host/proc.c host/board/flasher.c host/board/qemu.c host/board/openocd.c host/elfinfo.c \
	host/board/cyclemodel.c \
	host/session.c host/target.c host/build.c host/refcrypto/refcrypto.c \
	host/runner.c host/report/json.c host/report/table.c host/crypt.c \
	host/util.c host/run.c host/mapsizes.c host/kat.c host/katrun.c host/sweep.c \
	host/journal.c host/i2c/i2c.c host/i2c/ftdi_mpsse.c host/i2c/linux_dev.c \
	host/i2c/sim.c host/sensor/ina219_model.c host/sensor/ina219.c \
	host/energy.c host/energyrun.c host/lock.c host/boards.c host/serve.c \
	host/doctor.c host/report/load.c host/report/summary.c host/report/svg.c \
	host/report/html.c host/report/compare.c host/report/junit.c \
	protocol/hilp.c
HOST_LIB_SRCS += host/sensor/sensor.c host/sensorcmd.c
# Real-board cycles next to the model's estimate, in a sweep's tables.
HOST_LIB_SRCS += host/report/modelratio.c
# Timing-leak smoke test (dudect's method) over the target API.
HOST_LIB_SRCS += host/leak.c
# Output paths from configs stay in the working directory.
HOST_LIB_SRCS += host/paths.c
# Exit statuses and the result file of a run (--result-json, the spool).
HOST_LIB_SRCS += host/result.c
# Algorithm names checked when a run starts, before anything is built.
HOST_LIB_SRCS += host/algnames.c
# Host builds of users' folders of algorithms hilrun does not bundle.
HOST_LIB_SRCS += host/ownref.c
# What an untrusted lab job may ask for.
HOST_LIB_SRCS += host/jobpolicy.c
# A BENCH's reply timeout, sized by the work already seen.
HOST_LIB_SRCS += host/benchtime.c
# Every finished run in results/history.sqlite; hilrun history.
HOST_LIB_SRCS += host/history.c
# hilrun history import: the runs of reports from other hosts.
HOST_LIB_SRCS += host/historyimport.c
# Energy per operation from the datasheet's run current (no sensor).
HOST_LIB_SRCS += host/energyest.c
HOST_MAIN_SRCS := host/main.c

# Every implementation folder target/crypto/<alg>/<impl> (NIST LWC API).
ALL_IMPLS ?= $(patsubst target/crypto/%/,%,$(sort $(dir $(wildcard target/crypto/*/*/api.h))))
# An implementation is "alg/impl" (bundled: target/crypto/alg/impl) or
# "alg/impl=DIR" (an external folder in the NIST LWC layout).
impl_id = $(firstword $(subst =, ,$(1)))
impl_dir = $(or $(word 2,$(subst =, ,$(1))),target/crypto/$(1))
impl_sym = $(subst .,_,$(subst +,_,$(subst -,_,$(subst /,_,$(1)))))
impl_srcs = $(wildcard $(call impl_dir,$(1))/*.c)
impl_defs = -Dcrypto_aead_encrypt=$(call impl_sym,$(1))_aead_encrypt \
	-Dcrypto_aead_decrypt=$(call impl_sym,$(1))_aead_decrypt \
	-Dcrypto_hash=$(call impl_sym,$(1))_hash \
	-Dcrypto_xof=$(call impl_sym,$(1))_xof \
	-Dcrypto_block_keysetup=$(call impl_sym,$(1))_block_keysetup \
	-Dcrypto_block_ecb_encrypt=$(call impl_sym,$(1))_block_ecb_encrypt \
	-DHIL_ALG_SYM=$(call impl_sym,$(1)) \
	-DHIL_ALG_NAME='"$(firstword $(subst /, ,$(1)))"' \
	-DHIL_ALG_IMPL='"$(lastword $(subst /, ,$(1)))"' \
	-I$(2) -Itarget/framework

# Host builds of every implementation: expected outputs and `crypt --on host`.
define host_impl_rules
$(HB)/crypto/$(1)/%.o: target/crypto/$(1)/%.c
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(call impl_defs,$(1),target/crypto/$(1)) -c $$< -o $$@
$(HB)/crypto/$(1)/glue.o: target/glue.c
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(call impl_defs,$(1),target/crypto/$(1)) -c $$< -o $$@
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
	$(HOST_CC) $(HOST_CFLAGS) -I$(HB)/gen -c $< -o $@

$(HB)/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

HOST_LIB_OBJS := $(patsubst %.c,$(HB)/%.o,$(HOST_LIB_SRCS)) $(HB)/registry.o \
	$(HOST_CRYPTO_OBJS)

$(HB)/libhil.a: $(HOST_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/hilrun: $(HB)/host/main.o $(HB)/libhil.a
	$(HOST_CC) $(HOST_LDFLAGS) -o $@ $^ $(HOST_LDLIBS)

# ---------------------------------------------------------------- firmware
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

# A user's folder built for the host, with its glue, as a shared object:
# the reference its target build is checked against (hilrun loads it).
# HOST_IMPL is "alg/impl=DIR"; DIR is hilrun's link to the folder. Code that
# does not build for the host (assembly) simply fails here.
HOST_IMPL ?=
HOST_IMPL_SO = $(FW_DIR)/host/$(call impl_sym,$(call impl_id,$(HOST_IMPL))).so
.PHONY: host-impl
host-impl:
	@test -n "$(HOST_IMPL)" || { echo "host-impl: HOST_IMPL=alg/impl=DIR is required" >&2; exit 2; }
	@test -z "$(wildcard $(call impl_dir,$(HOST_IMPL))/*.S)" || { echo "$(call impl_id,$(HOST_IMPL)): has assembly files (.S): no host build" >&2; exit 1; }
	@mkdir -p $(dir $(HOST_IMPL_SO))
	$(HOST_CC) -std=c99 -O1 -g -fPIC -shared -Wl,--no-undefined -Iprotocol -Itarget \
		$(call impl_defs,$(call impl_id,$(HOST_IMPL)),$(call impl_dir,$(HOST_IMPL))) \
		-o $(HOST_IMPL_SO) $(wildcard $(call impl_dir,$(HOST_IMPL))/*.c) target/glue.c

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

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- tests
TB := $(BUILD)/tests
UNIT_TESTS := hilp kat_parser config stats link socket_link proc qemu_flasher \
	elfinfo session refcrypto mapsizes openocd_flasher doctor image_checks \
	nucleo_clock_math render html_headless i2c_ftdi ina219 energy i2c_linux \
	lock boards serve
UNIT_TESTS += sensor
UNIT_TESTS += leak
UNIT_TESTS += paths target
UNIT_TESTS += result
UNIT_TESTS += usart_rx model_ratio bench_counter
UNIT_TESTS += energyest
UNIT_TESTS += benchtime

# Every unit test links the helpers of tests/unit/unit_util.h. They go first:
# with -MMD the dependencies of the last source are the ones kept.
UNIT_UTIL := tests/unit/unit_util.c
.SECONDEXPANSION:
$(TB)/test_%: tests/unit/test_%.c $(UNIT_UTIL) $(UNIT_UTIL:.c=.h) $(HB)/libhil.a \
		$$(TEST_EXTRA_$$*)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Itests/unit $(HOST_LDFLAGS) -o $@ $(UNIT_UTIL) \
		$< $(TEST_EXTRA_$*) $(HB)/libhil.a $(HOST_LDLIBS) -lcmocka

# The MPSSE interpreter stands in for an FT232H on a bus with an INA219.
TEST_EXTRA_i2c_ftdi := tests/unit/mpsse_interp.c
# target/bench.c as the stub has it, on the test's mock HAL.
TEST_EXTRA_bench_counter := target/bench.c

# Known-answer tests of each implementation, built from its folder as it is
# (API names not renamed), with the official vector files in tests/kat.
# name:folder
KAT_TESTS := ascon_aead128_kat:ascon-aead128/ref \
	ascon_aead128_bi32_kat:ascon-aead128/bi32 \
	ascon128v12_kat:ascon128v12/ref \
	ascon_hash256_kat:ascon-hash256/ref \
	ascon_xof128_kat:ascon-xof128/ref \
	speck64128_kat:speck64-128-ecb/ref \
	aes128_ecb_kat:aes128-ecb/ref \
	aes128_gcm_kat:aes128-gcm/ref \
	chacha20poly1305_kat:chacha20-poly1305/ref
kat_name = $(firstword $(subst :, ,$(1)))
kat_dir = target/crypto/$(lastword $(subst :, ,$(1)))
# All of them read their files through kat_suite.c; the AEAD tests share
# their known-answer and forgery checks too.
AEAD_KAT_TESTS := ascon_aead128_kat ascon_aead128_bi32_kat ascon128v12_kat \
	aes128_gcm_kat chacha20poly1305_kat
$(foreach t,$(KAT_TESTS),$(eval TEST_EXTRA_$(call kat_name,$(t)) := tests/unit/kat_suite.c))
$(foreach t,$(AEAD_KAT_TESTS),$(eval TEST_EXTRA_$(t) += tests/unit/aead_kat_suite.c))
define kat_test_rule
$(TB)/test_$(call kat_name,$(1)): tests/unit/test_$(call kat_name,$(1)).c $(TEST_EXTRA_$(call kat_name,$(1))) \
		$(patsubst %.c,%.h,$(TEST_EXTRA_$(call kat_name,$(1)))) $(wildcard $(call kat_dir,$(1))/*.c) $(HB)/libhil.a $(TB)/ref_renamed/ascon_aead128_ref.o
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(call kat_dir,$(1)) -Itarget/framework -Itests/unit $(HOST_LDFLAGS) -o $$@ $$< \
		$(TEST_EXTRA_$(call kat_name,$(1))) \
		$(wildcard $(call kat_dir,$(1))/*.c) $(TB)/ref_renamed/ascon_aead128_ref.o \
		$(HB)/libhil.a $(HOST_LDLIBS) -lcmocka
endef
$(foreach t,$(KAT_TESTS),$(eval $(call kat_test_rule,$(t))))

# bi32 is compared with the reference: link the reference under other names.
$(TB)/ref_renamed/ascon_aead128_ref.o: target/crypto/ascon-aead128/ref/encrypt.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Dcrypto_aead_encrypt=ref_encrypt \
		-Dcrypto_aead_decrypt=ref_decrypt -Itarget/crypto/ascon-aead128/ref \
		-Itarget/framework -c $< -o $@

UNIT_TESTS += $(foreach t,$(KAT_TESTS),$(call kat_name,$(t)))
include tests/fuzz/fuzz.mk
UNIT_BINS := $(addprefix $(TB)/test_,$(UNIT_TESTS))

# End-to-end tests: the real stub under QEMU, driven through the host library.
E2E_TESTS := e2e_qemu e2e_sweep e2e_suite e2e_mistakes e2e_resume e2e_recovery \
	e2e_crypt e2e_energy
E2E_TESTS += e2e_heap e2e_leak e2e_model e2e_uid e2e_rowextras
# Fault injection: flaky link, emulator killed, two runs on one board.
E2E_TESTS += e2e_flaky e2e_qemu_kill e2e_lock
# A full results file system (a small tmpfs; skipped where it cannot be mounted).
E2E_TESTS += e2e_diskfull
# The lab daemon killed mid-job resumes the job's journal.
E2E_TESTS += e2e_serve_kill
# What a CI engine relies on: --board, exit statuses, --result-json, SIGTERM.
E2E_TESTS += e2e_contract
# Users' own folders in the NIST LWC layout.
E2E_TESTS += e2e_owncode
# The command line as a user meets it (hilrun as a process).
E2E_TESTS += e2e_cli
$(TB)/test_e2e_%: tests/e2e/test_e2e_%.c tests/e2e/e2e_util.c $(HB)/libhil.a
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Itests/e2e $(HOST_LDFLAGS) -o $@ $< \
		tests/e2e/e2e_util.c $(HB)/libhil.a $(HOST_LDLIBS) \
		$(E2E_LIBS_$*) -lcmocka

# hilrun crypt is compared with OpenSSL's implementations where it has them.
E2E_LIBS_crypt := -lcrypto
E2E_BINS := $(addprefix $(TB)/test_,$(E2E_TESTS))

# The Cortex-M4 cycle model: a QEMU TCG plugin and its tests.
include target/emu/emu.mk

# ---------------------------------------------------------------- phony
.PHONY: all deps deps-check run test unit e2e bench clean format format-check deps-lab test-lab

all: deps-check
	@$(MAKE) --no-print-directory $(BUILD)/hilrun cycle-plugin

deps:
	@scripts/deps.sh

deps-check:
	@scripts/deps.sh --check 2>/dev/null || scripts/deps.sh

# The lab engines (Buildbot, Slurm) for contrib/ and make test-lab; not part
# of make deps or make test.
deps-lab:
	@scripts/deps-lab.sh

# Recursive, so that flags from pkg-config are read after deps-check installed it.
run: deps-check
	@$(MAKE) --no-print-directory $(BUILD)/hilrun cycle-plugin
	./$(BUILD)/hilrun --config $(CONFIG)

unit: deps-check $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do \
		echo "== $$t"; HIL_SRC_DIR=$(CURDIR) $$t || fail=1; done; \
	test $$fail = 0

e2e: deps-check $(BUILD)/hilrun $(E2E_BINS) cycle-plugin
	@fail=0; for t in $(E2E_BINS); do \
		echo "== $$t"; HIL_SRC_DIR=$(CURDIR) HILRUN_ROOT=$(CURDIR) \
		HILRUN_BIN=$(CURDIR)/$(BUILD)/hilrun $$t || fail=1; done; \
	test $$fail = 0

test: deps-check format-check
	@$(MAKE) --no-print-directory unit e2e emu-test
	@echo "make test: all suites passed"

# Smoke tests of contrib/buildbot and contrib/slurm on 127.0.0.1: each is
# skipped, saying so, where its engine is not installed (make deps-lab).
test-lab: deps-check
	@$(MAKE) --no-print-directory $(BUILD)/hilrun
	@tests/lab/buildbot_smoke.sh $(BUILD)
	@tests/lab/slurm_smoke.sh $(BUILD)

bench: deps-check
	@$(MAKE) --no-print-directory $(BUILD)/hilrun
	@tests/bench/stub_size.sh $(BUILD)

FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRCS)

format-check:
	@if command -v clang-format >/dev/null; then \
		clang-format --dry-run --Werror $(FORMAT_SRCS) || \
		{ echo "format-check: run 'make format'" >&2; exit 1; }; \
	else echo "format-check: clang-format not installed, skipped"; fi

clean:
	rm -rf build

FORCE:
