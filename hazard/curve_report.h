/* The hazard curve of a run as `cybershake hazard curve` asks for it: P(IM > x) from the run's
 * amplitudes at the given levels, stored in the study under a dataset recording the inputs,
 * reported at 2% and 10% in 50 years, written as OpenQuake CSV and drawn; optionally with
 * classical GMPE curves over the same ruptures by the same integrator, stored and drawn beside
 * it, and with weights their weighted mean (the mean of the models' probabilities of exceedance),
 * stored, written and drawn as one more curve. */
#ifndef CURVE_REPORT_H
#define CURVE_REPORT_H

#include <stdio.h>

#include "cs_error.h"

typedef struct {
    const char *study, *run; /* study database; run id or site */
    const char *im;          /* 'RotD50 3.0' */
    const char *levels;      /* "L1,L2,..."; NULL: the default levels */
    const char *csv, *plot;  /* NULL: none */
    const char *gmpe;        /* models to compare, gmpe_set_parse's form; NULL: none */
    double vs30;             /* NAN: the site's, or 760 m/s */
    double z1_m, z2p5_km;    /* NAN: the site's, or unknown (each model's own handling) */
    double truncation;       /* sigmas (0: untruncated) */
} curve_request;

int hazard_curve_report(const curve_request *rq, FILE *out, cs_error *err);

#endif
