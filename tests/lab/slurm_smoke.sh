#!/bin/sh
# slurm_smoke.sh: a Slurm controller and one slurmd per board (three boards of two "hosts") on 127.0.0.1 from contrib/slurm, three short QEMU jobs on two boards through hilrun.sbatch (every job succeeds, the two on one board do not overlap, every result, report and JUnit file is there), a fourth job stopped with a plain `scancel` that files its result (exit 4, partial), every job's run in the lab's history with its host; hilrun.sbatch without HILRUN or HILRUN_BOARDS refuses, and so does a job naming another commit than the checkout's; every daemon is stopped by its pid.
# Usage: tests/lab/slurm_smoke.sh [BUILD_DIR]   (make test-lab)
# Skipped (exit 0, saying so) when slurmctld, slurmd or sbatch is missing.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
hilrun=$build/hilrun

for tool in slurmctld slurmd sbatch squeue scancel; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "slurm smoke test: SKIPPED: $tool is not installed (make deps-lab installs it)"
		exit 0
	fi
done
[ -x "$hilrun" ] || { echo "slurm smoke test: $hilrun is not built" >&2; exit 2; }
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

limit=55 # seconds: the whole test gives up after this
start=$(date +%s)
tmp=$(mktemp -d /tmp/hilrun-slurm-XXXXXX)
chmod 755 "$tmp"
pids=""

left() { echo $((limit - ($(date +%s) - start))); }

# Stop each daemon this test started, by its pid: TERM, then KILL.
stop_daemons() {
	for pid in $pids; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in $pids; do
		n=0
		while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "slurm smoke test: pid $pid did not stop on TERM: KILL" >&2
			kill -9 "$pid" 2>/dev/null || true
		fi
	done
	pids=""
}

