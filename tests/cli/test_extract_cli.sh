#!/bin/sh
# The extractor as a user runs it on a small site: a forecast of four small ruptures near the
# demo site, the site planned, three SGT runs (800 m grid, fmax 0.25 Hz), then extraction with 1
# and 3 ranks, a run killed and resumed, records exported, and the intensity measures checked
# against an independent computation (tests/cli/im_check.py).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
MODEL="$REPO/tests/data/bbp_nr02-vs500.fk1d"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SITE_DIR="$T_ROOT/site"
SGTS="$SITE_DIR/sgt_E.h5,$SITE_DIR/sgt_N.h5,$SITE_DIR/sgt_Z.h5"

# Rupture geometry files (CyberShake's format) of four small planar ruptures 5-10 km away.
make_geometry() {
    "$PY" "$REPO/tests/cli/small_forecast.py"
}

# The site's study, plan and SGTs, made once for every case (about 25 s on 2 cores).
setup_site() {
    [ -f "$SITE_DIR/sgt_Z.h5" ] && return 0
    mkdir -p "$SITE_DIR" && cd "$SITE_DIR" || return 1
    "$CS" db init s.sqlite >/dev/null && "$CS" db import-sites s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null || return 1
    make_geometry && "$CS" erf import-geometry s.sqlite --name t 1_0.txt 1_1.txt 2_0.txt 2_1.txt >/dev/null || return 1
    "$CS" plan s.sqlite DEMO --erf t --fmax 0.25 --vs-min 1000 --model-format fk1d --model-file "$MODEL" \
        --out plan --cutoff 30 --padding 3 --round 1 --absorbing-width 10 --mesh-near 2 \
        --mesh-max-stride 4 >/dev/null 2>&1 || return 1
    for c in E N Z; do
        "$CS" sgt plan/DEMO.sgt.params --set force_component=$c --set output=sgt_$c.h5 >/dev/null 2>&1 || return 1
    done
    cd - >/dev/null || return 1
}

study_copy() { cp "$SITE_DIR/s.sqlite" s.sqlite; }

rows_differ() { # rows of run $1 not in run $2 and back, and the counts
    sqlite3 s.sqlite "SELECT (SELECT count(*) FROM (SELECT Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID, IM_Value
        FROM PeakAmplitudes WHERE Run_ID = $1 EXCEPT SELECT Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID, IM_Value
        FROM PeakAmplitudes WHERE Run_ID = $2)) + (SELECT count(*) FROM (SELECT Source_ID, Rupture_ID, Rup_Var_ID,
        IM_Type_ID, IM_Value FROM PeakAmplitudes WHERE Run_ID = $2 EXCEPT SELECT Source_ID, Rupture_ID, Rup_Var_ID,
        IM_Type_ID, IM_Value FROM PeakAmplitudes WHERE Run_ID = $1))"
}

t_help_and_usage() {
    for sub in extract synth seismogram; do
        run "$CS" $sub --help && expect_rc 0 && expect_out "usage:" || return 1
    done
    run "$CS" extract s.sqlite --site DEMO && expect_rc 2 && expect_err "--erf" || return 1
    run "$CS" extract s.sqlite --run 1 --site DEMO && expect_rc 2 || return 1
    run "$CS" seismogram x.h5 --source 1 && expect_rc 2 || return 1
}

# One rank: every variation of every rupture, IMs checked independently, records exported.
t_extract_one_rank_and_check_ims() {
    setup_site || return 1
    study_copy
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --seismograms seis.h5 --periods 4,5,10
    expect_rc 0 && expect_out "run 1: 4 ruptures (0 done before, 4 now), 36 variations" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes')" = $((36 * 34)) ] || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Rupture_Variations')" = 36 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT Status FROM CyberShake_Runs")" = "PP Generated" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Files WHERE Run_ID = 1 AND Kind IN ('sgt-E', 'sgt-N', 'sgt-Z', 'seismograms')")" = 4 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM PeakAmplitudes WHERE NOT (IM_Value >= 0)")" = 0 ] || return 1
    run "$PY" "$REPO/tests/cli/im_check.py" s.sqlite seis.h5 1
    expect_rc 0 || { cat "$T/out" "$T/err" >&2; return 1; }
    sed 's/^/    /' "$T/out"
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3 --csv r.csv --sac r
    expect_rc 0 && expect_out "source 2 rupture 0 variation 3" && expect_out "RotD50" || return 1
    # the SAC files hold the CSV's samples in SAC's unit of velocity (nm/s), with the header SAC
    # readers need: station the site, event the record, reference time the rupture's origin
    "$PY" - <<'EOF' || return 1
import struct, numpy as np
rows = np.loadtxt("r.csv", delimiter=",", skiprows=1)
word = lambda b, i, f: struct.unpack("<" + f, b[4 * i:4 * i + 4])[0]
for k, c in enumerate("ENZ"):
    b = open(f"r.{c}.sac", "rb").read()
    delta, o = word(b, 0, "f"), word(b, 7, "f")
    nvhdr, npts, idep, iztype = word(b, 76, "i"), word(b, 79, "i"), word(b, 86, "i"), word(b, 87, "i")
    nz = [word(b, i, "i") for i in range(70, 76)]
    leven = word(b, 105, "i")
    data = np.frombuffer(b[632:], dtype="<f4")
    assert nvhdr == 6 and leven == 1 and npts == len(rows) == len(data), (nvhdr, leven, npts, len(data))
    assert abs(delta - (rows[1, 0] - rows[0, 0])) < 1e-6
    assert idep == 7 and iztype == 11 and o == 0 and nz == [1970, 1, 0, 0, 0, 0], (idep, iztype, o, nz)
    assert b[440:448].decode().strip() == "DEMO", b[440:448]
    assert b[448:464].decode().strip() == "S2_R0_V3", b[448:464]
    assert b[600:608].decode().strip() == c
    assert np.allclose(data, rows[:, k + 1] * 1e9, rtol=1e-6, atol=0), c
EOF
    run "$CS" seismogram seis.h5 --source 9 --rupture 0 --variation 0 && expect_rc 1 && expect_err "no record of source 9" || return 1
}

