#!/bin/sh
# The forecast and planning stages as a user runs them: the demo forecast built from the NSHM
# fault table, rupture geometry files imported, a site planned and checked against an
# independent computation, rupture variations laid out.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
FAULTS="$REPO/erf/demo/faults.csv"
TRACES="$REPO/erf/demo/traces.csv"
MODEL="$REPO/tests/data/bbp_nr02-vs500.fk1d"

study() {
    "$CS" db init s.sqlite >/dev/null && "$CS" db import-sites s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null
}

t_help() {
    for sub in build import-geometry list variations srf-info; do
        run "$CS" erf "$sub" --help && expect_rc 0 && expect_out "usage: cybershake erf $sub" || return 1
    done
    run "$CS" plan --help && expect_rc 0 && expect_out "usage: cybershake plan" || return 1
    run "$CS" plan s.sqlite && expect_rc 2 || return 1
    run "$CS" erf build s.sqlite --name x && expect_rc 2 && expect_err "--faults" || return 1
}

# Demo forecast near the demo site, planned with a 30 km cutoff; the rupture list and box are
# recomputed independently (tests/cli/plan_check.py).
t_plan_demo_site_matches_independent_check() {
    study || return 1
    run "$CS" erf build s.sqlite --name demo --faults "$FAULTS" --traces "$TRACES" \
        --files bFault.ch,bFault.gr --near 34.0522,-118.2437 --within 45 --spacing 2 --float-step 10
    expect_rc 0 && expect_out "forecast demo (ERF_ID 1)" || return 1
    run "$CS" plan s.sqlite DEMO --erf demo --fmax 0.1 --model-format fk1d --model-file "$MODEL" \
        --out plan --cutoff 30
    expect_rc 0 && expect_out "ruptures within 30 km" && expect_out "save points:" || return 1
    [ -s plan/DEMO.points ] && [ -s plan/DEMO.sgt.params ] || return 1
    ls -a plan | grep -q tmp && return 1
    run "$PY" "$REPO/tests/cli/plan_check.py" s.sqlite plan/DEMO.sgt.params DEMO 30 0.1
    expect_rc 0 && expect_out "plan check:" || { cat "$T/err" >&2; return 1; }
    cat "$T/out"
    [ "$(sqlite3 s.sqlite 'SELECT Num_Ruptures FROM Site_Plans')" = \
        "$(sqlite3 s.sqlite 'SELECT count(*) FROM CyberShake_Site_Ruptures')" ] || return 1
    # every save point lies inside the box, outside the absorbing layer, no duplicates
    awk 'NR > 1 { if ($1 < 20 || $1 > nx - 21 || $2 < 20 || $2 > ny - 21 || $3 < 0 || $3 > nz - 21) bad++;
                  if (seen[$0]++) dup++ } END { exit (bad + dup) > 0 }' \
        nx="$(sed -n 's/^nx = //p' plan/DEMO.sgt.params)" ny="$(sed -n 's/^ny = //p' plan/DEMO.sgt.params)" \
        nz="$(sed -n 's/^nz = //p' plan/DEMO.sgt.params)" plan/DEMO.points || return 1
    # a folder whose name holds '#' (a comment in a parameter file): the paths are quoted, and
    # the solver reads the file the plan wrote
    run "$CS" plan s.sqlite DEMO --erf demo --fmax 0.1 --model-format fk1d --model-file "$MODEL" \
        --out "pl#an" --cutoff 30
    expect_rc 0 && grep -qF "save_points = \"$PWD/pl#an/DEMO.points\"" "pl#an/DEMO.sgt.params" || return 1
    run "$CS" sgt "pl#an/DEMO.sgt.params" --set force_component=E --set output=e.h5 --set nt=2
    expect_rc 0 && [ -s e.h5 ] || return 1
}

