#!/bin/sh
# The solver on several MPI ranks: the same bytes for every decomposition (1 rank, 2 x 1, 1 x 2,
# 2 x 2, 3 x 1) in SGT and forward runs with every boundary and attenuation option, one output
# file whatever the decomposition, and checkpoints: a run killed at a random step and rerun
# writes the file an uninterrupted run writes, byte for byte.
. "$(dirname "$0")/lib.sh"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN="mpirun --oversubscribe"

# A box whose save points, source and receivers sit on and around the rank boundaries of the
# decompositions below (x splits at 24 or 16/32, y at 22).
sgt_params() {
    cat <<'PAR'
mode = sgt
nx = 48
ny = 44
nz = 36
h = 100 m
dt = 0.008 s
nt = 50
model_format = homogeneous
vp = 3464 m/s
vs = 2000 m/s
rho = 2500 kg/m3
vs_min = 0 m/s
fmax = 2 Hz
absorbing_width = 8
source_i = 23
source_j = 22
source_k = 0
force_component = z
save_points = pts.txt
decimation = 2
threads = 1
output = out.h5
PAR
    printf '23 22 0\n24 21 3\n22 23 6\n16 22 2\n15 10 4\n32 30 8\n24 22 12\n' >pts.txt
}

forward_params() {
    cat <<'PAR'
mode = forward
nx = 48
ny = 44
nz = 36
h = 100 m
dt = 0.008 s
nt = 50
model_format = homogeneous
vp = 3464 m/s
vs = 2000 m/s
rho = 2500 kg/m3
vs_min = 0 m/s
fmax = 2 Hz
absorbing_width = 8
source = moment
moment_xx = 1e15 N*m
moment_yy = -2e14 N*m
moment_zz = 3e14 N*m
moment_xy = -1e15 N*m
moment_xz = 5e14 N*m
moment_yz = 2e15 N*m
source_i = 24
source_j = 21
source_k = 10
receivers = rec.txt
threads = 1
output = out.h5
PAR
    printf '24 22 9\n23 21 10\n25 23 12\n10 10 9\n38 30 11\n16 22 10\n' >rec.txt
}

# same_bytes REF FILE: the files are identical (and say where they differ if not).
same_bytes() {
    if ! cmp -s "$1" "$2"; then
        echo "    $2 differs from $1:" >&2
        h5diff -r "$1" "$2" 2>&1 | head -8 | sed 's/^/    /' >&2
        return 1
    fi
}

# decompositions ARGS...: the run on 1 rank (no mpirun), then on 2 x 1, 1 x 2, 2 x 2 and 3 x 1,
# all compared byte for byte with the first.
decompositions() {
    run "$CS" sgt run.par --set output=r1.h5 "$@" && expect_rc 0 || return 1
    for d in 2:2:1 2:1:2 4:2:2 3:3:1; do
        np=$(echo "$d" | cut -d: -f1)
        px=$(echo "$d" | cut -d: -f2)
        py=$(echo "$d" | cut -d: -f3)
        run $MPIRUN -np "$np" "$CS" sgt run.par --set output="r$np.$px.h5" --set ranks_x="$px" \
            --set ranks_y="$py" "$@" && expect_rc 0 || return 1
        same_bytes r1.h5 "r$np.$px.h5" || return 1
    done
}

t_sgt_viscoelastic_pml_free_surface() {
    sgt_params >run.par
    decompositions --set attenuation=true || return 1
    # The strain is not trivially zero at the points.
    h5dump -d /strain -c '1,1,25' r1.h5 | grep -Eq '[1-9]e-|0\.0*[1-9]' || return 1
}

t_sgt_elastic_sponge_no_free_surface() {
    sgt_params | sed 's/^source_k = 0/source_k = 12/' >run.par
    printf '23 22 10\n24 21 12\n16 22 11\n32 30 14\n' >pts.txt
    decompositions --set free_surface=false --set absorbing=sponge || return 1
}

t_forward_moment_source_across_ranks() {
    forward_params >run.par
    decompositions --set attenuation=true --set absorbing=sponge || return 1
    forward_params >run.par
    decompositions --set free_surface=false || return 1
}

