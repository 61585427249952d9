#!/bin/sh
# validate-published.sh: runs public Cortex-M4 assembly with published DWT figures under the cycle model (docs/cycle-model.md, "Against published real-board DWT figures").
#
# Usage: scripts/validate-published.sh AES_DIR CHACHA_DIR [WORK_DIR]
#   AES_DIR     your checkout of github.com/Ko-/aes-armcortexm
#   CHACHA_DIR  your checkout of github.com/joostrijneveld/chacha-arm-cortex-m
#   WORK_DIR    scratch directory (default: a new one under /tmp)
#
# Fetches nothing and contains none of their code: it assembles the
# checkouts' own aes128/aes.s, aes{128,192,256}ctr/aes_*_ctr.s,
# aes128ctrbs/aes_128_ctr_bs.s and the output of
# common/chacha_gen.py with small harnesses of ours (below), bracketed
# like their measurement (one counter read, BL to the function, one
# counter read), checks the outputs (FIPS-197 C.1; CTR keystream computed
# offline), runs them under qemu-system-arm with build/emu/cyclemodel.so
# (make cycle-plugin) and prints model against published figures.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 AES_DIR CHACHA_DIR [WORK_DIR]" >&2
	exit 2
fi
AES=$1
CHACHA=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN=${HILRUN_CYCLE_PLUGIN:-$ROOT/build/emu/cyclemodel.so}
W=${3:-$(mktemp -d /tmp/hilrun-validate.XXXXXX)}
mkdir -p "$W"

for f in "$AES/aes128/aes.s" "$AES/aes128ctr/aes_128_ctr.s" \
	"$AES/aes192ctr/aes_192_ctr.s" "$AES/aes256ctr/aes_256_ctr.s" \
	"$AES/aes128ctrbs/aes_128_ctr_bs.s" \
	"$CHACHA/common/chacha_gen.py" "$PLUGIN"; do
	if [ ! -f "$f" ]; then
		echo "$0: missing $f" >&2
		exit 1
	fi
done

cp "$ROOT/tests/emu/emu.inc" "$W/"
sed 's/LENGTH = 16K/LENGTH = 64K/' "$ROOT/tests/emu/emu.ld" >"$W/emu.ld"

# AES-128: key schedule and one-block encryption of FIPS-197 C.1, two
# unbracketed warm-up calls then three bracketed ones each.
cat >"$W/aes_main.S" <<'EOF'
#include "emu.inc"
	VECTORS
	.bss
	.balign 8
rk:	.space 176
in:	.space 16
out:	.space 16
	.text
	.macro KS
	ldr r0, =key
	ldr r1, =rk+16
	.endm
	.macro ENC
	ldr r0, =rk
	ldr r1, =in
	ldr r2, =out
	.endm
	.thumb_func
	.global reset
reset:
	ldr r4, =TIM2_BASE
	ldr r0, =key
	ldr r1, =rk
	ldm r0, {r2, r3, r5, r6}
	stm r1, {r2, r3, r5, r6}
	ldr r0, =pt
	ldr r1, =in
	ldm r0, {r2, r3, r5, r6}
	stm r1, {r2, r3, r5, r6}
	.rept 2
	KS
	bl AES_128_keyschedule
	.endr
	.rept 3
	KS
	START
	bl AES_128_keyschedule
	STOP
	.endr
	.rept 2
	ENC
	bl AES_128_encrypt
	.endr
	.rept 3
	ENC
	START
	bl AES_128_encrypt
	STOP
	.endr
	ldr r0, =out
	ldr r1, =ct
	movs r2, #16
	bl same
	EXIT
	.ltorg
	.balign 4
key:	.byte 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
pt:	.byte 0x00,0x11,0x22,0x33,0x44,0x55,0x66,0x77,0x88,0x99,0xaa,0xbb,0xcc,0xdd,0xee,0xff
ct:	.byte 0x69,0xc4,0xe0,0xd8,0x6a,0x7b,0x04,0x30,0xd8,0xcd,0xb7,0x80,0x70,0xb4,0xc5,0x5a
EOF

