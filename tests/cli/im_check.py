"""Independent check of the extractor's intensity measures: for records of a run's seismogram
file, the acceleration by 4th-order central differences, the 5%-damped oscillator integrated by
classical Runge-Kutta at 1/40 of the record's step with the acceleration interpolated linearly,
RotD50/RotD100 over 180 one-degree angles and the geometric mean from those fine responses, SA
of the vertical (Z) where the record has one, and PGV; each compared with the run's PeakAmplitudes rows. Usage: im_check.py STUDY SEIS.h5 RUN_ID.
Tolerance 0.5% (the bound of the issue), and what it measures is printed."""
import math
import sqlite3
import sys

import h5py
import numpy as np

study, seis, run = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(study)
f = h5py.File(seis, "r")
dt = float(f.attrs["dt"])
index = f["index"][:]
vel = f["velocity"]


def derivative(v):
    a = np.empty_like(v)
    a[2:-2] = (-v[4:] + 8 * v[3:-1] - 8 * v[1:-3] + v[:-4]) / (12 * dt)
    # the ends: 2nd-order differences (one-sided at the first and last sample)
    a[:2] = np.gradient(v[:4], dt, edge_order=2)[:2]
    a[-2:] = np.gradient(v[-4:], dt, edge_order=2)[-2:]
    return a


def response(ag, period, zeta=0.05, sub=40):
    w = 2 * math.pi / period
    h = dt / sub
    t_fine = np.arange(0, (len(ag) - 1) * dt + h / 2, h)
    a_fine = np.interp(np.arange(0, (len(ag) - 1) * sub * 2 + 1) * h / 2, np.arange(len(ag)) * dt, ag)
    u = np.zeros(len(t_fine))
    x = v = 0.0
    for i in range(len(t_fine) - 1):
        a0, am, a1 = a_fine[2 * i], a_fine[2 * i + 1], a_fine[2 * i + 2]
        def fx(x, v, a):
            return v, -a - 2 * zeta * w * v - w * w * x
        k1 = fx(x, v, a0)
        k2 = fx(x + h / 2 * k1[0], v + h / 2 * k1[1], am)
        k3 = fx(x + h / 2 * k2[0], v + h / 2 * k2[1], am)
        k4 = fx(x + h * k3[0], v + h * k3[1], a1)
        x += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        v += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        u[i + 1] = x
    return u


def rotd(x, y):
    th = np.radians(np.arange(180))
    peaks = np.array([np.max(np.abs(x * math.cos(t) + y * math.sin(t))) for t in th])
    peaks.sort()
    return 0.5 * (peaks[89] + peaks[90]), peaks[179]


def stored(s, r, v, measure, period, comp):
    row = db.execute(
        "SELECT p.IM_Value FROM PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID) WHERE p.Run_ID = ? "
        "AND p.Source_ID = ? AND p.Rupture_ID = ? AND p.Rup_Var_ID = ? AND t.IM_Type_Measure = ? "
        "AND t.IM_Type_Component = ? AND (t.IM_Type_Value = ? OR (? = 0 AND t.IM_Type_Value IS NULL))",
        (run, s, r, v, measure, comp, period, period)).fetchone()
    assert row, f"no {measure} {period} {comp} for {s} {r} {v}"
    return row[0]


periods = [p for (p,) in db.execute(
    "SELECT DISTINCT t.IM_Type_Value FROM PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID) "
    "WHERE p.Run_ID = ? AND t.IM_Type_Measure = 'SA' ORDER BY 1", (run,))]
worst = (0, "")
checked = 0
for row in range(0, len(index), max(1, len(index) // 4)):
    s, r, v = (int(x) for x in index[row])
    rec = vel[row].astype(np.float64)
    vertical = not np.isnan(rec[2]).any()
    acc = [derivative(rec[c]) for c in range(3 if vertical else 2)]
    for period in periods:
        w = 2 * math.pi / period
        ue, un = response(acc[0], period), response(acc[1], period)
        r50, r100 = rotd(ue, un)
        gm = math.sqrt(np.abs(ue).max() * np.abs(un).max())
        for comp, mine in (("RotD50", r50), ("RotD100", r100), ("geometric mean", gm)):
            want = w * w * mine / 9.80665
            got = stored(s, r, v, "SA", period, comp)
            rel = abs(got - want) / want
            worst = max(worst, (rel, f"SA {period} {comp} of {s} {r} {v}: stored {got:.6g}, here {want:.6g}"))
            checked += 1
        if vertical:  # the vertical's SA (component Z)
            want = w * w * np.abs(response(acc[2], period)).max() / 9.80665
            got = stored(s, r, v, "SA", period, "Z")
            rel = abs(got - want) / want
            worst = max(worst, (rel, f"SA {period} Z of {s} {r} {v}: stored {got:.6g}, here {want:.6g}"))
            checked += 1
    got = stored(s, r, v, "PGV", 0, "E")
    want = float(np.abs(rec[0]).max())
    rel = abs(got - want) / want
    worst = max(worst, (rel, f"PGV E of {s} {r} {v}: stored {got:.6g}, file {want:.6g}"))
    checked += 1
print(f"im check: {checked} values of {len(index)} records' sample, worst relative difference "
      f"{worst[0]:.2e} ({worst[1]})")
assert worst[0] <= 5e-3, f"differs by more than 0.5%: {worst[1]}"
