#!/bin/sh
# The forecast's largest ruptures (the southern San Andreas of erf/demo) extracted for USC on one
# node three ways, from SGTs of forces E and N run over the plan's whole duration at a low fmax
# (docs/performance.md, "The largest ruptures on CPU and GPU"):
#   cpu      every core a rank, the default memory limit (4 GB a rank)
#   bounded  the same under --max-memory $XMEM (GB): the ruptures' spectra in chunks
#   cuda     --backend cuda, one GPU (rank 0 the study, rank 1 the GPU)
#   cudaK    the same with K GPU ranks sharing the node's GPUs and cores (e.g. cuda4)
#   RUN-nokeep  a GPU run whose ranks load each rupture's spectra anew (no spectra kept across
#            ruptures: CYBERSHAKE_GPU_KEEP=0), e.g. cuda3-nokeep
# each timed, with the largest rank's peak resident memory; the measures of bounded and cuda
# against cpu's (largest relative difference).
#
#   OUT=DIR FMAX=0.15 XRUPS=15 XMEM=0.25 RUNS="cpu bounded cuda" sh bench/extract_largest.sh
#
# Builds the toolkit from the Debian packages in .debs first where build/bin/cybershake is
# missing (bench/deps_prefix.sh). SGT_BACKEND (cuda) runs the SGTs, STEPS (the plan's nt) as many
# steps.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 1
OUT=${OUT:-$here/extract-largest}
WORK=${WORK:-/tmp/cs-largest}
DEPS_DIR=${DEPS_DIR:-/tmp/cs-deps}
FMAX=${FMAX:-0.15}
XRUPS=${XRUPS:-15}
XMEM=${XMEM:-0.25}
RUNS=${RUNS:-cpu bounded cuda}
SGT_BACKEND=${SGT_BACKEND:-cuda}
SITE=USC
JOBS=$(nproc)
CS="$here/build/bin/cybershake"
mkdir -p "$OUT" "$WORK"
SUM="$OUT/summary.txt"
say() { echo "$*" | tee -a "$SUM"; }
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

if [ ! -x "$CS" ]; then
    sh bench/deps_prefix.sh unpack .debs "$DEPS_DIR" >"$OUT/deps.log" 2>&1 || { tail -5 "$OUT/deps.log"; exit 1; }
    make -j"$JOBS" DEPS_PREFIX="$DEPS_DIR" all >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
[ -d "$DEPS_DIR/usr" ] && export PATH="$DEPS_DIR/usr/bin:$PATH" PROJ_DATA="$DEPS_DIR/usr/share/proj"
export LD_LIBRARY_PATH="${DEPS_DIR}/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null) $JOBS cores" >>"$SUM"
s="$WORK/x.sqlite"
rm -f "$s" "$s-wal" "$s-shm"
"$CS" db init "$s" >/dev/null && "$CS" db import-sites "$s" sites/cybershake_sites.csv >/dev/null || exit 1
"$CS" erf build "$s" --name sa --faults erf/demo/faults.csv --traces erf/demo/traces.csv \
    --files aFault_aPriori_D2.1 >"$OUT/erf.log" 2>&1 || { tail "$OUT/erf.log"; exit 1; }
"$CS" plan "$s" "$SITE" --erf sa --fmax "$FMAX" --model-format fk1d \
    --model-file tests/data/bbp_nr02-vs500.fk1d --out "$WORK/plan" --cutoff 200 \
    >"$OUT/plan.log" 2>&1 || { tail "$OUT/plan.log"; exit 1; }
sqlite3 "$s" "DELETE FROM CyberShake_Site_Ruptures WHERE Source_ID || ':' || Rupture_ID NOT IN
    (SELECT Source_ID || ':' || Rupture_ID FROM Ruptures ORDER BY Num_Points DESC, Source_ID,
    Rupture_ID LIMIT $XRUPS)" || exit 1
