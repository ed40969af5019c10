#include "cs_geo.h"

#include <math.h>
#include <geodesic.h>
#include <proj.h>
#include <stdio.h>
#include <stdlib.h>

struct cs_geo_frame {
    PJ_CONTEXT *ctx;
    PJ *pj;
    double lon0, lat0, azimuth;
    double ca, sa; /* cos and sin of the azimuth */
};

static const double DEG = M_PI / 180.0;

int cs_geo_check_lonlat(double lon, double lat, const char *place, cs_error *err) {
    char v[64];
    if (!isfinite(lat) || lat < -90.0 || lat > 90.0) {
        snprintf(v, sizeof v, "%.10g", lat);
        return cs_error_input(err, place, "latitude", v, "must lie in [-90, 90] degrees");
    }
    if (!isfinite(lon) || lon < -180.0 || lon > 180.0) {
        snprintf(v, sizeof v, "%.10g", lon);
        return cs_error_input(err, place, "longitude", v,
                              "must lie in [-180, 180] degrees (west negative)");
    }
    return 0;
}

int cs_geo_frame_create(double lon0, double lat0, double azimuth_deg, cs_geo_frame **out,
                        cs_error *err) {
    *out = NULL;
    CS_CALL(err, cs_geo_check_lonlat(lon0, lat0, "frame origin", err));
    if (fabs(lat0) > 85.0) {
        char v[64];
        snprintf(v, sizeof v, "%.10g", lat0);
        return cs_error_input(err, "frame origin", "latitude", v,
                              "a box frame must lie within 85 degrees of the equator");
    }
    if (!isfinite(azimuth_deg)) {
        return cs_error_input(err, "frame", "rotation", "non-finite", "must be a finite angle");
    }
    cs_geo_frame *f = calloc(1, sizeof *f);
    if (!f) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    f->ctx = proj_context_create();
    char def[256];
    snprintf(def, sizeof def,
             "+proj=tmerc +lat_0=%.12f +lon_0=%.12f +k=1 +x_0=0 +y_0=0 +ellps=WGS84", lat0, lon0);
    f->pj = proj_create(f->ctx, def);
    if (!f->pj) {
        int code = proj_context_errno(f->ctx);
        cs_error_set(err, CS_ERR_INTERNAL, "PROJ could not create '%s': %s", def,
                     proj_context_errno_string(f->ctx, code));
        proj_context_destroy(f->ctx);
        free(f);
        return CS_ERR_INTERNAL;
    }
    f->lon0 = lon0;
    f->lat0 = lat0;
    f->azimuth = azimuth_deg;
    f->ca = cos(azimuth_deg * DEG);
    f->sa = sin(azimuth_deg * DEG);
    *out = f;
    return 0;
}

void cs_geo_frame_free(cs_geo_frame *f) {
    if (!f) return;
    proj_destroy(f->pj);
    proj_context_destroy(f->ctx);
    free(f);
}

double cs_geo_frame_lon0(const cs_geo_frame *f) {
    return f->lon0;
}
double cs_geo_frame_lat0(const cs_geo_frame *f) {
    return f->lat0;
}
double cs_geo_frame_azimuth(const cs_geo_frame *f) {
    return f->azimuth;
}

int cs_geo_to_local(const cs_geo_frame *f, double lon, double lat, double *x, double *y,
                    cs_error *err) {
    CS_CALL(err, cs_geo_check_lonlat(lon, lat, "point", err));
    /* the exact distance only near the limit: the sphere's bounds it well inside */
    double d = cs_geo_distance_sphere(f->lon0, f->lat0, lon, lat);
    if (!(d <= CS_GEO_MAX_DISTANCE * (1 - 2 * CS_GEO_SPHERE_ERROR)))
        d = cs_geo_distance(f->lon0, f->lat0, lon, lat);
    if (!(d <= CS_GEO_MAX_DISTANCE)) {
        char v[96];
        snprintf(v, sizeof v, "%.8f, %.8f", lon, lat);
        return cs_error_input(err, "point", "lon, lat", v,
                              "lies %.0f km from the frame origin (%.5f, %.5f); at most %.0f km "
                              "is supported",
                              d / 1e3, f->lon0, f->lat0, CS_GEO_MAX_DISTANCE / 1e3);
    }
    PJ_COORD c = proj_coord(proj_torad(lon), proj_torad(lat), 0, 0);
    PJ_COORD r = proj_trans(f->pj, PJ_FWD, c);
    if (r.xy.x == HUGE_VAL || !isfinite(r.xy.x) || !isfinite(r.xy.y))
        return cs_error_set(err, CS_ERR_INTERNAL, "PROJ failed to project (%.8f, %.8f)", lon, lat);
    double e = r.xy.x, n = r.xy.y;
    /* x along the azimuth, y 90 degrees clockwise from it. */
    *x = n * f->ca + e * f->sa;
    *y = -n * f->sa + e * f->ca;
    return 0;
}

