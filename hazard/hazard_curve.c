#include "hazard_curve.h"

#include <math.h>
#include <stdlib.h>

void hazard_default_levels(double *levels, int *n) {
    *n = 51;
    for (int i = 0; i < 51; i++)
        levels[i] = pow(10.0, -4.0 + 5.0 * i / 50.0);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void hazard_sort_values(hazard_rupture *r) {
    if (r->lognormal) return;
    qsort(r->values, (size_t)r->nvalues, sizeof(double), cmp_double);
}

static double phi(double z) {
    return 0.5 * erfc(-z / M_SQRT2);
}

static double lognormal_exceedance(const hazard_rupture *r, double x) {
    double lx = log(x), sum = 0, n = r->trunc;
    double top = n > 0 ? phi(n) : 1, norm = n <= 0 ? 1 : r->upper_only ? phi(n) : phi(n) - phi(-n);
    for (int i = 0; i < r->nvalues; i++) {
        double z = (lx - r->values[i]) / r->sigma;
        if (n <= 0)
            sum += 0.5 * erfc(z / M_SQRT2);
        else if (z < n)
            sum += z <= -n && !r->upper_only ? 1.0 : (top - phi(z)) / norm;
    }
    return r->nvalues ? sum / r->nvalues : 0;
}

double hazard_exceedance(const hazard_rupture *r, double x) {
    if (r->lognormal) return lognormal_exceedance(r, x);
    if (r->nvalues == 0) return 0;
    /* the first value > x, by bisection over the sorted values */
    int lo = 0, hi = r->nvalues;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (r->values[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return (double)(r->nvalues - lo) / r->nvalues;
}

int hazard_curve(const hazard_rupture *rups, long nrups, const double *levels, int nlevels,
                 double *poe, cs_error *err) {
    for (int i = 0; i < nlevels; i++) {
        if (!(levels[i] > 0) || (i > 0 && !(levels[i] > levels[i - 1])))
            return cs_error_input(err, "--levels", NULL, NULL,
                                  "intensity levels must be positive and increasing (level %d)",
                                  i + 1);
        /* log prod (1 - P_r)^f_r = sum f_r log1p(-P_r) */
        double s = 0;
        for (long r = 0; r < nrups; r++) {
            double f = hazard_exceedance(&rups[r], levels[i]);
            if (f > 0) {
                if (rups[r].prob >= 1) {
                    s = -INFINITY;
                    break;
                }
                s += f * log1p(-rups[r].prob);
            }
        }
        /* + 0.0: no rupture reaching the level gives -expm1(0) = -0, printed "-0.000000e+00" */
        poe[i] = -expm1(s) + 0.0;
    }
    return 0;
}

double hazard_annual(double p, double years) {
    if (p >= 1) return 1;
    return -expm1(log1p(-p) / years) + 0.0;
}

double hazard_level_at(const double *levels, const double *annual, int n, double pa) {
    for (int i = 0; i + 1 < n; i++) {
        double a = annual[i], b = annual[i + 1];
        if (a >= pa && b < pa && a > 0) {
            if (b <= 0) return levels[i];
            double t = (log(pa) - log(a)) / (log(b) - log(a));
            return exp(log(levels[i]) + t * (log(levels[i + 1]) - log(levels[i])));
        }
    }
    return NAN;
}
