#!/bin/sh
# deps-lab.sh: check for, and as root install, the Debian packages of the lab engines (Buildbot, Slurm) that contrib/ and their smoke tests use.
# Usage: scripts/deps-lab.sh --check   (exit 0 when everything is present)
#        scripts/deps-lab.sh           (install what is missing; root only)
# Not part of `make deps`: a lab host needs only the engine it runs.
set -eu

# python3-aiosmtpd: the SMTP sink of make test-lab's mail check.
PACKAGES="buildbot buildbot-worker slurm-wlm munge python3-aiosmtpd"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	[ "${1:-}" = "--check" ] || echo "deps-lab: all packages are installed"
	exit 0
fi
if [ "${1:-}" = "--check" ]; then
	echo "deps-lab: missing:$missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps-lab: missing packages:$missing" >&2
	echo "deps-lab: run as root:  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "deps-lab: installing:$missing"
apt-get update -q
# The packages' own services are not wanted: the smoke tests and the
# contrib/ set-ups start their daemons themselves.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
