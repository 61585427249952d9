#!/bin/sh
# hilrun-build.sh: what a Buildbot build of gen-master-cfg.py runs on a lab host: checks that the checkout is at the commit the master names, finds the run this build request left interrupted (the worker killed or stopped) and resumes it, else starts one, in a run folder outside the build's clean step; dies with its worker.
# Usage: hilrun-build.sh CHECKOUT BOARD REQUEST CONFIG WAIT
#   CHECKOUT  hilrun's built checkout on this host
#   BOARD     the board's id in $HILRUN_BOARDS
#   REQUEST   the build request's key: a retried build (RETRY: the worker
#             was lost) has the same one, so it finds its run again
#   CONFIG    the run's config file (absolute or relative to CHECKOUT)
#   WAIT      hilrun --wait SECONDS
# Environment (set by master.cfg): HILRUN_BOARDS, HILRUN_LOCK_DIR,
# HILRUN_HOST; HILRUN_COMMIT, the commit the master names (empty: not
# checked); HILRUN_RUNS, the folder of the runs (default: hil-runs beside
# the builders' folders, two levels above the build's).
# Leaves in the build's folder: result.json, junit.xml and results/RUN (a
# copy of the run folder) for the upload steps, with a copy of every
# earlier run of this board that no build handed on (a nightly interrupted,
# then collapsed into a newer request: nothing resumes it), so that the
# master records it as it is, partial. Exit status: hilrun's;
# 2 when the checkout is not at the named commit.
set -u

if [ $# -ne 5 ]; then
	sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
checkout=$1 board=$2 request=$3 config=$4 wait=$5
say() { echo "hilrun-build: $*"; }

# What the upload steps take, whatever happens below.
rm -rf results result.json junit.xml
mkdir -p results || exit 2

# One commit across hosts: the build measures what the master names.
here=$(git -C "$checkout" rev-parse HEAD 2>/dev/null || echo unknown)
if [ -n "${HILRUN_COMMIT:-}" ]; then
	case $here in
	"$HILRUN_COMMIT"*) say "checkout $checkout at $here, the commit the master names" ;;
	*)
		say "refused: this host's checkout $checkout is at $here, the master names $HILRUN_COMMIT: update it (git -C $checkout checkout $HILRUN_COMMIT && make -C $checkout) or name that commit on the master" >&2
		echo '{"exit_status": 2, "error": "checkout not at the commit the master names"}' >result.json
		exit 2
		;;
	esac
	if [ -n "$(git -C "$checkout" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		say "warning: $checkout has uncommitted changes: the report says so (tool.dirty)" >&2
	fi
fi

case $config in /*) ;; *) config=$checkout/$config ;; esac
case $board$request in
*/* | .*) say "refused: board $board or request $request is not a plain name" >&2; exit 2 ;;
esac
runs=${HILRUN_RUNS:-$(cd ../.. && pwd)/hil-runs}
base=$runs/$board/$request
mkdir -p "$base/results" || exit 2

# The run this request left: the newest run folder, unless it is complete.
last=$(ls -1d "$base/results"/2*/ 2>/dev/null | tail -n 1)
last=${last%/}
resume=""
if [ -n "$last" ] && [ -f "$last/run.json" ]; then
	status=$(python3 -c 'import json, sys
try:
    print(json.load(open(sys.argv[1]))["run"]["status"])
except Exception:
    print("none")' "$last/report.json")
	[ "$status" = complete ] || resume=$last
fi

if [ -n "$resume" ]; then
	say "resuming $resume (this build request's run, interrupted): the rows it measured are kept"
	set -- --resume "$resume"
else
	say "a new run in $base/results"
	set -- --config "$config" --results "$base/results"
fi
# setpriv --pdeathsig: hilrun gets SIGTERM when this shell goes, which
# itself gets one when the worker goes (master.cfg starts it the same
# way): hilrun then ends the row, writes a partial report and stops QEMU or
# OpenOCD, and the retried build resumes the run.
setpriv --pdeathsig TERM "$checkout/build/hilrun" "$@" --board "$board" \
	--result-json "$PWD/result.json" --junit "$PWD/junit.xml" \
	--wait "$wait" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
while :; do
	wait "$pid"
	status=$?
	kill -0 "$pid" 2>/dev/null || break
done

# Whether the worker that started this build is still there to upload
# what it leaves: when it went (kill -9, a crash), this shell, ended by
# its parent-death signal, has another parent now.
worker_alive=1
if [ "$(ps -o ppid= -p $$ 2>/dev/null | tr -d ' ')" != "$PPID" ]; then
	worker_alive=""
	say "the worker is gone: nothing is uploaded; the retried build resumes this request's run, or the board's next build uploads it" >&2
fi

# hand_on RUN: a copy of RUN into results/ for the upload, and, when the
# worker is there to upload it, a mark beside its request's results
# (handed-on/RUN_NAME) that it went.
hand_on() {
	name=${1##*/}
	mark=${1%/results/*}/handed-on/$name
	[ ! -e "results/$name" ] || return 1
	cp -a "$1" results/ || return 1
	[ -z "$worker_alive" ] || { mkdir -p "${mark%/*}" && : >"$mark"; }
}

# The run folder, for the upload: a copy, so that the next retry still
# finds the original.
run=$(ls -1d "$base/results"/2*/ 2>/dev/null | tail -n 1)
run=${run%/}
if [ -n "$run" ]; then
	hand_on "$run" || say "warning: $run could not be copied for the upload" >&2
fi
# Runs of this board that no build handed on, but this one's: a nightly
# interrupted (the worker lost) whose request was then collapsed into a
# newer one, which no build resumes; a run of this request that ended but
# was never uploaded (the worker lost after hilrun's end). They go up with this build's run and
# the master records them as they are (partial), never lost; a later
# resume of one (an on-demand request retried after this build) is
# recorded again, complete.
for other in "$runs/$board"/*/results/2*/; do
	other=${other%/}
	[ -d "$other" ] || continue
	[ "$other" != "$run" ] || continue
	[ ! -e "${other%/results/*}/handed-on/${other##*/}" ] || continue
	if [ ! -f "$other/report.json" ]; then
		say "warning: $other (an earlier run) has no report: not uploaded" >&2
		continue
	fi
	[ -n "$worker_alive" ] || break
	if hand_on "$other"; then
		say "uploading $other too: an earlier run that no build handed on"
	else
		say "warning: $other (an earlier run) could not be copied for the upload: the next build tries again" >&2
	fi
done
say "board $board, exit $status, run ${run:-none}"
exit "$status"
