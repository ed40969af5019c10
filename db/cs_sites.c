#include "cs_sites.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_csv.h"
#include "cs_geo.h"
#include "cs_log.h"
#include "cs_strutil.h"

int cs_site_check_short_name(const char *name, const char *place, cs_error *err) {
    size_t n = strlen(name);
    if (n == 0) return cs_error_input(err, place, "short_name", name, "must not be empty");
    if (n > CS_SHORT_NAME_MAX)
        return cs_error_input(err, place, "short_name", name, "longer than %d characters",
                              CS_SHORT_NAME_MAX);
    if (name[0] == '-')
        return cs_error_input(err, place, "short_name", name,
                              "must not start with '-' (commands would read it as an option)");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!isalnum(c) && c != '_' && c != '-')
            return cs_error_input(err, place, "short_name", name,
                                  "may hold only letters, digits, '_' and '-' (it names files)");
    }
    return 0;
}

enum { COL_SHORT, COL_LONG, COL_LAT, COL_LON, COL_VS30, COL_Z1, COL_Z25, NCOLS };
static const char *col_names[NCOLS] = {"short_name", "long_name", "latitude", "longitude",
                                       "vs30",       "z1p0",      "z2p5"};
static const char *col_alias[NCOLS] = {"short",        "name",   "lat",    "lon",
                                       "vs30_m_per_s", "z1p0_m", "z2p5_km"};

static int map_header(cs_csv *c, int col[NCOLS], cs_error *err) {
    for (int k = 0; k < NCOLS; k++)
        col[k] = -1;
    for (size_t i = 0; i < cs_csv_nfields(c); i++) {
        const char *h = cs_csv_field(c, i);
        int found = -1;
        for (int k = 0; k < NCOLS; k++)
            if (!strcmp(h, col_names[k]) || !strcmp(h, col_alias[k])) found = k;
        if (found < 0)
            return cs_error_input(err, cs_csv_place(c), "column", h,
                                  "unknown column; the header may name short_name, long_name, "
                                  "latitude, longitude, vs30, z1p0, z2p5");
        if (col[found] >= 0)
            return cs_error_input(err, cs_csv_place(c), "column", h, "named twice in the header");
        col[found] = (int)i;
    }
    for (int k = 0; k < NCOLS; k++)
        if (col[k] < 0 && (k == COL_SHORT || k == COL_LAT || k == COL_LON))
            return cs_error_input(err, cs_csv_place(c), "header", NULL,
                                  "the column '%s' is missing; the header must name "
                                  "short_name, latitude and longitude",
                                  col_names[k]);
    return 0;
}

/* An optional depth column: empty or absent NAN, else a number in [0, max]. */
static int optional_depth(cs_csv *c, int col, const char *place, const char *name, const char *unit,
                          double max, double *out, cs_error *err) {
    *out = NAN;
    if (col < 0) return 0;
    const char *v = cs_csv_field(c, (size_t)col);
    if (!*v) return 0;
    if (cs_parse_double(v, out))
        return cs_error_input(err, place, name, v, "not a number (%s)", unit);
    if (!(*out >= 0 && *out <= max))
        return cs_error_input(err, place, name, v, "must lie in [0, %g] %s", max, unit);
    return 0;
}

static int same_value(double a, double b) {
    return (isnan(a) && isnan(b)) || fabs(a - b) < 1e-9;
}

static int parse_row(cs_csv *c, const int col[NCOLS], size_t nheader, cs_site *s, cs_error *err) {
    const char *place = cs_csv_place(c);
    if (cs_csv_nfields(c) != nheader)
        return cs_error_input(err, place, NULL, NULL, "has %zu fields, the header has %zu",
                              cs_csv_nfields(c), nheader);
    memset(s, 0, sizeof *s);
    const char *sn = cs_csv_field(c, (size_t)col[COL_SHORT]);
    CS_CALL(err, cs_site_check_short_name(sn, place, err));
    cs_copy(s->short_name, sizeof s->short_name, sn);
    const char *ln = col[COL_LONG] >= 0 ? cs_csv_field(c, (size_t)col[COL_LONG]) : "";
    if (strlen(ln) > CS_LONG_NAME_MAX)
        return cs_error_input(err, place, "long_name", ln, "longer than %d characters",
                              CS_LONG_NAME_MAX);
    cs_copy(s->long_name, sizeof s->long_name, *ln ? ln : sn);
    const char *lat = cs_csv_field(c, (size_t)col[COL_LAT]);
    const char *lon = cs_csv_field(c, (size_t)col[COL_LON]);
    if (!*lat) return cs_error_input(err, place, "latitude", lat, "missing value");
    if (!*lon) return cs_error_input(err, place, "longitude", lon, "missing value");
    if (cs_parse_double(lat, &s->lat))
        return cs_error_input(err, place, "latitude", lat, "not a number");
    if (cs_parse_double(lon, &s->lon))
        return cs_error_input(err, place, "longitude", lon, "not a number");
    CS_CALL(err, cs_geo_check_lonlat(s->lon, s->lat, place, err));
    s->vs30 = NAN;
    if (col[COL_VS30] >= 0) {
        const char *v = cs_csv_field(c, (size_t)col[COL_VS30]);
        if (*v) {
            if (cs_parse_double(v, &s->vs30))
                return cs_error_input(err, place, "vs30", v, "not a number (m/s)");
            if (!(s->vs30 >= 50.0 && s->vs30 <= 5000.0))
                return cs_error_input(err, place, "vs30", v, "must lie in [50, 5000] m/s");
        }
    }
    CS_CALL(err, optional_depth(c, col[COL_Z1], place, "z1p0", "m", 10000, &s->z1p0_m, err));
    CS_CALL(err, optional_depth(c, col[COL_Z25], place, "z2p5", "km", 20, &s->z2p5_km, err));
    return 0;
}

