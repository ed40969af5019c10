#include "hazard_db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_db_cache.h"
#include "cs_fault.h"
#include "cs_geo.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "erf_distance.h"
#include "im_band.h"
#include "rupture_rrup.h"

static const char *measures[] = {"SA", "PGA", "PGV", "Arias", "CAV", "D5-75", "D5-95"};
/* measures with a period: 'MEASURE PERIOD COMPONENT' */
static const char *period_measures[] = {"SA", "FAS", "D5-75", "D5-95"};
static const char *components[] = {"RotD50", "RotD100", "geometric mean", "E", "N", "Z", "EAS"};

static int is_one_of(const char *s, const char **list, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(s, list[i])) return 1;
    return 0;
}

int hazard_im_parse(const char *text, hazard_im *im, cs_error *err) {
    memset(im, 0, sizeof *im);
    char buf[128], *tok[4];
    int n = 0;
    cs_copy(buf, sizeof buf, text);
    for (char *save = NULL, *t = strtok_r(buf, " \t", &save); t && n < 4;
         t = strtok_r(NULL, " \t", &save))
        tok[n++] = t;
    /* "geometric mean" is two words: join them */
    for (int i = 0; i + 1 < n; i++)
        if (!strcmp(tok[i], "geometric") && !strcmp(tok[i + 1], "mean")) {
            tok[i][strlen(tok[i])] = ' ';
            for (int j = i + 1; j + 1 < n; j++)
                tok[j] = tok[j + 1];
            n--;
        }
    int bad = 0;
    if (n == 2 && is_one_of(tok[0], components, 6)) { /* "RotD50 3.0": SA */
        cs_copy(im->measure, sizeof im->measure, "SA");
        cs_copy(im->component, sizeof im->component, tok[0]);
        bad = cs_parse_double(tok[1], &im->period) || !(im->period > 0);
    } else if (n == 3 && is_one_of(tok[0], period_measures, 4) &&
               is_one_of(tok[2], components, 7)) {
        cs_copy(im->measure, sizeof im->measure, tok[0]);
        cs_copy(im->component, sizeof im->component, tok[2]);
        bad = cs_parse_double(tok[1], &im->period) || !(im->period > 0);
    } else if (n == 2 && is_one_of(tok[0], measures + 1, 6) && is_one_of(tok[1], components, 6)) {
        cs_copy(im->measure, sizeof im->measure, tok[0]);
        cs_copy(im->component, sizeof im->component, tok[1]);
    } else {
        bad = 1;
    }
    if (bad)
        return cs_error_input(
            err, "--im", NULL, text,
            "give 'COMPONENT PERIOD' for SA ('RotD50 3.0', 'geometric mean 5'), "
            "'MEASURE PERIOD COMPONENT' for SA, FAS and the period-dependent durations "
            "('SA 3 Z', 'FAS 5 EAS', 'D5-95 5 E'; FAS at frequency 1/PERIOD), or 'MEASURE "
            "COMPONENT' for PGA, PGV, Arias, CAV, D5-75, D5-95 (components RotD50, RotD100, "
            "geometric mean, E, N, Z, EAS)");
    return 0;
}

void hazard_im_name(const hazard_im *im, char *out, size_t size) {
    if (im->period > 0)
        snprintf(out, size, "%s(%g) %s", im->measure, im->period, im->component);
    else
        snprintf(out, size, "%s %s", im->measure, im->component);
}

