#!/bin/sh
# Cost of saving strain on the GPU: the same viscoelastic run (free surface, PML) with one save
# point and with 1,000,000, strain saved every 10 steps; prints both times and the overhead.
# Usage: bench/sgt_gpu_saving.sh [NX NY NZ STEPS] (default 807 807 384 200: the 22 GB viscoelastic grid of sgt_gpu_bench)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/box_params.sh"
cs=${CS_BIN:-$repo/build/sgt-only/bin/cybershake}
gpu_box_setup "$@"
awk -v nx="$nx" -v ny="$ny" -v nz="$nz" 'BEGIN { srand(9); for (p = 0; p < 1000000; p++)
    printf "%d %d %d\n", 30 + int(rand() * (nx - 60)), 30 + int(rand() * (ny - 60)), int(rand() * (nz - 40)) }' >million.txt
gpu_box_params "$nx" "$ny" "$nz" "$steps" >s.par
t1=$(sgt_timing "$cs" sgt s.par --set save_points=one.txt)
t2=$(sgt_timing "$cs" sgt s.par --set save_points=million.txt)
echo "$t1 $t2" | awk -v g="${nx}x${ny}x${nz}" -v n="$steps" '{ printf "gpu-solver-viscoelastic grid=%s steps=%d one_point=%.2fs (%.2f G LUPS) million_points=%.2fs (%.2f G LUPS) saving_cost=%.1f%%\n", g, n, $1, $2, $3, $4, 100 * ($3 / $1 - 1) }'
