/* A disaggregation as `cybershake hazard disagg` (and `cybershake db disagg`) asks for it: the
 * run's curve disaggregated at a level or an annual probability, stored in the study, reported
 * (means, modes, the leading ruptures, the M x Rrup table) and optionally drawn. */
#ifndef DISAGG_REPORT_H
#define DISAGG_REPORT_H

#include <stdio.h>

#include "cs_error.h"
#include "disagg.h"

typedef struct {
    const char *study; /* study database */
    const char *run;   /* run id or site short name */
    const char *im;    /* 'RotD50 3.0' */
    const char *poe;   /* '2% in 50 yr' or an annual probability; NULL: level */
    double level;      /* NAN: poe */
    long top;          /* ruptures listed and stored */
    disagg_bins bins;
    const char *plot; /* PNG or SVG of the M x Rrup shares; NULL: none */
    int if_reached;   /* a --poe the curve never reaches is reported, not an error */
} disagg_request;

/* Computes, stores and reports (to out) the disaggregation rq asks for. */
int disagg_report(const disagg_request *rq, FILE *out, cs_error *err);

#endif
