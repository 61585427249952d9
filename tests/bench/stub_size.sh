#!/bin/sh
# stub_size.sh: figures about the harness itself, printed, never asserted:
# the stub's own footprint (no algorithm, -Os) per board, and the wall time
# of one emulated run. Usage: tests/bench/stub_size.sh BUILD_DIR
set -eu
build=${1:-build}
out=$build/bench
mkdir -p "$out"

echo "== stub footprint (image without any algorithm, -Os)"
echo "   budget: flash <= 4096 B, static RAM <= 1024 B excluding the"
echo "   sample/message buffers (bufs) and the reserved stack"
printf '%-16s %10s %12s %14s %12s\n' board "flash B" "static RAM B" "buffers B" "stack B"
for board in qemu-netduino nucleo-f401re; do
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
echo "== one emulated run (configs/qemu.json: 8 rows x 1000 runs), wall time"
start=$(date +%s.%N)
"$build/hilrun" -q --config configs/qemu.json --results "$out/results" >/dev/null
end=$(date +%s.%N)
echo "$start $end" | awk '{ printf "   %.2f s\n", $2 - $1 }'
