#!/bin/sh
# The production-size site (USC, fmax 0.5 Hz, the whole erf/demo forecast: 3201 x 1501 x 301
# nodes, 23,380 steps, 602,808 save points, 13,228 ruptures) on one GPU node, stage by stage,
# each a bounded slice that fits one call of a few minutes. docs/scale.md has the results.
#
#   sh bench/production_site.sh STAGE...
#
# stages (in the order they can run; each writes its lines to $OUT/summary.txt):
#   build-sgt   make sgt-only (CUDA, MPI, serial HDF5 only)
#   build       the whole toolkit from Debian packages unpacked into $DEPS_DIR
#               (bench/deps_prefix.sh; the .deb files in $DEBS, default .debs)
#   sgt         one force (E) of the plan in $PLAN_DIR, unchanged, on the SGT-only build, for
#               $STEPS steps (default 1300) with every save point streamed to the file: time,
#               G LUPS, peak host and GPU memory, bytes
#   same        the plan's file on the full build and on the SGT-only build ($SAME_STEPS steps):
#               the same bytes
#   erf         the whole forecast and the plan of USC at 0.5 Hz, timed
#   rows        bench/study_rows_production.sh, when present (20 M PeakAmplitudes rows)
#   demo        the demo site end to end through the workflow on this node (GPU back end)
#   site        a production-shaped site end to end through the workflow ($SITE_FMAX, 0.15 Hz):
#               the whole forecast, every variation, SGTs and extraction on the GPU
#               ($SITE_XRANKS extraction ranks, 4: rank 0 the study and 3 sharing the GPU)
#   extract     forces E and N of the plan ($STEPS steps, every save point), and every variation
#               of the $XRUPS (15) largest ruptures extracted from them on all cores
#
# Inputs: $PLAN_DIR (default .prod/plan) holds SITE.sgt.params and SITE.points as
# `cybershake plan` wrote them; the absolute paths in the parameter file (model, save points)
# are recreated here as links when they do not exist, so the file itself runs unchanged.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 1
OUT=${OUT:-$here/production-results}
WORK=${WORK:-/tmp/cs-production}
PLAN_DIR=${PLAN_DIR:-$here/.prod/plan}
DEBS=${DEBS:-$here/.debs}
DEPS_DIR=${DEPS_DIR:-/tmp/cs-deps}
STEPS=${STEPS:-1300}
SAME_STEPS=${SAME_STEPS:-30}
SITE=${SITE:-USC}
JOBS=$(nproc)
mkdir -p "$OUT" "$WORK"
SUM="$OUT/summary.txt"
SO="$here/build/sgt-only/bin/cybershake"
CS="$here/build/bin/cybershake"

say() { echo "$*" | tee -a "$SUM"; }

# The peak of `nvidia-smi`'s memory.used (MiB) while a command runs.
gpu_peak() {
    log=$1
    shift
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$WORK/gpu.mem" &
        mon=$!
    fi
    t0=$(date +%s.%N)
    "$@" >"$log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    [ -n "${mon:-}" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
    peak=$(sort -n "$WORK/gpu.mem" 2>/dev/null | tail -1)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    return $rc
}

# Recreates the parameter file's absolute input paths as links to the copies at hand.
link_inputs() {
    p=$1
    for key in model_file save_points; do
        path=$(sed -n "s/^$key = //p" "$p")
        [ -z "$path" ] || [ -e "$path" ] && continue
        base=$(basename "$path")
        for cand in "$PLAN_DIR/$base" "$here/tests/data/$base"; do
            if [ -e "$cand" ]; then
                mkdir -p "$(dirname "$path")" && ln -sfn "$cand" "$path"
                break
            fi
        done
    done
}

stage_build_sgt() {
    make -j"$JOBS" sgt-only >"$OUT/build-sgt.log" 2>&1 || { tail -30 "$OUT/build-sgt.log"; return 1; }
    say "build-sgt: ok ($(nvcc --version | tail -1))"
}

