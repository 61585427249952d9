#!/bin/sh
# setup-worker.sh: make a Buildbot worker of this lab host for a master written by gen-master-cfg.py, and check what its builds need (hilrun built, the hardware map, the lock directory).
# Usage: contrib/buildbot/setup-worker.sh DIR MASTER_HOST:PORT NAME PASSWORD
#   DIR     the worker's folder, e.g. /srv/buildbot-worker (owned by the user
#           that runs the builds: in the dialout, plugdev and lab groups)
#   NAME    the worker's name: the NAME of --host NAME=MAP given to the master
# Then: buildbot-worker start DIR (or the systemd unit beside this script).
set -eu

if [ $# -ne 4 ]; then
	sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
dir=$1 master=$2 name=$3 password=$4
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)

command -v buildbot-worker >/dev/null 2>&1 ||
	{ echo "setup-worker: buildbot-worker is not installed (make deps-lab)" >&2; exit 1; }
[ -x "$checkout/build/hilrun" ] ||
	{ echo "setup-worker: $checkout/build/hilrun is not built: run make in $checkout" >&2; exit 1; }

# Group-writable files (umask 002), so that lock files of the lab's shared
# lock directory carry their holder for every user (docs/lab.md).
buildbot-worker create-worker --umask=0o002 "$dir" "$master" "$name" "$password"
echo "hilrun lab host $(hostname), checkout $checkout" >"$dir/info/host"
id -un >"$dir/info/admin"

# What the master's builds on this host will use.
map=${HILRUN_BOARDS:-$checkout/configs/boards.json}
if HILRUN_BOARDS=$map "$checkout/build/hilrun" boards >"$dir/info/boards" 2>&1; then
	echo "setup-worker: boards of $map:"
	cat "$dir/info/boards"
else
	echo "setup-worker: warning: hilrun boards failed for $map:" >&2
	cat "$dir/info/boards" >&2
fi
echo "setup-worker: worker $name in $dir; start it with: buildbot-worker start $dir"
