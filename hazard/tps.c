#include "tps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double phi(double r2) {
    return r2 > 0 ? 0.5 * r2 * log(r2) : 0; /* r^2 ln r from r^2 */
}

/* The polynomial terms at a (centred, scaled) point. */
static void poly(const hazard_tps *t, double x, double y, double p[3]) {
    p[0] = 1;
    if (t->npoly == 2) p[1] = x * t->ux + y * t->uy;
    if (t->npoly == 3) p[1] = x, p[2] = y;
}

/* Solves A u = b in place (A m x m, row-major), partial pivoting; 1 when singular. */
static int solve(double *A, double *b, int m) {
    for (int k = 0; k < m; k++) {
        int piv = k;
        for (int i = k + 1; i < m; i++)
            if (fabs(A[(long)i * m + k]) > fabs(A[(long)piv * m + k])) piv = i;
        if (!(fabs(A[(long)piv * m + k]) > 1e-13)) return 1;
        if (piv != k) {
            for (int j = 0; j < m; j++) {
                double s = A[(long)k * m + j];
                A[(long)k * m + j] = A[(long)piv * m + j], A[(long)piv * m + j] = s;
            }
            double s = b[k];
            b[k] = b[piv], b[piv] = s;
        }
        for (int i = k + 1; i < m; i++) {
            double f = A[(long)i * m + k] / A[(long)k * m + k];
            if (f == 0) continue;
            for (int j = k; j < m; j++)
                A[(long)i * m + j] -= f * A[(long)k * m + j];
            b[i] -= f * b[k];
        }
    }
    for (int k = m - 1; k >= 0; k--) {
        double s = b[k];
        for (int j = k + 1; j < m; j++)
            s -= A[(long)k * m + j] * b[j];
        b[k] = s / A[(long)k * m + k];
    }
    return 0;
}

int hazard_tps_fit(int n, const double *x, const double *y, const double *z, hazard_tps *t,
                   cs_error *err) {
    memset(t, 0, sizeof *t);
    if (n < 1 || n > 20000)
        return cs_error_set(err, CS_ERR_INPUT,
                            "a thin-plate spline takes 1 to 20000 points, not %d", n);
    /* centre and scale: the spline (with its linear terms) does not change, the system's
     * conditioning does */
    double mx = 0, my = 0, ext = 0;
    for (int i = 0; i < n; i++)
        mx += x[i] / n, my += y[i] / n;
    for (int i = 0; i < n; i++)
        ext = fmax(ext, fmax(fabs(x[i] - mx), fabs(y[i] - my)));
    t->x0 = mx, t->y0 = my, t->scale = ext > 0 ? ext : 1;
    t->n = n;
    t->x = malloc(sizeof(double) * 3 * (size_t)n);
    if (!t->x) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    t->y = t->x + n, t->w = t->x + 2 * n;
    double cxx = 0, cxy = 0, cyy = 0;
    for (int i = 0; i < n; i++) {
        t->x[i] = (x[i] - mx) / t->scale, t->y[i] = (y[i] - my) / t->scale;
        cxx += t->x[i] * t->x[i], cxy += t->x[i] * t->y[i], cyy += t->y[i] * t->y[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (hypot(t->x[i] - t->x[j], t->y[i] - t->y[j]) < 1e-9) {
                hazard_tps_free(t);
                return cs_error_set(err, CS_ERR_INPUT,
                                    "points %d and %d are at the same place: a surface cannot pass "
                                    "through two values there",
                                    j, i);
            }
    /* the spread's principal axes: a line of points (or one point) keeps fewer linear terms */
    double tr = cxx + cyy, det = cxx * cyy - cxy * cxy;
    double l1 = 0.5 * tr + sqrt(fmax(0.25 * tr * tr - det, 0)), l2 = tr - l1;
    if (n == 1 || !(l1 > 0))
        t->npoly = 1;
    else if (l2 <= 1e-10 * l1) {
        t->npoly = 2;
        double ux = fabs(cxy) > 0 ? cxy : (cxx >= cyy ? 1 : 0),
               uy = fabs(cxy) > 0 ? l1 - cxx : (cxx >= cyy ? 0 : 1);
        double u = hypot(ux, uy);
        t->ux = ux / u, t->uy = uy / u;
    } else
        t->npoly = 3;
    const int np = t->npoly, m = n + np;
    double *A = calloc((size_t)m * (size_t)m + (size_t)m, sizeof(double));
    if (!A) {
        hazard_tps_free(t);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%d points)", n);
    }
    double *b = A + (long)m * m;
    for (int i = 0; i < n; i++) {
        double p[3] = {0, 0, 0};
        for (int j = 0; j < n; j++) {
            double dx = t->x[i] - t->x[j], dy = t->y[i] - t->y[j];
            A[(long)i * m + j] = phi(dx * dx + dy * dy);
        }
        poly(t, t->x[i], t->y[i], p);
        for (int k = 0; k < np; k++)
            A[(long)i * m + n + k] = A[(long)(n + k) * m + i] = p[k];
        b[i] = z[i];
    }
    if (solve(A, b, m)) {
        free(A);
        hazard_tps_free(t);
        return cs_error_set(err, CS_ERR_INPUT,
                            "the thin-plate spline's system is singular for these %d points", n);
    }
    memcpy(t->w, b, sizeof(double) * (size_t)n);
    for (int k = 0; k < np; k++)
        t->a[k] = b[n + k];
    free(A);
    return 0;
}

double hazard_tps_eval(const hazard_tps *t, double x, double y) {
    x = (x - t->x0) / t->scale, y = (y - t->y0) / t->scale;
    double p[3] = {0, 0, 0}, s = 0;
    poly(t, x, y, p);
    for (int k = 0; k < t->npoly; k++)
        s += t->a[k] * p[k];
    for (int i = 0; i < t->n; i++) {
        double dx = x - t->x[i], dy = y - t->y[i];
        s += t->w[i] * phi(dx * dx + dy * dy);
    }
    return s;
}

void hazard_tps_free(hazard_tps *t) {
    free(t->x);
    t->x = t->y = t->w = NULL;
}
