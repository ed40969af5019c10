#!/bin/sh
# The solver on several GPUs of one node (one rank per GPU), in phases named on the command line:
#   check   GPU runs on 1 rank and on 2 x 1, 1 x 2, 2 x 2 ranks give the same bytes (SGT and
#           forward runs), agree with the CPU back end, and a GPU run killed after a random step
#           resumes from its checkpoint to the same bytes
#   weak    weak scaling: 1024 x 1024 x 200 nodes per GPU on 1, 2, 4 GPUs, viscoelastic
#   strong  strong scaling: the USC box of CyberShake at 0.5 Hz (2100 x 2850 x 200 nodes) on
#           1, 2, 4 GPUs, viscoelastic
# Each run prints one summary line; results go to $OUT (or ./gpu-scaling). Needs the SGT-only
# build (make sgt-only) and mpirun.
#   sh bench/sgt_gpu_scaling.sh check weak strong
set -u
OUT=${OUT:-$PWD/gpu-scaling}
mkdir -p "$OUT"
CS=${CS:-$PWD/build/sgt-only/bin/cybershake}
NGPU=$(nvidia-smi -L 2>/dev/null | wc -l)
NCPU=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The machines' memory grows as it is used; /proc/meminfo under-reports it at first.
export CYBERSHAKE_MEMORY_GB=${CYBERSHAKE_MEMORY_GB:-400}
W=$(mktemp -d)
cd "$W" || exit 1

# mpirun_n N ARGS...: N ranks, one per GPU, the CPU cores shared out for the setup's threads.
mpirun_n() {
    n=$1
    shift
    mpirun --oversubscribe --bind-to none -np "$n" -x OMP_NUM_THREADS=$((NCPU / n)) \
        -x CYBERSHAKE_MEMORY_GB -x CYBERSHAKE_CUDA_AWARE_MPI=${CYBERSHAKE_CUDA_AWARE_MPI:-1} "$@"
}

params() { # params NX NY NZ NT
    cat <<PAR
mode = sgt
backend = cuda
nx = $1
ny = $2
nz = $3
h = 100 m
dt = 0.008 s
nt = $4
model_format = homogeneous
vp = 6000 m/s
vs = 3464 m/s
rho = 2700 kg/m3
vs_min = 0 m/s
attenuation = true
fmax = 1 Hz
source_i = $(($1 / 2))
source_j = $(($2 / 2))
source_k = 0
force_component = z
save_points = pts.txt
decimation = 10
output = out.h5
PAR
    printf '%d %d 0\n%d %d 10\n%d %d 30\n' $(($1 / 2 + 3)) $(($2 / 2)) $(($1 / 2)) $(($2 / 2 + 7)) \
        $(($1 / 3)) $(($2 / 3)) >pts.txt
}

# lups LOG: the G LUPS of a run's summary line
lups() { awk '/steps,.*G LUPS/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "G") print $i }' "$1" | tail -1; }

