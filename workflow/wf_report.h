/* A static HTML report of a study (`cybershake report`): a sites map, and for each run with
 * hazard curves its curves (with the GMPE curves stored beside them), uniform hazard spectrum,
 * disaggregations, the ruptures that dominate them with a seismogram of each from the run's
 * seismogram file, and the run's provenance (the toolkit's version, the configuration and its
 * checksum, steps, files with their checksums). One index.html with inline CSS and the plots as
 * PNG files beside it: no network, no scripts. Written into a temporary folder next to `out`
 * and renamed into place; a report already there is replaced, any other folder is refused. */
#ifndef WF_REPORT_H
#define WF_REPORT_H

#include <stdio.h>

#include "cs_error.h"

typedef struct {
    const char *study; /* study database */
    const char *out;   /* the report's folder */
    int top;           /* dominant ruptures drawn a run */
} wf_report_request;

/* Progress lines go to log. */
int wf_report(const wf_report_request *rq, FILE *log, cs_error *err);

#endif