int hazard_run_find(cs_db *db, const char *run_or_site, hazard_run *r, cs_error *err) {
    memset(r, 0, sizeof *r);
    long id;
    int by_id = cs_parse_long(run_or_site, &id) == 0;
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     db,
                     by_id ? "SELECT u.Run_ID, u.Site_ID, u.ERF_ID, u.Rup_Var_Scenario_ID, "
                             "s.CS_Short_Name, s.CS_Site_Lon, s.CS_Site_Lat, e.Time_Span_Years, "
                             "coalesce(u.Max_Frequency, 0) FROM CyberShake_Runs u JOIN "
                             "CyberShake_Sites s ON s.CS_Site_ID = u.Site_ID JOIN ERF_IDs e ON "
                             "e.ERF_ID = u.ERF_ID WHERE u.Run_ID = ?"
                           : "SELECT u.Run_ID, u.Site_ID, u.ERF_ID, u.Rup_Var_Scenario_ID, "
                             "s.CS_Short_Name, s.CS_Site_Lon, s.CS_Site_Lat, e.Time_Span_Years, "
                             "coalesce(u.Max_Frequency, 0) FROM CyberShake_Runs u JOIN "
                             "CyberShake_Sites s ON s.CS_Site_ID = u.Site_ID JOIN ERF_IDs e ON "
                             "e.ERF_ID = u.ERF_ID WHERE s.CS_Short_Name = ? AND u.Status IN ('PP "
                             "Generated', 'Curves Generated', 'Verified') ORDER BY u.Run_ID DESC "
                             "LIMIT 1",
                     &st, err));
    if (by_id)
        sqlite3_bind_int64(st, 1, id);
    else
        sqlite3_bind_text(st, 1, run_or_site, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        r->run_id = sqlite3_column_int64(st, 0);
        r->site_id = sqlite3_column_int64(st, 1);
        r->erf_id = sqlite3_column_int64(st, 2);
        r->scen_id = sqlite3_column_int64(st, 3);
        cs_copy(r->site, sizeof r->site, (const char *)sqlite3_column_text(st, 4));
        r->lon = sqlite3_column_double(st, 5);
        r->lat = sqlite3_column_double(st, 6);
        r->time_span = sqlite3_column_double(st, 7);
        r->max_frequency = sqlite3_column_double(st, 8);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return cs_db_fail(db, "looking up the run", err);
    return cs_error_input(err, cs_db_path(db), by_id ? "Run_ID" : "site", run_or_site,
                          by_id ? "no such run in the study"
                                : "no finished extraction of that site in the study (run "
                                  "'cybershake extract' first, or name a Run_ID)");
}

int hazard_im_band(const hazard_run *r, const hazard_im *im, cs_error *err) {
    char why[512], name[64];
    if (im_band_valid(im->measure, im->period, r->max_frequency, why, sizeof why)) return 0;
    hazard_im_name(im, name, sizeof name);
    return cs_error_input(err, "--im", NULL, name,
                          "is outside the band of run %lld (site %s, simulated up to fmax %g "
                          "Hz): %s; no hazard is computed from it (docs/extract.md, \"The "
                          "band\")",
                          r->run_id, r->site, r->max_frequency, why);
}

