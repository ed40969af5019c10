#!/bin/sh
# The whole GPU solver (`cybershake sgt`) against its bare kernels: the same viscoelastic grid as
# sgt_gpu_bench's (807 x 807 x 384, one save point) with the absorbing boundary and the free
# surface switched in turn, and, with Nsight Compute where it is installed, the time of every
# kernel launch of a few steps (ncu_steps.txt), so the solver's cost beyond the two updates is
# assigned to what spends it.
# Usage: bench/sgt_gpu_solver.sh [NX NY NZ STEPS] (default 807 807 384 200); results in $OUT.
# NCU=none skips Nsight Compute; CYBERSHAKE_GPU_ZSHELL=0 (and the other CYBERSHAKE_GPU_*
# settings) pass through to the solver.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/box_params.sh"
cs=${CS_BIN:-$repo/build/sgt-only/bin/cybershake}
OUT=${OUT:-$PWD/gpu-results}
mkdir -p "$OUT"
gpu_box_setup "$@"
printf '%d %d %d\n' $((nx / 2)) $((ny / 2)) $((nz / 2)) >mid.txt
{
    gpu_box_params "$nx" "$ny" "$nz" "$steps"
    printf 'save_points = one.txt\n'
} >s.par
run() { # run LABEL SETTINGS...
    label=$1
    shift
    r=$(sgt_timing "$cs" sgt s.par "$@")
    echo "$r" | awk -v l="$label" -v n="$steps" '{ printf "gpu-solver %-40s %.3f s for %d steps (%.2f ms/step), %.2f G LUPS\n", l, $1, n, 1e3 * $1 / n, $2 }' | tee -a "$OUT/solver.txt"
}
run "viscoelastic, PML 20, free surface"
run "viscoelastic, PML 20, PML on top too" --set free_surface=false --set source_k=$((nz / 2)) --set save_points=mid.txt
run "viscoelastic, sponge 20, free surface" --set absorbing=sponge
run "viscoelastic, PML 1, free surface" --set absorbing_width=1
run "elastic, PML 20, free surface" --set attenuation=false
NCU=${NCU:-$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)}
[ "$NCU" = none ] && NCU= # NCU=none: the timings only
if [ -n "$NCU" ]; then
    # 40 launches after the first 200 (a few steps, past the setup): each one's duration.
    "$NCU" --clock-control none --launch-skip 200 --launch-count 40 \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        "$cs" sgt s.par --set nt=40 >"$OUT/ncu_steps.txt" 2>&1 || true
    awk '/Context [0-9]+, Stream/ { l = $0; sub(/^ +(void )?/, "", l); sub(/[(<].*/, "", l); name = l }
        /gpu__time_duration/ { f = $2 == "ms" ? 1000 : $2 == "ns" ? 0.001 : 1; t[name] += $3 * f; n[name]++ }
        END { for (k in t) printf "ncu %-24s launches %3d, %9.1f us in all\n", k, n[k], t[k] }' \
        "$OUT/ncu_steps.txt" | sort | tee -a "$OUT/solver.txt"
fi
