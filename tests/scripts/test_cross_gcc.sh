#!/bin/sh
# test_cross_gcc: scripts/cross-gcc.sh refuses, with exit status 2 and a message naming what is wrong, a bad DIR, a release file the keyring did not sign, and an index or a package whose SHA256 differs from the signed one, and unpacks nothing then (a local mirror and a throw-away key: no network).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=$ROOT/scripts/cross-gcc.sh
T=$(mktemp -d /tmp/test-cross-gcc.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
# cross-gcc.sh's own tools (not in make deps: the script is optional).
for t in gpg gpgv xz dpkg-deb curl; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skipped: $t is not installed (Debian: apt install gpg gpgv xz-utils curl)"
		exit 0
	fi
done

# expect STATUS TEXT CMD...: the command exits STATUS and says TEXT.
expect() {
	want=$1 text=$2
	shift 2
	set +e
	"$@" >"$T/out" 2>&1
	got=$?
	set -e
	if [ "$got" != "$want" ] || ! grep -q -- "$text" "$T/out"; then
		echo "FAIL: $* exited $got (want $want) saying:" >&2
		cat "$T/out" >&2
		echo "  (want: $text)" >&2
		fails=$((fails + 1))
	else
		echo "ok: $text"
	fi
}

# The mirror: a package, its index, the release file signed by our key.
M=$T/mirror
D=$M/dists/bullseye
mkdir -p "$D/main/binary-amd64" "$M/pool" "$T/pkg/DEBIAN" "$T/pkg/usr/bin"
printf 'Package: gcc-arm-none-eabi\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.invalid>\nDescription: t\n' >"$T/pkg/DEBIAN/control"
dpkg-deb -b "$T/pkg" "$M/pool/gcc.deb" >/dev/null
good=$(sha256sum "$M/pool/gcc.deb" | cut -d' ' -f1)
index() { # SHA256 of the package in the index
	printf 'Package: gcc-arm-none-eabi\nVersion: 1\nFilename: pool/gcc.deb\nSHA256: %s\n\n' "$1" |
		xz -c >"$D/main/binary-amd64/Packages.xz"
}
release() { # SHA256 of the index in the release file
	printf 'Origin: Debian\nCodename: bullseye\nSHA256:\n %s 100 main/binary-amd64/Packages.xz\n' "$1" >"$T/Release"
	gpg --batch --yes --homedir "$T/gnupg" --clearsign -o "$D/InRelease" "$T/Release" 2>/dev/null
}
mkdir -m 700 "$T/gnupg"
gpg --batch --homedir "$T/gnupg" --passphrase '' --quick-gen-key \
	'hilrun test <t@example.invalid>' ed25519 sign never 2>/dev/null
gpg --batch --homedir "$T/gnupg" --export >"$T/key.gpg"

expect 2 "usage" "$S"
: >"$T/file"
expect 2 "is not a folder" "$S" -m "$M" "$T/file"
mkdir "$T/other" && : >"$T/other/x"
expect 2 "neither empty nor" "$S" -m "$M" "$T/other"
expect 2 "no keyring" "$S" -m "$M" -k "$T/nokeyring" "$T/d0"

index "$good"
release "$(sha256sum "$D/main/binary-amd64/Packages.xz" | cut -d' ' -f1)"
# Debian's keyring did not sign our release file.
if [ -r /usr/share/keyrings/debian-archive-keyring.gpg ]; then
	expect 2 "does not verify" "$S" -m "$M" "$T/d1"
fi
# A release file changed after signing.
sed -i 's/^Codename: bullseye/Codename: bookworm/' "$D/InRelease"
expect 2 "does not verify" "$S" -m "$M" -k "$T/key.gpg" "$T/d2"
# The index is not the one the release file names.
release 0000000000000000000000000000000000000000000000000000000000000000
expect 2 "checksum mismatch for main/binary-amd64/Packages.xz" "$S" -m "$M" -k "$T/key.gpg" "$T/d3"
# The package is not the one the index names: nothing unpacked.
index 1111111111111111111111111111111111111111111111111111111111111111
release "$(sha256sum "$D/main/binary-amd64/Packages.xz" | cut -d' ' -f1)"
expect 2 "checksum mismatch for gcc-arm-none-eabi 1" "$S" -m "$M" -k "$T/key.gpg" "$T/d4"
if [ -e "$T/d4/root" ] || [ -e "$T/d4/downloads/gcc.deb" ]; then
	echo "FAIL: a package that does not match was kept or unpacked" >&2
	fails=$((fails + 1))
fi
# The index has not the package at all.
printf 'Package: other\nVersion: 1\nFilename: pool/o.deb\nSHA256: 00\n\n' | xz -c >"$D/main/binary-amd64/Packages.xz"
release "$(sha256sum "$D/main/binary-amd64/Packages.xz" | cut -d' ' -f1)"
expect 2 "the index has no package gcc-arm-none-eabi" "$S" -m "$M" -k "$T/key.gpg" "$T/d5"

[ "$fails" -eq 0 ] || { echo "$fails failed" >&2; exit 1; }
echo "all passed"
