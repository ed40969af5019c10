#!/bin/sh
# Compare builds of the GPU kernels that differ by nvcc flags (experiments kept as build
# options), on one GPU, in one call: each flag set is built into build/variant-N in parallel,
# checked (tiled against plain kernels, bitwise) and timed on the one-case benchmark, elastic and
# viscoelastic, in alternating order over `ROUNDS` rounds so drift between runs shows.
#   sh bench/sgt_gpu_variants.sh "" "-DSGT_CARRY" "-DSGT_HINT=2"
# Environment: GB (grid size, default 20), ROUNDS (default 2), PLANES (16), TJ (8), NZ (384).
set -u
GB=${GB:-20}
ROUNDS=${ROUNDS:-2}
PLANES=${PLANES:-16}
TJ=${TJ:-8}
n=0
for flags in "$@"; do
    make -j4 BUILD=build/variant-$n NVCC_EXTRA="$flags" bench-gpu >build-variant-$n.log 2>&1 &
    n=$((n + 1))
done
wait
n=0
for flags in "$@"; do
    test -x build/variant-$n/sgt-only/bin/sgt_gpu_bench || {
        echo "variant $n ($flags) failed to build"
        tail -20 build-variant-$n.log
        exit 1
    }
    printf 'variant %d flags="%s" ' $n "$flags"
    build/variant-$n/sgt-only/bin/sgt_gpu_bench --check-only 1 | grep -c " ok" | sed 's/$/ checks ok/'
    n=$((n + 1))
done
round=0
while [ $round -lt "$ROUNDS" ]; do
    for kind in elastic viscoelastic; do
        i=0
        while [ $i -lt $n ]; do
            v=$i
            [ $((round % 2)) -eq 1 ] && v=$((n - 1 - i))
            printf 'round %d variant %d ' $round $v
            build/variant-$v/sgt-only/bin/sgt_gpu_bench --gb "$GB" --steps 15 --only $kind \
                --planes "$PLANES" --variant "$TJ" --nz "${NZ:-384}"
            i=$((i + 1))
        done
    done
    round=$((round + 1))
done
