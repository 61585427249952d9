#!/usr/bin/env python3
# nist_model.py: compares hilrun's cycle-model estimates with the NIST LWC benchmark's published nRF52840 (Nano 33 BLE) counts, and fits the nRF52840 memory-system parameters on the training finalists only (docs/cycle-model.md, "NIST LWC, Nano 33 BLE").
#
# Usage (scripts/validate-nist.sh runs it):
#   nist_model.py compare CSV IMPL_DIR PROFILE=REPORT... [--fit FIT.json]
#   nist_model.py fit CSV IMPL_DIR ICACHE_REPORT... -- NOCACHE_REPORT... [--out FIT.json]
#
# CSV is the checkout's benchmarks/nano33ble-aead-summary.csv, IMPL_DIR its
# implementations/ folder (to tell assembly from C). Reading the CSV, only
# the rows of the finalists whose reports are given are used: the fit reads
# the training finalists' rows and no other.
import csv
import json
import math
import os
import re
import sys

TRAINING = ["ascon", "gift-cofb", "tinyjambu", "sparkle", "xoodyak"]
VALIDATION = ["elephant", "grain128aead", "isap", "photon-beetle", "romulus"]

# The fit's grid: the physical parameters and the range each may take.
#  ws: wait states of a flash read at 64 MHz that no cache serves
#      (instruction fetches that miss, every constant/table read over DCODE).
#      The nRF52840 documents give no figure: 0..4.
#  lines: the instruction cache's capacity in 16-byte lines (the nRF5340's
#      line; the nRF52840's size is not documented): 0 (off) .. 1024 (16 KB).
WS_GRID = [0, 1, 2, 3, 4]
LINES_GRID = [0, 32, 64, 128, 256, 512, 1024, None]  # None: unbounded


def submission_of(folder):
    """The CSV's submission name for a folder of implementations/."""
    return folder.replace("-", "")


def load_csv(path, finalists):
    """{(variant, impl, op, ad, msg): cycles} of the -O2 rows of finalists."""
    want = {submission_of(f): f for f in finalists}
    out = {}
    with open(path, newline="") as f:
        rd = csv.reader(f)
        head = next(rd)
        cols = []
        for i, h in enumerate(head):
            m = re.match(r"(enc|dec)\((\d+):(\d+)\)$", h)
            if m:
                cols.append((i, m.group(1), int(m.group(2)), int(m.group(3))))
        for row in rd:
            if row[0] not in want or row[4] != "o2":
                continue
            for i, op, ad, msg in cols:
                if i < len(row) and row[i].strip():
                    out[(want[row[0]], row[1], row[3],
                         "encrypt" if op == "enc" else "decrypt", ad,
                         msg)] = float(row[i])
    return out


def is_assembly(impl_dir, finalist, variant, impl):
    """Assembly: a .s/.S file, an ARM lwc_arch_* marker or inline asm."""
    d = os.path.join(impl_dir, finalist, "crypto_aead", variant, impl)
    try:
        names = os.listdir(d)
    except OSError:
        return False
    for n in names:
        if n.endswith((".s", ".S")) or n.startswith("lwc_arch_arm"):
            return True
    for n in names:
        if n.endswith((".c", ".h")):
            try:
                with open(os.path.join(d, n), errors="replace") as f:
                    t = f.read()
            except OSError:
                continue
            if re.search(r"\b(__asm__|asm)\s*(volatile|__volatile__)?\s*\(",
                         t):
                return True
    return False


def finalist_of_report(rep, impl_dir):
    """Which finalist a report's trees are (from its variant folders)."""
    vs = {r["algorithm"] for r in rep.get("rows", [])}
    for f in TRAINING + VALIDATION:
        d = os.path.join(impl_dir, f, "crypto_aead")
        if os.path.isdir(d) and vs & set(os.listdir(d)):
            return f
    return None


def load_rows(paths, impl_dir):
    """{(finalist, variant, impl, op, ad, msg): row} of the reports."""
    out = {}
    for p in paths:
        with open(p) as f:
            rep = json.load(f)
        fin = finalist_of_report(rep, impl_dir)
        for r in rep.get("rows", []):
            mc = r.get("model_cycles")
            if r.get("status", "ok") != "ok" or not isinstance(mc, dict):
                continue
            if mc.get("median") is None:
                continue
            out[(fin, r["algorithm"], r["implementation"], r["operation"],
                 r.get("ad_len", 0), r["msg_len"])] = r
    return out


def parts(row):
    """The terms of the calibrated estimate from one emulated row."""
    mc = row["model_cycles"]
    miss = mc.get("cache_misses") or {}
    lines = mc.get("lines_touched") or {}
    return {
        "cycles": float(mc["median"]),
        "flash": float(mc.get("flash_wait_cycles") or 0),
        "imiss": float(miss.get("instruction") or 0),
        "dmiss": float(miss.get("data") or 0),
        "code_lines": float(lines.get("code") or 0),
    }


def predict(c, n, ws, lines):
    """Estimate at ws wait states and an I-cache of `lines` lines.

    c: the row under the unbounded-cache profile, n: under the no-cache
    profile (same code, same run); both at the ws the runs used, wsrun.
    The execution without flash waits is c.cycles - c.flash. Misses: the
    data reads always (no data cache: ICACHECNF caches ICODE only); the
    instruction fetches the unbounded cache missed, plus, when the code
    the run touched is larger than the cache, that share of the fetches
    the uncached run made (a loop larger than an LRU cache misses on every
    line; code that fits misses nothing once warm).
    """
    base = c["cycles"] - c["flash"]
    if lines is None:
        extra = 0.0
    elif lines == 0:
        extra = n["imiss"] - c["imiss"]
    else:
        share = max(0.0, 1.0 - lines / c["code_lines"]) if c[
            "code_lines"] > 0 else 0.0
        extra = (n["imiss"] - c["imiss"]) * share
    return base + ws * (c["dmiss"] + c["imiss"] + extra)


