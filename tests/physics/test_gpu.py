"""CPU and GPU back ends compute the same thing: a viscoelastic run with a free surface, a PML
and a force source, 2000 steps, stored strain at save points from both back ends, relative L2
difference at most 1e-5 (float32 round-off, and the GPU's fused multiply-adds, accumulated over
2000 steps; the measured value is printed). Reported skipped, not passed, where there is no GPU
or the build has no CUDA back end."""
import os

import numpy as np

import harness


def params(backend):
    return {
        "mode": "sgt", "backend": backend, "nx": 64, "ny": 60, "nz": 48, "h": "100 m",
        "dt": "0.007 s", "nt": 2000, "model_format": "depth-table", "model_file": "model.txt",
        "vs_min": "0 m/s", "attenuation": "true", "fmax": "2 Hz", "free_surface": "true",
        "absorbing": "pml", "absorbing_width": 12, "source_i": 30, "source_j": 28,
        "source_k": 0, "force_vector": "0.3 -0.5 0.8", "save_points": "pts.txt",
        "decimation": 10, "output": f"sgt_{backend}.h5",
    }


def test_gpu_matches_cpu():
    wd = harness.workdir("gpu")
    with open(os.path.join(wd, "model.txt"), "w") as f:
        f.write("depth[km] vp[km/s] vs[km/s] rho[g/cm3]\n0 3.0 1.7 2.3\n0.6 4.5 2.6 2.6\n")
    rng = np.random.default_rng(5)
    # (20, 20, 6) lies on the interface (0.6 km): a layered cell's strain on both back ends
    pts = [(30, 28, 0), (20, 20, 6)] + [(int(rng.integers(14, 50)), int(rng.integers(14, 46)), int(rng.integers(0, 34)))
                           for _ in range(60)]
    harness.write_points(os.path.join(wd, "pts.txt"), pts)
    r = harness.run_solver(wd, params("cuda"), "gpu", check=False)
    if r.returncode != 0:
        if "no CUDA" in r.stderr:
            raise harness.Skip(r.stderr.strip().split("error: ")[-1])
        raise AssertionError(f"GPU run failed: {r.stderr.strip()}")
    cpu = harness.run_solver(wd, params("cpu"), "cpu")
    with harness.load(os.path.join(wd, "sgt_cuda.h5")) as g, harness.load(cpu) as c:
        diff = harness.misfit(g["strain"][:], c["strain"][:])
    print(f"    GPU vs CPU, 2000 steps: relative L2 difference {diff:.2e}")
    harness.check(diff <= 1e-5, f"GPU and CPU differ by {diff:.2e} > 1e-5")
