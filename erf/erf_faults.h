/* Fault sources to ruptures: the planar-fault description of the 2008 USGS NSHM California
 * fault files as tabulated in faults.csv and traces.csv (erf/demo/README.md gives the columns
 * and their provenance), turned into gridded ruptures with annual rates.
 *
 * Rules (those of the NSHM hazard code, hazFXnga7c, where it has one):
 *  - every MFD row is a weighted alternative; its rates are multiplied by rel_weight x
 *    file_weight, so the forecast is the logic tree's mean-rate model;
 *  - the surface: the trace resampled at the grid spacing, dipping to the right of the
 *    first-to-last azimuth (right-hand rule), from top_km down the down-dip width;
 *  - characteristic: one rupture of the whole surface at char_M;
 *  - GR: bins centred at Mmin + dM/2 + i dM, n = int((Mmax - dM/2 + 1e-4 - (Mmin + dM/2))/dM
 *    + 1.4), annual rate 10^(a - b M_i) each; GR+b0 splits the weight in half between that and
 *    a b = 0 branch of the same moment rate; each bin floats a rupture of area
 *    10^(M - 4.2) km^2 (Ellsworth-B) where that is >= 500 km^2, else 10^((M - 4.07)/0.98)
 *    (Wells-Coppersmith), full down-dip width, length capped at the fault's, stepping along
 *    strike by float_step_km, the bin's rate shared equally;
 *  - probability over the time span T: P = 1 - exp(-rate T) (Poisson).
 * Not reproduced: the aleatory magnitude spread of some files (sdal), and the extra deeper
 * rupture tops of GR faults near a site; both are documented in docs/erf.md. */
#ifndef ERF_FAULTS_H
#define ERF_FAULTS_H

#include <stdint.h>

#include "erf_rupture.h"

typedef struct {
    char key[64]; /* faults.csv source_id, e.g. "bFault.ch:L540" */
    char name[128];
    int mfd_type; /* 1 characteristic, 2 GR, -2 GR + b0 */
    double rake, dip, width_km, top_km;
    double char_m, char_rate;
    double gr_a, gr_b, gr_mmin, gr_mmax, gr_dm;
    double weight;     /* rel_weight x file_weight */
    uint64_t row_hash; /* of the whole row as read: a row given twice is refused */
    int line;          /* of its row in faults.csv, for messages */
} erf_fault_branch;

typedef struct {
    char key[64];
    char name[128];
    int index; /* Source_ID: the entry's position in faults.csv (0-based) */
    int nbranches;
    erf_fault_branch *branches;
    int ntrace;
    double *trace_lat, *trace_lon;
} erf_fault_source;

typedef struct {
    int nsources;
    erf_fault_source *sources;
} erf_fault_set;

int erf_faults_read(const char *faults_csv, const char *traces_csv, erf_fault_set *set,
                    cs_error *err);
void erf_faults_free(erf_fault_set *set);

/* Minimum distance (km) from (lon, lat) to a source's trace, sampled every 100 m. */
double erf_fault_trace_distance(const erf_fault_source *s, double lon, double lat);

typedef struct {
    double spacing_km;      /* 1 */
    double float_step_km;   /* 5 */
    double time_span_years; /* 1 */
} erf_build_options;

/* Calls emit for every rupture of the source (rupture ids from 0), with its annual rate. */
typedef int (*erf_emit)(const erf_rupture *r, double annual_rate, const char *source_key, void *ctx,
                        cs_error *err);
int erf_fault_ruptures(const erf_fault_source *s, const erf_build_options *o, erf_emit emit,
                       void *ctx, cs_error *err);

/* Magnitude-area relation of the NSHM California floaters (km^2). */
double erf_nshm_area(double magnitude);

#endif
