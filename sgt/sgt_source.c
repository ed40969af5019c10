#include "sgt_source.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "sgt_cpu.h"

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

double sgt_impulse_eval(const sgt_impulse *p, double t) { return p->norm * raw_impulse(p, t); }

int sgt_stf_table_read(sgt_stf_table *tab, const char *path, cs_error *err) {
    memset(tab, 0, sizeof *tab);
    FILE *f = fopen(path, "r");
    if (!f) return cs_error_errno(err, path, "open source time function");
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, ncap = 0, rc = 0;
    char place[4200];
    while (cs_read_line(f, &buf, &cap)) {
        line++;
        char *s = cs_trim(buf);
        if (!*s || *s == '#') continue;
        snprintf(place, sizeof place, "%s:%d", path, line);
        char copy[256];
        cs_copy(copy, sizeof copy, s);
        char *sp = s + strcspn(s, " \t,");
        if (!*sp) {
            rc = cs_error_input(err, place, NULL, copy, "expected two columns: time (s) value (1/s)");
            break;
        }
        *sp++ = '\0';
        double t, v;
        if (cs_parse_double(s, &t) || cs_parse_double(cs_trim(sp), &v)) {
            rc = cs_error_input(err, place, NULL, copy, "expected two numbers: time value");
            break;
        }
        if (tab->n > 0 && !(t > tab->t[tab->n - 1])) {
            rc = cs_error_input(err, place, "time", copy, "times must increase");
            break;
        }
        if (tab->n == ncap) {
            ncap = ncap ? 2 * ncap : 256;
            double *nt = realloc(tab->t, (size_t)ncap * sizeof *nt);
            double *nv = nt ? realloc(tab->v, (size_t)ncap * sizeof *nv) : NULL;
            if (!nt || !nv) {
                if (nt) tab->t = nt;
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                break;
            }
            tab->t = nt;
            tab->v = nv;
        }
        tab->t[tab->n] = t;
        tab->v[tab->n] = v;
        tab->n++;
    }
    free(buf);
    fclose(f);
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

void sgt_moment_from_sdr(double strike, double dip, double rake, double m0, double m[6]) {
    const double d2r = M_PI / 180.0;
    double ps = strike * d2r, de = dip * d2r, la = rake * d2r;
    double sd = sin(de), cd = cos(de), s2d = sin(2 * de), c2d = cos(2 * de);
    double sl = sin(la), cl = cos(la);
    double sp = sin(ps), cp = cos(ps), s2p = sin(2 * ps), c2p = cos(2 * ps);
    m[0] = -m0 * (sd * cl * s2p + s2d * sl * sp * sp);       /* Mxx */
    m[1] = m0 * (sd * cl * s2p - s2d * sl * cp * cp);        /* Myy */
    m[2] = m0 * s2d * sl;                                    /* Mzz */
    m[3] = m0 * (sd * cl * c2p + 0.5 * s2d * sl * s2p);      /* Mxy */
    m[4] = -m0 * (cd * cl * cp + c2d * sl * sp);             /* Mxz */
    m[5] = -m0 * (cd * cl * sp - c2d * sl * cp);             /* Myz */
}

static void sym_full(const double m[6], double f[3][3]) {
    f[0][0] = m[0], f[1][1] = m[1], f[2][2] = m[2];
    f[0][1] = f[1][0] = m[3];
    f[0][2] = f[2][0] = m[4];
    f[1][2] = f[2][1] = m[5];
}

void sgt_moment_ned_to_box(const double m_ned[6], const double axes[3][3], double m_box[6]) {
    /* R[i][a]: component of box axis i along N, E, D. */
    double R[3][3], M[3][3], B[3][3];
    for (int i = 0; i < 3; i++) {
        R[i][0] = axes[i][1];
        R[i][1] = axes[i][0];
        R[i][2] = -axes[i][2];
    }
    sym_full(m_ned, M);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) s += R[i][a] * M[a][b] * R[j][b];
            B[i][j] = s;
        }
    m_box[0] = B[0][0], m_box[1] = B[1][1], m_box[2] = B[2][2];
    m_box[3] = B[0][1], m_box[4] = B[0][2], m_box[5] = B[1][2];
}

void sgt_vector_enu_to_box(const double enu[3], const double axes[3][3], double box[3]) {
    for (int i = 0; i < 3; i++)
        box[i] = axes[i][0] * enu[0] + axes[i][1] * enu[1] + axes[i][2] * enu[2];
}

