#!/bin/sh
# The solver on several GPUs of one node (one rank per GPU), in phases named on the command line:
#   check   SGT and forward runs on 1 rank and on 2 x 1, 1 x 2, 2 x 2 and 4 x 2 ranks (ranks share
#           GPUs where there are fewer GPUs than ranks) give the same bytes with the halo through
#           the host and by peer copies (CUDA IPC), agree with the CPU back end; a run killed by
#           its own hook resumes to the same bytes on the same decomposition and on others
#   weak    weak scaling: WEAK_NX x WEAK_NX x 200 nodes per GPU (1152: 22 GB viscoelastic) on
#           1, 2, 4, 8 GPUs, the halo by peer copies, through the host, and not exchanged at
#           all (the time of a step without the exchange, as Zhou et al. 2013 measure overlap)
#   strong  strong scaling: the USC box of CyberShake at 0.5 Hz (3201 x 1501 x 301 nodes,
#           121 GB viscoelastic) on every GPU count from 1 whose share fits the GPU
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
        -x CYBERSHAKE_MEMORY_GB -x CYBERSHAKE_HALO=${CYBERSHAKE_HALO:-auto} -x CYBERSHAKE_LOG=info \
        ${KILL:+-x CYBERSHAKE_FAULT_KILL_AFTER_STEP=$KILL} "$@"
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
    nvidia-smi topo -m 2>/dev/null | tee -a "$OUT/check.txt"
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
        for d in 2:2:1 2:1:2 4:2:2 8:4:2; do
            np=$(echo $d | cut -d: -f1) px=$(echo $d | cut -d: -f2) py=$(echo $d | cut -d: -f3)
            for halo in host peer; do
                # shellcheck disable=SC2086
                CYBERSHAKE_HALO=$halo mpirun_n "$np" "$CS" sgt run.par $extra --set ranks_x=$px --set ranks_y=$py \
                    --set output=g$np$px$halo.h5 >>"$OUT/check_$mode.log" 2>&1 || { ok=0; tail -3 "$OUT/check_$mode.log"; }
                if cmp -s g1.h5 g$np$px$halo.h5; then r=identical; else r=DIFFERENT; ok=0; fi
                echo "$mode: 1 GPU vs $px x $py ranks on $NGPU GPUs (halo: $halo): $r" | tee -a "$OUT/check.txt"
            done
        done
        grep -h "halo exchange by\|halo exchange through\|cannot open" "$OUT/check_$mode.log" | sort | uniq -c | tee -a "$OUT/check.txt"
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
    echo "== check: a run killed by its own hook resumes to the same bytes, on any decomposition" | tee -a "$OUT/check.txt"
    params 400 400 100 2000 >run.par
    "$CS" sgt run.par --set output=ref.h5 >"$OUT/restart.log" 2>&1
    k=$(awk 'BEGIN { srand(); print 300 + int(rand() * 500) }')
    CYBERSHAKE_FAULT_KILL_AFTER_STEP=$k "$CS" sgt run.par --set checkpoint_every=250 >>"$OUT/restart.log" 2>&1
    echo "1 GPU killed after step $k; manifest: $(tr '\n' ' ' <out.h5.ckpt/checkpoint 2>/dev/null)" | tee -a "$OUT/check.txt"
    KILL=$((k + 600)) mpirun_n 2 "$CS" sgt run.par --set checkpoint_every=250 --set ranks_x=2 --set ranks_y=1 >>"$OUT/restart.log" 2>&1
    echo "resumed on 2 x 1 GPUs, killed after step $((k + 600)); manifest: $(tr '\n' ' ' <out.h5.ckpt/checkpoint 2>/dev/null)" | tee -a "$OUT/check.txt"
    CYBERSHAKE_LOG=info mpirun_n 4 "$CS" sgt run.par --set checkpoint_every=250 --set ranks_x=2 --set ranks_y=2 >>"$OUT/restart.log" 2>&1
    if cmp -s ref.h5 out.h5; then r=identical; else r=DIFFERENT; ok=0; fi
    echo "resumed on 2 x 2 ranks ($NGPU GPUs) to the end vs uninterrupted: $r ($(grep -c "reading it across" "$OUT/restart.log") resumes across decompositions)" | tee -a "$OUT/check.txt"
    [ -e out.h5.ckpt ] && { echo "checkpoints left behind"; ok=0; }
    [ $ok = 1 ] && echo "check: all passed" | tee -a "$OUT/check.txt"
}

