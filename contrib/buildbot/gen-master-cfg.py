#!/usr/bin/env python3
"""gen-master-cfg.py: write a Buildbot master.cfg for a lab from the hardware maps of its hosts.

One Buildbot worker per lab host, two builders per board (on demand and
nightly) that share a MasterLock("board-<id>"), so that Buildbot never starts
two builds on one board; each build runs `hilrun --board ID` on the board's
host and brings report, run folder, JUnit and result file to the master,
which then records the run in its own run history (`hilrun history import`
into hil-results/.history.sqlite: `hilrun history --results hil-results`
there lists every host's runs) and writes the night's page,
hil-results/night.html. Each build runs contrib/buildbot/hilrun-build.sh,
which checks the host's checkout against the commit the master names,
keeps run folders outside the build's clean step and resumes the run a
lost worker left. One Nightly scheduler starts the nightly
builders of every board; `buildbot sendchange --category nightly` starts
the same list now.

    contrib/buildbot/gen-master-cfg.py --interface 192.0.2.10 \\
        --host lab-a=maps/lab-a.json:/etc/hilrun/boards.json \\
        --host lab-b=maps/lab-b.json:/etc/hilrun/boards.json > master/master.cfg

--host NAME=MAP[:PATH_ON_HOST]: the worker NAME and its hardware map (the
configs/boards.json format, or what `hilrun boards --json` prints), read
here; PATH_ON_HOST is where the map is on that host (default: MAP).
Each host's map lives outside its checkout (a checkout may be replaced).
The master listens on 127.0.0.1 unless --interface names an address.
The master reads worker passwords from workers.passwd next to master.cfg,
which must be readable by the master's user alone (chmod 600)
(lines NAME:PASSWORD; "sendchange:PASSWORD" for `buildbot sendchange`).
docs/lab.md, "Several lab hosts", says how to run it.
"""

import argparse
import json
import os
import re
import sys

ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,63}$")
NAME_RE = re.compile(r"^[A-Za-z0-9._-]{1,63}$")

# What a build on a board of each platform runs when the build (or its
# change) gives no "config" property; relative to the checkout.
DEFAULT_CONFIGS = {
    "qemu-netduino": "configs/qemu.json",
    "nucleo-f401re": "configs/nucleo.json",
}


def fail(msg):
    sys.stderr.write("gen-master-cfg: %s\n" % msg)
    sys.exit(2)


def parse_host(arg):
    name, sep, rest = arg.partition("=")
    if not sep or not NAME_RE.match(name) or not rest:
        fail("--host %s: expected NAME=MAP[:PATH_ON_HOST], NAME from "
             "A-Z a-z 0-9 . _ -" % arg)
    local, _, remote = rest.partition(":")
    return name, local, remote or local


def load_map(name, path):
    """The boards of one host's map: [(id, platform)], connected ones."""
    try:
        with open(path, encoding="utf-8") as f:
            boards = json.load(f)
    except (OSError, ValueError) as e:
        fail("host %s: %s: %s" % (name, path, e))
    if not isinstance(boards, list):
        fail("host %s: %s: expected a JSON array of boards" % (name, path))
    out = []
    for i, b in enumerate(boards):
        if not isinstance(b, dict):
            fail("%s: [%d]: expected an object" % (path, i))
        bid, platform = b.get("id"), b.get("platform")
        if not isinstance(bid, str) or not ID_RE.match(bid):
            fail("%s: [%d].id: expected 1 to 63 characters from "
                 "A-Z a-z 0-9 . _ -" % (path, i))
        if not isinstance(platform, str) or not platform:
            fail("%s: [%d].platform: expected a board name" % (path, i))
        if b.get("connected", True) is False:
            continue  # listed but unplugged: no builders
        out.append((bid, platform))
    return out


