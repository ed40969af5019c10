/* A disaggregation drawn (hazard_plot_disagg): from a result in memory or from the study's
 * rows (Disaggregations, Disagg_Bins), with a title naming the site, the run, the IM, the level
 * and the probability ("2% in 50 years", the annual probability and the return period) and a
 * note with the means and modes. */
#ifndef DISAGG_PLOT_H
#define DISAGG_PLOT_H

#include <stddef.h>

#include "cs_db.h"
#include "disagg.h"

typedef struct {
    const char *site, *imname, *units;
    long long run_id;
    const char *target; /* as stored: "poe 2% in 50 yr", "level 0.05" */
    double level, annual;
    double mean_m, mean_r, mean_eps, mode_m, mode_r, mode_eps;
} disagg_plot_info;

int disagg_plot(const char *path, const disagg_plot_info *info, const disagg_bins *b,
                const double *bins, cs_error *err);

/* The stored disaggregation `id` drawn to path. */
int disagg_plot_stored(cs_db *db, long long id, const char *path, cs_error *err);

/* "2% in 50 years" from a stored target, or the probability in 50 years of an annual one. */
void disagg_probability_text(const char *target, double annual, char *out, size_t size);

#endif
