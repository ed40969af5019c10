/* The hazard stage's small inputs and outputs shared by its commands and reports: hazard levels
 * given on a command line, and a curve as OpenQuake's hazard-curve CSV. */
#ifndef HAZARD_IO_H
#define HAZARD_IO_H

#include "hazard_db.h"

#define HAZARD_MAX_LEVELS 1000

/* "L1,L2,..." (increasing, positive, at most HAZARD_MAX_LEVELS) into levels. */
int hazard_parse_levels(const char *text, double *levels, int *n, cs_error *err);
/* OpenQuake's hazard-curve CSV of one site's curve (probabilities over the time span). */
int hazard_write_csv(const char *path, const hazard_run *r, const char *imname, const char *units,
                     const double *levels, const double *poe, int n, cs_error *err);

#endif
