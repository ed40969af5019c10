#include "disagg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

void disagg_default_bins(disagg_bins *b) {
    memset(b, 0, sizeof *b);
    b->m[0] = -1e9;
    for (int i = 0; i <= 20; i++)
        b->m[1 + i] = 5.0 + 0.1 * i;
    b->m[22] = 1e9;
    b->nm = 22;
    double r[8] = {0, 20, 40, 60, 80, 100, 1000, 1e9};
    memcpy(b->r, r, sizeof r);
    b->nr = 7;
    double e[6] = {-1e9, -1, 0, 1, 2, 1e9};
    memcpy(b->e, e, sizeof e);
    b->ne = 5;
}

int disagg_parse_edges(const char *text, const char *what, double *edges, int *nbins,
                       cs_error *err) {
    char buf[4096];
    cs_copy(buf, sizeof buf, text);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *s = cs_trim(t);
        if (n == DISAGG_MAX_EDGES)
            return cs_error_input(err, what, NULL, text, "at most %d edges", DISAGG_MAX_EDGES);
        if (cs_parse_double(s, &edges[n]))
            return cs_error_input(err, what, NULL, s, "an edge is a number");
        if (n > 0 && !(edges[n] > edges[n - 1]))
            return cs_error_input(err, what, NULL, s, "edges must increase");
        n++;
    }
    if (n < 2) return cs_error_input(err, what, NULL, text, "give at least two edges");
    *nbins = n - 1;
    return 0;
}

/* The bin of v among edges e[0..n] (clamped to the outer bins). */
static int bin_of(const double *e, int n, double v) {
    if (v < e[0]) return 0;
    for (int i = 0; i < n; i++)
        if (v < e[i + 1]) return i;
    return n - 1;
}

static double centre(const double *e, int i) {
    double lo = e[i], hi = e[i + 1];
    if (lo <= -1e8) return hi; /* an open lower bin: its upper edge */
    if (hi >= 1e8) return lo;  /* an open upper bin: its lower edge */
    return 0.5 * (lo + hi);
}

/* A rupture's epsilon at ln x: against the mean and deviation of its variations' ln values. */
static double epsilon_of(const hazard_rupture *r, double lx) {
    if (r->nvalues == 0) return 0;
    double s = 0, s2 = 0;
    for (int i = 0; i < r->nvalues; i++) {
        double v = r->lognormal ? r->values[i] : log(r->values[i]);
        s += v;
        s2 += v * v;
    }
    double mean = s / r->nvalues, var = s2 / r->nvalues - mean * mean;
    double sd =
        r->lognormal ? sqrt((var > 0 ? var : 0) + r->sigma * r->sigma) : sqrt(var > 0 ? var : 0);
    return sd > 0 ? (lx - mean) / sd : 0;
}

void disagg_free(disagg_result *d) {
    free(d->bins);
    free(d->contribution);
    free(d->eps);
    memset(d, 0, sizeof *d);
}

