#!/bin/sh
# Basemap benchmark: the time per grid node of `cybershake hazard map --basemap` over the demo
# forecast (the 2008 NSHM B faults within 15 km of downtown Los Angeles: 827 ruptures, 177,589
# surface points, built here by `erf build` as sites/demo/run_demo.sh does), six sites with
# runs (synthetic SA 3 s RotD50 values, 10 variations a rupture, falling with the distance from
# the rupture and scaled by a site factor: the sites' values do not change the basemap's cost),
# a grid of SPACING_KM (2) nodes over the sites' box plus 10 km, SA 3 s at 2% in 50 years.
# Cases: BSSA14 on one thread and on every core; the five NGA-West2 models on every core (the
# mean curve). Prints the command's own summary line ("N nodes in T s: X ms a node (K
# threads)") per case. The BSSA14 case on every core also draws the combined map, the basemap
# and the difference (WORKDIR/combined.png, basemap.png, difference.png: docs/img/basemap_demo*).
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
    printf 'short_name,long_name,latitude,longitude\nDEMO,Demo,34.0522,-118.2437\nB1,b1,34.15,-118.10\nB2,b2,34.00,-118.40\nB3,b3,34.20,-118.35\nB4,b4,33.95,-118.15\nB5,b5,34.12,-118.26\n' >sites.csv
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
import numpy as np
rups = db.execute("SELECT Source_ID, Rupture_ID, Magnitude FROM Ruptures ORDER BY Source_ID, Rupture_ID").fetchall()
pts = np.array(db.execute("SELECT Source_ID, Rupture_ID, Lat, Lon, Depth FROM Points ORDER BY Source_ID, Rupture_ID").fetchall())
key = pts[:, 0] * 100000 + pts[:, 1]
starts = np.r_[0, np.flatnonzero(np.diff(key)) + 1]
factor = {1: 1.5, 2: 1.0, 3: 0.7, 4: 1.2, 5: 0.8, 6: 1.3}
sites = db.execute("SELECT CS_Site_ID, CS_Site_Lat, CS_Site_Lon FROM CyberShake_Sites ORDER BY CS_Site_ID").fetchall()
for run, (site, la, lo) in enumerate(sites, 1):
    db.execute("INSERT INTO CyberShake_Runs (Run_ID, Site_ID, ERF_ID, Rup_Var_Scenario_ID, Status) VALUES (?, ?, 1, 1, 'PP Generated')", (run, site))
    p1, p2 = np.radians(la), np.radians(pts[:, 2])
    a = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(pts[:, 3] - lo) / 2) ** 2
    r = np.hypot(2 * 6371.0 * np.arcsin(np.sqrt(a)), pts[:, 4])
    rrup = np.minimum.reduceat(r, starts)
    rows = []
    for (s, q, m), d in zip(rups, rrup):
        mu = math.log(0.06 * factor[run]) + 1.0 * (m - 6.5) - 1.1 * math.log((d + 10) / 20)
        rows += [(run, s, q, v, math.exp(mu + 0.5 * random.gauss(0, 1))) for v in range(10)]
    db.executemany("INSERT INTO PeakAmplitudes VALUES (?, ?, ?, ?, 1, ?)", rows)
db.commit()
PYEOF
fi
echo "basemap bench: $(nproc) cores, $(sqlite3 b.sqlite 'SELECT count(*) FROM Ruptures') ruptures, $(sqlite3 b.sqlite 'SELECT count(*) FROM Points') points, ${spacing} km nodes"
for case in "1 bssa14" "0 bssa14" "0 ask14,bssa14,cb14,cy14,i14"; do
    set -- $case
    if [ "$1" = 1 ]; then export OMP_NUM_THREADS=1; else unset OMP_NUM_THREADS; fi
    plots=""
    if [ "$1" = 0 ] && [ "$2" = bssa14 ]; then plots="--plot combined.png --plot-basemap basemap.png --plot-difference difference.png"; fi
    # shellcheck disable=SC2086
    "$cs" hazard map b.sqlite --im 'RotD50 3' --poe '2% in 50 yr' --basemap "$2" --spacing "$spacing" \
        --margin 10 --netcdf bench.nc $plots | grep "ms a node"
done
