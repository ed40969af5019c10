#!/bin/sh
# CPU benchmark of the SGT solver: grid-point updates per second (LUPS) for the elastic and the
# viscoelastic kernels on a grid of at least 20 million points (default 280 x 280 x 256),
# free surface and PML on, a force at the surface and 1000 save points, as an SGT run has them.
# Prints one summary line per case. Usage: bench/sgt_cpu.sh [STEPS] [NX NY NZ]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/box_params.sh"
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
    {
        box_params "$nx" "$ny" "$nz" "$steps"
        printf 'attenuation = %s\nsave_points = pts.txt\noutput = b.h5\n' "$visco"
    } >b.par
    r=$(sgt_timing "$cs" sgt b.par)
    secs=${r% *} lups=${r#* }
    bytes=120
    case=cpu-elastic
    if [ "$visco" = true ]; then bytes=184; case=cpu-viscoelastic; fi
    awk -v c="$case" -v l="$lups" -v s="$secs" -v b="$bytes" -v n="$steps" -v g="${nx}x${ny}x${nz}" \
        -v t="$(nproc)" 'BEGIN { printf "%s grid=%s points=%.1fM steps=%d time=%.2fs LUPS=%.3fG effective_bandwidth=%.1fGB/s (%d B/update, docs/performance.md) threads=%d\n",
        c, g, (split(g, d, "x") ? d[1] * d[2] * d[3] / 1e6 : 0), n, s, l, l * b, b, t }'
done