# ObsPy, the field's reader, reads the SAC files as the convention defines them: station the
# site, velocity in nm/s, the reference time the rupture's origin, the CSV's samples.
t_sac_read_by_obspy() {
    OBSPY="$REPO/build/venv-clients/bin/python"
    if ! "$OBSPY" -c "import obspy" 2>/dev/null; then
        echo "ObsPy missing (sh tools/install-test-clients.sh installs it)" >"$T/skip"
        return 77
    fi
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 5 --seismograms seis.h5 >/dev/null 2>&1 || return 1
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3 --csv r.csv --sac r
    expect_rc 0 || return 1
    "$OBSPY" - <<'EOF' || return 1
import warnings
import numpy as np
import obspy
warnings.simplefilter("ignore")  # ObsPy rounds delta to microseconds and says so
rows = np.loadtxt("r.csv", delimiter=",", skiprows=1)
for k, c in enumerate("ENZ"):
    tr = obspy.read(f"r.{c}.sac", format="SAC")[0]
    s = tr.stats
    assert (s.network, s.station, s.channel) == ("CS", "DEMO", c), (s.network, s.station, s.channel)
    assert s.sac.idep == 7 and s.sac.iztype == 11 and s.sac.o == 0, s.sac
    assert s.sac.kevnm == "S2_R0_V3", s.sac.kevnm
    assert s.starttime == obspy.UTCDateTime(1970, 1, 1), s.starttime
    assert abs(s.sac.stla - 34.0522) < 1e-4 and abs(s.sac.stlo + 118.2437) < 1e-4
    assert s.npts == len(rows) and np.allclose(tr.data, rows[:, k + 1] * 1e9, rtol=1e-6, atol=0), c
print(f"    ObsPy {obspy.__version__} read the three SAC files: station DEMO, nm/s, origin reference")
EOF
    # The documented example reads the HDF5 file into ObsPy without the toolkit: the same
    # samples as the SAC files (nm/s there, m/s here), the same station and start.
    run "$OBSPY" "$REPO/docs/examples/seismograms_to_obspy.py" seis.h5 2 0 3
    expect_rc 0 && expect_out "3 Trace(s) in Stream" && expect_out "CS.DEMO..E | 1970-01-01T00:00:00" || return 1
    "$OBSPY" - "$REPO/docs/examples" <<'EOF' || return 1
import sys, warnings
import numpy as np
import obspy
sys.path.insert(0, sys.argv[1])
from seismograms_to_obspy import read_seismograms
warnings.simplefilter("ignore")
streams = dict(read_seismograms("seis.h5"))
assert (2, 0, 3) in streams and len(streams) > 10, len(streams)
st = streams[(2, 0, 3)]
for k, c in enumerate("ENZ"):
    sac = obspy.read(f"r.{c}.sac", format="SAC")[0]
    tr = st.select(channel=c)[0]
    assert tr.stats.station == "DEMO" and tr.stats.starttime == sac.stats.starttime
    assert abs(tr.stats.delta - sac.stats.delta) < 1e-6 and tr.stats.npts == sac.stats.npts
    assert np.allclose(tr.data * 1e9, sac.data, rtol=1e-6, atol=0), c
print(f"    the HDF5 example read {len(streams)} records into ObsPy Streams, equal to the SAC files")
EOF
}

# One rank and three ranks (two workers) give the same rows.
t_one_and_three_ranks_agree() {
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 >/dev/null 2>&1 || return 1
    # info: the closing lines of where the time went, the workers' counts summed on rank 0
    export CYBERSHAKE_LOG=info
    run mpirun -np 3 --oversubscribe "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10
    export CYBERSHAKE_LOG=warn
    expect_rc 0 && expect_out "run 2: 4 ruptures" || return 1
    expect_err "2 workers (seconds summed): 4 ruptures, 36 variations; opening" &&
        expect_err "extraction, rank 0: building and sending tasks" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 34)) ] || return 1
    [ "$(rows_differ 1 2)" = 0 ] || return 1
}

# Small ruptures several to a message (as rank 0 hands them to GPU ranks, whose variations then
# share batches; forced here on the CPU, whose ranks take each alone): the same rows and records
# as a rupture a message, on 3 ranks (groups of two 9-variation ruptures) and on 1.
t_grouped_tasks_give_the_same_rows() {
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 --seismograms a.h5 \
        >/dev/null 2>&1 || return 1
    export CYBERSHAKE_LOG=info CYBERSHAKE_GROUP_VARIATIONS=20
    run mpirun -np 3 --oversubscribe "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" \
        --periods 4,5,10 --seismograms b.h5
    expect_rc 0 && expect_out "run 2: 4 ruptures" &&
        expect_err "up to 20 variations together: 4 ruptures in 2 messages" || return 1
    CYBERSHAKE_GROUP_VARIATIONS=100 run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" \
        --periods 4,5,10
    export CYBERSHAKE_LOG=warn
    unset CYBERSHAKE_GROUP_VARIATIONS
    expect_rc 0 && expect_out "run 3: 4 ruptures" &&
        expect_err "up to 100 variations together: 4 ruptures in 1 messages" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 34)) ] || return 1
    [ "$(rows_differ 1 2)" = 0 ] && [ "$(rows_differ 1 3)" = 0 ] || return 1
    [ "$(h5dump -d velocity a.h5 | tail -n +3 | sha256sum)" = "$(h5dump -d velocity b.h5 | tail -n +3 | sha256sum)" ] || return 1
}

# A GPU rank opens its ruptures on its threads, each locating points through a frame of its own
# (sgt_set_frames, sgt_set_locate_axes): bench/locate_bench.c locates every save point of the
# site's SGTs the separate way on one thread, with sgt_set_locate_axes on one, and on three
# threads, and exits 1 unless the points and box axes are the same bit for bit.
t_points_located_on_threads_agree() {
    setup_site || return 1
    make -s -C "$REPO" build/bin/locate_bench >/dev/null 2>&1 || return 1
    OMP_NUM_THREADS=3 run "$REPO/build/bin/locate_bench" "$SGTS" 2
    expect_rc 0 && expect_out "on 3 threads (a frame each); the same points and axes bit for bit: yes"
}