stage_build() {
    sh bench/deps_prefix.sh unpack "$DEBS" "$DEPS_DIR" >"$OUT/deps.log" 2>&1 ||
        { cat "$OUT/deps.log"; return 1; }
    t0=$(date +%s)
    make -j"$JOBS" DEPS_PREFIX="$DEPS_DIR" all sgt-only bench-study >"$OUT/build.log" 2>&1 ||
        { tail -40 "$OUT/build.log"; return 1; }
    say "build: the whole toolkit from $(ls "$DEBS"/*.deb | wc -l) Debian packages in $DEPS_DIR, $(($(date +%s) - t0)) s"
}

stage_sgt() {
    p="$PLAN_DIR/$SITE.sgt.params"
    link_inputs "$p"
    rm -f "$WORK/sgt_E.h5"
    gpu_peak "$OUT/sgt.log" "$SO" sgt "$p" --set force_component=E --set backend=cuda \
        --set nt="$STEPS" --set output="$WORK/sgt_E.h5" || { tail -20 "$OUT/sgt.log"; return 1; }
    line=$(grep "steps in" "$OUT/sgt.log" | tail -1)
    say "sgt: $SITE force E, $STEPS of $(sed -n 's/^nt = //p' "$p") steps, $(wc -l <"$PLAN_DIR/$SITE.points") save points, unchanged plan file, SGT-only build"
    say "sgt: wall ${wall} s, peak GPU memory ${peak:-?} MiB; ${line#*: }"
    say "sgt: file $(du -h "$WORK/sgt_E.h5" | cut -f1), $(h5dump -H -d /strain "$WORK/sgt_E.h5" 2>/dev/null | grep -m1 DATASPACE | sed 's/^ *//')"
    grep -E "setup|mesh|material" "$OUT/sgt.log" | head -5 >>"$SUM"
}

stage_same() {
    p="$PLAN_DIR/$SITE.sgt.params"
    link_inputs "$p"
    export PROJ_DATA="$DEPS_DIR/usr/share/proj"
    "$CS" sgt "$p" --set force_component=N --set backend=cuda --set nt="$SAME_STEPS" \
        --set output="$WORK/full.h5" >"$OUT/same-full.log" 2>&1 || { tail "$OUT/same-full.log"; return 1; }
    "$SO" sgt "$p" --set force_component=N --set backend=cuda --set nt="$SAME_STEPS" \
        --set output="$WORK/so.h5" >"$OUT/same-so.log" 2>&1 || { tail "$OUT/same-so.log"; return 1; }
    if cmp -s "$WORK/full.h5" "$WORK/so.h5"; then
        say "same: the plan's file on the full and the SGT-only build: identical ($SAME_STEPS steps, force N)"
    else
        say "same: the two builds' files DIFFER"
        return 1
    fi
}

stage_erf() {
    export PROJ_DATA="$DEPS_DIR/usr/share/proj"
    s="$WORK/p.sqlite"
    rm -f "$s" "$s-wal" "$s-shm"
    "$CS" db init "$s" >/dev/null && "$CS" db import-sites "$s" sites/cybershake_sites.csv >/dev/null || return 1
    gpu_peak "$OUT/erf.log" "$CS" erf build "$s" --name demo --faults erf/demo/faults.csv \
        --traces erf/demo/traces.csv || { tail "$OUT/erf.log"; return 1; }
    say "erf: build of the whole forecast: ${wall} s; $(grep 'forecast demo' "$OUT/erf.log" | tail -1)"
    gpu_peak "$OUT/plan.log" "$CS" plan "$s" "$SITE" --erf demo --fmax 0.5 --model-format fk1d \
        --model-file tests/data/bbp_nr02-vs500.fk1d --out "$WORK/plan" --cutoff 200 ||
        { tail "$OUT/plan.log"; return 1; }
    say "erf: plan of $SITE at 0.5 Hz: ${wall} s; $(grep -E '^grid:' "$OUT/plan.log")"
}

