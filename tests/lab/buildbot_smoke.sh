#!/bin/sh
# buildbot_smoke.sh: a Buildbot master and two workers ("lab hosts") on 127.0.0.1 from contrib/buildbot, the nightly builds of the three boards of two hosts (the Nightly scheduler's own builder list, started now) and one on-demand build: every build succeeds, the two on one board do not overlap, every result, report and JUnit file is on the master, the master's run history lists all four runs with their hosts and boards, and every daemon is stopped by its pid.
# Usage: tests/lab/buildbot_smoke.sh [BUILD_DIR]   (make test-lab)
# Skipped (exit 0, saying so) when buildbot or buildbot-worker is missing.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
hilrun=$build/hilrun

for tool in buildbot buildbot-worker; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "buildbot smoke test: SKIPPED: $tool is not installed (make deps-lab installs it)"
		exit 0
	fi
done
[ -x "$hilrun" ] || { echo "buildbot smoke test: $hilrun is not built" >&2; exit 2; }

# Bounded: the whole test gives up after this many seconds.
limit=55
start=$(date +%s)
tmp=$(mktemp -d /tmp/hilrun-bb-XXXXXX)
master=$tmp/master

left() { echo $((limit - ($(date +%s) - start))); }

# Stop a twistd daemon by the pid in its twistd.pid: TERM, then KILL.
stop_daemon() {
	pidfile=$1/twistd.pid
	[ -f "$pidfile" ] || return 0
	pid=$(cat "$pidfile")
	kill "$pid" 2>/dev/null || return 0
	n=0
	while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "buildbot smoke test: $1 did not stop on TERM: KILL" >&2
		kill -9 "$pid" 2>/dev/null || true
	fi
}

cleanup() {
	stop_daemon "$tmp/worker-b"
	stop_daemon "$tmp/worker-a"
	stop_daemon "$master"
	if [ "${KEEP:-0}" = 1 ]; then
		echo "buildbot smoke test: kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
	echo "buildbot smoke test: FAILED: $*" >&2
	for log in "$master/twistd.log" "$tmp"/worker-*/twistd.log; do
		[ -f "$log" ] && { echo "--- $log" >&2; tail -n 40 "$log" >&2; }
	done
	exit 1
}

# Two hosts: lab-a with boards qemu-a1 and qemu-a2 (so that it takes two
# builds at once) and qemu-a3 (unplugged: no builders), lab-b with qemu-b1.
cat >"$tmp/lab-a.json" <<EOF
[{"id": "qemu-a1", "platform": "qemu-netduino", "runner": "qemu"},
 {"id": "qemu-a2", "platform": "qemu-netduino", "runner": "qemu"},
 {"id": "qemu-a3", "platform": "qemu-netduino", "runner": "qemu", "connected": false}]
EOF
cat >"$tmp/lab-b.json" <<EOF
[{"id": "qemu-b1", "platform": "qemu-netduino", "runner": "qemu"}]
EOF
# A short run: two rows of 50 runs.
cat >"$tmp/smoke.json" <<EOF
{"name": "bb-smoke", "board": {"name": "qemu-netduino"},
 "algorithms": ["ascon-aead128"],
 "bench": {"operations": ["encrypt"], "lengths": [16, 64], "runs": 50,
           "warmup": 1, "leak_runs": 0}}
EOF

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$master"
# --wait 0: a build that found its board busy would fail (exit 5), so
# success of all three shows that Buildbot's lock kept them apart.
python3 "$root/contrib/buildbot/gen-master-cfg.py" \
	--host "lab-a=$tmp/lab-a.json" --host "lab-b=$tmp/lab-b.json" \
	--checkout "$root" --lock-dir "$tmp/locks" --port "$port" \
	--interface 127.0.0.1 --wait 0 --master-hilrun "$hilrun" \
	>"$master/master.cfg" ||
	fail "gen-master-cfg.py"
# SMOKE_NO_LOCK=1: the same without the boards' locks, to see the test fail.
if [ "${SMOKE_NO_LOCK:-0}" = 1 ]; then
	sed -i 's/locks=\[lock.access("exclusive")\]/locks=[]/' "$master/master.cfg"