int hazard_im_type(cs_db *db, const hazard_run *r, const hazard_im *im, long long *type_id,
                   char *units, size_t units_size, cs_error *err) {
    /* never a value from outside the run's band, even one an older extraction stored */
    CS_CALL(err, hazard_im_band(r, im, err));
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     db,
                     "SELECT IM_Type_ID, IM_Type_Units FROM IM_Types WHERE IM_Type_Measure = ? "
                     "AND IM_Type_Component = ? AND ((? = 0 AND IM_Type_Value IS NULL) OR "
                     "abs(IM_Type_Value - ?) < 1e-9)",
                     &st, err));
    sqlite3_bind_text(st, 1, im->measure, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, im->component, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, im->period);
    sqlite3_bind_double(st, 4, im->period);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *type_id = sqlite3_column_int64(st, 0);
        cs_copy(units, units_size, (const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    char name[64];
    hazard_im_name(im, name, sizeof name);
    if (rc != SQLITE_ROW)
        return cs_error_input(err, "--im", NULL, name, "no such intensity measure in the study");
    /* the run must have values of it */
    CS_CALL(err,
            cs_db_prepare(
                db,
                "SELECT EXISTS (SELECT 1 FROM PeakAmplitudes WHERE Run_ID = ? AND IM_Type_ID = ?)",
                &st, err));
    sqlite3_bind_int64(st, 1, r->run_id);
    sqlite3_bind_int64(st, 2, *type_id);
    long long n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (n == 0)
        return cs_error_input(err, "--im", NULL, name,
                              "run %lld has no values of it (the extraction's --periods choose "
                              "the SA periods)",
                              r->run_id);
    return 0;
}

void hazard_set_free(hazard_set *set) {
    for (long i = 0; i < set->n; i++)
        free(set->rups[i].values);
    free(set->rups);
    free(set->source);
    free(set->rupture);
    free(set->mag);
    free(set->rrup);
    memset(set, 0, sizeof *set);
}

/* A rupture's points, read for its Rrup (grown as needed, kept across ruptures). */
typedef struct {
    double *lon, *lat, *depth, *scratch;
    long cap;
} point_buffer;

static void point_buffer_free(point_buffer *b) {
    free(b->lon);
    free(b->lat);
    free(b->depth);
    free(b->scratch);
}

/* Rrup of a rupture from the site (rupture_rrup.h): the closest of its points, horizontal
 * geodesic distance and depth combined. */
static int rupture_rrup(cs_db *db, sqlite3_stmt *pts, const hazard_run *r, long long s, long long q,
                        point_buffer *b, double *out, cs_error *err) {
    sqlite3_reset(pts);
    sqlite3_bind_int64(pts, 1, r->erf_id);
    sqlite3_bind_int64(pts, 2, s);
    sqlite3_bind_int64(pts, 3, q);
    long n = 0;
    int rc;
    while ((rc = sqlite3_step(pts)) == SQLITE_ROW) {
        if (n == b->cap) {
            long cap = b->cap ? 2 * b->cap : 1024;
            /* each array kept as soon as it grows: a failure leaves none dangling */
            double **a[4] = {&b->lon, &b->lat, &b->depth, &b->scratch};
            for (int k = 0; k < 4; k++) {
                double *g = realloc(*a[k], sizeof(double) * (size_t)cap);
                if (!g)
                    return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %ld points", cap);
                *a[k] = g;
            }
            b->cap = cap;
        }
        b->lat[n] = sqlite3_column_double(pts, 0);
        b->lon[n] = sqlite3_column_double(pts, 1);
        b->depth[n] = sqlite3_column_double(pts, 2);
        n++;
    }
    if (rc != SQLITE_DONE) return cs_db_fail(db, "reading rupture points", err);
    *out = hazard_rrup_km(r->lon, r->lat, b->lon, b->lat, b->depth, n, b->scratch);
    return 0;
}

/* An IM type other than type_id whose arrays of the run are there (their Rrup is this type's
 * too), or -1. */
static int type_with_arrays(cs_db *db, long long run_id, long long type_id, long long *other,
                            cs_error *err) {
    sqlite3_stmt *st;
    *other = -1;
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT IM_Type_ID FROM " CS_DB_CACHE_TABLE
                               " WHERE Run_ID = ? AND IM_Type_ID != ? LIMIT 1",
                               &st, err));
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, type_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *other = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
                                                 : cs_db_fail(db, "reading the run's arrays", err);
}

