#!/bin/sh
# `cybershake run` and `cybershake status` on the small site (tests/workflow/small_site.sh): the
# plan of steps, a run end to end with every output checksummed, a rerun that trusts only
# matching checksums, runs killed (kill -9 of the whole process group, as a power loss) at
# random moments and resumed with the same command, compared with the uninterrupted run; retries,
# a step that keeps failing, the run lock.
. "$(dirname "$0")/lib.sh"
. "$REPO/tests/workflow/small_site.sh"
REF="$T_ROOT/reference"

# The uninterrupted run every other case is compared with (made once).
reference() {
    [ -f "$REF/done" ] && return 0
    mkdir -p "$REF" && cd "$REF" || return 1
    make_study && make_config || return 1
    cp s.sqlite template.sqlite
    t0=$(date +%s)
    "$CS" run DEMO --study s.sqlite --config run.cfg >run.out 2>run.err || { cat run.err >&2; return 1; }
    echo $(($(date +%s) - t0)) >seconds
    : >done
    cd - >/dev/null
}

fresh() { # a study as the reference started from, and its configuration
    reference || return 1
    cp "$REF/template.sqlite" s.sqlite && cp "$REF"/*_*.txt . && make_config "$@"
}

t_dry_run_prints_steps_and_runs_nothing() {
    fresh || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run
    expect_rc 0 && expect_out "a new run of site DEMO" && expect_out "step 4/9 sgt_N [new] after mesh" &&
        expect_out "--set force_component=N" && expect_out "hazard disagg" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Workflow_Runs')" = 0 ] || return 1
    [ ! -d runs ] || { echo "    --dry-run made $(ls runs)" >&2; return 1; }
}

# The forces a study runs: E and N unless a hazard IM is vertical (auto, the default), or as
# configured; the SGT-only build for the solver steps when sgt_program names it.
t_forces_follow_the_vertical_ims() {
    fresh 'forces = auto' || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run
    expect_rc 0 && expect_out "step 4/8 sgt_N [new] after mesh" && expect_out "step 5/8 check" || return 1
    grep -q "sgt_Z" "$T/out" && { echo "    a Z force without a vertical IM" >&2; return 1; }
    grep "cybershake extract" "$T/out" | grep -q "sgt_E.h5,[^ ,]*sgt_N.h5 " || return 1
    fresh 'forces = auto' 'hazard_ims = RotD50 5; PGV Z' 'sgt_program = /opt/sgt-only/cybershake' ||
        return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run
    expect_rc 0 && expect_out "step 5/9 sgt_Z [new] after mesh" || return 1
    [ "$(grep -c '/opt/sgt-only/cybershake \(mesh\|sgt\) ' "$T/out")" = 4 ] ||
        { echo "    the solver steps do not run sgt_program" >&2; return 1; }
}

t_end_to_end_records_every_step_and_file() {
    reference || return 1
    cd "$REF" || return 1
    grep -q "run 1 of site DEMO: done" run.out && grep -q "SA(5) RotD50" run.out &&
        grep -q "ruptures that dominate SA(5) RotD50 at 2% in 50 yr" run.out || { cat run.out >&2; return 1; }
    [ "$(sqlite3 s.sqlite "SELECT group_concat(Step_Name || ':' || State || ':' || Attempts, ' ') FROM Workflow_Steps ORDER BY Position")" = \
        "plan:done:1 mesh:done:1 sgt_E:done:1 sgt_N:done:1 sgt_Z:done:1 check:done:1 extract:done:1 hazard:done:1 disagg:done:1" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT State FROM Workflow_Runs")" = done ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT Status FROM CyberShake_Runs WHERE Run_ID = 1")" = Verified ] || return 1
    # every output is recorded with the checksum it has on disk
    n=0
    sqlite3 -separator ' ' s.sqlite "SELECT f.SHA256, f.Path FROM Files f JOIN Step_Files l USING (File_ID) WHERE l.Role = 'output'" >outs
    while read -r sha path; do
        [ "$(sha256sum "$path" | cut -d' ' -f1)" = "$sha" ] || { echo "    $path: checksum differs" >&2; return 1; }
        n=$((n + 1))
    done <outs
    [ "$n" = 15 ] || { echo "    $n outputs recorded, expected 15" >&2; return 1; }
    # inputs are linked too: check used the three SGTs, extract nothing else
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Step_Files l JOIN Workflow_Steps s USING (Step_ID) WHERE s.Step_Name = 'check' AND l.Role = 'input'")" = 3 ] || return 1
    run "$CS" status s.sqlite DEMO
    expect_rc 0 && expect_out "run 1  site DEMO  done" && expect_out "sgt_Z    done"
}

t_rerun_trusts_matching_checksums_only() {
    reference || return 1
    cd "$REF" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 0 && expect_out "[9/9] disagg: done, outputs verified" || return 1
    [ "$(sqlite3 s.sqlite "SELECT sum(Attempts) FROM Workflow_Steps")" = 9 ] || return 1
}

t_changed_output_runs_again_with_what_follows() {
    fresh || return 1
    "$CS" run DEMO --study s.sqlite --config run.cfg >first.out 2>&1 || return 1
    printf 'x' >>runs/DEMO/run-1/sgt_N.h5
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 0 || return 1
    expect_out "sgt_N: done before, runs again: " && expect_out "sgt_N.h5 changed" &&
        expect_out "[3/9] sgt_E: done, outputs verified" && expect_out "extract: done before, runs again: a step it needs runs again" || return 1
    [ "$(amplitudes_differ s.sqlite "$REF/s.sqlite")" = 0 ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT Attempts FROM Workflow_Steps WHERE Step_Name = 'sgt_E'")" = 1 ] &&
        [ "$(sqlite3 s.sqlite "SELECT Attempts FROM Workflow_Steps WHERE Step_Name = 'sgt_N'")" = 2 ]
}

# Kill the whole run (driver and step, kill -9) after $1 seconds, then resume it to the end.
kill_and_resume() {
    setsid "$CS" run DEMO --study s.sqlite --config run.cfg >killed.out 2>&1 &
    sleep "$1"
    pgid=$(ps -o pgid= -p $! 2>/dev/null | tr -d ' ')
    [ -n "$pgid" ] && kill -KILL "-$pgid" 2>/dev/null # dash's kill takes no "--"
    wait 2>/dev/null
    "$CS" run DEMO --study s.sqlite --config run.cfg >resumed.out 2>&1 || { tail -5 resumed.out >&2; return 1; }
}

t_killed_at_random_moments_resumes_to_the_same_result() {
    reference || return 1
    total=$(cat "$REF/seconds")
    # CS_KILL_TIMES="3 11 20" replays a failure; otherwise one moment drawn in each third of
    # the run (SGTs, SGTs, then check, extraction and hazard)
    times=${CS_KILL_TIMES:-$(awk -v t="$total" 'BEGIN { srand(); for (i = 0; i < 3; i++) printf "%.1f ", 0.3 + (i + rand()) * (t - 0.6) / 3 }')}
    echo "    kill -9 after: $times s (of a ${total} s run)"
    interrupted=0
    for s in $times; do
        mkdir -p "k$s" && cd "k$s" || return 1
        fresh || return 1
        kill_and_resume "$s" || { echo "    resume after a kill at $s s failed" >&2; return 1; }
        grep -q "run 1 of site DEMO: done" resumed.out || return 1
        if grep -q "run 1 of site DEMO: done" killed.out; then
            echo "    the run finished before the kill at $s s: not counted"
        else
            interrupted=$((interrupted + 1))
            echo "    killed at $s s during $(grep -o '\[[0-9]/9\] [A-Za-z_]*: running' killed.out | tail -1 | cut -d' ' -f2 | tr -d :); resumed: $(grep -c ': running' resumed.out) steps ran again"
        fi
        d=$(amplitudes_differ s.sqlite "$REF/s.sqlite")
        [ "$d" = 0 ] || { echo "    killed at $s s: $d amplitudes differ from the uninterrupted run" >&2; return 1; }
        # every step ran to the end once more at most, and the curves are the reference's
        [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Workflow_Steps WHERE State != 'done'")" = 0 ] || return 1
        [ "$(sqlite3 s.sqlite "ATTACH '$REF/s.sqlite' AS r; SELECT count(*) FROM (SELECT c.IM_Type_ID, p.X_Value, p.Y_Value FROM Hazard_Curve_Points p JOIN Hazard_Curves c USING (Hazard_Curve_ID) EXCEPT SELECT c.IM_Type_ID, p.X_Value, p.Y_Value FROM r.Hazard_Curve_Points p JOIN r.Hazard_Curves c USING (Hazard_Curve_ID))")" = 0 ] ||
            { echo "    killed at $s s: hazard curves differ" >&2; return 1; }
        cd .. || return 1
    done
    [ "$interrupted" -ge 2 ] || { echo "    only $interrupted of the kills interrupted the run" >&2; return 1; }
}

t_failing_step_is_retried_then_reported() {
    fresh "retries = 2" || return 1
    sed -i "s|^model_file = .*|model_file = $PWD/no-such-model.fk1d|" run.cfg
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 1 && expect_err "step plan failed after 3 attempts" && expect_err "no-such-model.fk1d" &&
        expect_err "logs/plan.log" && expect_out "plan: attempt 2 of 3 failed" || return 1
    [ "$(sqlite3 s.sqlite "SELECT State || ' ' || Attempts FROM Workflow_Steps WHERE Step_Name = 'plan'")" = "failed 3" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT State FROM Workflow_Runs")" = failed ] || return 1
    run "$CS" status s.sqlite
    expect_out "plan     failed     3" && expect_out "no-such-model.fk1d"
}

t_transient_failure_is_retried() {
    fresh "mpirun = $REPO/tests/workflow/flaky_launcher.sh" || return 1
    export CS_FLAKY_MARKER="$PWD/failed-once"
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    unset CS_FLAKY_MARKER
    expect_rc 0 && expect_out "sgt_E: attempt 1 of 2 failed: flaky_launcher: simulated node failure" || return 1
    [ "$(sqlite3 s.sqlite "SELECT State || ' ' || Attempts FROM Workflow_Steps WHERE Step_Name = 'sgt_E'")" = "done 2" ] || return 1
    [ "$(amplitudes_differ s.sqlite "$REF/s.sqlite")" = 0 ]
}

t_one_driver_per_run() {
    fresh || return 1
    "$CS" run DEMO --study s.sqlite --config run.cfg >first.out 2>&1 &
    first=$!
    i=0
    until grep -q "sgt_E: running" first.out 2>/dev/null; do
        i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.1
    done
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    kill $first 2>/dev/null; wait $first 2>/dev/null
    expect_rc 1 && expect_err "another 'cybershake run' is driving this run"
}

t_changed_configuration_is_a_new_run() {
    reference || return 1
    cd "$REF" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run
    expect_rc 0 && expect_out "run 1 of site DEMO (done)" && expect_out "step 9/9 disagg [done]" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run --set "fmax=0.15 Hz"
    expect_rc 0 && expect_out "a new run of site DEMO" || return 1
    # how steps are executed is not part of the run's identity
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run --set retries=5 --set executor=slurm
    expect_rc 0 && expect_out "run 1 of site DEMO (done)"
}

t_bad_configuration_is_refused() {
    make_config "frequency = 2 Hz"
    line=$(grep -n '^frequency' run.cfg | cut -d: -f1)
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg
    expect_rc 1 && expect_err "run.cfg:$line:" && expect_err "'frequency': unknown key" || return 1
    make_config "poes = 2% in 50 yr; 2% in 50 yr"
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg
    expect_rc 1 && expect_err "poes" && expect_err "is listed twice"
}

t_many_sites_and_their_map() {
    fresh || return 1
    { grep -v '^#' "$REPO/sites/demo/sites.csv"; echo 'NEARE,East of the demo site,34.06,-118.2,'; } >sites.csv
    run "$CS" run --sites sites.csv --study s.sqlite --config run.cfg
    expect_rc 0 && expect_out "== site 2 of 2: NEARE" && expect_out "run 2 of site NEARE: done" || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Workflow_Runs WHERE State = 'done'")" = 2 ] || return 1
    run "$CS" hazard map s.sqlite --im 'RotD50 5' --poe '10% in 50 yr' --plot map.png --csv map.csv
    expect_rc 0 && [ -s map.png ] || return 1
    [ "$(grep -c '^DEMO,\|^NEARE,' map.csv)" = 2 ]
}

# The check step between the SGTs and the extraction: a NaN, an all-zero set, two files of
# the same force are refused; a good set's checksums become the run's SGT files.
t_check_refuses_bad_sgts() {
    reference || return 1
    r="$REF/runs/DEMO/run-1"
    cp "$r/sgt_E.h5" "$r/sgt_N.h5" "$r/sgt_Z.h5" . || return 1
    run "$CS" check sgt_E.h5 sgt_N.h5 sgt_Z.h5
    expect_rc 0 && expect_out "all values finite" || return 1
    # by hand, with a study: the copies become run 1's SGT files with their checksums
    cp "$REF/s.sqlite" s.sqlite || return 1
    run "$CS" check sgt_E.h5 sgt_N.h5 sgt_Z.h5 --study s.sqlite --run 1
    expect_rc 0 || return 1
    [ "$(sqlite3 s.sqlite "SELECT SHA256 FROM Files WHERE Kind = 'sgt-N' AND Path = '$PWD/sgt_N.h5'")" = "$(sha256sum sgt_N.h5 | cut -d' ' -f1)" ] || return 1
    run "$CS" check sgt_E.h5 sgt_E.h5 sgt_Z.h5
    expect_rc 1 && expect_err "two of the files hold the same force" || return 1
    cp sgt_N.h5 nan.h5 && cp sgt_Z.h5 zero.h5 || return 1
    /usr/bin/python3 -c "
import h5py, numpy as np
with h5py.File('nan.h5', 'r+') as f:
    d = f['strain']; i = (d.shape[0] // 2,) + (0,) * (d.ndim - 1); d[i] = np.nan
with h5py.File('zero.h5', 'r+') as f:
    f['strain'][...] = 0
" || return 1
    run "$CS" check sgt_E.h5 nan.h5 sgt_Z.h5
    expect_rc 1 && expect_err "1 stored strain values are not finite" || return 1
    cp sgt_N.h5 n2.h5
    /usr/bin/python3 -c "
import h5py
for name in ('sgt_E.h5', 'n2.h5', 'zero.h5'):
    with h5py.File(name, 'r+') as f:
        f['strain'][...] = 0
" || return 1
    run "$CS" check sgt_E.h5 n2.h5 zero.h5
    expect_rc 1 && expect_err "every stored strain value is zero"
}

tcase dry_run_prints_steps_and_runs_nothing t_dry_run_prints_steps_and_runs_nothing
tcase forces_follow_the_vertical_ims t_forces_follow_the_vertical_ims
tcase end_to_end_records_every_step_and_file t_end_to_end_records_every_step_and_file
tcase rerun_trusts_matching_checksums_only t_rerun_trusts_matching_checksums_only
tcase changed_output_runs_again_with_what_follows t_changed_output_runs_again_with_what_follows
tcase killed_at_random_moments_resumes_to_the_same_result t_killed_at_random_moments_resumes_to_the_same_result
tcase failing_step_is_retried_then_reported t_failing_step_is_retried_then_reported
tcase transient_failure_is_retried t_transient_failure_is_retried
tcase one_driver_per_run t_one_driver_per_run
tcase changed_configuration_is_a_new_run t_changed_configuration_is_a_new_run
tcase bad_configuration_is_refused t_bad_configuration_is_refused
tcase many_sites_and_their_map t_many_sites_and_their_map
tcase check_refuses_bad_sgts t_check_refuses_bad_sgts
tsummary