# Under --max-memory too small for the largest rupture's SGT spectra (24 points: 28 kB of
# spectra; with its seismograms kept, 120 kB leaves room for 1 point at a time), its points go
# in chunks, each variation adding every chunk's subfaults in turn: the same sums in the same
# order, so the same measures and records to the last bit. Below what one point and one
# variation need, the run refuses.
t_a_memory_limit_chunks_ruptures() {
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 --seismograms a.h5 >/dev/null 2>&1 || return 1
    CYBERSHAKE_LOG=info run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 \
        --seismograms b.h5 --max-memory 0.00012
    expect_rc 0 && expect_err "a rupture of 24 points in chunks of 1 " || return 1
    [ "$(rows_differ 1 2)" = 0 ] || return 1
    [ "$(h5dump -d velocity a.h5 | tail -n +3 | sha256sum)" = "$(h5dump -d velocity b.h5 | tail -n +3 | sha256sum)" ] || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 --max-memory 0.00005
    expect_rc 1 && expect_err "more than the 5e-05 GB allowed (--max-memory)" || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --max-memory -1
    expect_rc 2 && expect_err "--max-memory needs GB > 0" || return 1
}

# The CUDA extractor against the CPU's frequency path, the same variations: every measure within
# 1e-4 relative (both keep float spectra, the GPU sums its subfaults per frequency in another
# order and makes its phases by single-precision sincospi, not by recursion: ~1e-7 apart), the
# worst printed; once as it runs, once in small batches and chunks of points (the pipelined and
# the chunked paths, several batches each), with the spectra kept across ruptures in too few
# rows (evicted and loaded again) and with none kept; the four ruptures' variations share one
# batch where the device keeps their spectra together (the default), else each goes alone.
# Skipped where the build or the machine has no GPU.
t_cuda_matches_cpu() {
    setup_site || return 1
    study_copy
    CYBERSHAKE_LOG=info run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 \
        --backend cuda
    if [ "$RC" != 0 ]; then
        grep -q "no CUDA\|no GPU\|cannot open cuFFT" "$T/err" && skip "$(tail -1 "$T/err")"
        return
    fi
    # the four small ruptures (36 variations) in one message, their variations in one batch
    expect_err "4 ruptures in 1 messages" && expect_err "4 ruptures in shared batches" || return 1
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 >/dev/null 2>&1 || return 1
    n=$(sqlite3 s.sqlite "SELECT count(*) FROM PeakAmplitudes a JOIN PeakAmplitudes b USING (Source_ID,
        Rupture_ID, Rup_Var_ID, IM_Type_ID) WHERE a.Run_ID = 1 AND b.Run_ID = 2")
    [ "$n" = $((36 * 34)) ] || return 1
    # again in batches of 2 variations with room for one point's 18 spectra on the device
    # (6 points' combinations: the 24-point rupture in 4 chunks)
    CYBERSHAKE_GPU_BATCH=2 CYBERSHAKE_GPU_POINTS=1 "$CS" extract s.sqlite --site DEMO --erf t \
        --sgt "$SGTS" --periods 4,5,10 --backend cuda >/dev/null 2>&1 || return 1
    # two ranks: rank 0 the study, rank 1 the GPU; each variation's sums cut into 3 runs added
    # afterwards (the path a large batch of few frequencies takes)
    CYBERSHAKE_GPU_SUM_RUNS=3 mpirun -np 2 --oversubscribe "$CS" extract s.sqlite --site DEMO --erf t \
        --sgt "$SGTS" --periods 4,5,10 --backend cuda >/dev/null 2>&1 || return 1
    # the spectra kept across ruptures in 48 rows (8 points' 18 series), fewer than the four
    # ruptures' points: rows evicted and loaded again; and none kept (each rupture loads anew),
    # the measures and the rupture times then made on the host (the other runs make them on the
    # device)
    CYBERSHAKE_LOG=info CYBERSHAKE_GPU_POINTS=8 "$CS" extract s.sqlite --site DEMO --erf t \
        --sgt "$SGTS" --periods 4,5,10 --backend cuda >/dev/null 2>small.log || return 1
    CYBERSHAKE_LOG=info CYBERSHAKE_GPU_KEEP=0 CYBERSHAKE_GPU_MEASURES=0 CYBERSHAKE_GPU_TIMES=0 \
        "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 --backend cuda \
        >/dev/null 2>none.log || return 1
    grep -o "spectra of.*" small.log none.log | sed 's/^/    /'
    # the four ruptures' 60 points, each made or found (a point of a rupture on a node that
    # another of its points took is found)
    grep -q "spectra of 60 points made, 0 found kept" none.log || return 1
    sed -n 's/.*spectra of \([0-9]*\) points made, \([0-9]*\) found kept.*/\1 \2/p' small.log |
        awk '{ exit !($1 + $2 == 60 && $1 > 0) }' || return 1
    for gpu_run in 1 3 4 5 6; do
        worst=$(sqlite3 s.sqlite "SELECT max(abs(a.IM_Value - b.IM_Value) / max(abs(b.IM_Value), 1e-300))
            FROM PeakAmplitudes a JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)
            WHERE a.Run_ID = $gpu_run AND b.Run_ID = 2")
        echo "    worst relative difference of a measure, CUDA (run $gpu_run) vs CPU: $worst"
        awk -v w="$worst" 'BEGIN { exit !(w < 1e-4) }' || return 1
    done
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 3')" = $((36 * 34)) ] || return 1
    # a scenario of SRF files on both back ends: the GPU rank's threads read a group of files at
    # once (4 threads, batches of 6: groups of 4 and 2), one thread turns them into subfaults
    "$CS" erf variations s.sqlite --name t --model-format fk1d --model-file "$MODEL" \
        --scenario files --srf-dir srf >/dev/null 2>&1 || return 1
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --scenario files --periods 4,5,10 \
        >/dev/null 2>&1 || return 1
    OMP_NUM_THREADS=4 CYBERSHAKE_GPU_BATCH=6 "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" \
        --scenario files --periods 4,5,10 --backend cuda >/dev/null 2>&1 || return 1
    worst=$(sqlite3 s.sqlite "SELECT max(abs(a.IM_Value - b.IM_Value) / max(abs(b.IM_Value), 1e-300)), count(*)
        FROM PeakAmplitudes a JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)
        WHERE a.Run_ID = 8 AND b.Run_ID = 7")
    echo "    worst relative difference of a measure, SRF scenario, CUDA vs CPU, and rows: $worst"
    awk -v w="${worst%|*}" -v n="${worst#*|}" 'BEGIN { exit !(w < 1e-4 && n == 36 * 34) }' || return 1
    # the rupture times made on the host instead of the device: the same times bit for bit, and
    # each variation's sums one run here (too few subfaults to cut), so the same measures
    CYBERSHAKE_GPU_TIMES=0 "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 \
        --backend cuda >/dev/null 2>&1 || return 1
    same=$(sqlite3 s.sqlite "SELECT sum(a.IM_Value = b.IM_Value), count(*) FROM PeakAmplitudes a
        JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)
        WHERE a.Run_ID = 1 AND b.Run_ID = 9")
    echo "    measures equal bit for bit, rupture times on the device (run 1) and the host (run 9): $same"
    [ "$same" = "$((36 * 34))|$((36 * 34))" ] || return 1
}

