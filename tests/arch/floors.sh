#!/bin/sh
# floors.sh: no #include in host/ goes from a lower floor of docs/architecture.md to a higher one.
#
# Floors, highest first: cli (and refhelper, another main) 7; run 6; lab, report 5; result 4; session, image,
# emu 3; drivers, config 2 (the loader asks the driver tables, a driver reads its
# own keys with the loader: one floor); util, pq 1. A file may include its own floor and those
# below. Today's exceptions are listed in tests/arch/floors-known.txt, one
# "file -> header" a line: a new climb fails, and so does a listed one that
# is gone (delete its line: the list only shrinks).
#
#   tests/arch/floors.sh [root]
set -eu
export LC_ALL=C
root=${1:-.}
cd "$root"
known=tests/arch/floors-known.txt
found=$(mktemp)
trap 'rm -f "$found"' EXIT

floor() {
	case $1 in
	cli | refhelper) echo 7 ;;
	run) echo 6 ;;
	lab | report) echo 5 ;;
	result) echo 4 ;;
	session | image | emu) echo 3 ;;
	drivers | config) echo 2 ;;
	util | pq) echo 1 ;;
	*) echo 0 ;;
	esac
}

files=$(git ls-files 'host/*.c' 'host/*.h' 2>/dev/null) ||
	files=$(find host -name '*.[ch]' | sort)
for f in $files; do
	mod=$(echo "$f" | cut -d/ -f2)
	from=$(floor "$mod")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r inc; do
			case $inc in
			*/*) to_mod=$(echo "$inc" | cut -d/ -f1) ;;
			*) to_mod=$mod ;;
			esac
			[ -d "host/$to_mod" ] || continue
			to=$(floor "$to_mod")
			if [ "$to" -gt "$from" ]; then
				echo "$f -> $inc"
			fi
		done
done | sort -u >"$found"

fail=0
for d in host/*/; do
	d=${d#host/}
	d=${d%/}
	if [ "$(floor "$d")" = 0 ]; then
		echo "floors: host/$d has no floor: give it one in $0 and docs/architecture.md" >&2
		fail=1
	fi
done
if [ -n "$(comm -23 "$found" "$known")" ]; then
	echo "floors: these includes climb from a lower floor to a higher one (docs/architecture.md):" >&2
	comm -23 "$found" "$known" | sed 's/^/  /' >&2
	fail=1
fi
if [ -n "$(comm -13 "$found" "$known")" ]; then
	echo "floors: these known exceptions are gone: delete them from $known:" >&2
	comm -13 "$found" "$known" | sed 's/^/  /' >&2
	fail=1
fi
[ $fail = 0 ] && echo "floors: no new include climbs a floor ($(wc -l <"$known") known exceptions left)"
exit $fail
