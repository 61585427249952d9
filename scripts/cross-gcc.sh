#!/bin/sh
# cross-gcc.sh: fetches Debian 11 (bullseye)'s arm-none-eabi GCC 8.3.1 and newlib 3.3.0 packages from a Debian mirror, checks them against the signed bullseye index, unpacks them into a folder without installing anything, and writes wrappers there so that hilrun's builds can use that older compiler (docs/cycle-model.md, "The compiler difference, measured").
#
# usage: scripts/cross-gcc.sh [-m MIRROR] [-k KEYRING] DIR
#   DIR      the folder to unpack into (created if absent; must be empty
#            or an earlier run's). Afterwards:
#              PATH=DIR/bin:$PATH hilrun ...          (hilrun, its builds)
#              make ... CROSS=DIR/bin/arm-none-eabi-  (a direct make)
#              scripts/validate-nist.sh -X DIR ...    (the validations)
#              scripts/validate-pqm4.sh -X DIR ...
#   -m MIRROR  the Debian mirror (default https://deb.debian.org/debian;
#            a file:// URL or a folder laid out as a mirror also works)
#   -k KEYRING the keyring that must have signed the release file (default
#            /usr/share/keyrings/debian-archive-keyring.gpg, which has the
#            bullseye archive keys)
# What it fetches, all from the Debian archive, nothing else: the release
# file dists/bullseye/InRelease (its signature checked with gpgv), the
# index main/binary-amd64/Packages.xz (checked against the SHA256 the
# release file gives), and the packages gcc-arm-none-eabi (GCC 8.3.1,
# 15:8-2019-q3-1+b1), libnewlib-arm-none-eabi and libnewlib-dev (newlib
# 3.3.0, built by that compiler), each checked against the SHA256 the
# index gives. The assembler, linker and the other binutils are this
# machine's (Debian 12's binutils-arm-none-eabi): GCC 8.3.1 runs them.
# The C++ compiler comes with the package (DIR/bin/arm-none-eabi-g++), but
# not its libstdc++ (libstdc++-arm-none-eabi-newlib, 127 MB, not fetched):
# C++ guests compile but do not link with it.
# Exit status: 0 done, 1 a download failed, 2 bad arguments, a folder that
# cannot be used, or a signature or checksum that does not match (nothing
# of a package that does not match is unpacked).
set -eu

MIRROR=https://deb.debian.org/debian
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
SUITE=bullseye
ARCH=amd64
PKGS="gcc-arm-none-eabi libnewlib-arm-none-eabi libnewlib-dev"
# The programs the builds call through CROSS besides gcc and g++: this
# machine's binutils, under the prefix's names.
BINUTILS="as ld ld.bfd ar nm objcopy objdump ranlib size strip readelf"

usage() {
	sed -n '4,/^set -eu$/{/^set -eu$/!p}' "$0" >&2
	exit 2
}
die() {
	echo "cross-gcc: $*" >&2
	exit 2
}

while getopts m:k: opt; do
	case $opt in
	m) MIRROR=$OPTARG ;;
	k) KEYRING=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
