/* A Vs30 raster for `hazard map --basemap --vs30-grid FILE`: an ESRI ASCII grid (the plain text
 * raster GDAL, QGIS and ArcGIS read and write as "AAIGrid"), in degrees of longitude and
 * latitude (WGS84):
 *
 *     ncols 120
 *     nrows 80
 *     xllcorner -118.6      (or xllcenter: the centre of the lower left cell)
 *     yllcorner 33.8        (or yllcenter)
 *     cellsize 0.005
 *     NODATA_value -9999    (optional)
 *     760 760 540 ...       nrows rows of ncols values, the northernmost row first
 *
 * Keywords in any case; values in m/s, each NODATA or within [100, 3000]; rows may wrap over
 * several lines. A place takes the value of the cell holding it (a cell is the area it covers:
 * no interpolation across the categories a Vs30 map is usually made of). Every error names the
 * file, the line, the value and the rule. */
#ifndef HAZARD_VS30_GRID_H
#define HAZARD_VS30_GRID_H

#include "cs_error.h"

typedef struct {
    int ncols, nrows;
    double west, south, cell; /* the lower left corner of the lower left cell; degrees */
    double *v;                /* row 0 the northernmost; NAN where NODATA */
} hazard_vs30_grid;

int hazard_vs30_grid_read(const char *path, hazard_vs30_grid *g, cs_error *err);
/* The value at (lon, lat): 0 and *vs30 (NAN on a NODATA cell), or 1 when the place is outside
 * the grid. */
int hazard_vs30_grid_at(const hazard_vs30_grid *g, double lon, double lat, double *vs30);
void hazard_vs30_grid_free(hazard_vs30_grid *g);

#endif
