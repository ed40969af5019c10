#include "site_level.h"

#include "disagg.h"

int site_level(cs_db *db, const hazard_run *run, long long type_id, double annual, double *level,
               cs_error *err) {
    hazard_set set;
    CS_CALL(err, hazard_load(db, run, type_id, &set, err));
    int rc = disagg_level_for(set.rups, set.n, run->time_span, annual, level, err);
    hazard_set_free(&set);
    return rc;
}
