/* SAC binary files (little-endian, header version 6) of one component, for a single record:
 * evenly sampled velocity in m/s from B = start time, station at the site, component azimuth
 * and incidence as SAC defines them (CMPAZ from north, CMPINC from vertical up = 0). */
#ifndef SAC_H
#define SAC_H

#include "cs_error.h"

typedef struct {
    double dt, begin;
    double stla, stlo;
    double cmpaz, cmpinc;
    const char *station, *component, *event;
} sac_meta;

int sac_write(const char *path, const sac_meta *m, const float *data, int n, cs_error *err);

#endif
