/* Classical PSHA at a site over a whole forecast with ground-motion models, as `cybershake hazard
 * gmpe-curve` asks for it: every rupture of the forecast within max_km, its magnitude,
 * probability and rake from the study, its distances from its surface points (forecast.h), each
 * model's median and sigma, the curve by the same integrator as the simulated curves; stored as
 * curves of the site without a run, reported at 2% and 10% in 50 years, written as CSV and
 * drawn; with weights, their weighted mean (the mean of the models' probabilities of exceedance)
 * as one more curve, stored, reported, written (PREFIX_mean.csv) and drawn. */
#ifndef GMPE_REPORT_H
#define GMPE_REPORT_H

#include <stdio.h>

#include "cs_error.h"

typedef struct {
    const char *study, *site, *erf, *im;
    const char *models; /* gmpe_set_parse's form: names, or names with weights */
    const char *sigma;  /* its name, as reported */
    int mode;           /* 0 untruncated, 1 upper, 2 two-sided, 3 zero (median only) */
    double truncation;  /* sigmas, modes 1 and 2 */
    double vs30;        /* NAN: the site's, or 760 m/s */
    double z1_m;        /* NAN: the site's, or unknown */
    double z2p5_km;     /* NAN: the site's, or unknown */
    double max_km;
    const char *levels;   /* "L1,L2,..."; NULL: the default levels */
    const char *csv;      /* PREFIX of PREFIX_MODEL.csv; NULL: none */
    const char *plot;     /* NULL: none */
    const char *ruptures; /* CSV of the ruptures and distances; NULL: none */
} gmpe_request;

int gmpe_report(const gmpe_request *rq, FILE *out, cs_error *err);

#endif
