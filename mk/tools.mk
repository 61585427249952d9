# tools.mk: packages, formatting, the harness's own benchmarks and the lab engines' smoke tests.

deps:
	@scripts/deps.sh

deps-check:
	@scripts/deps.sh --check 2>/dev/null || scripts/deps.sh

# The lab engines (Buildbot, Slurm) for contrib/ and make test-lab; not part
# of make deps or make test.
deps-lab:
	@scripts/deps-lab.sh

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

# No #include climbs a floor of docs/architecture.md, and the core names no
# driver (known exceptions in tests/arch/*-known.txt, lists that only shrink).
floors-check:
	@tests/arch/floors.sh
	@tests/arch/drivernames.sh

clean:
	rm -rf build
