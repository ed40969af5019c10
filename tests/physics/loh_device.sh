#!/bin/sh
# The LOH benchmarks' table on a GPU machine (docs/sgt.md, "LOH.1 and LOH.3"): builds the
# SGT-only solver and runs tests/physics/loh_convergence.py for the cases below, writing the
# lines to $OUT/loh.txt and the traces to $OUT/loh.tgz. STAGES picks a subset.
#   a  LOH.1 and LOH.3 at h = 100, 50, 25 m (effective media), with LOH.3's Q against LOH.1
#   b  LOH.1 with the older point rule
#   c  LOH.1 with the interface half-way between nodes (h = 1000/20.5 m)
#   d  LOH.1 at h = 100 m on the CPU (GPU = CPU), and at 50 m in a larger box and in the
#      benchmark's own axes (the box does not matter)
#   f  LOH.1 at h = 12.5 m (about 3 minutes on an H100)
#   g  LOH.1 and LOH.3 with the band-limited sampling at h = 100, 50, 25 m, LOH.1 at 12.5 m,
#      and at 50 m in the larger box and in the benchmark's own axes
#   h  LOH.1 with the interface half-way between nodes at h = 1000/20.5 and 1000/40.5 m
#   i  LOH.1 with the default (auto: the band-limited kernel with layered cells at Courant
#      0.46) at h = 100, 50, 25, 12.5 m, in the benchmark's axes, and between nodes
set -u
OUT=${OUT:-$PWD/loh-results}
mkdir -p "$OUT/tr"
make -j"$(nproc)" sgt-only >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
export CS_BIN=$PWD/build/sgt-only/bin/cybershake PYTHONUNBUFFERED=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
conv() { python3 tests/physics/loh_convergence.py --out "$OUT/tr" "$@" 2>&1 | tee -a "$OUT/loh.txt"; }
for s in ${STAGES:-a b c d f g h i}; do
    case $s in
    a) conv --backend cuda --cases loh1,loh3 --h 100,50,25 --sampling effective ;;
    b) conv --backend cuda --h 100,50,25 --sampling point ;;
    c) conv --backend cuda --h 48.78048780487805 --sampling effective,point --tag _odd ;;
    d) conv --backend cpu --h 100 --sampling effective --tag _cpu
       conv --backend cuda --h 50 --sampling effective --box 2000,2000,4000,8000 --tag _bigbox
       conv --backend cuda --h 50 --sampling effective --frame loh --tag _lohframe ;;
    f) conv --backend cuda --h 12.5 --sampling effective ;;
    g) conv --backend cuda --cases loh1,loh3 --h 100,50,25 --sampling bandlimited
       conv --backend cuda --h 12.5 --sampling bandlimited
       conv --backend cuda --h 50 --sampling bandlimited --box 2000,2000,4000,8000 --tag _bigbox
       conv --backend cuda --h 50 --sampling bandlimited --frame loh --tag _lohframe ;;
    h) conv --backend cuda --h 48.78048780487805,24.691358024691358 --sampling effective --tag _odd ;;
    i) conv --backend cuda --h 100,50,25,12.5 --sampling auto
       conv --backend cuda --h 50 --sampling auto --frame loh --tag _lohframe
       conv --backend cuda --h 48.78048780487805 --sampling auto --tag _odd ;;
    esac
done
tar czf "$OUT/loh.tgz" -C "$OUT" tr && rm -rf "$OUT/tr"
