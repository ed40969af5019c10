#include "vs30_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cs_lines.h"
#include "cs_strutil.h"

enum { H_NCOLS, H_NROWS, H_XLL, H_YLL, H_CELL, H_NODATA, H_N };

int hazard_vs30_grid_read(const char *path, hazard_vs30_grid *g, cs_error *err) {
    memset(g, 0, sizeof *g);
    cs_lines r;
    CS_CALL(err, cs_lines_open(&r, path, "Vs30 grid", err));
    double h[H_N];
    int have[H_N] = {0}, centre_x = 0, centre_y = 0, rc = 0;
    long nv = 0, total = 0;
    char *line;
    while (!rc && (line = cs_lines_next(&r))) {
        /* the header: keyword value lines until the first line of numbers */
        if (nv == 0 && total == 0 &&
            ((*line >= 'a' && *line <= 'z') || (*line >= 'A' && *line <= 'Z'))) {
            char key[32], val[64], extra[8];
            int k = sscanf(line, "%31s %63s %7s", key, val, extra);
            int which = !strcasecmp(key, "ncols")                                        ? H_NCOLS
                        : !strcasecmp(key, "nrows")                                      ? H_NROWS
                        : !strcasecmp(key, "xllcorner") || !strcasecmp(key, "xllcenter") ? H_XLL
                        : !strcasecmp(key, "yllcorner") || !strcasecmp(key, "yllcenter") ? H_YLL
                        : !strcasecmp(key, "cellsize")                                   ? H_CELL
                        : !strcasecmp(key, "nodata_value")                               ? H_NODATA
                                                                                         : -1;
            if (which < 0 || k != 2)
                rc = cs_error_input(err, r.place, NULL, r.copy,
                                    "a header line is 'KEYWORD VALUE' with KEYWORD one of ncols, "
                                    "nrows, xllcorner, xllcenter, yllcorner, yllcenter, cellsize, "
                                    "NODATA_value");
            else if (have[which])
                rc = cs_error_input(err, r.place, key, val, "given twice");
            else if (cs_parse_double(val, &h[which]) || !isfinite(h[which]))
                rc = cs_error_input(err, r.place, key, val, "is not a number");
            if (rc) break;
            have[which] = 1;
            if (which == H_XLL) centre_x = !strcasecmp(key, "xllcenter");
            if (which == H_YLL) centre_y = !strcasecmp(key, "yllcenter");
            continue;
        }
        if (!g->v) { /* the header is complete */
            static const char *names[H_NODATA] = {"ncols", "nrows", "xllcorner", "yllcorner",
                                                  "cellsize"};
            for (int k = 0; k < H_NODATA && !rc; k++)
                if (!have[k])
                    rc = cs_error_input(err, r.place, names[k], NULL,
                                        "is missing from the header (ncols, nrows, xllcorner or "
                                        "xllcenter, yllcorner or yllcenter, cellsize)");
            if (!rc && (h[H_NCOLS] != floor(h[H_NCOLS]) || h[H_NCOLS] < 1 || h[H_NCOLS] > 1e6 ||
                        h[H_NROWS] != floor(h[H_NROWS]) || h[H_NROWS] < 1 || h[H_NROWS] > 1e6 ||
                        h[H_NCOLS] * h[H_NROWS] > 2e8))
                rc = cs_error_input(err, path, "ncols x nrows", NULL,
                                    "%g x %g: each a whole number from 1 to 1e6, at most 2e8 cells",
                                    h[H_NCOLS], h[H_NROWS]);
            if (!rc && !(h[H_CELL] > 0 && h[H_CELL] <= 10))
                rc = cs_error_input(err, path, "cellsize", NULL, "%g: degrees, in (0, 10]",
                                    h[H_CELL]);
            if (rc) break;
            g->ncols = (int)h[H_NCOLS], g->nrows = (int)h[H_NROWS], g->cell = h[H_CELL];
            g->west = h[H_XLL] - (centre_x ? 0.5 * g->cell : 0);
            g->south = h[H_YLL] - (centre_y ? 0.5 * g->cell : 0);
            total = (long)g->ncols * g->nrows;
            g->v = malloc(sizeof(double) * (size_t)total);
            if (!g->v) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld cells)", total);
                break;
            }
            if (!(g->west >= -180 && g->west + g->ncols * g->cell <= 360 && g->south >= -90 &&
                  g->south + g->nrows * g->cell <= 90)) {
                rc = cs_error_input(err, path, "extent", NULL,
                                    "longitudes %g to %g, latitudes %g to %g: not on the globe "
                                    "(the grid is in degrees)",
                                    g->west, g->west + g->ncols * g->cell, g->south,
                                    g->south + g->nrows * g->cell);
                break;
            }
        }
        for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t && !rc;
             t = strtok_r(NULL, " \t\r", &save)) {
            double v;
            if (nv == total)
                rc = cs_error_input(err, r.place, "value", t,
                                    "more than the header's %d x %d values", g->nrows, g->ncols);
            else if (cs_parse_double(t, &v) || !isfinite(v))
                rc = cs_error_input(err, r.place, "value", t, "is not a number");
            else if (have[H_NODATA] && v == h[H_NODATA])
                g->v[nv++] = NAN;
            else if (!(v >= 100 && v <= 3000))
                rc = cs_error_input(err, r.place, "value", t,
                                    "Vs30 in m/s is within [100, 3000] (or the NODATA_value)");
            else
                g->v[nv++] = v;
        }
    }
    if (!rc && !g->v)
        rc = cs_error_input(err, path, NULL, NULL,
                            "has no values (an ESRI ASCII grid: a header "
                            "of ncols, nrows, xllcorner, yllcorner, "
                            "cellsize, then the rows)");
    if (!rc && nv < total)
        rc = cs_error_input(err, r.place, "values", NULL,
                            "the file ends after %ld of the header's %d x %d values", nv, g->nrows,
                            g->ncols);
    cs_lines_close(&r);
    if (rc) hazard_vs30_grid_free(g);
    return rc;
}

int hazard_vs30_grid_at(const hazard_vs30_grid *g, double lon, double lat, double *vs30) {
    const double fx = (lon - g->west) / g->cell, fy = (lat - g->south) / g->cell;
    /* the edges belong to the grid (to a billionth of a cell: decimal degrees are not exact) */
    if (!(fx >= -1e-9 && fx <= g->ncols + 1e-9 && fy >= -1e-9 && fy <= g->nrows + 1e-9)) return 1;
    int col = (int)fmax(fmin(floor(fx), g->ncols - 1), 0);
    int up = (int)fmax(fmin(floor(fy), g->nrows - 1), 0);
    *vs30 = g->v[(long)(g->nrows - 1 - up) * g->ncols + col];
    return 0;
}

void hazard_vs30_grid_free(hazard_vs30_grid *g) {
    free(g->v);
    g->v = NULL;
}
