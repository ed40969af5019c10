#!/bin/sh
# Nsight Compute profile of the CUDA extractor's kernels on bench/extract_bench.c's rupture at
# 0.5 Hz (4,224 subfaults, batches of 128 variations): each kernel's duration, DRAM and SM
# throughput, active warps and registers (docs/performance.md, "Extraction on the GPU").
#   OUT=DIR sh bench/extract_gpu_profile.sh     (the toolkit built as bench/extract_gpu_device.sh does)
# SHAPE="--length 54 --width 14 --spacing 1" profiles the production forecast's median rupture
# instead (the output then goes to ncu_extract_shape.txt).
# MODE=configs: each kernel's time once per launch shape over the whole bench (its third launch of
# that shape), so the batches of the extractor's messages (the bench's last part) are seen too.
# MODE=stalls: accumulate_kernel's warp states, scheduler, memory and source-line stall counters,
# its second launch of each shape (ncu_stalls$suffix.txt).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 1
OUT=${OUT:-$here/gpu-extract-results}
DEPS_DIR=${DEPS_DIR:-/tmp/cs-deps}
mkdir -p "$OUT"
# the packages unpacked once a machine; the build always (incremental: a checkout of another
# branch on a warm machine rebuilds what it changed)
if [ ! -d "$DEPS_DIR/usr/lib" ]; then
    sh bench/deps_prefix.sh unpack .debs "$DEPS_DIR" >"$OUT/deps.log" 2>&1 || { tail -5 "$OUT/deps.log"; exit 1; }
fi
make -j16 DEPS_PREFIX="$DEPS_DIR" all build/bin/extract_bench >"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
export LD_LIBRARY_PATH="$DEPS_DIR/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
suffix=${SHAPE:+_shape}
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
if [ "${MODE:-}" = stalls ]; then
    # shellcheck disable=SC2086 # SHAPE is words
    "$NCU" --clock-control none --filter-mode per-launch-config -k regex:accumulate_kernel \
        --launch-skip 1 --launch-count 1 --section SpeedOfLight --section Occupancy \
        --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis --section InstructionStats --section SourceCounters \
        build/bin/extract_bench --fmax 0.5 --dt 0.1 --nt 8000 --variations 1 --time-variations 0 \
        --gpu-variations 1024 ${SHAPE:-} >"$OUT/ncu_stalls$suffix.txt" 2>&1
    exit 0
fi
if [ "${MODE:-}" = configs ]; then
    # shellcheck disable=SC2086 # SHAPE is words
    "$NCU" --clock-control none --filter-mode per-launch-config --launch-skip 2 --launch-count 1 \
        --metrics gpu__time_duration.sum,launch__grid_size \
        build/bin/extract_bench --fmax 0.5 --dt 0.1 --nt 8000 --variations 1 --time-variations 0 \
        --gpu-variations 1024 ${SHAPE:-} >"$OUT/ncu_configs$suffix.txt" 2>&1
    python3 - "$OUT/ncu_configs$suffix.txt" <<'PY'
import re, sys
kern = None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\s+(?:void )?([A-Za-z_][\w:]*)(?:<.*>)?\(.*\)\s*\((\d+), (\d+), (\d+)\)x\((\d+), \d+, \d+\)", line)
    if m:
        kern = "%s (%s,%s,%s)x%s" % (m.group(1).split("::")[-1][:32], m.group(2), m.group(3), m.group(4), m.group(5))
        continue
    f = line.split()
    if kern and len(f) >= 3 and f[0] == "gpu__time_duration.sum":
        v = float(f[-1].replace(",", "")) * {"ns": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3, "nsecond": 1e-3}.get(f[1], 1)
        print(f"{kern:60} {v:10.1f} us")
PY
    exit 0
fi
# the rupture's spectra (once per rupture): strain series, their transforms, the kept band; then
# a batch's kernels after a warm-up batch: slip-rate spectra, sums, inverse transforms
# shellcheck disable=SC2086 # SHAPE is words
"$NCU" --clock-control none --launch-count 400 --metrics "$M" \
    build/bin/extract_bench --fmax 0.5 --dt 0.1 --nt 8000 --variations 1 --time-variations 0 \
    --gpu-variations 384 ${SHAPE:-} >"$OUT/ncu_extract$suffix.txt" 2>&1
python3 - "$OUT/ncu_extract$suffix.txt" <<'PY'
import re, sys, collections
kern, tot, n, rows = None, collections.Counter(), collections.Counter(), {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\s+(?:void )?([A-Za-z_][\w:]*)(?:<.*>)?\(.*\)\s*\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line)
    if m:
        kern = m.group(1).split("::")[-1][:40]
        n[kern] += 1
        continue
    f = line.split()
    if kern and len(f) >= 3 and f[0].startswith(("gpu__time", "dram__", "sm__", "launch__")):
        v = float(f[-1].replace(",", ""))
        if f[0] == "gpu__time_duration.sum":
            v *= {"ns": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3, "nsecond": 1e-3}.get(f[1], 1)
            tot[kern] += v
        rows.setdefault(kern, {})[f[0].split(".")[0]] = v
print(f"{'kernel':40} {'launches':>8} {'total us':>10} {'us/launch':>10}  last launch: DRAM%, SM%, warps%, regs")
for k, t in tot.most_common():
    r = rows[k]
    print(f"{k:40} {n[k]:8d} {t:10.1f} {t / n[k]:10.1f}  {r.get('dram__throughput', 0):.0f} {r.get('sm__throughput', 0):.0f} "
          f"{r.get('sm__warps_active', 0):.0f} {r.get('launch__registers_per_thread', 0):.0f}")
PY
