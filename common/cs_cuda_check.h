/* A CUDA runtime call whose failure returns -1 from the calling function, with the file, line,
 * call and CUDA's message in `err` (a cs_error * in scope). For the .cu files of the CUDA back
 * ends (the SGT solver, the extractor). */
#ifndef CS_CUDA_CHECK_H
#define CS_CUDA_CHECK_H

#include "cs_error.h"

#define CS_CUDA_CHECK(call)                                                                        \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return cs_error_set(err, CS_ERR_RESOURCE, "%s:%d: %s: %s", __FILE__, __LINE__, #call,  \
                                cudaGetErrorString(e_));                                           \
    } while (0)

#endif
