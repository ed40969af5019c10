"""The extractor against forward simulations (rung 4 of the verification ladder: the extractor against an independent path, docs/extract.md).

A one-subfault SRF is synthesised by `cybershake synth` from three SGT runs (forces E, N, Z at a
surface site) and compared with a forward run of the same moment tensor, moment and slip-rate
function at the same node, recorded at the site: free surface and attenuation on, two layers,
box rotated -55 degrees. Both paths of the synthesis (frequency and time) are checked.

The SRF is written here from the grid: the node's lon/lat come from pyproj's transverse
Mercator and the box rotation (independently of the toolkit's PROJ code), the moment from the
SGT file's shear modulus at the node. The slip rate is a Hann pulse of 1.2 s (its spectrum is
small above 2 Hz, the SGT's fmax). Both records are compared within the band the SGT holds: the
same zero-phase low-pass (Butterworth, 4 poles, 2 Hz, forwards and backwards) on both; above it
the forward record has only the pulse's tail and the grid's unresolved noise (0.3% of its
energy, which alone would make a 5.5% misfit on the weakest component)."""
import csv
import math
import os
import subprocess

import numpy as np

import harness
import test_reciprocity as recip

SRC = recip.SOURCE
TINIT = 0.25
DURATION = float(os.environ.get('DUR', '1.2'))
SLIP_CM = 100.0
AREA_CM2 = 1e10
DT_S = 0.01


def node_lonlat(p, i, j):
    from pyproj import Transformer  # here, not at import: GPU machines run the runner without it

    h = 100.0
    x0 = -0.5 * (p["nx"] - 1) * h
    y0 = -0.5 * (p["ny"] - 1) * h
    x, y = x0 + i * h, y0 + j * h
    az = math.radians(-55.0)
    e = x * math.sin(az) + y * math.cos(az)
    n = x * math.cos(az) - y * math.sin(az)
    inv = Transformer.from_crs("+proj=tmerc +lat_0=34.05 +lon_0=-118.25 +k=1 +x_0=0 +y_0=0 +ellps=WGS84",
                               "EPSG:4326", always_xy=True)
    return inv.transform(e, n)


def hann(t):
    return np.where((t >= 0) & (t <= DURATION), 0.5 * (1 - np.cos(2 * np.pi * t / DURATION)), 0.0)


def write_srf(path, lon, lat, dep_km, strike, dip, rake):
    t = np.arange(0, DURATION + DT_S / 2, DT_S)
    sr = hann(t)
    sr *= SLIP_CM / (sr.sum() * DT_S)  # the piecewise-linear function integrates to the slip
    with open(path, "w") as f:
        f.write("2.0\nPLANE 1\n")
        f.write(f"{lon:.8f} {lat:.8f} 1 1 1.0 1.0\n{strike} {dip} {dep_km} 0.0 0.0\n")
        f.write("POINTS 1\n")
        f.write(f"{lon:.8f} {lat:.8f} {dep_km} {strike} {dip} {AREA_CM2:.6e} {TINIT} {DT_S} "
                f"2.6e5 2.6\n{rake} {SLIP_CM} {len(sr)} 0.0 0 0.0 0\n")
        for k in range(0, len(sr), 6):
            f.write(" ".join(f"{v:.8e}" for v in sr[k:k + 6]) + "\n")


def band(x, dt, fmax=2.0):
    from scipy.signal import butter, sosfiltfilt

    return sosfiltfilt(butter(4, fmax, fs=1.0 / dt, output="sos"), x)


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))[1:]
    a = np.array([[float(v) for v in r] for r in rows])
    return {"E": a[:, 1], "N": a[:, 2], "Z": a[:, 3]}


# The finite source: 6 x 4 subfaults on nodes 200 m apart in a vertical plane along the box's x
# axis, each with its own slip, rise time and rupture time (from a hypocentre at 2.5 km/s).
FINITE = [(30 + 2 * a, 22, 10 + 2 * b) for b in range(4) for a in range(6)]
_shared = {}


def shared_sgts():
    """The three SGT runs both tests use (forces E, N, Z at the site, strain saved at the
    point source's node and at every subfault of the finite source)."""
    if _shared:
        return _shared
    wd = harness.workdir("extract")
    harness.write_points(os.path.join(wd, "src.txt"), [SRC] + FINITE)
    harness.write_points(os.path.join(wd, "site.txt"), [recip.SITE])
    sgts = []
    for comp in "ENZ":
        p = recip.base(wd)
        p.update({"mode": "sgt", "source_i": recip.SITE[0], "source_j": recip.SITE[1],
                  "source_k": recip.SITE[2], "force_component": comp, "save_points": "src.txt",
                  "decimation": int(os.environ.get("DEC", "2")), "output": f"sgt_{comp}.h5"})
        sgts.append(harness.run_solver(wd, p, "sgt_" + comp))
        with harness.load(sgts[-1]) as f:
            mu = [float(m[1]) for m in f["points/material"][:]]
            axes = f.attrs["box_axes_enu_at_source"].reshape(3, 3)
    _shared.update(wd=wd, sgts=sgts, mu=mu, axes=axes)
    return _shared


