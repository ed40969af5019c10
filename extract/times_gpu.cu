/* Rupture times on the device: a block a variation relaxes every point of its rupture from its
 * neighbours, in place, until a pass changes none. Each thread takes a run of consecutive
 * points (along strike), ascending and descending in turn, so a front crosses a run in one pass
 * and the passes number about the rupture's rows plus its columns over the run's length,
 * not its columns. Reads of points other threads write in the same pass see the old time or the
 * new one (aligned 8-byte loads and stores are whole; formally a race in the C++ model, which
 * the relaxation tolerates); either is an upper bound the next pass improves, and a pass that
 * changes nothing has every point at its least: the fixed point. */
#include <math.h>

#include "rupgen_relax.h"
#include "times_gpu.cuh"

extern "C" {
#include "cs_cuda_check.h"
}

enum { TIMES_THREADS = 256 };

__global__ void __launch_bounds__(TIMES_THREADS)
    times_kernel(const double *edges, const times_rupture *rup, const int *real, const int *hypo,
                 const int *which, int tn, int in_shared, double *times) {
    extern __shared__ double shared_t[];
    const int b = blockIdx.x, tid = threadIdx.x;
    if (real[b] < 0) return; /* its times were staged by the host */
    const times_rupture r = rup[which[b]];
    const int n = r.n;
    int step[RUPGEN_EDGES];
    rupgen_relax_steps(r.nx, step);
    double *out = times + (size_t)b * tn;
    double *t = in_shared ? shared_t : out;
    const double *edge = edges + r.edge + (size_t)real[b] * n * RUPGEN_EDGES;
    for (int p = tid; p < n; p += blockDim.x)
        t[p] = INFINITY;
    __syncthreads();
    if (tid == 0) t[hypo[b]] = 0;
    __syncthreads();
    const int run = (n + blockDim.x - 1) / blockDim.x, lo = tid * run;
    const int hi = lo + run < n ? lo + run : n;
    for (int pass = 0;; pass++) {
        int changed = 0;
        for (int i = 0; i < hi - lo; i++) {
            int p = pass % 2 ? hi - 1 - i : lo + i;
            double v = rupgen_relax_point(t, edge + (size_t)p * RUPGEN_EDGES, p, step);
            if (v < t[p]) {
                t[p] = v;
                changed = 1;
            }
        }
        if (!__syncthreads_or(changed)) break;
        /* n passes settle every path of up to n edges, so with positive edge times (speeds
         * > 0, which the generator's checks keep) more mean a fault: the context ends with
         * an error the host's next call reports, never with wrong times */
        if (pass > n + 1) __trap();
    }
    if (t != out)
        for (int p = tid; p < n; p += blockDim.x)
            out[p] = t[p];
}

int times_gpu_launch(const double *edges, const times_rupture *rup, const int *real,
                     const int *hypo, const int *which, int nb, int tn, double *times,
                     cs_error *err) {
    if (nb < 1 || tn < 1) return 0;
    /* the times in shared memory where a block may have room for the largest rupture's (96 KB
     * is 12,288 points; an H100 allows a block 227 KB), else in global memory */
    int device = 0, most = 0;
    CS_CUDA_CHECK(cudaGetDevice(&device));
    CS_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    size_t shared = sizeof(double) * (size_t)tn;
    int in_shared = shared <= (size_t)most;
    if (in_shared && shared > 48 * 1024)
        CS_CUDA_CHECK(cudaFuncSetAttribute(
            times_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    times_kernel<<<(unsigned)nb, TIMES_THREADS, in_shared ? shared : 0>>>(
        edges, rup, real, hypo, which, tn, in_shared, times);
    CS_CUDA_CHECK(cudaGetLastError());
    return 0;
}
