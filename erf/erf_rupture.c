#include "erf_rupture.h"

#include <stdlib.h>
#include <string.h>

int erf_rupture_alloc(erf_rupture *r, int nrows, int ncols, cs_error *err) {
    memset(r, 0, sizeof *r);
    if (nrows < 1 || ncols < 1)
        return cs_error_set(err, CS_ERR_INPUT,
                            "a rupture surface needs at least one row and column (got %d x %d)",
                            nrows, ncols);
    size_t n = (size_t)nrows * (size_t)ncols;
    double *block = malloc(6 * n * sizeof *block);
    if (!block)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a rupture of %zu points", n);
    r->nrows = nrows;
    r->ncols = ncols;
    r->lat = block;
    r->lon = block + n;
    r->dep = block + 2 * n;
    r->rake = block + 3 * n;
    r->dip = block + 4 * n;
    r->stk = block + 5 * n;
    return 0;
}

void erf_rupture_free(erf_rupture *r) {
    free(r->lat);
    memset(r, 0, sizeof *r);
}
