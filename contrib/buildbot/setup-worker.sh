#!/bin/sh
# setup-worker.sh: make a Buildbot worker of this lab host for a master written by gen-master-cfg.py, after checking what its builds need (hilrun built, the hardware map the master was given, setpriv); fails rather than report success on the checkout's placeholder map.
# Usage: contrib/buildbot/setup-worker.sh DIR MASTER_HOST:PORT NAME PASSWORD MAP
#   DIR     the worker's folder, e.g. /srv/buildbot-worker (owned by the user
#           that runs the builds: in the dialout, plugdev and lab groups)
#   NAME    the worker's name: the NAME of --host NAME=MAP[:PATH_ON_HOST]
#   MAP     this host's hardware map: the PATH_ON_HOST given to the master
#           (e.g. /etc/hilrun/boards.json), outside the checkout
# Then: buildbot-worker start DIR (or the systemd unit beside this script).
set -eu

if [ $# -ne 5 ]; then
	sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
dir=$1 master=$2 name=$3 password=$4 map=$5
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)
fail() { echo "setup-worker: $*" >&2; exit 1; }

command -v buildbot-worker >/dev/null 2>&1 ||
	fail "buildbot-worker is not installed (make deps-lab)"
command -v setpriv >/dev/null 2>&1 ||
	fail "setpriv (util-linux) is not installed: builds start hilrun through it"
[ -x "$checkout/build/hilrun" ] ||
	fail "$checkout/build/hilrun is not built: run make in $checkout"

# The map the master's builds will give hilrun (HILRUN_BOARDS), checked
# before anything is made.
case $map in /*) ;; *) fail "MAP $map: give the absolute path the master was given (--host $name=...:PATH_ON_HOST)" ;; esac
[ -f "$map" ] || fail "$map does not exist: write this host's hardware map there (docs/lab.md)"
case $map in
"$checkout"/*) fail "$map is inside the checkout $checkout, which a build or an update may replace: keep the host's map outside it (e.g. /etc/hilrun/boards.json)" ;;
esac
if cmp -s "$map" "$checkout/configs/boards.json" ||
	grep -q '"066BFF495057717867164315"' "$map"; then
	fail "$map is the checkout's example map (probe_id 066BFF495057717867164315 is a placeholder): list this host's boards and their probes' serial numbers (docs/lab.md)"
fi
HILRUN_BOARDS=$map "$checkout/build/hilrun" boards >"$dir.boards.tmp" 2>&1 || {
	cat "$dir.boards.tmp" >&2
	rm -f "$dir.boards.tmp"
	fail "hilrun boards refused $map"
}

# Group-writable files (umask 002), so that lock files of the lab's shared
# lock directory carry their holder for every user (docs/lab.md).
buildbot-worker create-worker --umask=0o002 "$dir" "$master" "$name" "$password"
chmod 600 "$dir/buildbot.tac" # it holds the worker's password
mv "$dir.boards.tmp" "$dir/info/boards"
echo "hilrun lab host $(hostname), checkout $checkout, map $map" >"$dir/info/host"
id -un >"$dir/info/admin"
echo "setup-worker: boards of $map:"
cat "$dir/info/boards"
echo "setup-worker: worker $name in $dir; start it with: buildbot-worker start $dir"
