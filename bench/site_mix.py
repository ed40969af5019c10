#!/usr/bin/env python3
"""A site's extraction cost from bench/extract_bench.c's rates at a few rupture sizes.

The speed-up of one GPU over one CPU core differs with the rupture's size (the per-variation
costs are not proportional), so a site's speed-up is the ratio of the two back ends' whole-site
times: each rupture's variations (the generator's rule, rupgen_plan: hypocentres every
--hypo-spacing km along strike and down dip, at least 3 each, at most one a point, times
--slips) at a per-variation time interpolated linearly in the rupture's points between the
measured sizes (held at the largest's beyond it, extended from the two smallest below them).

  python3 bench/site_mix.py STUDY.sqlite SITE LOG... [--cores LOG...] [--hypo-spacing 20]
                            [--slips 2]

STUDY has the site's planned ruptures (CyberShake_Site_Ruptures, as `cybershake plan` writes
them); each LOG is extract_bench's output at one size (its first line names the subfaults; the
CPU core's rate is its "case frequency" line, the GPU's its "rupture times on the device" line,
else its "measures on the device" line). A rupture of fewer variations than a batch (--batch)
takes the rate of the log's "in messages of N ruptures" (the extractor's groups of small
ruptures) where the log has one: most of a site's variations are on such ruptures. A core's rate over a few variations moves by 10% or more
from one run to the next on the same node; --cores pools the one-core rates of more runs of the
same CPU code (other builds of the GPU part, the same node) and takes the median at each size.
"""
import argparse
import math
import re
import sqlite3
import statistics
import sys


def along(npoints, length_km, spacing, least=3):
    n = int(math.floor(length_km / spacing + 0.5))  # lround, as rupgen.c
    return min(max(n, least), npoints)


def read_core(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    m = re.search(r"= (\d+) subfaults", text)
    core = re.search(r"case frequency: ([\d.]+) variations/s per core", text)
    if not (m and core):
        sys.exit(f"{path}: no subfaults or core rate in it")
    return int(m.group(1)), float(core.group(1))


def read_log(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    m = re.search(r"= (\d+) subfaults", text)
    core = re.search(r"case frequency: ([\d.]+) variations/s per core", text)
    gpu = re.search(r"rupture times on the device: ([\d.]+) variations/s", text) or re.search(
        r"measures on the device: ([\d.]+) variations/s", text)
    if not (m and core and gpu):
        sys.exit(f"{path}: no subfaults, core rate or GPU rate in it")
    small = re.search(r"in messages of \d+ ruptures \([^)]*\): ([\d.]+)", text)
    g = float(gpu.group(1))
    return int(m.group(1)), float(core.group(1)), g, float(small.group(1)) if small else g


def per_variation(points, sizes, seconds):
    """Linear in points through the measured (sizes, seconds), sizes ascending."""
    if points >= sizes[-1]:
        return seconds[-1]
    i = 0
    while i + 2 < len(sizes) and points > sizes[i + 1]:
        i += 1
    slope = (seconds[i + 1] - seconds[i]) / (sizes[i + 1] - sizes[i])
    return max(seconds[i] + slope * (points - sizes[i]), 0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study")
    ap.add_argument("site")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--cores", nargs="+", default=[])
    ap.add_argument("--hypo-spacing", type=float, default=20.0)
    ap.add_argument("--slips", type=int, default=2)
    ap.add_argument("--batch", type=int, default=128)
    a = ap.parse_args()
    rates = sorted(read_log(p) for p in a.logs)
    if a.cores:
        pooled = {}
        for n, c in [read_core(p) for p in a.cores] + [(r[0], r[1]) for r in rates]:
            pooled.setdefault(n, []).append(c)
        for n in sorted(pooled):
            print(f"  one core at {n} points, {len(pooled[n])} runs: median "
                  f"{statistics.median(pooled[n]):.2f}, {min(pooled[n]):.2f} to "
                  f"{max(pooled[n]):.2f} variations/s")
        rates = [(n, statistics.median(pooled[n]), g, sm) for n, _, g, sm in rates]
    if len(rates) < 2:
        sys.exit("needs the rates at two sizes or more")
    sizes = [r[0] for r in rates]
    core = [1.0 / r[1] for r in rates]
    gpu = [1.0 / r[2] for r in rates]
    gpu_small = [1.0 / r[3] for r in rates]
    db = sqlite3.connect(f"file:{a.study}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT r.Num_Rows, r.Num_Columns, r.Grid_Spacing FROM CyberShake_Site_Ruptures s "
        "JOIN CyberShake_Sites USING (CS_Site_ID) JOIN Ruptures r USING (ERF_ID, Source_ID, "
        "Rupture_ID) WHERE CS_Short_Name = ?", (a.site,)).fetchall()
    if not rows:
        sys.exit(f"{a.study}: no planned ruptures of site {a.site}")
    nvar = t_core = t_gpu = weighted_points = small_var = 0.0
    for nrows, ncols, spacing in rows:
        v = a.slips * along(ncols, ncols * spacing, a.hypo_spacing) * along(
            nrows, nrows * spacing, a.hypo_spacing)
        n = nrows * ncols
        nvar += v
        weighted_points += v * n
        t_core += v * per_variation(n, sizes, core)
        small = v < a.batch
        small_var += v if small else 0
        t_gpu += v * per_variation(n, sizes, gpu_small if small else gpu)
    print(f"site {a.site}: {len(rows)} ruptures, {nvar:.0f} variations, "
          f"{weighted_points / nvar:.0f} points a variation on average; "
          f"{100 * small_var / nvar:.0f}% of the variations on ruptures of fewer than {a.batch}")
    for n, c, g, sm in rates:
        print(f"  measured at {n} points: {c:.2f} variations/s a core, {g:.1f} on the GPU "
              f"({g / c:.0f}x), {sm:.1f} in messages of small ruptures ({sm / c:.0f}x)")
    print(f"one core {t_core / 3600:.2f} h, the GPU {t_gpu:.1f} s: {t_core / t_gpu:.0f}x; "
          f"{nvar / t_gpu:.0f} variations/s on the GPU over the site")


if __name__ == "__main__":
    main()
