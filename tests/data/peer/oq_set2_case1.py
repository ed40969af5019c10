#!/usr/bin/env python3
"""PEER 2018/03 Set 2 case 1 (multiple sources) by OpenQuake's hazardlib: an independent
reference for `cybershake hazard peer s2-1` (tests/data/peer/NOTES.md). Not run by the CI.

    python3 -m venv /tmp/oqv && /tmp/oqv/bin/pip install --no-deps openquake.engine && \
        /tmp/oqv/bin/pip install numpy scipy shapely pyproj h5py toml decorator pandas \
        psutil numba requests
    /tmp/oqv/bin/python oq_set2_case1.py [--area-spacing KM] [--mesh KM] [--only area,b,c,all]
        [--out oq_Set2-Case1.csv]
    /tmp/oqv/bin/python oq_set2_case1.py --merge x-area.csv,x-b.csv,x-c.csv  # runs apart, summed

The case as the definition gives it (Set 2 Part 1 Instructions Rev8-4, case 2.1), the site at
(0, 65 W), the centre of the area source:
  area source: a circle of 100 km about the site (90 vertices 4 degrees apart), points every
    --area-spacing km (hazardlib's polygon discretisation), at 5, 6, ..., 10 km equally
    weighted, point ruptures (PointMSR), strike-slip; truncated exponential 5.0-6.5, b 0.9,
    N(M >= 5) = 0.0395 a year, 0.01 bins;
  Fault B: trace (0.44966 N, 65.38222 W) to (0.44966 N, 64.61778 W), 0-12 km, vertical,
    strike-slip, 2 mm/yr over 85 x 12 km; Youngs and Coppersmith (1985), b 0.9, Mmin 5.0,
    Mchar 6.75, Mmax 7.0;
  Fault C: trace (0.22483 S, 65.22484 W) to (0.22483 S, 64.77516 W), 0-12 km, vertical,
    strike-slip, 1 mm/yr over 50 x 12 km; Mchar 6.5, Mmax 6.75;
  the faults' ruptures float (PeerMSR: A = 10^(M - 4), aspect ratio 2) on a --mesh km grid;
  moment M0 = 10^(1.5 M + 9.05) N m, rigidity 3e10 Pa, the exponential's moment counted from
  M 0 (the definition's "integrate from zero");
  Sadigh et al. (1997) rock (Vs30 800 m/s), its sigma untruncated (truncation level 99);
  Poisson, one year. Per source and all together.
"""
import argparse
import csv
import datetime
import math
import sys

import numpy as np
from scipy.stats import norm
import openquake.baselib
from openquake.hazardlib.calc.filters import IntegrationDistance
from openquake.hazardlib.contexts import ContextMaker, RuptureContext, get_mean_stds
from openquake.hazardlib.geo import geodetic
from openquake.hazardlib.geo import Line, NodalPlane, Point, Polygon
from openquake.hazardlib.gsim.sadigh_1997 import SadighEtAl1997
from openquake.hazardlib.imt import PGA
from openquake.hazardlib.mfd import EvenlyDiscretizedMFD
from openquake.hazardlib.pmf import PMF
from openquake.hazardlib.scalerel import PeerMSR, PointMSR
from openquake.hazardlib.site import Site, SiteCollection
from openquake.hazardlib.source import AreaSource, SimpleFaultSource
from openquake.hazardlib.tom import PoissonTOM

LEVELS = [0.001, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7,
          0.8, 0.9, 1.0]
BETA = 0.9 * math.log(10)
TRT = "Active Shallow Crust"


def moment(m):
    return 10 ** (1.5 * m + 9.05)


def yc_rates(mchar, length_km, slip_m):
    """Youngs-Coppersmith bins of 0.01 from 5.00 to Mchar + 0.25: exponential to Mchar - 0.25,
    then a box whose density is the exponential's one unit below the box, moment-balanced."""
    box = mchar - 0.25
    nb = int(round((mchar + 0.25 - 5.0) / 0.01))
    p = []
    for i in range(nb):
        lo = 5.0 + 0.01 * i
        hi = lo + 0.01
        if hi <= box + 1e-9:
            p.append(math.exp(-BETA * (lo - 5)) - math.exp(-BETA * (hi - 5)))
        else:
            p.append(0.01 * BETA * math.exp(-BETA * (box - 1 - 5)))
    s = sum(p)
    mom = sum(pi / s * moment(5.005 + 0.01 * i) for i, pi in enumerate(p))
    # density beta e^(-beta (m - 5)) below 5 (unnormalised as p is), its moment from 0 to 5
    c = 1.5 * math.log(10)
    mom += BETA * math.exp(5 * BETA) * 10 ** 9.05 * math.expm1(5 * (c - BETA)) / (c - BETA) / s
    mrate = 3e10 * length_km * 1e3 * 12e3 * slip_m
    return [pi / s * mrate / mom for pi in p]