t_bad_decomposition_reported_once() {
    sgt_params >run.par
    run $MPIRUN -np 4 "$CS" sgt run.par --set ranks_x=3 && expect_rc 1 &&
        expect_err "3 does not divide the 4 MPI processes" || return 1
    [ "$(grep -c 'does not divide' "$T/err")" = 1 ] || { echo "    reported more than once" >&2; return 1; }
    run $MPIRUN -np 2 "$CS" sgt run.par --set ranks_x=2 --set nx=12 --set source_i=6 &&
        expect_rc 1 && expect_err "at least 8 nodes wide" || return 1
}

# kill_at_random_step NP: runs the 160-step run with checkpoints every 5 steps on NP ranks and
# kills it (every rank, by the solver's own hook, as a node failure would) after a random step
# past the first checkpoint; checks it left a checkpoint and did not finish. (It was killed by
# pkill at a random moment after the first checkpoint appeared: a run quicker than that moment
# finished first, and the test failed on an idle machine.)
kill_at_random_step() {
    np=$1
    shift
    k=$(awk 'BEGIN { srand(); printf "%d", 6 + int(rand() * 150) }')
    if [ "$np" = 1 ]; then
        CYBERSHAKE_FAULT_KILL_AFTER_STEP=$k "$CS" sgt run.par --set checkpoint_every=5 "$@" \
            >killed.log 2>&1
    else
        CYBERSHAKE_FAULT_KILL_AFTER_STEP=$k $MPIRUN -np "$np" "$CS" sgt run.par \
            --set checkpoint_every=5 "$@" >killed.log 2>&1
    fi
    [ -e out.h5.ckpt/checkpoint ] || { echo "    no checkpoint was written" >&2; return 1; }
    [ ! -e out.h5 ] || { echo "    the run finished before it was killed" >&2; return 1; }
    echo "    killed after step $k of 160, its checkpoint at step $(awk '/steps/ { print $2 }' out.h5.ckpt/checkpoint)" >&2
}

t_killed_run_resumes_to_the_same_bytes() {
    sgt_params | sed 's/^nt = 50/nt = 160/' >run.par
    run "$CS" sgt run.par --set attenuation=true --set output=ref.h5 && expect_rc 0 || return 1
    kill_at_random_step 1 --set attenuation=true || return 1
    # What a kill during the write of the manifest leaves behind.
    : >out.h5.ckpt/.checkpoint.tmp.Xy12Zq
    CYBERSHAKE_LOG=info run "$CS" sgt run.par --set checkpoint_every=5 --set attenuation=true &&
        expect_rc 0 && expect_err "resuming after step" || return 1
    same_bytes ref.h5 out.h5 || return 1
    [ ! -e out.h5.ckpt ] || { echo "    checkpoints left behind" >&2; return 1; }
}

t_killed_mpi_run_resumes_to_the_same_bytes() {
    forward_params | sed 's/^nt = 50/nt = 160/' >run.par
    run "$CS" sgt run.par --set output=ref.h5 && expect_rc 0 || return 1
    kill_at_random_step 2 || return 1
    CYBERSHAKE_LOG=info run $MPIRUN -np 2 "$CS" sgt run.par --set checkpoint_every=5 &&
        expect_rc 0 && expect_err "resuming after step" || return 1
    same_bytes ref.h5 out.h5 || return 1
}

t_checkpoint_of_another_run_is_refused() {
    sgt_params | sed 's/^nt = 50/nt = 160/' >run.par
    kill_at_random_step 1 || return 1
    # Other inputs: refused with a message, not used (another decomposition resumes: below).
    run "$CS" sgt run.par --set checkpoint_every=5 --set vs=2100m/s && expect_rc 1 &&
        expect_err "is of another run" || return 1
    # restart = false starts over and writes the uninterrupted run's bytes.
    run "$CS" sgt run.par --set restart=false --set output=ref.h5 && expect_rc 0 || return 1
    run "$CS" sgt run.par --set restart=false && expect_rc 0 || return 1
    same_bytes ref.h5 out.h5 || return 1
}