def compare(wd, sgts, srf, fwd, dt_fwd, what, bound):
    worst = []
    for method in ("frequency", "time"):
        out = os.path.join(wd, f"{what}_{method}.csv")
        r = subprocess.run([harness.CS, "synth", "--sgt", ",".join(sgts), srf, "--method",
                            method, "--csv", out], cwd=wd, capture_output=True, text=True)
        harness.check(r.returncode == 0, f"cybershake synth failed: {r.stderr}")
        syn = read_csv(out)
        dec = int(os.environ.get("DEC", "2"))
        with open(out) as f:
            f.readline()
            t0, t1 = (float(f.readline().split(",")[0]) for _ in range(2))
        harness.check(abs((t1 - t0) - dt_fwd * dec) < 1e-9, "the record is not at the SGT's dt")
        for c in "ENZ":
            ref = fwd[c][::dec]
            n = min(len(ref), len(syn[c]))
            dt = dt_fwd * dec
            mis = harness.misfit(band(syn[c][:n], dt), band(ref[:n], dt))
            print(f"    {what} {method} {c}: misfit {mis:.4f}, peak {np.abs(ref).max():.3e} m/s")
            worst.append((mis, f"{what} {method} {c}"))
    mis, which = max(worst)
    harness.check(mis <= bound, f"{which}: misfit {mis:.4f} > {bound:.0%}")


def test_point_source_extraction_matches_forward():
    sh = shared_sgts()
    wd, sgts, mu, axes = sh["wd"], sh["sgts"], sh["mu"][0], sh["axes"]
    p = recip.base(wd)
    lon, lat = node_lonlat(p, SRC[0], SRC[1])
    strike, dip, rake = 30.0, 60.0, 70.0
    write_srf(os.path.join(wd, "one.srf"), lon, lat, SRC[2] * 0.1, strike, dip, rake)
    # forward: the same moment and moment-rate function (1/s), starting at TINIT
    m0 = mu * AREA_CM2 * 1e-4 * SLIP_CM * 1e-2
    t = np.arange(0, 6.0, 0.002)
    with open(os.path.join(wd, "stf.txt"), "w") as f:
        for ti, v in zip(t, hann(t - TINIT) * 2 / DURATION):
            f.write(f"{ti:.6f} {v:.10e}\n")
    p.update({"mode": "forward", "source": "moment", "source_i": SRC[0], "source_j": SRC[1],
              "source_k": SRC[2], "strike": f"{strike} deg", "dip": f"{dip} deg",
              "rake": f"{rake} deg", "m0": f"{m0:.10e} N*m", "stf": "file",
              "stf_file": "stf.txt", "receivers": "site.txt", "output": "fwd.h5"})
    with harness.load(harness.run_solver(wd, p, "fwd")) as f:
        vbox = f["receivers/velocity"][0]
        dt_fwd = float(f.attrs["dt"])
    fwd = {c: axes[0][k] * vbox[0] + axes[1][k] * vbox[1] + axes[2][k] * vbox[2]
           for k, c in enumerate("ENZ")}
    compare(wd, sgts, "one.srf", fwd, dt_fwd, "point source", 0.05)


def write_finite_srf(path, p, hypo=(35, 22, 13)):
    """24 subfaults at the FINITE nodes: strike 30, dip 60, rake 70 (a point-source mechanism
    for every subfault: the test is of the sum, not of a planar geometry), slip 50..150 cm,
    Hann slip rates of 0.9..1.6 s, rupture time = distance from the hypocentre / 2.5 km/s."""
    rng = np.random.default_rng(7)
    area = 200e2 * 200e2
    with open(path, "w") as f:
        f.write("2.0\nPLANE 1\n")
        lon0, lat0 = node_lonlat(p, *FINITE[0][:2])
        f.write(f"{lon0:.8f} {lat0:.8f} 6 4 1.2 0.8\n30 60 1.0 0.0 0.4\n")
        f.write(f"POINTS {len(FINITE)}\n")
        for node in FINITE:
            lon, lat = node_lonlat(p, node[0], node[1])
            dist = 100.0 * math.dist(node, hypo)
            tinit = dist / 2500.0
            dur = rng.uniform(0.9, 1.6)
            slip = rng.uniform(50, 150)
            t = np.arange(0, dur + DT_S / 2, DT_S)
            sr = np.where(t <= dur, 0.5 * (1 - np.cos(2 * np.pi * t / dur)), 0.0)
            sr *= slip / (sr.sum() * DT_S)
            f.write(f"{lon:.8f} {lat:.8f} {node[2] * 0.1:.4f} 30 60 {area:.6e} {tinit:.6f} {DT_S} "
                    f"2.6e5 2.6\n70 {slip:.6f} {len(sr)} 0.0 0 0.0 0\n")
            for k in range(0, len(sr), 6):
                f.write(" ".join(f"{v:.8e}" for v in sr[k:k + 6]) + "\n")


def test_finite_source_extraction_matches_forward():
    """A forward run of the whole SRF (source = srf: every subfault a moment tensor at its node,
    M0 = mu A slip) against the seismogram extracted from the same SGTs: misfit <= 10%."""
    sh = shared_sgts()
    wd, sgts, axes = sh["wd"], sh["sgts"], sh["axes"]
    p = recip.base(wd)
    write_finite_srf(os.path.join(wd, "finite.srf"), p)
    p.update({"mode": "forward", "source": "srf", "srf_file": "finite.srf",
              "receivers": "site.txt", "output": "fwd_finite.h5"})
    with harness.load(harness.run_solver(wd, p, "fwd_finite")) as f:
        vbox = f["receivers/velocity"][0]
        dt_fwd = float(f.attrs["dt"])
        harness.check(int(np.ravel(f.attrs["srf_point_sources"])[0]) == len(FINITE), "not every subfault became a source")
    fwd = {c: axes[0][k] * vbox[0] + axes[1][k] * vbox[1] + axes[2][k] * vbox[2]
           for k, c in enumerate("ENZ")}
    compare(wd, sgts, "finite.srf", fwd, dt_fwd, "finite source", 0.10)
