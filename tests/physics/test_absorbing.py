"""Absorbing boundaries: reflected energy against incident energy.

Measured as follows. A force near the low-x face, three receivers between it and the face (the
wave reaches the face at normal and oblique incidence). Run A has the face where tested; run B
is the same grid extended by 60 nodes beyond that face, everything else (the other faces and
their reflections) unchanged, so B has no reflection from that face within the window. The
reflected wave is A - B, the incident wave is B, and the ratio of their energies (sums of
squared velocity over all three components and the whole window) is the reflected fraction.

The PML of 20 nodes, the default, must reflect at most 1% of the energy. The Cerjan sponge is
measured too and reported (it needs about 80 nodes, CyberShake's width, to compete)."""
import os

import numpy as np

import harness

VP, VS, RHO = 3464.1016, 2000.0, 2500.0


def run(wd, kind, width, extra):
    n = 70 + extra
    src = (width + 12 + extra, 35, 35)
    recs = [(width + 4 + extra, 35, 35), (width + 4 + extra, 43, 35), (width + 6 + extra, 35, 45)]
    harness.write_points(os.path.join(wd, f"rec_{kind}{extra}.txt"), recs)
    params = {
        "mode": "forward", "nx": n, "ny": 70, "nz": 70, "h": "100 m", "dt": "0.008 s",
        "nt": 450, "model_format": "homogeneous", "vp": f"{VP} m/s", "vs": f"{VS} m/s",
        "rho": f"{RHO} kg/m3", "vs_min": "0 m/s", "attenuation": "false", "fmax": "2.5 Hz",
        "free_surface": "false", "absorbing": kind, "absorbing_width": width,
        "source_i": src[0], "source_j": src[1], "source_k": src[2], "force_vector": "1 1 0",
        "receivers": f"rec_{kind}{extra}.txt", "output": f"abs_{kind}{extra}.h5",
    }
    with harness.load(harness.run_solver(wd, params, f"abs_{kind}{extra}")) as f:
        return f["receivers/velocity"][:]


def reflected_fraction(wd, kind, width):
    a = run(wd, kind, width, 0)
    b = run(wd, kind, width, 60)
    return float(np.sum((a - b) ** 2) / np.sum(b**2))


def test_pml_reflects_under_one_percent():
    wd = harness.workdir("absorb")
    pml = reflected_fraction(wd, "pml", 20)
    sponge = reflected_fraction(wd, "sponge", 20)
    weak = reflected_fraction(wd, "sponge", 4)
    print(f"    reflected energy: PML 20 nodes {100 * pml:.2e}%, sponge 20 nodes {100 * sponge:.2e}%, "
          f"sponge 4 nodes {100 * weak:.2e}%")
    # The measurement must see a poor absorber: a 4-node sponge reflects far more.
    harness.check(weak > 100 * pml and weak > 0.001, f"a 4-node sponge measured {100 * weak:.2e}%")
    harness.check(pml <= 0.01, f"PML reflects {100 * pml:.3f}% of the energy (> 1%)")
    harness.check(pml < sponge, "the default (PML) must absorb better than the sponge")
