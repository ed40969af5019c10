#!/bin/sh
# The demo: the demo site (downtown Los Angeles) run through every stage that exists, on this
# machine's CPUs, in a few minutes:
#   study database and sites -> forecast (2008 NSHM B faults within 15 km of the site) ->
#   site plan (ruptures within 12 km, fmax 0.15 Hz) -> three SGT runs (forces E, N, Z) ->
#   extraction (every variation's seismogram and intensity measures) -> the strongest records
#   -> the site's hazard curve (SA 10 s RotD50) and its disaggregation at 2% in 50 years.
# The band is kept low (0.15 Hz, Vs floor 1 km/s, a 1D model) so it fits two cores; a study
# plans with the real fmax and model (docs/erf.md, docs/sgt.md, docs/extract.md).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cs="$here/build/bin/cybershake"
out=${DEMO_OUT:-$here/demo-out}
model="$here/tests/data/bbp_nr02-vs500.fk1d"
mkdir -p "$out"
study="$out/demo.sqlite"
rm -rf "$study" "$study-wal" "$study-shm" "$out/plan" "$out"/sgt_*.h5 "$out/seismograms.h5" \
    "$out/seismograms.h5.parts" "$out"/record.* "$out"/hazard_sa10.* "$out"/disagg_sa10.*
export CYBERSHAKE_PROGRESS_INTERVAL=${CYBERSHAKE_PROGRESS_INTERVAL:-20}
t0=$(date +%s)

echo "== cybershake db init, import-sites (the CyberShake sites and the demo site)"
"$cs" db init "$study"
"$cs" db import-sites "$study" "$here/sites/cybershake_sites.csv"
"$cs" db import-sites "$study" "$here/sites/demo/sites.csv"

echo "== cybershake erf build: the 2008 NSHM B-fault sources within 15 km of the demo site"
"$cs" erf build "$study" --name demo --faults "$here/erf/demo/faults.csv" \
    --traces "$here/erf/demo/traces.csv" --files bFault.ch,bFault.gr \
    --near 34.0522,-118.2437 --within 15 --spacing 2 --float-step 10

echo "== cybershake plan DEMO: ruptures within 12 km, fmax 0.15 Hz"
"$cs" plan "$study" DEMO --erf demo --fmax 0.15 --vs-min 1000 --model-format fk1d \
    --model-file "$model" --out "$out/plan" --cutoff 12 --padding 4 --round 2 \
    --absorbing-width 10 --mesh-near 2 --mesh-max-stride 4

for c in E N Z; do
    echo "== cybershake sgt: force $c at the site"
    "$cs" sgt "$out/plan/DEMO.sgt.params" --set force_component=$c --set "output=$out/sgt_$c.h5"
done

echo "== cybershake extract: every variation of every rupture within the cutoff"
"$cs" extract "$study" --site DEMO --erf demo \
    --sgt "$out/sgt_E.h5,$out/sgt_N.h5,$out/sgt_Z.h5" --periods 7.5,10 \
    --seismograms "$out/seismograms.h5"

echo
echo "== the five variations with the strongest 10 s SA (RotD50)"
sqlite3 -header -column "$study" "
    SELECT p.Source_ID AS source, p.Rupture_ID AS rupture, p.Rup_Var_ID AS variation,
           r.Source_Name AS fault, printf('%.2f', r.Magnitude) AS mag,
           printf('%.3g', p.IM_Value) AS 'SA 10 s (g)'
    FROM PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID)
    JOIN CyberShake_Runs u USING (Run_ID)
    JOIN Ruptures r ON r.ERF_ID = u.ERF_ID AND r.Source_ID = p.Source_ID AND r.Rupture_ID = p.Rupture_ID
    WHERE t.IM_Type_Measure = 'SA' AND t.IM_Type_Value = 10 AND t.IM_Type_Component = 'RotD50'
    ORDER BY p.IM_Value DESC LIMIT 5"
top=$(sqlite3 -separator ' ' "$study" "
    SELECT p.Source_ID, p.Rupture_ID, p.Rup_Var_ID FROM PeakAmplitudes p JOIN IM_Types t USING (IM_Type_ID)
    WHERE t.IM_Type_Measure = 'SA' AND t.IM_Type_Value = 10 AND t.IM_Type_Component = 'RotD50'
    ORDER BY p.IM_Value DESC LIMIT 1")
set -- $top
echo
echo "== cybershake seismogram: the strongest record, exported as SAC and CSV"
"$cs" seismogram "$out/seismograms.h5" --source "$1" --rupture "$2" --variation "$3" \
    --periods 7.5,10 --sac "$out/record" --csv "$out/record.csv"

echo
echo "== cybershake hazard curve: SA 10 s RotD50 at the demo site, with BSSA14 over the same ruptures"
"$cs" hazard curve "$study" DEMO --im 'RotD50 10' --csv "$out/hazard_sa10.csv" \
    --plot "$out/hazard_sa10.png" --gmpe bssa14 --vs30 760

echo
echo "== cybershake hazard disagg: the five ruptures that dominate SA 10 s at 2% in 50 years"
"$cs" hazard disagg "$study" DEMO --im 'RotD50 10' --poe '2% in 50 yr' --top 5 \
    --plot "$out/disagg_sa10.png"

echo
echo "demo finished in $(($(date +%s) - t0)) s; outputs in $out:"
echo "  study database      $study"
echo "  site plan           $out/plan/DEMO.sgt.params, $out/plan/DEMO.points"
echo "  SGTs                $out/sgt_E.h5 $out/sgt_N.h5 $out/sgt_Z.h5"
echo "  seismograms         $out/seismograms.h5"
echo "  strongest record    $out/record.E.sac .N.sac .Z.sac, $out/record.csv"
echo "  hazard curve        $out/hazard_sa10.csv, $out/hazard_sa10.png"
echo "  disaggregation      $out/disagg_sa10.png"