/* Builds the run's per-rupture arrays of an IM type from PeakAmplitudes, when missing. */
static int materialise(cs_db *db, const hazard_run *r, long long type_id, cs_error *err) {
    long long have = 0;
    CS_CALL(err, cs_db_cache_count(db, r->run_id, type_id, &have, err));
    if (have > 0) return 0;
    sqlite3_stmt *sel = NULL, *pts = NULL, *ins = NULL, *kept = NULL;
    double *vals = NULL;
    long cap = 0, nv = 0;
    point_buffer pb = {0};
    /* the run's Rrup, the same for every IM type: taken from another type's arrays when there
     * are some (the distances from every point of the site's ruptures, 16 M in a
     * production-shaped site, are then computed once a run, not once a type) */
    long long other = -1;
    CS_CALL(err, cs_db_begin(db, err));
    int rc;
    CS_CALL_GOTO(rc, err,
                 cs_db_prepare(db,
                               "SELECT p.Source_ID, p.Rupture_ID, r.Prob, r.Magnitude, p.IM_Value "
                               "FROM PeakAmplitudes p JOIN Ruptures r ON r.ERF_ID = ? AND "
                               "r.Source_ID = p.Source_ID AND r.Rupture_ID = p.Rupture_ID WHERE "
                               "p.Run_ID = ? AND p.IM_Type_ID = ? ORDER BY p.Source_ID, "
                               "p.Rupture_ID",
                               &sel, err),
                 cleanup);
    CS_CALL_GOTO(rc, err,
                 cs_db_prepare(db,
                               "SELECT Lat, Lon, Depth FROM Points WHERE ERF_ID = ? AND "
                               "Source_ID = ? AND Rupture_ID = ?",
                               &pts, err),
                 cleanup);
    CS_CALL_GOTO(rc, err, cs_db_prepare(db, CS_DB_CACHE_INSERT, &ins, err), cleanup);
    CS_CALL_GOTO(rc, err, type_with_arrays(db, r->run_id, type_id, &other, err), cleanup);
    if (other >= 0)
        CS_CALL_GOTO(rc, err,
                     cs_db_prepare(db,
                                   "SELECT Rrup_Km FROM " CS_DB_CACHE_TABLE
                                   " WHERE Run_ID = ? AND IM_Type_ID = ? AND Source_ID = ? AND "
                                   "Rupture_ID = ?",
                                   &kept, err),
                     cleanup);
    sqlite3_bind_int64(sel, 1, r->erf_id);
    sqlite3_bind_int64(sel, 2, r->run_id);
    sqlite3_bind_int64(sel, 3, type_id);
    long long cur_s = -1, cur_r = -1;
    double prob = 0, mag = 0;
    int step = SQLITE_DONE;
    for (;;) {
        step = sqlite3_step(sel);
        int row = step == SQLITE_ROW;
        long long s = row ? sqlite3_column_int64(sel, 0) : -2,
                  q = row ? sqlite3_column_int64(sel, 1) : -2;
        if ((!row || s != cur_s || q != cur_r) && nv > 0) {
            /* flush the previous rupture */
            hazard_rupture h = {.nvalues = (int)nv, .values = vals};
            hazard_sort_values(&h);
            double rr = 0;
            int found = 0;
            if (kept) {
                sqlite3_reset(kept);
                sqlite3_bind_int64(kept, 1, r->run_id);
                sqlite3_bind_int64(kept, 2, other);
                sqlite3_bind_int64(kept, 3, cur_s);
                sqlite3_bind_int64(kept, 4, cur_r);
                if (sqlite3_step(kept) == SQLITE_ROW)
                    rr = sqlite3_column_double(kept, 0), found = 1;
            }
            if (!found && (rc = rupture_rrup(db, pts, r, cur_s, cur_r, &pb, &rr, err))) break;
            sqlite3_reset(ins);
            sqlite3_bind_int64(ins, 1, r->run_id);
            sqlite3_bind_int64(ins, 2, type_id);
            sqlite3_bind_int64(ins, 3, cur_s);
            sqlite3_bind_int64(ins, 4, cur_r);
            sqlite3_bind_double(ins, 5, mag);
            sqlite3_bind_double(ins, 6, prob);
            sqlite3_bind_double(ins, 7, rr);
            sqlite3_bind_int64(ins, 8, nv);
            sqlite3_bind_blob(ins, 9, vals, (int)(sizeof(double) * (size_t)nv), SQLITE_STATIC);
            if (sqlite3_step(ins) != SQLITE_DONE) {
                rc = cs_db_fail(db, "storing a rupture's values", err);
                break;
            }
            nv = 0;
        }
        if (!row) break;
        cur_s = s;
        cur_r = q;
        prob = sqlite3_column_double(sel, 2);
        mag = sqlite3_column_double(sel, 3);
        if (nv == cap) {
            cap = cap ? 2 * cap : 256;
            double *g = realloc(vals, sizeof(double) * (size_t)cap);
            if (!g) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                break;
            }
            vals = g;
        }
        vals[nv++] = sqlite3_column_double(sel, 4);
    }
    if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
        rc = cs_db_fail(db, "reading the amplitudes", err);
cleanup:
    free(vals);
    point_buffer_free(&pb);
    sqlite3_finalize(sel);
    sqlite3_finalize(pts);
    sqlite3_finalize(ins);
    sqlite3_finalize(kept);
    if (rc) {
        cs_db_rollback(db);
        return rc;
    }
    rc = cs_db_commit(db, err);
    cs_fault_point("hazard-curve-stored");
    return rc;
}