# A run killed after two ruptures (SIGKILL, as a lost node) resumes with --run: the same rows
# as an uninterrupted run, none twice, and the same seismograms.
t_killed_run_resumes() {
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 --seismograms a.h5 >/dev/null 2>&1 || return 1
    CYBERSHAKE_FAULT_KILL_AFTER_RUPTURES=2 "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" \
        --periods 4,5,10 --seismograms b.h5 >/dev/null 2>&1
    [ $? = 137 ] || return 1
    [ -e b.h5 ] && return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Extraction_Ruptures WHERE Run_ID = 2')" = 2 ] || return 1
    # the records of the ruptures done are readable before the run's file exists
    done_sr=$(sqlite3 -separator ' ' s.sqlite 'SELECT Source_ID, Rupture_ID FROM Extraction_Ruptures WHERE Run_ID = 2 LIMIT 1')
    run "$CS" seismogram b.h5 --source "${done_sr% *}" --rupture "${done_sr#* }" --variation 0
    expect_rc 0 && expect_out "RotD50" || return 1
    run "$CS" extract s.sqlite --run 2 --periods 4,5,10 --seismograms b.h5
    expect_rc 0 && expect_out "(2 done before, 2 now)" || return 1
    [ "$(rows_differ 1 2)" = 0 ] || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 34)) ] || return 1
    [ "$(h5dump -d velocity a.h5 | tail -n +3 | sha256sum)" = "$(h5dump -d velocity b.h5 | tail -n +3 | sha256sum)" ] || return 1
    [ -e b.h5.parts ] && return 1
    # resuming a finished run does nothing
    run "$CS" extract s.sqlite --run 2 --periods 4,5,10
    expect_rc 0 && expect_out "(4 done before, 0 now)" || return 1
}

# A rupture whose rows collide with a row already there fails the run, and none of its rows are
# kept: a variation's rows go in one statement that stops at the failing row (INSERT OR FAIL),
# so the rows before it, that variation's and the variations' before, are the batch's
# transaction's to undo. Without the stray row the run then resumes to every row.
t_failed_rows_leave_nothing_of_their_rupture() {
    setup_site || return 1
    study_copy
    CYBERSHAKE_FAULT_KILL_AFTER_RUPTURES=1 "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" \
        --periods 4,5,10 >/dev/null 2>&1
    [ $? = 137 ] || return 1
    sr=$(sqlite3 -separator ' ' s.sqlite "SELECT Source_ID, Rupture_ID FROM CyberShake_Site_Ruptures
        EXCEPT SELECT Source_ID, Rupture_ID FROM Extraction_Ruptures WHERE Run_ID = 1 LIMIT 1")
    s=${sr% *} r=${sr#* }
    im=$(sqlite3 s.sqlite "SELECT max(IM_Type_ID) FROM PeakAmplitudes WHERE Run_ID = 1")
    [ -n "$s" ] && [ -n "$im" ] || return 1
    sqlite3 s.sqlite "INSERT INTO PeakAmplitudes VALUES (1, $s, $r, 1, $im, 1.0)" || return 1
    run "$CS" extract s.sqlite --run 1 --periods 4,5,10
    expect_rc 1 && expect_err "UNIQUE constraint failed" || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 1 AND Source_ID = $s AND Rupture_ID = $r")" = 1 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Extraction_Ruptures WHERE Run_ID = 1 AND Source_ID = $s AND Rupture_ID = $r")" = 0 ] || return 1
    sqlite3 s.sqlite "DELETE FROM PeakAmplitudes WHERE Run_ID = 1 AND Source_ID = $s AND Rupture_ID = $r" || return 1
    run "$CS" extract s.sqlite --run 1 --periods 4,5,10
    expect_rc 0 && expect_out "(1 done before, 3 now)" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 1')" = $((36 * 34)) ] || return 1
}

# Two runs killed while extracting from the same SGT files: each resumes with its own record of
# them (a second run once took the files' rows over and the first could not resume), with --sgt
# naming the same files (as the workflow does) or without it; other files are refused.
t_two_runs_of_the_same_sgts_both_resume() {
    setup_site || return 1
    study_copy
    for r in 1 2; do
        CYBERSHAKE_FAULT_KILL_AFTER_RUPTURES=1 "$CS" extract s.sqlite --site DEMO --erf t \
            --sgt "$SGTS" --periods 5 >/dev/null 2>&1
        [ $? = 137 ] || return 1
    done
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Run_Files WHERE Kind LIKE 'sgt-%'")" = 6 ] || return 1
    run "$CS" extract s.sqlite --run 1 --periods 5 --sgt "$SGTS"
    expect_rc 0 && expect_out "(1 done before, 3 now)" || return 1
    run "$CS" extract s.sqlite --run 2 --periods 5
    expect_rc 0 && expect_out "(1 done before, 3 now)" || return 1
    [ "$(rows_differ 1 2)" = 0 ] || return 1
    cp "$SITE_DIR"/sgt_*.h5 .
    run "$CS" extract s.sqlite --run 2 --periods 5 --sgt sgt_E.h5,sgt_N.h5,sgt_Z.h5
    expect_rc 1 && expect_err "has started extracting from $SITE_DIR/sgt_E.h5" || return 1
}

