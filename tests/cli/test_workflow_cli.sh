#!/bin/sh
# `cybershake run` and `cybershake status` on the small site (tests/workflow/small_site.sh): the
# plan of steps, a run end to end with every output checksummed, a rerun that trusts only
# matching checksums, runs killed (kill -9 of the whole process group, as a power loss) at
# random moments and resumed with the same command, compared with the uninterrupted run; retries,
# a step that keeps failing, the run lock.
. "$(dirname "$0")/lib.sh"
. "$REPO/tests/workflow/small_site.sh"
REF=$SMALL_SITE_REF

# The uninterrupted run every other case is compared with (tests/workflow/small_site.sh: made
# once, shared with the Slurm suite when tests/run_all.sh runs both).
reference() {
    small_site_reference
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
    # the run not made yet is NEW in its commands, as in its folder, never run 0
    expect_out "extract $PWD/s.sqlite --run NEW" && ! grep -q -- "--run 0" "$T/out" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Workflow_Runs')" = 0 ] || return 1
    [ ! -d runs ] || { echo "    --dry-run made $(ls runs)" >&2; return 1; }
    # the mesh takes the configured material sampling (docs/sgt.md); an unknown rule is refused
    grep "cybershake mesh" "$T/out" | grep -q -- "--set material_sampling=auto" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run --set material_sampling=bandlimited
    expect_rc 0 || return 1
    grep "cybershake mesh" "$T/out" | grep -q -- "--set material_sampling=bandlimited" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run --set material_sampling=harmonic
    expect_rc 1 && expect_err "material_sampling" && expect_err "auto|effective|bandlimited|point" || return 1
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
    expect_rc 0 && expect_out "run 1  site DEMO  done" && expect_out "sgt_Z    done" || return 1
    # each step that has run names its log (and a done step's lines are not repeated)
    [ "$(grep -c "^           log $REF/runs/DEMO/run-1/logs/[a-z_EZN]*\.log$" "$T/out")" = 9 ] || { cat "$T/out" >&2; return 1; }
    ! grep -q "^             | " "$T/out"
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

# Kill points, in the order a run reaches them: at every step boundary (before a step starts,
# while it runs, after its process exited, after it was recorded done) and inside every step
# (its own fault points: after a file is written but before it is renamed into place, after a
# solver time step, a checked block, a recorded rupture, a stored curve). Each is a kill -9 of
# the driver and the step's processes together, as a power loss; the points are the program's
# own hooks (CYBERSHAKE_FAULT_KILL_AT), not moments in time.
KILL_POINTS="step-start:plan file-before-rename:DEMO.points step-exited:plan step-done:plan
step-running:mesh file-renamed:material.h5 sgt-step:50 step-exited:sgt_E
file-before-rename:sgt_N.h5 step-done:sgt_N step-start:sgt_Z sgt-step:700 step-running:check
check-block step-done:check extract-rupture-recorded:2 file-before-rename:seismograms.h5
step-exited:extract hazard-curve-stored file-before-rename:curve_RotD50_10.png step-done:hazard
file-renamed:disagg_RotD50_5_2pct_in_50_yr.png step-exited:disagg"

# Runs the workflow until the fault point $1 kills it: exit 137 and the point named in the
# driver's output or a step's log.
killed_at() {
    CYBERSHAKE_FAULT_KILL_AT=$1 setsid -w "$CS" run DEMO --study s.sqlite --config run.cfg >killed.out 2>&1
    rc=$?
    [ "$rc" = 137 ] || { echo "    kill point $1: exit $rc, not killed there" >&2; tail -3 killed.out >&2; return 1; }
    grep -rqF "fault injection: killed at $1 " killed.out runs/DEMO/run-1/logs ||
        { echo "    kill point $1: the run died elsewhere" >&2; return 1; }
    cat killed.out >>all_kills.out
}

# The run resumed after every kill gives the uninterrupted run's amplitudes and curves.
same_as_reference() {
    d=$(amplitudes_differ s.sqlite "$REF/s.sqlite")
    [ "$d" = 0 ] || { echo "    $d amplitudes differ from the uninterrupted run" >&2; return 1; }
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Workflow_Steps WHERE State != 'done'")" = 0 ] || return 1
    [ "$(sqlite3 s.sqlite "ATTACH '$REF/s.sqlite' AS r; SELECT count(*) FROM (SELECT c.IM_Type_ID, p.X_Value, p.Y_Value FROM Hazard_Curve_Points p JOIN Hazard_Curves c USING (Hazard_Curve_ID) EXCEPT SELECT c.IM_Type_ID, p.X_Value, p.Y_Value FROM r.Hazard_Curve_Points p JOIN r.Hazard_Curves c USING (Hazard_Curve_ID))")" = 0 ] ||
        { echo "    hazard curves differ" >&2; return 1; }
}