def points(pub, cache_rows, nocache_rows):
    """[(key, published, c, n)] where all three exist."""
    out = []
    for k, c in cache_rows.items():
        pk = k
        if pk not in pub or k not in nocache_rows:
            continue
        out.append((k, pub[pk], parts(c), parts(nocache_rows[k])))
    return out


def score(pts, ws, lines):
    """Mean |log(model/published)|, each implementation weighted alike."""
    per = {}
    for k, p, c, n in pts:
        e = abs(math.log(max(predict(c, n, ws, lines), 1.0) / p))
        per.setdefault(k[:3], []).append(e)
    return sum(sum(v) / len(v) for v in per.values()) / max(len(per), 1)


def fit(pts):
    best = None
    for ws in WS_GRID:
        for lines in LINES_GRID:
            s = score(pts, ws, lines)
            if best is None or s < best[0]:
                best = (s, ws, lines)
    return {"ws": best[1], "lines": best[2], "score": best[0]}


def pct(x, q):
    xs = sorted(x)
    if not xs:
        return None
    i = min(len(xs) - 1, int(math.ceil(q * len(xs))) - 1)
    return xs[max(i, 0)]


def cross_validate(pts, impl_dir):
    """Leave one finalist out: fit on the others, errors on it."""
    errs = {"C": [], "asm": []}
    folds = []
    for held in sorted({k[0] for k, _, _, _ in pts}):
        train = [x for x in pts if x[0][0] != held]
        test = [x for x in pts if x[0][0] == held]
        f = fit(train)
        fe = {"C": [], "asm": []}
        for k, p, c, n in test:
            e = abs(predict(c, n, f["ws"], f["lines"]) / p - 1.0)
            kind = "asm" if is_assembly(impl_dir, *k[:3]) else "C"
            fe[kind].append(e)
            errs[kind].append(e)
        folds.append({"held_out": held, "ws": f["ws"], "lines": f["lines"],
                      "p90_C": pct(fe["C"], 0.9),
                      "p90_asm": pct(fe["asm"], 0.9)})
    return {"folds": folds,
            "p90_C": pct(errs["C"], 0.9), "p90_asm": pct(errs["asm"], 0.9),
            "median_C": pct(errs["C"], 0.5),
            "median_asm": pct(errs["asm"], 0.5),
            "n_C": len(errs["C"]), "n_asm": len(errs["asm"])}


def split_args(argv):
    a, b, opt = [], [], {}
    cur = a
    i = 0
    while i < len(argv):
        if argv[i] == "--":
            cur = b
        elif argv[i].startswith("--"):
            opt[argv[i][2:]] = argv[i + 1]
            i += 1
        else:
            cur.append(argv[i])
        i += 1
    return a, b, opt


def fmt_pct(x):
    return "-" if x is None else "%.1f %%" % (100 * x)


def main(argv):
    if len(argv) < 4 or argv[1] not in ("fit", "compare"):
        sys.stderr.write(__doc__ if __doc__ else "usage: see the file\n")
        return 2
    mode, csv_path, impl_dir = argv[1], argv[2], argv[3]
    a, b, opt = split_args(argv[4:])
    cache = load_rows(a, impl_dir)
    nocache = load_rows(b, impl_dir)
    finalists = sorted({k[0] for k in cache if k[0]})
    if mode == "fit":
        bad = [f for f in finalists if f not in TRAINING]
        if bad:
            sys.stderr.write("fit: %s not in the training set\n" % bad)
            return 2
        pub = load_csv(csv_path, finalists)
        pts = points(pub, cache, nocache)
        f = fit(pts)
        cv = cross_validate(pts, impl_dir)
        res = {"training": finalists, "points": len(pts), "fit": f,
               "cross_validation": cv}
        print(json.dumps(res, indent=1))
        if "out" in opt:
            with open(opt["out"], "w") as o:
                json.dump(res, o, indent=1)
        return 0
    # compare: every point, model (fitted, when given) against published
    pub = load_csv(csv_path, finalists)
    f = None
    if "fit" in opt:
        with open(opt["fit"]) as fh:
            f = json.load(fh)
    pts = points(pub, cache, nocache) if nocache else [
        (k, pub[k], parts(r), None) for k, r in cache.items() if k in pub]
    print("set\tkind\tfinalist\tvariant\timpl\top\tad\tmsg\tpublished\t"
          "model\terror")
    summ = {}
    for k, p, c, n in sorted(pts, key=lambda x: tuple(map(str, x[0]))):
        if f is not None and n is not None:
            m = predict(c, n, f["fit"]["ws"], f["fit"]["lines"])
        else:
            m = c["cycles"]
        kind = "asm" if is_assembly(impl_dir, *k[:3]) else "C"
        st = "training" if k[0] in TRAINING else "validation"
        e = m / p - 1.0
        summ.setdefault((st, kind), []).append(abs(e))
        print("%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%+.1f %%" %
              (st, kind, k[0], k[1], k[2], k[3], k[4], k[5], p, m, 100 * e))
    print()
    print("set\tkind\tpoints\tmedian |error|\t90th pct\tworst\twithin bound")
    for (st, kind), es in sorted(summ.items()):
        bound = 0.10 if kind == "asm" else 0.15
        print("%s\t%s\t%d\t%s\t%s\t%s\t%d of %d" %
              (st, kind, len(es), fmt_pct(pct(es, 0.5)), fmt_pct(pct(es, 0.9)),
               fmt_pct(max(es)), sum(1 for x in es if x <= bound), len(es)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
