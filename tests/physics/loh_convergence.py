"""The LOH.1 / LOH.3 misfit table (docs/sgt.md): runs the benchmarks at several spacings and
material rules, prints one line per case and writes the traces and the table.

    python3 tests/physics/loh_convergence.py --backend cuda --h 100,50,25 --out loh-results
    CS_BIN=build/sgt-only/bin/cybershake python3 tests/physics/loh_convergence.py ...

Each line: case, h, material rule, misfit radial / transverse / vertical over 0-9 s against the
published solution (and, for LOH.1, against the frequency-wavenumber one: "FK"), and the
arrival-time offset of the simulation against the reference (cross-correlation peak, refined
by a parabola; positive: the simulation is late) in three windows."""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import loh  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--h", default="100,50")
    ap.add_argument("--cases", default="loh1")
    ap.add_argument("--sampling", default="effective,point")
    ap.add_argument("--out", default="loh-results")
    ap.add_argument("--frame", default="path")
    ap.add_argument("--box", default=None, help="behind,beyond,half,depth (m)")
    ap.add_argument("--tag", default="")
    ap.add_argument("--courant", type=float, default=None,
                    help="vp_max dt / h (default loh.COURANT[rule])")
    ap.add_argument("--pml", type=float, default=1000.0, help="absorbing layer thickness (m)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    runs = {}
    for case in args.cases.split(","):
        tref, ref = loh.reference(case)
        for h in [float(x) for x in args.h.split(",")]:
            for rule in args.sampling.split(","):
                wd = harness.workdir(f"{case}_{int(h)}_{rule}")
                t0 = time.time()
                box = tuple(float(x) for x in args.box.split(",")) if args.box else None
                t, sim = loh.simulate(case, h, wd, {"backend": args.backend,
                                                    "material_sampling": rule}, box, args.frame,
                                      args.courant or loh.COURANT[rule], args.pml)
                m = loh.misfits(t, sim, tref, ref)
                lg = loh.lags(t, sim, tref, ref)
                mfk = None
                if case == "loh1":
                    tfk, fk = loh.reference("loh1", "fk")
                    mfk = loh.misfits(t, sim, tfk, fk)
                runs[(case, h, rule)] = (t, sim)
                qr = None
                if case == "loh3" and ("loh1", h, rule) in runs:
                    qr = [float(x) for x in loh.q_ratios(*runs[("loh1", h, rule)], t, sim)]
                row = {"case": case, "h": h, "rule": rule, "frame": args.frame, "box": args.box,
                       "backend": args.backend, "misfit": m, "misfit_fk": mfk, "lag_s": lg,
                       "q_ratio": qr,
                       "wall_s": time.time() - t0}
                rows.append(row)
                np.save(os.path.join(args.out, f"{case}_{h:g}_{rule}{args.tag}.npy"), np.vstack([t, sim]))
                print(f"{case}{args.tag} h={h:g} m {rule:9s} misfit R {m[0]:.4f} T {m[1]:.4f} Z {m[2]:.4f}"
                      + (f"  FK R {mfk[0]:.4f} T {mfk[1]:.4f} Z {mfk[2]:.4f}" if mfk else "")
                      + f"  lag(ms) {' '.join(f'{1e3 * x:+.2f}' for x in lg)}  {row['wall_s']:.0f} s"
                      + (f"  Q/Qref at {loh.Q_FREQS} Hz: {' '.join(f'{x:.3f}' for x in qr)}"
                         if qr else ""),
                      flush=True)
    with open(os.path.join(args.out, "table.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
