/* The medium a rupture sits in, from a 1D velocity model (fk1d, depth-table, ucvm1d): shear
 * speed and density by depth, for the rupture generator's rigidity and rupture speed, and the
 * extremes over a depth range for planning. 3D models are on the simulation grid and need a
 * box; the generator uses the 1D model of the study's region. */
#ifndef ERF_MEDIUM_H
#define ERF_MEDIUM_H

#include "cs_error.h"
#include "sgt_model.h"

typedef struct {
    sgt_model model;
} erf_medium;

int erf_medium_open(erf_medium *m, const char *format, const char *path, cs_error *err);
void erf_medium_close(erf_medium *m);
/* rupgen_medium: vs (m/s) and rho (kg/m^3) at depth (km); lon and lat are not used (1D). */
int erf_medium_query(double lon, double lat, double depth_km, double *vs, double *rho, void *ctx,
                     cs_error *err);
/* Smallest Vs and largest Vp (m/s) from the surface to depth_km, with a Vs floor applied
 * (Vp raised to keep Vp/Vs >= 1.45 where the floor lifts Vs, as the mesh does). */
int erf_medium_extremes(const erf_medium *m, double depth_km, double vs_floor, double *vs_min,
                        double *vp_max, cs_error *err);

#endif