[ -n "$1" ] || die "DIR is empty"
case $MIRROR in
/*) MIRROR=file://$MIRROR ;;
esac
[ -r "$KEYRING" ] || die "no keyring $KEYRING (Debian: apt install debian-archive-keyring)"
for t in curl gpgv xz dpkg-deb sha256sum; do
	command -v $t >/dev/null 2>&1 || die "$t is not installed"
done
if [ -e "$1" ] && [ ! -d "$1" ]; then
	die "$1 is not a folder"
fi
mkdir -p "$1" 2>/dev/null || die "cannot create $1"
DIR=$(cd "$1" && pwd)
[ -w "$DIR" ] || die "$DIR is not writable"
if [ -n "$(ls -A "$DIR")" ] && [ ! -f "$DIR/.cross-gcc" ]; then
	die "$DIR is neither empty nor an earlier cross-gcc.sh folder: choose another"
fi
: >"$DIR/.cross-gcc"
DL=$DIR/downloads
mkdir -p "$DL"

fetch() { # URL FILE
	curl -fsSL --retry 2 -o "$2.part" "$1" || {
		rm -f "$2.part"
		echo "cross-gcc: cannot download $1" >&2
		exit 1
	}
	mv "$2.part" "$2"
}
# check FILE SHA256 WHAT: exit 2 on a mismatch, the file removed.
check() {
	got=$(sha256sum "$1" | cut -d' ' -f1)
	if [ "$got" != "$2" ]; then
		rm -f "$1"
		die "checksum mismatch for $3: SHA256 $got, the signed index says $2 (file removed; nothing unpacked)"
	fi
}

# 1. The release file, signed by the Debian archive's bullseye key.
fetch "$MIRROR/dists/$SUITE/InRelease" "$DL/InRelease"
gpgv --keyring "$KEYRING" --output "$DL/Release" "$DL/InRelease" 2>"$DL/gpgv.log" ||
	die "the signature of $MIRROR/dists/$SUITE/InRelease does not verify with $KEYRING ($(tail -1 "$DL/gpgv.log"))"
grep -q "^Codename: $SUITE\$" "$DL/Release" || die "$DL/Release is not $SUITE's"

# 2. The package index, checked against the release file's SHA256.
idx=main/binary-$ARCH/Packages.xz
sum=$(awk -v f="$idx" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 == f { print $1 }' "$DL/Release")
[ -n "$sum" ] || die "the release file lists no $idx"
fetch "$MIRROR/dists/$SUITE/$idx" "$DL/Packages.xz"
check "$DL/Packages.xz" "$sum" "$idx"
xz -dc "$DL/Packages.xz" >"$DL/Packages"

# 3. The packages, each checked against the index's SHA256, then unpacked.
for p in $PKGS; do
	set -- $(awk -v p="$p" '
		/^Package: / { on = ($2 == p) } !on { next }
		/^Filename: / { f = $2 } /^SHA256: / { s = $2 } /^Version: / { v = $2 }
		/^$/ && f != "" { print f, s, v; exit }
		END { if (on && f != "") print f, s, v }' "$DL/Packages" | head -1)
	[ $# -eq 3 ] || die "the index has no package $p"
	deb=$DL/$(basename "$1")
	if [ ! -f "$deb" ] || [ "$(sha256sum "$deb" | cut -d' ' -f1)" != "$2" ]; then
		fetch "$MIRROR/$1" "$deb"
	fi
	check "$deb" "$2" "$p $3"
	dpkg-deb -x "$deb" "$DIR/root" || die "cannot unpack $deb"
	echo "cross-gcc: $p $3 (SHA256 $2, from $MIRROR/$1)" >&2
done

R=$DIR/root/usr
GCC=$R/bin/arm-none-eabi-gcc
[ -x "$GCC" ] || die "the package has no $GCC"
# The compiler, configured for /usr/lib, looks for its assembler and
# linker in <prefix>/arm-none-eabi/bin and for the C library in
# <prefix>/arm-none-eabi/lib: point those at this machine's binutils and
# at the unpacked newlib (Debian's own tree keeps newlib under newlib/).
mkdir -p "$R/lib/arm-none-eabi/bin" "$DIR/bin"
for t in $BINUTILS; do
	if [ -x "/usr/bin/arm-none-eabi-$t" ]; then
		ln -sfn "/usr/bin/arm-none-eabi-$t" "$R/lib/arm-none-eabi/bin/$t"
		ln -sfn "/usr/bin/arm-none-eabi-$t" "$DIR/bin/arm-none-eabi-$t"
	fi
done
[ -x /usr/bin/arm-none-eabi-as ] || die "no /usr/bin/arm-none-eabi-as (Debian: apt install binutils-arm-none-eabi)"
ln -sfn newlib "$R/lib/arm-none-eabi/lib"
# newlib's headers: Debian's tree has them in /usr/include/newlib, which the
# relocated compiler reaches through <prefix>/arm-none-eabi/include, and
# which nano.specs names by its absolute path: the unpacked ones, not this
# machine's (Debian 12's newlib 4).
ln -sfn ../../include/newlib "$R/lib/arm-none-eabi/include"
find "$R/lib/arm-none-eabi/newlib" -name '*.specs' -exec \
	sed -i "s# /usr/include/newlib# $R/include/newlib#g" {} +
if grep -rq ' /usr/include/newlib' "$R/lib/arm-none-eabi/newlib" --include='*.specs'; then
	die "a specs file still names /usr/include/newlib"
fi

# The wrappers: the compiler by its full path (GCC finds its own parts
# relative to it), and the prefix of everything the build may add.
for t in gcc g++ cpp gcc-ar gcc-nm gcc-ranlib; do
	[ -x "$R/bin/arm-none-eabi-$t" ] || continue
	cat >"$DIR/bin/arm-none-eabi-$t" <<EOF
#!/bin/sh
# Debian 11's arm-none-eabi-$t (GCC 8.3.1), unpacked by hilrun's scripts/cross-gcc.sh.
exec "$R/bin/arm-none-eabi-$t" "\$@"
EOF
	chmod 755 "$DIR/bin/arm-none-eabi-$t"
done
# ar of LTO objects: GCC 8's own plugin, through gcc-ar.
ln -sfn arm-none-eabi-gcc-ar "$DIR/bin/arm-none-eabi-ar"

# A check: the compiler compiles and links with the unpacked newlib.
t=$(mktemp -d)
printf 'int main(void) { return 0; }\n' >"$t/t.c"
if ! "$DIR/bin/arm-none-eabi-gcc" -mcpu=cortex-m4 -mthumb -O2 --specs=nano.specs \
	--specs=nosys.specs -o "$t/t.elf" "$t/t.c" 2>"$t/log"; then
	cat "$t/log" >&2
	rm -rf "$t"
	die "the unpacked compiler does not link a test program (above)"
fi
rm -rf "$t"
"$DIR/bin/arm-none-eabi-gcc" --version | head -1 >&2
echo "cross-gcc: ready; PATH=$DIR/bin:\$PATH or CROSS=$DIR/bin/arm-none-eabi-" >&2
