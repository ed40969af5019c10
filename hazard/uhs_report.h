/* The uniform hazard spectrum of a run, as `cybershake hazard uhs` asks for it: at each SA
 * period the run has (one component), the spectral acceleration whose annual probability of
 * exceedance is each of the given ones, from the run's values with the curves' rule; reported,
 * written as CSV (period, then one column per probability) and drawn (log-log). */
#ifndef UHS_REPORT_H
#define UHS_REPORT_H

#include <stdio.h>

#include "cs_error.h"

#define UHS_MAX_POE 8

typedef struct {
    const char *study, *run; /* study database; run id or site */
    const char *poe[UHS_MAX_POE];
    int npoe;
    const char *component;
    const char *csv, *plot; /* NULL: none */
} uhs_request;

int hazard_uhs_report(const uhs_request *rq, FILE *out, cs_error *err);

#endif
