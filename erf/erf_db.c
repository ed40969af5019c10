#include "erf_db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

int erf_db_create(cs_db *db, const char *name, const char *description, double time_span_years,
                  const char *inputs, long long *erf_id, cs_error *err) {
    long long existing;
    double span;
    cs_error probe;
    if (erf_db_find(db, name, &existing, &span, &probe) == 0)
        return cs_error_input(err, cs_db_path(db), "ERF_Name", name,
                              "a forecast of that name is already in the study (ERF_ID %lld); "
                              "choose another name",
                              existing);
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db,
                               "INSERT INTO ERF_IDs (ERF_Name, ERF_Description, Time_Span_Years, "
                               "Prob_Model, Inputs, Created_At) VALUES (?, ?, ?, 'Poisson', ?, "
                               "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                               &st, err));
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, description, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 3, time_span_years);
    sqlite3_bind_text(st, 4, inputs, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "adding the forecast", err);
    *erf_id = sqlite3_last_insert_rowid(cs_db_handle(db));
    return 0;
}

int erf_db_find(cs_db *db, const char *name, long long *erf_id, double *time_span_years,
                cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db, "SELECT ERF_ID, Time_Span_Years FROM ERF_IDs WHERE ERF_Name = ?",
                               &st, err));
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *erf_id = sqlite3_column_int64(st, 0);
        *time_span_years = sqlite3_column_double(st, 1);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return cs_db_fail(db, "looking up the forecast", err);
    return cs_error_input(err, cs_db_path(db), "ERF_Name", name,
                          "no forecast of that name in the study ('cybershake erf list' shows "
                          "them)");
}

int erf_db_bulk_begin(cs_db *db, cs_error *err) {
    /* (PRAGMA foreign_keys is a no-op inside a transaction: it goes first) */
    CS_CALL(err, cs_db_exec(db, "PRAGMA foreign_keys = OFF; PRAGMA cache_size = -262144", err));
    int rc = cs_db_begin(db, err);
    if (rc) cs_db_exec(db, "PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000", err);
    return rc;
}

int erf_db_bulk_end(cs_db *db, int ok, cs_error *err) {
    int rc = 0;
    if (ok)
        rc = cs_db_commit(db, err);
    else
        cs_db_rollback(db);
    cs_error ignored;
    cs_db_exec(db, "PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000", rc ? &ignored : err);
    return rc;
}

