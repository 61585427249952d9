#!/bin/sh
# run.sh: run one libFuzzer target for a bounded time on its seeds; exits non-zero when it found a crash.
# Usage: tests/fuzz/run.sh BINARY TARGET SECONDS WORKDIR [libFuzzer options...]
set -u
bin=$1
name=$2
secs=$3
work=$4
shift 4
here=$(dirname "$0")
corpus=$work/corpus/$name
art=$work/artifacts
log=$work/$name.log
mkdir -p "$corpus" "$art"

# Lengths that reach each reader's limits: a KAT line of 12 KiB, a report
# with many rows, a few dozen stub commands.
case $name in
frame) opts="-max_len=1024" ;;
stub) opts="-max_len=4096" ;;
config) opts="-max_len=4096 -dict=$here/dict/config.dict" ;;
kat) opts="-max_len=16384 -dict=$here/dict/kat.dict" ;;
report) opts="-max_len=16384 -dict=$here/dict/report.dict" ;;
*) opts="" ;;
esac

echo "== fuzz $name for $secs s (log: $log)"
# Crashes are counted from the artifacts written by this run, so that a run
# in fork mode with -ignore_crashes=1 still fails when it found one.
stamp=$work/$name.started
touch "$stamp"
# New inputs go to the first folder; the committed seeds are only read.
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
	"$bin" $opts -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -close_fd_mask=3 -artifact_prefix="$art/$name-" \
	"$@" "$corpus" "$here/corpus/$name" </dev/null >"$log" 2>&1
rc=$?
found=$(find "$art" -name "$name-*" -newer "$stamp" | wc -l)
if [ "$rc" -eq 0 ] && [ "$found" -gt 0 ]; then
	rc=1
fi

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
if [ "$rc" -eq 0 ]; then
	echo "fuzz $name: no crash; ${runs:-?} runs (${rate:-?}/s), ${cov:-cov: ?} edges"
	exit 0
fi
echo "fuzz $name: FAILED (exit $rc), $found input(s) in $art/$name-*"
grep -E 'broken promise|ERROR: |SUMMARY: |runtime error|Test unit written|Base64' "$log" | head -n 20
echo "reproduce: $bin <artifact>   minimise: $bin -minimize_crash=1 -runs=10000 <artifact>"
exit "$rc"
