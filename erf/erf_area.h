/* Area sources (gridded seismicity) for classical PSHA: a polygon, a grid of point sources
 * inside it at one or more depths (equally likely), a truncated exponential (Gutenberg-Richter)
 * magnitude-frequency distribution in bins, and one mechanism. Each magnitude bin becomes one
 * rupture of Source_Type 'area' whose points are the grid (rows: depths; columns: grid points);
 * classical PSHA takes them as equally likely point sources (hazard/forecast.h), CyberShake's
 * simulations leave them out (they are not fault ruptures). The grid is laid in a flat frame
 * (x north, y east, km, on a sphere of 6371 km) about `origin`, cells of spacing_km with the
 * points at their centres, as PEER's Set 1 area cases define it. */
#ifndef ERF_AREA_H
#define ERF_AREA_H

#include "cs_error.h"
#include "erf_faults.h"

#define ERF_AREA_MAX_DEPTHS 32

typedef struct {
    double (*poly)[2]; /* lon, lat of the vertices */
    int nv;
    double origin_lon, origin_lat;
    double spacing_km;
    double depth_km[ERF_AREA_MAX_DEPTHS];
    int ndepths;
    double rate, b, mmin, mmax, dm; /* annual rate of M >= mmin; b value; bin width */
    double rake, dip, strike;
    long long source_id;
    char name[160];
    double time_span_years;
} erf_area_source;

/* Reads the polygon: one "lon,lat" per line (a header line is allowed), at least 3 vertices. */
int erf_area_read_polygon(const char *path, erf_area_source *a, cs_error *err);
/* Sets the origin to the mean of the vertices. */
void erf_area_default_origin(erf_area_source *a);
/* The grid points inside the polygon (malloc'ed lon, lat arrays). */
int erf_area_grid(const erf_area_source *a, double **lon, double **lat, long *n, cs_error *err);
/* Emits one rupture per magnitude bin (rupture ids 0, 1, ...; probability over the time span
 * from the bin's annual rate). */
int erf_area_ruptures(const erf_area_source *a, erf_emit emit, void *ctx, long *npoints,
                      cs_error *err);

/* What erf_area_add wrote. */
typedef struct {
    long long erf_id;
    long npoints;      /* grid points */
    long nruptures;    /* magnitude bins */
    double total_rate; /* earthquakes per year, all bins */
} erf_area_added;

/* Adds area source a to forecast `name` of the study at `study`, in one transaction: the
 * forecast is created when new (a's time span; `inputs` records how the source was made), an
 * existing one's time span replaces a's. a->source_id >= 0 asks for that id (refused when the
 * forecast has it); -1 takes the next free one, and a->source_id is set to it. */
int erf_area_add(const char *study, const char *name, const char *inputs, erf_area_source *a,
                 erf_area_added *out, cs_error *err);

#endif
