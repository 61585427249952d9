#!/bin/sh
# validate-nist.sh: runs the NIST LWC benchmark's own AEAD trees as NIST ran them on the Nano 33 BLE (nRF52840), under hilrun's cycle model, and prints model against published per point, training and validation apart, assembly apart from C (docs/cycle-model.md, "NIST LWC, Nano 33 BLE").
#
# Usage: scripts/validate-nist.sh NIST_CHECKOUT [finalist...]
#   NIST_CHECKOUT  your checkout of github.com/usnistgov/Lightweight-Cryptography-Benchmarking
#   finalist       folders of its implementations/ (default: the training
#                  set, ascon gift-cofb tinyjambu sparkle xoodyak; "all"
#                  adds the validation set, elephant grain128aead isap
#                  photon-beetle romulus)
# Environment:
#   PROFILES  cycle-model profiles to run (default: nrf52840-cal, the
#             calibrated one, and the uncalibrated nrf52840-icache and
#             nrf52840-nocache; with FIT=1 the fit's grid, below)
#   GRID      full (default: the CSV's 46 AD/message pairs, three runs per
#             finalist and profile) or short (AD 0, messages 0..2048)
#   WORK      scratch folder for configs and results (default: a new one
#             under /tmp)
#   OPT       O2 (default), O1, Os or O3: build at that level and compare
#             with the CSV's rows of that level (the C residuals' test:
#             docs/cycle-model.md); the fit is at O2 only
#   RESIDUALS=1  also print, per training implementation, the median
#             error, its range and how it moves with the lengths
#   CROSS     the compiler to build with, as make's CROSS: a prefix
#             ending in arm-none-eabi- (default: the arm-none-eabi-gcc on
#             PATH, Debian's 12.2 here). E.g. CROSS=DIR/bin/arm-none-eabi-
#             after scripts/cross-gcc.sh DIR (Debian 11's GCC 8.3.1): its
#             folder goes first on hilrun's PATH (the jail binds it), and
#             the "Model:" line and each report name the compiler
#   FIT=1     fit the nRF52840 parameters again (training finalists only):
#             runs the grid's profiles (nrf52840-nocache, nrf52840-fit-1k,
#             -2k, -4k, nrf52840-icache), chooses the cache and the wait
#             states that explain the published counts best, and
#             cross-validates leaving one finalist out, into WORK/fit.json
#
# Fetches nothing and contains none of their code or figures: hilrun
# builds the checkout's folders, glue files and all, as they are; the
# published counts are read from the checkout's
# benchmarks/nano33ble-aead-summary.csv, -O2 rows, only for the finalists
# named. NIST built at -O2 with PlatformIO's Arduino core for the Nano 33
# BLE (GCC 7.2.1); hilrun builds with the arm-none-eabi-gcc on PATH, Debian's
# 12.2, or with CROSS's (docs/cycle-model.md says what that changes).
set -eu

if [ $# -lt 1 ]; then
	echo "usage: $0 NIST_CHECKOUT [finalist...|all]" >&2
	exit 2
fi
NIST=$(cd "$1" && pwd)
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HILRUN=${HILRUN:-$ROOT/build/hilrun}
CSV=$NIST/benchmarks/nano33ble-aead-summary.csv
IMPL=$NIST/implementations
TRAINING="ascon gift-cofb tinyjambu sparkle xoodyak"
VALIDATION="elephant grain128aead isap photon-beetle romulus"
if [ "${FIT:-0}" = 1 ]; then
	PROFILES=${PROFILES:-nrf52840-nocache nrf52840-fit-1k nrf52840-fit-2k nrf52840-fit-4k nrf52840-icache}
else
	PROFILES=${PROFILES:-nrf52840-cal nrf52840-icache nrf52840-nocache}
fi
GRID=${GRID:-full}
OPT=${OPT:-O2}
case $OPT in
O1 | Os | O2 | O3) ;;
*)
	echo "$0: OPT is O1, Os, O2 or O3, not $OPT" >&2
	exit 2
	;;
esac
if [ "${FIT:-0}" = 1 ] && [ "$OPT" != O2 ]; then
	echo "$0: FIT=1 fits on the -O2 figures only" >&2
	exit 2
fi
LEVEL=$(echo "$OPT" | tr 'A-Z' 'a-z')
# The compiler: hilrun's builds call arm-none-eabi-gcc by name, so a CROSS
# prefix is its folder first on PATH.
if [ -n "${CROSS:-}" ]; then
	case $CROSS in
	*/arm-none-eabi-) ;;
	*)
		echo "$0: CROSS is a folder's arm-none-eabi- prefix (e.g. DIR/bin/arm-none-eabi-), not $CROSS" >&2
		exit 2
		;;
	esac
	if [ ! -x "${CROSS}gcc" ]; then
		echo "$0: CROSS=$CROSS: no ${CROSS}gcc (scripts/cross-gcc.sh DIR makes DIR/bin/arm-none-eabi-gcc)" >&2
		exit 2
	fi
	PATH=$(cd "$(dirname "${CROSS}gcc")" && pwd):$PATH
	export PATH
