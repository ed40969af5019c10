"""The SCEC layer-over-half-space benchmarks against their published solution (tests/physics/
loh.py; tests/data/loh/NOTES.md): LOH.1 at h = 50 m with the interface on a node, the case the
effective media are for, and LOH.3's attenuation against LOH.1's.

Norm: relative L2 misfit over 0-9 s at receiver 10 per component (radial, transverse,
vertical), with SW4's Gaussian moment rate (sigma 0.06 s) on both sides. Bounds, from the table
in docs/sgt.md (GPU runs of the same script):
- LOH.1 at h = 50 m: 12% per component against the published solution. Measured 10.2 / 6.6 /
  7.5% in this test's box (10.7 / 6.6 / 7.3% in the table's larger box). The older rule (a node
  on the interface takes the layer below) misfits 79 / 57 / 46%, so the bound fails if the
  material falls back to it.
- The same run against the independent frequency-wavenumber solution (tests/physics/
  loh_fk_reference.py; NOTES.md), which the solver converges to (docs/sgt.md) while the
  published one is itself 5.15 / 3.83 / 3.18% away from it: measured 6.7 / 3.8 / 5.2%, bounds
  8 / 4.5 / 6.5%, and the arrival times within 3 ms of FK's (measured -0.3, -2.4, -1.6 ms:
  early). The cut node's isotropic pair (C11 = C33, before 2026-11-28) misfit 13.2 / 3.7 / 7.8%
  and arrived late by 1.8, 4.5, 1.3 ms; it fails the radial and vertical bounds and the times.
- LOH.3 against LOH.1 at h = 100 m (the ratio cancels most of the coarse grid's error): the
  simulation's effective Q over the reference's within 25% at 1, 1.5, 2 and 3 Hz (measured in
  this box 1.12 1.14 0.93 0.93; in the table's box 1.12 1.05 1.01 1.03, and at h = 25 m
  1.19 1.10 1.06 1.04 0.98 up to 4 Hz; 4 Hz has 5 nodes per S wavelength at h = 100 m and is
  left out here)."""
import numpy as np

import harness
import loh

# The box of these tests: 300 m behind the source and beyond the receiver, 1 km either side of
# the path, 4 km deep, inside a 500 m absorbing layer (the table's box is 1.5x wider and deeper
# with a 1 km layer; the misfit changes by less than 1.1 points).
BOX = (300.0, 300.0, 1000.0, 4000.0)
PML = 500.0


def run(case, h, extra=None, name=None):
    """EXTRA's material_sampling names the rule (the cell averages if it names none); the step
    is loh.COURANT's for it ("auto": the solver's default, which at that step takes the
    band-limited kernel)."""
    wd = harness.workdir(name or case)
    extra = dict(extra or {})
    extra.setdefault("material_sampling", "effective")
    return loh.simulate(case, h, wd, extra, BOX, "path", loh.COURANT[extra["material_sampling"]],
                        PML)


def test_loh1_h50_interface_on_a_node():
    t, sim = run("loh1", 50.0)
    tref, ref = loh.reference("loh1")
    m = loh.misfits(t, sim, tref, ref)
    lg = loh.lags(t, sim, tref, ref)
    print(f"    LOH.1 h = 50 m: misfit R {m[0]:.4f} T {m[1]:.4f} Z {m[2]:.4f}; "
          f"lag {' '.join(f'{1e3 * x:+.2f}' for x in lg)} ms")
    for c, name in enumerate(("radial", "transverse", "vertical")):
        harness.check(m[c] <= 0.12, f"{name}: misfit {m[c]:.4f} > 12%")
    check_against_fk(t, sim, (0.08, 0.045, 0.065), "cell averages")
    tfk, fk = loh.reference("loh1", "fk")
    lfk = loh.lags(t, sim, tfk, fk)
    print(f"    lag against FK {' '.join(f'{1e3 * x:+.2f}' for x in lfk)} ms")
    harness.check(max(abs(x) for x in lfk) <= 3e-3, f"arrival times off FK's by {lfk} s")


