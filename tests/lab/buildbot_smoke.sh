#!/bin/sh
# buildbot_smoke.sh: docs/lab.md's Buildbot set-up run as it is (its blocks tagged test-lab=..., each on its own "host": a master and two lab hosts on this machine, in namespaces of their own), then the nightly builds of the three boards of two hosts (the Nightly scheduler's own builder list, started now) and one on-demand build: every build succeeds, the two on one board do not overlap, every result, report and JUnit file is on the master, the master's run history lists the runs with their hosts, boards and commits; then a worker killed (kill -9) mid-build: its hilrun and QEMU end with it, and the retried build resumes the run (rows measured before the kill kept, not measured again), and two nightly requests queued meanwhile collapse into one build; a nightly build whose worker was killed and whose request collapsed into the next night's is uploaded with that build's run and recorded partial; then a host whose checkout is a second clone at another commit refuses its nightly build, which is mailed to a local SMTP sink; the night's page the master writes opens in headless Chromium with every board and working links; every daemon is stopped by its pid.
# Usage: tests/lab/buildbot_smoke.sh [BUILD_DIR]   (make test-lab)
# Skipped (exit 0, saying so) when buildbot or buildbot-worker is missing,
# or no mount namespace can be made (not root).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
hilrun=$build/hilrun
lab_root=$root
. "$root/tests/lab/labhost.sh"

for tool in buildbot buildbot-worker; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "buildbot smoke test: SKIPPED: $tool is not installed (make deps-lab installs it)"
		exit 0
	fi
done
if ! lab_host_can; then
	echo "buildbot smoke test: SKIPPED: no mount and UTS namespace here (the test runs each lab host in its own: run it as root)"
	exit 0
fi
[ -x "$hilrun" ] || { echo "buildbot smoke test: $hilrun is not built" >&2; exit 2; }
# The docs' hosts run /srv/hilrun/build/hilrun: this checkout's.
[ "$hilrun" -ef "$root/build/hilrun" ] ||
	{ echo "buildbot smoke test: the docs' hosts run CHECKOUT/build/hilrun, not $hilrun" >&2; exit 2; }

# Bounded: the whole test gives up after this many seconds.
limit=400
start=$(date +%s)
tmp=$(mktemp -d /tmp/hilrun-bb-XXXXXX)
chmod 755 "$tmp"
lab_tmp=$tmp
H=$tmp/hosts
# The docs' folders, as seen from outside the hosts' namespaces.
master=$H/master/srv/bb-master
wa=$H/lab-a/srv/buildbot-worker
wb=$H/lab-b/srv/buildbot-worker

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
	[ -z "${smtp_pid:-}" ] || kill "$smtp_pid" 2>/dev/null || true
	stop_daemon "$wb"
	stop_daemon "$wa"
	stop_daemon "$master"
	lab_host_cleanup
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
	for log in "$master/twistd.log" "$wa/twistd.log" "$wb/twistd.log"; do
		[ -f "$log" ] && { echo "--- $log" >&2; tail -n 40 "$log" >&2; }
	done
	exit 1
}

# A run long enough to kill its worker inside it: six rows (the test's
# own config; the set-up is the docs').
cat >"$tmp/long.json" <<EOF
{"name": "bb-long", "board": {"name": "qemu-netduino"},
 "algorithms": ["ascon-aead128"],
 "bench": {"operations": ["encrypt"], "lengths": [16, 64, 256, 512, 1024, 2048],
           "runs": 2000, "warmup": 1, "leak_runs": 0}}
EOF

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# The docs' variables, and nothing else, reach their blocks.
LAB_VARS="MASTER_ADDR MASTER_PORT SMTP PW_A PW_B PW_C PW"
MASTER_ADDR=127.0.0.1
MASTER_PORT=$(free_port)
PW_A=pw-a PW_B=pw-b PW_C=pw-c PW=""
# A local SMTP sink (Debian's python3-aiosmtpd) for the failed nightly's
# mail; skipped, saying so, without it.
smtp_port=$(free_port)
SMTP=127.0.0.1:$smtp_port
smtp_pid=""
if /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null; then
	# A maildir it makes itself ("$tmp/mail" must not exist yet).
	/usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$smtp_port" \
		-c aiosmtpd.handlers.Mailbox "$tmp/mail" >"$tmp/smtp.log" 2>&1 &
	smtp_pid=$!
