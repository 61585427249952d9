#!/bin/bash
# validate-pqm4.sh: builds the `clean` implementations of pqm4's 2022 table (commit 918f379, STM32F407 at 24 MHz / 0 WS, arm-none-eabi-gcc 11.3.1, -O3) as pqm4 did, from the user's own checkout, runs them under hilrun's cycle model, and prints model vs published per operation.
#
# usage: scripts/validate-pqm4.sh [-t 2022|current] [-n RUNS] [-f REGEX] [-S] [-R] [-T SECONDS] [-X DIR] [-o OUTDIR] PQM4_CHECKOUT
#   -t TABLE       2022 (default): pqm4 918f379's table, its `clean` rows;
#                  current: the checkout's own benchmarks.md (STM32L4R5ZI at
#                  20 MHz, 0 WS, Arm GNU Toolchain 13.2) and sources (HEAD),
#                  its portable rows (clean, ref, opt, opt-ct). The model's
#                  profile is stm32f401-0ws for both: the same Cortex-M4 core
#                  at 0 wait states (the L4R5 has no profile of its own)
#   PQM4_CHECKOUT  a pqm4 clone with its mupq and PQClean submodules; the 2022
#                  sources are read from its own git history (git archive of
#                  918f379 and the submodule commits it names): nothing is
#                  fetched, and nothing of pqm4 enters this tree
#   -f REGEX       only the schemes whose name matches (e.g. '^(kyber|dilithium)')
#   -n RUNS        runs per operation (default 3; the model is deterministic
#                  up to the schemes' own rejection sampling)
#   -S             signature schemes: keypair and verify only, verifying the
#                  host build's signatures (pq-bench -S), for rows whose sign
#                  takes too long to emulate; their sign rows are left out
#   -T SECONDS     the limit of one scheme's emulation (pq-bench -T; default 3600)
#   -X DIR         build with the compiler in DIR/bin (scripts/cross-gcc.sh DIR:
#                  Debian 11's GCC 8.3.1) instead of the arm-none-eabi-gcc on
#                  PATH (Debian 12's 12.2 here): DIR/bin goes first on PATH,
#                  the build folder is that compiler's own, and the "Model:"
#                  line names it
#   -R             run nothing: print the comparison again from OUTDIR's
#                  rows.tsv (needs -o); pq-bench writes each scheme's rows as
#                  it ends, so an interrupted run keeps the schemes it finished
# The host reference builds each scheme against PQClean's own portable common code
# (its common/ at the same commit), as pqm4 checks its targets against host builds.
# Prints one line per scheme and operation: model mean, published mean and the
# model's deviation in percent; writes OUTDIR/validate.md and the pq-bench run
# (rows.tsv, calls.tsv: what hilrun pq makes its rows of) beside it. Rows that do not build or fit the
# emulated board are listed with the reason.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=3
FILTER=.
OUT=
TABLE=2022
SIGS=
RERUN=
LIMIT=3600
XDIR=
while getopts t:n:f:o:SRT:X: opt; do
	case $opt in
	t) TABLE=$OPTARG ;;
	n) RUNS=$OPTARG ;;
	f) FILTER=$OPTARG ;;
	o) OUT=$OPTARG ;;
	S) SIGS=-S ;;
	R) RERUN=1 ;;
	T) LIMIT=$OPTARG ;;
	X) XDIR=$OPTARG ;;
	*) sed -n '4,/^set -eu$/{/^set -eu$/!p}' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '4,/^set -eu$/{/^set -eu$/!p}' "$0" >&2; exit 2; }
PQM4=$(cd "$1" 2>/dev/null && pwd) || { echo "validate-pqm4: no folder $1" >&2; exit 2; }
# The compiler: pq-bench and its makes call arm-none-eabi-gcc by name.
BUILD=$ROOT/build/validate-pqm4/pq-$TABLE
if [ -n "$XDIR" ]; then
	[ -x "$XDIR/bin/arm-none-eabi-gcc" ] ||
		{ echo "validate-pqm4: -X $XDIR: no $XDIR/bin/arm-none-eabi-gcc (scripts/cross-gcc.sh $XDIR makes it)" >&2; exit 2; }
	XDIR=$(cd "$XDIR" && pwd)
	PATH=$XDIR/bin:$PATH
	export PATH