stage_rows() {
    [ -f bench/study_rows_production.sh ] || { say "rows: bench/study_rows_production.sh absent"; return 0; }
    export PROJ_DATA="$DEPS_DIR/usr/share/proj"
    sh bench/study_rows_production.sh "$WORK/rows" >"$OUT/rows.log" 2>&1 || { tail "$OUT/rows.log"; return 1; }
    tail -12 "$OUT/rows.log" | sed 's/^/rows: /' | tee -a "$SUM"
}

# Extraction of the forecast's largest ruptures (the southern San Andreas, 7,700 points each)
# from production-size SGTs: forces E and N of the plan in $PLAN_DIR, all its save points,
# $STEPS steps each; the study holds the aFault_aPriori_D2.1 sources, planned for the site, with
# the $XRUPS largest ruptures kept; every variation extracted on $JOBS ranks.
stage_extract() {
    export PROJ_DATA="$DEPS_DIR/usr/share/proj" PATH="$DEPS_DIR/bin:$PATH"
    s="$WORK/x.sqlite"
    rm -f "$s" "$s-wal" "$s-shm"
    rm -rf "$WORK/seis.h5" "$WORK/seis.h5.parts"
    "$CS" db init "$s" >/dev/null && "$CS" db import-sites "$s" sites/cybershake_sites.csv >/dev/null || return 1
    "$CS" erf build "$s" --name sa --faults erf/demo/faults.csv --traces erf/demo/traces.csv \
        --files aFault_aPriori_D2.1 >"$OUT/x-erf.log" 2>&1 || { tail "$OUT/x-erf.log"; return 1; }
    "$CS" plan "$s" "$SITE" --erf sa --fmax 0.5 --model-format fk1d \
        --model-file tests/data/bbp_nr02-vs500.fk1d --out "$WORK/xplan" --cutoff 200 \
        >"$OUT/x-plan.log" 2>&1 || { tail "$OUT/x-plan.log"; return 1; }
    sqlite3 "$s" "DELETE FROM CyberShake_Site_Ruptures WHERE Source_ID || ':' || Rupture_ID NOT IN
        (SELECT Source_ID || ':' || Rupture_ID FROM Ruptures ORDER BY Num_Points DESC, Source_ID,
        Rupture_ID LIMIT ${XRUPS:-15})" || return 1
    pts=$(sqlite3 "$s" "SELECT sum(Num_Points) FROM Ruptures JOIN CyberShake_Site_Ruptures USING (ERF_ID, Source_ID, Rupture_ID)")
    p="$PLAN_DIR/$SITE.sgt.params"
    link_inputs "$p"
    for f in E N; do
        "$SO" sgt "$p" --set force_component=$f --set backend=cuda --set nt="$STEPS" \
            --set output="$WORK/x_$f.h5" >"$OUT/x-sgt-$f.log" 2>&1 || { tail "$OUT/x-sgt-$f.log"; return 1; }
    done
    say "extract: SGTs E and N of the production plan, $STEPS steps each: $(grep -h 'steps in' "$OUT"/x-sgt-*.log | sed 's/.*: \([0-9]* steps in [0-9.]* s\).*/\1/' | tr '\n' ' ')"
    gpu_peak "$OUT/x-extract.log" mpirun --oversubscribe -np "$JOBS" "$CS" extract "$s" --site "$SITE" \
        --erf sa --sgt "$WORK/x_E.h5,$WORK/x_N.h5" --seismograms "$WORK/seis.h5" ||
        { tail -20 "$OUT/x-extract.log"; return 1; }
    say "extract: ${XRUPS:-15} largest ruptures ($pts points) on $JOBS ranks: ${wall} s; $(grep -E 'variations' "$OUT/x-extract.log" | tail -2 | tr '\n' ' ')"
    say "extract: seismograms $(du -h "$WORK/seis.h5" | cut -f1); rows $(sqlite3 "$s" 'SELECT count(*) FROM PeakAmplitudes')"
}

