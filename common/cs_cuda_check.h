/* A CUDA runtime call whose failure returns -1 from the calling function, with the file, line,
 * call and CUDA's message in `err` (a cs_error * in scope). For the .cu files of the CUDA back
 * ends (the SGT solver, the extractor). */
#ifndef CS_CUDA_CHECK_H
#define CS_CUDA_CHECK_H

#include <unistd.h>

#include "cs_error.h"

#define CS_CUDA_CHECK(call)                                                                        \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return cs_error_set(err, CS_ERR_RESOURCE, "%s:%d: %s: %s", __FILE__, __LINE__, #call,  \
                                cudaGetErrorString(e_));                                           \
    } while (0)

/* Why cudaGetDeviceCount found no device, in words a user can act on: on a machine without an
 * NVIDIA driver the runtime reports "CUDA driver version is insufficient", which reads as if an
 * update would help. */
static inline const char *cs_cuda_no_device_reason(cudaError_t e) {
    if (e == cudaSuccess || e == cudaErrorNoDevice) return "this machine has no NVIDIA GPU";
    if (e == cudaErrorInsufficientDriver && access("/dev/nvidiactl", F_OK) != 0)
        return "this machine has no NVIDIA GPU driver (no /dev/nvidiactl)";
    if (e == cudaErrorInsufficientDriver)
        return "the NVIDIA driver is older than the CUDA runtime this build uses";
    return cudaGetErrorString(e);
}

#endif
