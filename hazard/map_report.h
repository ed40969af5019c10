/* One IM at one probability over the sites of a study, as `cybershake hazard map` asks for
 * it: the table of the sites' values (each site's newest finished run), a CSV and a map; or,
 * with a basemap, CyberShake's interpolated-difference map over a GMPE basemap (docs/hazard.md).
 * The report goes to out. */
#ifndef MAP_REPORT_H
#define MAP_REPORT_H

#include <stdio.h>

#include "cs_error.h"

/* The basemap's options; models NULL: no basemap. */
typedef struct {
    const char *models, *sigma, *vs30_grid, *netcdf, *sites_csv, *plot_basemap, *plot_difference;
    double truncation, max_km, vs30, spacing, step, margin, radius;
} map_basemap_args;

typedef struct {
    const char *study;
    const char *im, *poe;   /* 'RotD50 3.0', '2% in 50 yr' */
    const char *plot, *csv; /* NULL: none */
    map_basemap_args basemap;
    int argc; /* the command line, recorded in the NetCDF's history */
    char *const *argv;
} map_request;

/* CS_ERR_USAGE: a basemap for a measure other than SA and PGA. */
int hazard_map_report(const map_request *rq, FILE *out, cs_error *err);

#endif
