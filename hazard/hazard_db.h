/* The hazard stage's reads and writes in the study: the run and its IM type, each rupture's
 * probability and variation values from PeakAmplitudes, and curves into Hazard_Datasets,
 * Hazard_Curves and Hazard_Curve_Points (X in the IM's units, Y the probability of exceedance
 * over the dataset's time span). */
#ifndef HAZARD_DB_H
#define HAZARD_DB_H

#include <stddef.h>

#include "cs_db.h"
#include "gmpe.h"
#include "hazard_curve.h"

typedef struct {
    char measure[16];
    double period; /* 0 when the measure has none */
    char component[16];
} hazard_im;

/* "RotD50 3.0" (SA at 3 s, RotD50), "geometric mean 5", "SA 3.0 RotD100", "SA 3 Z" (vertical),
 * "FAS 5 E" (FAS at 1/5 Hz), "D5-95 5 E" (at a period), "PGA RotD50", "PGV E", "D5-95 N". Errors
 * name the text and the forms accepted. */
int hazard_im_parse(const char *text, hazard_im *im, cs_error *err);
/* "SA(3.0) RotD50", "PGA RotD50": how outputs name it (OpenQuake's IMT with the component). */
void hazard_im_name(const hazard_im *im, char *out, size_t size);

typedef struct {
    long long run_id, site_id, erf_id, scen_id;
    char site[64];
    double lon, lat;
    double time_span; /* years */
    double max_frequency;
} hazard_run;

/* A run by its id ("12"), or a site's newest run whose extraction finished ("USC"). */
int hazard_run_find(cs_db *db, const char *run_or_site, hazard_run *r, cs_error *err);

/* 0 if the run's band gives the IM (formats/im_band.h: SA at T >= 1/fmax, PGV; a run that
 * records no fmax, every IM); else an error naming the IM, the run's band and the rule. */
int hazard_im_band(const hazard_run *r, const hazard_im *im, cs_error *err);

/* The IM type's id and units; an error listing the run's IM types when it has none such, or
 * naming the band and the rule when the IM is outside the run's band (hazard_im_band): values
 * outside the band are never integrated, whatever PeakAmplitudes holds. */
int hazard_im_type(cs_db *db, const hazard_run *r, const hazard_im *im, long long *type_id,
                   char *units, size_t units_size, cs_error *err);

/* Every rupture of the run with values of the IM type: its probability, sorted values,
 * magnitude and Rrup (km, the closest of its surface points in 3D). Read from
 * Hazard_Rupture_Values, which is built from PeakAmplitudes on first use (one transaction;
 * the extractor clears it whenever it adds a rupture to the run). */
typedef struct {
    long n;
    hazard_rupture *rups;
    long long *source, *rupture; /* n each */
    double *mag, *rrup;          /* n each */
    long nvalues;
} hazard_set;
int hazard_load(cs_db *db, const hazard_run *r, long long type_id, hazard_set *set, cs_error *err);
void hazard_set_free(hazard_set *set);

/* A rupture as the ground-motion models see it from the run's site: the distances of
 * erf_distance.h over its surface points (Rrup, Rjb, Rx, Ztor) and the rake and dip of its
 * first point, into s (magnitude and site terms left to the caller). */
int hazard_rupture_scenario(cs_db *db, const hazard_run *r, long long source, long long rupture,
                            gmpe_scenario *s, cs_error *err);

/* The site's Vs30 (m/s), Z1.0 (m) and Z2.5 (km), each NAN when the study has none for it. */
void hazard_site_values(cs_db *db, const hazard_run *r, double *vs30, double *z1_m,
                        double *z2p5_km);

/* Stores a curve (replacing the run's curve of that IM type in the same dataset) in one
 * transaction; the dataset (forecast, scenario, time span) is found or created with `inputs`. */
int hazard_store(cs_db *db, const hazard_run *r, long long type_id, const double *levels,
                 const double *poe, int n, const char *inputs, long long *curve_id, cs_error *err);

#endif