def area_rates():
    norm = math.exp(-BETA * 5.0) - math.exp(-BETA * 6.5)
    return [0.0395 * (math.exp(-BETA * (5 + 0.01 * i)) - math.exp(-BETA * (5.01 + 0.01 * i))) /
            norm for i in range(150)]


def circle(lon0, lat0, r_km):
    """90 vertices 4 degrees apart, r_km from the centre on the sphere (R 6371 km)."""
    pts = []
    d = r_km / 6371.0
    p1, l1 = math.radians(lat0), math.radians(lon0)
    for k in range(90):
        az = math.radians(4.0 * k)
        p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(az))
        l2 = l1 + math.atan2(math.sin(az) * math.sin(d) * math.cos(p1),
                             math.cos(d) - math.sin(p1) * math.sin(p2))
        pts.append(Point(math.degrees(l2), math.degrees(p2)))
    return Polygon(pts[::-1])  # counter-clockwise as hazardlib wants it? either is accepted


def sources(area_spacing, mesh):
    tom = PoissonTOM(1.0)
    area = AreaSource(
        "area", "Area source", TRT,
        EvenlyDiscretizedMFD(5.005, 0.01, area_rates()), 1.0, PointMSR(), 1.0, tom, 0.0, 30.0,
        PMF([(1.0, NodalPlane(0.0, 90.0, 0.0))]),
        PMF([(1 / 6, 5.0), (1 / 6, 6.0), (1 / 6, 7.0), (1 / 6, 8.0), (1 / 6, 9.0),
             (1 - 5 / 6, 10.0)]),
        circle(-65.0, 0.0, 100.0), area_spacing)
    fb = SimpleFaultSource(
        "b", "Fault B", TRT, EvenlyDiscretizedMFD(5.005, 0.01, yc_rates(6.75, 85.0, 0.002)),
        mesh, PeerMSR(), 2.0, tom, 0.0, 12.0,
        Line([Point(-65.38222, 0.44966), Point(-64.61778, 0.44966)]), 90.0, 0.0)
    fc = SimpleFaultSource(
        "c", "Fault C", TRT, EvenlyDiscretizedMFD(5.005, 0.01, yc_rates(6.5, 50.0, 0.001)),
        mesh, PeerMSR(), 2.0, tom, 0.0, 12.0,
        Line([Point(-65.22484, -0.22483), Point(-64.77516, -0.22483)]), 90.0, 0.0)
    return {"area": area, "b": fb, "c": fc}


def rates(srcs, sitecol, chunk):
    """Annual rates of exceedance of LEVELS: hazardlib's ruptures, distances and Sadigh's
    ln median and sigma (ContextMaker), the sum of rate x P(ln PGA > ln level) over ruptures
    in double precision (hazardlib's own probability maps are single precision: 6e-8 absolute
    at 1 g, where the curve is 1e-6), the normal untruncated."""
    cm = ContextMaker(TRT, [SadighEtAl1997()],
                      dict(imtls={"PGA": LEVELS}, truncation_level=99.0, investigation_time=1.0,
                           maximum_distance=IntegrationDistance.new("500")))
    lnl = np.log(LEVELS)
    total = np.zeros(len(LEVELS))
    nrup = 0
    for src in srcs:
        # the area source point by point (its ruptures' contexts would take gigabytes at once)
        parts = list(src) if isinstance(src, AreaSource) else [src]
        for i in range(0, len(parts), chunk):
            ctx = cm.from_srcs(parts[i:i + chunk], sitecol)
            if len(ctx) == 0:
                continue
            ms = cm.get_mean_stds([ctx], split_by_mag=False)
            mean, sig = ms[0, 0, 0], ms[1, 0, 0]
            poe = norm.sf((lnl[None, :] - mean[:, None]) / sig[:, None])
            total += np.asarray(ctx.occurrence_rate, dtype=float) @ poe
            nrup += len(ctx)
    return total, nrup