# A geometry file round trip through the study, and malformed files rejected with file:line and
# nothing imported.
t_import_geometry_files() {
    study || return 1
    cat >12_3.txt <<'G'
Probability = 2.5e-05
Magnitude = 6.1
GridSpacing = 1.0
NumRows = 2
NumCols = 3
#   Lat         Lon         Depth      Rake    Dip     Strike
34.10 -118.30 0.0 90 45 270
34.10 -118.31 0.0 90 45 270
34.10 -118.32 0.0 90 45 270
34.11 -118.30 0.7 90 45 270
34.11 -118.31 0.7 90 45 270
34.11 -118.32 0.7 90 45 270
G
    run "$CS" erf import-geometry s.sqlite --name cs 12_3.txt && expect_rc 0 && expect_out "imported 1 ruptures (6 points)" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT Magnitude, Prob, Num_Rows, Num_Columns FROM Ruptures WHERE Source_ID = 12 AND Rupture_ID = 3')" = "6.1|2.5e-05|2|3" ] || return 1
    [ "$(sqlite3 s.sqlite 'SELECT Depth FROM Points WHERE Point_ID = 4')" = "0.7" ] || return 1
    sed 's/^34.11 -118.31 0.7 90 45 270/34.11 -118.31 0.7 90 95 270/' 12_3.txt >12_4.txt
    run "$CS" erf import-geometry s.sqlite --name cs 12_4.txt && expect_rc 1 && expect_err "12_4.txt:11: dip = '95'" || return 1
    head -9 12_3.txt >12_5.txt
    run "$CS" erf import-geometry s.sqlite --name cs 12_5.txt && expect_rc 1 && expect_err "found 3" || return 1
    sed 's/^NumCols = 3/NumCols = x/' 12_3.txt >12_6.txt
    run "$CS" erf import-geometry s.sqlite --name cs 12_6.txt && expect_rc 1 && expect_err "12_6.txt:5: NumCols = 'x'" || return 1
    run "$CS" erf import-geometry s.sqlite --name cs bad.txt && expect_rc 2 && expect_err "SOURCE_RUPTURE.txt" || return 1
    # ids too large for the study, or signed, are names that do not parse (not clamped)
    for name in 99999999999999999999_0.txt 1_+3.txt -1_2.txt 1_2.txt.txt; do
        cp 12_3.txt "./$name"
        run "$CS" erf import-geometry s.sqlite --name cs "./$name" && expect_rc 2 &&
            expect_err "SOURCE_RUPTURE.txt" || { echo "    $name was accepted" >&2; return 1; }
    done
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Ruptures')" = 1 ] || return 1
}

# Variations: one row per (slip realisation, hypocentre) with at least 3 x 3 hypocentres, SRFs
# for one rupture written and named in the rows.
t_variations_rows_and_srf() {
    study || return 1
    "$CS" erf build s.sqlite --name demo --faults "$FAULTS" --traces "$TRACES" --files bFault.ch \
        --near 34.0522,-118.2437 --within 8 --spacing 2 >/dev/null || return 1
    run "$CS" erf variations s.sqlite --name demo --model-format fk1d --model-file "$MODEL" \
        --slips 2 --srf-dir srf --source 143 --rupture 0
    expect_rc 0 && expect_out "scenario gp-0" || { cat "$T/err" >&2; return 1; }
    want=$(sqlite3 s.sqlite "SELECT CAST(sum(2 * max(3, min(Num_Columns, round(Num_Columns * Grid_Spacing / 4.0)))
        * max(3, min(Num_Rows, round(Num_Rows * Grid_Spacing / 4.0)))) AS INTEGER) FROM Ruptures")
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Rupture_Variations')" = "$want" ] || return 1
    n=$(sqlite3 s.sqlite "SELECT count(*) FROM Rupture_Variations WHERE Rup_Var_LFN IS NOT NULL")
    [ "$n" -ge 18 ] && [ "$(ls srf | wc -l)" = "$n" ] || return 1
    head -1 srf/143_0_0.srf | grep -q '^2.0$' || return 1
    [ "$(sqlite3 s.sqlite 'SELECT min(Hypocenter_Depth) >= 0 FROM Rupture_Variations')" = 1 ] || return 1
}

# Reading the public SRFs as a user would: the summary names the version, planes and moment;
# a 1.0 file without a model for its rigidity, and a broken file, are refused with the place.
t_srf_info() {
    run "$CS" erf srf-info "$REPO/tests/data/bbp_gp_m5.89-0.20x0.20_s2379646.srf"
    expect_rc 0 && expect_out "SRF 2.0, 1 plane, 2500 points" && expect_out "Mw 5.92" || return 1
    run "$CS" erf srf-info "$REPO/tests/data/bbp_ucsb_test.srf"
    expect_rc 1 && expect_err "VERSION = '1.0'" || return 1
    run "$CS" erf srf-info "$REPO/tests/data/bbp_ucsb_test.srf" --model-format fk1d --model-file "$MODEL"
    expect_rc 0 && expect_out "SRF 1.0, 1 plane, 841 points" && expect_out "Mw 5.87" || return 1
    head -20 "$REPO/tests/data/bbp_gp_m5.89-0.20x0.20_s2379646.srf" >cut.srf
    run "$CS" erf srf-info cut.srf && expect_rc 1 && expect_err "cut.srf:" || return 1
}

