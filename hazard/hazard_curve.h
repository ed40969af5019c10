/* Hazard curves from rupture variations (docs/hazard.md):
 *
 *     P(IM > x) = 1 - prod_r (1 - P_r)^{P(IM > x | r)}
 *
 * with P_r the rupture's probability over the forecast's time span and P(IM > x | r) the
 * fraction of its variations whose value exceeds x (equal weights; strictly greater). That
 * fraction is the one rule the curves and the disaggregation share (docs/hazard.md). Sums of
 * logarithms are kept in double precision. */
#ifndef HAZARD_CURVE_H
#define HAZARD_CURVE_H

#include "cs_error.h"

typedef struct {
    double prob; /* over the time span */
    int nvalues;
    double *values; /* the rupture's variations' IM values, sorted ascending */
    /* or, for classical PSHA with a ground-motion model (GMPE curves), the same integrator with
     * lognormal variations: values are ln medians (floating positions of a rupture, equally
     * likely) and P(IM > x | r) is the mean of 1 - Phi((ln x - value) / sigma) over them,
     * truncated at `trunc` sigmas (0: not) and renormalised over the upper tail only
     * (nshmp-haz's choice, upper_only = 1) or over both tails. A ground-motion sigma of 0 is the
     * plain values case with the medians as values. */
    int lognormal;
    double sigma, trunc;
    int upper_only;
} hazard_rupture;

/* The default levels: 51 values log-spaced from 1e-4 to 10 (g). */
void hazard_default_levels(double *levels, int *n);

/* Fraction of the rupture's values strictly above x (or the lognormal's exceedance). */
double hazard_exceedance(const hazard_rupture *r, double x);

/* Curve at each level: poe[i] = P(IM > levels[i]) over the time span. Values of each rupture
 * must be sorted (hazard_sort_values). */
int hazard_curve(const hazard_rupture *rups, long nrups, const double *levels, int nlevels,
                 double *poe, cs_error *err);
void hazard_sort_values(hazard_rupture *r);

/* Probability p over `years` to annual probability, through the Poisson rate:
 * 1 - (1 - p)^(1/years) (so 2% in 50 years is 4.04e-4 per year). */
double hazard_annual(double p, double years);
/* The level at which a curve crosses annual probability pa (log-log interpolation); NAN when it
 * never does within the levels. */
double hazard_level_at(const double *levels, const double *annual, int n, double pa);

#endif
