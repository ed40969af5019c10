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

/* A forecast's ruptures and their points in memory (read once, then seen from many places:
 * `hazard map --basemap` computes every grid node from one copy). Each rupture keeps a bounding
 * circle on the sphere, so a place farther than max_km from all its points is passed over
 * without the geodesic distances (the sphere's error bound, CS_GEO_SPHERE_ERROR, keeps that
 * exact: only ruptures whose Rrup is surely beyond max_km are skipped). */
typedef struct hazard_forecast hazard_forecast;
int hazard_forecast_read(cs_db *db, long long erf_id, hazard_forecast **out, cs_error *err);
long hazard_forecast_count(const hazard_forecast *f); /* ruptures */
void hazard_forecast_free(hazard_forecast *f);
/* hazard_forecast_load's entries from a forecast in memory; safe to call from several threads
 * at once on the same forecast. */
int hazard_forecast_near(const hazard_forecast *f, double lon, double lat, double max_km,
                         hazard_forecast_rupture **out, long *n, cs_error *err);

/* Every rupture (or area point) of forecast erf_id with Rrup <= max_km from (lon, lat): *out
 * malloc'ed, *n of them; *nall counts the forecast's ruptures. */
int hazard_forecast_load(cs_db *db, long long erf_id, double lon, double lat, double max_km,
                         hazard_forecast_rupture **out, long *n, long *nall, cs_error *err);

/* The table of hazard_forecast_load's entries as CSV (temporary name, then renamed). */
int hazard_forecast_write_csv(const char *path, const hazard_forecast_rupture *r, long n,
                              cs_error *err);

#endif
