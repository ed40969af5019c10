/* `cybershake db ...`: create, upgrade and inspect a study database; import and list sites. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_db.h"
#include "cs_db_cli.h"
#include "cs_opt.h"

#include "cs_log.h"
#include "cs_sites.h"
#include "cs_strutil.h"

int cs_db_init_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake db init STUDY.sqlite [--schema-version N]\n\n"
        "Creates a new study database with the newest schema (or version N, to test upgrades).\n"
        "An existing file is never overwritten.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    long version = 0;
    char rule[48];
    snprintf(rule, sizeof rule, "must be 1 to %d", cs_db_latest_version());
    const cs_opt opts[] = {CS_OPT_INT("schema-version", &version, 1, cs_db_latest_version(), rule)};
    int first, npos;
    int rc = cs_opt_parse(argv[0], argc, argv, opts, 1, 1, 1, "expects one argument: STUDY.sqlite",
                          &first, &npos);
    if (rc) return rc;
    cs_error err;
    cs_error_clear(&err);
    if (cs_db_init(argv[first], (int)version, &err)) return cs_cli_fail(argv[0], &err);
    printf("created %s (schema version %ld)\n", argv[first],
           version ? version : (long)cs_db_latest_version());
    return 0;
}

int cs_db_migrate_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake db migrate STUDY.sqlite [--to N]\n\n"
        "Upgrades a study database to the newest schema (or to version N), one migration per\n"
        "transaction, keeping every row.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    long target = 0;
    const cs_opt opts[] = {CS_OPT_INT("to", &target, 1, 1e18, "needs a schema version")};
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, 1, 1, 1, "expects one argument: STUDY.sqlite",
                           &first, &npos);
    if (prc) return prc;
    cs_error err;
    cs_error_clear(&err);
    cs_db *db;
    if (cs_db_open(argv[first], 0, &db, &err)) return cs_cli_fail(argv[0], &err);
    int before, after, rc;
    CS_CALL_GOTO(rc, &err, cs_db_schema_version(db, &before, &err), done);
    CS_CALL_GOTO(rc, &err, cs_db_migrate(db, (int)target, &err), done);
    CS_CALL_GOTO(rc, &err, cs_db_schema_version(db, &after, &err), done);
done:
    cs_db_close(db);
    if (rc) return cs_cli_fail(argv[0], &err);
    if (before == after)
        printf("%s: already at schema version %d\n", argv[first], after);
    else
        printf("%s: schema version %d -> %d\n", argv[first], before, after);
    return 0;
}

int cs_db_info_main(int argc, char **argv) {
    static const char help[] = "usage: cybershake db info STUDY.sqlite\n\n"
                               "Prints the schema version and the number of rows per table.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    if (argc != 2) return cs_cli_usage(argv[0], "expects one argument: STUDY.sqlite");
    cs_error err;
    cs_error_clear(&err);
    cs_db *db;
    if (cs_db_open_read(argv[1], &db, &err)) return cs_cli_fail(argv[0], &err);
    int v;
    if (cs_db_schema_version(db, &v, &err)) {
        cs_db_close(db);
        return cs_cli_fail(argv[0], &err);
    }
    printf("study:          %s\nschema version: %d (newest known: %d)\n", argv[1], v,
           cs_db_latest_version());
    sqlite3_stmt *st;
    if (cs_db_prepare(db,
                      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                      "'sqlite_%' ORDER BY name",
                      &st, &err) == 0) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *t = (const char *)sqlite3_column_text(st, 0);
            char sql[256];
            snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", t);
            sqlite3_stmt *cnt;
            /* The table name comes from sqlite_master, not from the user. */
            if (cs_db_prepare(db, sql, &cnt, &err) == 0) {
                if (sqlite3_step(cnt) == SQLITE_ROW)
                    printf("  %-34s %lld rows\n", t, (long long)sqlite3_column_int64(cnt, 0));
                sqlite3_finalize(cnt);
            }
        }
        sqlite3_finalize(st);
    }
    cs_db_close(db);
    return 0;
}

int cs_db_import_sites_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake db import-sites STUDY.sqlite SITES.csv\n\n"
        "Imports sites from a CSV whose header names short_name, latitude, longitude and,\n"
        "optionally, long_name, vs30 (m/s), z1p0 (m, depth to Vs 1 km/s) and z2p5 (km, depth\n"
        "to Vs 2.5 km/s; the ground-motion models' basin terms). Rows are checked first; one bad\n"
        "row and nothing is imported. Sites already in the study with identical values are left as "
        "they are.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    if (argc != 3) return cs_cli_usage(argv[0], "expects two arguments: STUDY.sqlite SITES.csv");
    cs_error err;
    cs_error_clear(&err);
    cs_db *db;
    if (cs_db_open_current(argv[1], &db, &err)) return cs_cli_fail(argv[0], &err);
    cs_sites_import_result res;
    int rc = cs_sites_import(db, argv[2], &res, &err);
    cs_db_close(db);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("%s: imported %d site%s (%d already present) from %s\n", argv[1], res.added,
           res.added == 1 ? "" : "s", res.unchanged, argv[2]);
    return 0;
}

static void csv_quoted(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int cs_db_sites_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake db sites STUDY.sqlite [--csv]\n\n"
        "Lists the sites of a study, as a table or (--csv) in the import format.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    int csv = 0;
    const cs_opt opts[] = {CS_OPT_SET("csv", &csv)};
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, 1, 1, 1, "expects one argument: STUDY.sqlite",
                           &first, &npos);
    if (prc) return prc;
    cs_error err;
    cs_error_clear(&err);
    cs_db *db;
    if (cs_db_open_current_read(argv[first], &db, &err)) return cs_cli_fail(argv[0], &err);
    cs_site *sites;
    int n;
    int rc = cs_sites_list(db, &sites, &n, &err);
    cs_db_close(db);
    if (rc) return cs_cli_fail(argv[0], &err);
    if (csv) {
        printf("short_name,long_name,latitude,longitude,vs30,z1p0,z2p5\n");
        for (int i = 0; i < n; i++) {
            printf("%s,", sites[i].short_name);
            csv_quoted(stdout, sites[i].long_name);
            printf(",%.8f,%.8f,", sites[i].lat, sites[i].lon);
            if (!isnan(sites[i].vs30)) printf("%.1f", sites[i].vs30);
            printf(",");
            if (!isnan(sites[i].z1p0_m)) printf("%.1f", sites[i].z1p0_m);
            printf(",");
            if (!isnan(sites[i].z2p5_km)) printf("%.4f", sites[i].z2p5_km);
            printf("\n");
        }
    } else {
        /* columns as wide as their widest entry: names longer than the header stay aligned */
        int ws = 8, wn = 4;
        for (int i = 0; i < n; i++) {
            int a = (int)strlen(sites[i].short_name), b = (int)strlen(sites[i].long_name);
            ws = a > ws ? a : ws;
            wn = b > wn ? b : wn;
        }
        printf("%-*s %-*s %12s %13s %8s\n", ws, "site", wn, "name", "latitude", "longitude",
               "Vs30");
        for (int i = 0; i < n; i++) {
            char vs[16] = "-";
            if (!isnan(sites[i].vs30)) snprintf(vs, sizeof vs, "%.0f", sites[i].vs30);
            printf("%-*s %-*s %12.6f %13.6f %8s\n", ws, sites[i].short_name, wn, sites[i].long_name,
                   sites[i].lat, sites[i].lon, vs);
        }
        printf("%d site%s\n", n, n == 1 ? "" : "s");
    }
    free(sites);
    return 0;
}
