#!/bin/sh
# The Slurm executor against a real single-node Slurm (slurmctld, slurmd and munge from Debian,
# started by tests/slurm/slurm_local.sh in a private folder and stopped at the end): one job per
# step chained with afterok, job ids in the study, results equal to a local run; submitting
# without waiting and resuming the wait with the same command; a failing step cancels the rest.
. "$(dirname "$0")/lib.sh"
. "$REPO/tests/workflow/small_site.sh"
SL="$T_ROOT/slurm"
skip_all=""
if [ "$(id -u)" != 0 ]; then
    skip_all="the single-node Slurm needs root (slurmd runs jobs as their users)"
elif ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    skip_all="slurmctld, slurmd or munged missing (tools/install-deps.sh installs them)"
else
    SLURM_CONF=$(sh "$REPO/tests/slurm/slurm_local.sh" start "$SL") || skip_all="the Slurm daemons did not start: $(tail -n 3 "$SL"/*.log 2>/dev/null | tr '\n' ' ')"
    export SLURM_CONF
    trap 'sh "$REPO/tests/slurm/slurm_local.sh" stop "$SL"' EXIT
fi
need_slurm() { [ -z "$skip_all" ] && return 0; echo "$skip_all" >"$T/skip"; return 77; }

# The local run the Slurm runs must equal (tests/workflow/small_site.sh: the workflow suite's
# reference run, made once per `make test`; made here when this suite runs alone).
LOCAL=$SMALL_SITE_REF
local_reference() {
    small_site_reference
}

t_slurm_run_matches_a_local_run() {
    need_slurm || return $?
    local_reference || return 1
    make_study && make_config "executor = slurm" "poll_interval = 0.3 s" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 0 && expect_out "[1/9] plan: Slurm job" && expect_out "[6/9] check: Slurm job" &&
        expect_out "run 1 of site DEMO: done" || return 1
    # check waited on the three SGT jobs
    sgts=$(sqlite3 s.sqlite "SELECT group_concat(substr(Job_ID, 7), ':') FROM (SELECT Job_ID FROM Workflow_Steps WHERE Step_Name LIKE 'sgt_%' ORDER BY Position)")
    grep -q "check: Slurm job [0-9]*, --dependency=afterok:$sgts\$" "$T/out" || { grep check "$T/out" >&2; echo "    sgt jobs $sgts" >&2; return 1; }
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Workflow_Steps WHERE Job_ID LIKE 'slurm:%' AND State = 'done'")" = 9 ] || return 1
    [ "$(amplitudes_differ s.sqlite "$LOCAL/s.sqlite")" = 0 ] || return 1
    grep -q "^#SBATCH --dependency" runs/DEMO/run-1/slurm/check.sh && return 1
    grep -q "^exec .* run DEMO --study .* --run 1 --step check --config " runs/DEMO/run-1/slurm/check.sh
}

t_submitted_run_is_followed_by_the_same_command() {
    need_slurm || return $?
    local_reference || return 1
    make_study && make_config "executor = slurm" "poll_interval = 0.3 s" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --no-wait
    expect_rc 0 && expect_out "submitted; 'cybershake status" || return 1
    job=$(sqlite3 s.sqlite "SELECT substr(Job_ID, 7) FROM Workflow_Steps WHERE Step_Name = 'extract'")
    scontrol show job "$job" | grep -q "Dependency=afterok:" || { scontrol show job "$job" >&2; return 1; }
    run "$CS" status s.sqlite DEMO
    expect_out "extract  pending" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 0 && expect_out "still queued or running" && expect_out "run 1 of site DEMO: done" || return 1
    [ "$(amplitudes_differ s.sqlite "$LOCAL/s.sqlite")" = 0 ]
}

