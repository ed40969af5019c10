#include "erf_area.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_csv.h"
#include "cs_geo.h"
#include "cs_strutil.h"
#include "erf_db.h"

#define EARTH_KM 6371.0
#define D2R      (M_PI / 180.0)

int erf_area_read_polygon(const char *path, erf_area_source *a, cs_error *err) {
    cs_csv *c;
    a->poly = NULL;
    a->nv = 0;
    CS_CALL(err, cs_csv_open(path, &c, err));
    int rc, cap = 0, first = 1;
    while ((rc = cs_csv_next(c, err)) == 1) {
        double lon, lat;
        const int numeric = cs_csv_nfields(c) >= 2 && !cs_parse_double(cs_csv_field(c, 0), &lon) &&
                            !cs_parse_double(cs_csv_field(c, 1), &lat);
        if (!numeric && first) { /* a header */
            first = 0;
            continue;
        }
        first = 0;
        if (!numeric || cs_csv_nfields(c) != 2) {
            rc = cs_error_input(err, cs_csv_place(c), "vertex", NULL,
                                "a polygon vertex is 'lon,lat' in degrees");
            break;
        }
        if ((rc = cs_geo_check_lonlat(lon, lat, cs_csv_place(c), err))) break;
        if (a->nv == cap) {
            cap = cap ? 2 * cap : 64;
            double(*g)[2] = realloc(a->poly, sizeof *g * (size_t)cap);
            if (!g) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory (polygon)");
                break;
            }
            a->poly = g;
        }
        a->poly[a->nv][0] = lon, a->poly[a->nv][1] = lat;
        a->nv++;
    }
    cs_csv_close(c);
    if (!rc && a->nv < 3)
        rc = cs_error_input(err, path, "vertices", NULL,
                            "an area source's polygon needs at least 3 vertices, got %d", a->nv);
    if (rc) {
        free(a->poly);
        a->poly = NULL;
        a->nv = 0;
        return rc < 0 ? rc : -1;
    }
    return 0;
}

void erf_area_default_origin(erf_area_source *a) {
    double lo = 0, la = 0;
    for (int k = 0; k < a->nv; k++)
        lo += a->poly[k][0], la += a->poly[k][1];
    a->origin_lon = lo / a->nv, a->origin_lat = la / a->nv;
}

/* Ray casting in the flat frame. */
static int inside(const double (*p)[2], int nv, double x, double y) {
    int in = 0;
    for (int i = 0, j = nv - 1; i < nv; j = i++)
        if ((p[i][1] > y) != (p[j][1] > y) &&
            x < (p[j][0] - p[i][0]) * (y - p[i][1]) / (p[j][1] - p[i][1]) + p[i][0])
            in = !in;
    return in;
}

int erf_area_grid(const erf_area_source *a, double **lon, double **lat, long *n, cs_error *err) {
    const double la0 = a->origin_lat * D2R, c0 = cos(la0);
    double(*f)[2] = malloc(sizeof *f * (size_t)a->nv); /* x north, y east (km) */
    if (!f) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (polygon)");
    double ext = 0;
    for (int k = 0; k < a->nv; k++) {
        f[k][0] = EARTH_KM * (a->poly[k][1] - a->origin_lat) * D2R;
        f[k][1] = EARTH_KM * c0 * (a->poly[k][0] - a->origin_lon) * D2R;
        ext = fmax(ext, fmax(fabs(f[k][0]), fabs(f[k][1])));
    }
    const double h = a->spacing_km;
    const long ng = (long)ceil(ext / h) + 1;
    *lon = *lat = NULL;
    *n = 0;
    if ((double)(2 * ng) * (2 * ng) > 4e8) {
        free(f);
        return cs_error_input(err, "--spacing", NULL, NULL,
                              "a %g km grid over a polygon %g km across has too many points; use "
                              "a larger spacing",
                              h, 2 * ext);
    }
    long cap = 0;
    int rc = 0;
    for (long i = -ng; i < ng && !rc; i++)
        for (long j = -ng; j < ng; j++) {
            const double x = (i + 0.5) * h, y = (j + 0.5) * h;
            if (!inside((const double(*)[2])f, a->nv, x, y)) continue;
            if (*n == cap) {
                cap = cap ? 2 * cap : 4096;
                double *g1 = realloc(*lon, sizeof(double) * (size_t)cap);
                if (g1) *lon = g1;
                double *g2 = g1 ? realloc(*lat, sizeof(double) * (size_t)cap) : NULL;
                if (g2) *lat = g2;
                if (!g1 || !g2) {
                    rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld grid points)", cap);
                    break;
                }
            }
            (*lat)[*n] = a->origin_lat + x / EARTH_KM / D2R;
            (*lon)[(*n)++] = a->origin_lon + y / (EARTH_KM * c0) / D2R;
        }
    free(f);
    if (!rc && *n == 0)
        rc = cs_error_input(err, "--polygon", NULL, NULL,
                            "no grid point of spacing %g km falls inside the polygon", h);
    if (rc) {
        free(*lon), free(*lat);
        *lon = *lat = NULL;
        *n = 0;
    }
    return rc;
}

