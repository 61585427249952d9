#!/usr/bin/env python3
# nist_model.py: compares hilrun's cycle-model estimates with the NIST LWC benchmark's published nRF52840 (Nano 33 BLE) counts, and fits the nRF52840 memory-system parameters on the training finalists only (docs/cycle-model.md, "NIST LWC, Nano 33 BLE").
#
# Usage (scripts/validate-nist.sh runs it):
#   nist_model.py compare CSV IMPL_DIR REPORT... [--profile P] [--ws N]
#                                               [--opt o1|os|o2|o3]
#   nist_model.py residuals CSV IMPL_DIR REPORT... [--profile P] [--ws N]
#   nist_model.py fit CSV IMPL_DIR REPORT... [--on asm|C|all] [--out FIT.json]
# compare --opt compares runs built at another level with the CSV's rows of
# that level (default o2); residuals prints, per implementation, the
# median error, its range, and how it moves with the message and the AD
# length (training finalists only).
# REPORTs are hilrun report.json files of runs under any profiles (each
# says its own): fit chooses the profile (cache hypothesis) and the wait
# states that explain the published points best, and cross-validates.
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
#  the profile: the instruction cache (host/drivers/board/memsys.c): none
#      (nrf52840-nocache), 1, 2 or 4 KB 2-way LRU of 16-byte lines
#      (nrf52840-fit-1k/2k/4k), or one that keeps every line
#      (nrf52840-icache); the nRF52840's is not documented;
#  ws: wait states of a flash read at 64 MHz that no cache serves
#      (instruction fetches that miss, every constant/table read over
#      DCODE): not documented either; 0..4.
WS_GRID = [0, 1, 2, 3, 4]


def submission_of(folder):
    """The CSV's submission name for a folder of implementations/."""
    return folder.replace("-", "")


def load_csv(path, finalists, opt="o2"):
    """{(variant, impl, op, ad, msg): cycles} of the rows of finalists at
    optimisation level opt (the CSV's config column: o1, os, o2, o3)."""
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
            if row[0] not in want or row[4] != opt:
                continue
            for i, op, ad, msg in cols:
                if i < len(row) and re.match(r"^\d+(\.\d+)?$",
                                             row[i].strip()):
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
            # an asm statement with code (asm("" ::: "memory") is a
            # compiler barrier, not code)
            if re.search(r"\b(__asm__|asm)\s*(volatile|__volatile__)?\s*"
                         r"\(\s*(?!\"\")", t):
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


_FIN = {}


def finalist_of_variant(variant, impl_dir):
    """The finalist whose crypto_aead/ has the variant folder, or None."""
    if variant not in _FIN:
        _FIN[variant] = None
        for f in TRAINING + VALIDATION:
            if os.path.isdir(os.path.join(impl_dir, f, "crypto_aead",
                                          variant)):
                _FIN[variant] = f
                break
    return _FIN[variant]


def load_rows(paths, impl_dir):
    """{profile: {(finalist, variant, impl, op, ad, msg): parts}}."""
    out = {}
    for p in paths:
        with open(p) as f:
            rep = json.load(f)
        fin_all = finalist_of_report(rep, impl_dir)
        prof = (rep.get("cycle_model") or {}).get("profile") or "none"
        d = out.setdefault(prof, {})
        for r in rep.get("rows", []):
            # A report may hold several finalists' trees: each row's own.
            fin = finalist_of_variant(r["algorithm"], impl_dir) or fin_all
            mc = r.get("model_cycles")
            if r.get("status", "ok") != "ok" or not isinstance(mc, dict):
                continue
            if mc.get("median") is None:
                continue
            d[(fin, r["algorithm"], r["implementation"], r["operation"],
               r.get("ad_len", 0), r["msg_len"])] = parts(r)
    return out


def parts(row):
    """What the estimate is made of, from one emulated row."""
    mc = row["model_cycles"]
    miss = mc.get("cache_misses") or {}
    return {
        "cycles": float(mc["median"]),
        "flash": float(mc.get("flash_wait_cycles") or 0),
        "misses": float(miss.get("instruction") or 0) +
        float(miss.get("data") or 0),
    }


def predict(c, ws):
    """The estimate at ws wait states: the run's cycles without its flash
    waits, plus each miss (instruction fetches the cache did not hold,
    every constant read from flash: no data cache) waiting ws cycles."""
    return c["cycles"] - c["flash"] + ws * c["misses"]