# Inputs that must be refused: an SGT file changed after the run started, two files of one
# force, SGTs of another site.
t_refuses_bad_inputs() {
    setup_site || return 1
    study_copy
    cp "$SITE_DIR"/sgt_*.h5 .
    CYBERSHAKE_FAULT_KILL_AFTER_RUPTURES=1 "$CS" extract s.sqlite --site DEMO --erf t \
        --sgt sgt_E.h5,sgt_N.h5,sgt_Z.h5 --periods 5 >/dev/null 2>&1
    printf 'x' >>sgt_N.h5
    run "$CS" extract s.sqlite --run 1 --periods 5 && expect_rc 1 && expect_err "SHA-256" || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt sgt_E.h5,sgt_E.h5,sgt_Z.h5
    expect_rc 1 && expect_err "same force" || return 1
    "$CS" db import-sites s.sqlite "$REPO/sites/cybershake_sites.csv" >/dev/null || return 1
    run "$CS" extract s.sqlite --site USC --erf t --sgt "$SGTS"
    expect_rc 1 && expect_err "not this site's" || return 1
}

# A horizontal-only set (forces E and N, as CyberShake runs when nothing vertical is wanted):
# every horizontal measure equals the three-force run's, bit for bit (the Z force adds only to
# the Z component), no vertical measure is stored, the records' Z is NaN and exported nowhere,
# and a killed two-force run resumes with its own two files.
t_horizontal_only_two_forces() {
    setup_site || return 1
    study_copy
    SGT2="$SITE_DIR/sgt_N.h5,$SITE_DIR/sgt_E.h5"
    run "$CS" check "$SITE_DIR/sgt_E.h5" "$SITE_DIR/sgt_N.h5"
    expect_rc 0 && expect_out "forces E and N (horizontal-only)" || return 1
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 >/dev/null 2>&1 || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGT2" --periods 4,5,10 --seismograms h.h5
    expect_rc 0 && expect_out "run 2: 4 ruptures" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 25)) ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM PeakAmplitudes JOIN IM_Types USING (IM_Type_ID)
        WHERE Run_ID = 2 AND IM_Type_Component = 'Z'")" = 0 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM (SELECT Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID,
        IM_Value FROM PeakAmplitudes WHERE Run_ID = 2 EXCEPT SELECT Source_ID, Rupture_ID, Rup_Var_ID,
        IM_Type_ID, IM_Value FROM PeakAmplitudes WHERE Run_ID = 1)")" = 0 ] ||
        { echo "    a horizontal measure differs from the three-force run's" >&2; return 1; }
    [ "$(sqlite3 s.sqlite "SELECT group_concat(Kind, ' ') FROM (SELECT Kind FROM Files WHERE Run_ID = 2
        AND Kind LIKE 'sgt-%' ORDER BY Kind)")" = "sgt-E sgt-N" ] || return 1
    run "$CS" seismogram h.h5 --source 2 --rupture 0 --variation 3 --sac r
    expect_rc 0 && expect_out "RotD50" || return 1
    grep -q "PGA.*Z\|PGV.*Z" "$T/out" && { echo "    a vertical measure was printed" >&2; return 1; }
    [ -e r.E.sac ] && [ -e r.N.sac ] && [ ! -e r.Z.sac ] || return 1
    h5dump -a components h.h5 | grep -q "horizontal-only" || return 1
    # killed after two ruptures, resumed with its own two files
    CYBERSHAKE_FAULT_KILL_AFTER_RUPTURES=2 "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGT2" \
        --periods 4,5,10 >/dev/null 2>&1
    [ $? = 137 ] || return 1
    run "$CS" extract s.sqlite --run 3 --periods 4,5,10
    expect_rc 0 && expect_out "(2 done before, 2 now)" || return 1
    [ "$(rows_differ 2 3)" = 0 ] || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SITE_DIR/sgt_E.h5" && expect_rc 2 || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SITE_DIR/sgt_E.h5,$SITE_DIR/sgt_Z.h5"
    expect_rc 1 && expect_err "no N force" || return 1
}

# Half the SGT samples (decimation 20 instead of the plan's 10, still inside the solver's
# sampling rule for the impulse's band): half the disk, and every measure within 0.1% of the
# full-rate extraction (measured worst: 4.9e-5, SA; 7.1e-5, the period-dependent durations; CAV,
# no longer stored, was 3.7e-4) but the FAS, within 1% (measured 5.4e-3, at 0.1 Hz: on these
# 30 s records the worst one's spectrum there is 28 times below its value at 0.25 Hz, so the
# same absolute change is a larger part of it; 8.1e-4 for the EAS, 5.8e-4 at 0.25 Hz). What
# lets a production site's two forces fit a GPU node's disk (docs/scale.md).
t_half_sampled_sgts_give_the_same_measures() {
    setup_site || return 1
    study_copy
    for c in E N; do
        "$CS" sgt "$SITE_DIR/plan/DEMO.sgt.params" --set force_component=$c --set decimation=20 \
            --set output=half_$c.h5 >/dev/null 2>&1 || return 1
    done
    [ "$(stat -c %s half_E.h5)" -lt "$(($(stat -c %s "$SITE_DIR/sgt_E.h5") * 6 / 10))" ] || return 1
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SITE_DIR/sgt_E.h5,$SITE_DIR/sgt_N.h5" \
        --periods 4,5,10 >/dev/null 2>&1 || return 1
    "$CS" extract s.sqlite --site DEMO --erf t --sgt half_E.h5,half_N.h5 --periods 4,5,10 \
        >/dev/null 2>&1 || return 1
    worst=$(sqlite3 s.sqlite "SELECT max(abs(a.IM_Value - b.IM_Value) / a.IM_Value) FROM PeakAmplitudes a
        JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID) JOIN IM_Types t
        USING (IM_Type_ID) WHERE a.Run_ID = 1 AND b.Run_ID = 2 AND t.IM_Type_Measure <> 'FAS'")
    worst_fas=$(sqlite3 s.sqlite "SELECT max(abs(a.IM_Value - b.IM_Value) / a.IM_Value) FROM PeakAmplitudes a
        JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID) JOIN IM_Types t
        USING (IM_Type_ID) WHERE a.Run_ID = 1 AND b.Run_ID = 2 AND t.IM_Type_Measure = 'FAS'")
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 25)) ] || return 1
    echo "    worst relative difference of a measure: $worst; of a FAS: $worst_fas" >&2
    awk -v w="$worst" -v f="$worst_fas" 'BEGIN { exit !(w < 1e-3 && f < 1e-2) }' || return 1
}