fi
COMPILER=$(arm-none-eabi-gcc --version 2>/dev/null | head -1) || COMPILER=
if [ -z "$COMPILER" ]; then
	echo "$0: no arm-none-eabi-gcc on PATH${CROSS:+ (CROSS=$CROSS)}" >&2
	exit 2
fi
W=${WORK:-$(mktemp -d /tmp/hilrun-nist.XXXXXX)}
mkdir -p "$W"

for f in "$CSV" "$IMPL" "$HILRUN"; do
	if [ ! -e "$f" ]; then
		echo "$0: missing $f (a checkout of the NIST LWC benchmarking repository, and make)" >&2
		exit 1
	fi
done

if [ $# -eq 0 ]; then
	set -- $TRAINING
elif [ "$1" = all ]; then
	set -- $TRAINING $VALIDATION
fi
for f in "$@"; do
	if [ ! -d "$IMPL/$f/crypto_aead" ]; then
		echo "$0: no $IMPL/$f/crypto_aead (finalists: $TRAINING $VALIDATION)" >&2
		exit 1
	fi
done

# The CSV's grid: AD x message lengths, as hilrun runs (lengths x ad_lengths)
# in three runs; "short" is the AD-0 series only.
if [ "$GRID" = short ]; then
	GRIDS="0|0,8,16,32,64,128,256,384,512,1024,2048"
else
	GRIDS="0,8,16,32,64,128|0,8,16,32,64,128 0|256,384,512,1024,2048 256,384,512,1024,2048|0"
fi

# One config per finalist, profile and grid part: the finalist's whole
# crypto_aead/ tree (its AVR folders are listed as not for this board), -O2,
# three timed runs after one warm-up (NIST's Trials = 3, median), no leak
# test. The emulated board runs the code; the profile models the
# nRF52840's memory system.
run_one() {
	fin=$1 prof=$2 ad=$3 msg=$4 tag=$5
	# One name per finalist: every profile and grid part reuses its images.
	name="nist-$fin-$OPT"
	run="$fin-$prof-$OPT-$tag"
	cfg="$W/$run.json"
	cat >"$cfg" <<EOF
{
  "name": "$name",
  "board": { "name": "qemu-netduino" },
  "flasher": { "type": "qemu" },
  "build": { "cflags": ["-$OPT"] },
  "algorithms": [ { "tree": "$IMPL/$fin/crypto_aead" } ],
  "bench": { "operations": ["encrypt", "decrypt"], "lengths": [$msg],
             "ad_lengths": [$ad], "runs": 3, "warmup": 1, "seed": 1,
             "leak_runs": 0, "normalize_to": "" },
  "cycle_model": { "profile": "$prof" },
  "results_dir": "$W/results"
}
EOF
	echo "== $fin, $prof, AD [$ad] x messages [$msg]" >&2
	rm -rf "$W/results/$run"
	HILRUN_ROOT=$ROOT "$HILRUN" run --config "$cfg" \
		--results "$W/results/$run" >"$W/$run.out" 2>"$W/$run.log" ||
		echo "   (hilrun exit $?: failed rows are in the report; $W/$run.log)" >&2
	rep=$(ls -d "$W/results/$run"/*/report.json 2>/dev/null | tail -1)
	if [ -n "$rep" ]; then
		echo "$rep" >>"$W/reports-$prof.txt"
	fi
}

for prof in $PROFILES; do
	: >"$W/reports-$prof.txt"
	for fin in "$@"; do
		n=0
		for g in $GRIDS; do
			n=$((n + 1))
			run_one "$fin" "$prof" "${g%%|*}" "${g#*|}" "g$n"
		done
	done
done

if [ "${FIT:-0}" = 1 ]; then
	for fin in "$@"; do
		case " $TRAINING " in
		*" $fin "*) ;;
		*)
			echo "$0: FIT=1 fits on the training set only; $fin is not in it" >&2
			exit 2
			;;
		esac
	done
	for prof in $PROFILES; do
		cat "$W/reports-$prof.txt"
	done >"$W/reports-all.txt"
	python3 "$ROOT/scripts/nist_model.py" fit "$CSV" "$IMPL" \
		$(cat "$W/reports-all.txt") --out "$W/fit.json"
fi

echo
echo "Model: hilrun cycle model, profiles $PROFILES, $COMPILER, -$OPT."
for prof in $PROFILES; do
	echo
	python3 "$ROOT/scripts/nist_model.py" compare "$CSV" "$IMPL" \
		$(cat "$W/reports-$prof.txt") --opt "$LEVEL"
done
if [ "${RESIDUALS:-0}" = 1 ] && [ "$OPT" = O2 ]; then
	for prof in $PROFILES; do
		# training finalists' reports only: residuals refuses others
		train=""
		for rep in $(cat "$W/reports-$prof.txt"); do
			case $rep in
			*/ascon-* | */gift-cofb-* | */tinyjambu-* | */sparkle-* | */xoodyak-*)
				train="$train $rep"
				;;
			esac
		done
		[ -n "$train" ] && python3 "$ROOT/scripts/nist_model.py" \
			residuals "$CSV" "$IMPL" $train
	done
fi
echo
echo "configs, logs and reports: $W"