def score(pts, ws):
    """Mean |log(model/published)|, each implementation weighted alike."""
    per = {}
    for k, p, c in pts:
        e = abs(math.log(max(predict(c, ws), 1.0) / p))
        per.setdefault(k[:3], []).append(e)
    return sum(sum(v) / len(v) for v in per.values()) / max(len(per), 1)


def fit(by_prof, pub, keep):
    """The (profile, ws) that explains the published points best, over
    the points keep(key) accepts."""
    best = None
    for prof, rows in sorted(by_prof.items()):
        pts = [(k, pub[k], c) for k, c in rows.items()
               if k in pub and keep(k)]
        if not pts:
            continue
        for ws in WS_GRID:
            sc = score(pts, ws)
            if best is None or sc < best["score"]:
                best = {"profile": prof, "ws": ws, "score": sc}
    return best


def pct(x, q):
    xs = sorted(x)
    if not xs:
        return None
    i = min(len(xs) - 1, int(math.ceil(q * len(xs))) - 1)
    return xs[max(i, 0)]


def cross_validate(by_prof, pub, impl_dir, finalists, on):
    """Leave one finalist out: fit on the others' points that on() accepts,
    errors on all of the held-out finalist's."""
    errs = {"C": [], "asm": []}
    folds = []
    for held in finalists:
        f = fit(by_prof, pub, lambda k: k[0] != held and on(k))
        fe = {"C": [], "asm": []}
        for k, c in by_prof[f["profile"]].items():
            if k[0] != held or k not in pub:
                continue
            e = abs(predict(c, f["ws"]) / pub[k] - 1.0)
            kind = kind_of(impl_dir, k)
            fe[kind].append(e)
            errs[kind].append(e)
        folds.append({"held_out": held, "profile": f["profile"],
                      "ws": f["ws"], "p90_C": pct(fe["C"], 0.9),
                      "p90_asm": pct(fe["asm"], 0.9), "n_C": len(fe["C"]),
                      "n_asm": len(fe["asm"])})
    return {"folds": folds,
            "p90_C": pct(errs["C"], 0.9), "p90_asm": pct(errs["asm"], 0.9),
            "median_C": pct(errs["C"], 0.5),
            "median_asm": pct(errs["asm"], 0.5),
            "n_C": len(errs["C"]), "n_asm": len(errs["asm"])}


_ASM = {}


def kind_of(impl_dir, k):
    """"asm" or "C" for the implementation of point key k."""
    if k[:3] not in _ASM:
        _ASM[k[:3]] = is_assembly(impl_dir, *k[:3])
    return "asm" if _ASM[k[:3]] else "C"


def fmt_pct(x):
    return "-" if x is None else "%.1f %%" % (100 * x)


def residuals(by_prof, pub, impl_dir, opt):
    """Per implementation: kind, points, median error, range, and the mean
    error at the shortest and longest message (AD 0) and AD (message 0):
    a residual that stays put over the lengths is the code's per-call or
    per-byte cost, not a cache or start-up effect."""
    ws = int(opt["ws"]) if "ws" in opt else None
    for prof in [opt["profile"]] if "profile" in opt else sorted(by_prof):
        rows = by_prof.get(prof, {})
        per = {}
        for k, c in rows.items():
            if k in pub:
                m = c["cycles"] if ws is None else predict(c, ws)
                per.setdefault(k[:3], []).append((k, m / pub[k] - 1.0))
        print("# profile %s%s: residuals per implementation (-O2)" %
              (prof, "" if ws is None else ", %d WS" % ws))
        print("kind\tfinalist\tvariant\timpl\tpoints\tmedian\trange\t"
              "msg min->max (AD 0)\tAD min->max (msg 0)")
        for key in sorted(per, key=lambda x: (kind_of(impl_dir, x), x)):
            es = sorted(e for _, e in per[key])

            def at(sel):
                d = {}
                for k, e in per[key]:
                    if sel(k):
                        d.setdefault(k[4] + k[5], []).append(e)
                if not d:
                    return "-"
                lo, hi = min(d), max(d)
                return "%+.0f %% -> %+.0f %%" % (
                    100 * sum(d[lo]) / len(d[lo]),
                    100 * sum(d[hi]) / len(d[hi]))
            print("%s\t%s\t%s\t%s\t%d\t%+.1f %%\t%+.0f .. %+.0f %%\t%s\t%s" %
                  (kind_of(impl_dir, key), key[0], key[1], key[2], len(es),
                   100 * pct(es, 0.5), 100 * es[0], 100 * es[-1],
                   at(lambda k: k[4] == 0), at(lambda k: k[5] == 0)))
        print()
    return 0


