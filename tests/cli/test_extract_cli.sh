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
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes')" = $((36 * 25)) ] || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Rupture_Variations')" = 36 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT Status FROM CyberShake_Runs")" = "PP Generated" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Files WHERE Run_ID = 1 AND Kind IN ('sgt-E', 'sgt-N', 'sgt-Z', 'seismograms')")" = 4 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM PeakAmplitudes WHERE NOT (IM_Value >= 0)")" = 0 ] || return 1
    run "$PY" "$REPO/tests/cli/im_check.py" s.sqlite seis.h5 1
    expect_rc 0 || { cat "$T/out" "$T/err" >&2; return 1; }
    sed 's/^/    /' "$T/out"
    run "$CS" seismogram seis.h5 --source 2 --rupture 0 --variation 3 --csv r.csv --sac r
    expect_rc 0 && expect_out "source 2 rupture 0 variation 3" && expect_out "RotD50" || return 1
    # the SAC files hold the CSV's samples, with the header SAC readers need
    "$PY" - <<'EOF' || return 1
import struct, numpy as np
rows = np.loadtxt("r.csv", delimiter=",", skiprows=1)
for k, c in enumerate("ENZ"):
    b = open(f"r.{c}.sac", "rb").read()
    delta = struct.unpack("<f", b[0:4])[0]
    nvhdr, npts = struct.unpack("<i", b[76 * 4:77 * 4])[0], struct.unpack("<i", b[79 * 4:80 * 4])[0]
    leven = struct.unpack("<i", b[105 * 4:106 * 4])[0]
    data = np.frombuffer(b[632:], dtype="<f4")
    assert nvhdr == 6 and leven == 1 and npts == len(rows) == len(data), (nvhdr, leven, npts, len(data))
    assert abs(delta - (rows[1, 0] - rows[0, 0])) < 1e-6
    assert b[600:608].decode().strip() == c
    assert np.allclose(data, rows[:, k + 1], rtol=1e-6, atol=0), c
EOF
    run "$CS" seismogram seis.h5 --source 9 --rupture 0 --variation 0 && expect_rc 1 && expect_err "no record of source 9" || return 1
}

# One rank and three ranks (two workers) give the same rows.
t_one_and_three_ranks_agree() {
    setup_site || return 1
    study_copy
    "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10 >/dev/null 2>&1 || return 1
    run mpirun -np 3 --oversubscribe "$CS" extract s.sqlite --site DEMO --erf t --sgt "$SGTS" --periods 4,5,10
    expect_rc 0 && expect_out "run 2: 4 ruptures" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 25)) ] || return 1
    [ "$(rows_differ 1 2)" = 0 ] || return 1
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
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 25)) ] || return 1
    [ "$(h5dump -d velocity a.h5 | tail -n +3 | sha256sum)" = "$(h5dump -d velocity b.h5 | tail -n +3 | sha256sum)" ] || return 1
    [ -e b.h5.parts ] && return 1
    # resuming a finished run does nothing
    run "$CS" extract s.sqlite --run 2 --periods 4,5,10
    expect_rc 0 && expect_out "(4 done before, 0 now)" || return 1
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
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 23)) ] || return 1
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
# full-rate extraction (measured worst: 3.7e-4, CAV; SA 5e-5). What lets a production site's
# two forces fit a GPU node's disk (docs/scale.md).
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
        JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)
        WHERE a.Run_ID = 1 AND b.Run_ID = 2")
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM PeakAmplitudes WHERE Run_ID = 2')" = $((36 * 23)) ] || return 1
    echo "    worst relative difference of a measure: $worst" >&2
    awk -v w="$worst" 'BEGIN { exit !(w < 1e-3) }' || return 1
}

tcase help_and_usage t_help_and_usage
tcase extract_one_rank_and_check_ims t_extract_one_rank_and_check_ims
tcase one_and_three_ranks_agree t_one_and_three_ranks_agree
tcase killed_run_resumes t_killed_run_resumes
tcase refuses_bad_inputs t_refuses_bad_inputs
tcase horizontal_only_two_forces t_horizontal_only_two_forces
tcase half_sampled_sgts_give_the_same_measures t_half_sampled_sgts_give_the_same_measures
tsummary
