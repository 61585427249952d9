#!/usr/bin/env python3
"""gen-slurm-nodes.py: slurm.conf lines for a lab, one Slurm node per board, from the hardware maps of its hosts.

    contrib/slurm/gen-slurm-nodes.py --host lab-a=maps/lab-a.json \\
        --host lab-b=maps/lab-b.json >> /etc/slurm/slurm.conf

Each connected board becomes `NodeName=<id> NodeHostname=<host> Port=<port>
CPUs=1 Features=<host>,<platform>`: a slurmd per board on its host
(`slurmd -N <id>`), each on a port of its own, and a partition whose nodes
are used by one job at a time (OverSubscribe=EXCLUSIVE). A job asks for a
board by id (`sbatch -w nucleo-1`) or by kind (`--constraint=nucleo-f401re`)
and finds the board it was granted in $SLURMD_NODENAME; contrib/slurm/
hilrun.sbatch passes it to `hilrun --board`, and takes the lab host's name
(HILRUN_HOST) from the node's first feature. docs/lab.md, "Slurm", has the
rest of slurm.conf. Every slurmd of one address gets a port of its own:
hosts that share an address (--addr, or one machine standing for two
hosts) count on from each other's ports; a host given twice is an error.
"""

import argparse
import json
import re
import sys

ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,63}$")


def fail(msg):
    sys.stderr.write("gen-slurm-nodes: %s\n" % msg)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(
        description="slurm.conf node and partition lines from hardware maps")
    ap.add_argument("--host", action="append", required=True,
                    metavar="NAME=MAP",
                    help="a lab host (its hostname) and its hardware map")
    ap.add_argument("--addr", action="append", default=[],
                    metavar="NAME=ADDR", help="NodeAddr of a host's nodes")
    ap.add_argument("--port-base", type=int, default=6820,
                    help="slurmd port of the first board of a host; the "
                    "next boards of that host count up (default 6820)")
    ap.add_argument("--partition", default="hil")
    a = ap.parse_args()

    addrs = {}
    for arg in a.addr:
        name, sep, addr = arg.partition("=")
        if not sep or not addr:
            fail("--addr %s: expected NAME=ADDR" % arg)
        if name in addrs:
            fail("--addr %s: host %s given twice" % (arg, name))
        addrs[name] = addr
    seen = {}
    lines = []
    hosts = set()
    next_port = {}  # address: the next free slurmd port on it
    for arg in a.host:
        name, sep, path = arg.partition("=")
        if not sep or not ID_RE.match(name) or not path:
            fail("--host %s: expected NAME=MAP" % arg)
        if name in hosts:
            fail("--host %s: host %s given twice (its slurmd would share "
                 "ports): one --host per host, its map listing all its "
                 "boards" % (arg, name))
        hosts.add(name)
        try:
            with open(path, encoding="utf-8") as f:
                boards = json.load(f)
        except (OSError, ValueError) as e:
            fail("host %s: %s: %s" % (name, path, e))
        if not isinstance(boards, list):
            fail("%s: expected a JSON array of boards" % path)
        where = addrs.get(name, name)
        port = next_port.get(where, a.port_base)
        for i, b in enumerate(boards):
            bid = b.get("id") if isinstance(b, dict) else None
            platform = b.get("platform") if isinstance(b, dict) else None
            if not isinstance(bid, str) or not ID_RE.match(bid):
                fail("%s: [%d].id: expected 1 to 63 characters from "
                     "A-Z a-z 0-9 . _ -" % (path, i))
            if not isinstance(platform, str) or not ID_RE.match(platform):
                fail("%s: [%d].platform: expected a board name" % (path, i))
            if b.get("connected", True) is False:
                continue
            if bid in seen:
                fail("board id %s is on %s and on %s: ids must be unique "
                     "in the lab" % (bid, seen[bid], name))
            seen[bid] = name
            addr = " NodeAddr=" + addrs[name] if name in addrs else ""
            lines.append("NodeName=%s NodeHostname=%s%s Port=%d CPUs=1 "
                         "Features=%s,%s State=UNKNOWN"
                         % (bid, name, addr, port, name, platform))
            port += 1
        next_port[where] = port
    if not lines:
        fail("no connected board in any map")
    print("# One node per board (contrib/slurm/gen-slurm-nodes.py).")
    print("\n".join(lines))
    print("PartitionName=%s Nodes=%s Default=YES OverSubscribe=EXCLUSIVE "
          "MaxTime=INFINITE State=UP" % (a.partition, ",".join(seen)))


if __name__ == "__main__":
    main()