pts=$(sqlite3 "$s" "SELECT sum(Num_Points) || ' points, largest ' || max(Num_Points) FROM Ruptures
    JOIN CyberShake_Site_Ruptures USING (ERF_ID, Source_ID, Rupture_ID)")
say "plan: $SITE at $FMAX Hz, $(grep -E '^grid:' "$OUT/plan.log"); the $XRUPS largest ruptures kept ($pts)"
for f in E N; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2046 # STEPS (optional) shortens the run
    "$CS" sgt "$WORK/plan/$SITE.sgt.params" --set force_component=$f --set backend="$SGT_BACKEND" \
        --set output="$WORK/x_$f.h5" $([ -n "${STEPS:-}" ] && echo --set nt="$STEPS") \
        >"$OUT/sgt-$f.log" 2>&1 || { tail "$OUT/sgt-$f.log"; exit 1; }
    say "sgt $f: $(secs "$t0") s, $(grep -h 'steps in' "$OUT/sgt-$f.log" | tail -1)"
done
# srf-RUN: the same run from SRF files of the variations (`erf variations --srf-dir`, hypocentres
# every $HYPO km, one slip), written for the one rupture kept (XRUPS=1); with HYPO set, every
# generated run takes the same variations (--hypo-spacing $HYPO --slips 1)
case " $RUNS " in
*" srf-"*)
    [ "$XRUPS" = 1 ] || { echo "srf runs take XRUPS=1" >&2; exit 2; }
    sr=$(sqlite3 -separator ' ' "$s" "SELECT Source_ID, Rupture_ID FROM CyberShake_Site_Ruptures")
    rm -rf "$WORK/srf"
    t0=$(date +%s.%N)
    "$CS" erf variations "$s" --name sa --model-format fk1d --model-file tests/data/bbp_nr02-vs500.fk1d \
        --scenario files --hypo-spacing "${HYPO:-4}" --slips 1 --srf-dir "$WORK/srf" --source "${sr% *}" \
        --rupture "${sr#* }" >"$OUT/srf.log" 2>&1 || { tail "$OUT/srf.log"; exit 1; }
    say "srf: $(ls "$WORK/srf" | wc -l) SRF files of rupture $sr, $(du -sh "$WORK/srf" | cut -f1), written in $(secs "$t0") s"
    ;;
esac
first=""
for r in $RUNS; do
    scen="" label=$r
    [ -n "${HYPO:-}" ] && scen="--hypo-spacing $HYPO --slips 1"
    case $r in srf-*) scen="--scenario files" ;; esac
    r=${r#srf-}
    # RUN-nokeep: the GPU ranks load every rupture's spectra anew (CYBERSHAKE_GPU_KEEP=0)
    keep=1
    case $r in *-nokeep) keep=0 ;; esac
    case ${r%-nokeep} in
    cpu) np=$JOBS; extra="" mpiopt="" ;;
    bounded) np=$JOBS; extra="--max-memory $XMEM" mpiopt="" ;;
    # the GPU rank's threads make the variations and measures: not bound to one core; cudaK:
    # K GPU ranks (sharing the node's GPUs and cores) beside rank 0
    cuda*) k=${r#cuda}; np=$((${k:-1} + 1)); extra="--backend cuda" mpiopt="--bind-to none" ;;
    *) continue ;;
    esac
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # extra and mpiopt are words
    CYBERSHAKE_GPU_KEEP=$keep CYBERSHAKE_LOG=info CYBERSHAKE_LOG_ALL_RANKS=1 mpirun $mpiopt -np "$np" "$CS" extract "$s" --site "$SITE" --erf sa \
        --sgt "$WORK/x_E.h5,$WORK/x_N.h5" $extra $scen >"$OUT/extract-$label.log" 2>&1 ||
        { tail -20 "$OUT/extract-$label.log"; exit 1; }
    run=$(sed -n 's/^run \([0-9]*\):.*/\1/p' "$OUT/extract-$label.log")
    say "extract $label ($np ranks $extra $scen): $(secs "$t0") s wall; $(grep -E '^run ' "$OUT/extract-$label.log"); $(grep -E '^memory:' "$OUT/extract-$label.log")"
    grep -m 3 -E 'in chunks|extraction on|one core' "$OUT/extract-$label.log" | sed 's/^/    /' | tee -a "$SUM"
    # where the time went: rank 0's loop and the workers' phases (extract_run.c)
    grep -E 'rank 0: building|seconds summed' "$OUT/extract-$label.log" | sed 's/^.*info: /    /' | tee -a "$SUM"
    if [ -z "$first" ]; then
        first=$run
    else
        worst=$(sqlite3 "$s" "SELECT max(abs(a.IM_Value - b.IM_Value) / max(abs(b.IM_Value), 1e-300)), count(*)
            FROM PeakAmplitudes a JOIN PeakAmplitudes b USING (Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)
            WHERE a.Run_ID = $run AND b.Run_ID = $first")
        say "    $label against run $first: largest relative difference of a measure, rows compared: $worst"
    fi
done
