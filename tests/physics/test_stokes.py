"""Stokes' solution (Aki & Richards eq. 4.23) for a point force in a homogeneous full space,
against the strain the solver saves, and the convergence of the misfit when h and dt halve.

Medium: vp = sqrt(3) vs, vs = 2000 m/s, rho = 2500 kg/m^3, elastic, PML on all six faces.
Source: the default band-limited impulse, flat to fmax = 2.5 Hz, so h = 100 m gives 8 nodes per
shortest S wavelength (vs / fmax = 800 m). Twelve save points 600 m to 1000 m from the source in
all directions. The window ends before the main lobe of the first reflection from the PML could
reach any point (the impulse's Kaiser tails, 60 dB down, arrive earlier)."""
import os

import numpy as np

import analytic
import harness

VP, VS, RHO = 3464.1016, 2000.0, 2500.0
OFFSETS = [(7, 0, 0), (0, 8, 0), (0, 0, 9), (5, 4, -4), (-6, 5, 4), (6, -6, 3), (-5, -3, -4),
           (0, -7, 6), (4, 4, 4), (-8, 0, 0), (0, 0, -9), (8, 3, 0)]


def run(scale):
    """Coarse (scale 1: h = 100 m) or fine (scale 2) run; returns (file, window end)."""
    n, c, w = 64 * scale, 32 * scale, 10 * scale
    wd = harness.workdir("stokes%d" % scale)
    pts = [(c + scale * a, c + scale * b, c + scale * d) for a, b, d in OFFSETS]
    harness.write_points(os.path.join(wd, "points.txt"), pts)
    params = {
        "nx": n, "ny": n, "nz": n, "h": f"{100 / scale} m",
        # Courant number vp dt / h = 0.22 at both resolutions (docs/sgt.md, verification).
        "dt": f"{0.00625 / scale} s", "nt": 440 * scale,
        "model_format": "homogeneous", "vp": f"{VP} m/s", "vs": f"{VS} m/s",
        "rho": f"{RHO} kg/m3", "vs_min": "0 m/s", "attenuation": "false",
        "fmax": "2.5 Hz", "free_surface": "false", "absorbing": "pml", "absorbing_width": w,
        "source_i": c, "source_j": c, "source_k": c, "force_vector": "1 2 2",
        "save_points": "points.txt", "decimation": 2 * scale, "output": "sgt.h5",
    }
    path = harness.run_solver(wd, params)
    r_max = max(np.linalg.norm(o) for o in OFFSETS) * 100.0
    d_b = (c - w) * 100.0 / scale
    with harness.load(path) as f:
        t_end = f.attrs["time_shift"] + (2 * d_b - r_max) / VP - 0.05
    return path, t_end


def misfits(path, t_end):
    with harness.load(path) as f:
        dt, nt, h = f.attrs["dt"], int(f.attrs["nt"]), f.attrs["h"]
        stf = analytic.TimeFunction(f["source/stf"][:], f.attrs["solver_dt"])
        src, F, imp = f.attrs["source_node"], f.attrs["force_vector"], f.attrs["impulse"]
        t = dt * np.arange(nt)
        w = t < t_end
        per, num, den = [], 0.0, 0.0
        for p, idx in enumerate(f["points/index"][:]):
            x = ((idx - src) * h).astype(float)
            ref = analytic.stokes_strain(x, F, t, stf, imp, VP, VS, RHO)[:, w]
            got = f["strain"][p][:, w]
            per.append(harness.misfit(got, ref))
            num += np.sum((got - ref) ** 2)
            den += np.sum(ref**2)
    return np.sqrt(num / den), per


def test_stokes_strain_and_convergence():
    coarse, t1 = run(1)
    m1, per1 = misfits(coarse, t1)
    harness.check(len(per1) >= 10, "fewer than 10 points")
    harness.check(max(per1) <= 0.05, f"misfit {max(per1):.4f} > 5% at 8 nodes per wavelength")
    fine, t2 = run(2)
    m2, per2 = misfits(fine, t2)
    order = np.log2(m1 / m2)
    print(f"    Stokes: misfit {m1:.4f} (h 100 m, worst point {max(per1):.4f}), "
          f"{m2:.4f} (h 50 m), observed order {order:.2f}")
    harness.check(order >= 2.0, f"observed order {order:.2f} < 2 ({m1:.4f} -> {m2:.4f})")