int erf_area_ruptures(const erf_area_source *a, erf_emit emit, void *ctx, long *npoints,
                      cs_error *err) {
    const int nb = (int)lround((a->mmax - a->mmin) / a->dm);
    if (nb < 1 || fabs(nb * a->dm - (a->mmax - a->mmin)) > 1e-6)
        return cs_error_input(err, "--mfd", NULL, NULL,
                              "the magnitude range %g to %g is not a whole number of %g bins",
                              a->mmin, a->mmax, a->dm);
    double *lon, *lat;
    long ng;
    int rc;
    CS_CALL(err, erf_area_grid(a, &lon, &lat, &ng, err));
    *npoints = ng;
    erf_rupture r;
    memset(&r, 0, sizeof r);
    if ((double)ng * a->ndepths > 2e9) {
        rc = cs_error_input(err, "--spacing", NULL, NULL, "too many points");
        goto done;
    }
    CS_CALL_GOTO(rc, err, erf_rupture_alloc(&r, a->ndepths, (int)ng, err), done);
    for (int d = 0; d < a->ndepths; d++)
        for (long q = 0; q < ng; q++) {
            const long k = d * ng + q;
            r.lat[k] = lat[q], r.lon[k] = lon[q], r.dep[k] = a->depth_km[d];
            r.rake[k] = a->rake, r.dip[k] = a->dip, r.stk[k] = a->strike;
        }
    r.source_id = a->source_id;
    cs_copy(r.source_name, sizeof r.source_name, a->name);
    cs_copy(r.source_type, sizeof r.source_type, "area");
    r.spacing_km = a->spacing_km;
    const double beta = a->b * log(10.0);
    const double norm = exp(-beta * a->mmin) - exp(-beta * a->mmax);
    char key[200];
    snprintf(key, sizeof key, "area:%s", a->name);
    for (int b = 0; b < nb; b++) {
        const double lo = a->mmin + b * a->dm;
        const double rate = a->rate * (exp(-beta * lo) - exp(-beta * (lo + a->dm))) / norm;
        r.rupture_id = b;
        r.magnitude = lo + 0.5 * a->dm;
        r.prob = -expm1(-rate * a->time_span_years);
        CS_CALL_GOTO(rc, err, emit(&r, rate, key, ctx, err), done);
    }
done:
    free(lon), free(lat);
    erf_rupture_free(&r);
    return rc;
}

/* The next free source id of a forecast, and whether `id` is taken. */
static int source_ids(cs_db *db, long long erf_id, long long id, long long *next, int *taken,
                      cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT coalesce(max(Source_ID) + 1, 0), "
                               "coalesce(sum(Source_ID = ?), 0) FROM Ruptures WHERE ERF_ID = ?",
                               &st, err));
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, erf_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *next = sqlite3_column_int64(st, 0), *taken = sqlite3_column_int(st, 1) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : cs_db_fail(db, "reading the forecast's source ids", err);
}

/* The forecast, created when new; the source's id; the ruptures: inside the transaction. */
static int add_in_transaction(cs_db *db, const char *name, const char *inputs, erf_area_source *a,
                              erf_area_added *out, cs_error *err) {
    cs_error probe;
    double span;
    if (erf_db_find(db, name, &out->erf_id, &span, &probe) == 0)
        a->time_span_years = span;
    else if (probe.status == CS_ERR_INPUT)
        CS_CALL(err, erf_db_create(db, name, "area sources", a->time_span_years, inputs,
                                   &out->erf_id, err));
    else {
        *err = probe;
        CS_TRACE(err);
        return err->status;
    }
    long long asked = a->source_id, next = 0;
    int taken = 0;
    CS_CALL(err, source_ids(db, out->erf_id, asked, &next, &taken, err));
    a->source_id = asked >= 0 ? asked : next;
    if (asked >= 0 && taken)
        return cs_error_input(err, "--source-id", NULL, NULL,
                              "forecast %s already has a source %lld", name, a->source_id);
    erf_db_counter sink = {0};
    int rc;
    CS_CALL_GOTO(rc, err, erf_db_writer_open(db, out->erf_id, &sink.w, err), done);
    CS_CALL_GOTO(rc, err, erf_area_ruptures(a, erf_db_counter_add, &sink, &out->npoints, err),
                 done);
done:
    erf_db_writer_close(&sink.w);
    out->nruptures += sink.nruptures;
    out->total_rate += sink.total_rate;
    return rc;
}

int erf_area_add(const char *study, const char *name, const char *inputs, erf_area_source *a,
                 erf_area_added *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    cs_db *db = NULL;
    int rc;
    CS_CALL_GOTO(rc, err, cs_db_open_current(study, &db, err), done);
    CS_CALL_GOTO(rc, err, cs_db_begin(db, err), done);
    rc = add_in_transaction(db, name, inputs, a, out, err);
    if (!rc)
        rc = cs_db_commit(db, err);
    else
        cs_db_rollback(db);
    if (rc) CS_TRACE(err);
done:
    cs_db_close(db);
    return rc;
}