else
	echo "buildbot smoke test: no python3-aiosmtpd (make deps-lab): the failed nightly's mail is not checked"
fi

# The three hosts: each /srv/hilrun is this checkout, every host's name
# resolves to this machine.
printf '127.0.0.1 localhost master lab-a lab-b\n' >"$tmp/hosts.txt"
for h in master lab-a lab-b; do
	lab_host_make "$h"
	ln -s "$root" "$H/$h/srv/hilrun"
done
lab_run lab-a map-lab-a || fail "docs block map-lab-a"
lab_run lab-b map-lab-b || fail "docs block map-lab-b"
# The master's copies of the maps (the docs' scp).
cp "$H/lab-a/etc/hilrun/boards.json" "$H/master/etc/hilrun/lab-a.json"
cp "$H/lab-b/etc/hilrun/boards.json" "$H/master/etc/hilrun/lab-b.json"
lab_run master bb-master >"$tmp/master.log" 2>&1 || { cat "$tmp/master.log"; fail "docs block bb-master"; }
# SMOKE_NO_LOCK=1: the same without the boards' locks, to see the test fail.
if [ "${SMOKE_NO_LOCK:-0}" = 1 ]; then
	sed -i 's/locks=\[lock.access("exclusive")\]/locks=[]/' "$master/master.cfg"
	lab_host master buildbot reconfig /srv/bb-master >/dev/null 2>&1 || fail "reconfig"
fi
grep -q 'c\["www"\]' "$master/master.cfg" && fail "master.cfg sets c[\"www\"]"
[ "$(stat -c %a "$master/workers.passwd")" = 600 ] || fail "workers.passwd is not 0600"
# master.cfg refuses passwords others can read.
chmod 644 "$master/workers.passwd"
if lab_host master buildbot checkconfig /srv/bb-master >"$tmp/check.log" 2>&1 ||
	! grep -q "chmod 600" "$tmp/check.log"; then
	cat "$tmp/check.log"
	fail "master.cfg took a workers.passwd others can read"
fi
chmod 600 "$master/workers.passwd"
# Without --interface the master listens on this machine only.
python3 "$root/contrib/buildbot/gen-master-cfg.py" --host "lab-a=$H/master/etc/hilrun/lab-a.json" \
	>"$tmp/default.cfg" || fail "gen-master-cfg.py without --interface"
grep -q '"interface": "127.0.0.1"' "$tmp/default.cfg" || fail "master.cfg not bound to 127.0.0.1 by default"
# The Nightly scheduler exists, names every board's nightly builder, and
# "sendchange --category nightly" starts that same list (read from the
# loaded config with Buildbot's own interpreter and loader).
bbpy=$(sed -n '1s/^#! *//p' "$(command -v buildbot)")
"${bbpy:-python3}" - "$master" <<'PY' || fail "the nightly schedulers"
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
PY
# setup-worker.sh refuses the checkout's example map (inside the checkout,
# or a copy of it elsewhere: its probe_id is a placeholder).
cp "$root/configs/boards.json" "$tmp/example-map.json"
for map in /srv/hilrun/configs/boards.json "$tmp/example-map.json"; do
	if lab_host lab-a /srv/hilrun/contrib/buildbot/setup-worker.sh "$tmp/worker-x" \
		"127.0.0.1:$MASTER_PORT" lab-x pw-x "$map" >"$tmp/setup-x.log" 2>&1 ||
		! grep -q "inside the checkout\|placeholder" "$tmp/setup-x.log" ||
		[ -e "$tmp/worker-x" ]; then
		cat "$tmp/setup-x.log"
		fail "setup-worker.sh took $map"
	fi