int hazard_load(cs_db *db, const hazard_run *r, long long type_id, hazard_set *set, cs_error *err) {
    memset(set, 0, sizeof *set);
    CS_CALL(err, materialise(db, r, type_id, err));
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db, CS_DB_CACHE_SELECT, &st, err));
    sqlite3_bind_int64(st, 1, r->run_id);
    sqlite3_bind_int64(st, 2, type_id);
    long cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (set->n == cap) {
            cap = cap ? 2 * cap : 256;
            hazard_rupture *g = realloc(set->rups, sizeof *g * (size_t)cap);
            if (g) set->rups = g;
            long long *a = realloc(set->source, sizeof *a * (size_t)cap);
            if (a) set->source = a;
            long long *b = realloc(set->rupture, sizeof *b * (size_t)cap);
            if (b) set->rupture = b;
            double *m = realloc(set->mag, sizeof *m * (size_t)cap);
            if (m) set->mag = m;
            double *d = realloc(set->rrup, sizeof *d * (size_t)cap);
            if (d) set->rrup = d;
            if (!g || !a || !b || !m || !d) goto oom;
        }
        int nv = sqlite3_column_int(st, 5);
        if (sqlite3_column_bytes(st, 6) != (int)(sizeof(double) * (size_t)nv)) {
            sqlite3_finalize(st);
            hazard_set_free(set);
            return cs_error_input(err, cs_db_path(db), CS_DB_CACHE_TABLE, NULL,
                                  "a value array has the wrong size (run %lld)", r->run_id);
        }
        double *v = malloc(sizeof(double) * (size_t)nv);
        if (!v) goto oom;
        memcpy(v, sqlite3_column_blob(st, 6), sizeof(double) * (size_t)nv);
        long i = set->n++;
        set->source[i] = sqlite3_column_int64(st, 0);
        set->rupture[i] = sqlite3_column_int64(st, 1);
        set->rups[i] =
            (hazard_rupture){.prob = sqlite3_column_double(st, 2), .nvalues = nv, .values = v};
        set->mag[i] = sqlite3_column_double(st, 3);
        set->rrup[i] = sqlite3_column_double(st, 4);
        set->nvalues += nv;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        hazard_set_free(set);
        return cs_db_fail(db, "reading the rupture values", err);
    }
    return 0;
oom:
    sqlite3_finalize(st);
    hazard_set_free(set);
    return cs_error_set(err, CS_ERR_RESOURCE, "out of memory reading the amplitudes");
}

/* A row id, or NULL for 0 (a curve without a run or scenario). */
static void bind_id(sqlite3_stmt *st, int i, long long id) {
    if (id > 0)
        sqlite3_bind_int64(st, i, id);
    else
        sqlite3_bind_null(st, i);
}

