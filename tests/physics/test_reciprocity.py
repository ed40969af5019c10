"""Reciprocity: a forward run with a moment-tensor point source at x, recorded at the site,
against sum_ij M_ij H^n_ij(x) from the three SGT runs (forces E, N, Z at the site), with the
free surface and attenuation on, in a two-layer model, in a box rotated -55 degrees.

Both sides use the same band-limited impulse: the forward source's moment rate is
M s(t) and each SGT force is impulse * s(t), so v_n(t) = sum_ij M_ij eps^n_ij(t) / impulse with
tensor strain (off-diagonal terms twice). All three components must agree within 5% (relative
L2 over the whole record)."""
import os

import numpy as np

import harness

MODEL = """# two layers, depth-table format
depth[km] vp[km/s] vs[km/s] rho[g/cm3]
0.0 3.0 1.7 2.3
0.6 4.5 2.6 2.6
"""


def base(wd):
    with open(os.path.join(wd, "model.txt"), "w") as f:
        f.write(MODEL)
    return {
        "nx": 56, "ny": 56, "nz": 36, "h": "100 m", "dt": "0.008 s", "nt": 650,
        "origin_lon": "-118.25 deg", "origin_lat": "34.05 deg", "rotation": "-55 deg",
        "model_format": "depth-table", "model_file": "model.txt", "vs_min": "0 m/s",
        "attenuation": "true", "fmax": "2 Hz", "free_surface": "true", "absorbing": "pml",
        "absorbing_width": 10,
    }


SITE = (28, 28, 0)
SOURCE = (36, 22, 14)


def test_reciprocity_forward_vs_sgt():
    wd = harness.workdir("recip")
    harness.write_points(os.path.join(wd, "src.txt"), [SOURCE])
    harness.write_points(os.path.join(wd, "site.txt"), [SITE])
    strain = {}
    for comp in "ENZ":
        p = base(wd)
        p.update({"mode": "sgt", "source_i": SITE[0], "source_j": SITE[1], "source_k": SITE[2],
                  "force_component": comp, "save_points": "src.txt", "decimation": 1,
                  "output": f"sgt_{comp}.h5"})
        with harness.load(harness.run_solver(wd, p, "sgt_" + comp)) as f:
            strain[comp] = f["strain"][0] / f.attrs["impulse"]
            axes = f.attrs["box_axes_enu_at_source"].reshape(3, 3)
    p = base(wd)
    p.update({"mode": "forward", "source": "moment", "source_i": SOURCE[0],
              "source_j": SOURCE[1], "source_k": SOURCE[2], "strike": "30 deg", "dip": "60 deg",
              "rake": "70 deg", "m0": "1e15 N*m", "receivers": "site.txt",
              "output": "fwd.h5"})
    with harness.load(harness.run_solver(wd, p, "fwd")) as f:
        vbox = f["receivers/velocity"][0]
        M = f.attrs["moment_box_xx_yy_zz_xy_xz_yz"]
    # Forward velocity (box frame, z down) into E, N, Z (up).
    fwd = {c: axes[0][k] * vbox[0] + axes[1][k] * vbox[1] + axes[2][k] * vbox[2]
           for k, c in enumerate("ENZ")}
    weights = [1, 1, 1, 2, 2, 2]
    for c in "ENZ":
        syn = sum(w * m * e for w, m, e in zip(weights, M, strain[c]))
        n = min(len(syn), len(fwd[c]))
        mis = harness.misfit(syn[:n], fwd[c][:n])
        print(f"    reciprocity {c}: misfit {mis:.4f}, peak {np.abs(fwd[c]).max():.3e} m/s")
        harness.check(mis <= 0.05, f"component {c}: misfit {mis:.4f} > 5%")