# A scenario of SRF files (cybershake erf variations --srf-dir), extracted: a rupture's SGT
# spectra are made once, combined for its first variation's points and moment tensors, and shared
# by its variations. Variations are checked against `cybershake synth` of their own SRF (its own
# points, all 18 spectra, nothing shared): rupture 2 0 untouched (the shared combinations); 1 0
# with variation 4's rake turned from 90 to 60 (tensors not the combinations': the rupture starts
# over with every component's spectra, so its spectra are planned twice); 1 1 with variation 3
# slid one row down dip onto the next row's points (the deepest row dropped) and variation 6's
# points in reverse order (other points, and the same points in another order: each variation
# its own cache, the rupture's shared one kept for the others). Tolerance 1e-4 relative: synth
# prints 6 digits (5e-6) and the shared combinations round to float once where synth rounds each
# component (measured worst: 4.4e-6, the printing's); each edit must move a measure by 10%.
t_srf_scenario_matches_synth() {
    setup_site || return 1
    study_copy
    run "$CS" erf variations s.sqlite --name t --model-format fk1d --model-file "$MODEL" \
        --scenario files --srf-dir srf
    expect_rc 0 && expect_out "36 variations of 4 ruptures; 36 SRF files in srf" || return 1
    for v in 1_0_4 1_1_3; do
        "$CS" synth --sgt "$SGTS" srf/$v.srf --periods 4,5,10 >before_$v.txt 2>&1 || return 1
    done
    "$PY" - "$REPO/tests/cli" <<'EOF' || return 1
import sys
sys.path.insert(0, sys.argv[1])
from srf_edit import read, write, down_dip
head, pts = read("srf/1_0_4.srf")
for p in pts:
    p[1] = " 60 " + p[1].split(None, 1)[1]
write("srf/1_0_4.srf", head, pts)
down_dip("srf/1_1_3.srf")
head, pts = read("srf/1_1_6.srf")
write("srf/1_1_6.srf", head, pts[::-1])
EOF
    CYBERSHAKE_LOG=debug run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --scenario files \
        --periods 4,5,10
    expect_rc 0 && expect_out "run 1: 4 ruptures (0 done before, 4 now), 36 variations" || return 1
    # the spectra of rupture 1 0 planned twice (combined, then every component), the others' once
    [ "$(for n in 15 12 24; do grep -c "a rupture of $n points whole" "$T/err"; done | xargs)" = "2 1 1" ] ||
        { grep "points whole" "$T/err" >&2; return 1; }
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes')" = $((36 * 34)) ] || return 1
    for v in 2_0_0 2_0_5 1_0_0 1_0_4 1_0_8 1_1_3 1_1_6 1_1_8; do
        "$CS" synth --sgt "$SGTS" srf/$v.srf --periods 4,5,10 >synth_$v.txt 2>&1 || return 1
    done
    run "$PY" - <<'EOF'
import glob, re, sqlite3
db = sqlite3.connect("s.sqlite")
line = re.compile(r"^\s+(\S+)\s+(?:([\d.]+) s\s+)?(\S+(?: mean)?)\s+(\S+) \S+$")
def printed(path):
    got = {}
    for l in open(path).read().split("\n")[1:]:
        if l.strip() and "band:" not in l and "not given:" not in l:
            m = line.match(l)
            assert m, (path, l)
            got[m[1], float(m[2]) if m[2] else None, m[3]] = float(m[4])
    assert len(got) == 34, (path, len(got))
    return got
def stored(v):
    s, r, rv = (int(x) for x in v.split("_"))
    return {(m, p, c): x for m, p, c, x in db.execute(
        "SELECT IM_Type_Measure, IM_Type_Value, IM_Type_Component, IM_Value FROM PeakAmplitudes "
        "JOIN IM_Types USING (IM_Type_ID) WHERE Run_ID = 1 AND Source_ID = ? AND Rupture_ID = ? "
        "AND Rup_Var_ID = ?", (s, r, rv))}
def rel(a, b):
    assert a.keys() == b.keys(), (sorted(a), sorted(b))
    return max((abs(a[k] - b[k]) / abs(b[k]), k) for k in a)
worst = (0, "")
for path in sorted(glob.glob("synth_*.txt")):
    v = path[6:-4]
    d, k = rel(stored(v), printed(path))
    print(f"{v}: worst {d:.2e} ({k})")
    worst = max(worst, (d, f"{v} {k}"))
for v in ("1_0_4", "1_1_3"):
    d, k = rel(stored(v), printed(f"before_{v}.txt"))
    print(f"{v} as edited against the file before: {d:.2e} ({k})")
    assert d > 0.1, f"{v}: the edit changed no measure by 10%: {d} {k}"
print(f"worst relative difference of a measure from synth's: {worst[0]:.2e} ({worst[1]})")
assert worst[0] < 1e-4, worst
EOF
    expect_rc 0 || { sed 's/^/    /' "$T/out" "$T/err" >&2; return 1; }
    tail -1 "$T/out" | sed 's/^/    /' >&2
}

