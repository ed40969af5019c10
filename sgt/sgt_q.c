#include "sgt_q.h"

#include <complex.h>
#include <math.h>
#include <stddef.h>

/* Solves the n x n system a x = b by Gaussian elimination with partial pivoting: 0, or -1 when
 * it is singular (sgt_q_fit reports it with the Q it was fitting, as do fit_linear's and
 * fit_weights' -1 that pass it on). */
static int solve(int n, double a[SGT_Q_NMECH][SGT_Q_NMECH], double *b) {
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        if (fabs(a[p][c]) < 1e-300) return -1;
        for (int k = 0; k < n; k++) {
            double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < n; r++) {
            double f = a[r][c] / a[c][c];
            for (int k = c; k < n; k++)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < n; k++)
            s -= a[r][k] * b[k];
        b[r] = s / a[r][r];
    }
    return 0;
}

/* Linear least squares for the plain standard linear solid: sum_l y_l (w tau_l + 1/Q) /
 * (1 + w^2 tau_l^2) = 1/Q. The starting point of the coarse-grained fit below. */
static int fit_linear(const sgt_q_model *q, double qinv, double *y) {
    const int n = SGT_Q_NMECH, nf = 200;
    double ata[SGT_Q_NMECH][SGT_Q_NMECH] = {{0}}, atb[SGT_Q_NMECH] = {0};
    for (int s = 0; s < nf; s++) {
        double w = 2 * M_PI * q->f_low * pow(q->f_high / q->f_low, (double)s / (nf - 1));
        double row[SGT_Q_NMECH];
        for (int l = 0; l < n; l++) {
            double wt = w * q->tau[l];
            row[l] = (wt + qinv) / (1 + wt * wt);
        }
        for (int a = 0; a < n; a++) {
            atb[a] += row[a] * qinv;
            for (int b = 0; b < n; b++)
                ata[a][b] += row[a] * row[b];
        }
    }
    if (solve(n, ata, atb)) return -1;
    for (int l = 0; l < n; l++)
        y[l] = atb[l] > 0 ? atb[l] : 0;
    return 0;
}

/* Moduli M/M_U of the coarse-grained medium at angular frequency w, for weights y (each cell
 * carries 8 y_l of its own mechanism l): "mixed" is the arithmetic mean over the 8 cells (the
 * full standard linear solid, what waves crossing the cells in every direction see); "aligned"
 * is what a wave along a grid axis sees, cells (l, l+4) alternating in series along its path
 * and the four such columns side by side. */
static void coarse_moduli(const sgt_q_model *q, const double *y, double w, double complex *mixed,
                          double complex *aligned) {
    double complex m[SGT_Q_NMECH];
    *mixed = 0;
    for (int l = 0; l < SGT_Q_NMECH; l++) {
        m[l] = 1.0 - SGT_Q_NMECH * y[l] / (1.0 + I * w * q->tau[l]);
        *mixed += m[l] / SGT_Q_NMECH;
    }
    *aligned = 0;
    for (int c = 0; c < 4; c++)
        *aligned += 0.25 * 2.0 / (1.0 / m[c] + 1.0 / m[c + 4]);
}

#define QFIT_NF 40
#define QFIT_NR (2 * QFIT_NF)

static double qfit_w[QFIT_NF];

static void q_residuals(const sgt_q_model *q, double qinv, const double *y, double *r) {
    for (int s = 0; s < QFIT_NF; s++) {
        double w = qfit_w[s];
        double complex mm, ma;
        coarse_moduli(q, y, w, &mm, &ma);
        /* Q^-1 = Im M / Re M, written without division: (Im M - Re M / Q) Q. */
        r[2 * s] = (cimag(mm) - creal(mm) * qinv) / qinv;
        r[2 * s + 1] = (cimag(ma) - creal(ma) * qinv) / qinv;
    }
}

static double sumsq(const double *r, int n) {
    double c = 0;
    for (int i = 0; i < n; i++)
        c += r[i] * r[i];
    return c;
}

/* Weights for which both the mixed and the aligned coarse-grained medium have Q^-1 as close to
 * 1/Q as possible over the band (projected Levenberg-Marquardt, y >= 0 so that no cell gains
 * energy). One set cannot make both exact: at Q = 20 each stays within about 10%. */
static int fit_weights(const sgt_q_model *q, double qinv, double *y) {
    const int n = SGT_Q_NMECH;
    static double r[QFIT_NR], rt[QFIT_NR], J[QFIT_NR][SGT_Q_NMECH];
    q_residuals(q, qinv, y, r);
    double cost = sumsq(r, QFIT_NR), lambda = 1e-3;
    for (int it = 0; it < 200; it++) {
        for (int l = 0; l < n; l++) {
            double yl = y[l], d = 1e-7 * (fabs(yl) > 1e-6 ? fabs(yl) : 1e-6);
            y[l] = yl + d;
            q_residuals(q, qinv, y, rt);
            y[l] = yl;
            for (int i = 0; i < QFIT_NR; i++)
                J[i][l] = (rt[i] - r[i]) / d;
        }
        double g[SGT_Q_NMECH] = {0}, h[SGT_Q_NMECH][SGT_Q_NMECH] = {{0}};
        for (int i = 0; i < QFIT_NR; i++)
            for (int a = 0; a < n; a++) {
                g[a] -= J[i][a] * r[i];
                for (int b = 0; b < n; b++)
                    h[a][b] += J[i][a] * J[i][b];
            }
        int improved = 0;
        for (int tries = 0; tries < 20 && !improved; tries++) {
            double hh[SGT_Q_NMECH][SGT_Q_NMECH], step[SGT_Q_NMECH], yn[SGT_Q_NMECH];
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++)
                    hh[a][b] = h[a][b];
                hh[a][a] *= 1 + lambda;
                step[a] = g[a];
            }
            if (solve(n, hh, step)) return -1;
            for (int a = 0; a < n; a++)
                yn[a] = y[a] + step[a] > 0 ? y[a] + step[a] : 0;
            q_residuals(q, qinv, yn, rt);
            double c2 = sumsq(rt, QFIT_NR);
            if (c2 < cost) {
                improved = 1;
                double rel = (cost - c2) / cost;
                cost = c2;
                for (int a = 0; a < n; a++)
                    y[a] = yn[a];
                for (int i = 0; i < QFIT_NR; i++)
                    r[i] = rt[i];
                lambda *= 0.3;
                if (rel < 1e-10) return 0;
            } else {
                lambda *= 10;
            }
        }
        if (!improved) return 0; /* at a (projected) minimum */
    }
    return 0;
}

