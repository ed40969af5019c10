/* How one rupture's synthesis fits the memory a rank is allowed (docs/extract.md, "Memory"):
 * the SGT is read a block of points at a time and turned into spectra at once, and when the
 * spectra of all the rupture's points would not fit, the points are taken in chunks, every
 * variation of a batch adding each chunk's subfaults to its own accumulator. What the rank
 * keeps besides (the rupture's results: IMs, and seismograms when asked; the synthesis' FFT
 * buffers; the subfaults of one variation) counts against the same limit. The time path is the
 * reference and keeps the rupture's whole strain: it is not bounded. */
#ifndef EXTRACT_MEMORY_H
#define EXTRACT_MEMORY_H

#include "extract_rupture.h"

#define EXTRACT_DEFAULT_MEMORY 4e9 /* bytes per rank */

typedef struct {
    double limit;   /* bytes */
    long chunk;     /* points per chunk (>= the rupture's points: one chunk) */
    long block;     /* points of strain read at a time */
    int batch;      /* variations accumulated together when chunked */
    double planned; /* bytes the plan uses at most */
} extract_memory_plan;

/* limit <= 0: EXTRACT_DEFAULT_MEMORY. Fails with a message when even one point per chunk and
 * one variation per batch would not fit. */
int extract_memory_plan_make(const synth_ctx *c, long npoints, int nvar, int combined, int method,
                             double limit, const rupture_result *out, extract_memory_plan *plan,
                             cs_error *err);

#endif
