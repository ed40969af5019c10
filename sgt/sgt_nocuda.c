/* Builds without nvcc have no CUDA back end; `backend = cuda` then says so. */
#include "sgt_run.h"

const sgt_backend *sgt_backend_cuda(void) {
    return NULL;
}