fi
cat >"$master/workers.passwd" <<EOF
lab-a:pw-a
lab-b:pw-b
sendchange:pw-c
EOF
grep -q 'c\["www"\]' "$master/master.cfg" && fail "master.cfg sets c[\"www\"]"

buildbot create-master -q "$master" >"$tmp/create.log" 2>&1 || { cat "$tmp/create.log"; fail "create-master"; }
buildbot checkconfig "$master" >"$tmp/check.log" 2>&1 || { cat "$tmp/check.log"; fail "checkconfig"; }
# The Nightly scheduler exists, names every board's nightly builder, and
# "sendchange --category nightly" starts that same list (read from the
# loaded config with Buildbot's own interpreter and loader).
bbpy=$(sed -n '1s/^#! *//p' "$(command -v buildbot)")
"${bbpy:-python3}" - "$master" <<'EOF' || fail "the nightly schedulers"
import sys
from buildbot.config.master import FileLoader
from buildbot.schedulers.timed import Nightly
s = FileLoader(sys.argv[1], "master.cfg").loadConfig().schedulers
want = ["qemu-a1-nightly", "qemu-a2-nightly", "qemu-b1-nightly"]
n, now = s.get("nightly"), s.get("nightly-now")
if not isinstance(n, Nightly) or sorted(n.builderNames) != want:
    sys.exit("buildbot smoke test: no Nightly scheduler over %s: %r" % (want, n))
if now is None or list(now.builderNames) != list(n.builderNames):
    sys.exit("buildbot smoke test: nightly-now does not start the Nightly's builders")
EOF
buildbot start "$master" >"$tmp/start.log" 2>&1 || { cat "$tmp/start.log"; fail "master start"; }
for w in a b; do
	buildbot-worker create-worker -q "$tmp/worker-$w" "127.0.0.1:$port" "lab-$w" "pw-$w" ||
		fail "create-worker lab-$w"
	buildbot-worker start "$tmp/worker-$w" >"$tmp/worker-$w.start.log" 2>&1 ||
		{ cat "$tmp/worker-$w.start.log"; fail "worker lab-$w start"; }
done
# Both workers attached before any change, so that no build waits for one.
for w in a b; do
	until grep -q "Worker lab-$w attached\|worker 'lab-$w' attaching\|Got workerinfo from 'lab-$w'" "$master/twistd.log" 2>/dev/null; do
		[ "$(left)" -gt 0 ] || fail "worker lab-$w did not attach"
		sleep 0.2
	done
done

# Four jobs on all three boards of the two hosts: the nightly run now (the
# Nightly scheduler's builders: qemu-a1, qemu-a2 on lab-a, qemu-b1 on
# lab-b), and qemu-a1's on-demand build, which only the board's lock keeps
# apart from its nightly one.
for board in nightly qemu-a1; do
	buildbot sendchange --master "127.0.0.1:$port" --auth sendchange:pw-c \
		--who smoke --category "$board" --property "config:$tmp/smoke.json" \
		--comments "smoke test on $board" smoke.json >>"$tmp/sendchange.log" 2>&1 ||
		{ cat "$tmp/sendchange.log"; fail "sendchange $board"; }
done

# Until the master's database has four finished builds.
db=$master/state.sqlite
done_builds() {
	python3 - "$db" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(con.execute("select count(*) from builds where complete_at is not null").fetchone()[0])
EOF
}
until [ "$(done_builds 2>/dev/null || echo 0)" -ge 4 ]; do
	[ "$(left)" -gt 0 ] || fail "four builds did not finish within $limit s"
	sleep 0.5
done

# Every build succeeded; per board, builds do not overlap; files on the master.
python3 - "$db" "$master" <<'EOF' || fail "checks on the master"
import glob, json, os, sqlite3, sys
db, master = sys.argv[1], sys.argv[2]
con = sqlite3.connect(db)
rows = con.execute(
    "select b.number, bl.name, b.results, b.started_at, b.complete_at "
    "from builds b join builders bl on bl.id = b.builderid "
    "order by b.started_at, b.id").fetchall()
ok = True
def check(cond, msg):
    global ok
    if not cond:
        print("buildbot smoke test: " + msg)
        ok = False
