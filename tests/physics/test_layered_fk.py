"""A second layered benchmark, independent of LOH.1 (tests/physics/layered.py): three layers
(vs 1500, 2500, 3464 m/s) whose interfaces, at 600 and 1500 m, lie on nodes at h = 50 m, a
double couple dipping 53 degrees at 3 km depth, a surface receiver 8 km away at azimuth 30
degrees, against the frequency-wavenumber solution made for it with pyfk
(tests/data/layered/NOTES.md: converged to 0.16%, causal to 5e-7).

Norm: relative L2 misfit over 0-8 s per component (radial, transverse, vertical up), at
h = 50 m with the interfaces on nodes, run as a user runs it: no material_sampling given (the
default, auto, takes the band-limited kernel with layered cells for this model at Courant 0.46;
docs/sgt.md). Bounds 2 / 1.6 / 4% (the issue's bound is 5%): measured 1.2 / 1.1 / 3.2% (CPU
and GPU alike); the arrival times of the radial and vertical within 1 ms of FK's in three
windows (measured -0.03, -0.06, +0.01 ms). The cell averages with layered cut nodes misfit
3.3 / 2.0 / 4.5% (lags -0.03, -0.95, -0.11 ms), with the isotropic pair (before 2026-11-28)
8.4 / 2.1 / 8.5% (2.9 ms late), point sampling 43 / 33 / 45%: all fail."""
import harness
import layered
import loh
import layered_run


def test_layered_h50_interfaces_on_nodes():
    wd = harness.workdir("layered")
    t, sim = layered.simulate(50.0, wd, courant=0.46)
    tf, f = layered.reference()
    m = loh.misfits(t, sim, tf, f, tmax=layered.TMAX)
    lg = loh.lags(t, sim, tf, f, windows=layered_run.WINDOWS)
    print(f"    three layers, h = 50 m, against FK: misfit R {m[0]:.4f} T {m[1]:.4f} Z {m[2]:.4f}; "
          f"lag {' '.join(f'{1e3 * x:+.2f}' for x in lg)} ms")
    for c, (name, bound) in enumerate((("radial", 0.02), ("transverse", 0.016),
                                       ("vertical", 0.04))):
        harness.check(m[c] <= bound, f"{name}: misfit {m[c]:.4f} > {bound}")
    harness.check(max(abs(x) for x in lg) <= 1e-3, f"arrival times off FK's by {lg} s")


def test_layered_reference_is_causal_and_whole():
    """The stored solution: nothing before the first P wave can arrive (1.2 s: 8.54 km at
    6 km/s is 1.42 s, less the moment rate's 3 sigma before its centre), and peaks of the size
    the file was made with (0.496, 0.232, 0.151 m/s): a damaged or truncated file fails."""
    import numpy as np

    t, f = layered.reference()
    keep = t <= layered.TMAX
    pre = t < 1.2
    for c, peak in enumerate((0.4958, 0.2316, 0.1514)):
        quiet = np.linalg.norm(f[c][pre]) / np.linalg.norm(f[c][keep])
        harness.check(quiet <= 1e-4, f"component {c}: {quiet:.1e} of the norm before the P wave")
        got = np.abs(f[c][keep]).max()
        harness.check(abs(got - peak) <= 1e-3 * peak, f"component {c}: peak {got:.4f}, not {peak}")
    harness.check(t[-1] >= layered.TMAX, f"the reference ends at {t[-1]} s")
