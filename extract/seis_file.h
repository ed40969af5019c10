/* Seismogram files of a site run (docs/extract.md): one HDF5 file holding every record,
 * addressable by (source, rupture, variation).
 *
 *   /index     int64 [n][3]        source, rupture, variation; sorted
 *   /velocity  float32 [n][3][nt]  E, N, Z (up) in m/s, sample m at t = m dt after the
 *                                  rupture's origin time
 *   attributes dt, nt, start_time (0), components, units, site_lon_lat, run_id
 *
 * While a run is under way each rupture's records go into a part file (DIR.parts/S_R.h5, same
 * layout), written under a temporary name and renamed into place; the run's file is assembled
 * from the parts at the end, again under a temporary name. */
#ifndef SEIS_FILE_H
#define SEIS_FILE_H

#include "cs_error.h"
#include "cs_sha256.h"

typedef struct {
    double dt;
    int nt;
    double site_lon, site_lat;
    long long run_id;
} seis_meta;

/* The part-file folder of a run's seismogram file ("FILE.parts"). */
void seis_parts_dir(const char *final_path, char *dir, size_t size);

int seis_write_part(const char *dir, long long source, long long rupture, int nvar,
                    const seis_meta *m, const float *seis, cs_error *err);

typedef struct {
    long long source, rupture;
} seis_rupture;

/* Assembles the parts of the ruptures listed (in that order, each part sorted) into the run's
 * file; then removes the parts. */
int seis_merge(const char *final_path, const seis_rupture *rups, long nrups, const seis_meta *m,
               char sha[CS_SHA256_HEX], long *nrecords, cs_error *err);

/* One record: vel 3 x nt, allocated here. */
int seis_read_record(const char *path, long long source, long long rupture, long long variation,
                     float **vel, seis_meta *m, cs_error *err);

#endif
