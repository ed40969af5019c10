/* Rupture times on the device (times_gpu.cu): a batch's variations, each from its slip
 * realisation's edge times and its hypocentre, the same times bit for bit as rupgen_times
 * (erf/rupgen_relax.h says why). C++ (CUDA) only. */
#ifndef TIMES_GPU_CUH
#define TIMES_GPU_CUH

#include <cuda_runtime.h>

extern "C" {
#include "cs_error.h"
}

/* A rupture of the set: its realisations' edge times from edges + edge (n RUPGEN_EDGES each),
 * its points and columns. */
struct times_rupture {
    long long edge;
    int n, nx, nreal;
};

/* times[b][p] (nb x tn, tn >= every rupture's n) for variation b of rupture which[b]'s
 * realisation real[b] from its point hypo[b] (real[b] < 0: none, its times staged by the
 * host), on the default stream; device arrays. */
int times_gpu_launch(const double *edges, const times_rupture *rup, const int *real,
                     const int *hypo, const int *which, int nb, int tn, double *times,
                     cs_error *err);

#endif
