/* One IM at one annual probability over every site of a study (`cybershake hazard map`, the
 * report's sites map): each site's newest finished run, its level with the curves' rule
 * (site_level.h), NaN for a site without one, or whose run's band does not give the IM
 * (formats/im_band.h: listed as outside the band, left out). */
#ifndef HAZARD_MAP_H
#define HAZARD_MAP_H

#include <stdio.h>

#include "hazard_db.h"

typedef struct {
    int n;                     /* every site of the study, by short name */
    int nvalues;               /* of them with a finished run */
    double *lon, *lat, *value; /* value NaN: no finished run */
    long long *run;            /* 0: none */
    long long erf_id;          /* the forecast of the runs with values (the first's) */
    double time_span;          /* its years */
    int mixed_erfs;            /* 1: runs of other forecasts too */
    const char **names;
    char units[32], imname[64];
    void *sites; /* owned */
} hazard_map;

/* Fills m; the table (site, lon, lat, run, value) goes to `table` when it is not NULL. An error
 * when the study lacks the IM for a run, or no site has a finished run, or none whose band gives
 * the IM (then the message names the IM, the band and the rule). */
int hazard_map_collect(cs_db *db, const char *study, const hazard_im *im, double annual,
                       hazard_map *m, FILE *table, cs_error *err);
void hazard_map_free(hazard_map *m);

#endif