# The band (docs/extract.md, "The band"): the SGTs reach fmax 0.25 Hz, so SA below 1/fmax = 4 s
# and the broadband measures (PGA, Arias, CAV, D5-75, D5-95) are neither stored nor printed as
# values; asking for them says why, naming the measure, the band and the rule. PGV (band-limited)
# and SA at 4 s and above are given as before.
t_measures_outside_the_band_not_given() {
    setup_site || return 1
    study_copy
    # a period below 1/fmax is refused before a run is recorded
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 2,5
    expect_rc 1 && expect_err "SA at 2 s is outside the simulated band (fmax 0.25 Hz)" &&
        expect_err "1/fmax = 4 s" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM CyberShake_Runs')" = 0 ] || return 1
    # no --periods: CyberShake's periods at or above 4 s, PGV, and nothing broadband
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --seismograms seis.h5
    expect_rc 0 || return 1
    [ "$(sqlite3 s.sqlite "SELECT group_concat(m, ',') FROM (SELECT DISTINCT IM_Type_Measure m
        FROM PeakAmplitudes JOIN IM_Types USING (IM_Type_ID) ORDER BY m)")" = "D5-75,D5-95,FAS,PGV,SA" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT group_concat(p, ',') FROM (SELECT DISTINCT IM_Type_Value p
        FROM PeakAmplitudes JOIN IM_Types USING (IM_Type_ID) WHERE IM_Type_Measure = 'SA' ORDER BY p)")" = "4.0,5.0,7.5,10.0" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM IM_Types WHERE IM_Type_Measure NOT IN ('SA', 'PGV',
        'FAS', 'D5-75', 'D5-95') OR IM_Type_Value < 4 OR (IM_Type_Measure LIKE 'D5-%' AND
        (IM_Type_Value IS NULL OR IM_Type_Value < 5.65))")" = 0 ] || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes')" = $((36 * (4 * 4 + 4 + 4 * 4 + 2 * 6))) ] || return 1
    [ "$(sqlite3 s.sqlite 'SELECT Max_Frequency FROM CyberShake_Runs')" = 0.25 ] || return 1
    h5dump -a fmax seis.h5 | grep -q "0.25" || return 1
    # a record: the band's measures as values, each other one named with its rule
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3
    expect_rc 0 && expect_out "band: up to 0.25 Hz (SA and FAS at T >= 4 s, durations at T >= 5.66 s and band-limited PGV only" || return 1
    grep -Eq "^  SA +4\.00 s +RotD50 +[0-9.e+-]+ g$" "$T/out" || return 1
    grep -Eq "^  PGV +RotD50 +[0-9.e+-]+ m/s$" "$T/out" || return 1
    grep -Eq "^  (PGA|Arias|CAV|D5-75|D5-95) +(RotD50|E|N|Z) " "$T/out" &&
        { echo "    a broadband measure was printed as a value" >&2; return 1; }
    grep -Eq "^  SA +[123]\.[0-9]{2} s +(RotD|geo)" "$T/out" &&
        { echo "    SA below 1/fmax was printed as a value" >&2; return 1; }
    for m in PGA Arias CAV D5-75 D5-95; do
        grep -Eq "^  $m +not given: $m is a broadband measure.*up to 0.25 Hz does not give it" "$T/out" ||
            { echo "    $m is not named as not given" >&2; return 1; }
    done
    grep -Eq "^  SA +1\.00 s +not given: SA is given for periods T >= 1/fmax = 4 s only" "$T/out" || return 1
    # periods asked: those outside the band named, the others given; none inside: refused
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3 --periods 2,5
    expect_rc 0 && expect_out "not given: SA is given for periods T >= 1/fmax = 4 s" || return 1
    grep -Eq "^  SA +5\.00 s +RotD50 +[0-9.e+-]+ g$" "$T/out" && ! grep -Eq "^  SA +2\.00 s +RotD" "$T/out" || return 1
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3 --periods 1,2 --csv r.csv
    expect_rc 1 && expect_err "SA at 1 s is outside the simulated band (fmax 0.25 Hz)" || return 1
    [ ! -e r.csv ] || return 1
    # a file from before the band was kept: every measure, the band marked not recorded; --fmax
    # gives it (and may not contradict a file that records one)
    cp seis.h5 old.h5 && "$PY" -c "import h5py; f = h5py.File('old.h5', 'a'); del f.attrs['fmax']" || return 1
    run "$CS" seismogram old.h5 --source 2 --rupture 0 --variation 3
    expect_rc 0 && expect_out "band: not recorded" && grep -Eq "^  PGA +RotD50 +[0-9.e+-]+ g$" "$T/out" || return 1
    run "$CS" seismogram old.h5 --source 2 --rupture 0 --variation 3 --fmax 0.25
    expect_rc 0 && expect_out "band: up to 0.25 Hz" && expect_out "not given: PGA is a broadband measure" || return 1
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3 --fmax 0.5
    expect_rc 1 && expect_err "the file records a band up to 0.25 Hz" || return 1
    # synth of one SRF: the same band from its SGTs
    "$CS" erf variations s.sqlite --name t --model-format fk1d --model-file "$MODEL" --scenario files \
        --srf-dir srf >/dev/null 2>&1 || return 1
    run "$CS" synth --sgt "$SGTS" srf/2_0_0.srf
    expect_rc 0 && expect_out "band: up to 0.25 Hz" && expect_out "not given: PGA is a broadband measure" || return 1
    grep -Eq "^  PGA +(RotD50|E|N|Z) " "$T/out" && return 1
    return 0
}

