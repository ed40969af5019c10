/* SAC binary files (little-endian, header version 6) of one component, for a single record:
 * evenly sampled velocity given in m/s and written in SAC's nm/s (IDEP = IVEL), from B = start
 * time after the rupture's origin (IZTYPE = IO, O = 0, reference 1970-001 00:00:00), station
 * KSTNM at the site, event KEVNM, component azimuth and incidence as SAC defines them (CMPAZ
 * from north, CMPINC from vertical up = 0). */
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