int cs_geo_to_geographic(const cs_geo_frame *f, double x, double y, double *lon, double *lat,
                         cs_error *err) {
    if (!isfinite(x) || !isfinite(y) || hypot(x, y) > CS_GEO_MAX_DISTANCE) {
        char v[96];
        snprintf(v, sizeof v, "%.3f, %.3f", x, y);
        return cs_error_input(err, "local point", "x, y", v,
                              "must be finite and within %.0f km of the frame origin",
                              CS_GEO_MAX_DISTANCE / 1e3);
    }
    double n = x * f->ca - y * f->sa;
    double e = x * f->sa + y * f->ca;
    PJ_COORD r = proj_trans(f->pj, PJ_INV, proj_coord(e, n, 0, 0));
    if (r.lp.lam == HUGE_VAL || !isfinite(r.lp.lam))
        return cs_error_set(err, CS_ERR_INTERNAL, "PROJ failed to invert (%.3f, %.3f)", x, y);
    *lon = proj_todeg(r.lp.lam);
    *lat = proj_todeg(r.lp.phi);
    return 0;
}

int cs_geo_box_axes_enu(const cs_geo_frame *f, double lon, double lat, double axes[3][3],
                        cs_error *err) {
    CS_CALL(err, cs_geo_check_lonlat(lon, lat, "point", err));
    /* True north in box coordinates, measured by projecting a point 1e-4 degrees (11 m) to the
     * north: this carries the projection's meridian convergence without depending on any sign
     * convention for it. */
    double x0, y0;
    CS_CALL(err, cs_geo_to_local(f, lon, lat, &x0, &y0, err));
    return cs_geo_box_axes_enu_at(f, lon, lat, x0, y0, axes, err);
}

int cs_geo_box_axes_enu_at(const cs_geo_frame *f, double lon, double lat, double x0, double y0,
                           double axes[3][3], cs_error *err) {
    double x1, y1;
    double dlat = lat > 89.0 ? -1e-4 : 1e-4;
    CS_CALL(err, cs_geo_to_local(f, lon, lat + dlat, &x1, &y1, err));
    double nx = (x1 - x0) * (dlat > 0 ? 1 : -1), ny = (y1 - y0) * (dlat > 0 ? 1 : -1);
    double nn = hypot(nx, ny);
    nx /= nn;
    ny /= nn;
    /* East is north turned 90 degrees clockwise seen from above; with z down that maps box
     * (a, b) to (-b, a): for azimuth 0, north (1, 0) gives east (0, 1). */
    double ex = -ny, ey = nx;
    axes[0][0] = ex; /* box x: its East component is x . east */
    axes[0][1] = nx;
    axes[0][2] = 0.0;
    axes[1][0] = ey;
    axes[1][1] = ny;
    axes[1][2] = 0.0;
    axes[2][0] = 0.0; /* box z points down */
    axes[2][1] = 0.0;
    axes[2][2] = -1.0;
    return 0;
}

static const struct geod_geodesic *wgs84(void) {
    /* geod_init only fills constants; initialising it on every call costs little, and keeps
     * this free of shared mutable state across threads. */
    static _Thread_local struct geod_geodesic g;
    static _Thread_local int ready = 0;
    if (!ready) {
        geod_init(&g, 6378137.0, 1.0 / 298.257223563);
        ready = 1;
    }
    return &g;
}

double cs_geo_distance(double lon1, double lat1, double lon2, double lat2) {
    double s12;
    geod_inverse(wgs84(), lat1, lon1, lat2, lon2, &s12, NULL, NULL);
    return s12;
}

double cs_geo_distance_sphere(double lon1, double lat1, double lon2, double lat2) {
    const double r = 6371008.8, k = M_PI / 180; /* the mean radius of WGS84 (IUGG) */
    double s1 = sin(0.5 * (lat2 - lat1) * k), s2 = sin(0.5 * (lon2 - lon1) * k);
    double a = s1 * s1 + cos(lat1 * k) * cos(lat2 * k) * s2 * s2;
    return 2 * r * asin(sqrt(a < 1 ? a : 1));
}

void cs_geo_destination(double lon, double lat, double azimuth_deg, double distance_m, double *lon2,
                        double *lat2) {
    geod_direct(wgs84(), lat, lon, azimuth_deg, distance_m, lat2, lon2, NULL);
}

void cs_geo_inverse(double lon1, double lat1, double lon2, double lat2, double *distance_m,
                    double *azimuth_deg) {
    double azi2;
    geod_inverse(wgs84(), lat1, lon1, lat2, lon2, distance_m, azimuth_deg, &azi2);
}

double cs_geo_azimuth(double lon1, double lat1, double lon2, double lat2) {
    double s12, azi1, azi2;
    geod_inverse(wgs84(), lat1, lon1, lat2, lon2, &s12, &azi1, &azi2);
    return azi1;
}
