/* Seismogram files of a site run (docs/extract.md): one HDF5 file holding every record,
 * addressable by (source, rupture, variation).
 *
 *   /index     int64 [n][3]        source, rupture, variation; sorted
 *   /velocity  float32 [n][3][nt]  E, N, Z (up) in m/s, sample m at t = m dt after the
 *                                  rupture's origin time
 *   attributes dt, nt, start_time (0), components, units, site_lon_lat, run_id, site, fmax
 *              (Hz: the simulated band, formats/im_band.h; absent in files from before it was
 *              kept)
 *
 * While a run is under way each rupture's records go into a part file (DIR.parts/S_R.h5, same
 * layout) as the rupture finishes, written under a temporary name and renamed into place (and
 * readable through seis_read_record from then on); the run's file is assembled from the parts at
 * the end, one part in memory at a time, again under a temporary name. */
#ifndef SEIS_FILE_H
#define SEIS_FILE_H

#include "cs_error.h"
#include "cs_sha256.h"

typedef struct {
    double dt;
    int nt;
    double site_lon, site_lat;
    long long run_id;
    int vertical;  /* 0: a horizontal-only run (forces E and N): Z is NaN */
    char site[32]; /* the site's short name ("" in files written before it was kept) */
    double fmax;   /* Hz, the SGTs' band (0 in files written before it was kept: not known) */
} seis_meta;

/* The `components` attribute with and without a vertical component. */
#define SEIS_COMPONENTS_ENZ "E N Z (Z up)"
#define SEIS_COMPONENTS_EN  "E N (horizontal-only run: Z not simulated, stored as NaN)"

/* The part-file folder of a run's seismogram file ("FILE.parts"). */
void seis_parts_dir(const char *final_path, char *dir, size_t size);

int seis_write_part(const char *dir, long long source, long long rupture, int nvar,
                    const seis_meta *m, const float *seis, cs_error *err);

typedef struct {
    long long source, rupture;
} seis_rupture;

/* Assembles the parts of the ruptures listed (in that order, each part sorted) into the run's
 * file. The parts stay until seis_remove_parts: the caller removes them once the file is
 * recorded, so that a run killed in between still has either the parts or a recorded file. */
int seis_merge(const char *final_path, const seis_rupture *rups, long nrups, const seis_meta *m,
               char sha[CS_SHA256_HEX], long *nrecords, cs_error *err);
void seis_remove_parts(const char *final_path, const seis_rupture *rups, long nrups);

/* One record: vel 3 x nt, allocated here. While the run's file is not yet written, the record
 * is read from its rupture's part file. */
int seis_read_record(const char *path, long long source, long long rupture, long long variation,
                     float **vel, seis_meta *m, cs_error *err);

#endif
