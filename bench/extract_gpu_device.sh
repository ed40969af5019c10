#!/bin/sh
# The CUDA extractor on a GPU machine (docs/performance.md, "Extraction on the GPU"): the toolkit
# built from the Debian packages in .debs (bench/deps_prefix.sh), the CUDA-vs-CPU case of
# tests/cli/test_extract_cli.sh, and bench/extract_bench.c's rupture (4,224 subfaults) at the
# 0.5 Hz and 1 Hz sizes with its GPU part; median05, largest05, median1, largest1: the same with
# the production forecast's median and largest ruptures' shapes (erf/demo: 14 x 54 = 756 and
# 14 x 550 = 7,700 points 1 km apart).
#
#   OUT=DIR sh bench/extract_gpu_device.sh [CASES]     CASES: test bench05 bench1 (default),
#                                                      median05 largest05 median1 largest1,
#                                                      cores05 cores1
#
# cores05, cores1: the one-core rate alone at the three sizes, $CORE_RUNS (4) times each, to pool
# with the other cases' (bench/site_mix.py --cores): a core's rate moves by 10-30% between runs
# on one node.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 1
OUT=${OUT:-$here/gpu-extract-results}
DEPS_DIR=${DEPS_DIR:-/tmp/cs-deps}
GPU_VARIATIONS=${GPU_VARIATIONS:-2048}
mkdir -p "$OUT"
cases=${*:-test bench05 bench1}
# the packages unpacked once a machine; the build always (incremental: a checkout of another
# branch on a warm machine rebuilds what it changed)
if [ ! -d "$DEPS_DIR/usr/lib" ]; then
    sh bench/deps_prefix.sh unpack .debs "$DEPS_DIR" >"$OUT/deps.log" 2>&1 || { tail -5 "$OUT/deps.log"; exit 1; }
fi
make -j16 DEPS_PREFIX="$DEPS_DIR" all build/bin/extract_bench >"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
export PATH="$DEPS_DIR/usr/bin:$PATH" PROJ_DATA="$DEPS_DIR/usr/share/proj"
export LD_LIBRARY_PATH="$DEPS_DIR/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 CS_REPO="$here"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >"$OUT/gpu.txt" 2>&1
for c in $cases; do
    case $c in
    test)
        grep -v "^tcase" tests/cli/test_extract_cli.sh |
            sed 's/^tsummary$/tcase cuda_matches_cpu t_cuda_matches_cpu\ntsummary/' >tests/cli/_gpu_case.sh
        sh tests/cli/_gpu_case.sh >"$OUT/test.log" 2>&1
        rm -f tests/cli/_gpu_case.sh
        tail -3 "$OUT/test.log"
        ;;
    bench05)
        ./build/bin/extract_bench --fmax 0.5 --dt 0.1 --nt 8000 --variations 8 --time-variations 1 \
            --gpu-variations "$GPU_VARIATIONS" >"$OUT/bench05.log" 2>&1
        tail -10 "$OUT/bench05.log"
        ;;
    bench1)
        ./build/bin/extract_bench --fmax 1 --dt 0.05 --nt 20000 --variations 4 --time-variations 1 \
            --gpu-variations "$GPU_VARIATIONS" >"$OUT/bench1.log" 2>&1
        tail -10 "$OUT/bench1.log"
        ;;
    cores05 | cores1)
        case $c in *05) size="--fmax 0.5 --dt 0.1 --nt 8000" ;; *) size="--fmax 1 --dt 0.05 --nt 20000" ;; esac
        for i in $(seq "${CORE_RUNS:-4}"); do
            for shape in median largest bench; do
                case $shape in
                median) geo="--length 54 --width 14 --spacing 1" ;;
                largest) geo="--length 550 --width 14 --spacing 1" ;;
                *) geo="" ;;
                esac
                # shellcheck disable=SC2086 # size and geo are words
                ./build/bin/extract_bench $size $geo --variations 16 --time-variations 0 \
                    >"$OUT/$c-$shape-$i.log" 2>&1
            done
        done
        grep -h "case frequency" "$OUT/$c"-*.log | cut -c1-60
        ;;
    median05 | largest05 | median1 | largest1)
        case $c in median*) shape="--length 54 --width 14 --spacing 1" ;; *) shape="--length 550 --width 14 --spacing 1" ;; esac
        case $c in *05) size="--fmax 0.5 --dt 0.1 --nt 8000" ;; *) size="--fmax 1 --dt 0.05 --nt 20000" ;; esac
        # one core over 16 variations (4 moved its rate by 20% between runs on one node)
        # shellcheck disable=SC2086 # shape and size are words
        ./build/bin/extract_bench $size $shape --variations 16 --time-variations 0 \
            --gpu-variations "$GPU_VARIATIONS" >"$OUT/$c.log" 2>&1
        tail -10 "$OUT/$c.log"
        ;;
    esac
done
