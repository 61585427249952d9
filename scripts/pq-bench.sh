#!/bin/bash
# pq-bench.sh: benchmarks mupq-layout KEM and signature folders (pqm4, PQClean) unchanged on the emulated Cortex-M4 under the cycle model, verifies each against its host build, and writes what hilrun pq makes its rows of (calls.tsv: one line per timed call; rows.tsv: one per operation; skipped.tsv, run.tsv).
#
# usage: scripts/pq-bench.sh [-b BOARD] [-L LINK] [-n RUNS] [-s SEED] [-p PROFILE] [-O OPT]
#                            [-S] [-T SECONDS] [-F FLAGS] [-c COMMON_DIR]... [-o OUTDIR] SCHEME_DIR...
#   SCHEME_DIR   a folder with api.h (e.g. PQM4/crypto_kem/ml-kem-768/m4fspeed),
#                named <scheme>/<implementation> after its last two path parts
#   -c DIR       the user's common code (pqm4: -c PQM4/common -c PQM4/mupq/common);
#                none: hilrun's own target/pq/common (portable fips202.h)
#   -H DIR       the host reference's common code instead (pqm4: -H PQM4/mupq/common,
#                as its testvectors-host; default: the -c folders)
#   -b BOARD     board (default qemu-mps2-an386: 4 MiB code, 4 MiB RAM, run
#                here under the cycle model). Any other board's images report
#                over the board's link (PQ_OUTPUT=frames): the script builds
#                them and their host references, lists them in images.tsv and
#                stops; hilrun pq flashes and runs them (docs/pq.md)
#   -L LINK      the link those images are built for (HIL_LINK: empty for
#                the board's UART, semihost for qemu-netduino's semihosting)
#   -C HZ, -R BAUD  a real board's clock and UART rate (HIL_CLOCK_HZ,
#                HIL_BAUD; default: the board's, pqm4's benchmark clock)
#   -p PROFILE   cycle-model memory profile (default stm32f401-0ws: the F407
#                at 24 MHz / 0 WS of pqm4's 2022 table)
#   -n RUNS      timed runs per operation (default 3); -s SEED randombytes seed
#   -O OPT       optimisation (default -O3, pqm4's)
#   -B DIR       build folder (default build/pq under the hilrun tree; hilrun pq
#                gives each run its own, OUTDIR/build)
#   -N TEXT      what run.tsv records as the common code (default: the -c
#                folders; hilrun pq: the configuration's folders its copies
#                of them were taken from)
#   -T SECONDS   the limit of one folder's emulation (default 3600; a
#                SPHINCS+ "s" signature takes up to about an hour on a loaded machine)
#   -F FLAGS     what each folder's config.mk (pqm4's per-implementation flags,
#                e.g. mayo1/m4f's -DMAYO_M4) adds to its build, as hilrun pq
#                read it (image/pqflags.h; never run as make): one line per
#                folder, "FOLDER<TAB>flags<TAB>FLAG..." or
#                "FOLDER<TAB>refused<TAB>WHY" (the folder is then not run).
#                The flags go to the scheme's own objects; their -D, -U and
#                -I to the stub and the host reference too. Without -F (by
#                hand) a config.mk is not read, and the rows say so
#   -K           resume: keep OUTDIR's .tsv files as they are and skip the
#                folders done.tsv marks finished (hilrun pq --resume has
#                dropped the lines of the others first); they still serve
#                as host references of folders with assembly
#   -S           signatures from the host build: for a signature scheme whose
#                signing takes too long to emulate, time keypair and verify
#                only (the host reference signs, the image verifies its
#                signatures, both verified as usual); the sign row is left out.
#                Not with -b BOARD other than qemu-mps2-an386 (refused): the
#                image a board runs over its link does not take them
#
# hilrun pq runs this script (jailed) and writes report.json, summary.md,
# report.html and pqm4's benchmarks.md/csv from calls.tsv and rows.tsv
# through hilrun's result model (docs/pq.md); run by hand, it stops at the
# .tsv files.
# Exit status: 0 every folder ran and verified, 1 a row failed verification or
# a folder was left out (skipped.tsv says why), 2 bad usage.
# Every figure is the cycle model's estimate of a Cortex-M4 (docs/cycle-model.md),
# never a measurement; the emulated instruction count is beside it.
# A folder with assembly has no host build: it is verified against the host
# build of another folder of the same scheme given in the same call (e.g. its
# clean), as pqm4's testvectors are.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BOARD=qemu-mps2-an386
RUNS=3
SEED=1
PROFILE=stm32f401-0ws
OPT=-O3
COMMON=
HCOMMON=
OUT=
BUILDROOT=
LINK=
CLOCK=
BAUD=
HOSTSIGS=
LIMIT=3600
NAMED=
KEEP=
FLAGSFILE=
while getopts b:L:C:R:n:s:p:O:c:H:o:B:N:ST:KF: opt; do
	case $opt in
	b) BOARD=$OPTARG ;;
	L) LINK=$OPTARG ;;
	C) CLOCK=$OPTARG ;;
	R) BAUD=$OPTARG ;;
	n) RUNS=$OPTARG ;;
	s) SEED=$OPTARG ;;
	p) PROFILE=$OPTARG ;;
	O) OPT=$OPTARG ;;
	c) d=$(cd "$OPTARG" 2>/dev/null && pwd) || { echo "pq-bench: no common folder $OPTARG" >&2; exit 2; }
	   COMMON="$COMMON $d" ;;
	H) d=$(cd "$OPTARG" 2>/dev/null && pwd) || { echo "pq-bench: no common folder $OPTARG" >&2; exit 2; }
	   HCOMMON="$HCOMMON $d" ;;
	o) OUT=$OPTARG ;;
	B) mkdir -p "$OPTARG" && BUILDROOT=$(cd "$OPTARG" && pwd) ;;
	N) NAMED=$OPTARG ;;
	S) HOSTSIGS=1 ;;
	T) LIMIT=$OPTARG ;;
	K) KEEP=1 ;;
	F) FLAGSFILE=$OPTARG ;;
	*) sed -n '4,/^set -eu$/{/^set -eu$/!p}' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '4,/^set -eu$/{/^set -eu$/!p}' "$0" >&2; exit 2; }
