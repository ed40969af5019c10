"""A second layered benchmark, independent of LOH.1 (tests/physics/test_layered_fk.py): three
layers over a half space whose interfaces (600 and 1500 m) fall on nodes at h = 50 and 25 m, a
dipping double couple at 3 km depth, a receiver on the surface 8 km away at azimuth 30 degrees,
against a frequency-wavenumber solution made for it (tests/physics/layered_fk_reference.py;
tests/data/layered/NOTES.md). The solver runs in a box along the source-receiver path (x radial,
y transverse, z down), the moment tensor turned into it.

Frame of the problem: x north, y east, z down (pyfk's); radial = (cos az, sin az, 0),
transverse = (-sin az, cos az, 0), vertical up = -z."""
import os

import numpy as np

import harness

DATA = os.path.join(harness.REPO, "tests", "data", "layered")
FK_FILE = "rec_fk.txt"
# depth of each layer's top (m), vp, vs (m/s), rho (kg/m3); the last is the half space
LAYERS = ((0.0, 3000.0, 1500.0, 2300.0), (600.0, 4500.0, 2500.0, 2500.0),
          (1500.0, 6000.0, 3464.0, 2700.0))
M0 = 1e17  # N m
# the moment tensor over M0 (xx, yy, zz, xy, xz, yz; x north, y east, z down): slip along x on
# the plane whose normal is (0, 0.6, 0.8), a double couple dipping 53 degrees
MT = (0.0, 0.0, 0.0, 0.6, 0.8, 0.0)
SOURCE_DEPTH = 3000.0
DISTANCE, AZIMUTH = 8000.0, 30.0
SIGMA, T0 = 0.08, 0.48  # Gaussian moment rate (s)
TMAX = 8.0
VP_MAX = 6000.0


def gaussian_rate(t):
    return np.exp(-0.5 * ((t - T0) / SIGMA) ** 2) / (np.sqrt(2 * np.pi) * SIGMA)


def path_moment():
    """The moment tensor (N m) in the path's frame: rows of R are the radial, transverse and
    vertical unit vectors in the problem's frame; M' = R M R^T."""
    a = np.radians(AZIMUTH)
    R = np.array([[np.cos(a), np.sin(a), 0.0], [-np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]])
    xx, yy, zz, xy, xz, yz = MT
    M = M0 * np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    P = R @ M @ R.T
    return P[0, 0], P[1, 1], P[2, 2], P[0, 1], P[0, 2], P[1, 2]


def reference():
    """(t, [radial, transverse, vertical up]) in m/s, already convolved with the moment rate."""
    fk = np.loadtxt(os.path.join(DATA, FK_FILE))
    return fk[:, 0], fk[:, 1:].T.copy()


def params(h, wd, extra=None, box=(300.0, 300.0, 1000.0, 4000.0), pml=500.0, courant=0.48):
    """Forward-mode parameters at spacing h (m) in WD. BOX: the region inside the absorbing layer
    (behind the source, beyond the receiver, either side of the path, depth), m."""
    behind, beyond, half, depth = box
    ni = lambda d: int(round(d / h))  # noqa: E731
    nx = ni(behind + DISTANCE + beyond + 2 * pml) + 1
    ny = ni(2 * (half + pml)) + 1
    nz = ni(depth + pml) + 1
    isrc, jsrc = ni(pml + behind), ni(pml + half)
    with open(os.path.join(wd, "model.txt"), "w") as f:
        f.write("depth[m] vp[m/s] vs[m/s] rho[kg/m3]\n")
        for layer in LAYERS:
            f.write(" ".join(f"{x:g}" for x in layer) + "\n")
    ts = np.arange(0, 2 * T0 + 1e-9, 2e-4)
    np.savetxt(os.path.join(wd, "stf.txt"), np.column_stack([ts, gaussian_rate(ts)]))
    harness.write_points(os.path.join(wd, "rec.txt"), [(isrc + ni(DISTANCE), jsrc, 0)])
    dt = courant * h / VP_MAX
    m = path_moment()
    p = {
        "mode": "forward", "nx": nx, "ny": ny, "nz": nz, "h": f"{h!r} m", "dt": f"{dt!r} s",
        "nt": int(round(TMAX / dt)) + 1, "model_format": "depth-table",
        "model_file": "model.txt", "vs_min": "0 m/s", "attenuation": "false", "fmax": "3 Hz",
        "min_points_per_wavelength": 5, "free_surface": "true", "absorbing": "pml",
        "absorbing_thickness": f"{pml} m", "source": "moment", "source_i": isrc,
        "source_j": jsrc, "source_k": ni(SOURCE_DEPTH), "stf": "file", "stf_file": "stf.txt",
        "receivers": "rec.txt", "output": "layered.h5",
    }
    for name, v in zip(("xx", "yy", "zz", "xy", "xz", "yz"), m):
        p[f"moment_{name}"] = f"{v:.9e} N*m"
    p.update(extra or {})
    return p


def simulate(h, wd, extra=None, **kw):
    """Runs the solver; returns (t, [radial, transverse, vertical up]) at its samples."""
    p = params(h, wd, extra, **kw)
    with harness.load(harness.run_solver(wd, p, "layered")) as f:
        v = f["receivers/velocity"][0].astype(float)
        dt = f.attrs["dt"]
    return np.arange(v.shape[1]) * dt, np.array([v[0], v[1], -v[2]])