t_killed_at_every_step_boundary_and_inside_every_step_resumes() {
    fresh || return 1
    for point in $KILL_POINTS; do
        killed_at "$point" || return 1
    done
    # the last kill left disagg unfinished; the same command finishes the run
    "$CS" run DEMO --study s.sqlite --config run.cfg >resumed.out 2>&1 || { tail -5 resumed.out >&2; return 1; }
    grep -q "run 1 of site DEMO: done" resumed.out || return 1
    same_as_reference || return 1
    # only the interrupted steps ran again: none of the finished ones (their outputs verified)
    [ "$(grep -c ': running' resumed.out)" = 1 ] || return 1
    # a kill inside a resumed extraction whose outputs were damaged (the extraction starts over,
    # is killed, and resumes with the same SGT files that the workflow names again)
    printf x >>runs/DEMO/run-1/seismograms.h5
    killed_at extract-rupture-recorded:1 || return 1
    "$CS" run DEMO --study s.sqlite --config run.cfg >resumed2.out 2>&1 || { tail -5 resumed2.out >&2; return 1; }
    grep -q "run 1 of site DEMO: done" resumed2.out && same_as_reference
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
    expect_out "plan     failed     3" && expect_out "no-such-model.fk1d" && expect_out "log $PWD/runs/DEMO/run-1/logs/plan.log" || return 1
    # as its help says: the failed step's log shown, its last lines under its path
    "$CS" status --help | grep -q "last lines of the log of each step that failed" || return 1
    grep -A5 "log $PWD/runs/DEMO/run-1/logs/plan.log" "$T/out" | grep -q "^             | .*no-such-model.fk1d" ||
        { echo "    the failed step's log is not shown" >&2; cat "$T/out" >&2; return 1; }
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

# Waits (bounded) until file $1 holds text $2.
wait_for_text() {
    i=0
    until grep -qF "$2" "$1" 2>/dev/null; do
        i=$((i + 1)); [ $i -gt 600 ] && { echo "    never saw '$2' in $1" >&2; return 1; }
        sleep 0.1
    done
}

# Two first runs of a site started at once make one run between them: the first driver is held
# (SIGSTOP, the program's own hook) after looking the run up, inside its transaction, while the
# second starts; whatever the second does meanwhile, one run results, driven by one of them.
t_two_first_runs_at_once_make_one_run() {
    fresh || return 1
    CYBERSHAKE_FAULT_PAUSE_AT=run-looked-up "$CS" run DEMO --study s.sqlite --config run.cfg >a.out 2>&1 &
    a=$!
    wait_for_text a.out "paused at run-looked-up" || { kill -9 $a; return 1; }
    "$CS" run DEMO --study s.sqlite --config run.cfg >b.out 2>&1 &
    b=$!
    sleep 1 # gives the second driver time to reach its lookup (the verdict does not depend on it)
    kill -CONT $a
    wait $a; rca=$?
    wait $b; rcb=$?
    [ "$(sqlite3 s.sqlite 'SELECT count(*) FROM Workflow_Runs')" = 1 ] || { echo "    two runs" >&2; return 1; }
    [ "$(sqlite3 s.sqlite 'SELECT State FROM Workflow_Runs')" = done ] || return 1
    # one drove it; the other either found it driven or (started late) found it done
    [ "$rca" = 0 ] || [ "$rcb" = 0 ] || return 1
    for o in a b; do
        if ! grep -q "run 1 of site DEMO: done" $o.out; then
            grep -q "another 'cybershake run' is driving this run" $o.out || return 1
        fi
    done
    [ "$(amplitudes_differ s.sqlite "$REF/s.sqlite")" = 0 ]
}

# A driver refused because another holds the run leaves the run's state alone (it once marked
# the live run failed), and a resume stops what an interrupted run left running only when the
# process group's leader is the very process it started: a reused process-group id belongs to
# someone else and is not killed.
t_resume_stops_only_its_own_leftovers() {
    fresh || return 1
    CYBERSHAKE_FAULT_KILL_AT=step-start:mesh setsid -w "$CS" run DEMO --study s.sqlite --config run.cfg >killed.out 2>&1
    [ "$(sqlite3 s.sqlite 'SELECT State FROM Workflow_Runs')" = running ] || return 1
    run flock runs/DEMO/run-1/.lock "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 1 && expect_err "another 'cybershake run' is driving this run" || return 1
    [ "$(sqlite3 s.sqlite 'SELECT State FROM Workflow_Runs')" = running ] || return 1
    # a process group led by a process named cybershake, not started by this run
    ln -s "$(command -v sleep)" cybershake
    setsid ./cybershake 300 &
    other=$!
    host=$(uname -n)
    boot=$(cat /proc/sys/kernel/random/boot_id)
    sqlite3 s.sqlite "UPDATE Workflow_Steps SET State = 'running', Host = '$host', Job_ID = 'local:$host:$other:12345@$boot' WHERE Step_Name = 'mesh'"
    CYBERSHAKE_FAULT_KILL_AT=step-start:mesh setsid -w "$CS" run DEMO --study s.sqlite --config run.cfg >resumed.out 2>&1
    kill -0 $other 2>/dev/null || { echo "    an unrelated process group was killed" >&2; return 1; }
    grep -q "stopped what the interrupted run left" resumed.out && return 1
    # with the leader's own identity (what the run records when it starts a step) it is stopped
    ticks=$(sed 's/.*) //' /proc/$other/stat | cut -d' ' -f20)
    sqlite3 s.sqlite "UPDATE Workflow_Steps SET State = 'running', Host = '$host', Job_ID = 'local:$host:$other:$ticks@$boot' WHERE Step_Name = 'mesh'"
    CYBERSHAKE_FAULT_KILL_AT=step-start:mesh setsid -w "$CS" run DEMO --study s.sqlite --config run.cfg >resumed2.out 2>&1
    wait $other 2>/dev/null
    kill -0 $other 2>/dev/null && { kill -9 $other; echo "    the run's own leftover was not stopped" >&2; return 1; }
    grep -q "mesh: stopped what the interrupted run left of it (process group $other)" resumed2.out
}

t_changed_configuration_is_a_new_run() {
    reference || return 1
    cd "$REF" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run
    expect_rc 0 && expect_out "run 1 of site DEMO (done)" && expect_out "step 9/9 disagg [done]" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --dry-run --set "fmax=0.25 Hz"
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
    expect_rc 1 && expect_err "poes" && expect_err "is listed twice" || return 1
    # what the band (fmax 0.2 Hz) does not give is refused before anything runs, with the rule
    make_config "hazard_ims = RotD50 5; PGA RotD50"
    line=$(grep -n '^hazard_ims' run.cfg | cut -d: -f1)
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg
    expect_rc 1 && expect_err "run.cfg:$line:" && expect_err "'PGA RotD50'" &&
        expect_err "outside the band of the run (fmax 0.2 Hz)" && expect_err "PGA is a broadband measure" || return 1
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg --set "hazard_ims=RotD50 2"
    expect_rc 1 && expect_err "'RotD50 2'" && expect_err "T >= 1/fmax = 5 s" || return 1
    make_config "periods = 2,5"
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg
    expect_rc 1 && expect_err "periods" && expect_err "SA at 2 s is outside the band of the run (fmax 0.2 Hz)" || return 1
    [ ! -e nowhere.sqlite ] || return 1
    # inside the band (PGV, SA at 1/fmax and above) the same configuration plans its steps
    make_config "hazard_ims = RotD50 5; PGV RotD50"
    run "$CS" run DEMO --study nowhere.sqlite --config run.cfg --dry-run
    [ "$RC" != 0 ] && expect_err "nowhere.sqlite" && ! grep -q "band" "$T/err"
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

# SGT files carry their own checksum (FILE.sha256, sha256sum's format, written with the file):
# `check` verifies it, so a damaged file whose values are still finite and consistent is refused
# where no study recorded it (241 of 400 randomly damaged files once passed). 40 copies, each
# with one byte changed at a random place (seeded), are all refused.
t_check_verifies_the_sgts_own_checksums() {
    reference || return 1
    r="$REF/runs/DEMO/run-1"
    for c in E N Z; do cp "$r/sgt_$c.h5" "$r/sgt_$c.h5.sha256" . || return 1; done
    sha256sum -c --quiet sgt_N.h5.sha256 || return 1
    run "$CS" check sgt_E.h5 sgt_N.h5 sgt_Z.h5
    expect_rc 0 && expect_out "sgt_N.h5: SHA-256 matches the checksum written with it" || return 1
    /usr/bin/python3 -c "
import random, shutil
rng = random.Random(22)
data = open('sgt_N.h5', 'rb').read()
for i in range(40):
    b = bytearray(data)
    at = rng.randrange(len(b))
    b[at] ^= 1 << rng.randrange(8)
    open('bad_%d.h5' % i, 'wb').write(b)
    shutil.copy('sgt_N.h5.sha256', 'bad_%d.h5.sha256' % i)
" || return 1
    passed=0
    for i in $(seq 0 39); do
        run "$CS" check sgt_E.h5 "bad_$i.h5" sgt_Z.h5
        [ "$RC" = 0 ] && passed=$((passed + 1))
    done
    [ "$passed" = 0 ] || { echo "    $passed of 40 damaged files passed the check" >&2; return 1; }
    run "$CS" check sgt_E.h5 bad_0.h5 sgt_Z.h5
    expect_err "written with the file" || return 1
    # the extractor refuses a damaged file by its checksum too, before recording it
    cp "$REF/template.sqlite" s.sqlite || return 1
    run "$CS" extract s.sqlite --site DEMO --erf t --sgt sgt_E.h5,bad_0.h5,sgt_Z.h5 --periods 5
    expect_rc 1 && expect_err "written with the file" || return 1
    # a file without one is checked as before, and says so
    rm sgt_Z.h5.sha256
    run "$CS" check sgt_E.h5 sgt_N.h5 sgt_Z.h5
    expect_rc 0 && expect_out "sgt_Z.h5: no checksum file beside it"
}

tcase dry_run_prints_steps_and_runs_nothing t_dry_run_prints_steps_and_runs_nothing
tcase forces_follow_the_vertical_ims t_forces_follow_the_vertical_ims
tcase end_to_end_records_every_step_and_file t_end_to_end_records_every_step_and_file
tcase rerun_trusts_matching_checksums_only t_rerun_trusts_matching_checksums_only
tcase changed_output_runs_again_with_what_follows t_changed_output_runs_again_with_what_follows
tcase killed_at_every_step_boundary_and_inside_every_step_resumes t_killed_at_every_step_boundary_and_inside_every_step_resumes
tcase failing_step_is_retried_then_reported t_failing_step_is_retried_then_reported
tcase transient_failure_is_retried t_transient_failure_is_retried
tcase one_driver_per_run t_one_driver_per_run
tcase two_first_runs_at_once_make_one_run t_two_first_runs_at_once_make_one_run
tcase resume_stops_only_its_own_leftovers t_resume_stops_only_its_own_leftovers
tcase changed_configuration_is_a_new_run t_changed_configuration_is_a_new_run
tcase bad_configuration_is_refused t_bad_configuration_is_refused
tcase many_sites_and_their_map t_many_sites_and_their_map
tcase check_refuses_bad_sgts t_check_refuses_bad_sgts
tcase check_verifies_the_sgts_own_checksums t_check_verifies_the_sgts_own_checksums
tsummary
