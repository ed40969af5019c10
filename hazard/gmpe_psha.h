/* Classical PSHA's ruptures under a ground-motion model: each entry of a forecast seen from a
 * place (forecast.h) becomes one lognormal rupture of the hazard integrator (hazard_curve.h)
 * with the model's median and sigma, under one of the sigma rules. `hazard gmpe-curve` (one
 * site) and `hazard map --basemap` (every grid node) both build their curves here. */
#ifndef GMPE_PSHA_H
#define GMPE_PSHA_H

#include "forecast.h"
#include "hazard_curve.h"

enum { GMPE_SIGMA_UNTRUNCATED, GMPE_SIGMA_UPPER, GMPE_SIGMA_TWO_SIDED, GMPE_SIGMA_ZERO };

typedef struct {
    double period;     /* s; 0 for PGA */
    int mode;          /* GMPE_SIGMA_* */
    double truncation; /* sigmas, for upper and two-sided */
    double vs30;       /* m/s */
    double z1_m;       /* depth to Vs 1 km/s (m), NAN: unknown (the models' own estimates) */
    double z2p5_km;    /* depth to Vs 2.5 km/s (km), NAN: unknown */
} gmpe_psha;

/* The sigma rule by name (untruncated, upper, two-sided, zero); -1 for another name. */
int gmpe_psha_mode(const char *name);

/* rups[q] for each of the n entries: probability, the model's ln median (the median itself in
 * lnm[q] for the rule zero, a step) and sigma; lnm holds n values the ruptures point into. */
int gmpe_psha_ruptures(const char *model, const gmpe_psha *p, const hazard_forecast_rupture *fr,
                       long n, double *lnm, hazard_rupture *rups, cs_error *err);

#endif