def main(argv):
    if len(argv) < 5 or argv[1] not in ("fit", "compare", "residuals"):
        sys.stderr.write("usage: nist_model.py fit|compare|residuals CSV "
                         "IMPL_DIR REPORT... [--profile P --ws N --opt O] "
                         "[--out F]\n")
        return 2
    mode, csv_path, impl_dir = argv[1], argv[2], argv[3]
    paths, opt = [], {}
    i = 4
    while i < len(argv):
        if argv[i].startswith("--"):
            opt[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    by_prof = load_rows(paths, impl_dir)
    finalists = sorted({k[0] for rows in by_prof.values() for k in rows
                        if k[0]})
    if mode == "fit":
        bad = [f for f in finalists if f not in TRAINING]
        if bad:
            sys.stderr.write("fit: %s not in the training set\n" % bad)
            return 2
        pub = load_csv(csv_path, finalists)
        # Fitted on the assembly points by default: the same instructions
        # ran on the board, so their residuals are the memory system's; a
        # C point's also hold the compiler's (GCC 7 there, 12 here).
        on_kind = opt.get("on", "asm")
        on = (lambda k: True) if on_kind == "all" else (
            lambda k: kind_of(impl_dir, k) == on_kind)
        f = fit(by_prof, pub, on)
        f["fitted_on"] = on_kind
        cv = cross_validate(by_prof, pub, impl_dir, finalists, on)
        grid = []
        for prof, rows in sorted(by_prof.items()):
            pts = [(k, pub[k], c) for k, c in rows.items()
                   if k in pub and on(k)]
            grid.append({"profile": prof, "points": len(pts),
                         "score_by_ws": {ws: round(score(pts, ws), 4)
                                         for ws in WS_GRID}})
        res = {"training": finalists, "fit": f, "grid": grid,
               "cross_validation": cv}
        print(json.dumps(res, indent=1))
        if "out" in opt:
            with open(opt["out"], "w") as o:
                json.dump(res, o, indent=1)
        return 0
    if mode == "residuals":
        bad = [f for f in finalists if f not in TRAINING]
        if bad:
            sys.stderr.write("residuals: %s not in the training set\n" % bad)
            return 2
        return residuals(by_prof, load_csv(csv_path, finalists), impl_dir,
                         opt)
    level = opt.get("opt", "o2")
    if level not in ("o1", "os", "o2", "o3"):
        sys.stderr.write("--opt: o1, os, o2 or o3\n")
        return 2
    pub = load_csv(csv_path, finalists, level)
    ws = int(opt["ws"]) if "ws" in opt else None
    profs = [opt["profile"]] if "profile" in opt else sorted(by_prof)
    asm = {}
    for prof in profs:
        rows = by_prof.get(prof, {})
        print("# profile %s%s: model against published (Nano 33 BLE, -%s)" %
              (prof, "" if ws is None else ", %d WS" % ws, level.upper()))
        print("set\tkind\tfinalist\tvariant\timpl\top\tad\tmsg\t"
              "published\tmodel\terror")
        summ = {}
        for k in sorted(rows, key=lambda x: tuple(map(str, x))):
            if k not in pub:
                continue
            c, p = rows[k], pub[k]
            m = c["cycles"] if ws is None else predict(c, ws)
            if k[:3] not in asm:
                asm[k[:3]] = is_assembly(impl_dir, *k[:3])
            kind = "asm" if asm[k[:3]] else "C"
            st = "training" if k[0] in TRAINING else "validation"
            e = m / p - 1.0
            summ.setdefault((st, kind), []).append(abs(e))
            print("%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%+.1f %%" %
                  (st, kind, k[0], k[1], k[2], k[3], k[4], k[5], p, m,
                   100 * e))
        print()
        print("set\tkind\tpoints\tmedian |error|\t90th pct\tworst\t"
              "within bound (asm 10 %, C 15 %)")
        for (st, kind), es in sorted(summ.items()):
            bound = 0.10 if kind == "asm" else 0.15
            print("%s\t%s\t%d\t%s\t%s\t%s\t%d of %d" %
                  (st, kind, len(es), fmt_pct(pct(es, 0.5)),
                   fmt_pct(pct(es, 0.9)), fmt_pct(max(es)),
                   sum(1 for x in es if x <= bound), len(es)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
