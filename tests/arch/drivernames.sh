#!/bin/sh
# drivernames.sh: the core (cli, config, run, lab, report, result) names no driver in its code: it asks the driver tables.
#
# A string literal "NAME" or "NAME:..." of a board's flasher, link, I2C bus
# or sensor driver, outside comments, fails, except the uses listed in
# tests/arch/drivernames-known.txt ("file: literal" a line: words that are
# not a driver lookup, such as the hardware map's "serial" key). A listed
# use that is gone also fails, so that the list only shrinks.
#
#   tests/arch/drivernames.sh [root]
set -eu
export LC_ALL=C
root=${1:-.}
cd "$root"
known=tests/arch/drivernames-known.txt
found=$(mktemp)
trap 'rm -f "$found"' EXIT
names='serial|socket|semihost|qemu|openocd|pyocd|native|ftdi|linux|sim|ina219|ina226'

files=$(git ls-files 'host/cli/*.[ch]' 'host/config/*.[ch]' 'host/run/*.[ch]' \
	'host/lab/*.[ch]' 'host/report/*.[ch]' 'host/result/*.[ch]' 2>/dev/null) ||
	files=$(find host/cli host/config host/run host/lab host/report \
		host/result -name '*.[ch]' | sort)
for f in $files; do
	# Comments out: one-line /* ... */, and the lines of a block comment.
	sed -e 's|/\*.*\*/||g' -e 's|/\*.*||' -e '/^[[:space:]]*\(\/\*\|\*\)/d' "$f" |
		grep -oE "\"($names)[\":]" |
		sed -e 's/:$//' -e 's/"$//' -e 's/$/"/' -e "s|^|$f: |" || true
done | sort -u >"$found"

fail=0
if [ -n "$(comm -23 "$found" "$known")" ]; then
	echo "drivernames: the core names a driver (ask the driver tables instead):" >&2
	comm -23 "$found" "$known" | sed 's/^/  /' >&2
	fail=1
fi
if [ -n "$(comm -13 "$found" "$known")" ]; then
	echo "drivernames: these known uses are gone: delete them from $known:" >&2
	comm -13 "$found" "$known" | sed 's/^/  /' >&2
	fail=1
fi
[ $fail = 0 ] && echo "drivernames: the core names no new driver ($(wc -l <"$known") known uses left)"
exit $fail
