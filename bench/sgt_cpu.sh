#!/bin/sh
# CPU benchmark of the SGT solver: grid-point updates per second (LUPS) for the elastic and the
# viscoelastic kernels on a grid of at least 20 million points (default 280 x 280 x 256),
# free surface and PML on, a force at the surface and 1000 save points, as an SGT run has them.
# Prints one summary line per case. Usage: bench/sgt_cpu.sh [STEPS] [NX NY NZ]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cs="$repo/build/bin/cybershake"
steps=${1:-30}
nx=${2:-280}
ny=${3:-280}
nz=${4:-256}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
awk -v nx="$nx" -v ny="$ny" -v nz="$nz" 'BEGIN { srand(3); for (p = 0; p < 1000; p++)
    printf "%d %d %d\n", 30 + int(rand() * (nx - 60)), 30 + int(rand() * (ny - 60)), int(rand() * (nz - 40)) }' >pts.txt
for visco in false true; do
    cat >b.par <<PAR
nx = $nx
ny = $ny
nz = $nz
h = 100 m
dt = 0.005 s
nt = $steps
model_format = homogeneous
vp = 6000 m/s
vs = 3464 m/s
rho = 2700 kg/m3
attenuation = $visco
fmax = 3 Hz
source_i = $((nx / 2))
source_j = $((ny / 2))
source_k = 0
force_component = z
save_points = pts.txt
decimation = 10
output = b.h5
PAR
    out=$(CYBERSHAKE_LOG=warn "$cs" sgt b.par)
    lups=$(echo "$out" | sed -n 's/.*steps, \([0-9.]*\) s, \([0-9.e+-]*\) G LUPS.*/\2/p')
    secs=$(echo "$out" | sed -n 's/.*steps, \([0-9.]*\) s, .*/\1/p')
    bytes=120
    case=cpu-elastic
    if [ "$visco" = true ]; then bytes=184; case=cpu-viscoelastic; fi
    awk -v c="$case" -v l="$lups" -v s="$secs" -v b="$bytes" -v n="$steps" -v g="${nx}x${ny}x${nz}" \
        -v t="$(nproc)" 'BEGIN { printf "%s grid=%s points=%.1fM steps=%d time=%.2fs LUPS=%.3fG effective_bandwidth=%.1fGB/s (%d B/update, DESIGN.md 6) threads=%d\n",
        c, g, (split(g, d, "x") ? d[1] * d[2] * d[3] / 1e6 : 0), n, s, l, l * b, b, t }'
done