/* One point force of amplitude amp (dt F / h^3) at global node (gi0, gj0, k). */
static void force_at(sgt_state *s, int gi0, int gj0, int k, double amp) {
    const sgt_layout *L = &s->L;
    int li, lj;
    int surface = s->free_surface && k == 0;
    /* Each component is spread over the four staggered velocities around the node along its
     * own axis with the 4th-order interpolation weights, so that it acts at the node itself.
     * Every force is the exact adjoint of reading a receiver at the node (sgt_node_velocity):
     * weight w on a velocity becomes a force w F / (rho V) on it, V its cell volume, so forward
     * runs and SGTs are reciprocal to round-off. At the free surface the horizontal velocities
     * sit in half cells (V = h^3/2). The receiver there extrapolates the shallowest vz up by
     * h/4 with the traction-free condition (see sgt_node_velocity), so the vertical surface
     * force acts on that vz plus a horizontal-divergence term on the surface vx, vy. */
    for (int c = 0; c < 3; c++) {
        double f = amp * s->force[c];
        if (f == 0) continue;
        long st = c == 0 ? L->sx : c == 1 ? L->sy : 1;
        float w[4];
        int first, nw;
        if (c < 2) {
            first = -2, nw = 4;
            for (int a = 0; a < 4; a++) w[a] = sgt_interp4[a] * (surface ? 2.0f : 1.0f);
        } else if (surface) {
            first = 0, nw = 1, w[0] = 1.0f;
            if (sgt_local(s, gi0, gj0, &li, &lj)) {
                long p = sgt_idx(L, li, lj, 0);
                double lam = s->lam[p], mu = s->mu[p], cc = lam / (lam + 2 * mu);
                /* Receiver term (cc/4) [C1 (v[i] - v[i-1]) + C2 (v[i+1] - v[i-2])] along x
                 * and y; over half cells (V = h^3/2) its adjoint is (cc/2) w' F / (rho h^3). */
                const float dw[4] = {-SGT_C2, -SGT_C1, SGT_C1, SGT_C2};
                for (int hc = 0; hc < 2; hc++) {
                    long sh = hc == 0 ? L->sx : L->sy;
                    for (int a = 0; a < 4; a++) {
                        long q = p + (a - 2) * sh;
                        double rho = 0.5 * (s->rho[q] + s->rho[q + sh]);
                        s->v[hc][q] += (float)(0.5 * cc * dw[a] * f / rho);
                    }
                }
            }
        } else {
            nw = sgt_cpu_vertical_weights(s, k, &first, w);
        }
        for (int a = 0; a < nw; a++) {
            int gi = gi0 + (c == 0 ? first + a : 0), gj = gj0 + (c == 1 ? first + a : 0);
            int gk = k + (c == 2 ? first + a : 0);
            if (!sgt_local(s, gi, gj, &li, &lj)) continue;
            long p = sgt_idx(L, li, lj, gk);
            double rho = 0.5 * (s->rho[p] + s->rho[p + st]);
            s->v[c][p] += (float)(w[a] * f / rho);
        }
    }
}

void sgt_source_force(sgt_state *s, int n) {
    if (s->source_kind != SGT_SOURCE_FORCE) return;
    double h3 = s->h * s->h * s->h;
    double amp = s->dt * s->amplitude * s->stf[n] / h3;
    if (!s->plane_source) {
        force_at(s, s->src_i, s->src_j, s->src_k, amp);
        return;
    }
    /* A plane source: the same force at every node of the plane k = src_k (a plane wave for
     * verification; the PML slabs along x and y leave waves travelling along z untouched). */
    for (int i = 0; i < s->L.lnx; i++)
        for (int j = 0; j < s->L.lny; j++) force_at(s, i + s->L.i0, j + s->L.j0, s->src_k, amp);
}

void sgt_source_moment(sgt_state *s, int n) {
    if (s->source_kind != SGT_SOURCE_MOMENT) return;
    const sgt_layout *L = &s->L;
    double h3 = s->h * s->h * s->h;
    double amp = s->dt * s->amplitude * s->stf[n] / h3;
    int li, lj;
    /* Normal components at the node. */
    if (sgt_local(s, s->src_i, s->src_j, &li, &lj)) {
        long p = sgt_idx(L, li, lj, s->src_k);
        for (int c = 0; c < 3; c++) s->s[c][p] -= (float)(amp * s->moment[c]);
    }
    /* Shear components over the 4 x 4 shear points around the node, with the weights that
     * interpolate the shear strain to the node (the adjoint of the SGT's strain reading). */
    float wz[4];
    int kz, nz = sgt_cpu_vertical_weights(s, s->src_k, &kz, wz);
    for (int c = 3; c < 6; c++) {
        double m = amp * s->moment[c];
        if (m == 0) continue;
        int nb = c == SGT_XY ? 4 : nz;
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < nb; b++) {
                int gi = s->src_i, gj = s->src_j, gk = s->src_k;
                float w = sgt_interp4[a] * (c == SGT_XY ? sgt_interp4[b] : wz[b]);
                int ob = c == SGT_XY ? b - 2 : kz + b;
                if (c == SGT_XY) gi += a - 2, gj += ob;
                if (c == SGT_XZ) gi += a - 2, gk += ob;
                if (c == SGT_YZ) gj += a - 2, gk += ob;
                if (!sgt_local(s, gi, gj, &li, &lj)) continue;
                s->s[c][sgt_idx(L, li, lj, gk)] -= (float)(w * m);
            }
    }
}