check() {
    echo "== check: decompositions give the same bytes" | tee -a "$OUT/check.txt"
    ompi_info 2>/dev/null | grep -i "cuda" | head -3 | tee -a "$OUT/check.txt"
    params 96 88 64 300 >run.par
    printf '48 44 0\n47 43 2\n49 45 5\n44 40 3\n52 48 6\n30 60 10\n' >pts.txt
    ok=1
    for mode in sgt forward; do
        extra=""
        if [ $mode = forward ]; then
            printf '48 44 28\n47 43 30\n49 45 33\n30 60 25\n' >rec.txt
            extra="--set mode=forward --set receivers=rec.txt --set source=moment --set moment_xx=1e15N*m --set moment_yy=-2e14N*m --set moment_zz=3e14N*m --set moment_xy=-1e15N*m --set moment_xz=5e14N*m --set moment_yz=2e15N*m --set source_k=30 --set absorbing=sponge --set free_surface=false --set attenuation=false"
        fi
        # shellcheck disable=SC2086
        "$CS" sgt run.par $extra --set output=g1.h5 >"$OUT/check_$mode.log" 2>&1 || { ok=0; tail -3 "$OUT/check_$mode.log"; }
        for d in 2:2:1 2:1:2 4:2:2; do
            np=$(echo $d | cut -d: -f1) px=$(echo $d | cut -d: -f2) py=$(echo $d | cut -d: -f3)
            [ "$np" -le "$NGPU" ] || continue
            for aware in 1 0; do
                # shellcheck disable=SC2086
                CYBERSHAKE_CUDA_AWARE_MPI=$aware mpirun_n "$np" "$CS" sgt run.par $extra --set ranks_x=$px --set ranks_y=$py \
                    --set output=g$np$px$aware.h5 >>"$OUT/check_$mode.log" 2>&1 || { ok=0; tail -3 "$OUT/check_$mode.log"; }
                if cmp -s g1.h5 g$np$px$aware.h5; then r=identical; else r=DIFFERENT; ok=0; fi
                echo "$mode: 1 GPU vs $px x $py GPUs (cuda-aware requested $aware): $r" | tee -a "$OUT/check.txt"
            done
        done
        # shellcheck disable=SC2086
        "$CS" sgt run.par $extra --set backend=cpu --set output=c1.h5 >>"$OUT/check_$mode.log" 2>&1
        python3 - g1.h5 c1.h5 $mode <<'PY' | tee -a "$OUT/check.txt"
import sys, h5py, numpy as np
a, b, mode = sys.argv[1:4]
key = "strain" if mode == "sgt" else "receivers/velocity"
x, y = h5py.File(a)[key][:].astype(float), h5py.File(b)[key][:].astype(float)
print(f"{mode}: GPU vs CPU relative L2 {np.linalg.norm(x - y) / np.linalg.norm(y):.2e} (max |x| {np.abs(y).max():.3e})")
PY
    done
    echo "== check: a GPU run killed after a random step resumes to the same bytes" | tee -a "$OUT/check.txt"
    params 400 400 100 2000 >run.par
    "$CS" sgt run.par --set output=ref.h5 >"$OUT/restart.log" 2>&1
    k=$(awk 'BEGIN { srand(); print 200 + int(rand() * 1500) }')
    CYBERSHAKE_FAULT_KILL_AFTER_STEP=$k "$CS" sgt run.par --set checkpoint_every=250 >>"$OUT/restart.log" 2>&1
    echo "killed after step $k; manifest: $(tr '\n' ' ' <out.h5.ckpt/checkpoint 2>/dev/null)" | tee -a "$OUT/check.txt"
    CYBERSHAKE_LOG=info "$CS" sgt run.par --set checkpoint_every=250 >>"$OUT/restart.log" 2>&1
    if cmp -s ref.h5 out.h5; then r=identical; else r=DIFFERENT; ok=0; fi
    echo "restarted run vs uninterrupted: $r ($(grep -c resuming "$OUT/restart.log") resume)" | tee -a "$OUT/check.txt"
    [ $ok = 1 ] && echo "check: all passed" | tee -a "$OUT/check.txt"
}

weak() {
    echo "== weak scaling: 1024 x 1024 x 200 nodes per GPU, viscoelastic, 200 steps" | tee -a "$OUT/scaling.txt"
    base=""
    for d in 1:1:1 2:2:1 4:2:2; do
        np=$(echo $d | cut -d: -f1) px=$(echo $d | cut -d: -f2) py=$(echo $d | cut -d: -f3)
        [ "$np" -le "$NGPU" ] || continue
        params $((1024 * px)) $((1024 * py)) 200 200 >run.par
        mpirun_n "$np" "$CS" sgt run.par --set ranks_x=$px --set ranks_y=$py >"$OUT/weak_$np.log" 2>&1
        l=$(lups "$OUT/weak_$np.log")
        grep -h "halo exchange" "$OUT/weak_$np.log" | sort | uniq -c | head -3
        [ -z "$base" ] && base=$l
        echo "$np GPUs ($px x $py, $((1024 * px)) x $((1024 * py)) x 200): $l G LUPS, efficiency $(awk -v l="$l" -v b="$base" -v n="$np" 'BEGIN { printf "%.1f%%", 100 * l / (n * b) }')" | tee -a "$OUT/scaling.txt"
    done
}

strong() {
    echo "== strong scaling: 2100 x 2850 x 200 nodes (USC box, 0.5 Hz), viscoelastic, 100 steps" | tee -a "$OUT/scaling.txt"
    base=""
    for d in 1:1:1 2:1:2 4:2:2; do
        np=$(echo $d | cut -d: -f1) px=$(echo $d | cut -d: -f2) py=$(echo $d | cut -d: -f3)
        [ "$np" -le "$NGPU" ] || continue
        params 2100 2850 200 100 >run.par
        mpirun_n "$np" "$CS" sgt run.par --set ranks_x=$px --set ranks_y=$py >"$OUT/strong_$np.log" 2>&1
        l=$(lups "$OUT/strong_$np.log")
        grep -h "halo exchange" "$OUT/strong_$np.log" | sort | uniq -c | head -3
        [ -z "$base" ] && base=$l
        echo "$np GPUs ($px x $py): $l G LUPS, speed-up $(awk -v l="$l" -v b="$base" 'BEGIN { printf "%.2f", l / b }'), efficiency $(awk -v l="$l" -v b="$base" -v n="$np" 'BEGIN { printf "%.1f%%", 100 * l / (n * b) }')" | tee -a "$OUT/scaling.txt"
        grep -E "error|setup" "$OUT/strong_$np.log" | head -3
    done
}

for phase in "$@"; do
    t0=$(date +%s)
    "$phase"
    echo "($phase: $(($(date +%s) - t0)) s)"
done
rm -rf "$W"
