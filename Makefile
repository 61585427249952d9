# hilrun: build the host tool, the target stub per board and configuration, and the tests.
#
#   make run      install what is missing, build, run the emulated benchmark
#   make test     build everything and run the whole test suite (SAN=1: sanitizers)
#   make bench    figures about the harness itself (stub size, ...)
#   make deps     install the Debian packages (as root)
#   make firmware BOARD=qemu-netduino OPT="-O2" ALGS="ascon-aead128/ref" FW_DIR=build/fw/x
#
# The rules live in mk/: impl.mk (implementation folders), host.mk (hilrun),
# firmware.mk (the stub), tests.mk (unit, KAT, e2e; fuzz in tests/fuzz),
# emu.mk (the cycle-model plugin, included by tests.mk), tools.mk (deps,
# format, bench, lab).

.DEFAULT_GOAL := all
SHELL := /bin/sh
# A recipe that fails leaves no target behind: make would take a half-made
# one (an object, an image, a listing) as up to date next time. A build
# killed outright (SIGKILL: no recipe left to fail) is the rules' own
# concern: the images, archives and objects are made under a temporary
# name and renamed (mk/firmware.mk, mk/host.mk; mk/pq.mk: its image).
.DELETE_ON_ERROR:

BUILD ?= build
CONFIG ?= configs/qemu.json

include mk/impl.mk
include mk/host.mk
include mk/firmware.mk
include mk/pq.mk
include mk/tests.mk
include mk/tools.mk

.PHONY: all deps deps-check run test unit e2e bench clean format format-check floors-check \
	deps-lab test-lab

all: deps-check
	@$(MAKE) --no-print-directory $(BUILD)/hilrun cycle-plugin

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

test: deps-check format-check floors-check
	@$(MAKE) --no-print-directory unit e2e emu-test
	@echo "make test: all suites passed"

FORCE:
