/* A PEER PSHA verification case as `cybershake hazard peer` runs it: built from its definition
 * (peer.h), the annual probabilities of exceedance at the PEER levels for the chosen sites,
 * reported, compared with a published reference (the largest relative difference where both are
 * nonzero, sigma = 0 cut-offs recognised), written as CSV and drawn. */
#ifndef PEER_REPORT_H
#define PEER_REPORT_H

#include <stdio.h>

#include "cs_error.h"
#include "peer.h"

typedef struct {
    const char *id;         /* the case: 1, 2, 3, 4, 5, 6, 7, 8a, 8b, 8c, 10, 11 */
    int want[7];            /* the sites to compute (1: yes) */
    peer_options po;        /* rupture spacing, area-source grid */
    const char *reference;  /* published values to compare with; NULL: none */
    double tolerance;       /* largest relative difference allowed */
    const char *csv, *plot; /* NULL: none */
} peer_request;

/* *nbad: the levels whose difference from the reference exceeds the tolerance, or whose zero
 * lies away from any cut-off (0 without a reference). */
int peer_report(const peer_request *rq, FILE *out, int *nbad, cs_error *err);

#endif