fi
COMPILER=$(arm-none-eabi-gcc --version 2>/dev/null | head -1) || COMPILER=
[ -n "$COMPILER" ] || { echo "validate-pqm4: no arm-none-eabi-gcc on PATH${XDIR:+ (-X $XDIR)}" >&2; exit 2; }
# Another compiler's objects are not reused (make's timestamps do not know
# the compiler): its own build folder.
[ -z "$XDIR" ] || BUILD=$BUILD-$(printf '%s' "$COMPILER" | sha256sum | cut -c1-8)
case $TABLE in
2022) COMMIT=918f379; IMPLS=clean ;;
current) COMMIT=HEAD; IMPLS='clean|ref|opt|opt-ct' ;;
*) echo "validate-pqm4: -t 2022 or -t current" >&2; exit 2 ;;
esac
if ! git -C "$PQM4" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
	echo "validate-pqm4: commit $COMMIT (pqm4's 2022 table) is not in $PQM4's history: nothing to compare with" >&2
	exit 2
fi
MUPQ=$(git -C "$PQM4" ls-tree "$COMMIT" mupq | awk '{print $3}')
PQCLEAN=$(git -C "$PQM4/mupq" ls-tree "$MUPQ" pqclean 2>/dev/null | awk '{print $3}')
for c in "mupq:$MUPQ:$PQM4/mupq" "PQClean:$PQCLEAN:$PQM4/mupq/pqclean"; do
	name=${c%%:*}; rest=${c#*:}; sha=${rest%%:*}; repo=${rest#*:}
	if [ -z "$sha" ] || ! git -C "$repo" cat-file -e "$sha^{commit}" 2>/dev/null; then
		echo "validate-pqm4: $name commit ${sha:-?} of pqm4 $COMMIT is not in $repo" >&2
		exit 2
	fi
done
if [ -n "$RERUN" ] && [ ! -f "$OUT/rows.tsv" ]; then
	echo "validate-pqm4: -R needs -o OUTDIR of an earlier run (with its rows.tsv)" >&2
	exit 2
fi
[ -n "$OUT" ] || OUT=results/validate-pqm4-$TABLE-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# Published clean rows: scheme, kind, then the three AVG figures.
PUB=$OUT/published.tsv
git -C "$PQM4" show "$COMMIT:benchmarks.md" | awk -v impls="^($IMPLS)$" '
	/^# / { speed = ($0 ~ /^# Speed/) }
	/^## Key Encapsulation/ { kind = "KEM" } /^## Signature/ { kind = "SIGN" }
	speed && /^\| / {
		n = split($0, f, "|"); s = f[2]; sub(/^ +/, "", s); sub(/ \(.*$/, "", s); sub(/ +$/, "", s)
		im = f[3]; gsub(/ /, "", im)
		if (im !~ impls) next
		out = s "\t" im "\t" kind
		for (i = 4; i <= 6; i++) { v = f[i]; sub(/.*AVG: */, "", v); sub(/ .*/, "", v); gsub(/,/, "", v)
			m = f[i]; sub(/.*MIN: */, "", m); sub(/ .*/, "", m); gsub(/,/, "", m); out = out "\t" v "\t" m }
		print out }' > "$PUB"

if [ -z "$RERUN" ]; then
	# The 2022 sources, as pqm4 918f379 saw them, in a scratch folder of the build.
	SRC=$ROOT/build/validate-pqm4/src-$TABLE
	rm -rf "$SRC"
	mkdir -p "$SRC/mupq/pqclean"
	git -C "$PQM4" archive "$COMMIT" common crypto_kem crypto_sign | tar -x -C "$SRC"
	git -C "$PQM4/mupq" archive "$MUPQ" common crypto_kem crypto_sign | tar -x -C "$SRC/mupq"
	git -C "$PQM4/mupq/pqclean" archive "$PQCLEAN" common crypto_kem crypto_sign | tar -x -C "$SRC/mupq/pqclean"

	dirs=()
	while IFS="$(printf '\t')" read -r scheme impl kind _; do
		echo "$scheme" | grep -Eq "$FILTER" || continue
		for base in "$SRC/mupq/pqclean" "$SRC/mupq" "$SRC"; do
			sub=crypto_kem; [ "$kind" = SIGN ] && sub=crypto_sign
			if [ -f "$base/$sub/$scheme/$impl/api.h" ]; then
				dirs+=("$base/$sub/$scheme/$impl"); break
			fi
		done
	done < "$PUB"
	[ ${#dirs[@]} -gt 0 ] || { echo "validate-pqm4: no $IMPLS folder matches '$FILTER'" >&2; exit 2; }

	"$ROOT/scripts/pq-bench.sh" -n "$RUNS" $SIGS -T "$LIMIT" -p stm32f401-0ws -O -O3 -B "$BUILD" \
		-c "$SRC/common" -c "$SRC/mupq/common" -H "$SRC/mupq/pqclean/common" -o "$OUT" "${dirs[@]}" ||
		echo "validate-pqm4: some rows failed verification or were left out (see below)" >&2
fi

# model vs published, per operation (the model's mean against pqm4's AVG)
awk -F '\t' -v table="$TABLE" '
	NR == FNR { k = $1 "/" $2; for (i = 1; i <= 3; i++) { pub[k, i] = $(2 * i + 2); pmin[k, i] = $(2 * i + 3) } next }
	{ idx = ($4 == "keypair") ? 1 : ($4 == "encaps" || $4 == "sign") ? 2 : 3; k = $1 "/" $2
	  if ((k, idx) in pub && pub[k, idx] > 0) {
		dev = 100 * ($6 - pub[k, idx]) / pub[k, idx]
		devmin = pmin[k, idx] > 0 ? sprintf("%+.1f %%", 100 * ($7 - pmin[k, idx]) / pmin[k, idx]) : "-"
		printf "| %s | %s | %s | %s | %s | %+.1f %% | %s | %s | %s | %s |\n", $1, $2, $4, $6, pub[k, idx], dev, $7, pmin[k, idx], devmin, $15 } }
	BEGIN { print "| scheme | implementation | operation | model mean [cycles] | pqm4 " table " AVG [cycles] | mean: model vs published | model min | pqm4 " table " MIN | min: model vs published | verified |"
		print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |" }' "$PUB" "$OUT/rows.tsv" > "$OUT/validate.md"
{
	echo
	# The compiler of the run (-R: the earlier run's, as pq-bench wrote it).
	ran=$(awk -F '\t' '$1 == "compiler" { print $2; exit }' "$OUT/run.tsv" 2>/dev/null)
	echo "Model: hilrun cycle model, profile stm32f401-0ws (a Cortex-M4 at 0 wait states), ${ran:-$COMPILER}, -O3, pqm4 $COMMIT common code."
	if [ "$TABLE" = 2022 ]; then
		echo "Published: pqm4 $COMMIT benchmarks.md (STM32F4DISCOVERY, STM32F407 at 24 MHz, 0 WS, arm-none-eabi-gcc 11.3.1, -O3), measured."
	else
		echo "Published: pqm4 $(git -C "$PQM4" rev-parse --short HEAD) benchmarks.md (NUCLEO-L4R5ZI, STM32L4R5 at 20 MHz, 0 WS, Arm GNU Toolchain 13.2, -O3), measured."
	fi
	if [ -s "$OUT/skipped.tsv" ]; then
		echo
		echo "Not run:"
		awk -F '\t' '{ printf "- %s/%s: %s\n", $1, $2, $3 }' "$OUT/skipped.tsv"
	fi
} >> "$OUT/validate.md"
cat "$OUT/validate.md"
