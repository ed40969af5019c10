/* The intensity at which a run's hazard curve reaches an annual probability of exceedance,
 * computed from the run's values (the same rule as the curve and the disaggregation), for
 * maps (one IM, many sites) and uniform hazard spectra (one site, many periods). */
#ifndef SITE_LEVEL_H
#define SITE_LEVEL_H

#include "hazard_db.h"

/* *level in the IM type's units (units filled when not NULL). */
int site_level(cs_db *db, const hazard_run *run, long long type_id, double annual, double *level,
               cs_error *err);

#endif