def area_fast(spacing):
    """The area source's annual rates of exceedance with hazardlib's pieces but without its
    rupture loop (an hour for the 1 km grid on two cores): the circle's points as hazardlib
    discretises it (Polygon.discretize, what AreaSource does), each point's rupture at 5, ...,
    10 km with rrup the hypocentral distance (geodetic.distance: a PointMSR rupture's), the
    total rate split evenly over points and depths, Sadigh's ln median and sigma from hazardlib
    (contexts.get_mean_stds). Checked against the rupture loop (rates(), --only area) at 10 km:
    the same to 1e-5 (NOTES.md)."""
    mesh = circle(-65.0, 0.0, 100.0).discretize(spacing)
    lons, lats = np.ravel(mesh.lons), np.ravel(mesh.lats)
    r = np.concatenate([geodetic.distance(-65.0, 0.0, 0.0, lons, lats, np.full(len(lons), d))
                        for d in (5.0, 6.0, 7.0, 8.0, 9.0, 10.0)])
    lnl = np.log(LEVELS)
    total = np.zeros(len(LEVELS))
    for i, rate in enumerate(area_rates()):
        ctx = RuptureContext()
        ctx.mag = round(5.005 + 0.01 * i, 3)
        ctx.rake = 0.0
        ctx.rrup = r
        ctx.vs30 = np.full(len(r), 800.0)
        ctx.sids = np.arange(len(r))
        ms = get_mean_stds(SadighEtAl1997(), ctx, [PGA()])
        mean, sig = ms[0, 0], ms[1, 0]
        # per (point, depth): rate / len(r); sum over them of P(exceed)
        for j, l in enumerate(lnl):
            total[j] += rate / len(r) * norm.sf((l - mean) / sig).sum()
    return total, len(r) * 150


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--area-spacing", type=float, default=1.0)
    ap.add_argument("--mesh", type=float, default=0.5)
    ap.add_argument("--only", default="area,b,c,all")
    ap.add_argument("--out", default="oq_Set2-Case1.csv")
    ap.add_argument("--chunk", type=int, default=500, help="area points per batch")
    ap.add_argument("--merge", help="CSVs of single-source runs to combine (a,b,...)")
    a = ap.parse_args()
    site = Site(Point(-65.0, 0.0), vs30=800.0, vs30measured=True, z1pt0=48.0, z2pt5=0.607)
    sitecol = SiteCollection([site])
    src = sources(a.area_spacing, a.mesh)
    rows = []
    if a.merge:
        # single-source rows of earlier runs (the same code, run apart to use two cores): the
        # rates of exceedance add, P = 1 - exp(-sum of rates)
        single = {}
        for path in a.merge.split(","):
            for row in list(csv.reader(open(path)))[1:]:
                name = path[:-4].rsplit("-", 1)[1]
                single[name] = -np.log1p(-np.array([float(x) for x in row[3:]]))
        for n in ("area", "b", "c"):
            rows.append((n, -np.expm1(-single[n])))
        rows.append(("all", -np.expm1(-(single["area"] + single["b"] + single["c"]))))
    for which in [] if a.merge else a.only.split(","):
        names = ["area", "b", "c"] if which == "all" else [which]
        t0 = datetime.datetime.now()
        if which == "area-fast":
            r, nrup = area_fast(a.area_spacing)
        elif which == "all":  # the area source the fast way, the faults by the rupture loop
            r, nrup = area_fast(a.area_spacing)
            r2, nrup2 = rates([src["b"], src["c"]], sitecol, a.chunk)
            r, nrup = r + r2, nrup + nrup2
        else:
            r, nrup = rates([src[n] for n in names], sitecol, a.chunk)
        c = -np.expm1(-r)  # Poisson, one year
        dt = (datetime.datetime.now() - t0).total_seconds()
        print(which, " ".join(f"{v:.6e}" for v in c), f"({nrup} ruptures, {dt:.0f} s)",
              file=sys.stderr)
        rows.append((which, c))
    for which, c in rows:
        # the three sources together in --out, each alone in --out's name with -area, -b, -c
        which = "area" if which == "area-fast" else which
        path = a.out if which == "all" else a.out.replace(".csv", f"-{which}.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["name", "lon", "lat"] + [f"{x:g}" for x in LEVELS])
            w.writerow([f"PEER S2-Case1-{which}-Site1", "-65.00000", "0.00000"] +
                       [f"{v:.8e}" for v in c])
    print(f"openquake.engine {openquake.baselib.__version__}, area spacing {a.area_spacing} km, "
          f"fault mesh {a.mesh} km, {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC",
          file=sys.stderr)


if __name__ == "__main__":
    main()
