#include "erf_distance.h"

#include <math.h>
#include <stdlib.h>

#include "cs_geo.h"

/* One segment's weight and perpendicular distance (Spudich and Chiou 2015, eqs. 1-5): the
 * segment from (x0, y0) to (x1, y1), the site at the origin; t to the right of the segment's
 * direction, u along it from its start. Returns 1 when the site lies on the segment itself. */
static int segment(double x0, double y0, double x1, double y1, double *w, double *t) {
    const double dx = x1 - x0, dy = y1 - y0, l = hypot(dx, dy);
    if (l <= 0) { /* repeated trace point: no direction, no weight */
        *w = 0, *t = 0;
        return 0;
    }
    const double ux = dx / l, uy = dy / l; /* along strike */
    const double tx = uy, ty = -ux;        /* strike turned 90 degrees clockwise */
    const double u = -x0 * ux - y0 * uy, tt = -x0 * tx - y0 * ty;
    *t = tt;
    if (fabs(tt) > 1e-9 * (l + fabs(u))) {
        *w = (atan((l - u) / tt) - atan(-u / tt)) / tt;
        return 0;
    }
    if (u >= 0 && u <= l) return 1; /* on the segment */
    *w = 1.0 / (u - l) - 1.0 / u;   /* on its extension */
    return 0;
}

double erf_gc2_t(const double *x, const double *y, int n) {
    if (n < 2) return 0;
    double sw = 0, swt = 0;
    for (int i = 0; i + 1 < n; i++) {
        double w, t;
        if (segment(x[i], y[i], x[i + 1], y[i + 1], &w, &t)) return 0;
        sw += w, swt += w * t;
    }
    return sw != 0 ? swt / sw : 0;
}

int erf_distances_at(const double *lat, const double *lon, const double *dep, int nrows, int ncols,
                     double site_lon, double site_lat, erf_distances *out, cs_error *err) {
    const long n = (long)nrows * ncols;
    if (n < 1)
        return cs_error_set(err, CS_ERR_INPUT,
                            "a rupture surface needs at least one point (%d x %d)", nrows, ncols);
    out->rrup = out->rjb = INFINITY;
    out->ztor = INFINITY;
    /* the top row's points in the site's azimuthal equidistant frame, for Rx */
    const int trace = n > 1 && ncols >= 2;
    double *x = trace ? malloc(sizeof(double) * 2 * (size_t)ncols) : NULL;
    if (trace && !x)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%d trace points)", ncols);
    double *y = x ? x + ncols : NULL;
    /* The sphere's distances first (a few times cheaper): the ellipsoid's distance e of a point
     * whose sphere distance is s lies within s / (1 + E) and s / (1 - E) (E =
     * CS_GEO_SPHERE_ERROR), so a point whose lower bound is beyond the smallest upper bound can
     * be neither the closest on the surface nor in depth, and its geodesic is not needed. The
     * top row is measured exactly (Ztor, the trace for Rx). */
    const double E = CS_GEO_SPHERE_ERROR;
    double *s = n > 16 ? malloc(sizeof(double) * (size_t)n) : NULL;
    double up_jb = INFINITY, up_rup = INFINITY;
    if (s)
        for (long q = 0; q < n; q++) {
            s[q] = cs_geo_distance_sphere(site_lon, site_lat, lon[q], lat[q]) * 1e-3;
            up_jb = fmin(up_jb, s[q] / (1 - E));
            up_rup = fmin(up_rup, hypot(s[q] / (1 - E), dep[q]));
        }
    for (long q = 0; q < n; q++) {
        if (s && q >= ncols && s[q] / (1 + E) > up_jb && hypot(s[q] / (1 + E), dep[q]) > up_rup)
            continue;
        double d, az_deg = 0;
        if (q < ncols && x) /* a trace point: its azimuth too, from the same solution */
            cs_geo_inverse(site_lon, site_lat, lon[q], lat[q], &d, &az_deg);
        else
            d = cs_geo_distance(site_lon, site_lat, lon[q], lat[q]);
        d *= 1e-3;
        out->rjb = fmin(out->rjb, d);
        out->rrup = fmin(out->rrup, hypot(d, dep[q]));
        if (q < ncols) {
            out->ztor = fmin(out->ztor, dep[q]);
            if (x) {
                const double az = az_deg * M_PI / 180;
                x[q] = d > 0 ? d * sin(az) : 0;
                y[q] = d > 0 ? d * cos(az) : 0;
            }
        }
    }
    free(s);
    if (!trace) {
        /* a point (or a surface with no extent along strike): no trace to measure from */
        out->rx = -out->rjb;
        return 0;
    }
    out->rx = erf_gc2_t(x, y, ncols);
    free(x);
    return 0;
}
