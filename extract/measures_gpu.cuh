/* The records' measures on the device (synth_gpu.h's synth_gpu_set_measures): spectral
 * accelerations (the exact recursion of im_osc.h, RotD50/100 over 180 angles), PGV, FAS with
 * Konno-Ohmachi smoothing and the period-dependent durations (im_spec.h), in im.h's "given"
 * layout, made on a stream of their own while the next batch is summed. C++ (CUDA) only. */
#ifndef MEASURES_GPU_CUH
#define MEASURES_GPU_CUH

extern "C" {
#include "cs_error.h"
#include "synth_gpu.h"
}

struct measures_gpu;

/* The measures of records of nt samples at m->dt, up to `batch` records at a time. */
int measures_gpu_open(measures_gpu **out, const synth_gpu_measures *m, int nt, int batch,
                      cs_error *err);
void measures_gpu_close(measures_gpu *mg);
/* Device memory (bytes) measures_gpu_open takes with these settings (cuFFT's work areas
 * included as the data they transform), for planning. */
double measures_gpu_bytes(const synth_gpu_measures *m, int nt, int batch);
/* Starts the measures of nb records into slot 0 or 1: Y holds them (nb x 3 x M doubles, the
 * first nt samples of each component, on the device; read on the default stream before this
 * returns' work there completes). The slot's previous measures must have been waited for. */
int measures_gpu_launch(measures_gpu *mg, const double *Y, int M, int nb, int slot, cs_error *err);
/* Waits for slot `slot`'s measures of nb records: values nb x IM_GIVEN_VALUES(nperiods). */
int measures_gpu_wait(measures_gpu *mg, int slot, int nb, double *values, cs_error *err);

#endif
