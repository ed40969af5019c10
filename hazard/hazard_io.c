#include "hazard_io.h"

#include <stdio.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_strutil.h"
#include "cs_version.h"

int hazard_parse_levels(const char *text, double *levels, int *n, cs_error *err) {
    char buf[16384];
    cs_copy(buf, sizeof buf, text);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        double v;
        char *s = cs_trim(t);
        if (cs_parse_double(s, &v) || !(v > 0))
            return cs_error_input(err, "--levels", NULL, s, "a level is a positive number");
        if (*n == HAZARD_MAX_LEVELS)
            return cs_error_input(err, "--levels", NULL, text, "at most %d levels",
                                  HAZARD_MAX_LEVELS);
        if (*n > 0 && !(v > levels[*n - 1]))
            return cs_error_input(err, "--levels", NULL, s, "levels must increase");
        levels[(*n)++] = v;
    }
    if (*n < 2) return cs_error_input(err, "--levels", NULL, text, "give at least two levels");
    return 0;
}

/* OpenQuake's hazard-curve CSV: a metadata comment line, then lon, lat, poe-<level>... with
 * probabilities of exceedance in the investigation time. */
int hazard_write_csv(const char *path, const hazard_run *r, const char *imname, const char *units,
                     const double *levels, const double *poe, int n, cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f,
            "#,,\"generated_by='cybershake %s', kind='cybershake', investigation_time=%g, "
            "imt='%s', units='%s', site='%s', run_id=%lld\"\n",
            CS_VERSION, r->time_span, imname, units, r->site, r->run_id);
    fprintf(a.f, "lon,lat");
    for (int i = 0; i < n; i++)
        fprintf(a.f, ",poe-%.6g", levels[i]);
    fprintf(a.f, "\n%.6f,%.6f", r->lon, r->lat);
    for (int i = 0; i < n; i++)
        fprintf(a.f, ",%.6e", poe[i]);
    fprintf(a.f, "\n");
    return cs_atomic_commit(&a, NULL, err);
}