# AES-CTR as aes128ctr/aes_128_ctr.c (and its 192, 256 twins): a
# bracketed key schedule into p.rk + key length, then 4096 bytes (i % 256)
# in one bracketed call. ctr_harness BITS KEY FIRST LAST: KEY, FIRST and
# LAST are .byte lists (the CTR output's first and last 16 bytes were
# computed offline for these keys and nonce).
ctr_harness() {
	kb=$(($1 / 8))
	cat >"$W/ctr$1_main.S" <<EOF
#include "emu.inc"
	VECTORS
	.bss
	.balign 8
p:	.space 4 + 12 + 16 * ($1 / 32 + 7)
in:	.space 4096
out:	.space 4096
	.text
	.thumb_func
	.global reset
reset:
	ldr r4, =TIM2_BASE
	ldr r0, =p
	movs r1, #0
	str r1, [r0]
	ldr r2, =nonce
	ldm r2, {r1, r2, r3}
	adds r0, #4
	stm r0!, {r1, r2, r3}
	ldr r2, =key
	movs r3, #0
2:	ldr r1, [r2, r3]
	str r1, [r0, r3]
	adds r3, #4
	cmp r3, #$kb
	bne 2b
	ldr r0, =in
	movs r1, #0
1:	strb r1, [r0, r1]
	adds r1, #1
	cmp r1, #4096
	bne 1b
	ldr r0, =key
	ldr r1, =p + 16 + $kb
	START
	bl AES_$1_keyschedule
	STOP
	ldr r0, =p
	ldr r1, =in
	ldr r2, =out
	mov r3, #4096
	START
	bl AES_$1_encrypt_ctr
	STOP
	ldr r0, =out
	ldr r1, =first
	movs r2, #16
	bl same
	ldr r0, =out+4080
	ldr r1, =last
	movs r2, #16
	bl same
	EXIT
	.ltorg
	.balign 4
key:	.byte $2
nonce:	.byte 1,2,3,1,2,4,1,2,5,1,2,6
first:	.byte $3
last:	.byte $4
EOF
}
ctr_harness 128 4,5,6,7,4,5,6,8,4,5,6,9,4,5,6,10 \
	0x3e,0xe2,0x4d,0x34,0x9b,0x05,0x07,0x09,0xaf,0x0a,0x19,0x17,0xbf,0x28,0xfc,0xb7 \
	0x47,0x64,0xa3,0x9d,0x6c,0x23,0xc6,0x22,0xc7,0x86,0x89,0x80,0x22,0x6a,0x4e,0x23
ctr_harness 192 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 \
	0x3f,0x43,0x0f,0xe9,0x92,0xb4,0x2a,0xe7,0xb2,0xb0,0x49,0x18,0xf2,0x38,0xe8,0xf8 \
	0x4f,0x70,0xd5,0x2d,0xdb,0x4e,0x66,0x88,0x75,0x2b,0x01,0x2e,0x33,0xab,0x40,0x73
ctr_harness 256 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31 \
	0xef,0x24,0xa1,0x81,0xc7,0xa0,0x23,0xc1,0x1a,0x5f,0x3f,0xe5,0x6a,0x6d,0x93,0x1d \
	0x5b,0x6d,0x36,0xe1,0xe8,0xfe,0x90,0xf5,0x50,0x2f,0xf4,0xa8,0x74,0x2e,0x22,0xa8
# The bitsliced AES-128-CTR (aes128ctrbs): 2 x 11 x 16 bytes of round keys
# written from p.rk, the counter big-endian in the block's last word.
sed -e 's/16 \* (128 \/ 32 + 7)/352/' -e 's/=p + 16 + 16/=p + 16/' \
	-e 's/^last:.*/last:	.byte 0x61,0xad,0xa2,0x48,0x2a,0x74,0xa1,0x85,0x3d,0x65,0x30,0xb6,0xd7,0x80,0xc6,0x45/' \
	"$W/ctr128_main.S" >"$W/ctrbs_main.S"

# Shared: compare r2 bytes at r0 and r1; exit 1 through semihosting on a
# difference.
cat >"$W/same.S" <<'EOF'
#include "emu.inc"
	.text
	.thumb_func
	.global same
same:
	subs r2, #4
	ldr r3, [r0, r2]
	ldr r5, [r1, r2]
	cmp r3, r5
	bne 1f
	cmp r2, #0
	bne same
	bx lr
1:	movs r0, #0x18
	ldr r1, =0x20024
	bkpt #0xab
	.ltorg
EOF

# pi-ChaCha as common/measure.c: one cold bracketed call (data[i] = i),
# then two more.
for r in 8 12 20; do
	python3 "$CHACHA/common/chacha_gen.py" $r >"$W/chacha$r.s"
	cat >"$W/cc$r.S" <<EOF
#include "emu.inc"
	VECTORS
	.bss
	.balign 8
data:	.space 64
digest:	.space 64
	.text
	.thumb_func
	.global reset