done
# The block that starts a worker without systemd is what the unit runs.
unit=$root/contrib/buildbot/buildbot-worker-hilrun.service
want="cd $(sed -n 's/^WorkingDirectory=//p' "$unit") && $(sed -n 's/^Environment=//p' "$unit") $(sed -n 's/^ExecStart=\/usr\/bin\///p' "$unit" | sed 's/ --nodaemon//')"
[ "$(lab_block bb-worker-start)" = "$want" ] ||
	fail "docs block bb-worker-start is not the unit's command: $(lab_block bb-worker-start), the unit: $want"
for h in a b; do
	eval "PW=\$PW_$(echo $h | tr ab AB)"
	lab_run "lab-$h" bb-worker >"$tmp/setup-$h.log" 2>&1 ||
		{ cat "$tmp/setup-$h.log"; fail "docs block bb-worker on lab-$h"; }
	lab_run "lab-$h" bb-worker-start >"$tmp/worker-$h.start.log" 2>&1 ||
		{ cat "$tmp/worker-$h.start.log"; fail "docs block bb-worker-start on lab-$h"; }
done
PW=""
# Both workers attached before any change, so that no build waits for one.
for w in a b; do
	until grep -q "Worker lab-$w attached\|worker 'lab-$w' attaching\|Got workerinfo from 'lab-$w'" "$master/twistd.log" 2>/dev/null; do
		[ "$(left)" -gt 0 ] || fail "worker lab-$w did not attach"
		sleep 0.2
	done
done

# The docs' two changes: qemu-a1's on-demand build, and the nightly run
# now (the Nightly scheduler's builders: qemu-a1, qemu-a2 on lab-a,
# qemu-b1 on lab-b). Only the board's lock keeps qemu-a1's two apart.
lab_run master bb-sendchange >"$tmp/sendchange.log" 2>&1 ||
	{ cat "$tmp/sendchange.log"; fail "docs block bb-sendchange"; }

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

# The master's history (the docs' command, on the master): every run,
# with its host and board.
lab_run master bb-history >"$tmp/history.txt" 2>&1 ||
	{ cat "$tmp/history.txt"; fail "docs block bb-history on the master"; }
sed 's/^/buildbot smoke test: history: /' "$tmp/history.txt"
python3 - "$tmp/history.txt" <<'EOF' || fail "the master's history"
import sys
runs = [l.split() for l in open(sys.argv[1]) if " qemu-smoke" in l]
got = sorted((f[3], f[4], f[5], f[2], f[6]) for f in runs)
want = sorted([("qemu-smoke", "lab-a", "qemu-a1", "complete", "2/2"),
               ("qemu-smoke-o3", "lab-a", "qemu-a1", "complete", "2/2"),
               ("qemu-smoke", "lab-a", "qemu-a2", "complete", "2/2"),
               ("qemu-smoke", "lab-b", "qemu-b1", "complete", "2/2")])
if got != want:
    sys.exit("buildbot smoke test: history has %r, expected %r" % (got, want))
EOF