# A production-shaped site end to end through the workflow on this node: USC, every rupture of
# the whole erf/demo forecast within 200 km and every variation (hypocentres every 20 km, two
# slips), at $SITE_FMAX (0.15 Hz), SGTs of forces E and N and the extraction on the GPU (rank 0
# the study, ranks 1..SITE_XRANKS-1 sharing the GPU and the node's cores), curves and disaggregations in the study. The
# run is given $SITE_LIMIT seconds (480); where it is cut, its last progress line says how far
# it got and at what rate.
stage_site() {
    export PROJ_DATA="$DEPS_DIR/usr/share/proj" PATH="$DEPS_DIR/bin:$PATH"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    d="$WORK/site"
    rm -rf "$d" && mkdir -p "$d" || return 1
    s="$d/s.sqlite"
    t0=$(date +%s.%N)
    "$CS" db init "$s" >/dev/null && "$CS" db import-sites "$s" sites/cybershake_sites.csv >/dev/null || return 1
    "$CS" erf build "$s" --name demo --faults erf/demo/faults.csv --traces erf/demo/traces.csv \
        >"$OUT/site-erf.log" 2>&1 || { tail "$OUT/site-erf.log"; return 1; }
    say "site: forecast built in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
    cat >"$d/run.cfg" <<CFG
erf = demo
fmax = ${SITE_FMAX:-0.15} Hz
model_format = fk1d
model_file = $here/tests/data/bbp_nr02-vs500.fk1d
cutoff = 200 km
backend = cuda
extract_backend = cuda
extract_ranks = ${SITE_XRANKS:-4}
mpirun_args = --bind-to none --oversubscribe
forces = EN
checkpoint_every = 0
periods = 7.5,10
hazard_ims = RotD50 7.5; RotD50 10
CFG
    t0=$(date +%s)
    timeout "${SITE_LIMIT:-480}" "$CS" run "$SITE" --study "$s" --config "$d/run.cfg" >"$OUT/site.log" 2>&1
    rc=$?
    say "site: cybershake run $SITE at ${SITE_FMAX:-0.15} Hz: exit $rc after $(($(date +%s) - t0)) s"
    grep -E "done in|running|left|error" "$OUT/site.log" | tail -30 >>"$SUM"
    sqlite3 "$s" "SELECT 'site: ' || count(*) || ' ruptures planned' FROM CyberShake_Site_Ruptures" >>"$SUM"
    sqlite3 "$s" "SELECT 'site: ' || count(*) || ' amplitudes, ' || count(DISTINCT Source_ID || ':' || Rupture_ID) || ' ruptures extracted' FROM PeakAmplitudes" >>"$SUM"
    grep -E "^grid|save points" "$d/runs/$SITE/run-1/logs/plan.log" 2>/dev/null | head -3 >>"$SUM"
    for l in "$d/runs/$SITE/run-1/logs"/*.log; do # each step's last lines, for the record
        echo "-- $l" && tail -4 "$l"
    done >"$OUT/site-steps.log" 2>/dev/null
    return 0
}

stage_demo() {
    export PROJ_DATA="$DEPS_DIR/usr/share/proj" PATH="$DEPS_DIR/bin:$PATH"
    t0=$(date +%s)
    DEMO_OUT="$WORK/demo" sh sites/demo/run_demo.sh >"$OUT/demo.log" 2>&1 || { tail -30 "$OUT/demo.log"; return 1; }
    say "demo: the demo site end to end on this node in $(($(date +%s) - t0)) s"
    grep -E "sgt_|extract|hazard" "$OUT/demo.log" | head -12 >>"$SUM"
}

{
    echo "== $(date -u +%FT%TZ) $(hostname)"
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null
    echo "$JOBS cores, $(free -g | awk '/Mem:/ { print $2 }') GB"
} >>"$SUM"
for stage in "$@"; do
    case "$stage" in
    build-sgt) stage_build_sgt ;;
    build) stage_build ;;
    sgt) stage_sgt ;;
    same) stage_same ;;
    erf) stage_erf ;;
    rows) stage_rows ;;
    demo) stage_demo ;;
    site) stage_site ;;
    extract) stage_extract ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
    esac || { say "$stage: FAILED"; exit 1; }
done
cat "$SUM"