static int find_dataset(cs_db *db, const hazard_run *r, const char *inputs, long long *id,
                        cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT Hazard_Dataset_ID FROM Hazard_Datasets WHERE ERF_ID = ? AND "
                               "Rup_Var_Scenario_ID IS ? AND Time_Span_Years = ? AND Inputs = ?",
                               &st, err));
    sqlite3_bind_int64(st, 1, r->erf_id);
    bind_id(st, 2, r->scen_id);
    sqlite3_bind_double(st, 3, r->time_span);
    sqlite3_bind_text(st, 4, inputs, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    CS_CALL(err,
            cs_db_prepare(db,
                          "INSERT INTO Hazard_Datasets (ERF_ID, Rup_Var_Scenario_ID, Prob_Model, "
                          "Time_Span_Years, Max_Frequency, Inputs, Created_At) VALUES (?, ?, "
                          "'Poisson', ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                          &st, err));
    sqlite3_bind_int64(st, 1, r->erf_id);
    bind_id(st, 2, r->scen_id);
    sqlite3_bind_double(st, 3, r->time_span);
    sqlite3_bind_double(st, 4, r->max_frequency);
    sqlite3_bind_text(st, 5, inputs, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "adding the hazard dataset", err);
    *id = sqlite3_last_insert_rowid(cs_db_handle(db));
    return 0;
}

int hazard_store(cs_db *db, const hazard_run *r, long long type_id, const double *levels,
                 const double *poe, int n, const char *inputs, long long *curve_id, cs_error *err) {
    CS_CALL(err, cs_db_begin(db, err));
    long long ds = 0;
    sqlite3_stmt *st = NULL;
    int rc = find_dataset(db, r, inputs, &ds, err);
    if (!rc)
        rc = cs_db_prepare(db,
                           "DELETE FROM Hazard_Curves WHERE Hazard_Dataset_ID = ?2 AND "
                           "IM_Type_ID = ?3 AND CASE WHEN ?1 IS NULL THEN Run_ID IS NULL AND "
                           "Site_ID = ?4 ELSE Run_ID = ?1 END",
                           &st, err);
    if (!rc) {
        bind_id(st, 1, r->run_id);
        sqlite3_bind_int64(st, 2, ds);
        sqlite3_bind_int64(st, 3, type_id);
        sqlite3_bind_int64(st, 4, r->site_id);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "replacing the curve", err);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Hazard_Curves (Run_ID, Hazard_Dataset_ID, IM_Type_ID, "
                           "Curve_Date, Site_ID) VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', "
                           "'now'), ?)",
                           &st, err);
    if (!rc) {
        bind_id(st, 1, r->run_id);
        sqlite3_bind_int64(st, 2, ds);
        sqlite3_bind_int64(st, 3, type_id);
        bind_id(st, 4, r->site_id);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding the curve", err);
        *curve_id = sqlite3_last_insert_rowid(cs_db_handle(db));
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Hazard_Curve_Points (Hazard_Curve_ID, X_Value, Y_Value) "
                           "VALUES (?, ?, ?)",
                           &st, err);
    for (int i = 0; i < n && !rc; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, *curve_id);
        sqlite3_bind_double(st, 2, levels[i]);
        sqlite3_bind_double(st, 3, poe[i]);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding a curve point", err);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "UPDATE CyberShake_Runs SET Status = 'Curves Generated', Status_Time = "
                           "strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE Run_ID = ? AND Status = "
                           "'PP Generated'",
                           &st, err);
    if (!rc) {
        sqlite3_bind_int64(st, 1, r->run_id);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "updating the run", err);
    }
    sqlite3_finalize(st);
    if (rc) {
        cs_db_rollback(db);
        return rc;
    }
    return cs_db_commit(db, err);
}

int hazard_rupture_scenario(cs_db *db, const hazard_run *r, long long source, long long rupture,
                            gmpe_scenario *s, cs_error *err) {
    erf_rupture rup;
    memset(&rup, 0, sizeof rup);
    CS_CALL(err, erf_db_load_rupture(db, r->erf_id, source, rupture, &rup, err));
    erf_distances d;
    int rc =
        erf_distances_at(rup.lat, rup.lon, rup.dep, rup.nrows, rup.ncols, r->lon, r->lat, &d, err);
    if (!rc) {
        s->rake = rup.rake[0], s->dip = rup.dip[0];
        s->rrup = d.rrup, s->rjb = d.rjb, s->rx = d.rx, s->ztor = d.ztor;
        /* the gridded surface's down-dip width; one row: unknown, the models' estimate */
        if (rup.nrows > 1 && rup.spacing_km > 0) s->width = (rup.nrows - 1) * rup.spacing_km;
    }
    erf_rupture_free(&rup);
    return rc;
}

void hazard_site_values(cs_db *db, const hazard_run *r, double *vs30, double *z1_m,
                        double *z2p5_km) {
    sqlite3_stmt *st;
    cs_error ignored;
    *vs30 = *z1_m = *z2p5_km = NAN;
    if (cs_db_prepare(db, "SELECT Vs30, Z1_0, Z2_5 FROM CyberShake_Sites WHERE CS_Site_ID = ?", &st,
                      &ignored))
        return;
    sqlite3_bind_int64(st, 1, r->site_id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        double *out[3] = {vs30, z1_m, z2p5_km};
        for (int i = 0; i < 3; i++)
            if (sqlite3_column_type(st, i) != SQLITE_NULL) *out[i] = sqlite3_column_double(st, i);
    }
    sqlite3_finalize(st);
}
