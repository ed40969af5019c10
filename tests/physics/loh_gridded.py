"""LOH.1 with the model given as a 3D gridded HDF5 file instead of a layered one: the effective
media of a 3D model come from sub-cell sampling (`material_subsamples` per axis), and should
reach those of the exact 1D integration as the samples grow (docs/sgt.md).

    python3 tests/physics/loh_gridded.py H N... [--backend cuda]

The model is laterally uniform with points every 10 m in depth at -5, 5, ..., 995 (layer),
1005 (half space), ...: the interface is a 10 m ramp centred on 1000 m, on a node for h = 50 m."""
import argparse
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import loh  # noqa: E402


def write_model(path):
    z = -5.0 + 10.0 * np.arange(1002)
    layer = z < 1000

    def field(a, b):
        v = np.where(layer, a, b).astype(np.float32)
        return np.broadcast_to(v[:, None, None], (len(z), 2, 2)).copy()

    with h5py.File(path, "w") as f:
        f["vp"], f["vs"], f["rho"] = field(4000, 6000), field(2000, 3464), field(2600, 2700)
        for k, v in dict(x0=-30e3, y0=-30e3, z0=-5.0, dx=60e3, dy=60e3, dz=10.0).items():
            f.attrs[k] = v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("h", type=float)
    ap.add_argument("n", nargs="+")
    ap.add_argument("--backend", default="cpu")
    args = ap.parse_args()
    tref, ref = loh.reference("loh1")
    for n in args.n:
        wd = harness.workdir("loh_gridded")
        write_model(os.path.join(wd, "loh3d.h5"))
        t, sim = loh.simulate("loh1", args.h, wd, {
            "model_format": "hdf5", "model_file": "loh3d.h5", "material_subsamples": n,
            "backend": args.backend})
        m = loh.misfits(t, sim, tref, ref)
        print(f"LOH.1 gridded h={args.h:g} m subsamples {n}: misfit R {m[0]:.4f} T {m[1]:.4f} "
              f"Z {m[2]:.4f}", flush=True)


if __name__ == "__main__":
    main()
