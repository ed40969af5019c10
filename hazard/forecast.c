#include "forecast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_geo.h"

/* A rupture of the forecast: its points are first .. first + npts - 1 of the point arrays. */
typedef struct {
    long long source_id, rupture_id;
    double mag, prob;
    int ncols, area;
    long first, npts;
    double clon, clat, radius_km; /* a circle on the sphere holding every point */
} fc_rupture;

struct hazard_forecast {
    fc_rupture *r;
    long nr, rcap;
    double *lat, *lon, *dep, *rake, *dip;
    long np, pcap;
};

static int point_push(hazard_forecast *f, double lat, double lon, double dep, double rake,
                      double dip, cs_error *err) {
    if (f->np == f->pcap) {
        long cap = f->pcap ? 2 * f->pcap : 1024;
        double **arr[5] = {&f->lat, &f->lon, &f->dep, &f->rake, &f->dip};
        for (int k = 0; k < 5; k++) {
            double *g = realloc(*arr[k], sizeof(double) * (size_t)cap);
            if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld points)", cap);
            *arr[k] = g;
        }
        f->pcap = cap;
    }
    f->lat[f->np] = lat, f->lon[f->np] = lon, f->dep[f->np] = dep, f->rake[f->np] = rake;
    f->dip[f->np++] = dip;
    return 0;
}

static int rupture_push(hazard_forecast *f, const fc_rupture *r, cs_error *err) {
    if (f->nr == f->rcap) {
        long cap = f->rcap ? 2 * f->rcap : 256;
        fc_rupture *g = realloc(f->r, sizeof *g * (size_t)cap);
        if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld ruptures)", cap);
        f->r = g, f->rcap = cap;
    }
    f->r[f->nr++] = *r;
    return 0;
}

/* The rupture just read: its layout checked, its bounding circle (mean position; the farthest
 * point on the sphere from it). */
static int close_rupture(hazard_forecast *f, fc_rupture *r, cs_error *err) {
    r->npts = f->np - r->first;
    if (!r->area && (r->ncols < 1 || r->npts % r->ncols))
        return cs_error_input(err, "Ruptures", "Num_Columns", NULL,
                              "rupture %lld/%lld has %ld points, not a multiple of its %d columns",
                              r->source_id, r->rupture_id, r->npts, r->ncols);
    double slon = 0, slat = 0;
    for (long q = r->first; q < f->np; q++)
        slon += f->lon[q], slat += f->lat[q];
    r->clon = slon / (double)r->npts, r->clat = slat / (double)r->npts, r->radius_km = 0;
    for (long q = r->first; q < f->np; q++)
        r->radius_km = fmax(r->radius_km,
                            cs_geo_distance_sphere(r->clon, r->clat, f->lon[q], f->lat[q]) * 1e-3);
    return rupture_push(f, r, err);
}

