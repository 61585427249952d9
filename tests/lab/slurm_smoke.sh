#!/bin/sh
# slurm_smoke.sh: docs/lab.md's Slurm set-up run as it is (its blocks tagged test-lab=..., each on its own "host": the master, Slurm's controller, and two lab hosts on this machine, in namespaces of their own, munge authentication): the docs' two jobs and two of the test's on three boards of two hosts through hilrun.sbatch (every job succeeds, the two on one board do not overlap, every result, report and JUnit file is in the shared folder), one stopped with a plain `scancel` that files its result (exit 4, partial), every job's run in the lab's history as the master lists it, with its host; hilrun.sbatch without HILRUN or HILRUN_BOARDS refuses, and so does a job on a host whose checkout is a second clone at another commit; every daemon is stopped by its pid.
# Usage: tests/lab/slurm_smoke.sh [BUILD_DIR]   (make test-lab)
# Skipped (exit 0, saying so) when Slurm or munge is missing, or no mount
# namespace can be made (not root).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
hilrun=$build/hilrun
lab_root=$root
. "$root/tests/lab/labhost.sh"

for tool in slurmctld slurmd sbatch squeue scancel munged mungekey runuser; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "slurm smoke test: SKIPPED: $tool is not installed (make deps-lab installs it)"
		exit 0
	fi
done
if ! lab_host_can; then
	echo "slurm smoke test: SKIPPED: no mount and UTS namespace here (the test runs each lab host in its own: run it as root)"
	exit 0
fi
[ -x "$hilrun" ] || { echo "slurm smoke test: $hilrun is not built" >&2; exit 2; }
[ "$hilrun" -ef "$root/build/hilrun" ] ||
	{ echo "slurm smoke test: the docs' hosts run CHECKOUT/build/hilrun, not $hilrun" >&2; exit 2; }
sbatch_script=$root/contrib/slurm/hilrun.sbatch

# Without HILRUN, or without HILRUN_BOARDS, the job script refuses with
# a clear message, runs nothing and names no result file.
check_refusal() { # VAR: run the script as a job would, VAR unset
	out=$(env -u "$1" SLURMD_NODENAME=qemu-a1 SLURM_JOB_ID=1 \
		HILRUN_OUT=/nonexistent/hil-1 "$sbatch_script" 2>&1) && rc=0 || rc=$?
	if [ $rc -ne 2 ] || ! echo "$out" | grep -q "$1 is not set" ||
		echo "$out" | grep -q "result "; then
		echo "slurm smoke test: FAILED: without $1: exit $rc, said: $out" >&2
		exit 1
	fi
}
HILRUN_BOARDS=/nonexistent.json check_refusal HILRUN
HILRUN=$hilrun check_refusal HILRUN_BOARDS

limit=120 # seconds: the whole test gives up after this
start=$(date +%s)
tmp=$(mktemp -d /tmp/hilrun-slurm-XXXXXX)
chmod 755 "$tmp"
lab_tmp=$tmp
H=$tmp/hosts
shared=$tmp/shared
lab_shared=$shared

left() { echo $((limit - ($(date +%s) - start))); }

# Stop the daemons by the pids in their pid files: TERM, then KILL.
stop_daemons() {
	for f in "$H"/*/run/slurm/slurmd-*.pid "$H"/master/run/slurm/slurmctld.pid "$H"/*/run/munge/munged.pid; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		rm -f "$f"
		kill "$pid" 2>/dev/null || continue
		n=0
		while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "slurm smoke test: pid $pid ($f) did not stop on TERM: KILL" >&2
			kill -9 "$pid" 2>/dev/null || true
		fi
	done
}