def check_against_fk(t, sim, bounds, what):
    tfk, fk = loh.reference("loh1", "fk")
    m = loh.misfits(t, sim, tfk, fk)
    print(f"    LOH.1 h = 50 m, {what}, against FK: misfit R {m[0]:.4f} T {m[1]:.4f} Z {m[2]:.4f}")
    for c, name in enumerate(("radial", "transverse", "vertical")):
        harness.check(m[c] <= bounds[c], f"{name} against FK: misfit {m[c]:.4f} > {bounds[c]}")


def test_loh1_references_agree():
    """The published PROSE solution and the frequency-wavenumber one (both convolved with the
    same Gaussian) differ by 5.15 / 3.83 / 3.18% of the published norm over 0-9 s. The
    published one carries 1.6% of its radial norm before the first P wave can arrive (1.8 s),
    FK 0.002%; the published one is late against FK by 0.7 / 1.6 / 1.8 ms (loh.lags' three
    windows) and FK's peaks are 0.5 / 1.0 / 1.1% higher. Bounds: 5.5 / 4.2 / 3.5%; 0.1% before
    the P wave for FK; each lag within 0.5 ms of the measured one; peak ratios in [1, 1.02]. A
    damaged file, one shifted by 1 ms or scaled by 3% fails."""
    tp, p = loh.reference("loh1")
    tf, f = loh.reference("loh1", "fk")
    keep = tp <= 9.0
    m = [harness.misfit(np.interp(tp[keep], tf, f[c]), p[c][keep]) for c in range(3)]
    pre = tf < 1.8
    quiet = [np.linalg.norm(f[c][pre]) / np.linalg.norm(f[c][tf <= 9.0]) for c in range(3)]
    print(f"    FK against PROSE: R {m[0]:.4f} T {m[1]:.4f} Z {m[2]:.4f}; FK before P: "
          f"{' '.join(f'{x:.1e}' for x in quiet)}")
    for c, b in enumerate((0.055, 0.042, 0.035)):
        harness.check(m[c] <= b, f"component {c}: FK against PROSE {m[c]:.4f} > {b}")
    harness.check(max(quiet) <= 1e-3, f"FK has {quiet} of its norm before the first P wave")
    lg = loh.lags(tf, f, tp, p)
    for got, want in zip(lg, (-0.69e-3, -1.60e-3, -1.80e-3)):
        harness.check(abs(got - want) <= 0.5e-3, f"FK's lags against PROSE {lg} s, not {want}")
    for c in range(3):
        ratio = np.abs(f[c][tf <= 9.0]).max() / np.abs(p[c][keep]).max()
        harness.check(1.0 <= ratio <= 1.02, f"component {c}: FK's peak over PROSE's {ratio:.4f}")


def test_loh3_attenuation_against_loh1():
    t1, v1 = run("loh1", 100.0)
    t3, v3 = run("loh3", 100.0)
    q = loh.q_ratios(t1, v1, t3, v3)
    tref, ref = loh.reference("loh3")
    m = loh.misfits(t3, v3, tref, ref)
    print(f"    LOH.3 h = 100 m: Q / Q_reference at {loh.Q_FREQS} Hz: "
          f"{' '.join(f'{x:.3f}' for x in q)}; misfit R {m[0]:.3f} T {m[1]:.3f} Z {m[2]:.3f}")
    resolved = np.asarray(loh.Q_FREQS) <= 3.0
    harness.check(np.all(np.abs(np.asarray(q)[resolved] - 1) <= 0.25), f"Q ratios {q} beyond 25%")
    # the attenuated run is the weaker one, by about the reference's margin at 3 Hz (ln ratio
    # -0.78; not a copy of LOH.1)
    harness.check(loh.attenuation(t1, v1, t3, v3)[3] < -0.5, "LOH.3 barely attenuates")
    # the coarse grid's misfit (31 / 15 / 17% measured in this box, 43 / 16 / 23% with the cut
    # node's isotropic pair; 6.0 / 6.5 / 5.9% at h = 25 m in the table): a regression bound, not
    # an accuracy claim
    for c, name in enumerate(("radial", "transverse", "vertical")):
        harness.check(m[c] <= 0.45, f"LOH.3 {name}: misfit {m[c]:.3f} > 45%")