int erf_db_writer_open(cs_db *db, long long erf_id, erf_db_writer *w, cs_error *err) {
    memset(w, 0, sizeof *w);
    w->db = db;
    w->erf_id = erf_id;
    int rc;
    CS_CALL_GOTO(rc, err,
                 cs_db_prepare(db,
                               "INSERT INTO Ruptures (ERF_ID, Source_ID, Rupture_ID, Source_Name, "
                               "Source_Type, Magnitude, Prob, Grid_Spacing, Num_Rows, Num_Columns, "
                               "Num_Points, Start_Lat, Start_Lon, Start_Depth, End_Lat, End_Lon, "
                               "End_Depth, Annual_Rate, Source_Key) VALUES "
                               "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               &w->rupture, err),
                 fail);
    CS_CALL_GOTO(
        rc, err,
        cs_db_prepare(db,
                      "INSERT INTO Points (ERF_ID, Source_ID, Rupture_ID, Point_ID, Lat, "
                      "Lon, Depth, Rake, Dip, Strike) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      &w->point, err),
        fail);
    /* Rows go in by blocks: one statement of many rows costs the SQL engine's per-statement
     * work once (a forecast's 17 M points took half their time in it one row at a time). */
    char sql[ERF_DB_POINTS_PER_INSERT * 32 + 256];
    int len = snprintf(sql, sizeof sql,
                       "INSERT INTO Points (ERF_ID, Source_ID, Rupture_ID, Point_ID, Lat, Lon, "
                       "Depth, Rake, Dip, Strike) VALUES ");
    for (int i = 0; i < ERF_DB_POINTS_PER_INSERT; i++)
        len +=
            snprintf(sql + len, sizeof sql - (size_t)len, "%s(?,?,?,?,?,?,?,?,?,?)", i ? "," : "");
    CS_CALL_GOTO(rc, err, cs_db_prepare(db, sql, &w->points, err), fail);
    return 0;
fail:
    erf_db_writer_close(w);
    return rc;
}

int erf_db_writer_add(erf_db_writer *w, const erf_rupture *r, double annual_rate,
                      const char *source_key, cs_error *err) {
    sqlite3_stmt *st = w->rupture;
    int n = erf_rupture_npoints(r), last = r->ncols - 1;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, w->erf_id);
    sqlite3_bind_int64(st, 2, r->source_id);
    sqlite3_bind_int64(st, 3, r->rupture_id);
    sqlite3_bind_text(st, 4, r->source_name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, r->source_type, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 6, r->magnitude);
    sqlite3_bind_double(st, 7, r->prob);
    sqlite3_bind_double(st, 8, r->spacing_km);
    sqlite3_bind_int(st, 9, r->nrows);
    sqlite3_bind_int(st, 10, r->ncols);
    sqlite3_bind_int(st, 11, n);
    /* the ends of the top edge, as CyberShake records them */
    sqlite3_bind_double(st, 12, r->lat[0]);
    sqlite3_bind_double(st, 13, r->lon[0]);
    sqlite3_bind_double(st, 14, r->dep[0]);
    sqlite3_bind_double(st, 15, r->lat[last]);
    sqlite3_bind_double(st, 16, r->lon[last]);
    sqlite3_bind_double(st, 17, r->dep[last]);
    if (isnan(annual_rate))
        sqlite3_bind_null(st, 18);
    else
        sqlite3_bind_double(st, 18, annual_rate);
    if (source_key)
        sqlite3_bind_text(st, 19, source_key, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 19);
    if (sqlite3_step(st) != SQLITE_DONE) {
        int rc = cs_db_fail(w->db, "adding a rupture", err);
        cs_error_prefix(err, "source %lld rupture %lld: ", r->source_id, r->rupture_id);
        return rc;
    }
    const int block = ERF_DB_POINTS_PER_INSERT;
    for (int i0 = 0; i0 < n;) {
        int k = n - i0 >= block ? block : 1; /* whole blocks, then the rest one by one */
        st = k == block ? w->points : w->point;
        sqlite3_reset(st);
        for (int q = 0; q < k; q++) {
            int i = i0 + q, b = 10 * q;
            sqlite3_bind_int64(st, b + 1, w->erf_id);
            sqlite3_bind_int64(st, b + 2, r->source_id);
            sqlite3_bind_int64(st, b + 3, r->rupture_id);
            sqlite3_bind_int(st, b + 4, i);
            sqlite3_bind_double(st, b + 5, r->lat[i]);
            sqlite3_bind_double(st, b + 6, r->lon[i]);
            sqlite3_bind_double(st, b + 7, r->dep[i]);
            sqlite3_bind_double(st, b + 8, r->rake[i]);
            sqlite3_bind_double(st, b + 9, r->dip[i]);
            sqlite3_bind_double(st, b + 10, r->stk[i]);
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            return cs_db_fail(w->db, "adding a rupture point", err);
        i0 += k;
    }
    return 0;
}

void erf_db_writer_close(erf_db_writer *w) {
    sqlite3_finalize(w->rupture);
    sqlite3_finalize(w->point);
    sqlite3_finalize(w->points);
    w->rupture = w->point = w->points = NULL;
}

int erf_db_counter_add(const erf_rupture *r, double annual_rate, const char *source_key,
                       void *counter, cs_error *err) {
    erf_db_counter *c = counter;
    CS_CALL(err, erf_db_writer_add(&c->w, r, annual_rate, source_key, err));
    c->nruptures++;
    c->npoints += erf_rupture_npoints(r);
    c->total_rate += annual_rate;
    return 0;
}

int erf_db_rupture_keys(cs_db *db, long long erf_id, erf_rupture_key **keys, long *n,
                        cs_error *err) {
    sqlite3_stmt *st;
    *keys = NULL;
    *n = 0;
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT Source_ID, Rupture_ID FROM Ruptures WHERE ERF_ID = ? AND "
                               "coalesce(Source_Type, '') <> 'area' ORDER BY Source_ID, Rupture_ID",
                               &st, err));
    sqlite3_bind_int64(st, 1, erf_id);
    long cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            erf_rupture_key *k = realloc(*keys, (size_t)cap * sizeof *k);
            if (!k) {
                sqlite3_finalize(st);
                return cs_error_set(err, CS_ERR_RESOURCE, "out of memory listing ruptures");
            }
            *keys = k;
        }
        (*keys)[*n].source_id = sqlite3_column_int64(st, 0);
        (*keys)[(*n)++].rupture_id = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "listing ruptures", err);
    return 0;
}