int disagg_compute(const hazard_rupture *rups, const double *mag, const double *rrup, long n,
                   double level, const disagg_bins *b, disagg_result *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    out->level = level;
    size_t nb = (size_t)b->nm * b->nr * b->ne;
    out->bins = calloc(nb, sizeof(double));
    out->contribution = calloc((size_t)(n ? n : 1), sizeof(double));
    out->eps = calloc((size_t)(n ? n : 1), sizeof(double));
    if (!out->bins || !out->contribution || !out->eps) {
        disagg_free(out);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    double lx = log(level), total = 0;
    for (long r = 0; r < n; r++) {
        double f = hazard_exceedance(&rups[r], level);
        double lambda = rups[r].prob >= 1 ? 1e300 : -log1p(-rups[r].prob);
        out->contribution[r] = lambda * f;
        out->eps[r] = f > 0 ? epsilon_of(&rups[r], lx) : 0; /* only sharing ruptures need it */
        total += out->contribution[r];
    }
    out->total = total;
    if (!(total > 0)) {
        disagg_free(out);
        return cs_error_input(err, "disaggregation", "level", NULL,
                              "no rupture exceeds %g: the level lies above the curve", level);
    }
    for (long r = 0; r < n; r++) {
        double c = out->contribution[r] /= total;
        if (c == 0) continue;
        int i = bin_of(b->m, b->nm, mag[r]), j = bin_of(b->r, b->nr, rrup[r]),
            k = bin_of(b->e, b->ne, out->eps[r]);
        out->bins[((size_t)i * b->nr + j) * b->ne + k] += c;
        out->mean_m += c * mag[r];
        out->mean_r += c * rrup[r];
        out->mean_eps += c * out->eps[r];
    }
    size_t best = 0;
    for (size_t q = 1; q < nb; q++)
        if (out->bins[q] > out->bins[best]) best = q;
    int bk = (int)(best % b->ne), bj = (int)((best / b->ne) % b->nr),
        bi = (int)(best / b->ne / b->nr);
    out->mode_m = centre(b->m, bi);
    out->mode_r = centre(b->r, bj);
    out->mode_eps = centre(b->e, bk);
    return 0;
}

/* The (weighted) mean over the sets of the annual probability of exceeding x. */
static int mean_annual(const hazard_rupture *const *sets, const long *n, const double *w, int nsets,
                       double years, double x, double *pa, cs_error *err) {
    double s = 0, poe;
    for (int k = 0; k < nsets; k++) {
        CS_CALL(err, hazard_curve(sets[k], n[k], &x, 1, &poe, err));
        s += (w ? w[k] : 1.0 / nsets) * hazard_annual(poe, years);
    }
    *pa = s;
    return 0;
}

int disagg_level_for_mean(const hazard_rupture *const *sets, const long *n, const double *w,
                          int nsets, double years, double pa, double *level, cs_error *err) {
    double lo = log(1e-8), hi = log(1e3), a = 0;
    cs_error e2;
    if (mean_annual(sets, n, w, nsets, years, exp(lo), &a, &e2) || a < pa)
        return cs_error_input(err, "--poe", NULL, NULL,
                              "the curve never reaches annual probability %.4g (its largest is "
                              "%.4g)",
                              pa, a);
    /* 40 halvings of the 25.3-wide ln range: the level to 2e-11 relative */
    for (int it = 0; it < 40; it++) {
        double mid = 0.5 * (lo + hi);
        CS_CALL(err, mean_annual(sets, n, w, nsets, years, exp(mid), &a, err));
        if (a >= pa)
            lo = mid;
        else
            hi = mid;
    }
    *level = exp(lo);
    return 0;
}

int disagg_largest_annual(const hazard_rupture *rups, long n, double years, double *pa,
                          cs_error *err) {
    return mean_annual(&rups, &n, NULL, 1, years, 1e-8, pa, err);
}

int disagg_level_for(const hazard_rupture *rups, long n, double years, double pa, double *level,
                     cs_error *err) {
    return disagg_level_for_mean(&rups, &n, NULL, 1, years, pa, level, err);
}

int disagg_parse_poe(const char *text, double *annual, cs_error *err) {
    double pct, yrs;
    char unit[16] = "";
    if (sscanf(text, "%lf%% in %lf %15s", &pct, &yrs, unit) >= 2) {
        if (!(pct > 0 && pct < 100 && yrs > 0) ||
            (unit[0] && strncmp(unit, "yr", 2) && strncmp(unit, "year", 4)))
            return cs_error_input(err, "--poe", NULL, text, "give 'P%% in Y yr' with 0 < P < 100");
        *annual = hazard_annual(pct / 100, yrs);
        return 0;
    }
    if (cs_parse_double(text, annual) == 0 && *annual > 0 && *annual < 1) return 0;
    return cs_error_input(err, "--poe", NULL, text,
                          "give '2%% in 50 yr' or an annual probability in (0, 1)");
}