# Workers killed mid-build: bb-long on qemu-b1 (lab-b), on demand, and as
# qemu-a2's nightly (lab-a).
change() { # CATEGORY CONFIG [sendchange options]: a change on the master
	cat=$1 cfg=$2
	shift 2
	buildbot sendchange --master "127.0.0.1:$MASTER_PORT" --auth sendchange:pw-c \
		--who smoke --category "$cat" ${cfg:+--property "config:$cfg"} "$@" \
		--comments "smoke test on $cat" smoke.json >>"$tmp/sendchange.log" 2>&1 ||
		{ cat "$tmp/sendchange.log"; fail "sendchange $cat"; }
}
change qemu-b1 "$tmp/long.json"
change qemu-a2-nightly "$tmp/long.json"
journal_rows() { cat "$1"/hil-runs/"$2"/*/results/2*-bb-long/journal.jsonl 2>/dev/null | wc -l; }
# Each worker is killed once its run has two rows in its journal.
killed_a="" killed_b=""
until [ -n "$killed_a" ] && [ -n "$killed_b" ]; do
	[ "$(left)" -gt 0 ] || fail "the long builds on qemu-b1 and qemu-a2 did not measure two rows"
	if [ -z "$killed_b" ] && [ "$(journal_rows "$wb" qemu-b1)" -ge 2 ]; then
		kill -9 "$(cat "$wb/twistd.pid")"
		cp "$wb"/hil-runs/qemu-b1/*/results/2*-bb-long/journal.jsonl "$tmp/journal-at-kill.jsonl"
		killed_b=1
	fi
	if [ -z "$killed_a" ] && [ "$(journal_rows "$wa" qemu-a2)" -ge 2 ]; then
		kill -9 "$(cat "$wa/twistd.pid")"
		killed_a=1
	fi
	sleep 0.1
done
# hilrun, its wrapper and QEMU end with their worker (parent-death
# signal): none outlives it, and the run is partial, its rows on disk.
for b in qemu-b1 qemu-a2; do
	until ! pgrep -f "buildbot-worker/hil-runs/$b" >/dev/null &&
		! pgrep -f "qemu-system-arm.*hil-runs/$b" >/dev/null; do
		[ "$(left)" -gt 0 ] || fail "hilrun or QEMU outlived its worker: $(pgrep -af "hil-runs/$b" || true)"
		sleep 0.2
	done
done
for rep in "$(ls -1d "$wb"/hil-runs/qemu-b1/*/results/2*-bb-long/ | tail -n 1)report.json" \
	"$(ls -1d "$wa"/hil-runs/qemu-a2/*/results/2*-bb-long/ | tail -n 1)report.json"; do
	python3 - "$rep" <<'EOF' || fail "the killed worker's run"
import json, sys
r = json.load(open(sys.argv[1]))
if r["run"]["status"] != "partial":
    sys.exit("buildbot smoke test: the run of the killed worker (%s) is %s, not partial" % (sys.argv[1], r["run"]["status"]))
EOF
done
# While lab-b is down, two nightly requests for qemu-b1 queue up (two
# missed nights): they must collapse into one build, the newest. While
# lab-a is down, the interrupted nightly's request, back in the queue
# (RETRY), collapses into the next night's: that build runs a new run and
# uploads the interrupted one too, recorded partial.
retried() { # BUILDER: 1 once a build of it ended RETRY
	python3 - "$db" "$1" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(con.execute("select count(*) from builds b join builders bl on bl.id = b.builderid "
                  "where bl.name = ? and b.results = 5", (sys.argv[2],)).fetchone()[0])
EOF
}
until [ "$(retried qemu-a2-nightly 2>/dev/null || echo 0)" -ge 1 ]; do
	[ "$(left)" -gt 0 ] || fail "the master did not mark qemu-a2's killed nightly build RETRY"
	sleep 0.2
done
change qemu-b1-nightly ""
change qemu-b1-nightly ""
change qemu-a2-nightly ""
# The killed workers' twistd.pid are left behind (and their pids may live
# on as zombies where nothing reaps orphans): gone, as after a crash.
rm -f "$wb/twistd.pid" "$wa/twistd.pid"
for h in a b; do
	lab_run lab-$h bb-worker-start >"$tmp/worker-$h.restart.log" 2>&1 ||
		{ cat "$tmp/worker-$h.restart.log"; fail "docs block bb-worker-start: lab-$h again"; }
done
# The retried build (same request) resumes the run.
until [ "$(done_builds 2>/dev/null || echo 0)" -ge 9 ]; do
	[ "$(left)" -gt 0 ] || fail "the retried and collapsed nightly builds did not finish within $limit s"
	sleep 0.5
done
python3 - "$db" "$master" "$wb" <<'EOF' || fail "the resumed build"
import glob, json, os, sqlite3, sys
db, master, wb = sys.argv[1:4]
con = sqlite3.connect(db)
rows = con.execute(
    "select b.number, bl.name, b.results, b.buildrequestid from builds b "
    "join builders bl on bl.id = b.builderid where bl.name = 'qemu-b1' "
    "order by b.id").fetchall()
ok = True
def check(cond, msg):
    global ok
    if not cond:
        print("buildbot smoke test: " + msg)
        ok = False
b1 = [r for r in rows if r[1] == "qemu-b1"]
# Buildbot's results: 0 SUCCESS, 2 FAILURE, 5 RETRY.
check([r[2] for r in b1] == [5, 0], "qemu-b1 builds: %r (expected RETRY, then SUCCESS)" % b1)
check(len(b1) == 2 and b1[0][3] == b1[1][3], "qemu-b1: the retry is not of the same request: %r" % b1)
runs = glob.glob(os.path.join(wb, "hil-runs", "qemu-b1", "*", "results", "2*-bb-long"))
check(len(runs) == 1, "qemu-b1: run folders %r (expected the one, resumed)" % runs)
if len(runs) == 1 and len(b1) == 2:
    run = runs[0]
    rep = json.load(open(os.path.join(run, "report.json")))
    check(rep["run"]["status"] == "complete", "resumed run: %s" % rep["run"]["status"])
    check(len(rep["rows"]) == 6 and all(r["status"] == "ok" for r in rep["rows"]),
          "resumed run: rows %r" % [(r["msg_len"], r["status"]) for r in rep["rows"]])
    def key(line):
        r = json.loads(line)
        return (r["msg_len"], r["status"])
    at_kill = [key(l) for l in open(os.path.join(wb, "..", "..", "..", "..", "journal-at-kill.jsonl"))]
    now = [key(l) for l in open(os.path.join(run, "journal.jsonl"))]
    kept = [k for k in at_kill if k[1] == "ok"]
    check(len(kept) >= 2 and now[:len(kept)] == kept, "journal: %r at the kill, %r now" % (at_kill, now))
    measured = [k[0] for k in now if k[1] == "ok"]
    check(sorted(measured) == sorted(set(measured)) and len(measured) == 6,
          "rows measured twice or missing: %r" % now)
    up = os.path.join(master, "hil-results", "qemu-b1", str(b1[1][0]))
    res = json.load(open(os.path.join(up, "result.json")))
    check(res["exit_status"] == 0, "the retried build's result: %r" % res)
    check(os.path.basename(run) in os.listdir(os.path.join(up, "results")),
          "the resumed run folder was not uploaded: %r" % os.listdir(up))
    # The hilrun step's log (Buildbot keeps chunks zlib-compressed, 1).
    con.text_factory = bytes
    chunks = con.execute(
        "select c.content, c.compressed from logchunks c join logs l on l.id = c.logid "
        "join steps s on s.id = l.stepid join builds b on b.id = s.buildid "
        "where b.number = ? and b.builderid = (select id from builders where name = 'qemu-b1') "
        "and s.name = 'hilrun' order by c.logid, c.first_line", (b1[1][0],)).fetchall()
    import zlib
    log = "".join((zlib.decompress(c) if z == 1 else c).decode("utf-8", "replace")
                  for c, z in chunks)
    check("rows kept from the journal" in log or "row kept from the journal" in log,
          "the retried build's log does not say it resumed")
# The two queued nightly requests of qemu-b1: one build, of the newest.
nb = con.execute(
    "select b.id, b.buildrequestid, b.results from builds b join builders bl "
    "on bl.id = b.builderid where bl.name = 'qemu-b1-nightly' order by b.id").fetchall()
reqs = con.execute(
    "select r.id, r.complete, r.results from buildrequests r join builders bl "
    "on bl.id = r.builderid where bl.name = 'qemu-b1-nightly' order by r.id").fetchall()
check(len(nb) == 2 and nb[1][2] == 0 and len(reqs) == 3 and nb[1][1] == reqs[-1][0]
      and reqs[1][1] == 1,
      "qemu-b1-nightly: builds %r, requests %r (expected the two queued ones collapsed into one build of the newest)" % (nb, reqs))
# qemu-a2's nightly: SUCCESS, RETRY (killed), then one build of the next
# night's request (the retried one collapsed into it), which uploaded the
# interrupted run too.
a2 = con.execute(
    "select b.number, b.results, b.buildrequestid from builds b join builders bl "
    "on bl.id = b.builderid where bl.name = 'qemu-a2-nightly' order by b.id").fetchall()
check([r[1] for r in a2] == [0, 5, 0] and a2[1][2] != a2[2][2],
      "qemu-a2-nightly builds: %r (expected SUCCESS, RETRY, then SUCCESS of a newer request)" % a2)
if len(a2) == 3:
    up = os.path.join(master, "hil-results", "qemu-a2-nightly", str(a2[2][0]), "results")
    got = {}
    for rp in glob.glob(os.path.join(up, "2*", "report.json")):
        r = json.load(open(rp))
        got[r["run"]["config_name"]] = r["run"]["status"]
    check(got == {"qemu-smoke": "complete", "bb-long": "partial"},
          "qemu-a2-nightly #%s uploaded %r (expected its run and the interrupted one, partial)" % (a2[2][0], got))
sys.exit(0 if ok else 1)
EOF
lab_run master bb-history >"$tmp/history.txt" 2>&1 ||
	{ cat "$tmp/history.txt"; fail "docs block bb-history on the master"; }
[ "$(grep -cE " complete +bb-long +lab-b +qemu-b1 +6/6 " "$tmp/history.txt")" = 1 ] ||
	{ cat "$tmp/history.txt"; fail "the resumed run is not in the master's history once, complete"; }
[ "$(grep -cE " partial +bb-long +lab-a +qemu-a2 " "$tmp/history.txt")" = 1 ] ||
	{ cat "$tmp/history.txt"; fail "the interrupted, collapsed nightly run is not in the master's history once, partial"; }

# One commit across hosts: lab-b's /srv/hilrun becomes a second checkout,
# a clone of this one with one more commit (and hilrun built there: a copy
# of this one's). The master names its own checkout's commit, so lab-b's
# next nightly build is refused, FAILURE, and mailed.
other=$tmp/other-checkout
git clone -q --shared "$root" "$other" || fail "git clone of the checkout"
git -C "$other" -c user.name=smoke -c user.email=smoke@example.org \
	commit -q --allow-empty -m "another commit" || fail "git commit in $other"
mkdir -p "$other/build"
cp "$root/build/hilrun" "$other/build/hilrun"
ln -sfn "$other" "$H/lab-b/srv/hilrun"
change qemu-b1-nightly ""
until [ "$(done_builds 2>/dev/null || echo 0)" -ge 10 ]; do
	[ "$(left)" -gt 0 ] || fail "the nightly build of the host at another commit did not finish within $limit s"
	sleep 0.5
done
python3 - "$db" "$master" "$(git -C "$other" rev-parse HEAD)" "$(git -C "$root" rev-parse HEAD)" <<'EOF' ||
import json, os, sqlite3, sys
db, master, theirs, ours = sys.argv[1:5]
con = sqlite3.connect(db)
n, res = con.execute(
    "select b.number, b.results from builds b join builders bl on bl.id = b.builderid "
    "where bl.name = 'qemu-b1-nightly' order by b.id desc limit 1").fetchone()
if res != 2:
    sys.exit("buildbot smoke test: qemu-b1-nightly #%s at another commit: result %s, not FAILURE" % (n, res))
r = json.load(open(os.path.join(master, "hil-results", "qemu-b1-nightly", str(n), "result.json")))
if r.get("exit_status") != 2 or "not at the commit the master names" not in str(r.get("error")):
    sys.exit("buildbot smoke test: the refused build's result: %r" % r)
con.text_factory = bytes
import zlib
log = "".join((zlib.decompress(c) if z == 1 else c).decode("utf-8", "replace") for c, z in con.execute(
    "select c.content, c.compressed from logchunks c join logs l on l.id = c.logid "
    "join steps s on s.id = l.stepid join builds b on b.id = s.buildid "
    "where b.number = ? and b.builderid = (select id from builders where name = 'qemu-b1-nightly') "
    "and s.name = 'hilrun'", (n,)))
if theirs not in log or ours not in log:
    sys.exit("buildbot smoke test: the refusal does not name both commits: %s" % log[-600:])
EOF
	fail "a host at another commit"

# The failed nightly (qemu-b1-nightly, refused) and it alone was mailed.
if [ -n "$smtp_pid" ]; then
	until [ "$(ls "$tmp/mail/new" 2>/dev/null | wc -l)" -ge 1 ]; do
		[ "$(left)" -gt 0 ] || fail "no mail for the failed nightly: $(cat "$tmp/smtp.log")"
		sleep 0.3
	done
	sleep 1 # a second mail, were there one, would be there by now
	[ "$(ls "$tmp/mail/new" | wc -l)" = 1 ] ||
		fail "mails: $(grep -h '^Subject:' "$tmp"/mail/new/*)"
	grep -q "qemu-b1-nightly" "$tmp"/mail/new/* && grep -q "^To:.*lab@example.org" "$tmp"/mail/new/* ||
		fail "the mail: $(cat "$tmp"/mail/new/*)"
fi

# The night's page the master wrote after the last import, in headless
# Chromium: every board, the resumed run complete, the links resolve.
page=$master/hil-results/night.html
[ -f "$page" ] || fail "no night page $page"
timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$tmp/chromium" --window-size=1200,900 \
	--screenshot="$tmp/night.png" "file://$page" >"$tmp/chromium.log" 2>&1 ||
	{ cat "$tmp/chromium.log"; fail "chromium on the night page"; }
timeout 90 chromium --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/chromium" --dump-dom "file://$page" \
	>"$tmp/night.dom" 2>>"$tmp/chromium.log" ||
	{ cat "$tmp/chromium.log"; fail "chromium --dump-dom on the night page"; }
python3 - "$tmp/night.dom" "$tmp/night.png" "$master/hil-results" <<'EOF' || fail "the night page"
import os, re, sys
dom, png, res = sys.argv[1:4]
html = open(dom).read()
ok = True
def check(cond, msg):
    global ok
    if not cond:
        print("buildbot smoke test: night page: " + msg)
        ok = False
check(open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(png) > 10000,
      "no screenshot")
rows = re.findall(r'<tr class="(\w+)"><td><a href="#b\d+">([^<]+)</a></td><td>([^<]+)</td><td>([^<]+)</td>', html)
boards = sorted((b, h, c) for _, b, h, c in rows)
check(("qemu-b1", "lab-b", "qemu-smoke") in boards and ("qemu-a1", "lab-a", "qemu-smoke") in boards
      and ("qemu-a2", "lab-a", "qemu-smoke") in boards, "boards %r" % boards)
for href in re.findall(r'href="([^"#][^"]*report.html)"', html):
    check(not href.startswith("file:") and os.path.isfile(os.path.join(res, href)),
          "link %s does not resolve below hil-results" % href)
check("needing attention" in html, "no verdict line")
sys.exit(0 if ok else 1)
EOF

# The daemons stop by pid (cleanup does it again, harmlessly), and no
# emulator outlives them.
stop_daemon "$wb"
stop_daemon "$wa"
stop_daemon "$master"
for d in "$master" "$wa" "$wb"; do
	pid=$(cat "$d/twistd.pid" 2>/dev/null || true)
	[ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || fail "$d (pid $pid) still runs"
done
if pgrep -f "qemu-system-arm.*$tmp" >/dev/null; then
	fail "QEMU still runs"
fi
echo "buildbot smoke test: passed: the nightly builds of 3 boards on 2 workers and 1 on demand, serialised per board, results and their history on the master; a worker killed mid-build, its run resumed by the retried build, two missed nightlies collapsed into one; an interrupted nightly collapsed into the next and uploaded, partial; a checkout at another commit refused and its failed nightly mailed; the night page checked in Chromium ($(($(date +%s) - start)) s)"
