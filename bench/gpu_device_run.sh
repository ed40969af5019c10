#!/bin/sh
# Everything measured on a GPU machine in one call: build the SGT-only solver and the kernel
# benchmark, run the kernel benchmark (>= 20 GB grid, copy bandwidth in the same run), the
# GPU-vs-CPU equality test, and the cost of saving strain at a million points. Results under
# $OUT (or ./gpu-results).
set -u
OUT=${OUT:-$PWD/gpu-results}
mkdir -p "$OUT"
{
    nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv
    nvcc --version | tail -2
    nproc
} >"$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
make -j"$(nproc)" sgt-only bench-gpu >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
build/sgt-only/bin/sgt_gpu_bench --gb "${GB:-20}" --nz "${NZ:-380}" --steps 15 2>&1 | tee "$OUT/bench.txt" | grep -E "copy|best|sustained|3forces|planes_per_block=64|check|layout|ceiling|depth"
CS_BIN=$PWD/build/sgt-only/bin/cybershake python3 tests/physics/run.py gpu 2>&1 | tee "$OUT/equality.txt"
sh bench/sgt_gpu_saving.sh 2>&1 | tee "$OUT/saving.txt"