check(len(rows) == 4, "expected 4 builds, got %r" % (rows,))
check(sorted(r[1] for r in rows) == ["qemu-a1", "qemu-a1-nightly", "qemu-a2-nightly", "qemu-b1-nightly"],
      "builders: %r" % sorted(r[1] for r in rows))
hist = con.execute("select s.results from steps s where s.name = 'history'").fetchall()
check(hist == [(0,)] * 4, "the master's history steps: %r" % (hist,))
per = {}  # board: its builds
for number, builder, results, started, complete in rows:
    check(results == 0, "build %s #%s: result %s, not SUCCESS" % (builder, number, results))
    board = builder[:-len("-nightly")] if builder.endswith("-nightly") else builder
    per.setdefault(board, []).append((started, complete, builder, number))
check(sorted(per) == ["qemu-a1", "qemu-a2", "qemu-b1"], "boards: %s" % sorted(per))
check(len(per.get("qemu-a1", [])) == 2, "qemu-a1 builds: %r" % per.get("qemu-a1"))
for board, builds in per.items():
    builds.sort()
    for (s1, c1, b1, n1), (s2, c2, b2, n2) in zip(builds, builds[1:]):
        check(s2 >= c1, "board %s: %s #%s started at %s, before %s #%s ended at %s"
              % (board, b2, n2, s2, b1, n1, c1))
    for _, _, builder, n in builds:
        d = os.path.join(master, "hil-results", builder, str(n))
        try:
            with open(os.path.join(d, "result.json")) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            check(False, "%s #%s: no result.json on the master: %s" % (builder, n, e))
            continue
        check(r["exit_status"] == 0 and r["board"] == board,
              "%s #%s: result %r" % (builder, n, r))
        reports = glob.glob(os.path.join(d, "results", "*", "report.json"))
        check(len(reports) == 1, "%s #%s: reports on the master: %r" % (builder, n, reports))
        for rp in reports:
            with open(rp) as f:
                rep = json.load(f)
            check(rep["board"]["id"] == board, "%s: board.id %r" % (rp, rep["board"].get("id")))
            check(rep["run"]["status"] == "complete", "%s: run.status %r" % (rp, rep["run"]["status"]))
        try:
            with open(os.path.join(d, "junit.xml")) as f:
                junit = f.read()
        except OSError as e:
            junit = ""
            check(False, "%s #%s: no junit.xml: %s" % (builder, n, e))
        check('name="hilrun.rows" tests="2" failures="0"' in junit,
              "%s #%s: junit.xml without the two rows" % (builder, n))
sys.exit(0 if ok else 1)
EOF

# The master's history: every run, with its host and board.
"$hilrun" history --results "$master/hil-results" >"$tmp/history.txt" 2>&1 ||
	{ cat "$tmp/history.txt"; fail "hilrun history on the master"; }
sed 's/^/buildbot smoke test: history: /' "$tmp/history.txt"
python3 - "$tmp/history.txt" <<'EOF' || fail "the master's history"
import sys
runs = [l.split() for l in open(sys.argv[1]) if " bb-smoke " in l]
got = sorted((f[4], f[5], f[2], f[6]) for f in runs)
want = sorted([("lab-a", "qemu-a1", "complete", "2/2")] * 2 +
              [("lab-a", "qemu-a2", "complete", "2/2"),
               ("lab-b", "qemu-b1", "complete", "2/2")])
if got != want:
    sys.exit("buildbot smoke test: history has %r, expected %r" % (got, want))
EOF

# The daemons stop by pid (cleanup does it again, harmlessly), and no
# emulator outlives them.
stop_daemon "$tmp/worker-b"
stop_daemon "$tmp/worker-a"
stop_daemon "$master"
for d in "$master" "$tmp/worker-a" "$tmp/worker-b"; do
	pid=$(cat "$d/twistd.pid" 2>/dev/null || true)
	[ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || fail "$d (pid $pid) still runs"
done
if pgrep -f "qemu-system-arm.*$tmp" >/dev/null; then
	fail "QEMU still runs"
fi
echo "buildbot smoke test: passed: the nightly builds of 3 boards on 2 workers and 1 on demand, serialised per board, results and their history on the master ($(($(date +%s) - start)) s)"
