/* One rupture on the CUDA extractor (synth_gpu.h): its points' spectra made on the device a
 * chunk at a time (one chunk unless the device cannot hold them all), its variations generated
 * (or read) on the host and sent in batches, their records back to the host for the intensity
 * measures, computed by the rank's threads (OpenMP) one variation each. */
#ifndef EXTRACT_GPU_H
#define EXTRACT_GPU_H

#include "extract_rupture.h"

/* full: spectra of every component (else combined with the points' tensors). Returns 0, a
 * status, or EXTRACT_AGAIN_FULL when a subfault's tensor is not its point's (the caller starts
 * over with full = 1). */
int extract_rupture_gpu(extract_worker *w, variation_source *src, int nvar, int full,
                        rupture_result *out, cs_error *err);

/* Several generated ruptures whose variations share the device's batches (their points' spectra
 * kept together): out[k] takes rupture k's nvar[k] variations. Returns 0, a status (the first
 * failure's, which names its variation), or EXTRACT_ALONE when they cannot go together (no
 * kept spectra, more distinct points than the rows, a subfault whose tensor is not its
 * point's): the caller takes each alone. */
int extract_ruptures_gpu(extract_worker *w, variation_source *const *src, const int *nvar, int nr,
                         rupture_result *const *out, cs_error *err);

#endif
