#!/usr/bin/python3
"""Subsample OpenQuake's GMPE verification tables for tests/data/gmpe (see NOTES.md).

    subsample_oq.py MODEL OUTPREFIX TABLE_KIND=PATH ...

MODEL is cb14, ask14 or bssa14. Rows are chosen from the first table greedily until every pair of the
model's listed scenario features (below) whose combination the full table has is covered by a
kept row; then every STEP-th row of the table is added (deterministic spread). The same rows
(the tables share their scenarios, checked) are written from each table to
OUTPREFIX_KIND.csv, header unchanged, rows unchanged and in their order."""
import csv
import math
import sys


def hw_cb14(d):
    rx, w, dip = float(d["dist_rx"]), float(d["rup_width"]), float(d["rup_dip"])
    r1 = w * math.cos(math.radians(dip))
    return "footwall" if rx < 0 else "hw<R1" if rx < r1 else "hw>=R1"


MODELS = {
    "cb14": {
        "features": {
            "M": lambda d: d["rup_mag"],
            "rake": lambda d: d["rup_rake"],
            "dip": lambda d: d["rup_dip"],
            "ztor": lambda d: d["rup_ztor"],
            "vs30": lambda d: d["site_vs30"],
            "z2.5": lambda d: d["site_z2pt5"],
            "hw": hw_cb14,
            "rrup": lambda d: "0" if float(d["dist_rrup"]) == 0
            else "<80" if float(d["dist_rrup"]) <= 80 else ">80",
            "zhyp": lambda d: str(min(2, int(float(d["rup_hypo_depth"]) // 7))),
        },
        "pairs": [("M", "hw"), ("M", "vs30"), ("vs30", "z2.5"), ("dip", "hw"), ("ztor", "hw"),
                  ("rake", "M"), ("M", "rrup"), ("M", "zhyp"), ("M", "dip"), ("vs30", "rrup")],
        "step": 600,
    },
    "bssa14": {
        "features": {
            "M": lambda d: d["rup_mag"],
            "rake": lambda d: d["rup_rake"],
            "rjb": lambda d: d["dist_rjb"],
            "site": lambda d: d["site_vs30"] + "/" + d["site_z1pt0"],
        },
        "pairs": [("M", "site"), ("rake", "M"), ("rjb", "site"), ("M", "rjb"), ("rake", "site")],
        "step": 100,
    },
    "ask14": {
        "features": {
            "M": lambda d: d["rup_mag"],
            "rake": lambda d: d["rup_rake"],
            "rrup": lambda d: d["dist_rrup"],
            "rx": lambda d: d["dist_rx"],
            "ry0": lambda d: d["dist_ry0"],
            "vs30": lambda d: d["site_vs30"],
            "z1": lambda d: d["site_z1pt0"],
        },
        "pairs": [("M", "rx"), ("M", "vs30"), ("vs30", "z1"), ("rake", "M"), ("M", "rrup"),
                  ("rx", "ry0"), ("rrup", "rx"), ("vs30", "rrup"), ("M", "ry0"), ("M", "z1")],
        "step": 400,
    },
}


def read(path):
    rows = list(csv.reader(open(path, newline="")))
    return rows[0], rows[1:]


def main():
    model, prefix, tables = MODELS[sys.argv[1]], sys.argv[2], sys.argv[3:]
    kinds = [t.split("=", 1) for t in tables]
    head, body = read(kinds[0][1])
    names = [h.strip() for h in head]
    ncond = names.index("result_type")
    feats = []
    for r in body:
        d = {h: v.strip() for h, v in zip(names, r)}
        feats.append({(a, model["features"][a](d), b, model["features"][b](d))
                      for a, b in model["pairs"]})
    need = set().union(*feats)
    kept, covered = [], set()
    while covered != need:
        best = max(range(len(body)), key=lambda i: (len(feats[i] - covered), -i))
        kept.append(best)
        covered |= feats[best]
    kept = sorted(set(kept) | set(range(0, len(body), model["step"])))
    for kind, path in kinds:
        h, b = read(path)
        assert len(b) == len(body) and all(x[:ncond] == y[:ncond] for x, y in zip(b, body))
        with open(f"{prefix}_{kind}.csv", "w", newline="") as out:
            w = csv.writer(out, lineterminator="\n")
            w.writerow(h)
            for i in kept:
                w.writerow(b[i])
    print(f"{len(kept)} of {len(body)} rows ({len(need)} feature pairs covered)")


if __name__ == "__main__":
    main()
