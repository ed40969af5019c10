/* `cybershake hazard map --basemap`: a GMPE hazard map on a regular longitude-latitude grid over
 * the study's sites, and CyberShake's "interpolated difference" map made from it
 * (docs/hazard.md, "Basemaps and the interpolated difference"):
 *
 *   basemap(node)  the level at the annual probability from classical PSHA over the study's
 *                  forecast at the node (gmpe_psha.h, the mean curve of the models, equal or
 *                  NSHM-style weights, of their annual probabilities; the level by
 *                  disagg_level_for_mean: the rule of the site maps), Vs30 a constant or the
 *                  raster's cell (vs30_grid.h);
 *   d(site)        CyberShake's level minus the basemap at the site itself (g; the same Vs30
 *                  field), the difference CyberShake's interpolated-difference maps take;
 *   difference     d interpolated by a thin-plate spline (tps.h) on a plane tangent at the sites'
 *                  mean position, held within the sites' smallest and largest d (GMT surface's
 *                  -Lld -Lud: no difference beyond those measured), times a taper to 0 between
 *                  radius/2 and radius from the nearest site (no difference far from them);
 *   combined       basemap + difference: CyberShake's value at every site, the GMPE's far away.
 *
 * Grid nodes are computed in parallel (OpenMP); progress is logged. */
#ifndef HAZARD_BASEMAP_H
#define HAZARD_BASEMAP_H

#include "forecast.h"
#include "hazard_map.h"
#include "vs30_grid.h"

typedef struct {
    const char *models; /* "bssa14,cy14": the mean of their hazard curves, equal weights;
                           "bssa14:0.3,cy14:0.7": the weighted mean (gmpe_set_parse) */
    double period;      /* s, 0 for PGA */
    int mode;           /* GMPE_SIGMA_* */
    double truncation, max_km;
    double vs30;                       /* m/s, where vs30_grid is NULL */
    const hazard_vs30_grid *vs30_grid; /* or the raster's cell */
    double spacing_km, step_deg;       /* the grid: step_deg > 0 wins */
    double margin_km;                  /* beyond the sites' box */
    double radius_km;                  /* the difference is 0 this far from every site */
    double annual, years;              /* the probability; the forecast's time span */
} hazard_basemap_request;

typedef struct {
    int nlon, nlat;
    double lon0, lat0, dlon, dlat;     /* node (i, j) at lon0 + i dlon, lat0 + j dlat */
    double *vs30, *base, *diff, *comb; /* [j * nlon + i], NAN where no value */
    int ns;                            /* the map's sites with a value */
    const char **names;
    double *slon, *slat, *svs30, *cs, *sbase, *sdiff, *sinterp; /* sinterp: the surface there */
    int nused;                                                  /* sites in the interpolation */
    double lon_ref, lat_ref;                                    /* the plane's origin */
    long nodes, nodes_nan, nodes_nonpositive;
    double seconds;     /* the grid's wall time */
    double cpu_seconds; /* and the CPU time of all its threads */
    int threads;
} hazard_basemap;

/* The plane of the interpolation (km): x = R cos(lat_ref) (lon - lon_ref), y = R (lat - lat_ref),
 * angles in radians, R = 6371.0088 km. */
void hazard_basemap_plane(const hazard_basemap *b, double lon, double lat, double *x, double *y);
/* The taper of the difference at distance d (km) from the nearest site: 1 to radius / 2, a
 * half cosine down to 0 at radius, 0 beyond. */
double hazard_basemap_taper(double d_km, double radius_km);

int hazard_basemap_compute(const hazard_forecast *f, const hazard_map *m,
                           const hazard_basemap_request *rq, hazard_basemap *out, cs_error *err);
void hazard_basemap_free(hazard_basemap *b);

typedef struct {
    const char *title;   /* "SA(3) RotD50 at 2% in 50 yr" */
    const char *units;   /* "g" */
    const char *models;  /* labels */
    const char *history; /* the command line */
    double annual;
} hazard_basemap_meta;

/* NetCDF (classic format, 64-bit offsets) with CF-1.8 metadata: lon and lat coordinate
 * variables, vs30, basemap, difference and combined on (lat, lon), a WGS84 grid mapping;
 * written under a temporary name and renamed into place. */
int hazard_basemap_write_netcdf(const char *path, const hazard_basemap *b,
                                const hazard_basemap_meta *meta, cs_error *err);
/* lon, lat, vs30, basemap, difference, combined: a row a node (NaN where no value). */
int hazard_basemap_write_csv(const char *path, const hazard_basemap *b,
                             const hazard_basemap_meta *meta, cs_error *err);
/* site, lon, lat, vs30, cybershake, basemap, difference, interpolated. */
int hazard_basemap_write_sites_csv(const char *path, const hazard_basemap *b,
                                   const hazard_basemap_meta *meta, cs_error *err);

#endif
