# The small site every workflow test runs (sourced): four small ruptures near the demo site
# (the extractor tests' forecast), fmax 0.2 Hz on a 1 km grid; a run takes about 20 s on
# two cores, 3 x 5 s of it in the SGT runs.
MODEL="$REPO/tests/data/bbp_nr02-vs500.fk1d"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# A study with the site and the forecast, no run yet, in the current folder (s.sqlite).
make_study() {
    "$CS" db init s.sqlite >/dev/null && "$CS" db import-sites s.sqlite "$REPO/sites/demo/sites.csv" >/dev/null || return 1
    "$PY" "$REPO/tests/cli/small_forecast.py" || return 1
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
forces = ENZ
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

# The uninterrupted run of the small site, the study and configuration above as they are
# (`cybershake run DEMO`), that the workflow and Slurm suites compare their runs with, made once:
# in $CS_FIXTURES when tests/run_all.sh set it (so once per `make test`, by whichever suite needs
# it first), else in the suite's own folder. The folder, $SMALL_SITE_REF, holds
# s.sqlite after the run, template.sqlite (the study before it), run.cfg, run.out and runs/.
# A case may run the same configuration there again (which must change nothing) but must not
# change what is there otherwise.
SMALL_SITE_REF=${CS_FIXTURES:-$T_ROOT}/small_site_reference
small_site_reference() {
    (
        mkdir -p "$(dirname "$SMALL_SITE_REF")" || exit 1
        exec 9>"$SMALL_SITE_REF.lock" && flock 9 || exit 1
        [ -f "$SMALL_SITE_REF/done" ] && exit 0
        rm -rf "$SMALL_SITE_REF" && mkdir -p "$SMALL_SITE_REF" && cd "$SMALL_SITE_REF" || exit 1
        make_study && make_config || exit 1
        cp s.sqlite template.sqlite || exit 1
        "$CS" run DEMO --study s.sqlite --config run.cfg >run.out 2>run.err 9>&- || { cat run.err >&2; exit 1; }
        : >done
    )
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