case $RUNS in '' | *[!0-9]*) echo "pq-bench: -n wants a number of runs" >&2; exit 2 ;; esac
case $SEED in '' | *[!0-9]*) echo "pq-bench: -s wants a decimal seed" >&2; exit 2 ;; esac
case $LIMIT in '' | *[!0-9]* | 0) echo "pq-bench: -T wants a number of seconds" >&2; exit 2 ;; esac
case $BOARD in
# BIG_STACK: what a scheme that runs out of the default stack gets (of 4 MiB).
qemu-mps2-an386) MACHINE=mps2-an386; COUNTER=0x40002004; SHIFT=10; BIG_STACK=2097152 ;;
*[!a-z0-9-]* | '') echo "pq-bench: board '$BOARD': not a board name" >&2; exit 2 ;;
*) [ -f "$ROOT/target/boards/$BOARD/board.mk" ] || { echo "pq-bench: no board $BOARD (target/boards/)" >&2; exit 2; }
   MACHINE= ;; # built here, run by hilrun pq over the board's link
esac
if [ -n "$HOSTSIGS" ] && [ -z "$MACHINE" ]; then
	echo "pq-bench: -S (signatures from the host build) is for the cycle model's board (qemu-mps2-an386) only: the image $BOARD runs over its link (frames) does not take the host's signatures" >&2
	exit 2
fi
case $LINK in '' | semihost) ;; *) echo "pq-bench: -L wants semihost or nothing" >&2; exit 2 ;; esac
case $CLOCK$BAUD in *[!0-9]*) echo "pq-bench: -C and -R want numbers" >&2; exit 2 ;; esac
[ -z "$FLAGSFILE" ] || [ -f "$FLAGSFILE" ] || { echo "pq-bench: no flags file $FLAGSFILE (-F)" >&2; exit 2; }
[ -n "$OUT" ] || OUT=results/pq-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PLUGIN=${HILRUN_CYCLE_PLUGIN:-$ROOT/build/emu/cyclemodel.so}
[ -f "$PLUGIN" ] || make -s -C "$ROOT" cycle-plugin
# rows.tsv, one line per operation: scheme impl kind op runs mean min max
#   median stack hash% text data bss verified sha2% sha3% aes%
# calls.tsv, one line per timed call (host/run/pqrun.c reads it): scheme impl
#   kind op run ticks overhead-ticks cycles cycles-lo cycles-hi
#   calibration-cycles stack attr attr.sha2 attr.sha3 attr.aes digest ret
#   host-digest host-ret (- without a host build) stack-capacity imiss dmiss
#   ilines dlines (model cycles raw: the calibration is not subtracted)
ROWS=$OUT/rows.tsv
CALLS=$OUT/calls.tsv
SKIPPED=$OUT/skipped.tsv
# images.tsv (a board run over its link), one line per image built: scheme
#   impl kind elf host-reference-output (- without one) verification-note
#   text data bss
IMAGES=$OUT/images.tsv
# done.tsv, one line per folder that ran to its end (its lines in the files
#   above complete and synced first): scheme impl build-id. hilrun pq
#   --resume keeps these folders (-K) and runs the others again; on a board
#   over its link hilrun pq marks them as each image ends.
DONE=$OUT/done.tsv
if [ -z "$KEEP" ]; then
	: > "$ROWS"
	: > "$CALLS"
	: > "$SKIPPED"
	: > "$IMAGES"
	: > "$DONE"