def main():
    ap = argparse.ArgumentParser(
        description="Write a Buildbot master.cfg for hilrun lab hosts.")
    ap.add_argument("--host", action="append", required=True,
                    metavar="NAME=MAP[:PATH_ON_HOST]")
    ap.add_argument("--checkout", default="/srv/hilrun",
                    help="hilrun's built checkout on every host "
                    "(default /srv/hilrun)")
    ap.add_argument("--lock-dir", default="/run/hilrun-locks",
                    help="HILRUN_LOCK_DIR on the hosts")
    ap.add_argument("--port", type=int, default=9989,
                    help="the master's PB port for workers and sendchange")
    ap.add_argument("--interface", default="127.0.0.1",
                    help="the address the master listens on for workers "
                    "and sendchange (default 127.0.0.1: this machine "
                    "only; the lab network's address, or 0.0.0.0 for "
                    "every one, to take workers of other hosts)")
    ap.add_argument("--nightly", default="01:30", metavar="HH:MM",
                    help="when the nightly builds start (master's time)")
    ap.add_argument("--nightly-config", default=None,
                    help="config of the nightly builds (default: the "
                    "platform's, see DEFAULT_CONFIGS)")
    ap.add_argument("--wait", type=int, default=3600,
                    help="hilrun --wait: seconds to wait for a board held "
                    "outside Buildbot (a person at the bench, the daemon)")
    ap.add_argument("--master-hilrun", default=None, metavar="PATH",
                    help="the hilrun the master runs to import each build's "
                    "reports into its history (default: CHECKOUT/build/hilrun)")
    ap.add_argument("--history", default="hil-results/.history.sqlite",
                    metavar="FILE",
                    help="the master's run history (relative: to the "
                    "master's folder)")
    ap.add_argument("--commit", default="auto", metavar="SHA|auto|none",
                    help="the hilrun commit every build must run: a change's "
                    "revision (sendchange --revision) when it has one, else "
                    "this SHA, or with auto (the default) the commit of the "
                    "master's own checkout (--master-checkout) when the "
                    "build starts; a host whose checkout is at another "
                    "commit refuses the build (exit 2); none: not checked")
    ap.add_argument("--master-checkout", default=None, metavar="DIR",
                    help="the master's hilrun checkout, for --commit auto "
                    "(default: the folder above --master-hilrun's build/)")
    ap.add_argument("--runs-dir", default="", metavar="DIR",
                    help="where the hosts keep run folders, outside the "
                    "builds' clean step, one per board and build request "
                    "(default: hil-runs in the worker's folder)")
    ap.add_argument("--mail-to", action="append", default=[],
                    metavar="ADDR",
                    help="mail a nightly build that did not succeed "
                    "(rows failed, refused, transient, cancelled) to ADDR "
                    "(again for more); none: no mail")
    ap.add_argument("--mail-from", default="hilrun-lab@localhost",
                    metavar="ADDR", help="the notifications' sender")
    ap.add_argument("--smtp", default="localhost:25", metavar="HOST:PORT",
                    help="the mail relay the master sends through "
                    "(default localhost:25)")
    ap.add_argument("--title", default="hilrun lab")
    a = ap.parse_args()

    m = re.match(r"^([01]?\d|2[0-3]):([0-5]\d)$", a.nightly)
    if not m:
        fail("--nightly %s: expected HH:MM" % a.nightly)
    hosts = []
    seen = {}
    for arg in a.host:
        name, local, remote = parse_host(arg)
        if name in (h[0] for h in hosts):
            fail("--host %s: worker %s given twice" % (arg, name))
        boards = load_map(name, local)
        for bid, platform in boards:
            if bid in seen:
                fail("board id %s is on %s and on %s: ids name the "
                     "boards' locks and must be unique in the lab"
                     % (bid, seen[bid], name))
            if platform not in DEFAULT_CONFIGS and a.nightly_config is None:
                sys.stderr.write(
                    "gen-master-cfg: warning: board %s is a %s, which has "
                    "no default config: its builds need a config property\n"
                    % (bid, platform))
            seen[bid] = name
        hosts.append((name, remote, boards))
    if not seen:
        fail("no connected board in any map")
    if a.commit not in ("auto", "none") and \
            not re.match(r"^[0-9a-f]{7,40}$", a.commit):
        fail("--commit %s: expected a commit id (7 to 40 hex digits), "
             "auto or none" % a.commit)
    smtp_host, _, smtp_port = a.smtp.rpartition(":")
    if not smtp_host or not smtp_port.isdigit() or \
            not 0 < int(smtp_port) < 65536:
        fail("--smtp %s: expected HOST:PORT" % a.smtp)
    for addr in a.mail_to + [a.mail_from]:
        if not re.match(r"^[^@\s]+@[^@\s]+$", addr):
            fail("%s: expected a mail address" % addr)
    master_hilrun = a.master_hilrun or (a.checkout.rstrip("/") +
                                        "/build/hilrun")
    master_checkout = a.master_checkout or \
        os.path.dirname(os.path.dirname(os.path.abspath(master_hilrun)))

    lab = {
        "title": a.title,
        "checkout": a.checkout,
        "lock_dir": a.lock_dir,
        "port": a.port,
        "interface": a.interface,
        "nightly": [int(m.group(1)), int(m.group(2))],
        "nightly_config": a.nightly_config,
        "wait": a.wait,
        "master_hilrun": master_hilrun,
        "master_checkout": master_checkout,
        "commit": a.commit,
        "runs_dir": a.runs_dir,
        "mail": {"to": a.mail_to, "from": a.mail_from,
                 "host": smtp_host, "port": int(smtp_port)},
        "history": a.history,
        "default_configs": DEFAULT_CONFIGS,
        "hosts": [{"name": n, "map": r,
                   "boards": [{"id": i, "platform": p} for i, p in b]}
                  for n, r, b in hosts],
    }
    sys.stdout.write(TEMPLATE.replace(
        "@LAB@", json.dumps(lab, indent=4, sort_keys=True)))