# run_case LABEL NP PX PY NX NY NZ STEPS: one decomposed run; prints the G LUPS, the time per step
# and the host's waits; the log in $OUT/LABEL.log.
run_case() {
    label=$1 np=$2 px=$3 py=$4
    params "$5" "$6" "$7" "$8" >run.par
    mpirun_n "$np" "$CS" sgt run.par --set ranks_x="$px" --set ranks_y="$py" >"$OUT/$label.log" 2>&1
    # the summary line: "out.h5: STEPS steps, SECONDS s, ... G LUPS, ..."
    secs=$(awk '/steps,.*G LUPS/ { for (i = 1; i < NF; i++) if ($(i + 1) == "steps,") print $(i + 2) }' "$OUT/$label.log" | tail -1)
    r=$(awk -v t="$secs" -v n=$(($5 * $6 * $7)) -v k="$8" 'BEGIN { if (t > 0) printf "%.3f %.2f", n * k / t / 1e9, t / k * 1e3 }')
    gb=$(grep -o "device arrays: [0-9.]* GB" "$OUT/$label.log" | head -1)
    waits=$(grep -h "halo exchanges:" "$OUT/$label.log" | head -1 | sed 's/.*halo exchanges/halo exchanges/')
    echo "$r |$gb per rank; $waits"
}

WEAK_NX=${WEAK_NX:-1152}
weak() {
    n=$WEAK_NX
    echo "== weak scaling: $n x $n x 200 nodes per GPU, viscoelastic, 200 steps" | tee -a "$OUT/scaling.txt"
    base=""
    for d in 1:1:1 2:2:1 4:2:2 8:4:2; do
        np=$(echo $d | cut -d: -f1) px=$(echo $d | cut -d: -f2) py=$(echo $d | cut -d: -f3)
        [ "$np" -le "$NGPU" ] || continue
        for halo in peer host none; do
            [ "$np" = 1 ] && [ $halo != peer ] && continue
            r=$(CYBERSHAKE_HALO=$halo run_case weak_${np}_$halo "$np" "$px" "$py" $((n * px)) $((n * py)) 200 200)
            l=${r%% *}
            [ -z "$base" ] && base=$l
            tag=""
            [ "$np" -gt 1 ] && tag=" halo $halo"
            echo "$np GPUs ($px x $py, $((n * px)) x $((n * py)) x 200)$tag: $l G LUPS, $(echo "$r" | cut -d' ' -f2) ms per step, efficiency $(awk -v l="$l" -v b="$base" -v n="$np" 'BEGIN { printf "%.1f%%", 100 * l / (n * b) }'); ${r#*|}" | tee -a "$OUT/scaling.txt"
        done
    done
}

strong() {
    echo "== strong scaling: 3201 x 1501 x 301 nodes (USC, CyberShake 0.5 Hz), viscoelastic, 100 steps" | tee -a "$OUT/scaling.txt"
    base="" bn=""
    for d in 1:1:1 2:1:2 4:2:2 8:4:2; do
        np=$(echo $d | cut -d: -f1) px=$(echo $d | cut -d: -f2) py=$(echo $d | cut -d: -f3)
        [ "$np" -le "$NGPU" ] || continue
        for halo in peer host none; do
            [ "$np" = 1 ] && [ $halo != peer ] && continue
            r=$(CYBERSHAKE_HALO=$halo run_case strong_${np}_$halo "$np" "$px" "$py" 3201 1501 301 100)
            l=${r%% *}
            if [ -z "$l" ] || [ "$l" = "|" ]; then
                echo "$np GPUs ($px x $py): did not run ($(grep -m1 -i "error" "$OUT/strong_${np}_$halo.log"))" | tee -a "$OUT/scaling.txt"
                continue
            fi
            [ -z "$base" ] && base=$l bn=$np
            tag=""
            [ "$np" -gt 1 ] && tag=" halo $halo"
            echo "$np GPUs ($px x $py)$tag: $l G LUPS, $(echo "$r" | cut -d' ' -f2) ms per step, speed-up over $bn GPU(s) $(awk -v l="$l" -v b="$base" 'BEGIN { printf "%.2f", l / b }'), efficiency $(awk -v l="$l" -v b="$base" -v n="$np" -v m="$bn" 'BEGIN { printf "%.1f%%", 100 * l * m / (n * b) }'); ${r#*|}" | tee -a "$OUT/scaling.txt"
        done
    done
}

for phase in "$@"; do
    t0=$(date +%s)
    "$phase"
    echo "($phase: $(($(date +%s) - t0)) s)"
done
rm -rf "$W"