int erf_db_load_rupture(cs_db *db, long long erf_id, long long source_id, long long rupture_id,
                        erf_rupture *r, cs_error *err) {
    sqlite3_stmt *st;
    memset(r, 0, sizeof *r);
    CS_CALL(err, cs_db_prepare(
                     db,
                     "SELECT Source_Name, Source_Type, Magnitude, Prob, Grid_Spacing, Num_Rows, "
                     "Num_Columns FROM Ruptures WHERE ERF_ID = ? AND Source_ID = ? AND "
                     "Rupture_ID = ?",
                     &st, err));
    sqlite3_bind_int64(st, 1, erf_id);
    sqlite3_bind_int64(st, 2, source_id);
    sqlite3_bind_int64(st, 3, rupture_id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) return cs_db_fail(db, "reading a rupture", err);
        return cs_error_set(err, CS_ERR_INPUT,
                            "%s: no rupture (source %lld, rupture %lld) in forecast %lld",
                            cs_db_path(db), source_id, rupture_id, erf_id);
    }
    int nrows = sqlite3_column_int(st, 5), ncols = sqlite3_column_int(st, 6);
    char name[160], type[32];
    cs_copy(name, sizeof name,
            (const char *)sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0)
                                                     : "");
    cs_copy(type, sizeof type,
            (const char *)sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1)
                                                     : "");
    double mag = sqlite3_column_double(st, 2), prob = sqlite3_column_double(st, 3),
           spacing = sqlite3_column_double(st, 4);
    sqlite3_finalize(st);
    CS_CALL(err, erf_rupture_alloc(r, nrows, ncols, err));
    r->source_id = source_id;
    r->rupture_id = rupture_id;
    cs_copy(r->source_name, sizeof r->source_name, name);
    cs_copy(r->source_type, sizeof r->source_type, type);
    r->magnitude = mag;
    r->prob = prob;
    r->spacing_km = spacing;
    rc = cs_db_prepare(db,
                       "SELECT Point_ID, Lat, Lon, Depth, Rake, Dip, Strike FROM Points WHERE "
                       "ERF_ID = ? AND Source_ID = ? AND Rupture_ID = ? ORDER BY Point_ID",
                       &st, err);
    if (rc) erf_rupture_free(r);
    CS_CALL(err, rc);
    sqlite3_bind_int64(st, 1, erf_id);
    sqlite3_bind_int64(st, 2, source_id);
    sqlite3_bind_int64(st, 3, rupture_id);
    int count = 0, n = erf_rupture_npoints(r);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int i = sqlite3_column_int(st, 0);
        if (i != count || i >= n) break;
        r->lat[i] = sqlite3_column_double(st, 1);
        r->lon[i] = sqlite3_column_double(st, 2);
        r->dep[i] = sqlite3_column_double(st, 3);
        r->rake[i] = sqlite3_column_double(st, 4);
        r->dip[i] = sqlite3_column_double(st, 5);
        r->stk[i] = sqlite3_column_double(st, 6);
        count++;
    }
    sqlite3_finalize(st);
    if (count != n) {
        erf_rupture_free(r);
        return cs_error_set(err, CS_ERR_INPUT,
                            "%s: source %lld rupture %lld has %d of its %d x %d points in Points",
                            cs_db_path(db), source_id, rupture_id, count, nrows, ncols);
    }
    return 0;
}
