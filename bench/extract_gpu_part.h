/* The CUDA extractor's part of bench/extract_bench.c: the same rupture and synthetic SGT. */
#ifndef EXTRACT_GPU_PART_H
#define EXTRACT_GPU_PART_H

#include "im.h"
#include "rupgen.h"
#include "synth.h"

/* The bench's variations as the extractor makes them: each slip realisation once (the medium
 * sampled once), then per variation only its rupture times. */
typedef struct {
    const erf_rupture *r;
    const rupgen_params *p;
    int nhypo, nvariations, nreal;
    rupgen_realisation *real;
    double **sr; /* each realisation's slip rates in m/s */
} bench_source;

int bench_source_open(bench_source *bs, const erf_rupture *r, const rupgen_params *p,
                      rupgen_medium medium, cs_error *err);
void bench_source_close(bench_source *bs);
/* Variation v's n subfaults (mu 3e10, tensor m6) into sf; t: n rupture times (scratch). */
int bench_variation(const bench_source *bs, const double *m6, long n, int v, synth_subfault *sf,
                    double *t, cs_error *err);

/* strain: n x 18 x nt_sgt; mall: n x 6 (each point's tensor); m6 the rupture's; cache: the
 * CPU's spectra of the same points (the first records are compared). Prints its line; fails
 * when no GPU can be opened. */
int extract_gpu_part(synth_ctx *c, const bench_source *bs, const float *strain, const double *mall,
                     const double *m6, long n, int nvar, const im_config *ims,
                     const synth_cache *cache, cs_error *err);

#endif
