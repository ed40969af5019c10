#include "forecast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"

/* The points of the rupture being read. */
typedef struct {
    double *lat, *lon, *dep, *rake, *dip;
    long n, cap;
} point_buf;

static int point_push(point_buf *b, double lat, double lon, double dep, double rake, double dip,
                      cs_error *err) {
    if (b->n == b->cap) {
        long cap = b->cap ? 2 * b->cap : 256;
        double **arr[5] = {&b->lat, &b->lon, &b->dep, &b->rake, &b->dip};
        for (int k = 0; k < 5; k++) {
            double *g = realloc(*arr[k], sizeof(double) * (size_t)cap);
            if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld points)", cap);
            *arr[k] = g;
        }
        b->cap = cap;
    }
    b->lat[b->n] = lat, b->lon[b->n] = lon, b->dep[b->n] = dep, b->rake[b->n] = rake;
    b->dip[b->n++] = dip;
    return 0;
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

/* The rupture in `pts` complete: its entry, or its points' entries for an area rupture. */
static int finish(const point_buf *pts, hazard_forecast_rupture head, int ncols, int area,
                  double lon, double lat, double max_km, entry_buf *out, cs_error *err) {
    if (area) {
        const double p = -expm1(log1p(-head.prob) / (double)pts->n);
        for (long q = 0; q < pts->n; q++) {
            hazard_forecast_rupture e = head;
            e.point = q, e.prob = p, e.rake = pts->rake[q], e.dip = pts->dip[q];
            CS_CALL(err, erf_distances_at(pts->lat + q, pts->lon + q, pts->dep + q, 1, 1, lon, lat,
                                          &e.d, err));
            if (e.d.rrup <= max_km) CS_CALL(err, entry_push(out, &e, err));
        }
        return 0;
    }
    if (ncols < 1 || pts->n % ncols)
        return cs_error_input(err, "Ruptures", "Num_Columns", NULL,
                              "rupture %lld/%lld has %ld points, not a multiple of its %d columns",
                              head.source_id, head.rupture_id, pts->n, ncols);
    head.point = -1, head.rake = pts->rake[0], head.dip = pts->dip[0];
    int rc = erf_distances_at(pts->lat, pts->lon, pts->dep, (int)(pts->n / ncols), ncols, lon, lat,
                              &head.d, err);
    if (!rc && head.d.rrup <= max_km) rc = entry_push(out, &head, err);
    return rc;
}

int hazard_forecast_load(cs_db *db, long long erf_id, double lon, double lat, double max_km,
                         hazard_forecast_rupture **out, long *n, long *nall, cs_error *err) {
    sqlite3_stmt *st;
    *out = NULL;
    *n = *nall = 0;
    CS_CALL(err, cs_db_prepare(
                     db,
                     "SELECT r.Source_ID, r.Rupture_ID, r.Magnitude, r.Prob, r.Num_Columns, "
                     "coalesce(r.Source_Type, '') = 'area', p.Lat, p.Lon, p.Depth, p.Rake, p.Dip "
                     "FROM Ruptures r JOIN Points p ON p.ERF_ID = r.ERF_ID AND p.Source_ID = "
                     "r.Source_ID AND p.Rupture_ID = r.Rupture_ID WHERE r.ERF_ID = ? "
                     "ORDER BY r.Source_ID, r.Rupture_ID, p.Point_ID",
                     &st, err));
    sqlite3_bind_int64(st, 1, erf_id);
    point_buf pts = {0};
    entry_buf res = {0};
    hazard_forecast_rupture head = {0};
    int ncols = 0, area = 0, any = 0, rc = 0, step;
    for (;;) {
        step = sqlite3_step(st);
        long long s = -2, r = -2;
        if (step == SQLITE_ROW) s = sqlite3_column_int64(st, 0), r = sqlite3_column_int64(st, 1);
        if (any && (s != head.source_id || r != head.rupture_id)) {
            (*nall)++;
            if ((rc = finish(&pts, head, ncols, area, lon, lat, max_km, &res, err))) break;
            any = 0;
        }
        if (step != SQLITE_ROW) break;
        if (!any) {
            head = (hazard_forecast_rupture){.source_id = s,
                                             .rupture_id = r,
                                             .mag = sqlite3_column_double(st, 2),
                                             .prob = sqlite3_column_double(st, 3)};
            ncols = sqlite3_column_int(st, 4), area = sqlite3_column_int(st, 5);
            pts.n = 0, any = 1;
        }
        if ((rc = point_push(&pts, sqlite3_column_double(st, 6), sqlite3_column_double(st, 7),
                             sqlite3_column_double(st, 8), sqlite3_column_double(st, 9),
                             sqlite3_column_double(st, 10), err)))
            break;
    }
    sqlite3_finalize(st);
    free(pts.lat), free(pts.lon), free(pts.dep), free(pts.rake), free(pts.dip);
    if (!rc && step != SQLITE_DONE) rc = cs_db_fail(db, "reading the forecast's ruptures", err);
    if (rc) {
        free(res.v);
        return rc;
    }
    *out = res.v, *n = res.n;
    return 0;
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
