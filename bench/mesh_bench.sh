#!/bin/sh
# The mesh stage's speed: `cybershake mesh` (the material file: effective media of every node and
# vertical staggered position) on an NX x NY x NZ grid (default 200 x 200 x 100, h = 100 m) from
# a 3D gridded HDF5 model with 1, 3 (the default) and 4 samples per axis, from the point rule, and
# from a 1D fk1d model. Prints one line per case: seconds and nodes per second. Run from the
# repository after `make`; OMP_NUM_THREADS sets the threads.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cs="$repo/build/bin/cybershake"
nx=${NX:-200} ny=${NY:-200} nz=${NZ:-100}
wd=$(mktemp -d)
trap 'rm -rf "$wd"' EXIT
cd "$wd"
# a smoothly varying 3D model on a 250 m grid covering the box (centred on the origin)
/usr/bin/python3 - "$nx" "$ny" "$nz" <<'PY'
import sys, h5py, numpy as np
nx, ny, nz = (int(a) for a in sys.argv[1:4])
gx, gy, gz = nx * 100 // 250 + 3, ny * 100 // 250 + 3, nz * 100 // 250 + 3
x = np.arange(gx)[None, None, :]; y = np.arange(gy)[None, :, None]; z = np.arange(gz)[:, None, None]
vs = (1000 + 40 * z + 100 * np.sin(x / 7.0) * np.cos(y / 5.0)).astype(np.float32)
with h5py.File("model.h5", "w") as f:
    f["vs"] = vs; f["vp"] = (1.8 * vs).astype(np.float32); f["rho"] = (1700 + 0.2 * vs).astype(np.float32)
    for k, v in dict(x0=-(nx - 1) * 50.0 - 250, y0=-(ny - 1) * 50.0 - 250, z0=0.0, dx=250.0, dy=250.0, dz=250.0).items():
        f.attrs[k] = v
PY
cat >run.par <<PAR
nx = $nx
ny = $ny
nz = $nz
h = 100 m
dt = 0.005 s
nt = 1
fmax = 1 Hz
vs_min = 500 m/s
output = out.h5
save_points = pts.txt
PAR
nodes=$((nx * ny * nz))
one() { # label, then --set arguments
    label=$1
    shift
    t0=$(date +%s.%N)
    "$cs" mesh run.par mat.h5 "$@" >/dev/null
    t1=$(date +%s.%N)
    echo "$label" "$t0" "$t1" "$nodes" | awk '{s = $3 - $2; printf "mesh %-28s %d nodes: %.1f s, %.3g nodes/s\n", $1, $4, s, $4 / s}'
}
one hdf5-point --set model_format=hdf5 --set model_file=model.h5 --set material_sampling=point
for n in 1 3 4; do
    one "hdf5-effective-n$n" --set model_format=hdf5 --set model_file=model.h5 --set material_subsamples=$n
done
one fk1d-effective --set model_format=fk1d --set model_file="$repo/tests/data/bbp_nr02-vs500.fk1d" \
    --set material_sampling=effective
one fk1d-bandlimited --set model_format=fk1d --set model_file="$repo/tests/data/bbp_nr02-vs500.fk1d" \
    --set material_sampling=bandlimited