static int same_site(const cs_site *a, const cs_site *b) {
    return !strcmp(a->long_name, b->long_name) && fabs(a->lat - b->lat) < 1e-12 &&
           fabs(a->lon - b->lon) < 1e-12 && same_value(a->vs30, b->vs30) &&
           same_value(a->z1p0_m, b->z1p0_m) && same_value(a->z2p5_km, b->z2p5_km);
}

static double column_or_nan(sqlite3_stmt *st, int i) {
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void bind_or_null(sqlite3_stmt *st, int i, double v) {
    if (isnan(v))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, v);
}

/* Fault injection for the kill -9 test: pause inside the transaction after N rows. */
static void maybe_pause(int rows) {
    const char *v = getenv("CYBERSHAKE_FAULT_PAUSE_AFTER_ROWS");
    if (v && atoi(v) == rows) {
        fprintf(stderr, "cybershake: fault injection: paused inside the import transaction\n");
        fflush(stderr);
        sleep(600);
    }
}

int cs_sites_read(const char *csv_path, cs_site **sites, int **lines_out, int *nsites,
                  cs_error *err) {
    *sites = NULL;
    *lines_out = NULL;
    *nsites = 0;
    cs_csv *c;
    CS_CALL(err, cs_csv_open(csv_path, &c, err));
    int rc = cs_csv_next(c, err);
    if (rc <= 0) {
        if (rc == 0) cs_error_input(err, csv_path, NULL, NULL, "empty file: no header row");
        cs_csv_close(c);
        return err->status;
    }
    int col[NCOLS];
    size_t nheader = cs_csv_nfields(c);
    if (map_header(c, col, err)) {
        CS_TRACE(err);
        cs_csv_close(c);
        return err->status;
    }
    cs_site *rows = NULL;
    int *lines = NULL;
    int n = 0, cap = 0;
    while ((rc = cs_csv_next(c, err)) == 1) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            cs_site *nr = realloc(rows, (size_t)cap * sizeof *nr);
            if (nr) rows = nr;
            int *nl = realloc(lines, (size_t)cap * sizeof *nl);
            if (nl) lines = nl;
            if (!nr || !nl) {
                rc = -cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                break;
            }
        }
        if (parse_row(c, col, nheader, &rows[n], err)) {
            CS_TRACE(err);
            rc = -1;
            break;
        }
        lines[n] = cs_csv_line(c);
        for (int k = 0; k < n; k++)
            if (!strcmp(rows[k].short_name, rows[n].short_name)) {
                cs_error_input(err, cs_csv_place(c), "short_name", rows[n].short_name,
                               "duplicate short name (first at line %d)", lines[k]);
                rc = -1;
                break;
            }
        if (rc < 0) break;
        n++;
    }
    cs_csv_close(c);
    if (rc == 0 && n == 0)
        rc = -cs_error_input(err, csv_path, NULL, NULL, "no site rows after the header");
    if (rc < 0) {
        free(rows);
        free(lines);
        return err->status;
    }
    *sites = rows;
    *lines_out = lines;
    *nsites = n;
    return 0;
}

