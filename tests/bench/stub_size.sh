#!/bin/sh
# stub_size.sh: figures about the harness itself, printed, never asserted:
# the stub's own footprint (no algorithm, -Os) per board, USB transfers per
# sensor sample, the cycle-model plugin's speed, and the goals of the fast
# emulated lane (#14), each as actual / goal: an emulated run's wall time
# against the compute floor, its requests and bytes on the wire, the
# -O0..-Oz sweep two at a time, quiet and beside a CPU hog (rows lost), and
# one at a time as the sum of its runs. About 8 minutes on two cores. Usage: tests/bench/stub_size.sh BUILD_DIR
set -eu
build=${1:-build}
out=$build/bench
mkdir -p "$out"

echo "== stub footprint (image without any algorithm, -Os)"
echo "   budget: flash <= 4352 B, static RAM <= 1024 B excluding the"
echo "   sample/message buffers (bufs) and the reserved stack"
printf '%-16s %10s %12s %14s %12s\n' board "flash B" "static RAM B" "buffers B" "stack B"
# Every board the target tree has (a folder with a board.mk).
for mk in target/boards/*/board.mk; do
	board=$(basename "$(dirname "$mk")")
	dir=$out/fw-none-$board
	make -s --no-print-directory firmware BOARD=$board OPT=-Os ALGS=none \
		FW_DIR="$PWD/$dir" >/dev/null
	elf=$dir/stub.elf
	# Berkeley sizes: text includes .data's load image on flash.
	set -- $(arm-none-eabi-size -B "$elf" | tail -n 1)
	text=$1 data=$2 bss=$3
	bufs=$(arm-none-eabi-nm -S "$elf" | awk '$4 == "bufs" { print $2 }')
	stack=$(arm-none-eabi-nm "$elf" | awk '$3 == "__stack_size" { print $1 }')
	bufs=$((0x${bufs:-0}))
	stack=$((0x${stack:-0}))
	flash=$((text + data))
	ram=$((data + bss - bufs - stack))
	printf '%-16s %10d %12d %14d %12d\n' "$board" "$flash" "$ram" "$bufs" "$stack"
done

echo
echo "== INA219 sampling over the ftdi backend (MPSSE interpreter, simulated bus)"
echo "   goal: at most 1 USB write and 1 USB read per sample"
make -s --no-print-directory "$build/tests/test_i2c_ftdi" >/dev/null
"$build/tests/test_i2c_ftdi" 2>/dev/null | sed -n 's/^ftdi sampler: /   /p'

echo
echo "== the cycle-model plugin's speed (tests/emu/speed.S: 200 M instructions)"
echo "   QEMU alone, then the plugin per instruction (mode=insn, the"
echo "   reference) and per segment of a translation block (mode=tb)"
make -s --no-print-directory cycle-plugin "$build/tests/emu/speed.elf" >/dev/null
for mode in none insn tb; do
	rec=$out/speed-$mode.txt
	rm -f "$rec"
	plugin=
	if [ "$mode" != none ]; then
		plugin="-plugin $PWD/build/emu/cyclemodel.so,ws=2,art=on,mode=$mode,out=$PWD/$rec"
	fi
	start=$(date +%s.%N)
	# shellcheck disable=SC2086 # $plugin is one option and its value, or none
	qemu-system-arm -M netduinoplus2 -kernel "$build/tests/emu/speed.elf" \
		-display none -monitor none -serial null -nodefaults \
		-icount shift=0,align=off,sleep=off \
		-semihosting-config enable=on,target=native $plugin || true
	end=$(date +%s.%N)
	insns= cycles=
	if [ -f "$rec" ]; then
		insns=$(sed -n 's/^# exit .* insns=\([0-9]*\).*/\1/p' "$rec")
		cycles=$(sed -n 's/^B .* cycles=\([0-9]*\) .*/\1/p' "$rec")
	fi
	echo "$start $end $mode ${insns:-200000000} ${cycles:--}" | awk '{
		t = $2 - $1; if (t <= 0) t = 1e-9
		printf "   %-5s %6.2f s  %7.1f M instructions/s  model cycles %s\n", $3, t, $4 / t / 1e6, $5
	}'
	rate=$(echo "$start $end ${insns:-200000000}" | awk '{
		t = $2 - $1; if (t <= 0) t = 1e-9; printf "%.0f", $3 / t }')
	eval "rate_$mode=$rate"
