# The small site every workflow test runs (sourced): four small ruptures near the demo site
# (the extractor tests' forecast), fmax 0.2 Hz on a 1 km grid; a run takes about 15 s on
# two cores, 3 x 8 s of it in the SGT runs.
MODEL="$REPO/tests/data/bbp_nr02-vs500.fk1d"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# A study with the site and the forecast, no run yet, in the current folder (s.sqlite).
make_study() {
    "$CS" db init s.sqlite >/dev/null && "$CS" db import-sites s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null || return 1
    "$PY" - <<'PYEOF' || return 1
import math
def write(name, lat0, lon0, strike, dip, top, ncols, nrows, mag, prob, rake):
    dlat, dlon = 1 / 111.2, 1 / (111.32 * math.cos(math.radians(lat0)))
    sd, cd = math.sin(math.radians(dip)), math.cos(math.radians(dip))
    az, dd = math.radians(strike), math.radians(strike + 90)
    with open(name, "w") as f:
        f.write(f"Probability = {prob}\nMagnitude = {mag}\nGridSpacing = 1.0\nNumRows = {nrows}\n"
                f"NumCols = {ncols}\n#   Lat Lon Depth Rake Dip Strike\n")
        for r in range(nrows):
            for c in range(ncols):
                n = c * math.cos(az) + r * cd * math.cos(dd)
                e = c * math.sin(az) + r * cd * math.sin(dd)
                f.write(f"{lat0 + n * dlat:.6f} {lon0 + e * dlon:.6f} {top + r * sd:.4f} {rake} {dip} {strike}\n")
write("1_0.txt", 34.10, -118.26, 90, 60, 2.0, 5, 3, 5.6, 0.002, 90)
write("1_1.txt", 34.10, -118.22, 90, 60, 2.0, 4, 3, 5.4, 0.004, 90)
write("2_0.txt", 33.99, -118.20, 0, 90, 1.0, 6, 4, 5.9, 0.001, 180)
write("2_1.txt", 34.00, -118.30, 0, 90, 1.0, 3, 3, 5.2, 0.006, 180)
PYEOF
    "$CS" erf import-geometry s.sqlite --name t 1_0.txt 1_1.txt 2_0.txt 2_1.txt >/dev/null
}

# The run's configuration (run.cfg); extra lines from the arguments.
make_config() {
    cat >run.cfg <<CFG
erf = t
fmax = 0.2 Hz
model_format = fk1d
model_file = $MODEL
vs_min = 1000 m/s
cutoff = 30 km
padding = 3 km
round = 1 km
absorbing_width = 10
mesh_near = 2 km
mesh_max_stride = 4
checkpoint_every = 40
periods = 5,10
hazard_ims = RotD50 5; RotD50 10
mpirun = none
retries = 1
retry_delay = 0.1 s
CFG
    for line in "$@"; do # KEY = VALUE replaces the key's line
        key=$(echo "$line" | sed 's/ *=.*//')
        sed -i "/^$key *=/d" run.cfg
        echo "$line" >>run.cfg
    done
}

# Rows of PeakAmplitudes of the newest run in study $1 that differ from those of study $2
# (relative 1e-6), plus the difference in their counts: 0 when the runs computed the same.
amplitudes_differ() {
    sqlite3 "$1" "ATTACH '$2' AS r;
        WITH a AS (SELECT * FROM PeakAmplitudes WHERE Run_ID = (SELECT max(Run_ID) FROM Workflow_Runs)),
             b AS (SELECT * FROM r.PeakAmplitudes WHERE Run_ID = (SELECT max(Run_ID) FROM r.Workflow_Runs))
        SELECT (SELECT count(*) FROM a JOIN b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)
                WHERE abs(a.IM_Value - b.IM_Value) > 1e-6 * abs(b.IM_Value))
             + abs((SELECT count(*) FROM a) - (SELECT count(*) FROM b))
             + ((SELECT count(*) FROM a) = 0)"
}
