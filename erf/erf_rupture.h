/* One rupture of an earthquake rupture forecast: magnitude, probability over the forecast's
 * time span, and its gridded surface (docs/erf.md). The surface is nrows x ncols points at
 * spacing_km, row-major, row 0 the shallowest and column 0 at the start of the trace (strike
 * points from column 0 to column ncols-1, dip to the right of strike). */
#ifndef ERF_RUPTURE_H
#define ERF_RUPTURE_H

#include "cs_error.h"

typedef struct {
    long long source_id, rupture_id;
    char source_name[160];
    char source_type[32];
    double magnitude;
    double prob; /* over the forecast's time span */
    double spacing_km;
    int nrows, ncols;
    double *lat, *lon, *dep, *rake, *dip, *stk; /* nrows * ncols each; depth in km */
} erf_rupture;

int erf_rupture_alloc(erf_rupture *r, int nrows, int ncols, cs_error *err);
void erf_rupture_free(erf_rupture *r);
static inline int erf_rupture_npoints(const erf_rupture *r) {
    return r->nrows * r->ncols;
}

#endif