# A configuration value that would end its #SBATCH line and start a command is refused before
# any script is written or submitted.
t_batch_script_refuses_injected_lines() {
    need_slurm || return $?
    make_study && make_config "executor = slurm" "poll_interval = 0.3 s" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "slurm_account=a
touch $PWD/INJECTED"
    expect_rc 1 && expect_err "slurm_account" && expect_err "#SBATCH" || return 1
    sleep 1
    [ ! -e INJECTED ] || { echo "    the injected command ran" >&2; return 1; }
    if ls runs/DEMO/run-*/slurm/*.sh >/dev/null 2>&1 && grep -q "touch" runs/DEMO/run-*/slurm/*.sh; then
        echo "    a batch script holds the injected line" >&2
        return 1
    fi
}

# Values that go into batch scripts are checked when the configuration is read, with or without
# Slurm: a control character anywhere, characters outside Slurm's names for the account and
# partition, a time that is not a Slurm time. Nothing is created, nothing submitted.
t_config_refuses_unsafe_slurm_values() {
    make_study && make_config "executor = slurm" || return 1
    export SLURM_CONF=/nonexistent/slurm.conf # were anything submitted, it would fail at once
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "slurm_account=a
touch $PWD/INJECTED"
    expect_rc 1 && expect_err "command line: slurm_account = 'a\ntouch $PWD/INJECTED'" &&
        expect_err "may not hold control characters" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "work_dir=$PWD/w
touch $PWD/INJECTED"
    expect_rc 1 && expect_err "work_dir = '$PWD/w\ntouch" && expect_err "control characters" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "slurm_partition=p;touch x"
    expect_rc 1 && expect_err "slurm_partition = 'p;touch x'" && expect_err "letters, digits and . _ - , only" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "slurm_time=1:00:00 --wrap=x"
    expect_rc 1 && expect_err "slurm_time" && expect_err "must be a Slurm time limit" || return 1
    make_config "executor = slurm" 'slurm_account = acct$(id)' || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 1 && expect_err "run.cfg:" && expect_err "slurm_account = 'acct\$(id)'" || return 1
    # the local executor takes the same rules (a value is checked whatever runs it)
    make_config || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "slurm_account=a	b"
    expect_rc 1 && expect_err "slurm_account = 'a\tb'" || return 1
    [ ! -e INJECTED ] && [ ! -e runs ] && [ ! -e w ] || { ls >&2; return 1; }
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set slurm_time=UNLIMITED --set slurm_account=my_acct-1.x --dry-run
    expect_rc 0
}

# A work folder whose path sbatch would misread unquoted (a space, '#', quotes, '%') reaches
# Slurm as it is: the job's output file is in that folder.
t_batch_script_quotes_its_paths() {
    need_slurm || return $?
    make_study && make_config "executor = slurm" "poll_interval = 0.3 s" || return 1
    odd="$PWD/odd dir #1 \"q\" 100%"
    run "$CS" run DEMO --study s.sqlite --config run.cfg --set "work_dir=$odd" --no-wait
    expect_rc 0 || return 1
    job=$(sqlite3 s.sqlite "SELECT substr(Job_ID, 7) FROM Workflow_Steps WHERE Step_Name = 'plan'")
    scontrol show job "$job" >job.txt
    jobs=$(sqlite3 s.sqlite "SELECT substr(Job_ID, 7) FROM Workflow_Steps WHERE Job_ID LIKE 'slurm:%'")
    # shellcheck disable=SC2086
    scancel $jobs
    n=0
    while [ -n "$(squeue -h -o %i)" ] && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
    # sbatch read the whole path (as its pattern: '%%' is a '%' of the file's name)
    grep -qF "StdOut=$PWD/odd dir #1 \"q\" 100%%/DEMO/run-1/logs/plan.slurm.out" job.txt ||
        { grep StdOut job.txt >&2; return 1; }
    grep -qF "#SBATCH --output=\"$PWD/odd dir #1 \\\"q\\\" 100%%/DEMO/run-1/logs/plan.slurm.out\"" "$odd/DEMO/run-1/slurm/plan.sh" ||
        { grep output "$odd/DEMO/run-1/slurm/plan.sh" >&2; return 1; }
}

t_failing_step_cancels_the_rest() {
    need_slurm || return $?
    make_study && make_config "executor = slurm" "poll_interval = 0.3 s" "retries = 0" \
        "model_file = $PWD/no-such-model.fk1d" || return 1
    run "$CS" run DEMO --study s.sqlite --config run.cfg
    expect_rc 1 && expect_err "step plan failed" && expect_err "no-such-model.fk1d" || return 1
    sleep 1
    [ -z "$(squeue -h -o %i)" ] || { squeue >&2; return 1; }
    [ "$(sqlite3 s.sqlite "SELECT State FROM Workflow_Runs")" = failed ]
}

t_sites_are_queued_together_then_followed() {
    need_slurm || return $?
    make_study && make_config "executor = slurm" "poll_interval = 0.3 s" || return 1
    { grep -v '^#' "$REPO/sites/demo/sites.csv"; echo 'NEARE,East of the demo site,34.06,-118.2,'; } >sites.csv
    run "$CS" run --sites sites.csv --study s.sqlite --config run.cfg
    expect_rc 0 || return 1
    [ "$(grep -c '(queueing)' "$T/out")" = 2 ] && [ "$(grep -c '(following)' "$T/out")" = 2 ] || return 1
    # NEARE's plan was queued before DEMO's run had finished
    demo_done=$(grep -n 'run 1 of site DEMO: done' "$T/out" | cut -d: -f1)
    neare_plan=$(grep -n 'plan: Slurm job' "$T/out" | sed -n 2p | cut -d: -f1)
    [ -n "$demo_done" ] && [ -n "$neare_plan" ] && [ "$neare_plan" -lt "$demo_done" ] || return 1
    [ "$(sqlite3 s.sqlite "SELECT count(*) FROM Workflow_Runs WHERE State = 'done'")" = 2 ] || return 1
    run "$CS" hazard map s.sqlite --im 'RotD50 5' --poe '10% in 50 yr' --csv map.csv
    expect_rc 0 && [ "$(grep -c '^DEMO,\|^NEARE,' map.csv)" = 2 ]
}

tcase slurm_run_matches_a_local_run t_slurm_run_matches_a_local_run
tcase sites_are_queued_together_then_followed t_sites_are_queued_together_then_followed
tcase submitted_run_is_followed_by_the_same_command t_submitted_run_is_followed_by_the_same_command
tcase failing_step_cancels_the_rest t_failing_step_cancels_the_rest
tcase batch_script_refuses_injected_lines t_batch_script_refuses_injected_lines
tcase config_refuses_unsafe_slurm_values t_config_refuses_unsafe_slurm_values
tcase batch_script_quotes_its_paths t_batch_script_quotes_its_paths
# the daemons stop before tsummary removes their folder
[ -z "$skip_all" ] && sh "$REPO/tests/slurm/slurm_local.sh" stop "$SL"
tsummary
