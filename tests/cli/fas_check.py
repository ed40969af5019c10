"""Independent check of the extractor's spectral measures: for records of a run's seismogram file,
the smoothed Fourier amplitude spectra (FAS of E, N, Z and the EAS of the horizontals) with
numpy's FFT and ObsPy's Konno-Ohmachi window (obspy.signal.konnoohmachismoothing, bandwidth 40,
normalize=True: the window over the FFT's bins divided by its sum, what ObsPy's
konno_ohmachi_smoothing applies at each frequency), and the period-dependent significant
durations D5-75 and D5-95 (the acceleration band-passed one octave around 1/T in numpy, the
Husid curve integrated exactly for the acceleration linear between samples, the crossings
interpolated linearly between samples);
each compared with every stored value of the run's PeakAmplitudes rows of those records.
The definitions are docs/extract.md's; the paddings (N for the FAS, the power of two
>= 2 nt and >= 100 T_max / dt; N_D for the durations, the power of two >= 2 nt) are the same, and how much the FAS moves with twice that padding is printed.
Usage: fas_check.py STUDY SEIS.h5 RUN_ID [--every K]. Tolerance 1e-4 relative for both (the
file holds float32 samples, the toolkit measured the double-precision record: measured 1.8e-7
for FAS and 1.3e-7 for the durations on the extractor tests' site)."""
import math
import sqlite3
import sys

import h5py
import numpy as np
from obspy.signal.konnoohmachismoothing import konno_ohmachi_smoothing_window

study, seis, run = sys.argv[1], sys.argv[2], int(sys.argv[3])
every = int(sys.argv[sys.argv.index("--every") + 1]) if "--every" in sys.argv else 4
db = sqlite3.connect(study)
f = h5py.File(seis, "r")
dt = float(f.attrs["dt"])
index = f["index"][:]
vel = f["velocity"]
B = 40.0


def derivative(v):
    a = np.empty_like(v)
    a[2:-2] = (-v[4:] + 8 * v[3:-1] - 8 * v[1:-3] + v[:-4]) / (12 * dt)
    a[:2] = np.gradient(v[:4], dt, edge_order=2)[:2]
    a[-2:] = np.gradient(v[-4:], dt, edge_order=2)[-2:]
    return a


def stored_rows(s, r, v):
    return {(m, p, c): x for m, p, c, x in db.execute(
        "SELECT t.IM_Type_Measure, t.IM_Type_Value, t.IM_Type_Component, p.IM_Value FROM "
        "PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID) WHERE p.Run_ID = ? AND p.Source_ID = ? "
        "AND p.Rupture_ID = ? AND p.Rup_Var_ID = ? AND t.IM_Type_Measure IN ('FAS', 'D5-75', 'D5-95') "
        "AND t.IM_Type_Value > 0", (run, s, r, v))}


def smoothed(amp, freqs, fc):
    w = konno_ohmachi_smoothing_window(freqs, fc, B, normalize=True)
    return float((w * amp).sum())


def husid_durations(a):
    # the Husid curve at the samples, exact for the acceleration linear between them, and the
    # first sample where it reaches each fraction, interpolated linearly with the one before
    steps = dt / 3 * (a[:-1] ** 2 + a[:-1] * a[1:] + a[1:] ** 2)
    cum = np.concatenate(([0.0], np.cumsum(steps)))
    t = []
    for frac in (0.05, 0.75, 0.95):
        target = frac * cum[-1]
        i = max(1, int(np.searchsorted(cum, target, side="left")))
        span = cum[i] - cum[i - 1]
        t.append(dt * (i - 1 + ((target - cum[i - 1]) / span if span > 0 else 0)))
    return t[1] - t[0], t[2] - t[0]


periods = sorted({p for (p,) in db.execute(
    "SELECT DISTINCT t.IM_Type_Value FROM PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID) "
    "WHERE p.Run_ID = ? AND t.IM_Type_Measure = 'SA'", (run,))})
tmax = max(periods)
nt = vel.shape[2]
N = 1
while N < max(2 * nt, 100 * tmax / dt):
    N *= 2
ND = 1
while ND < 2 * nt:
    ND *= 2
worst = {"FAS": (0, ""), "D": (0, "")}
pad_moves = 0
checked = 0
for row in range(0, len(index), max(1, len(index) // every)):
    s, r, v = (int(x) for x in index[row])
    rec = vel[row].astype(np.float64)
    comps = ["E", "N", "Z"] if not np.isnan(rec[2]).any() else ["E", "N"]
    acc = {c: derivative(rec[k]) for k, c in enumerate(comps)}
    spec = {c: np.fft.rfft(acc[c], N) for c in comps}
    freqs = np.arange(N // 2 + 1) / (N * dt)
    amp = {c: dt * np.abs(spec[c]) for c in comps}
    amp["EAS"] = dt * np.sqrt((np.abs(spec["E"]) ** 2 + np.abs(spec["N"]) ** 2) / 2)
    amp2 = {c: dt * np.abs(np.fft.rfft(acc[c], 2 * N)) for c in comps}
    freqs2 = np.arange(N + 1) / (2 * N * dt)
    rows = stored_rows(s, r, v)
    assert rows, f"no FAS or period-dependent duration stored for {s} {r} {v}"
    for (m, p, c), got in sorted(rows.items()):
        if m == "FAS":
            want = smoothed(amp[c], freqs, 1 / p)
            if c != "EAS":
                pad_moves = max(pad_moves, abs(smoothed(amp2[c], freqs2, 1 / p) / want - 1))
            key = "FAS"
        else:
            f1, f2 = 1 / (math.sqrt(2) * p), math.sqrt(2) / p
            fd = np.arange(ND // 2 + 1) / (ND * dt)
            with np.errstate(divide="ignore"):
                h = 1 / np.sqrt((1 + (f1 / fd) ** 8) * (1 + (fd / f2) ** 8))
            h[0] = 0
            band = np.fft.irfft(np.fft.rfft(acc[c], ND) * h, ND)[:nt]
            d575, d595 = husid_durations(band)
            want = d575 if m == "D5-75" else d595
            key = "D"
        rel = abs(got - want) / abs(want)
        worst[key] = max(worst[key], (rel, f"{m} {p} {c} of {s} {r} {v}: stored {got:.7g}, here {want:.7g}"))
        checked += 1
print(f"spectral check: {checked} values of {len(index)} records' sample (N = {N}, N_D = {ND}); worst relative "
      f"difference FAS {worst['FAS'][0]:.2e} ({worst['FAS'][1]}), durations {worst['D'][0]:.2e} "
      f"({worst['D'][1]}); FAS with twice the padding moves by {pad_moves:.1e} at most")
assert worst["FAS"][0] <= 1e-4, f"FAS differs by more than 1e-4: {worst['FAS'][1]}"
assert worst["D"][0] <= 1e-4, f"a duration differs by more than 1e-4: {worst['D'][1]}"
