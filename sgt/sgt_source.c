#include "sgt_source.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_lines.h"
#include "sgt_stencil.h"

/* Modified Bessel function I0 by its power series (converges fast for the beta we use). */
static double bessel_i0(double x) {
    double sum = 1, term = 1, q = x * x / 4;
    for (int k = 1; k < 200; k++) {
        term *= q / ((double)k * k);
        sum += term;
        if (term < 1e-17 * sum) break;
    }
    return sum;
}

static double raw_impulse(const sgt_impulse *p, double t) {
    double u = (t - p->time_shift) / p->half_width;
    if (fabs(u) >= 1) return 0;
    double x = 2 * p->fc * (t - p->time_shift);
    double sinc = fabs(x) < 1e-12 ? 1.0 : sin(M_PI * x) / (M_PI * x);
    return 2 * p->fc * sinc * bessel_i0(p->beta * sqrt(1 - u * u)) / bessel_i0(p->beta);
}

int sgt_impulse_init(sgt_impulse *p, double fmax, cs_error *err) {
    if (!(fmax > 0)) return cs_error_input(err, "fmax", NULL, NULL, "must be positive");
    /* Pass band to fmax, stop band from 1.5 fmax: Kaiser's design rules for 65 dB (their ripple
     * estimate is approximate; 65 keeps the pass band within 0.1% and the stop band below
     * -60 dB, which the unit test checks) give
     * beta = 0.1102 (A - 8.7) and a length T = (A - 7.95) / (14.36 df), df = 0.5 fmax. */
    const double A = 65.0, df = 0.5 * fmax;
    p->fmax = fmax;
    p->fc = 1.25 * fmax;
    p->beta = 0.1102 * (A - 8.7);
    p->half_width = 0.5 * (A - 7.95) / (14.36 * df);
    p->time_shift = p->half_width;
    p->norm = 1.0;
    /* Normalise to unit area by Simpson's rule on a fine grid. */
    int n = 20000;
    double h = 2 * p->half_width / n, sum = 0;
    for (int k = 0; k <= n; k++) {
        double w = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
        sum += w * raw_impulse(p, k * h);
    }
    p->norm = 1.0 / (sum * h / 3);
    return 0;
}

double sgt_impulse_eval(const sgt_impulse *p, double t) {
    return p->norm * raw_impulse(p, t);
}

int sgt_stf_table_read(sgt_stf_table *tab, const char *path, cs_error *err) {
    memset(tab, 0, sizeof *tab);
    cs_lines r;
    if (cs_lines_open(&r, path, "source time function", err)) return err->status;
    int ncap = 0, rc = 0;
    char *line;
    while (!rc && (line = cs_lines_next(&r))) {
        double v[2];
        if (cs_parse_numbers(line, v, 2) != 2) {
            rc = cs_error_input(err, r.place, NULL, r.copy,
                                "expected two numbers: time (s) value (1/s)");
        } else if (tab->n > 0 && !(v[0] > tab->t[tab->n - 1])) {
            rc = cs_error_input(err, r.place, "time", r.copy, "times must increase");
        } else {
            if (tab->n == ncap) {
                ncap = ncap ? 2 * ncap : 256;
                double *nt = realloc(tab->t, (size_t)ncap * sizeof *nt);
                if (nt) tab->t = nt;
                double *nv = nt ? realloc(tab->v, (size_t)ncap * sizeof *nv) : NULL;
                if (!nv) {
                    rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                    break;
                }
                tab->v = nv;
            }
            tab->t[tab->n] = v[0];
            tab->v[tab->n] = v[1];
            tab->n++;
        }
    }
    cs_lines_close(&r);
    if (!rc && tab->n < 2) rc = cs_error_input(err, path, NULL, NULL, "needs at least two samples");
    if (rc) sgt_stf_table_free(tab);
    return rc;
}

double sgt_stf_table_eval(const sgt_stf_table *tab, double t) {
    if (t <= tab->t[0] || t >= tab->t[tab->n - 1]) {
        if (t == tab->t[0]) return tab->v[0];
        if (t == tab->t[tab->n - 1]) return tab->v[tab->n - 1];
        return 0.0;
    }
    int lo = 0, hi = tab->n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (tab->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double u = (t - tab->t[lo]) / (tab->t[hi] - tab->t[lo]);
    return tab->v[lo] + u * (tab->v[hi] - tab->v[lo]);
}

void sgt_stf_table_free(sgt_stf_table *tab) {
    free(tab->t);
    free(tab->v);
    memset(tab, 0, sizeof *tab);
}

void sgt_source_force(sgt_state *s, int n, const sgt_region *r) {
    if (s->source_kind != SGT_SOURCE_FORCE) return;
    const sgt_layout *L = &s->L;
    double amp = s->dt * s->amplitude * s->stf[n] / (s->h * s->h * s->h);
    /* A plane source is the same force at every node of the plane k = src_k (a plane wave for
     * verification; the PML slabs along x and y leave waves travelling along z untouched). A
     * point source reaches 2 nodes beyond its node, so the region may hold part of it. */
    int i0 = s->plane_source ? r->ib : s->src_i - L->i0, i1 = s->plane_source ? r->ie : i0 + 1;
    int j0 = s->plane_source ? r->jb : s->src_j - L->j0, j1 = s->plane_source ? r->je : j0 + 1;
    if (i1 <= r->ib - 2 || i0 >= r->ie + 2 || j1 <= r->jb - 2 || j0 >= r->je + 2) return;
    for (int i = i0; i < i1; i++)
        for (int j = j0; j < j1; j++)
            sgt_force_apply(s->v, s->rho, s->bz, s->lam, s->mu, sgt_idx(L, i, j, s->src_k), L->sx,
                            L->sy, i, j, s->src_k, r->ib, r->ie, r->jb, r->je, s->free_surface, amp,
                            s->force);
}

void sgt_source_moment(sgt_state *s, int n, const sgt_region *r) {
    if (s->source_kind != SGT_SOURCE_MOMENT) return;
    const sgt_layout *L = &s->L;
    if (s->nmsrc) {
        for (long q = 0; q < s->nmsrc; q++) {
            const int *g = s->msrc_node + 3 * q;
            int li = g[0] - L->i0, lj = g[1] - L->j0;
            if (li < r->ib - 2 || li > r->ie + 1 || lj < r->jb - 2 || lj > r->je + 1) continue;
            double amp =
                s->dt * s->msrc_mu[q] * s->msrc_rate[(size_t)q * s->nt + n] / (s->h * s->h * s->h);
            if (amp == 0) continue;
            sgt_moment_apply(s->s, sgt_idx(L, li, lj, g[2]), L->sx, L->sy, li, lj, g[2], r->ib,
                             r->ie, r->jb, r->je, s->free_surface, amp, s->msrc_m + 6 * q);
        }
        return;
    }
    int li = s->src_i - L->i0, lj = s->src_j - L->j0;
    if (li < r->ib - 2 || li > r->ie + 1 || lj < r->jb - 2 || lj > r->je + 1) return;
    sgt_moment_apply(s->s, sgt_idx(L, li, lj, s->src_k), L->sx, L->sy, li, lj, s->src_k, r->ib,
                     r->ie, r->jb, r->je, s->free_surface,
                     s->dt * s->amplitude * s->stf[n] / (s->h * s->h * s->h), s->moment);
}
