/* The CUDA back end's benchmark and check hooks (defined in sgt/sgt_cuda.cu), for
 * bench/sgt_gpu_bench.c: one declaration, seen by the definitions and by the benchmark. */
#ifndef SGT_CUDA_BENCH_H
#define SGT_CUDA_BENCH_H

#include "cs_error.h"

int sgt_cuda_copy_bench(double gbytes, double *gbps, cs_error *err);
int sgt_cuda_copy_streams_bench(double gbytes, int ns, double *gbps, cs_error *err);
int sgt_cuda_interleaved_bench(long n, int steps, double *sec_per_step, cs_error *err);
void sgt_cuda_bench_layout(int align, int pad, int interleave);
int sgt_cuda_kernel_bench(int nx, int ny, int nz, int visco, int nf, int steps, int planes, int tj,
                          int tiled, double *sec_per_step, double sec_kernel[2], double *gbytes,
                          cs_error *err);
int sgt_cuda_mdiv_check(double *worst_rel, int *zero_ok, cs_error *err);
int sgt_cuda_kernel_check(int nx, int ny, int nz, int visco, int steps, int planes, int tj,
                          int tiled, const int margin[4], double *worst, cs_error *err);

#endif
