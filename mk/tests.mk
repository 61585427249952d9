# tests.mk: unit tests (cmocka), known-answer tests of every implementation and end-to-end tests on QEMU.
TB := $(BUILD)/tests
# Every tests/unit/test_NAME.c is a unit test; the known-answer tests and the
# fuzz regressions have rules of their own below (and in tests/fuzz/fuzz.mk).
UNIT_TESTS := $(filter-out %_kat fuzz_regressions,$(patsubst \
	tests/unit/test_%.c,%,$(wildcard tests/unit/test_*.c)))

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
# The sensor chips' tests drive their simulated twins.
TEST_EXTRA_ina219 := tests/unit/sim_model.c
TEST_EXTRA_ina226 := tests/unit/sim_model.c
TEST_EXTRA_ina226_model := tests/unit/sim_model.c
# The flashers' tests run recording stand-ins for their tools.
TEST_EXTRA_openocd_flasher := tests/unit/fake_tool.c
TEST_EXTRA_pyocd_flasher := tests/unit/fake_tool.c
# hilrun's own portable SHA-3 for the pq stub.
TEST_EXTRA_pq_fips202 := target/pq/common/fips202.c
TEST_EXTRA_pq_sha2 := target/pq/common/sha2.c
TEST_EXTRA_pq_aes := target/pq/common/aes.c
# target/bench.c as the stub has it, on the test's mock HAL.
TEST_EXTRA_bench_counter := target/bench.c
# The codecs' tests fill a whole struct through the tables.
TEST_EXTRA_result_codec := tests/unit/rfield_fill.c
TEST_EXTRA_result_headcodec := tests/unit/rfield_fill.c

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
# The emulated board's fast transport: semihosting on QEMU's stdio.
E2E_TESTS += e2e_semihost
# The emulated board with megabytes of RAM (mps2-an386): same counter, same model.
E2E_TESTS += e2e_mps2
# A full results file system (a small tmpfs; skipped where it cannot be mounted).
E2E_TESTS += e2e_diskfull
# The lab daemon killed mid-job resumes the job's journal.
E2E_TESTS += e2e_serve_kill
# What a CI engine relies on: --board, exit statuses, --result-json, SIGTERM.
E2E_TESTS += e2e_contract
# Users' own folders in the NIST LWC layout.
E2E_TESTS += e2e_owncode
# Trees in the NIST LWC benchmarking repository's layout, as published.
E2E_TESTS += e2e_nist
# One command over a tree of 300 folders: ten images, each folder reported.
E2E_TESTS += e2e_bigtree
# The command line as a user meets it (hilrun as a process).
E2E_TESTS += e2e_cli
# Issue #33's hostile inputs refused before anything is built.
E2E_TESTS += e2e_harden
# hilrun pq on a board over its link (qemu-netduino's USART socket).
E2E_TESTS += e2e_pqboard
# hilrun pq --resume on the mps2 and on a board; the board's lock.
E2E_TESTS += e2e_pqresume
# hilrun serve's pq jobs (qemu-netduino).
E2E_TESTS += e2e_pqserve
# mupq/pqm4-layout KEM and signature folders (scripts/pq-bench.sh) on the mps2.
E2E_TESTS += e2e_pq
# hilrun pq's copies of checked folders, links into allowed folders, a
# build folder per run, --host-signatures.
E2E_TESTS += e2e_pqsnap
# The jail around foreign code (real bubblewrap): writes, network, pids,
# semihosting's host calls, a host build's constructor.
E2E_TESTS += e2e_jail
# A user's folder built from a copy checked against the configuration's load.
E2E_TESTS += e2e_snapshot
# An image rebuilt when a header it includes changes (make -n -W HEADER).
E2E_TESTS += e2e_rebuild
$(TB)/test_e2e_%: tests/e2e/test_e2e_%.c tests/e2e/e2e_util.c $(HB)/libhil.a
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Itests/e2e $(HOST_LDFLAGS) -o $@ $< \
		tests/e2e/e2e_util.c $(HB)/libhil.a $(HOST_LDLIBS) \
		$(E2E_LIBS_$*) -lcmocka

# hilrun crypt is compared with OpenSSL's implementations where it has them.
E2E_LIBS_crypt := -lcrypto
# The jail's test runs a guest of its own that calls semihosting's host
# operations (tests/e2e/semihost_guest).
$(TB)/test_e2e_jail: $(TB)/semihost_guest.elf
E2E_LIBS_jail := -DE2E_GUEST_ELF='"$(abspath $(TB))/semihost_guest.elf"'
$(TB)/semihost_guest.elf: tests/e2e/semihost_guest/guest.c tests/e2e/semihost_guest/guest.ld
	@mkdir -p $(@D)
	arm-none-eabi-gcc -std=c99 -Wall -Wextra -Werror -Os -mcpu=cortex-m4 \
		-mthumb -nostdlib -ffreestanding -T tests/e2e/semihost_guest/guest.ld \
		-o $@ tests/e2e/semihost_guest/guest.c
E2E_BINS := $(addprefix $(TB)/test_,$(E2E_TESTS))

# The Cortex-M4 cycle model: a QEMU TCG plugin and its tests.
include mk/emu.mk

# The dependency files of the test programs and objects, and only those
# (mk/firmware.mk).
-include $(wildcard $(addsuffix .d,$(UNIT_BINS) $(E2E_BINS) $(EMU_BINS) \
	$(FZ_BINS)) $(TB)/ref_renamed/ascon_aead128_ref.d \
	$(FZ_REG_OBJS:.o=.d) $(FZ_STUB_OBJS:.o=.d))