fi
touch "$ROWS" "$CALLS" "$SKIPPED" "$IMAGES" "$DONE"
is_done() { # scheme impl
	awk -F '\t' -v s="$1" -v i="$2" '$1 == s && $2 == i && NF >= 3 { f = 1 } END { exit !f }' "$DONE"
}


# The hash code of the image, by class: the functions (text symbols) of the
# common code's objects whose file names say what they are:
#   sha3: fips202*, keccak*, sp800-185*
#   sha2: sha2*, sha256*, sha512*, crypto_hashblocks*
#   aes:  aes*
# (docs/pq.md, "Hashing shares"); the cycle model sums each class apart.
# Objects with "test" in their name (pqm4's aestest.c, keccaktest.c: test
# programs) are not the image's hash code.
attr_ranges() { # fwdir -> ranges file
	fw=$1
	for o in $(find "$fw/common" -name '*.o'); do
		case ${o##*/} in
		*test*) continue ;; # pqm4's aestest.c, keccaktest.c: programs of their own (main, test)
		fips202* | keccak* | sp800-185*) cls=sha3 ;;
		sha2* | sha256* | sha512* | crypto_hashblocks*) cls=sha2 ;;
		aes*) cls=aes ;;
		*) continue ;;
		esac
		arm-none-eabi-nm --defined-only "$o" 2>/dev/null | awk -v c=$cls '$2 ~ /^[tT]$/ {print $3, c}'
	done | sort -u | awk '{ n[$1]++; c[$1] = $2 } END { for (s in n) if (n[s] == 1) print s, c[s] }' | sort > "$fw/hash.syms"
	# (a name defined in objects of two classes is no one's: left out)
	# stub.nm is sorted by address; a function of assembly without .size
	# (pqm4's keccakf1600.S) ends where the next symbol starts.
	awk 'NR == FNR { want[$1] = $2; next }
	     NF == 4 && ($3 ~ /^[tT]$/) { a[++n] = $1; sz[n] = $2; nm[n] = $4; next }
	     NF == 3 { a[++n] = $1; sz[n] = ""; nm[n] = ($2 ~ /^[tT]$/) ? $3 : "" }
	     END { for (i = 1; i <= n; i++) if (nm[i] in want) {
			s = sz[i]
			if (s == "" && i < n) s = "@" a[i + 1]
			if (s != "") print a[i], s, want[nm[i]] } }' "$fw/hash.syms" "$fw/stub.nm" |
		while read -r addr size cls; do
			lo=$((0x$addr & ~1))
			case $size in
			@*) hi=$((0x${size#@} & ~1)) ;;
			*) hi=$((lo + 0x$size)) ;;
			esac
			[ $hi -gt $lo ] && printf '%x %x %s\n' $lo $hi $cls
		done > "$fw/hash.ranges"
}

# Paths reach make and the compiler as words: only plain characters, so that
# no folder name is ever run as make or shell syntax.
plain_path() {
	case $1 in
	*[!A-Za-z0-9_./+-]*)
		echo "pq-bench: '$1': a folder path may hold letters, digits and _ . / + - only" >&2
		exit 2 ;;
	esac
}
BUILDROOT=${BUILDROOT:-$ROOT/build/pq}
mkdir -p "$BUILDROOT" # the logs below are written beside the images, before make makes their folders
for d in "$ROOT" $COMMON $HCOMMON "$OUT" "$BUILDROOT"; do plain_path "$d"; done
# build: where each image is (BUILD/SCHEME_IMPL/fw/stub.elf, the scheme and
# implementation with / . + - as _). profile: the cycle model's (empty for a
# board run over its link: no model).
[ -n "$MACHINE" ] || PROFILE=
# (-K: the first attempt's, and on a board what its stub said, stay)
[ -n "$KEEP" ] && [ -s "$OUT/run.tsv" ] ||
printf 'board\t%s\nprofile\t%s\nruns\t%s\nseed\t%s\nopt\t%s\ncommon\t%s\ncompiler\t%s\nbuild\t%s\n' \
	"$BOARD" "$PROFILE" "$RUNS" "$SEED" "$OPT" "${NAMED:-$(echo ${COMMON:-hilrun target/pq/common})}" \
	"$(arm-none-eabi-gcc --version | head -1)" "$BUILDROOT" > "$OUT/run.tsv"