# The spectral measures (docs/extract.md, "Intensity measures"): FAS of E, N, Z and the EAS
# smoothed with Konno-Ohmachi, and the period-dependent durations, every stored value of a
# sample of records against numpy's FFT and ObsPy's Konno-Ohmachi window (tests/cli/fas_check.py,
# 1e-4; measured 1.8e-7 and 1.3e-7, the file's float32 samples); the vertical SA against the
# Runge-Kutta oscillator (im_check.py, 0.5%; measured 0.16%). The check fails on a value moved
# by 2e-3; the hazard commands take the new IMs by name
# and refuse a duration outside the band.
t_spectral_measures_checked_independently() {
    OBSPY="$REPO/build/venv-clients/bin/python"
    if ! "$OBSPY" -c "import obspy" 2>/dev/null; then
        echo "ObsPy missing (sh tools/install-test-clients.sh installs it)" >"$T/skip"
        return 77
    fi
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,7.5,10 --seismograms seis.h5 \
        >/dev/null 2>&1 || return 1
    # a record: SA 4 components, FAS 4 at 4 periods; PGV 4; D5-75 and D5-95 of 3 components at
    # 7.5 and 10 s (T >= sqrt(2)/0.25 = 5.66 s)
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes')" = $((36 * (16 + 16 + 4 + 12))) ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM IM_Types WHERE IM_Type_Measure = 'FAS' AND IM_Type_Units = 'm/s'
        AND IM_Type_Component IN ('E', 'N', 'Z', 'EAS')")" = 16 ] || return 1
    run "$OBSPY" "$REPO/tests/cli/fas_check.py" s.sqlite seis.h5 1 --every 6
    expect_rc 0 || { sed 's/^/    /' "$T/out" "$T/err" >&2; return 1; }
    sed 's/^/    /' "$T/out"
    run "$PY" "$REPO/tests/cli/im_check.py" s.sqlite seis.h5 1
    expect_rc 0 || { cat "$T/out" "$T/err" >&2; return 1; }
    sed 's/^/    /' "$T/out"
    # the check fails when a stored value moves by 2e-3 (the first record it samples)
    for m in "FAS' AND t.IM_Type_Value = 5 AND t.IM_Type_Component = 'EAS" "D5-95' AND t.IM_Type_Value = 10 AND t.IM_Type_Component = 'Z"; do
        cp s.sqlite bad.sqlite
        sqlite3 bad.sqlite "UPDATE PeakAmplitudes SET IM_Value = IM_Value * 1.002 WHERE Run_ID = 1 AND
            Source_ID = 1 AND Rupture_ID = 0 AND Rup_Var_ID = 0 AND IM_Type_ID = (SELECT IM_Type_ID FROM IM_Types t
            WHERE t.IM_Type_Measure = '$m')" || return 1
        run "$OBSPY" "$REPO/tests/cli/fas_check.py" bad.sqlite seis.h5 1 --every 6
        expect_rc 1 && expect_err "differs by more than" || { echo "    not caught: $m" >&2; return 1; }
    done
    # printed by seismogram, queried by the hazard commands like the other IMs
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3
    expect_rc 0 || return 1
    grep -Eq "^  FAS +5\.00 s +EAS +[0-9.e+-]+ m/s$" "$T/out" && grep -Eq "^  SA +4\.00 s +Z +[0-9.e+-]+ g$" "$T/out" &&
        grep -Eq "^  D5-95 +10\.00 s +N +[0-9.e+-]+ s$" "$T/out" || { cat "$T/out" >&2; return 1; }
    grep -Eq "^  D5-75 +5\.00 s +not given: D5-75 at a period is given for T >= sqrt\(2\)/fmax = 5.66 s" "$T/out" || return 1
    for im in "SA 5 Z" "FAS 4 EAS" "FAS 10 Z" "D5-95 10 E" "D5-75 7.5 N"; do
        run "$CS" hazard curve s.sqlite 1 --im "$im" --levels 0.001,0.01,0.1,1,10,100
        expect_rc 0 || { echo "    hazard curve --im '$im'" >&2; cat "$T/err" >&2; return 1; }
    done
    run "$CS" hazard curve s.sqlite 1 --im "D5-95 5 E"
    expect_rc 1 && expect_err "sqrt(2)/fmax = 5.66 s" || return 1
}

# A scenario variation whose subfaults lie on other points than its rupture's first variation's
# (variation 3 of rupture 2 0, 24 points, slid one row down dip) needs the rupture's points
# whole: under a --max-memory that chunks that rupture's points it is refused with the rule.
# The refusal's status once passed for success there (the run finished, that variation summed
# over the wrong points).
t_other_points_under_a_memory_limit_refused() {
    setup_site || return 1
    study_copy
    "$CS" erf variations s.sqlite --name t --model-format fk1d --model-file "$MODEL" \
        --scenario files --srf-dir srf >/dev/null || return 1
    "$PY" "$REPO/tests/cli/srf_edit.py" down-dip srf/2_0_3.srf || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --scenario files --periods 4,5,10 \
        --max-memory 0.00012
    expect_rc 1 && expect_err "srf/2_0_3.srf: its subfaults lie on other points than the rupture's first variation's" &&
        expect_err "raise it" || return 1
}

tcase help_and_usage t_help_and_usage
tcase a_memory_limit_chunks_ruptures t_a_memory_limit_chunks_ruptures
tcase cuda_matches_cpu t_cuda_matches_cpu
tcase extract_one_rank_and_check_ims t_extract_one_rank_and_check_ims
tcase sac_read_by_obspy t_sac_read_by_obspy
tcase one_and_three_ranks_agree t_one_and_three_ranks_agree
tcase grouped_tasks_give_the_same_rows t_grouped_tasks_give_the_same_rows
tcase points_located_on_threads_agree t_points_located_on_threads_agree
tcase killed_run_resumes t_killed_run_resumes
tcase two_runs_of_the_same_sgts_both_resume t_two_runs_of_the_same_sgts_both_resume
tcase failed_rows_leave_nothing_of_their_rupture t_failed_rows_leave_nothing_of_their_rupture
tcase refuses_bad_inputs t_refuses_bad_inputs
tcase horizontal_only_two_forces t_horizontal_only_two_forces
tcase half_sampled_sgts_give_the_same_measures t_half_sampled_sgts_give_the_same_measures
tcase srf_scenario_matches_synth t_srf_scenario_matches_synth
tcase other_points_under_a_memory_limit_refused t_other_points_under_a_memory_limit_refused
tcase measures_outside_the_band_not_given t_measures_outside_the_band_not_given
tcase spectral_measures_checked_independently t_spectral_measures_checked_independently
tsummary
