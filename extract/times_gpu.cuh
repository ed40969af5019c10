/* Rupture times on the device (times_gpu.cu): a batch's variations, each from its slip
 * realisation's edge times and its hypocentre, the same times bit for bit as rupgen_times
 * (erf/rupgen_relax.h says why). C++ (CUDA) only. */
#ifndef TIMES_GPU_CUH
#define TIMES_GPU_CUH

#include <cuda_runtime.h>

extern "C" {
#include "cs_error.h"
}

/* times[b][p] (nb x n) for variation b of realisation real[b] (its edge times at
 * edges + real[b] n RUPGEN_EDGES) from point hypo[b], on the default stream; device arrays. */
int times_gpu_launch(const double *edges, const int *real, const int *hypo, int nb, int n, int nx,
                     double *times, cs_error *err);

#endif