TEMPLATE = r'''# -*- python -*-
# master.cfg for a hilrun lab, written by contrib/buildbot/gen-master-cfg.py
# from the hosts' hardware maps: edit the maps and run it again rather than
# editing this file. No web UI: Debian's buildbot has none (no buildbot-www).
import json
import os
import stat
import subprocess

from buildbot.plugins import changes, reporters, schedulers, steps, util, \
    worker

LAB = json.loads(r"""@LAB@""")

# hilrun's exit statuses (docs/lab.md) as build results. A transient
# failure (5: board busy, unreachable or lost) is EXCEPTION, the colour of
# infrastructure trouble; util.RETRY would have Buildbot run it again, with
# no limit, which a dead board would make endless.
DECODE_RC = {0: util.SUCCESS, 1: util.WARNINGS, 2: util.FAILURE,
             3: util.FAILURE, 4: util.CANCELLED, 5: util.EXCEPTION}


def read_passwords():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "workers.passwd")
    out = {}
    # The workers' passwords: readable by the master's user alone.
    mode = os.stat(path).st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ValueError("%s is mode %o: other users can read the workers' "
                         "passwords; chmod 600 it" % (path, mode & 0o777))
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, pw = line.partition(":")
                out[name] = pw
    return out


PASSWORDS = read_passwords()
MASTER_DIR = os.path.dirname(os.path.abspath(__file__))
HISTORY = os.path.join(MASTER_DIR, LAB["history"])
NIGHT_PAGE = os.path.join(MASTER_DIR, "hil-results", "night.html")
c = BuildmasterConfig = {}
c["title"] = LAB["title"]
c["buildbotNetUsageData"] = None
c["db"] = {"db_url": "sqlite:///state.sqlite"}
port = "tcp:%d" % LAB["port"]
if LAB["interface"]:
    port += ":interface=" + LAB["interface"]
c["protocols"] = {"pb": {"port": port}}
c["workers"] = [worker.Worker(h["name"], PASSWORDS[h["name"]],
                              max_builds=max(1, len(h["boards"])))
                for h in LAB["hosts"]]
# `buildbot sendchange --category BOARD [--property config:FILE]` asks for
# a build on one board ("all": every board; "BOARD-nightly": that board's
# nightly build now).
c["change_source"] = [changes.PBChangeSource(user="sendchange",
                                             passwd=PASSWORDS["sendchange"])]
c["schedulers"] = []
c["builders"] = []


def request_key(props):
    """The build request a run folder belongs to: a build retried after
    its worker was lost (RETRY) runs for the same requests and finds its
    interrupted run again; the oldest of collapsed ones."""
    build = props.getBuild()
    ids = [r.id for r in getattr(build, "requests", []) or []]
    return "req-%d" % min(ids) if ids else \
        "build-%s" % props.getProperty("buildnumber")


@util.renderer
def hilrun_command(props):
    board = props.getProperty("board")
    cfg = props.getProperty("config") or props.getProperty("default_config")
    if not os.path.isabs(cfg):
        cfg = os.path.join(LAB["checkout"], cfg)
    # setpriv --pdeathsig: the wrapper, and through it hilrun with QEMU or
    # OpenOCD, ends when the worker's process goes (kill -9, a crash):
    # hilrun writes a partial report, which the retried build resumes.
    return ["setpriv", "--pdeathsig", "TERM",
            os.path.join(LAB["checkout"], "contrib", "buildbot",
                         "hilrun-build.sh"),
            LAB["checkout"], board, request_key(props), cfg, str(LAB["wait"])]


@util.renderer
def named_commit(props):
    """The commit the master names: the change's revision, else --commit
    (auto: the master's checkout's HEAD now)."""
    rev = props.getProperty("revision")
    if rev:
        return rev
    if LAB["commit"] == "none":
        return ""
    if LAB["commit"] != "auto":
        return LAB["commit"]
    try:
        return subprocess.run(
            ["git", "-C", LAB["master_checkout"], "rev-parse", "HEAD"],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def factory(host):
    f = util.BuildFactory()
    dest = "hil-results/%(prop:buildername)s/%(prop:buildnumber)s"
    # The build's own folder only: the run folders are outside it (see
    # hilrun-build.sh), so that a retried build finds its run.
    f.addStep(steps.ShellCommand(
        name="clean", command=["rm", "-rf", "results", "result.json",
                               "junit.xml"], haltOnFailure=True))
    f.addStep(steps.ShellCommand(
        name="hilrun", command=hilrun_command, decodeRC=DECODE_RC,
        # HILRUN_HOST: the report names the lab host by its worker's
        # name, which is how the master's history lists it.
        env=dict({"HILRUN_BOARDS": host["map"],
                  "HILRUN_LOCK_DIR": LAB["lock_dir"],
                  "HILRUN_HOST": host["name"],
                  "HILRUN_COMMIT": named_commit},
                 **({"HILRUN_RUNS": LAB["runs_dir"]} if LAB["runs_dir"]
                    else {})),
        # A stop or a cancelled build: SIGTERM to the wrapper and hilrun,
        # which ends the row at once, stops QEMU/OpenOCD and writes the
        # report and the result file; KILL only if it has not exited a
        # minute later.
        interruptSignal="TERM", sigtermTime=60,
        timeout=3 * 3600, haltOnFailure=False))
    f.addStep(steps.FileUpload(
        name="result", workersrc="result.json",
        masterdest=util.Interpolate(dest + "/result.json"), alwaysRun=True))
    f.addStep(steps.FileUpload(
        name="junit", workersrc="junit.xml",
        masterdest=util.Interpolate(dest + "/junit.xml"), alwaysRun=True,
        flunkOnFailure=False, warnOnFailure=True))
    # The run folder once: not again through the "latest" link.
    f.addStep(steps.ShellCommand(
        name="drop latest link", command=["rm", "-f", "results/latest"],
        alwaysRun=True, flunkOnFailure=False))
    f.addStep(steps.DirectoryUpload(
        name="run folder", workersrc="results",
        masterdest=util.Interpolate(dest + "/results"), alwaysRun=True,
        flunkOnFailure=False, warnOnFailure=True))
    # On the master: the uploaded run into the lab's history. An argv
    # list, no shell: the folder is the builder's name and number, and
    # hilrun reads what a worker uploaded as untrusted (a report it
    # cannot read is refused by name: WARNINGS, the run stays on disk).
    f.addStep(steps.MasterShellCommand(
        name="history", command=[
            LAB["master_hilrun"], "history", "import", "--db", HISTORY,
            util.Interpolate(os.path.join(MASTER_DIR, dest, "results"))],
        alwaysRun=True, flunkOnFailure=False, warnOnFailure=True,
        logEnviron=False))
    # The night's page, regenerated after each import: per board the
    # newest run, failed rows, compare's verdicts against the run before,
    # links to the reports (relative: serve hil-results/ over HTTP).
    f.addStep(steps.MasterShellCommand(
        name="night page", command=[
            LAB["master_hilrun"], "history", "--db", HISTORY, "--html",
            NIGHT_PAGE],
        alwaysRun=True, flunkOnFailure=False, warnOnFailure=True,
        logEnviron=False))
    return f


hour, minute = LAB["nightly"]
NIGHTLY_BUILDERS = [b["id"] + "-nightly" for h in LAB["hosts"]
                    for b in h["boards"]]
for host in LAB["hosts"]:
    f = factory(host)
    for b in host["boards"]:
        lock = util.MasterLock("board-" + b["id"])
        default = LAB["default_configs"].get(b["platform"], "")
        props = {"board": b["id"], "default_config": default}
        names = {"on-demand": b["id"], "nightly": b["id"] + "-nightly"}
        for kind, name in names.items():
            p = dict(props)
            if kind == "nightly" and LAB["nightly_config"]:
                p["default_config"] = LAB["nightly_config"]
            # Nightly requests that queued up while the host was down
            # collapse to the newest; on-demand ones are each run.
            c["builders"].append(util.BuilderConfig(
                name=name, workernames=[host["name"]], factory=f,
                properties=p, locks=[lock.access("exclusive")],
                collapseRequests=(kind == "nightly"),
                tags=[host["name"], b["platform"]]))
        c["schedulers"].append(schedulers.AnyBranchScheduler(
            name="on-demand-" + b["id"], treeStableTimer=None,
            change_filter=util.ChangeFilter(category=[b["id"], "all"]),
            builderNames=[names["on-demand"]]))
        # The nightly build now: sendchange --category BOARD-nightly.
        c["schedulers"].append(schedulers.AnyBranchScheduler(
            name="nightly-now-" + b["id"], treeStableTimer=None,
            change_filter=util.ChangeFilter(category=names["nightly"]),
            builderNames=[names["nightly"]]))
# Every board's nightly build at LAB["nightly"], and the same builders now
# on `buildbot sendchange --category nightly` (what the smoke test does).
c["schedulers"].append(schedulers.Nightly(
    name="nightly", builderNames=NIGHTLY_BUILDERS, hour=hour, minute=minute,
    onlyIfChanged=False))
c["schedulers"].append(schedulers.AnyBranchScheduler(
    name="nightly-now", treeStableTimer=None,
    change_filter=util.ChangeFilter(category="nightly"),
    builderNames=NIGHTLY_BUILDERS))
# A nightly build that did not succeed (rows failed: WARNINGS; refused or
# failed: FAILURE; transient: EXCEPTION; stopped: CANCELLED) is mailed.
if LAB["mail"]["to"]:
    c["services"] = [reporters.MailNotifier(
        fromaddr=LAB["mail"]["from"], sendToInterestedUsers=False,
        extraRecipients=LAB["mail"]["to"], relayhost=LAB["mail"]["host"],
        smtpPort=LAB["mail"]["port"],
        generators=[reporters.BuildStatusGenerator(
            mode=("failing", "warnings", "exception", "cancelled"),
            builders=NIGHTLY_BUILDERS)])]
'''

if __name__ == "__main__":
    main()
