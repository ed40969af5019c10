/* The CUDA extractor's part of bench/extract_bench.c: the same rupture and synthetic SGT. */
#ifndef EXTRACT_GPU_PART_H
#define EXTRACT_GPU_PART_H

#include "im.h"
#include "rupgen.h"
#include "synth.h"

/* strain: n x 18 x nt_sgt; mall: n x 6 (each point's tensor); m6 the rupture's; cache: the
 * CPU's spectra of the same points (the first records are compared). Prints its line; fails
 * when no GPU can be opened. */
int extract_gpu_part(synth_ctx *c, const erf_rupture *r, const rupgen_params *p,
                     rupgen_medium medium, const float *strain, const double *mall,
                     const double *m6, long n, int nvar, const im_config *ims,
                     const synth_cache *cache, cs_error *err);

#endif