int sgt_q_fit(sgt_q_model *q, double f_low, double f_high, double f_ref, cs_error *err) {
    if (!(f_low > 0 && f_high > f_low * 2))
        return cs_error_input(err, "q_band", NULL, NULL,
                              "needs 0 < q_band_low < q_band_high / 2 (got %g to %g Hz)", f_low,
                              f_high);
    if (!(f_ref > 0))
        return cs_error_input(err, "q_reference_frequency", NULL, NULL, "must be > 0");
    q->f_low = f_low;
    q->f_high = f_high;
    q->f_ref = f_ref;
    /* Relaxation frequencies log-spaced over the band, the end ones at the band edges. */
    for (int l = 0; l < SGT_Q_NMECH; l++) {
        double f = f_low * pow(f_high / f_low, (double)l / (SGT_Q_NMECH - 1));
        q->tau[l] = 1.0 / (2 * M_PI * f);
    }
    for (int s = 0; s < QFIT_NF; s++)
        qfit_w[s] = 2 * M_PI * f_low * pow(f_high / f_low, (double)s / (QFIT_NF - 1));
    for (int l = 0; l < SGT_Q_NMECH; l++)
        q->table[0][l] = 0;
    for (int i = 1; i < SGT_Q_TABLE; i++) {
        double qinv = (double)i / (SGT_Q_TABLE - 1) / SGT_Q_MIN;
        /* Start from the plain solid's weights at the first entry, then continue along 1/Q
         * from the previous solution (the weights grow about linearly with 1/Q). */
        if (i == 1) {
            if (fit_linear(q, qinv, q->table[i]))
                return cs_error_set(err, CS_ERR_INTERNAL, "Q fit is singular at Q = %g", 1 / qinv);
        } else {
            for (int l = 0; l < SGT_Q_NMECH; l++)
                q->table[i][l] = q->table[i - 1][l] * i / (i - 1);
        }
        if (fit_weights(q, qinv, q->table[i]))
            return cs_error_set(err, CS_ERR_INTERNAL, "Q fit is singular at Q = %g", 1 / qinv);
    }
    return 0;
}

void sgt_q_weights(const sgt_q_model *q, double Q, double y[SGT_Q_NMECH]) {
    double x = (1.0 / Q) * SGT_Q_MIN * (SGT_Q_TABLE - 1);
    if (!(x > 0)) x = 0;
    if (x > SGT_Q_TABLE - 1) x = SGT_Q_TABLE - 1;
    int i = (int)x;
    if (i >= SGT_Q_TABLE - 1) i = SGT_Q_TABLE - 2;
    double t = x - i;
    for (int l = 0; l < SGT_Q_NMECH; l++)
        y[l] = (1 - t) * q->table[i][l] + t * q->table[i + 1][l];
}

/* M(w) / M_U of the coarse-grained medium: the mean of its mixed and aligned limits. */
static double complex modulus_ratio(const sgt_q_model *q, double Q, double f) {
    double y[SGT_Q_NMECH];
    sgt_q_weights(q, Q, y);
    double complex mm, ma;
    coarse_moduli(q, y, 2 * M_PI * f, &mm, &ma);
    return 0.5 * (mm + ma);
}

double sgt_q_inverse_limits(const sgt_q_model *q, double Q, double f, double *mixed,
                            double *aligned) {
    double y[SGT_Q_NMECH];
    sgt_q_weights(q, Q, y);
    double complex mm, ma;
    coarse_moduli(q, y, 2 * M_PI * f, &mm, &ma);
    *mixed = cimag(mm) / creal(mm);
    *aligned = cimag(ma) / creal(ma);
    return 0.5 * (*mixed + *aligned);
}

double sgt_q_inverse(const sgt_q_model *q, double Q, double f) {
    double complex m = modulus_ratio(q, Q, f);
    return cimag(m) / creal(m);
}

double sgt_q_unrelaxed_factor(const sgt_q_model *q, double Q) {
    /* Phase velocity at f_ref: 1/c = Re(sqrt(rho / M)); M = M_U m gives
     * c = sqrt(M_U / rho) / Re(1 / sqrt(m)), so M_U = rho c^2 Re(1/sqrt(m))^2. */
    double complex m = modulus_ratio(q, Q, q->f_ref);
    double re = creal(1.0 / csqrt(m));
    return re * re;
}