# killed_after STEP NP PX PY ARGS...: the run on NP ranks (PX x PY), checkpoints every 7 steps,
# killed by its own hook after STEP; checks it left a checkpoint and no output.
killed_after() {
    k=$1 np=$2 px=$3 py=$4
    shift 4
    if [ "$np" = 1 ]; then
        CYBERSHAKE_FAULT_KILL_AFTER_STEP=$k "$CS" sgt run.par --set checkpoint_every=7 "$@" \
            >killed.log 2>&1
    else
        CYBERSHAKE_FAULT_KILL_AFTER_STEP=$k $MPIRUN -np "$np" "$CS" sgt run.par \
            --set checkpoint_every=7 --set ranks_x="$px" --set ranks_y="$py" "$@" >killed.log 2>&1
    fi
    [ ! -e out.h5 ] && [ -e out.h5.ckpt/checkpoint ] ||
        { echo "    the run on $px x $py ranks was not killed after its checkpoint" >&2; return 1; }
}

# A run killed on one decomposition resumes on another (more ranks, fewer, the other axis) and
# still writes the uninterrupted run's bytes: SGT (viscoelastic, PML, free surface) and forward
# (receivers and a moment source on the rank boundaries), each killed twice.
t_checkpoint_resumes_on_another_decomposition() {
    sgt_params | sed 's/^nt = 50/nt = 60/' >run.par
    set -- --set attenuation=true
    run "$CS" sgt run.par --set output=ref.h5 "$@" && expect_rc 0 || return 1
    killed_after 20 2 2 1 "$@" || return 1
    killed_after 45 4 2 2 "$@" || return 1
    CYBERSHAKE_LOG=info run $MPIRUN -np 2 "$CS" sgt run.par --set checkpoint_every=7 \
        --set ranks_x=1 --set ranks_y=2 "$@" && expect_rc 0 &&
        expect_err "written on 4 ranks; reading it across the decomposition of this run (2 ranks)" ||
        return 1
    same_bytes ref.h5 out.h5 || return 1
    [ ! -e out.h5.ckpt ] || { echo "    checkpoints left behind: $(ls out.h5.ckpt)" >&2; return 1; }
    forward_params | sed 's/^nt = 50/nt = 60/' >run.par
    rm -f out.h5 out.h5.sha256
    run "$CS" sgt run.par --set output=ref.h5 && expect_rc 0 || return 1
    killed_after 30 1 1 1 || return 1
    killed_after 50 3 3 1 || return 1
    CYBERSHAKE_LOG=info run $MPIRUN -np 2 "$CS" sgt run.par --set checkpoint_every=7 \
        --set ranks_x=2 --set ranks_y=1 && expect_rc 0 && expect_err "written on 3 ranks" || return 1
    same_bytes ref.h5 out.h5 || return 1
    [ ! -e out.h5.ckpt ] || { echo "    checkpoints left behind: $(ls out.h5.ckpt)" >&2; return 1; }
}

# `cybershake mpirun` runs where a bare mpirun is refused: as root (this suite's machines) and with
# more ranks than cores, without the environment the other tests set for mpirun.
t_mpirun_wrapper_runs_as_root_on_few_cores() {
    sgt_params >run.par
    run "$CS" sgt run.par --set output=r1.h5 && expect_rc 0 || return 1
    bare="env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM -u OMPI_MCA_rmaps_base_oversubscribe"
    np=$(($(nproc) + 1))
    run $bare "$CS" mpirun --dry-run -np "$np" sgt run.par
    expect_rc 0 && expect_out "mpirun" && expect_out "--oversubscribe --bind-to none -np $np" || return 1
    # one OpenMP thread a rank when unbound, unless OMP_NUM_THREADS says otherwise
    expect_out "OMP_NUM_THREADS=1 " || return 1
    run env OMP_NUM_THREADS=2 $bare "$CS" mpirun --dry-run -np "$np" sgt run.par
    expect_rc 0 && ! grep -q OMP_NUM_THREADS "$T/out" || return 1
    if [ "$(id -u)" = 0 ]; then
        expect_out "--allow-run-as-root" || return 1
        # what the wrapper spares the user
        run $bare mpirun -np 1 "$CS" version && expect_rc 1 || return 1
    fi
    # more ranks than cores where the grid allows it (parts at least 8 nodes wide: 6 along x)
    [ "$np" -le 6 ] || np=3
    run $bare "$CS" mpirun -np "$np" sgt run.par --set ranks_x="$np" --set ranks_y=1 --set output=w.h5
    expect_rc 0 || return 1
    same_bytes r1.h5 w.h5 || return 1
    run "$CS" mpirun -np 0 sgt run.par && expect_rc 2 && expect_err "whole number of ranks" || return 1
}

