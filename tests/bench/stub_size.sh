#!/bin/sh
# stub_size.sh: figures about the harness itself, printed, never asserted:
# the stub's own footprint (no algorithm, -Os) per board, USB transfers per
# sensor sample, the cycle-model plugin's speed, and where the wall time of
# an emulated run and of the -O0..-Oz sweep goes. Usage: tests/bench/stub_size.sh BUILD_DIR
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

echo
echo "== one emulated run (configs/qemu.json: the bundled suite), wall time split"
start=$(date +%s.%N)
"$build/hilrun" -q --config configs/qemu.json --results "$out/results" >/dev/null || true
end=$(date +%s.%N)
echo "$start $end" | awk '{ printf "   %.2f s in all\n", $2 - $1 }'
split "$out/results"

echo
echo "== the -O0..-Oz sweep on the emulated board (configs/sweep-qemu.json), twice"
echo "   goal: flash/start, link and host work under 20 % of each run; the"
echo "   second sweep builds nothing"
for pass in first second; do
	rm -rf "$out/sweep-$pass"
	start=$(date +%s.%N)
	"$build/hilrun" -q --sweep configs/sweep-qemu.json \
		--results "$out/sweep-$pass" >/dev/null || true
	end=$(date +%s.%N)
	echo "$start $end $pass" | awk '{ printf "   %s sweep: %.1f s in all\n", $3, $2 - $1 }'
	split "$out/sweep-$pass"
done
