#!/bin/sh
# The study database at production size: ~20 M PeakAmplitudes rows of one site recorded through
# the extractor's recording path (bench/study_rows_bench.c: 13,000 ruptures x 48 variations x
# 32 IM types), then the first hazard curve over them (it builds the run's per-rupture arrays of
# that IM type), the curve again, and a disaggregation, each timed. docs/scale.md.
#   sh bench/study_rows_production.sh [WORKDIR]       (RUPTURES, VARIATIONS override the size)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cs="$here/build/bin/cybershake"
bench="$here/build/bin/study_rows_bench"
[ -x "$bench" ] || make -C "$here" bench-study >/dev/null
wd=${1:-$(mktemp -d)}
mkdir -p "$wd" && cd "$wd"
rm -f s.sqlite s.sqlite-wal s.sqlite-shm
"$cs" db init s.sqlite >/dev/null
"$cs" db import-sites s.sqlite "$here/sites/demo/sites.csv" >/dev/null
"$bench" s.sqlite --ruptures "${RUPTURES:-13000}" --variations "${VARIATIONS:-48}"
echo "database: $(du -h s.sqlite | cut -f1)"
stamp() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
t0=$(stamp)
"$cs" hazard curve s.sqlite 1 --im 'RotD50 3' >curve.txt
t1=$(stamp)
echo "first hazard curve (SA 3 s RotD50; builds its per-rupture arrays): $(secs "$t0" "$t1") s"
t0=$(stamp)
"$cs" hazard curve s.sqlite 1 --im 'RotD50 3' >/dev/null
t1=$(stamp)
echo "the same curve again: $(secs "$t0" "$t1") s"
best=999
for i in 1 2 3 4 5; do
    t0=$(stamp)
    "$cs" db disagg s.sqlite 1 --im 'RotD50 3' --poe '2% in 50 yr' >/dev/null
    t1=$(stamp)
    best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { t = b - a; printf "%.4f", t < m ? t : m }')
done
echo "disaggregation at 2% in 50 years (best of 5): $best s"