cleanup() {
	stop_daemons
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
	for log in "$tmp"/*.log "$tmp"/out/*.log; do
		[ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }
	done
	exit 1
}

host=$(hostname -s)
# Two lab hosts, both this machine under its own name (a slurmd's
# NodeHostname must be the host it runs on): lab-a's boards qemu-a1 and
# qemu-a2, lab-b's qemu-b1, told apart by Features.
cat >"$tmp/lab-a.json" <<EOF
[{"id": "qemu-a1", "platform": "qemu-netduino", "runner": "qemu"},
 {"id": "qemu-a2", "platform": "qemu-netduino", "runner": "qemu"}]
EOF
cat >"$tmp/lab-b.json" <<EOF
[{"id": "qemu-b1", "platform": "qemu-netduino", "runner": "qemu"}]
EOF
# The map every job's hilrun reads: all three boards.
cat >"$tmp/boards.json" <<EOF
[{"id": "qemu-a1", "platform": "qemu-netduino", "runner": "qemu"},
 {"id": "qemu-a2", "platform": "qemu-netduino", "runner": "qemu"},
 {"id": "qemu-b1", "platform": "qemu-netduino", "runner": "qemu"}]
EOF
cat >"$tmp/smoke.json" <<EOF
{"name": "slurm-smoke", "board": {"name": "qemu-netduino"},
 "algorithms": ["ascon-aead128"],
 "bench": {"operations": ["encrypt"], "lengths": [16, 64], "runs": 50,
           "warmup": 1, "leak_runs": 0}}
EOF
# Rows long enough for a TERM to land inside the first.
cat >"$tmp/long.json" <<EOF
{"name": "slurm-long", "board": {"name": "qemu-netduino"},
 "algorithms": ["ascon-aead128"],
 "bench": {"operations": ["encrypt"], "lengths": [1024, 2048], "runs": 2000,
           "warmup": 1, "leak_runs": 0}}
EOF

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ctl_port=$(free_port)
base=$(free_port)
# Node lines from the maps; both "hosts" are this machine.
python3 "$root/contrib/slurm/gen-slurm-nodes.py" \
	--host "lab-a=$tmp/lab-a.json" --host "lab-b=$tmp/lab-b.json" \
	--addr lab-a=127.0.0.1 --addr lab-b=127.0.0.1 --port-base "$base" \
	>"$tmp/nodes.conf" || fail "gen-slurm-nodes.py"
# One host given twice would give two slurmd one port: refused.
if python3 "$root/contrib/slurm/gen-slurm-nodes.py" --host "lab-a=$tmp/lab-a.json" \
	--host "lab-a=$tmp/lab-b.json" >/dev/null 2>"$tmp/twice.log" ||
	! grep -q "given twice" "$tmp/twice.log"; then
	fail "gen-slurm-nodes.py took one host twice: $(cat "$tmp/twice.log")"
fi
grep -q "NodeName=qemu-a1 .*Features=lab-a,qemu-netduino" "$tmp/nodes.conf" ||
	fail "no node line for qemu-a1: $(cat "$tmp/nodes.conf")"
# Both hosts on 127.0.0.1: the generator gave each slurmd a port of its
# own (qemu-b1 counts on from lab-a's two).
grep -q "NodeName=qemu-b1 .*Port=$((base + 2)) " "$tmp/nodes.conf" ||
	fail "qemu-b1 does not get a port of its own: $(cat "$tmp/nodes.conf")"
sed -e "s/NodeHostname=lab-[ab]/NodeHostname=$host/" \
	"$tmp/nodes.conf" >"$tmp/nodes.local.conf"
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out" "$tmp/locks"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=hilsmoke
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl_port
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
SlurmdTimeout=30
KillWait=30
$(cat "$tmp/nodes.local.conf")
EOF
export SLURM_CONF="$tmp/slurm.conf"

slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out.log" 2>&1 &
pids="$pids $!"
for node in qemu-a1 qemu-a2 qemu-b1; do
	slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/slurmd-$node.out.log" 2>&1 &
	pids="$pids $!"
done
# Until all three nodes are idle.
until [ "$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)" -ge 3 ]; do
	[ "$(left)" -gt 0 ] || fail "the nodes did not come up: $(sinfo -N 2>&1)"
	sleep 0.3
done

# Jobs see the map and lock folder through the environment sbatch passes.
# The lab's history: a folder every host mounts (here: one machine).
mkdir -p "$tmp/shared"
export HILRUN="$hilrun" HILRUN_BOARDS="$tmp/boards.json" HILRUN_LOCK_DIR="$tmp/locks"
export HILRUN_HISTORY="$tmp/shared/history.sqlite" HILRUN_NIGHT_PAGE="$tmp/shared/night.html"
# The commit every job must run: this checkout's.
HILRUN_COMMIT=$(git -C "$root" rev-parse HEAD)
export HILRUN_COMMIT
submit() { # NAME NODE|--constraint=X CONFIG: prints the job id
	out=$tmp/out/$1
	case $2 in --*) where=$2 ;; *) where="-w $2" ;; esac
	HILRUN_OUT=$out sbatch --parsable -p hil $where -D "$tmp" \
		-o "$tmp/out/$1.log" "$sbatch_script" \
		--config "$3" --wait 0
}
# --wait 0: a job that found its board busy would exit 5, so success of
# both qemu-a1 jobs shows that Slurm kept them apart.
j1=$(submit a1-first qemu-a1 "$tmp/smoke.json") || fail "sbatch"
j2=$(submit b1 --constraint=lab-b "$tmp/smoke.json") || fail "sbatch"
j3=$(submit a1-second qemu-a1 "$tmp/smoke.json") || fail "sbatch"
j4=$(submit a2-term qemu-a2 "$tmp/long.json") || fail "sbatch"
# A job that names another commit than the host's checkout: refused.
j5=$(HILRUN_COMMIT=0123456789abcdef0123456789abcdef01234567 \
	submit b1-other-commit qemu-b1 "$tmp/smoke.json") || fail "sbatch"

# The long job is stopped inside a row, as a cancelled CI job would be.
until grep -q "verified on the target" "$tmp/out/a2-term.log" 2>/dev/null; do
	[ "$(left)" -gt 0 ] || fail "job $j4 did not start measuring"
	sleep 0.2
done
# A plain scancel: TERM to every process of the job, hilrun included.
scancel "$j4" || fail "scancel $j4"

until [ -z "$(squeue -h -o %i 2>/dev/null)" ]; do
	[ "$(left)" -gt 0 ] || fail "jobs still queued or running: $(squeue 2>&1)"
	sleep 0.3
done

python3 - "$tmp/out" <<'EOF' || fail "checks of the results"
import glob, json, os, sys
out = sys.argv[1]
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
for name, board in (("a1-first", "qemu-a1"), ("a1-second", "qemu-a1"), ("b1", "qemu-b1")):
    try:
        r = result(name)
        rep = report(name)
    except (OSError, ValueError, IndexError) as e:
        check(False, "%s: %s" % (name, e))
        continue
    check(r["exit_status"] == 0, "%s: exit %s (%s)" % (name, r["exit_status"], r["error"]))
    check(r["board"] == board, "%s: board %s, not %s" % (name, r["board"], board))
    check(rep["board"]["id"] == board, "%s: report board.id %r" % (name, rep["board"].get("id")))
    check(rep["run"]["status"] == "complete", "%s: run.status %s" % (name, rep["run"]["status"]))
    try:
        with open(os.path.join(out, name, "junit.xml")) as f:
            check('name="hilrun.rows" tests="2" failures="0"' in f.read(), "%s: junit.xml" % name)
    except OSError as e:
        check(False, "%s: %s" % (name, e))
    runs[name] = (rep["run"]["started"], rep["run"]["finished"])
if "a1-first" in runs and "a1-second" in runs:
    (s1, f1), (s2, f2) = sorted([runs["a1-first"], runs["a1-second"]])
    check(s2 >= f1, "qemu-a1: a job started at %s, before the other finished at %s" % (s2, f1))
try:
    r = result("a2-term")
    check(r["exit_status"] == 4 and r["summary"] == "interrupted",
          "a2-term: exit %s, not 4 (interrupted)" % r["exit_status"])
    rep = report("a2-term")
    check(rep["run"]["status"] == "partial", "a2-term: run.status %s" % rep["run"]["status"])
except (OSError, ValueError, IndexError) as e:
    check(False, "a2-term: no result after SIGTERM: %s" % e)
sys.exit(0 if ok else 1)
EOF

grep -q "refused: the checkout .* HILRUN_COMMIT names 0123456789abcdef" "$tmp/out/b1-other-commit.log" &&
	[ ! -e "$tmp/out/b1-other-commit/result.json" ] ||
	fail "job $j5 at another commit was not refused: $(cat "$tmp/out/b1-other-commit.log")"

# Every job's run, the stopped one too, in the lab's history, with the
# host its node's feature names.
"$hilrun" history --db "$HILRUN_HISTORY" >"$tmp/history.txt" 2>&1 ||
	{ cat "$tmp/history.txt"; fail "hilrun history of $HILRUN_HISTORY"; }
sed 's/^/slurm smoke test: history: /' "$tmp/history.txt"
python3 - "$tmp/history.txt" <<'EOF' || fail "the lab's history"
import sys
runs = [l.split() for l in open(sys.argv[1]) if " slurm-" in l]
got = sorted((f[4], f[5], f[2]) for f in runs)
want = sorted([("lab-a", "qemu-a1", "complete")] * 2 +
              [("lab-b", "qemu-b1", "complete"),
               ("lab-a", "qemu-a2", "partial")])
if got != want:
    sys.exit("slurm smoke test: history has %r, expected %r" % (got, want))
EOF
grep -q "qemu-b1" "$HILRUN_NIGHT_PAGE" && grep -q "qemu-a2" "$HILRUN_NIGHT_PAGE" ||
	fail "the night page $HILRUN_NIGHT_PAGE does not show the boards"

stop_daemons
if pgrep -f "qemu-system-arm.*$tmp" >/dev/null; then
	fail "QEMU still runs"
fi
echo "slurm smoke test: passed: 3 jobs on 2 boards of 2 hosts, serialised per board, a cancelled job filed its result, all 4 in the lab's history, a job at another commit refused ($(($(date +%s) - start)) s)"
