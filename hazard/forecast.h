/* The ruptures of a forecast as classical PSHA sees them from one site: magnitude, probability,
 * mechanism and the distances of erf_distance.h, for every rupture within a distance.
 *
 * A rupture whose Source_Type is 'area' (gridded seismicity, `cybershake erf add-area`) is one
 * magnitude bin of an area source: each of its N points is an equally likely point source, so
 * it enters as N point ruptures of probability 1 - (1 - P)^(1/N) each, which gives exactly
 * P(IM > x | rupture) = the mean over its points in the hazard integral. */
#ifndef HAZARD_FORECAST_H
#define HAZARD_FORECAST_H

#include "cs_db.h"
#include "erf_distance.h"

typedef struct {
    long long source_id, rupture_id;
    long point; /* the point of an area rupture, -1 otherwise */
    double mag, prob, rake, dip;
    erf_distances d;
} hazard_forecast_rupture;

/* Every rupture (or area point) of forecast erf_id with Rrup <= max_km from (lon, lat): *out
 * malloc'ed, *n of them; *nall counts the forecast's ruptures. */
int hazard_forecast_load(cs_db *db, long long erf_id, double lon, double lat, double max_km,
                         hazard_forecast_rupture **out, long *n, long *nall, cs_error *err);

/* The table of hazard_forecast_load's entries as CSV (temporary name, then renamed). */
int hazard_forecast_write_csv(const char *path, const hazard_forecast_rupture *r, long n,
                              cs_error *err);

#endif