# Malformed fault tables are refused with the row's place: a row shorter than the header (it
# crashed the reader once), a longer one, and a row repeated word for word (its rate would count
# twice, naming the line it repeats), a source_id too long to keep; nothing is added to the
# study.
t_bad_fault_rows_are_refused() {
    study || return 1
    head -1 "$FAULTS" >short.csv && echo x >>short.csv
    run "$CS" erf build s.sqlite --name a --faults short.csv --traces "$TRACES"
    expect_rc 1 && expect_err "short.csv:2" && expect_err "1 fields" || return 1
    head -2 "$FAULTS" >long.csv && sed -n 2p "$FAULTS" | sed 's/$/,extra/' >>long.csv
    run "$CS" erf build s.sqlite --name a --faults long.csv --traces "$TRACES"
    expect_rc 1 && expect_err "long.csv:3" && expect_err "the header has" || return 1
    head -2 "$FAULTS" >twice.csv && sed -n 2p "$FAULTS" >>twice.csv
    run "$CS" erf build s.sqlite --name a --faults twice.csv --traces "$TRACES"
    expect_rc 1 && expect_err "twice.csv:3" && expect_err "repeats line 2" && expect_err "a second time" || return 1
    # a source_id longer than the reader keeps would be cut short and could merge two sources
    head -1 "$FAULTS" >longkey.csv
    sed -n 2p "$FAULTS" | sed 's/^[^,]*/bFault.ch:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/' >>longkey.csv
    run "$CS" erf build s.sqlite --name a --faults longkey.csv --traces "$TRACES"
    expect_rc 1 && expect_err "longkey.csv:2" && expect_err "1 to 63 characters" || return 1
    head -2 "$FAULTS" >one.csv
    run "$CS" erf build s.sqlite --name a --faults one.csv --traces "$TRACES" && expect_rc 0 || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM ERF_IDs')" = 1 ] || return 1
}

tcase help t_help
tcase srf_info t_srf_info
# The plan's parameter file, unchanged, on the SGT-only build (no geodesy: the GPU machines'
# build) and on the full build: the box-frame values the plan writes beside the geographic ones
# give the same file, byte for byte. A full build refuses box values that disagree with the
# geography; the SGT-only build says what it lacks when they are missing.
t_plan_runs_unchanged_without_geodesy() {
    study || return 1
    run "$CS" erf build s.sqlite --name demo --faults "$FAULTS" --traces "$TRACES" \
        --files bFault.ch,bFault.gr --near 34.0522,-118.2437 --within 45 --spacing 2 --float-step 10
    expect_rc 0 || return 1
    run "$CS" plan s.sqlite DEMO --erf demo --fmax 0.1 --model-format fk1d --model-file "$MODEL" \
        --out plan --cutoff 30 && expect_rc 0 || return 1
    P=plan/DEMO.sgt.params
    for k in source_i source_j source_k force_vector_E force_vector_N force_vector_Z box_axes_enu; do
        grep -q "^$k = " $P || { echo "    the plan does not write $k" >&2; return 1; }
    done
    run "$CS" sgt $P --set force_component=N --set nt=4 --set output=full.h5 && expect_rc 0 || return 1
    SO="$REPO/build/sgt-only/bin/cybershake"
    if [ -x "$SO" ]; then
        run "$SO" sgt $P --set force_component=N --set nt=4 --set output=so.h5 && expect_rc 0 ||
            return 1
        cmp -s full.h5 so.h5 || { echo "    the SGT-only build's file differs" >&2; return 1; }
        grep -v '^force_vector_N' $P >no_vector.params
        run "$SO" sgt no_vector.params --set force_component=N --set nt=4 --set output=x.h5 &&
            expect_rc 1 && expect_err "needs geodesy" || return 1
    else
        echo "    build/sgt-only is not built: the full build alone was checked" >&2
    fi
    awk '/^source_i = / { $3 = $3 + 1 } { print }' $P >moved.params
    run "$CS" sgt moved.params --set force_component=N --set nt=4 --set output=x.h5 &&
        expect_rc 1 && expect_err "disagrees with source_lon/source_lat" || return 1
    sed 's/^force_vector_N = .*/force_vector_N = 0 1 0/' $P >turned.params
    run "$CS" sgt turned.params --set force_component=N --set nt=4 --set output=x.h5 &&
        expect_rc 1 && expect_err "the plan's box vector disagrees" || return 1
}

tcase plan_demo_site_matches_independent_check t_plan_demo_site_matches_independent_check
tcase plan_runs_unchanged_without_geodesy t_plan_runs_unchanged_without_geodesy
tcase import_geometry_files t_import_geometry_files
tcase bad_fault_rows_are_refused t_bad_fault_rows_are_refused
tcase variations_rows_and_srf t_variations_rows_and_srf
tsummary
