"""Independent check of `cybershake hazard curve`: the curve recomputed from the study's
PeakAmplitudes and Ruptures with numpy (P = 1 - prod (1 - P_r)^f_r, f_r the fraction of the
rupture's variations strictly above the level), compared with the stored Hazard_Curve_Points
and with the CSV (OpenQuake's layout). Usage: hazard_check.py STUDY RUN_ID IM_TYPE_ID CSV."""
import csv
import sqlite3
import sys

import numpy as np

study, run, imt, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
db = sqlite3.connect(study)
erf = db.execute("SELECT ERF_ID FROM CyberShake_Runs WHERE Run_ID = ?", (run,)).fetchone()[0]
rows = db.execute(
    "SELECT p.Source_ID, p.Rupture_ID, r.Prob, p.IM_Value FROM PeakAmplitudes p JOIN Ruptures r "
    "ON r.ERF_ID = ? AND r.Source_ID = p.Source_ID AND r.Rupture_ID = p.Rupture_ID "
    "WHERE p.Run_ID = ? AND p.IM_Type_ID = ?", (erf, run, imt)).fetchall()
by = {}
for s, r, prob, v in rows:
    by.setdefault((s, r), (prob, []))[1].append(v)
curve = db.execute(
    "SELECT c.Hazard_Curve_ID FROM Hazard_Curves c WHERE c.Run_ID = ? AND c.IM_Type_ID = ? "
    "ORDER BY c.Hazard_Curve_ID DESC LIMIT 1", (run, imt)).fetchone()[0]
pts = db.execute("SELECT X_Value, Y_Value FROM Hazard_Curve_Points WHERE Hazard_Curve_ID = ? "
                 "ORDER BY X_Value", (curve,)).fetchall()
x = np.array([p[0] for p in pts])
stored = np.array([p[1] for p in pts])
log_survive = np.zeros(len(x))
for prob, vals in by.values():
    vals = np.array(vals)
    frac = (vals[None, :] > x[:, None]).mean(axis=1)
    log_survive += frac * np.log1p(-prob)
mine = -np.expm1(log_survive)
worst = np.max(np.abs(stored - mine) / np.maximum(mine, 1e-300) * (mine > 0) + np.abs(stored - mine) * (mine == 0))
assert worst < 1e-12, f"stored curve differs from the recomputation by {worst:.3g}"
with open(path) as f:
    lines = list(csv.reader(f))
assert lines[0][0].startswith("#"), "the CSV starts with OpenQuake's metadata line"
head, vals = lines[1], lines[2]
assert head[:2] == ["lon", "lat"] and all(h.startswith("poe-") for h in head[2:]), head[:4]
levels = np.array([float(h[4:]) for h in head[2:]])
poe = np.array([float(v) for v in vals[2:]])
assert np.allclose(levels, x, rtol=1e-5) and np.allclose(poe, mine, rtol=1e-6, atol=1e-300)
print(f"hazard check: {len(by)} ruptures, {len(rows)} values, {len(x)} levels; stored curve and "
      f"CSV agree with the recomputation (worst relative difference {worst:.1e})")