# What folder $1's config.mk adds to its build (-F's line of it):
# XSTATE flags (XFLAGS: the flags, maybe none), refused (XWHY: why), none
# (no config.mk) or unread (a config.mk and no line of -F for it).
flags_of() {
	XSTATE=none XFLAGS= XWHY=
	if [ -n "$FLAGSFILE" ]; then
		while IFS=$'\t' read -r f st text; do
			fd=$(cd "$f" 2>/dev/null && pwd) || continue
			[ "$fd" = "$1" ] || continue
			case $st in
			flags) XSTATE=flags XFLAGS=$text ;;
			*) XSTATE=refused XWHY=${text:-the flags file refuses it} ;;
			esac
			break
		done < "$FLAGSFILE"
	fi
	if [ "$XSTATE" = none ] && [ -e "$1/config.mk" ]; then
		XSTATE=unread
	fi
	# The flags reach make as words: options of plain characters only
	# (hilrun's reader took only those; a hand-written -F file too).
	for w in $XFLAGS; do
		case $w in
		-*[!A-Za-z0-9_./+=,-]* | [!-]*)
			XSTATE=refused XFLAGS=
			XWHY="the flags file's \"$w\": not an option of plain characters" ;;
		esac
	done
	return 0
}

has_asm() {
	for f in "$1"/*.S "$1"/*.s; do
		[ -e "$f" ] && return 0
	done
	return 1
}

nth=0
for dir in "$@"; do
	nth=$((nth + 1))
	t0=$SECONDS
	dir=$(cd "$dir" 2>/dev/null && pwd) || { echo "pq-bench: no folder $dir" >&2; exit 2; }
	plain_path "$dir"
	impl=$(basename "$dir")
	scheme=$(basename "$(dirname "$dir")")
	id=$scheme/$impl
	sym=$(echo "$id" | tr '/.+-' '____')
	if [ -n "$KEEP" ] && is_done "$scheme" "$impl"; then
		echo "== [$nth/$#] $id: finished in an earlier attempt: kept" >&2
		continue
	fi
	flags_of "$dir"
	xflags=$XFLAGS
	if [ "$XSTATE" = refused ]; then
		printf '%s\t%s\t%s\n' "$scheme" "$impl" "$XWHY" >> "$SKIPPED"
		echo "== [$nth/$#] $id: not run: $XWHY" >&2
		continue
	fi
	# What the rows say of the folder's config.mk.
	flagnote=
	if [ -n "$xflags" ]; then
		flagnote=" (built with its config.mk's ${xflags//$dir\//})"
	elif [ "$XSTATE" = unread ]; then
		flagnote=" (its config.mk not read: pq-bench.sh without -F)"
		echo "pq-bench: $id: its config.mk is not read (run by hand without -F; hilrun pq reads it): built without its flags" >&2
	fi
	if [ ! -f "$dir/api.h" ]; then
		why="no api.h"
		# A link leading nowhere (run by hand, unjailed; hilrun pq
		# builds copies, links followed by its rules, docs/pq.md).
		[ -L "$dir/api.h" ] && why="api.h is a link to $(readlink "$dir/api.h"), which is not there"
		printf '%s\t%s\t%s\n' "$scheme" "$impl" "$why" >> "$SKIPPED"; continue
	fi
	ns=$(sed -n 's/^#define[ \t]*\([A-Za-z0-9_]*\)CRYPTO_SECRETKEYBYTES.*/\1/p' "$dir/api.h" | head -1)
	if grep -q "CRYPTO_CIPHERTEXTBYTES" "$dir/api.h"; then kind=KEM; else kind=SIGN; fi
	b=$BUILDROOT/$sym
	echo "== [$nth/$#] $id ($kind${ns:+, namespace $ns}) $(date -u +%H:%M:%SZ)" >&2
	# -S: the folder of the generated pq_hostsigs.h, given to both builds
	sigs=
	[ -n "$HOSTSIGS" ] && [ "$kind" = SIGN ] && sigs=$b/sigs
	# $1: the image's stack in bytes, or empty for the board's default
	build_fw() {
		make -s -C "$ROOT" pq-fw BOARD="$BOARD" PQ_SCHEME="$dir" PQ_KIND=$kind PQ_NS="$ns" \
			PQ_OUT="$b" PQ_COMMON="${COMMON:-target/pq/common}" PQ_OPT="$OPT" \
			PQ_RUNS="$RUNS" PQ_SEED="$SEED" PQ_STACK="$1" PQ_HOST_SIGS="$sigs" HIL_LINK="$LINK" PQ_XFLAGS="$xflags" \
			PQ_MAP="$BUILDROOT" \
			${CLOCK:+HIL_CLOCK_HZ=$CLOCK} ${BAUD:+HIL_BAUD=$BAUD} > "$b.build.log" 2>&1
	}
	took() { echo "$((SECONDS - t0)) s"; }
	run_target() {
		read -r lo size <<-X
		$(awk '$4 == "pq_timed" {print $1, $2}' "$b/fw/stub.nm")
		X
		lo=$((0x$lo & ~1)); hi=$((lo + 0x$size))
		rm -f "$b/model.txt"
		# --foreground: QEMU stays in this script's process group, so that
		# Ctrl-C or a kill of the group ends it too (in a group of its own it
		# would outlive the script by up to the limit).
		timeout --foreground "$LIMIT" qemu-system-arm -M $MACHINE -display none -monitor none -serial null \
			-semihosting-config enable=on,target=native \
			-icount shift=$SHIFT,align=off,sleep=off -kernel "$b/fw/stub.elf" \
			-plugin "$PLUGIN,profile=$PROFILE,counter=$COUNTER,range=$(printf '0x%08x-0x%08x' $lo $hi),attr=$b/fw/hash.ranges,out=$b/model.txt" \
			> "$b/target.txt" 2>&1 || true
	}
	# The host reference: this folder, or (assembly) a portable one of the same scheme.
	ref=$dir
	if has_asm "$dir"; then
		ref=
		for other in "$@"; do
			o=$(cd "$other" && pwd)
			flags_of "$o"
			if [ "$(basename "$(dirname "$o")")" = "$scheme" ] && ! has_asm "$o" &&
				[ "$XSTATE" != refused ]; then
				ref=$o; break
			fi
		done
	fi
	refout=
	hostfail=
	refnote=
	rflags=
	if [ -n "$ref" ]; then
		flags_of "$ref"
		rflags=$XFLAGS
		# (its -D, -U and -I are what its host build takes, mk/pq.mk)
		[ "$ref" = "$dir" ] || [ -z "$rflags" ] ||
			refnote=" with its config.mk's ${rflags//$ref\//}"
		rsym=$(echo "$scheme/$(basename "$ref")" | tr '/.+-' '____')
		rns=$(sed -n 's/^#define[ \t]*\([A-Za-z0-9_]*\)CRYPTO_SECRETKEYBYTES.*/\1/p' "$ref/api.h" | head -1)
		if make -s -C "$ROOT" pq-host PQ_SCHEME="$ref" PQ_KIND=$kind PQ_NS="$rns" \
			PQ_OUT="$BUILDROOT/$rsym" PQ_COMMON="${COMMON:-target/pq/common}" \
			PQ_HOST_COMMON="${HCOMMON:-${COMMON:-target/pq/common}}" \
			PQ_RUNS="$RUNS" PQ_SEED="$SEED" PQ_HOST_SIGS="$sigs" PQ_XFLAGS="$rflags" PQ_MAP="$BUILDROOT" > "$b.host.log" 2>&1; then
			refout=$b.ref.txt
			"$BUILDROOT/$rsym/host/ref" > "$refout"
		else
			hostfail="the host build of $scheme/$(basename "$ref") failed ($(grep -m1 -E 'error' "$b.host.log" | cut -c1-120); see $b.host.log)"
		fi
	fi
	# -S: the host's signatures, per run, as the image's pq_hostsigs.h
	signote=
	if [ -n "$sigs" ]; then
		if [ -z "$refout" ]; then
			why="-S needs a host build to sign with: ${hostfail:-no portable folder of $scheme}"
			printf '%s\t%s\t%s\n' "$scheme" "$impl" "$why" >> "$SKIPPED"
			echo "   skipped: $why ($(took))" >&2
			continue
		fi
		mkdir -p "$sigs"
		awk -v runs="$RUNS" '
		function bytes(h,   i) { printf "{"; for (i = 1; i < length(h); i += 2) printf "0x%s,", substr(h, i, 2); printf "}" }
		$1 == "S" { n++; st[n] = $3 $4; len[n] = $5; m[n] = $6; sg[n] = $7 }
		END {
			if (n != runs) { printf "pq-bench -S: the host build printed %d signatures for %d runs\n", n, runs > "/dev/stderr"; exit 1 }
			print "/* pq_hostsigs.h: generated by pq-bench -S from the host build'"'"'s signatures; not a source file. */"
			printf "static const uint64_t pq_host_state[PQ_RUNS] = {"; for (i = 1; i <= n; i++) printf "0x%sULL,", st[i]; print "};"
			printf "static const size_t pq_host_smlen[PQ_RUNS] = {"; for (i = 1; i <= n; i++) printf "%su,", len[i]; print "};"
			printf "static const uint8_t pq_host_msg[PQ_RUNS][PQ_MLEN] = {"; for (i = 1; i <= n; i++) { bytes(m[i]); printf "," } print "};"
			printf "static const uint8_t pq_host_sm[PQ_RUNS][PQ_MLEN + PQ_BYTES] = {"; for (i = 1; i <= n; i++) { bytes(sg[i]); printf "," } print "};"
		}' "$refout" > "$sigs/pq_hostsigs.h.tmp" 2> "$sigs/awk.err" || {
			why="-S: $(cat "$sigs/awk.err")"
			rm -f "$sigs/pq_hostsigs.h.tmp"
			printf '%s\t%s\t%s\n' "$scheme" "$impl" "$why" >> "$SKIPPED"
			echo "   skipped: $why ($(took))" >&2
			continue
		}
		cmp -s "$sigs/pq_hostsigs.h.tmp" "$sigs/pq_hostsigs.h" && rm -f "$sigs/pq_hostsigs.h.tmp" ||
			mv "$sigs/pq_hostsigs.h.tmp" "$sigs/pq_hostsigs.h"
		signote=" (signatures from the host build: sign not run, -S)"
	fi
	if ! build_fw ""; then
		why=$(grep -E "overflow|will not fit|error" "$b.build.log" | head -1 | sed 's/.*[/]ld: //; s/stub[.]elf[.][0-9]*[.]*tmp/stub.elf/g; s/stub[.]elf[.]tmp/stub.elf/g' | cut -c1-200)
		printf '%s\t%s\tdoes not build or fit %s: %s\n' "$scheme" "$impl" "$BOARD" "${why:-see $b.build.log}" >> "$SKIPPED"
		echo "   skipped: $why ($(took))" >&2
		continue
	fi
	# On a board with a link, the stack takes all the RAM the image leaves
	# (pqm4's boards do the same): linked again with the stack grown by the
	# free RAM between the end of .bss and the end of RAM, 64 bytes spare.
	if [ -z "$MACHINE" ]; then
		stack=$(awk '$NF == "__heap_start" { hs = $1 } $NF == "__heap_end" { he = $1 }
			$NF == "__stack_bottom" { sb = $1 } $NF == "__stack_top" { st = $1 }
			END { print st, sb, he, hs }' "$b/fw/stub.nm" | {
			read -r st sb he hs
			echo $(( (0x$st - 0x$sb + 0x$he - 0x$hs - 64) & ~7 )); })
		if ! build_fw "$stack"; then
			why=$(grep -E "overflow|will not fit|error" "$b.build.log" | head -1 | sed 's/.*[/]ld: //; s/stub[.]elf[.][0-9]*[.]*tmp/stub.elf/g; s/stub[.]elf[.]tmp/stub.elf/g' | cut -c1-200)
			printf '%s\t%s\tdoes not build or fit %s with a stack of %s bytes: %s\n' "$scheme" "$impl" "$BOARD" "$stack" "${why:-see $b.build.log}" >> "$SKIPPED"
			echo "   skipped: $why ($(took))" >&2
			continue
		fi
	fi
	if [ -z "$MACHINE" ]; then
		# A board over its link: hilrun pq runs the image.
		if [ -n "$refout" ]; then
			verified="vs host build of $scheme/$(basename "$ref")$refnote$flagnote"
		elif [ -n "$hostfail" ]; then
			verified="not verified: $hostfail$flagnote"
		else
			verified="not verified: no portable folder of $scheme to build for the host$flagnote"
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scheme" "$impl" "$kind" "$b/fw/stub.elf" \
			"${refout:--}" "$verified" $(awk '/TOTALS/ {print $1, $2, $3}' "$b/fw/scheme.size") >> "$IMAGES"
		echo "   built for $BOARD ($(took))" >&2
		continue
	fi
	attr_ranges "$b/fw"
	stacknote=
	run_target
	# The stack ran out: the image again with a stack of BIG_STACK bytes
	# (the board's RAM allowing), once.
	if awk '$1 == "F" && $4 == "stack" { f = 1 } END { exit !f }' "$b/target.txt"; then
		echo "   the stack ran out: again with a stack of $BIG_STACK bytes" >&2
		stacknote=" (stack raised to $BIG_STACK bytes)"
		if build_fw "$BIG_STACK"; then
			attr_ranges "$b/fw"
			run_target
		else
			echo "F 0 0 stack" >> "$b/target.txt" # keeps the first run's reason
		fi
	fi
	if ! grep -q '^E$' "$b/target.txt"; then
		why=$(awk '$1 == "R" { done++ }
			$1 == "H" { cap = $(NF - 1) }
			$1 == "F" { printf "the target faulted (pc 0x%s, CFSR 0x%s) after %d completed calls", $2, $3, done
				    if ($4 == "stack") printf "; it used its whole stack (%s bytes): the scheme needs more stack than this image gives", cap
				    exit }' "$b/target.txt")
		printf '%s\t%s\tstopped on %s: %s\n' "$scheme" "$impl" "$BOARD" "${why:-no end marker, see $b/target.txt}" >> "$SKIPPED"
		echo "   stopped: ${why:-no end marker} ($(took))" >&2
		continue
	fi
	# verification: the same op, run, digest and return value as the host build
	# Per operation: every run's digest and return value equal to the host
	# build's, and the return value 0 (99: decapsulation or opening disagreed).
	: > "$b/verify.ops"
	if [ -n "$refout" ]; then
		awk 'NR == FNR { if ($1 == "R") ref[$2 " " $3] = $6 " " $7; next }
		     $1 == "R" { k = $2 " " $3; if (!($2 in seen)) order[++n] = $2; seen[$2] = 1
				 if (!(k in ref) || ref[k] != $6 " " $7 || $7 != 0) bad[$2] = 1 }
		     END { for (i = 1; i <= n; i++) print order[i], (order[i] in bad) ? "FAILED" : "ok" }' \
			"$refout" "$b/target.txt" > "$b/verify.ops"
		verified="vs host build of $scheme/$(basename "$ref")$refnote$stacknote$signote$flagnote"
	elif [ -n "$hostfail" ]; then
		verified="not verified: $hostfail$stacknote$flagnote"
	else
		verified="not verified: no portable folder of $scheme to build for the host$stacknote$flagnote"
	fi
	text=$(awk '/TOTALS/ {print $1}' "$b/fw/scheme.size"); data=$(awk '/TOTALS/ {print $2}' "$b/fw/scheme.size"); bss=$(awk '/TOTALS/ {print $3}' "$b/fw/scheme.size")
	# Records: 4 calibration brackets, then one per R line, in order. The
	# stack of each call less the stub's own frames (the H line's last field:
	# the peak around an empty call), as pqm4's stack figures count.
	awk -v scheme="$scheme" -v impl="$impl" -v kind="$kind" -v verified="$verified" -v bdir="$b" \
	    -v text="$text" -v data="$data" -v bss="$bss" -v calls="$CALLS" '
	function kv(s, k,   a, n, i) { n = split(s, a, " "); for (i = 1; i <= n; i++) if (index(a[i], k "=") == 1) return substr(a[i], length(k) + 2); return "" }
	FNR == 1 { file++ }
	file == 1 && FILENAME ~ /verify.ops$/ { vst[$1] = $2; next }
	FILENAME ~ /ref.txt$/ && $1 == "R" { rdg[$2 " " $3] = $6; rret[$2 " " $3] = $7; next }
	FILENAME ~ /model.txt$/ && /^B / { nb++; if (nb <= 4) { c = kv($0, "cycles") + 0; if (cal == "" || c < cal) cal = c; next }
		cyc[nb - 4] = kv($0, "cycles"); att[nb - 4] = kv($0, "attr"); clo[nb - 4] = kv($0, "min"); chi[nb - 4] = kv($0, "max")
		a2[nb - 4] = kv($0, "attr.sha2") + 0; a3[nb - 4] = kv($0, "attr.sha3") + 0; aa[nb - 4] = kv($0, "attr.aes") + 0
		mem[nb - 4] = kv($0, "imiss") "\t" kv($0, "dmiss") "\t" kv($0, "ilines") "\t" kv($0, "dlines"); next }
	FILENAME ~ /target.txt$/ && $1 == "H" { base = $NF; cap = $(NF - 1); ovh = $(NF - 2) }
	FILENAME ~ /target.txt$/ && $1 == "R" { nr++; op[nr] = $2; run[nr] = $3; ins[nr] = $4; stk[nr] = $5 - base; dg[nr] = $6; ret[nr] = $7 }
	END {
		if (nr != nb - 4) { printf "record count mismatch: %d calls, %d brackets\n", nr, nb - 4 > "/dev/stderr"; exit 1 }
		for (i = 1; i <= nr; i++) {
			o = op[i]; k = ++cnt[o]; v = cyc[i] - cal
			vals[o, k] = v; sum[o] += v; ins_sum[o] += ins[i]
			if (!(o in mn) || v < mn[o]) mn[o] = v
			if (!(o in mx) || v > mx[o]) mx[o] = v
			if (stk[i] > smax[o]) smax[o] = stk[i]
			hs[o] += att[i]; tot[o] += cyc[i]; h2[o] += a2[i]; h3[o] += a3[i]; ha[o] += aa[i]
			if (!(o in seen)) { seen[o] = 1; order[++no] = o }
			# One line per timed call: what hilrun pq makes its rows of.
			rk = o " " run[i]
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", scheme, impl, kind, o, run[i],
				ins[i], ovh, cyc[i], clo[i], chi[i], cal, stk[i], att[i] + 0, a2[i], a3[i], aa[i], dg[i], ret[i],
				(rk in rdg) ? rdg[rk] : "-", (rk in rdg) ? rret[rk] : "-", cap, mem[i] >> calls
		}
		for (j = 1; j <= no; j++) {
			o = order[j]; n = cnt[o]
			# median: sort the values
			for (a = 1; a <= n; a++) s[a] = vals[o, a]
			for (a = 2; a <= n; a++) { x = s[a]; b = a - 1; while (b >= 1 && s[b] > x) { s[b + 1] = s[b]; b-- } s[b + 1] = x }
			med = (n % 2) ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
			printf "%s\t%s\t%s\t%s\t%d\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.1f\t%s\t%s\t%s\t%s\t%.1f\t%.1f\t%.1f\n", scheme, impl, kind, o, n,
				sum[o] / n, mn[o], mx[o], med, smax[o], (tot[o] > 0 ? 100 * hs[o] / tot[o] : 0),
				text, data, bss, (cap > 0 && smax[o] + base + 64 >= cap) ? "FAILED: the stack (" cap " bytes) overflowed: needs more" : (o in vst) ? (vst[o] == "ok" ? "ok " verified : "FAILED " verified " (digests differ: " bdir "/target.txt vs the reference)") : verified,
				(tot[o] > 0 ? 100 * h2[o] / tot[o] : 0), (tot[o] > 0 ? 100 * h3[o] / tot[o] : 0), (tot[o] > 0 ? 100 * ha[o] / tot[o] : 0)
		}
	}' "$b/verify.ops" "${refout:-/dev/null}" "$b/model.txt" "$b/target.txt" >> "$ROWS"
	# Its lines durable, then the folder marked finished (hilrun pq
	# --resume keeps it), with the build-id of the image that ran.
	sync "$ROWS" "$CALLS"
	bid=$(arm-none-eabi-readelf -n "$b/fw/stub.elf" 2>/dev/null | awk '/Build ID/ {print $3; exit}')
	printf '%s\t%s\t%s\n' "$scheme" "$impl" "${bid:--}" >> "$DONE"
	sync "$DONE"
	echo "   $(awk '{printf "%s %s; ", $1, $2}' "$b/verify.ops")$verified ($(took))" >&2
done

# exit 1 when a row failed its verification or a folder was left out
if grep -q 'FAILED' "$ROWS" || [ -s "$SKIPPED" ]; then
	exit 1
fi