int hazard_forecast_read(cs_db *db, long long erf_id, hazard_forecast **out, cs_error *err) {
    sqlite3_stmt *st;
    *out = NULL;
    hazard_forecast *f = calloc(1, sizeof *f);
    if (!f) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    int rc =
        cs_db_prepare(db,
                      "SELECT r.Source_ID, r.Rupture_ID, r.Magnitude, r.Prob, r.Num_Columns, "
                      "coalesce(r.Source_Type, '') = 'area', p.Lat, p.Lon, p.Depth, p.Rake, p.Dip "
                      "FROM Ruptures r JOIN Points p ON p.ERF_ID = r.ERF_ID AND p.Source_ID = "
                      "r.Source_ID AND p.Rupture_ID = r.Rupture_ID WHERE r.ERF_ID = ? "
                      "ORDER BY r.Source_ID, r.Rupture_ID, p.Point_ID",
                      &st, err);
    if (rc) {
        free(f);
        return rc;
    }
    sqlite3_bind_int64(st, 1, erf_id);
    fc_rupture head = {0};
    int any = 0, step;
    for (;;) {
        step = sqlite3_step(st);
        long long s = -2, r = -2;
        if (step == SQLITE_ROW) s = sqlite3_column_int64(st, 0), r = sqlite3_column_int64(st, 1);
        if (any && (s != head.source_id || r != head.rupture_id)) {
            if ((rc = close_rupture(f, &head, err))) break;
            any = 0;
        }
        if (step != SQLITE_ROW) break;
        if (!any) {
            head = (fc_rupture){.source_id = s,
                                .rupture_id = r,
                                .mag = sqlite3_column_double(st, 2),
                                .prob = sqlite3_column_double(st, 3),
                                .ncols = sqlite3_column_int(st, 4),
                                .area = sqlite3_column_int(st, 5),
                                .first = f->np};
            any = 1;
        }
        if ((rc = point_push(f, sqlite3_column_double(st, 6), sqlite3_column_double(st, 7),
                             sqlite3_column_double(st, 8), sqlite3_column_double(st, 9),
                             sqlite3_column_double(st, 10), err)))
            break;
    }
    sqlite3_finalize(st);
    if (!rc && step != SQLITE_DONE) rc = cs_db_fail(db, "reading the forecast's ruptures", err);
    if (rc) {
        hazard_forecast_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

long hazard_forecast_count(const hazard_forecast *f) {
    return f ? f->nr : 0;
}

void hazard_forecast_free(hazard_forecast *f) {
    if (!f) return;
    free(f->r);
    free(f->lat), free(f->lon), free(f->dep), free(f->rake), free(f->dip);
    free(f);
}

typedef struct {
    hazard_forecast_rupture *v;
    long n, cap;
} entry_buf;

static int entry_push(entry_buf *b, const hazard_forecast_rupture *e, cs_error *err) {
    if (b->n == b->cap) {
        long cap = b->cap ? 2 * b->cap : 1024;
        hazard_forecast_rupture *g = realloc(b->v, sizeof *g * (size_t)cap);
        if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld ruptures)", cap);
        b->v = g, b->cap = cap;
    }
    b->v[b->n++] = *e;
    return 0;
}

/* The ellipsoid's distance is at least the sphere's / (1 + CS_GEO_SPHERE_ERROR): a bound of
 * d_sphere km above max_km this way is surely beyond it. */
static int surely_beyond(double d_sphere_km, double max_km) {
    return d_sphere_km / (1 + CS_GEO_SPHERE_ERROR) > max_km * (1 + 1e-9) + 1e-6;
}

/* Rupture r's entry, or its points' entries for an area rupture, when within max_km. */
static int rupture_near(const hazard_forecast *f, const fc_rupture *r, double lon, double lat,
                        double max_km, entry_buf *out, cs_error *err) {
    hazard_forecast_rupture head = {
        .source_id = r->source_id, .rupture_id = r->rupture_id, .mag = r->mag, .prob = r->prob};
    const long q0 = r->first;
    if (r->area) {
        const double p = -expm1(log1p(-r->prob) / (double)r->npts);
        for (long q = 0; q < r->npts; q++) {
            if (surely_beyond(cs_geo_distance_sphere(lon, lat, f->lon[q0 + q], f->lat[q0 + q]) *
                                  1e-3,
                              max_km))
                continue;
            hazard_forecast_rupture e = head;
            e.point = q, e.prob = p, e.rake = f->rake[q0 + q], e.dip = f->dip[q0 + q];
            CS_CALL(err, erf_distances_at(f->lat + q0 + q, f->lon + q0 + q, f->dep + q0 + q, 1, 1,
                                          lon, lat, &e.d, err));
            if (e.d.rrup <= max_km) CS_CALL(err, entry_push(out, &e, err));
        }
        return 0;
    }
    if (surely_beyond(cs_geo_distance_sphere(lon, lat, r->clon, r->clat) * 1e-3 - r->radius_km,
                      max_km))
        return 0;
    head.point = -1, head.rake = f->rake[q0], head.dip = f->dip[q0];
    CS_CALL(err, erf_distances_at(f->lat + q0, f->lon + q0, f->dep + q0, (int)(r->npts / r->ncols),
                                  r->ncols, lon, lat, &head.d, err));
    if (head.d.rrup <= max_km) CS_CALL(err, entry_push(out, &head, err));
    return 0;
}

int hazard_forecast_near(const hazard_forecast *f, double lon, double lat, double max_km,
                         hazard_forecast_rupture **out, long *n, cs_error *err) {
    entry_buf res = {0};
    *out = NULL, *n = 0;
    for (long i = 0; i < f->nr; i++) {
        int rc = rupture_near(f, &f->r[i], lon, lat, max_km, &res, err);
        if (rc) {
            free(res.v);
            return rc;
        }
    }
    *out = res.v, *n = res.n;
    return 0;
}

int hazard_forecast_load(cs_db *db, long long erf_id, double lon, double lat, double max_km,
                         hazard_forecast_rupture **out, long *n, long *nall, cs_error *err) {
    hazard_forecast *f;
    *out = NULL;
    *n = *nall = 0;
    CS_CALL(err, hazard_forecast_read(db, erf_id, &f, err));
    *nall = hazard_forecast_count(f);
    int rc = hazard_forecast_near(f, lon, lat, max_km, out, n, err);
    hazard_forecast_free(f);
    return rc;
}

int hazard_forecast_write_csv(const char *path, const hazard_forecast_rupture *r, long n,
                              cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f, "source_id,rupture_id,point,magnitude,probability,rake,dip,ztor_km,rrup_km,"
                 "rjb_km,rx_km\n");
    for (long q = 0; q < n; q++)
        fprintf(a.f, "%lld,%lld,%ld,%.4f,%.6e,%.1f,%.1f,%.4f,%.4f,%.4f,%.4f\n", r[q].source_id,
                r[q].rupture_id, r[q].point, r[q].mag, r[q].prob, r[q].rake, r[q].dip, r[q].d.ztor,
                r[q].d.rrup, r[q].d.rjb, r[q].d.rx);
    return cs_atomic_commit(&a, NULL, err);
}