reset:
	ldr r4, =TIM2_BASE
	ldr r0, =data
	movs r1, #0
1:	strb r1, [r0, r1]
	adds r1, #1
	cmp r1, #64
	bne 1b
	.rept 3
	ldr r0, =digest
	ldr r1, =data
	START
	bl chacha${r}_perm_asm
	STOP
	.endr
	EXIT
	.ltorg
EOF
done

CC="arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -nostdlib -nostartfiles -Wl,--build-id=none -T $W/emu.ld -I$W"
$CC -o "$W/aes.elf" "$W/aes_main.S" "$W/same.S" "$AES/aes128/aes.s"
for b in 128 192 256; do
	$CC -o "$W/ctr$b.elf" "$W/ctr${b}_main.S" "$W/same.S" \
		"$AES/aes${b}ctr/aes_${b}_ctr.s"
done
$CC -o "$W/ctrbs.elf" "$W/ctrbs_main.S" "$W/same.S" \
	"$AES/aes128ctrbs/aes_128_ctr_bs.s"
for r in 8 12 20; do
	$CC -o "$W/cc$r.elf" "$W/cc$r.S" "$W/chacha$r.s"
done

# run ELF NAME PLUGIN_ARGS: the bracket records in $W/NAME.txt
run() {
	rm -f "$W/$2.txt"
	qemu-system-arm -M netduinoplus2 -kernel "$W/$1.elf" -display none \
		-monitor none -serial null -nodefaults \
		-icount shift=0,align=off,sleep=off \
		-semihosting-config enable=on,target=native \
		-plugin "$PLUGIN,out=$W/$2.txt$3" || {
		echo "$0: $1 failed (wrong output or QEMU error)" >&2
		exit 1
	}
}

# cycles SEQ NAME: the cycles of bracket SEQ
cycles() {
	sed -n "s/^B seq=$1 cycles=\([0-9]*\) .*/\1/p" "$W/$2.txt"
}

# row LABEL PUBLISHED MODEL
row() {
	awk -v l="$1" -v p="$2" -v m="$3" 'BEGIN {
		printf "%-44s %8s %9s %+7.1f %%\n", l, p, m, 100 * (m - p) / p }'
}

run aes aes0 ",profile=stm32f401-art,ws=0"
printf "%-44s %8s %9s %9s\n" "point (published M4, STM32F407)" published model error
row "AES-128 key schedule (24 MHz, 0 WS, ART)" 254.9 "$(cycles 3 aes0)"
row "AES-128 encrypt 1 block (same)" 644.7 "$(cycles 6 aes0)"
for b in 128 192 256; do
	case $b in
	128) ks=254.9 ctr=537.9 ;;
	192) ks=240.2 ctr=656.0 ;;
	*) ks=319.9 ctr=774.6 ;;
	esac
	run ctr$b ctr$b ",profile=stm32f401-art,ws=0"
	[ $b = 128 ] || row "AES-$b key schedule (same)" $ks "$(cycles 1 ctr$b)"
	row "AES-$b-CTR 4096 B, per block (same)" $ctr \
		"$(awk -v c="$(cycles 2 ctr$b)" 'BEGIN { printf "%.1f", c / 256 }')"
done
run ctrbs ctrbs ",profile=stm32f401-art,ws=0"
row "AES-128 bitsliced key schedule (same)" 1033.8 "$(cycles 1 ctrbs)"
row "AES-128-CTR bitsliced, per block (same)" 1619.6 \
	"$(awk -v c="$(cycles 2 ctrbs)" 'BEGIN { printf "%.1f", c / 256 }')"
for r in 8 12 20; do
	case $r in
	8) pub=414 ;;
	12) pub=572 ;;
	*) pub=888 ;;
	esac
	# 168 MHz as libopencm3 sets it: 5 WS, I- and D-cache on, no prefetch
	run cc$r cc${r}cfg ",profile=stm32f401-0ws,ws=5"
	run cc$r cc${r}ws0 ",profile=stm32f401-art,ws=0"
	run cc$r cc${r}pf ",profile=stm32f401-art,ws=5"
	row "pi-ChaCha$r cold, 5 WS, caches, no prefetch" $pub "$(cycles 1 cc${r}cfg)"
	row "pi-ChaCha$r, 0 WS (core only)" $pub "$(cycles 1 cc${r}ws0)"
	row "pi-ChaCha$r cold, 5 WS, caches and prefetch" $pub "$(cycles 1 cc${r}pf)"
done
echo "records and images: $W"
