"""Helpers for the physics tests: write a parameter file, run `cybershake sgt`, read outputs."""
import os
import subprocess
import tempfile

import h5py
import numpy as np

REPO = os.environ.get("CS_REPO", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
# CS_BIN selects another build (the SGT-only build on GPU machines).
CS = os.environ.get("CS_BIN", os.path.join(REPO, "build", "bin", "cybershake"))
KEEP = os.environ.get("CS_KEEP_TEST_FILES")


class Skip(Exception):
    pass


def workdir(name):
    d = tempfile.mkdtemp(prefix=f"cs_phys_{name}_")
    return d


def write_points(path, pts):
    with open(path, "w") as f:
        for p in pts:
            f.write("%d %d %d\n" % tuple(p))


def run_solver(wd, params, name="run", check=True):
    """Writes PARAMS (a dict, values as written in a parameter file) and runs the solver.
    Returns the output's path (with check=False: the completed process instead)."""
    par = os.path.join(wd, name + ".par")
    with open(par, "w") as f:
        for k, v in params.items():
            f.write(f"{k} = {v}\n")
    r = subprocess.run([CS, "sgt", par], cwd=wd, capture_output=True, text=True)
    if not check:
        return r
    if r.returncode != 0:
        raise AssertionError(f"cybershake sgt {par} failed ({r.returncode}): {r.stderr.strip()}")
    return os.path.join(wd, params["output"])


def load(path):
    return h5py.File(path, "r")


def misfit(a, b):
    """Relative L2 misfit ||a - b|| / ||b||."""
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)) / np.linalg.norm(np.asarray(b)))


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)
