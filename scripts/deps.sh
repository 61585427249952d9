#!/bin/sh
# deps.sh: check for, and as root install, the Debian packages hilrun needs.
# Usage: scripts/deps.sh --check   (exit 0 when everything is present)
#        scripts/deps.sh           (install what is missing; root only)
set -eu

PACKAGES="make gcc g++ pkg-config gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
binutils-arm-none-eabi qemu-system-arm openocd python3-pyocd libserialport-dev libcjson-dev
libftdi1-dev libelf-dev libmd-dev libsqlite3-dev libcmocka-dev clang-format chromium libssl-dev clang libclang-rt-dev
bubblewrap gpg gpgv xz-utils curl"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	[ "${1:-}" = "--check" ] || echo "deps: all packages are installed"
	exit 0
fi
if [ "${1:-}" = "--check" ]; then
	echo "deps: missing:$missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root:  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing:$missing"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
