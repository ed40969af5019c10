#!/bin/sh
# Basemap benchmark: the time per grid node of `cybershake hazard map --basemap` over the demo
# forecast (the 2008 NSHM B faults within 15 km of downtown Los Angeles: 827 ruptures, 177,589
# surface points, built here by `erf build` as sites/demo/run_demo.sh does), four sites with
# runs (synthetic SA 3 s RotD50 values, 10 variations a rupture: the sites' values do not
# change the basemap's cost), a grid of 2 km nodes over the sites' box plus 10 km (about 500
# nodes), SA 3 s at 2% in 50 years. Cases: BSSA14 on one thread and on every core; the five
# NGA-West2 models on every core (the mean curve). Prints the command's own summary line
# ("N nodes in T s: X ms a node (K threads)") per case.
#   bench/basemap_bench.sh [WORKDIR] [SPACING_KM]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cs="$here/build/bin/cybershake"
wd=${1:-$(mktemp -d)}
spacing=${2:-2}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
mkdir -p "$wd" && cd "$wd"
if [ ! -f b.sqlite ]; then
    "$cs" db init b.sqlite >/dev/null
    printf 'short_name,long_name,latitude,longitude\nDEMO,Demo,34.0522,-118.2437\nB1,b1,34.15,-118.10\nB2,b2,34.00,-118.40\nB3,b3,34.20,-118.35\n' >sites.csv
    "$cs" db import-sites b.sqlite sites.csv >/dev/null
    "$cs" erf build b.sqlite --name demo --faults "$here/erf/demo/faults.csv" \
        --traces "$here/erf/demo/traces.csv" --files bFault.ch,bFault.gr \
        --near 34.0522,-118.2437 --within 15 --spacing 2 --float-step 10 >/dev/null 2>&1
    "$py" - <<'PYEOF'
import math, random, sqlite3
random.seed(2)
db = sqlite3.connect("b.sqlite")
db.execute("INSERT INTO Rupture_Variation_Scenario_IDs (ERF_ID, Rup_Var_Scenario_Name) VALUES (1, 'bench')")
db.execute("INSERT INTO IM_Types (IM_Type_ID, IM_Type_Measure, IM_Type_Value, IM_Type_Units, IM_Type_Component) VALUES (1, 'SA', 3.0, 'g', 'RotD50')")
rups = db.execute("SELECT Source_ID, Rupture_ID, Magnitude FROM Ruptures").fetchall()
for run, site in enumerate(db.execute("SELECT CS_Site_ID FROM CyberShake_Sites ORDER BY CS_Site_ID").fetchall(), 1):
    db.execute("INSERT INTO CyberShake_Runs (Run_ID, Site_ID, ERF_ID, Rup_Var_Scenario_ID, Status) VALUES (?, ?, 1, 1, 'PP Generated')", (run, site[0]))
    f = 0.6 + 0.3 * run
    db.executemany("INSERT INTO PeakAmplitudes VALUES (?, ?, ?, ?, 1, ?)",
                   [(run, s, r, v, f * math.exp(math.log(0.05) + 1.1 * (m - 6.5) + 0.6 * random.gauss(0, 1)))
                    for s, r, m in rups for v in range(10)])
db.commit()
PYEOF
fi
echo "basemap bench: $(nproc) cores, $(sqlite3 b.sqlite 'SELECT count(*) FROM Ruptures') ruptures, $(sqlite3 b.sqlite 'SELECT count(*) FROM Points') points, ${spacing} km nodes"
for case in "1 bssa14" "0 bssa14" "0 ask14,bssa14,cb14,cy14,i14"; do
    set -- $case
    if [ "$1" = 1 ]; then export OMP_NUM_THREADS=1; else unset OMP_NUM_THREADS; fi
    "$cs" hazard map b.sqlite --im 'RotD50 3' --poe '2% in 50 yr' --basemap "$2" --spacing "$spacing" \
        --margin 10 --netcdf bench.nc | grep "ms a node"
done
