#!/bin/sh
# The demo: the demo site (downtown Los Angeles) end to end on this machine's CPUs, through the
# workflow (`cybershake run`), in under ten minutes on two cores:
#   study database and sites -> forecast (2008 NSHM B faults within 15 km of the site) ->
#   cybershake run DEMO: plan (ruptures within 12 km, fmax 0.34 Hz) -> mesh -> SGTs E, N, Z ->
#   check -> extraction (every variation's seismogram and IMs) -> hazard curves (SA 3, 5, 10 s
#   RotD50, with BSSA14) -> disaggregations at 2% and 10% in 50 years.
# Interrupted (Ctrl-C, kill, power loss), the same `make demo` resumes where it stopped;
# `rm -rf demo-out` starts over. The band is kept low (0.34 Hz, Vs floor 2 km/s, a 1D model) to
# fit two cores; a study runs the real ones (sites/demo/demo.run, docs/workflow.md).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cs="$here/build/bin/cybershake"
out=${DEMO_OUT:-$here/demo-out}
mkdir -p "$out"
study="$out/demo.sqlite"
export CYBERSHAKE_PROGRESS_INTERVAL=${CYBERSHAKE_PROGRESS_INTERVAL:-20}
t0=$(date +%s)

if [ ! -f "$study" ] || ! sqlite3 "$study" "SELECT 1 FROM ERF_IDs WHERE ERF_Name = 'demo'" 2>/dev/null | grep -q 1; then
    rm -rf "$study" "$study-wal" "$study-shm" "$out/runs"
    echo "== cybershake db init, import-sites (the CyberShake sites and the demo site)"
    "$cs" db init "$study"
    "$cs" db import-sites "$study" "$here/sites/cybershake_sites.csv"
    "$cs" db import-sites "$study" "$here/sites/demo/sites.csv"
    echo "== cybershake erf build: the 2008 NSHM B-fault sources within 15 km of the demo site"
    "$cs" erf build "$study" --name demo --faults "$here/erf/demo/faults.csv" \
        --traces "$here/erf/demo/traces.csv" --files bFault.ch,bFault.gr \
        --near 34.0522,-118.2437 --within 15 --spacing 2 --float-step 10
else
    echo "== $study exists: resuming its run (rm -rf $out to start over)"
    # the demo's own study, made by an older build: brought to this build's schema
    "$cs" db migrate "$study"
fi

echo
echo "== cybershake run DEMO: plan, mesh, SGTs, check, extract, hazard, disaggregation"
# (sh has no pipefail: the run's status comes back through a file)
echo 0 >"$out/run.status"
{ "$cs" run DEMO --study "$study" --config "$here/sites/demo/demo.run" || echo $? >"$out/run.status"; } |
    tee "$out/run.txt"
if [ "$(cat "$out/run.status")" != 0 ]; then
    echo "demo: cybershake run failed (above); 'make demo' again resumes it" >&2
    exit 1
fi

run=$(sqlite3 "$study" "SELECT max(Run_ID) FROM Workflow_Runs WHERE State = 'done'")
dir=$(sqlite3 "$study" "SELECT Work_Dir FROM Workflow_Runs WHERE Run_ID = $run")
top=$(sqlite3 -separator ' ' "$study" "
    SELECT p.Source_ID, p.Rupture_ID, p.Rup_Var_ID FROM PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID)
    WHERE p.Run_ID = $run AND t.IM_Type_Measure = 'SA' AND t.IM_Type_Value = 3 AND t.IM_Type_Component = 'RotD50'
    ORDER BY p.IM_Value DESC LIMIT 1")
set -- $top
echo
echo "== cybershake seismogram: the record with the strongest SA 3 s (source $1, rupture $2, variation $3)"
"$cs" seismogram "$dir/seismograms.h5" --source "$1" --rupture "$2" --variation "$3" \
    --periods 3,5,10 --sac "$out/record" --csv "$out/record.csv" | grep -E "^source|RotD50"

echo
echo "demo finished in $(($(date +%s) - t0)) s; outputs:"
echo "  study database      $study  (cybershake status $study)"
echo "  run folder          $dir"
echo "  SGTs                $dir/sgt_E.h5 sgt_N.h5 (forces E and N: the demo asks for no vertical IM)"
echo "  seismograms         $dir/seismograms.h5"
echo "  strongest record    $out/record.E.sac .N.sac, $out/record.csv"
echo "  hazard plots        $dir/hazard/curve_RotD50_3.png, curve_RotD50_5.png, curve_RotD50_10.png"
echo "  disaggregations     $dir/hazard/disagg_RotD50_3_2pct_in_50_yr.png and the others there"