t_serial_hdf5_build_gathers_to_rank_0() {
    # The SGT-only build (serial HDF5, as on the GPU machines) sends every rank's rows to rank 0:
    # the same bytes on every split, and the same data as the parallel-HDF5 build's file.
    SO="$REPO/build/sgt-only/bin/cybershake"
    if [ ! -x "$SO" ]; then
        echo "build/sgt-only/bin/cybershake is not built (make sgt-only)" >"$T/skip"
        return 77
    fi
    sgt_params >run.par
    run "$SO" sgt run.par --set attenuation=true --set output=s1.h5 && expect_rc 0 || return 1
    for d in 2:2:1 4:2:2 3:1:3; do
        np=$(echo "$d" | cut -d: -f1)
        px=$(echo "$d" | cut -d: -f2)
        py=$(echo "$d" | cut -d: -f3)
        run $MPIRUN -np "$np" "$SO" sgt run.par --set attenuation=true --set ranks_x="$px" \
            --set ranks_y="$py" --set output="s$np.$px.h5" && expect_rc 0 || return 1
        same_bytes s1.h5 "s$np.$px.h5" || return 1
    done
    run "$CS" sgt run.par --set attenuation=true --set output=p1.h5 && expect_rc 0 || return 1
    for d in /strain /points/material /points/index /source/stf; do
        h5diff s1.h5 p1.h5 "$d" "$d" >/dev/null || { echo "    $d differs between the builds" >&2; return 1; }
    done
}

# many_points N: about N save points filling the middle of the box (i, j, k).
many_points() {
    awk -v n="$1" 'BEGIN { c = 0; for (k = 0; k < 11 && c < n; k++) for (i = 8; i < 40 && c < n; i++)
        for (j = 8; j < 36 && c < n; j++) { print i, j, k; c++ } }' >pts.txt
}

t_strain_streamed_in_windows() {
    # 2,000 points and strain_buffer_mb = 1: windows of 8 of the 81 samples, written while the
    # run goes on; the values must be those of a run that holds every sample (one window).
    sgt_params | sed 's/^nt = 50/nt = 160/' >run.par
    many_points 2000
    run "$CS" sgt run.par --set attenuation=true --set output=whole.h5 && expect_rc 0 || return 1
    CYBERSHAKE_LOG=info run "$CS" sgt run.par --set attenuation=true --set strain_buffer_mb=1 \
        --set output=ref.h5 && expect_rc 0 || return 1
    h5dump -p -H -d /strain ref.h5 | grep -q 'CHUNKED ( 64, 6, 8 )' ||
        { echo "    the strain is not in chunks of 8 samples" >&2; return 1; }
    h5diff -d 0 whole.h5 ref.h5 /strain /strain >diff.txt 2>&1 ||
        { echo "    the windows change the strain:" >&2; head -5 diff.txt >&2; return 1; }
    # Written on the main thread, or by 2 and 4 ranks (each on its writer thread and in sync):
    # the same bytes.
    CYBERSHAKE_SGT_WRITER=sync run "$CS" sgt run.par --set attenuation=true \
        --set strain_buffer_mb=1 --set output=sync.h5 && expect_rc 0 || return 1
    same_bytes ref.h5 sync.h5 || return 1
    run $MPIRUN -np 2 "$CS" sgt run.par --set attenuation=true --set strain_buffer_mb=1 \
        --set output=r2.h5 && expect_rc 0 || return 1
    same_bytes ref.h5 r2.h5 || return 1
    CYBERSHAKE_SGT_WRITER=sync run $MPIRUN -np 4 "$CS" sgt run.par --set attenuation=true \
        --set strain_buffer_mb=1 --set output=r4.h5 && expect_rc 0 || return 1
    same_bytes ref.h5 r4.h5 || return 1
    # Killed by its own hook after step 45 (the checkpoint of step 42 holds samples 0..21, in
    # the middle of a window), then resumed: the file continued is the uninterrupted run's.
    for np in 1 2; do
        rm -f out.h5
        if [ "$np" = 1 ]; then
            CYBERSHAKE_FAULT_KILL_AFTER_STEP=45 "$CS" sgt run.par --set attenuation=true \
                --set strain_buffer_mb=1 --set checkpoint_every=7 >killed.log 2>&1
        else
            CYBERSHAKE_FAULT_KILL_AFTER_STEP=45 $MPIRUN -np 2 "$CS" sgt run.par \
                --set attenuation=true --set strain_buffer_mb=1 --set checkpoint_every=7 \
                >killed.log 2>&1
        fi
        [ ! -e out.h5 ] && [ -e out.h5.ckpt/checkpoint ] ||
            { echo "    the run of $np rank(s) was not killed after its checkpoint" >&2; return 1; }
        ls -a | grep -q '^\.out\.h5\.tmp\.' ||
            { echo "    no partial SGT file was left to continue" >&2; return 1; }
        if [ "$np" = 1 ]; then
            CYBERSHAKE_LOG=info run "$CS" sgt run.par --set attenuation=true \
                --set strain_buffer_mb=1 --set checkpoint_every=7
        else
            CYBERSHAKE_LOG=info run $MPIRUN -np 2 "$CS" sgt run.par --set attenuation=true \
                --set strain_buffer_mb=1 --set checkpoint_every=7
        fi
        expect_rc 0 && expect_err "resuming after step 42" || return 1
        [ "$np" = 1 ] && { same_bytes ref.h5 out.h5 || return 1; }
        [ "$np" = 2 ] && { same_bytes r2.h5 out.h5 || return 1; }
        if ls -a | grep -q '^\.out\.h5\.tmp\.'; then
            echo "    the partial file was left behind" >&2
            return 1
        fi
    done
}