int cs_sites_import(cs_db *db, const char *csv_path, cs_sites_import_result *res, cs_error *err) {
    res->added = res->unchanged = 0;
    /* every row parsed and checked before the database is touched */
    cs_site *rows;
    int *lines, n, rc;
    CS_CALL(err, cs_sites_read(csv_path, &rows, &lines, &n, err));
    CS_CALL_GOTO(rc, err, cs_db_begin(db, err), fail_nt);
    sqlite3_stmt *ins = NULL, *sel = NULL;
    CS_CALL_GOTO(
        rc, err,
        cs_db_prepare(db,
                      "INSERT INTO CyberShake_Sites (CS_Site_Name, CS_Short_Name, "
                      "CS_Site_Lat, CS_Site_Lon, Vs30, Z1_0, Z2_5) VALUES (?, ?, ?, ?, ?, ?, "
                      "?)",
                      &ins, err),
        fail);
    CS_CALL_GOTO(rc, err,
                 cs_db_prepare(db,
                               "SELECT CS_Site_Name, CS_Site_Lat, CS_Site_Lon, Vs30, Z1_0, Z2_5 "
                               "FROM CyberShake_Sites WHERE CS_Short_Name = ?",
                               &sel, err),
                 fail);
    for (int i = 0; i < n; i++) {
        cs_site *s = &rows[i];
        sqlite3_reset(sel);
        sqlite3_bind_text(sel, 1, s->short_name, -1, SQLITE_STATIC);
        if (sqlite3_step(sel) == SQLITE_ROW) {
            cs_site old = *s;
            cs_copy(old.long_name, sizeof old.long_name, (const char *)sqlite3_column_text(sel, 0));
            old.lat = sqlite3_column_double(sel, 1);
            old.lon = sqlite3_column_double(sel, 2);
            old.vs30 = column_or_nan(sel, 3);
            old.z1p0_m = column_or_nan(sel, 4);
            old.z2p5_km = column_or_nan(sel, 5);
            if (!same_site(&old, s)) {
                char place[4200];
                snprintf(place, sizeof place, "%s:%d", csv_path, lines[i]);
                cs_error_input(err, place, "short_name", s->short_name,
                               "already in the study with other values (%.6f, %.6f, '%s'); a "
                               "site's definition never changes under its name",
                               old.lat, old.lon, old.long_name);
                goto fail;
            }
            res->unchanged++;
            continue;
        }
        sqlite3_reset(ins);
        sqlite3_bind_text(ins, 1, s->long_name, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 2, s->short_name, -1, SQLITE_STATIC);
        sqlite3_bind_double(ins, 3, s->lat);
        sqlite3_bind_double(ins, 4, s->lon);
        bind_or_null(ins, 5, s->vs30);
        bind_or_null(ins, 6, s->z1p0_m);
        bind_or_null(ins, 7, s->z2p5_km);
        if (sqlite3_step(ins) != SQLITE_DONE) {
            cs_db_fail(db, "cannot insert site", err);
            goto fail;
        }
        res->added++;
        maybe_pause(res->added);
    }
    sqlite3_finalize(ins);
    sqlite3_finalize(sel);
    free(rows);
    free(lines);
    if (cs_db_commit(db, err)) {
        CS_TRACE(err);
        cs_db_rollback(db);
        return err->status;
    }
    return 0;
fail:
    sqlite3_finalize(ins);
    sqlite3_finalize(sel);
    cs_db_rollback(db);
fail_nt:
    free(rows);
    free(lines);
    res->added = res->unchanged = 0;
    return err->status;
}

static void read_site(sqlite3_stmt *st, cs_site *s) {
    s->id = sqlite3_column_int64(st, 0);
    cs_copy(s->short_name, sizeof s->short_name, (const char *)sqlite3_column_text(st, 1));
    cs_copy(s->long_name, sizeof s->long_name, (const char *)sqlite3_column_text(st, 2));
    s->lat = sqlite3_column_double(st, 3);
    s->lon = sqlite3_column_double(st, 4);
    s->vs30 = column_or_nan(st, 5);
    s->z1p0_m = column_or_nan(st, 6);
    s->z2p5_km = column_or_nan(st, 7);
}

#define SITE_COLUMNS                                                                               \
    "CS_Site_ID, CS_Short_Name, CS_Site_Name, CS_Site_Lat, CS_Site_Lon, Vs30, Z1_0, Z2_5"

int cs_sites_list(cs_db *db, cs_site **sites, int *n, cs_error *err) {
    *sites = NULL;
    *n = 0;
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     db, "SELECT " SITE_COLUMNS " FROM CyberShake_Sites ORDER BY CS_Short_Name",
                     &st, err));
    int cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            cs_site *ns = realloc(*sites, (size_t)cap * sizeof *ns);
            if (!ns) {
                sqlite3_finalize(st);
                free(*sites);
                *sites = NULL;
                return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            }
            *sites = ns;
        }
        read_site(st, &(*sites)[(*n)++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "cannot list sites", err);
    return 0;
}

int cs_sites_find(cs_db *db, const char *short_name, cs_site *site, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     db, "SELECT " SITE_COLUMNS " FROM CyberShake_Sites WHERE CS_Short_Name = ?",
                     &st, err));
    sqlite3_bind_text(st, 1, short_name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) read_site(st, site);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return cs_error_input(err, cs_db_path(db), "site", short_name,
                              "no such site in the study; list them with 'cybershake db sites'");
    return 0;
}