cleanup() {
	stop_daemons
	lab_host_cleanup
	if [ "${KEEP:-0}" = 1 ]; then
		echo "slurm smoke test: kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
	echo "slurm smoke test: FAILED: $*" >&2
	for log in "$H"/*/var/log/slurm/*.log "$shared"/runs/*.log; do
		[ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }
	done
	exit 1
}

# Rows long enough for a TERM to land inside the first (the test's own
# config; the set-up is the docs').
cat >"$tmp/long.json" <<EOF
{"name": "slurm-long", "board": {"name": "qemu-netduino"},
 "algorithms": ["ascon-aead128"],
 "bench": {"operations": ["encrypt"], "lengths": [1024, 2048], "runs": 2000,
           "warmup": 1, "leak_runs": 0}}
EOF

# The second job on qemu-a1: the docs' config under another name (two runs
# of one config, board and host that start in the same second would share
# a run id, which the history takes for one run).
cat >"$tmp/second.json" <<EOF
{"extends": "/srv/hilrun/configs/qemu-smoke.json", "name": "slurm-second"}
EOF

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# The docs' variables, and nothing else, reach their blocks.
LAB_VARS="SLURMCTLD_PORT SLURMD_PORT ADDR_A ADDR_B"
SLURMCTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
ADDR_A=127.0.0.1 ADDR_B=127.0.0.1

# The three hosts: each /srv/hilrun is this checkout, /srv/lab the folder
# they all mount, every host's name resolves to this machine.
printf '127.0.0.1 localhost master lab-a lab-b\n' >"$tmp/hosts.txt"
mkdir -p "$shared"
for h in master lab-a lab-b; do
	lab_host_make "$h"
	ln -s "$root" "$H/$h/srv/hilrun"
	mkdir "$H/$h/srv/lab"
	# What Debian's munge package makes at install.
	chown munge:munge "$H/$h/var/lib/munge" "$H/$h/var/log/munge"
	chmod 700 "$H/$h/var/lib/munge" "$H/$h/var/log/munge"
done
lab_run lab-a map-lab-a || fail "docs block map-lab-a"
lab_run lab-b map-lab-b || fail "docs block map-lab-b"
cp "$H/lab-a/etc/hilrun/boards.json" "$H/master/etc/hilrun/lab-a.json"
cp "$H/lab-b/etc/hilrun/boards.json" "$H/master/etc/hilrun/lab-b.json"
# The master's munge key (Debian's package makes one), copied to the hosts.
mungekey -c -k "$H/master/etc/munge/munge.key" || fail "mungekey"
for h in master lab-a lab-b; do
	[ $h = master ] || cp "$H/master/etc/munge/munge.key" "$H/$h/etc/munge/munge.key"
	chown munge:munge "$H/$h/etc/munge/munge.key"
	chmod 400 "$H/$h/etc/munge/munge.key"
	lab_run $h munged >"$tmp/munged-$h.log" 2>&1 || { cat "$tmp/munged-$h.log"; fail "docs block munged on $h"; }
done
lab_run master slurm-conf >"$tmp/slurm-conf.log" 2>&1 || { cat "$tmp/slurm-conf.log"; fail "docs block slurm-conf"; }
# One host given twice would give two slurmd one port: refused.
if python3 "$root/contrib/slurm/gen-slurm-nodes.py" --host "lab-a=$H/master/etc/hilrun/lab-a.json" \
	--host "lab-a=$H/master/etc/hilrun/lab-b.json" >/dev/null 2>"$tmp/twice.log" ||
	! grep -q "given twice" "$tmp/twice.log"; then
	fail "gen-slurm-nodes.py took one host twice: $(cat "$tmp/twice.log")"
fi
nodes=$H/master/etc/slurm/nodes.conf
grep -q "NodeName=qemu-a1 .*Features=lab-a,qemu-netduino" "$nodes" ||
	fail "no node line for qemu-a1: $(cat "$nodes")"
# Both hosts on 127.0.0.1: each slurmd has a port of its own (qemu-b1
# counts on from lab-a's two).
grep -q "NodeName=qemu-b1 .*Port=$((SLURMD_PORT + 2)) " "$nodes" ||
	fail "qemu-b1 does not get a port of its own: $(cat "$nodes")"
for h in lab-a lab-b; do
	cp "$H/master/etc/slurm/slurm.conf" "$H/master/etc/slurm/nodes.conf" "$H/$h/etc/slurm/"
done
lab_run master slurmctld >"$tmp/slurmctld.log" 2>&1 || { cat "$tmp/slurmctld.log"; fail "docs block slurmctld"; }
for h in lab-a lab-b; do
	lab_run $h slurmd >"$tmp/slurmd-$h.log" 2>&1 || { cat "$tmp/slurmd-$h.log"; fail "docs block slurmd on $h"; }
done
# Until all three nodes are idle.
until [ "$(lab_host master sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)" -ge 3 ]; do
	[ "$(left)" -gt 0 ] || fail "the nodes did not come up: $(lab_host master sinfo -N 2>&1)"
	sleep 0.3
done

# The docs' two jobs (qemu-a1, and any board of lab-b), then the test's
# own with the docs' environment: a second on qemu-a1, a long one on
# qemu-a2 that it stops.
lab_run master slurm-submit >"$tmp/submit.log" 2>&1 || { cat "$tmp/submit.log"; fail "docs block slurm-submit"; }
set -- $(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$tmp/submit.log")
[ $# = 2 ] || fail "docs block slurm-submit: $(cat "$tmp/submit.log")"
j1=$1 j2=$2
submit_env=$(lab_block slurm-submit | grep -v '^sbatch')
submit() { # NODE|--constraint=X CONFIG: prints the job id
	case $1 in --*) where=$1 ;; *) where="-w $1" ;; esac
	lab_host master sh -eu -c "$submit_env
sbatch --parsable $where /srv/hilrun/contrib/slurm/hilrun.sbatch --config $2"
}
j3=$(submit qemu-a1 "$tmp/second.json") || fail "sbatch"
j4=$(submit qemu-a2 "$tmp/long.json") || fail "sbatch"
runs=$shared/runs

# The long job is stopped inside a row, as a cancelled CI job would be.
until grep -q "verified on the target" "$runs/hilrun-$j4.log" 2>/dev/null; do
	[ "$(left)" -gt 0 ] || fail "job $j4 did not start measuring"
	sleep 0.2
done
# A plain scancel: TERM to every process of the job, hilrun included.
lab_host master scancel "$j4" || fail "scancel $j4"
queue_empty() {
	until [ -z "$(lab_host master squeue -h -o %i 2>/dev/null)" ]; do
		[ "$(left)" -gt 0 ] || fail "jobs still queued or running: $(lab_host master squeue 2>&1)"
		sleep 0.3
	done
}
queue_empty

python3 - "$runs" "$j1" "$j3" "$j2" "$j4" <<'EOF' || fail "checks of the results"
import glob, json, os, sys
out = sys.argv[1]
first, second, b1, term = ("hil-" + j for j in sys.argv[2:6])
ok = True
def check(cond, msg):
    global ok
    if not cond:
        print("slurm smoke test: " + msg)
        ok = False
def result(name):
    with open(os.path.join(out, name, "result.json")) as f:
        return json.load(f)
def report(name):
    reps = glob.glob(os.path.join(out, name, "results", "2*", "report.json"))
    check(len(reps) == 1, "%s: run folders %r" % (name, reps))
    with open(reps[0]) as f:
        return json.load(f)
runs = {}
for name, board in ((first, "qemu-a1"), (second, "qemu-a1"), (b1, "qemu-b1")):
    try:
        r = result(name)
        rep = report(name)
    except (OSError, ValueError, IndexError) as e:
        check(False, "%s: %s" % (name, e))
        continue
    check(r["exit_status"] == 0, "%s: exit %s (%s)" % (name, r["exit_status"], r["error"]))
    check(r["board"] == board, "%s: board %s, not %s" % (name, r["board"], board))
    check(r["host"] == board[:-1].replace("qemu-", "lab-"), "%s: host %s" % (name, r["host"]))
    check(rep["board"]["id"] == board, "%s: report board.id %r" % (name, rep["board"].get("id")))
    check(rep["run"]["status"] == "complete", "%s: run.status %s" % (name, rep["run"]["status"]))
    try:
        with open(os.path.join(out, name, "junit.xml")) as f:
            check('name="hilrun.rows" tests="2" failures="0"' in f.read(), "%s: junit.xml" % name)
    except OSError as e:
        check(False, "%s: %s" % (name, e))
    runs[name] = (rep["run"]["started"], rep["run"]["finished"])
if first in runs and second in runs:
    (s1, f1), (s2, f2) = sorted([runs[first], runs[second]])
    check(s2 >= f1, "qemu-a1: a job started at %s, before the other finished at %s" % (s2, f1))
try:
    r = result(term)
    check(r["exit_status"] == 4 and r["summary"] == "interrupted",
          "%s: exit %s, not 4 (interrupted)" % (term, r["exit_status"]))
    rep = report(term)
    check(rep["run"]["status"] == "partial", "%s: run.status %s" % (term, rep["run"]["status"]))
except (OSError, ValueError, IndexError) as e:
    check(False, "%s: no result after SIGTERM: %s" % (term, e))
sys.exit(0 if ok else 1)
EOF

# One commit across hosts: lab-b's /srv/hilrun becomes a second checkout,
# a clone with one more commit (hilrun there a copy of this one's); the
# jobs name the master's checkout's commit, so lab-b refuses its job.
other=$tmp/other-checkout
git clone -q --shared "$root" "$other" || fail "git clone of the checkout"
git -C "$other" -c user.name=smoke -c user.email=smoke@example.org \
	commit -q --allow-empty -m "another commit" || fail "git commit in $other"
mkdir -p "$other/build"
cp "$root/build/hilrun" "$other/build/hilrun"
ln -sfn "$other" "$H/lab-b/srv/hilrun"
j5=$(submit qemu-b1 /srv/hilrun/configs/qemu-smoke.json) || fail "sbatch"
queue_empty
grep -q "refused: the checkout .* is at $(git -C "$other" rev-parse HEAD), HILRUN_COMMIT names $(git -C "$root" rev-parse HEAD)" "$runs/hilrun-$j5.log" &&
	[ ! -e "$runs/hil-$j5/result.json" ] ||
	fail "job $j5 at another commit was not refused: $(cat "$runs/hilrun-$j5.log")"

# A run whose job ended before its import (the job script killed after
# hilrun's end): left in the shared runs folder, not in the history; the
# docs' history block on the master records it. (lab-b at this checkout's
# commit again.)
ln -sfn "$root" "$H/lab-b/srv/hilrun"
lab_host lab-b env HILRUN_HOST=lab-b HILRUN_BOARDS=/etc/hilrun/boards.json \
	HILRUN_LOCK_DIR=/run/hilrun-locks /srv/hilrun/build/hilrun --board qemu-b1 \
	--config "$tmp/second.json" --results /srv/lab/runs/hil-outright/results \
	>"$tmp/outright.log" 2>&1 || { cat "$tmp/outright.log"; fail "a run by hand on lab-b"; }

# Every job's run, the stopped one too, in the lab's history as the
# master lists it (the docs' command there), with the host its node's
# feature names.
lab_run master slurm-history >"$tmp/history.txt" 2>&1 ||
	{ cat "$tmp/history.txt"; fail "docs block slurm-history on the master"; }
sed 's/^/slurm smoke test: history: /' "$tmp/history.txt"
python3 - "$tmp/history.txt" <<'EOF' || fail "the lab's history"
import sys
runs = [l.split() for l in open(sys.argv[1]) if " qemu-smoke " in l or " slurm-" in l]
got = sorted((f[4], f[5], f[2]) for f in runs)
want = sorted([("lab-a", "qemu-a1", "complete")] * 2 +
              [("lab-b", "qemu-b1", "complete"),
               ("lab-a", "qemu-a2", "partial"),
               ("lab-b", "qemu-b1", "complete")])
if got != want:
    sys.exit("slurm smoke test: history has %r, expected %r" % (got, want))
EOF
grep -q "qemu-b1" "$shared/night.html" && grep -q "qemu-a2" "$shared/night.html" ||
	fail "the night page /srv/lab/night.html does not show the boards"

stop_daemons
if pgrep -f "qemu-system-arm.*$tmp" >/dev/null; then
	fail "QEMU still runs"
fi
echo "slurm smoke test: passed: docs/lab.md's set-up (munge, slurm.conf, controller, a slurmd per board), 4 jobs on 3 boards of 2 hosts, serialised per board, a cancelled job filed its result, all 4 and a run whose import never came in the lab's history on the master, a job on a host at another commit refused ($(($(date +%s) - start)) s)"
