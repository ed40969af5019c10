/* cuFFT opened at run time (dlopen), so that builds with nvcc run on machines without it until a
 * GPU path is asked for; the batched 1-D plans the CUDA extractor makes with it (synth_gpu.cu,
 * measures_gpu.cu). C++ (CUDA) only. */
#ifndef CUFFT_DL_CUH
#define CUFFT_DL_CUH

#include <cuda_runtime.h>
#include <cufft.h>

extern "C" {
#include "cs_error.h"
}

/* Opens the library once per process (later calls return 0 at once). */
int cufft_dl_open(cs_error *err);

/* A batched 1-D plan of length n, made again when the batch or type changes (blocks and batches
 * are mostly full), its transforms issued on `stream` (0: the default stream). */
struct cufft_dl_plan {
    cufftHandle h;
    int n, batch, made;
    cufftType type;
    cudaStream_t stream;
};

int cufft_dl_plan_for(cufft_dl_plan *p, int n, int batch, cufftType type, cudaStream_t stream,
                      cs_error *err);
void cufft_dl_plan_free(cufft_dl_plan *p);
/* Plans for batches of 1, 2, 4 ... 2^12 groups of `unit` series (at most `most` groups), kept
 * side by side: a partial batch (a rupture's last) takes the plan of the next power of two, its
 * extra series transformed and never read, where one plan made anew for each size cost more
 * than a small rupture's work (and a plan's destruction waits for the device). */
enum { CUFFT_DL_SIZES = 13 };
struct cufft_dl_plans {
    cufft_dl_plan p[CUFFT_DL_SIZES];
};
/* The plan for nb groups (1 <= nb <= most <= 2^12) of `unit` series of length n. */
int cufft_dl_plans_for(cufft_dl_plans *ps, int n, int nb, int most, int unit, cufftType type,
                       cudaStream_t stream, cufft_dl_plan **plan, cs_error *err);
void cufft_dl_plans_free(cufft_dl_plans *ps);

/* The transforms; errors name the call and cuFFT's status. */
int cufft_dl_d2z(const cufft_dl_plan *p, double *in, cufftDoubleComplex *out, cs_error *err);
int cufft_dl_z2d(const cufft_dl_plan *p, cufftDoubleComplex *in, double *out, cs_error *err);

#endif