# peak_mb: the peak host memory the last run reported.
peak_mb() {
    sed -n 's/.*peak host memory \([0-9.]*\) MB.*/\1/p' "$T/err" | tail -1
}

t_strain_memory_flat_in_steps() {
    # 9,856 save points at every step: the strain of 400 steps is 95 MB, of 100 steps 24 MB.
    # Streamed in windows of 8 samples the host memory must not follow: peak at 4 x nt within
    # 10% of that strain (9.5 MB) of the peak at nt; holding the history would add 71 MB.
    sgt_params | sed 's/^decimation = 2/decimation = 1/' >run.par
    many_points 10000
    CYBERSHAKE_LOG=info run "$CS" sgt run.par --set nt=100 --set strain_buffer_mb=4 \
        --set output=short.h5 && expect_rc 0 || return 1
    short=$(peak_mb)
    CYBERSHAKE_LOG=info run "$CS" sgt run.par --set nt=400 --set strain_buffer_mb=4 \
        --set output=long.h5 && expect_rc 0 || return 1
    long=$(peak_mb)
    bytes=$(h5dump -H -d /strain long.h5 | sed -n 's/.*DATASPACE  SIMPLE { ( \([0-9]*\), 6, \([0-9]*\) ).*/\1 \2/p')
    echo "    peak host memory: ${short} MB at nt = 100, ${long} MB at nt = 400 (strain $bytes)" >&2
    [ -n "$short" ] && [ -n "$long" ] || { echo "    no peak memory reported" >&2; return 1; }
    awk -v a="$short" -v b="$long" 'BEGIN { exit !(b - a < 9.5) }' ||
        { echo "    host memory grows with the steps" >&2; return 1; }
}

tcase sgt_viscoelastic_pml_free_surface t_sgt_viscoelastic_pml_free_surface
tcase sgt_elastic_sponge_no_free_surface t_sgt_elastic_sponge_no_free_surface
tcase forward_moment_source_across_ranks t_forward_moment_source_across_ranks
tcase serial_hdf5_build_gathers_to_rank_0 t_serial_hdf5_build_gathers_to_rank_0
tcase bad_decomposition_reported_once t_bad_decomposition_reported_once
tcase killed_run_resumes_to_the_same_bytes t_killed_run_resumes_to_the_same_bytes
tcase killed_mpi_run_resumes_to_the_same_bytes t_killed_mpi_run_resumes_to_the_same_bytes
tcase checkpoint_of_another_run_is_refused t_checkpoint_of_another_run_is_refused
tcase checkpoint_resumes_on_another_decomposition t_checkpoint_resumes_on_another_decomposition
tcase mpirun_wrapper_runs_as_root_on_few_cores t_mpirun_wrapper_runs_as_root_on_few_cores
tcase strain_streamed_in_windows t_strain_streamed_in_windows
tcase strain_memory_flat_in_steps t_strain_memory_flat_in_steps
tsummary
