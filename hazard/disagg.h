/* Disaggregation of a hazard curve at one level x (docs/hazard.md): each rupture contributes
 *
 *     c_r = lambda_r P(IM > x | r) / sum_r lambda_r P(IM > x | r),   lambda_r = -ln(1 - P_r),
 *
 * with P(IM > x | r) the same exceedance rule as the curve's (hazard_exceedance), so the
 * contributions add up to the curve at x. Bins: magnitude x Rrup x epsilon, where a rupture's
 * epsilon at x is (ln x - mean) / sd of the ln of its variations' values (of its lognormal
 * variations' ln medians and sigma for GMPE curves); 0 when they do not vary. Means are the
 * contribution-weighted means of M, Rrup and epsilon; the modal values are the centre of the
 * bin with the largest contribution. */
#ifndef DISAGG_H
#define DISAGG_H

#include "cs_error.h"
#include "hazard_curve.h"

#define DISAGG_MAX_EDGES 64

typedef struct {
    int nm, nr, ne; /* bins: edges have n + 1 values */
    double m[DISAGG_MAX_EDGES], r[DISAGG_MAX_EDGES], e[DISAGG_MAX_EDGES];
} disagg_bins;

/* PEER Set 2 Case 1's request: M 5.0..7.0 by 0.1 (and below/above), Rrup 0..100 km by 20 (and
 * 100..1000), epsilon < -1, -1..0, 0..1, 1..2, > 2 (outer edges +-1e9, -1e9 for M below). */
void disagg_default_bins(disagg_bins *b);
/* "a,b,c" edges (increasing, at least two) for one axis. */
int disagg_parse_edges(const char *text, const char *what, double *edges, int *nbins,
                       cs_error *err);

typedef struct {
    double level;
    double total; /* sum_r lambda_r P(IM > x | r): the rate of exceedance over the time span */
    double mean_m, mean_r, mean_eps;
    double mode_m, mode_r, mode_eps;
    double *bins;         /* nm x nr x ne contributions (fractions) */
    double *contribution; /* per rupture (fractions), in the set's order */
    double *eps;          /* per rupture */
} disagg_result;

int disagg_compute(const hazard_rupture *rups, const double *mag, const double *rrup, long n,
                   double level, const disagg_bins *b, disagg_result *out, cs_error *err);
void disagg_free(disagg_result *d);

/* The level at which the curve reaches annual probability pa (time span in years): bisection on
 * the curve in ln x between 1e-8 and 1e3; an error when the curve never reaches it. */
/* The largest annual probability of exceedance the ruptures' curve reaches (at 1e-8, the
 * smallest level disagg_level_for searches). */
int disagg_largest_annual(const hazard_rupture *rups, long n, double years, double *pa,
                          cs_error *err);
int disagg_level_for(const hazard_rupture *rups, long n, double years, double pa, double *level,
                     cs_error *err);
/* The same for the mean of several curves' annual probabilities, weighted by w (summing to 1;
 * NULL: equal weights, the branches of a logic tree of ground-motion models); one set is
 * disagg_level_for. */
int disagg_level_for_mean(const hazard_rupture *const *sets, const long *n, const double *w,
                          int nsets, double years, double pa, double *level, cs_error *err);

/* "2% in 50 yr", "10% in 50 years", or an annual probability "4.04e-4". */
int disagg_parse_poe(const char *text, double *annual, cs_error *err);

#endif
