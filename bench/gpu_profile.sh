#!/bin/sh
# Nsight Compute profile of the velocity and stress kernels (one launch each, after warm-up),
# with the L2 throughput broken down into its units and the L1 and L2 sector counts.
set -u
OUT=${OUT:-$PWD/gpu-results}
mkdir -p "$OUT"
make -j"$(nproc)" bench-gpu >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,gpc__cycles_elapsed.avg.per_second,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
for case in elastic viscoelastic; do
    "$NCU" --clock-control none --kernel-name regex:"velocity|stress" --launch-skip 2 --launch-count 2 --metrics "$M" \
        build/sgt-only/bin/sgt_gpu_bench --only $case --gb 4 --steps 3 --planes 16 >"$OUT/ncu_$case.txt" 2>&1
    grep -E "velocity_kernel|stress_kernel|gpu__time|dram__|hit_rate|warps_active|registers|occupancy|throughput|lts__|l1tex__|inst_executed|cycles_elapsed" "$OUT/ncu_$case.txt" | sed 's/  */ /g'
done