done

# Where a run's wall time went, from the "timing" object of its report
# (cJSON writes one key per line).
split() {
	find "$1" -name report.json | sort | while read -r r; do
		awk -F'[:,]' '
		/"config_name"/ { gsub(/[" \t]/, "", $2); name = $2 }
		/"(total|build|start|link|target|host)_s"/ {
			k = $1; gsub(/[" \t]/, "", k); v[k] = $2 + 0
		}
		END {
			t = v["total_s"] > 0 ? v["total_s"] : 1e-9
			o = v["start_s"] + v["link_s"] + v["host_s"]
			printf "   %-22s total %7.1f s: build %5.1f  flash/start %5.1f  link %6.1f  target %7.1f  host %5.1f  (not build/target: %4.1f %%)\n", name, t, v["build_s"], v["start_s"], v["link_s"], v["target_s"], v["host_s"], 100 * o / t
		}' "$r"
	done
}

# One number of a report.json (cJSON writes one key per line): the first
# KEY at any depth.
num() {
	awk -F'[:,]' -v k="\"$2\"" '
	{ key = $1; gsub(/[ \t]/, "", key) }
	key == k { v = $2; gsub(/[ \t]/, "", v); print v + 0; exit }' "$1"
}

# Rows of the reports under a folder whose status is not "ok" (a row is an
# object at depth 3; its leak and energy objects have their own status one
# level deeper), and the BENCH waits that ran out.
lost() {
	find "$1" -name report.json | while read -r r; do cat "$r"; done |
		awk '/^\t\t\t"status":/ && !/"ok"/ { n++ }
		/"bench_timeouts":/ { gsub(/[^0-9]/, ""); t += $0 }
		END { printf "%d %d\n", n + 0, t + 0 }'
}

# ok rows under a folder
rows_ok() {
	find "$1" -name report.json | while read -r r; do cat "$r"; done |
		grep -c '^			"status":	"ok"' || true
}

# goal NAME ACTUAL GOAL UNIT: the line "actual / goal", met or not (a
# smaller actual is better for every goal here).
goal() {
	awk -v n="$1" -v a="$2" -v g="$3" -v u="$4" 'BEGIN {
		fa = a >= 1000 ? "%9d" : "%9.4g"; fg = g >= 1000 ? "%-7d" : "%-7.4g"
		printf "   %-34s " fa " %-3s goal <= " fg " actual/goal %5.2f  %s\n", n, a, u, g, (g > 0 ? a / g : 0), (a + 0 <= g + 0 ? "met" : "NOT met")
	}'
}

wall() {
	echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'
}

# Start one busy loop per core; hog_stop ends them (by their PIDs).
hogs=
hog_start() {
	i=0
	while [ "$i" -lt "$cores" ]; do
		sh -c 'while :; do :; done' &
		hogs="$hogs $!"
		i=$((i + 1))
	done
}
hog_stop() {
	# shellcheck disable=SC2086 # one PID each
	kill $hogs 2>/dev/null || true
	wait 2>/dev/null || true
	hogs=
}
trap hog_stop EXIT INT TERM
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

# A run's wall less its firmware build (a second make run builds nothing).
run_wall() {
	awk -v w="$1" -F'[:,]' '/"build_s"/ { b = $2 + 0 } END { printf "%.1f", w - b }' "$2"
}

echo
echo "== one emulated run (make run: configs/qemu.json, cycle model and leak test on)"
rm -rf "$out/run-model" "$out/run-plain" "$out/run-hog"
start=$(date +%s.%N)
"$build/hilrun" -q --config configs/qemu.json --results "$out/run-model" \
	>/dev/null 2>&1 || true
end=$(date +%s.%N)
r=$(find "$out/run-model" -name report.json | head -n 1)
run_wall=$(run_wall "$(wall "$start" "$end")" "$r")
req=$(num "$r" requests)
tx=$(num "$r" bytes_tx)
rx=$(num "$r" bytes_rx)
insns=$(sed -n 's/^# exit .* insns=\([0-9]*\).*/\1/p' "$(dirname "$r")/cycles.txt" 2>/dev/null)
insns=${insns:-0}
split "$out/run-model"
awk '/"requests_by_command"/ { on = 1; next } on && /}/ { exit }
	on { gsub(/[" \t,]/, ""); printf "   requests %s\n", $0 }' "$r"
echo "   $insns instructions emulated (the plugin's count), $(echo "$insns $run_wall" | awk '{ printf "%.1f", $1 / ($2 > 0 ? $2 : 1) / 1e6 }') M a second over the run"

echo
echo "== the same run without the cycle model (cycle_model.enabled false)"
plain=$out/qemu-plain.json
printf '{ "extends": "%s/configs/qemu.json", "name": "qemu-plain", "cycle_model": { "enabled": false } }\n' "$PWD" >"$plain"
start=$(date +%s.%N)
"$build/hilrun" -q --config "$plain" --results "$out/run-plain" \
	>/dev/null 2>&1 || true
end=$(date +%s.%N)
plain_wall=$(run_wall "$(wall "$start" "$end")" "$(find "$out/run-plain" -name report.json | head -n 1)")
split "$out/run-plain"

echo
echo "== make run again beside $cores busy loops (one per core)"
hog_start
start=$(date +%s.%N)
"$build/hilrun" -q --config configs/qemu.json --results "$out/run-hog" \
	>/dev/null 2>&1 || true
end=$(date +%s.%N)
hog_stop
set -- $(lost "$out/run-hog")
run_hog_lost=$1
echo "   $(wall "$start" "$end") s; rows not ok: $1 of $(grep -c '^			"status":' "$(find "$out/run-hog" -name report.json | head -n 1)"); BENCH waits that ran out: $2"

# The floors: the run's instructions at the plugin's speed on speed.S
# (mode=tb, the plugin hilrun runs), and at QEMU's own speed there.
floor_tb=$(echo "$insns ${rate_tb:-1}" | awk '{ printf "%.1f", $1 / $2 }')
floor_raw=$(echo "$insns ${rate_none:-1}" | awk '{ printf "%.1f", $1 / $2 }')

echo
echo "== the -O0..-Oz sweep (configs/sweep-qemu.json, cycle model on), --jobs 2"
# Measured: --jobs 2 quiet, and --jobs 2 beside a busy loop per core (rows
# lost). --jobs 1 takes the six runs' own walls one after the other: their
# sum is printed; BENCH_SWEEPS=all also runs it (about 4 minutes more, past
# the ten make bench is given) and compares its rows with --jobs 2's, byte
# for byte (test_e2e_sweep checks that on every make test).
rm -rf "$out/sweep-j2" "$out/sweep-j1" "$out/sweep-hog"
start=$(date +%s.%N)
"$build/hilrun" -q --sweep configs/sweep-qemu.json --jobs 2 \
	--results "$out/sweep-j2" >/dev/null 2>&1 || true
end=$(date +%s.%N)
sweep_j2=$(wall "$start" "$end")
echo "   --jobs 2: $sweep_j2 s"
split "$out/sweep-j2"
sweep_j1_sum=$(find "$out/sweep-j2" -name report.json | while read -r f; do
	num "$f" total_s; done | awk '{ t += $1 } END { printf "%.1f", t }')
echo "   --jobs 1 would take about $sweep_j1_sum s (the six runs' walls above, one after the other)"
sweep_j1=
if [ "${BENCH_SWEEPS:-}" = all ]; then
	start=$(date +%s.%N)
	"$build/hilrun" -q --sweep configs/sweep-qemu.json --jobs 1 \
		--results "$out/sweep-j1" >/dev/null 2>&1 || true
	end=$(date +%s.%N)
	sweep_j1=$(wall "$start" "$end")
	echo "   --jobs 1: $sweep_j1 s"
	# The report rows of --jobs 1 and --jobs 2, configuration by
	# configuration (the same images: build ids and all).
	same=yes
	for r1 in $(find "$out/sweep-j1" -name report.json | sort); do
		name=$(basename "$(dirname "$r1")" | sed 's/^[0-9]*-[0-9]*-//')
		r2=$(find "$out/sweep-j2" -name report.json -path "*-$name/*" | head -n 1)
		sed -n '/^	"rows":/,$p' "$r1" >"$out/rows-j1"
		sed -n '/^	"rows":/,$p' "${r2:-/dev/null}" >"$out/rows-j2"
		if [ ! -s "$out/rows-j1" ] || ! cmp -s "$out/rows-j1" "$out/rows-j2"; then
			same=no
			echo "   rows differ: $name"
		fi
	done
	echo "   report rows of --jobs 1 and --jobs 2 byte for byte the same: $same"
fi
echo
echo "== the same sweep, --jobs 2, beside $cores busy loops (one per core)"
hog_start
start=$(date +%s.%N)
"$build/hilrun" -q --sweep configs/sweep-qemu.json --jobs 2 \
	--results "$out/sweep-hog" >/dev/null 2>&1 || true
end=$(date +%s.%N)
hog_stop
ok_quiet=$(rows_ok "$out/sweep-j2")
ok_hog=$(rows_ok "$out/sweep-hog")
set -- $(lost "$out/sweep-hog")
hog_lost=$((ok_quiet - ok_hog))
echo "   $(wall "$start" "$end") s; $ok_hog rows measured of $ok_quiet, $1 not ok, $2 BENCH waits ran out"

echo "== goals of the fast emulated lane (#14), actual / goal"
goal "make run wall (cycle model)" "$run_wall" 15 s
goal "  / the plugin's compute floor" "$(echo "$run_wall $floor_tb" | awk '{ printf "%.2f", $1 / ($2 > 0 ? $2 : 1) }')" 1.5 x
echo "     (floor: $insns instructions at $(echo "${rate_tb:-0}" | awk '{ printf "%.1f M", $1 / 1e6 }') a second, the plugin on speed.S: $floor_tb s)"
goal "make run wall without the model" "$plain_wall" "$(echo "$floor_raw" | awk '{ printf "%.1f", 2 * $1 }')" s
goal "  / QEMU's raw compute floor" "$(echo "$plain_wall $floor_raw" | awk '{ printf "%.2f", $1 / ($2 > 0 ? $2 : 1) }')" 2 x
echo "     (floor: the same instructions at $(echo "${rate_none:-0}" | awk '{ printf "%.1f M", $1 / 1e6 }') a second, QEMU alone on speed.S: $floor_raw s)"
goal "requests per make run" "${req:-0}" 500 ""
goal "bytes on the wire per make run" "$((${tx:-0} + ${rx:-0}))" 40000 B
echo "     ($tx B to the target, $rx B from it)"
goal "make run rows lost beside a hog" "${run_hog_lost:-0}" 0 ""
goal "sweep wall, --jobs 2 (2 cores)" "$sweep_j2" 180 s
goal "sweep rows lost beside a CPU hog" "$hog_lost" 0 ""
if [ -n "$sweep_j1" ]; then
	echo "   sweep wall, --jobs 1: $sweep_j1 s (one core's worth; the goal is for two)"
else
	echo "   sweep wall, --jobs 1: about $sweep_j1_sum s, the runs' sum (one core's worth; BENCH_SWEEPS=all measures it)"
fi
echo "   plugin speed (speed.S, mode=tb): $(echo "${rate_tb:-0}" | awk '{ printf "%.1f", $1 / 1e6 }') M instructions/s; QEMU alone $(echo "${rate_none:-0}" | awk '{ printf "%.1f", $1 / 1e6 }') M/s"
