"""Runs the second layered benchmark (tests/physics/layered.py) at the given spacings and prints
its misfit against the frequency-wavenumber solution, radial / transverse / vertical, relative L2
over 0-8 s, and the arrival-time offset in three windows (ms, + late): the lines of the table in
docs/sgt.md ("A second layered benchmark").

    CS_BIN=build/sgt-only/bin/cybershake BACKEND=cuda python3 tests/physics/layered_run.py 50 25
    COURANT=0.46 python3 tests/physics/layered_run.py 50 bandlimited

TRACE_OUT=DIR also saves each run's traces (.npy: t, radial, transverse, vertical)."""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import layered  # noqa: E402
import loh  # noqa: E402

WINDOWS = ((0, 3.0), (3.0, 5.0), (5.0, 8.0))


def main():
    args = sys.argv[1:]
    rule = args.pop() if args and not args[-1][0].isdigit() else "effective"
    backend = os.environ.get("BACKEND", "cpu")
    courant = float(os.environ.get("COURANT", "0.48"))
    for h in [float(x) for x in args or ["50"]]:
        wd = harness.workdir(f"layered_{h:g}_{rule}")
        t0 = time.time()
        t, sim = layered.simulate(h, wd, {"backend": backend, "material_sampling": rule},
                                  courant=courant)
        tf, f = layered.reference()
        m = loh.misfits(t, sim, tf, f, tmax=layered.TMAX)
        lg = loh.lags(t, sim, tf, f, windows=WINDOWS)
        print(f"layered h={h:g} {rule}: FK R {m[0]:.4f} T {m[1]:.4f} Z {m[2]:.4f}  lag(ms) "
              + " ".join(f"{1e3 * x:+.2f}" for x in lg) + f"  {time.time() - t0:.0f} s", flush=True)
        out = os.environ.get("TRACE_OUT")
        if out:
            np.save(os.path.join(out, f"layered_{h:g}_{rule}.npy"), np.vstack([t, sim]))


if __name__ == "__main__":
    main()
