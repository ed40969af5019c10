/* Forecasts written into a study, the work of `cybershake erf build`, `erf import-geometry` and
 * `erf variations` (erf_cli.c keeps their options and reports): each opens the study, writes in
 * one transaction (rolled back on any failure) and closes it. */
#ifndef ERF_STUDY_H
#define ERF_STUDY_H

#include "cs_error.h"
#include "erf_faults.h"
#include "erf_medium.h"
#include "rupgen.h"

/* A forecast from fault sources: the sources of set that pass the selection, as ruptures. */
typedef struct {
    const char *name;        /* the new forecast's */
    const char *description; /* its description */
    const char *inputs;      /* how it was made (the files and their checksums, the options) */
    const erf_fault_set *set;
    erf_build_options options;
    const char *files; /* comma-separated NSHM file stems to keep ("bFault.ch"), NULL all */
    double near_lat, near_lon, within_km; /* within_km INFINITY: no distance selection */
} erf_build_request;

typedef struct {
    long long erf_id;
    int nsources; /* that passed the selection */
    long nruptures, npoints;
    double total_rate; /* of all ruptures, per year */
} erf_built;

/* Refuses a selection that keeps no source (CS_ERR_INPUT). */
int erf_build_forecast(const char *study, const erf_build_request *q, erf_built *out,
                       cs_error *err);

/* CyberShake rupture geometry files (named SOURCE_RUPTURE.txt) into forecast `name`, created
 * with time span span_years when new. *npoints: the points imported. */
int erf_import_geometry(const char *study, const char *name, double span_years, char *const *files,
                        int nfiles, long long *erf_id, long *npoints, cs_error *err);

/* The rupture variations of forecast `name` as rows of Rupture_Variations under a new scenario,
 * and with srf_dir each selected variation as SRF (DIR/S_R_V.srf, the medium from medium). */
typedef struct {
    const char *name;     /* the forecast */
    const char *scenario; /* the new scenario's name */
    const rupgen_params *params;
    const char *model_format, *model_file; /* recorded with the parameters */
    erf_medium *medium;
    const char *srf_dir;                 /* NULL: rows only */
    long long only_source, only_rupture; /* the SRFs written; -1 all */
} erf_variations_request;

typedef struct {
    long long scenario_id;
    long nrows, nruptures, nsrf;
} erf_variations_made;

int erf_make_variations(const char *study, const erf_variations_request *q,
                        erf_variations_made *out, cs_error *err);

#endif
