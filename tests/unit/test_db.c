/* The study database: creation, pragmas, migrations, and the sites import. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_db.h"
#include "cs_sites.h"
#include "tf.h"

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static long long count(cs_db *db, const char *sql) {
    sqlite3_stmt *st;
    cs_error e;
    if (cs_db_prepare(db, sql, &st, &e)) return -1;
    long long n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

TEST(db_init_creates_newest_schema_with_wal_and_foreign_keys) {
    const char *p = tf_path("s.sqlite");
    cs_error e;
    CHECK_OK(cs_db_init(p, 0, &e), &e);
    cs_db *db;
    CHECK_OK(cs_db_open_current(p, &db, &e), &e);
    int v;
    CHECK_OK(cs_db_schema_version(db, &v, &e), &e);
    CHECK(v == cs_db_latest_version());
    sqlite3_stmt *st;
    CHECK_OK(cs_db_prepare(db, "PRAGMA journal_mode", &st, &e), &e);
    CHECK(sqlite3_step(st) == SQLITE_ROW &&
          !strcmp((const char *)sqlite3_column_text(st, 0), "wal"));
    sqlite3_finalize(st);
    CHECK(count(db, "PRAGMA foreign_keys") == 1);
    /* A point of a rupture that does not exist must be refused. */
    CHECK(cs_db_exec(db, "INSERT INTO Points VALUES (1, 1, 1, 0, 34, -118, 5, 0, 90, 0)", &e) != 0);
    CHECK_CONTAINS(e.message, "FOREIGN KEY");
    /* The CyberShake tables and ours are there. */
    const char *tables[] = {"CyberShake_Sites",
                            "Ruptures",
                            "Points",
                            "Rupture_Variations",
                            "CyberShake_Runs",
                            "IM_Types",
                            "PeakAmplitudes",
                            "Hazard_Curves",
                            "Hazard_Curve_Points",
                            "CyberShake_Site_Ruptures",
                            "Schema_Version",
                            "Workflow_Steps",
                            "Files",
                            "Hazard_Datasets"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[200];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE name = '%s'",
                 tables[i]);
        CHECK_MSG(count(db, sql) == 1, "table %s missing", tables[i]);
    }
    cs_db_close(db);
}

TEST(db_init_never_overwrites) {
    const char *p = tf_path("s.sqlite");
    cs_error e;
    CHECK_OK(cs_db_init(p, 0, &e), &e);
    CHECK(cs_db_init(p, 0, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "already exists");
}

TEST(db_migrates_old_schema_keeping_rows) {
    const char *p = tf_path("old.sqlite");
    cs_error e;
    CHECK_OK(cs_db_init(p, 1, &e), &e);
    cs_db *db;
    CHECK(cs_db_open_current(p, &db, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "cybershake db migrate");
    CHECK_OK(cs_db_open(p, 0, &db, &e), &e);
    CHECK_OK(cs_db_exec(db,
                        "INSERT INTO CyberShake_Sites (CS_Site_Name, CS_Short_Name, "
                        "CS_Site_Lat, CS_Site_Lon) VALUES ('Old', 'OLD', 34.5, -118.5)",
                        &e),
             &e);
    CHECK(count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'Files'") == 0);
    CHECK_OK(cs_db_migrate(db, 0, &e), &e);
    int v;
    CHECK_OK(cs_db_schema_version(db, &v, &e), &e);
    CHECK(v == cs_db_latest_version());
    CHECK(count(db, "SELECT count(*) FROM CyberShake_Sites WHERE CS_Short_Name = 'OLD' AND "
                    "CS_Site_Lat = 34.5") == 1);
    CHECK(count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'Files'") == 1);
    CHECK(count(db, "SELECT count(*) FROM Schema_Version") == cs_db_latest_version());
    /* Going back is refused. */
    CHECK(cs_db_migrate(db, 1, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "only go forward");
    cs_db_close(db);
}

/* The read-only open reads and never writes, leaves no -wal or -shm beside the study, and both
 * opens name a schema newer than this code as made by a newer toolkit (not as one to migrate). */
TEST(db_open_read_reads_only) {
    const char *p = tf_path("ro.sqlite");
    cs_error e;
    CHECK_OK(cs_db_init(p, 0, &e), &e);
    cs_db *db;
    CHECK_OK(cs_db_open_current_read(p, &db, &e), &e);
    CHECK(count(db, "SELECT count(*) FROM Schema_Version") == cs_db_latest_version());
    CHECK(cs_db_exec(db, "INSERT INTO IM_Types (IM_Type_Measure, IM_Type_Units) VALUES ('x', 'g')",
                     &e) != 0);
    CHECK_CONTAINS(e.message, "readonly");
    cs_db_close(db);
    char side[600];
    snprintf(side, sizeof side, "%s-wal", p);
    CHECK(access(side, F_OK) != 0);
    snprintf(side, sizeof side, "%s-shm", p);
    CHECK(access(side, F_OK) != 0);
    CHECK_OK(cs_db_open(p, 0, &db, &e), &e);
    CHECK_OK(cs_db_exec(db,
                        "INSERT INTO Schema_Version VALUES (99, 'future', "
                        "'2030-01-01T00:00:00Z', '9')",
                        &e),
             &e);
    cs_db_close(db);
    CHECK(cs_db_open_current(p, &db, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "schema version = '99': is newer than");
    CHECK_CONTAINS(e.message, "made by a newer version of the toolkit");
    CHECK(!strstr(e.message, "db migrate"));
    CHECK(cs_db_open_current_read(p, &db, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "made by a newer version of the toolkit");
    CHECK_OK(cs_db_open(p, 0, &db, &e), &e);
    CHECK(cs_db_migrate(db, 0, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "made by a newer version of the toolkit");
    cs_db_close(db);
}

TEST(db_refuses_files_that_are_not_studies) {
    const char *p = tf_path("junk.sqlite");
    write_text(p, "this is not a database, just text that is long enough to fill a header....."
                  "..............................................................");
    cs_db *db;
    cs_error e;
    CHECK(cs_db_open_current(p, &db, &e) != 0);
    CHECK(cs_db_open_current(tf_path("absent.sqlite"), &db, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "cybershake db init");
}

static const char *good_sites = "short_name,long_name,latitude,longitude,vs30\n"
                                "USC,\"University of Southern California, LA\",34.0192,-118.286,\n"
                                "PAS,Pasadena,34.148427,-118.17119,748\n";

static cs_db *new_study(cs_error *e) {
    const char *p = tf_path("study.sqlite");
    if (cs_db_init(p, 0, e)) return NULL;
    cs_db *db;
    return cs_db_open_current(p, &db, e) ? NULL : db;
}

TEST(sites_import_and_list) {
    cs_error e;
    cs_db *db = new_study(&e);
    CHECK_MSG(db, "%s", e.message);
    const char *csv = tf_path("sites.csv");
    write_text(csv, good_sites);
    cs_sites_import_result r;
    CHECK_OK(cs_sites_import(db, csv, &r, &e), &e);
    CHECK(r.added == 2 && r.unchanged == 0);
    cs_site *s;
    int n;
    CHECK_OK(cs_sites_list(db, &s, &n, &e), &e);
    CHECK(n == 2);
    CHECK(!strcmp(s[0].short_name, "PAS") && s[0].vs30 == 748.0);
    CHECK(!strcmp(s[1].long_name, "University of Southern California, LA") && isnan(s[1].vs30));
    CHECK(s[1].lat == 34.0192 && s[1].lon == -118.286);
    free(s);
    /* Importing the same file again changes nothing. */
    CHECK_OK(cs_sites_import(db, csv, &r, &e), &e);
    CHECK(r.added == 0 && r.unchanged == 2);
    cs_site one;
    CHECK_OK(cs_sites_find(db, "PAS", &one, &e), &e);
    CHECK(one.lat == 34.148427);
    CHECK(cs_sites_find(db, "NOPE", &one, &e) == CS_ERR_INPUT);
    cs_db_close(db);
}

/* The basin depths: optional columns z1p0 (m) and z2p5 (km), empty or absent unknown (NAN), kept
 * and listed; a redefinition with another depth is refused like any other change. */
static void expect_rejected(const char *text, const char *where, const char *rule);

TEST(sites_basin_depths_imported_and_listed) {
    cs_error e;
    cs_db *db = new_study(&e);
    CHECK_MSG(db, "%s", e.message);
    const char *csv = tf_path("sites.csv");
    write_text(csv, "short_name,latitude,longitude,vs30,z1p0,z2p5\n"
                    "BAS,34.05,-118.24,400,600,3.5\nROCK,34.2,-118.1,760,,\n");
    cs_sites_import_result r;
    CHECK_OK(cs_sites_import(db, csv, &r, &e), &e);
    CHECK(r.added == 2);
    cs_site s;
    CHECK_OK(cs_sites_find(db, "BAS", &s, &e), &e);
    CHECK(s.vs30 == 400 && s.z1p0_m == 600 && s.z2p5_km == 3.5);
    CHECK_OK(cs_sites_find(db, "ROCK", &s, &e), &e);
    CHECK(isnan(s.z1p0_m) && isnan(s.z2p5_km));
    CHECK_OK(cs_sites_import(db, csv, &r, &e), &e);
    CHECK(r.unchanged == 2);
    const char *csv2 = tf_path("deeper.csv");
    write_text(csv2,
               "short_name,latitude,longitude,vs30,z1p0,z2p5\nBAS,34.05,-118.24,400,650,3.5\n");
    CHECK(cs_sites_import(db, csv2, &r, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "already in the study with other values");
    cs_db_close(db);
}

TEST(sites_reject_bad_basin_depths) {
    expect_rejected("short_name,latitude,longitude,z1p0\nA,34,-118,-5\n", "2",
                    "z1p0 = '-5': must lie in [0, 10000] m");
    expect_rejected("short_name,latitude,longitude,z2p5\nA,34,-118,deep\n", "2",
                    "z2p5 = 'deep': not a number (km)");
    expect_rejected("short_name,latitude,longitude,z2p5\nA,34,-118,25\n", "2",
                    "z2p5 = '25': must lie in [0, 20] km");
}

/* Each malformed file must be rejected with file:line and leave the study untouched. */
static void expect_rejected(const char *text, const char *where, const char *rule) {
    cs_error e;
    cs_db *db = new_study(&e);
    CHECK_MSG(db, "%s", e.message);
    const char *csv = tf_path("bad.csv");
    write_text(csv, text);
    cs_sites_import_result r;
    int rc = cs_sites_import(db, csv, &r, &e);
    CHECK_MSG(rc == CS_ERR_INPUT, "accepted: %s", text);
    char place[1100];
    snprintf(place, sizeof place, "bad.csv:%s", where);
    CHECK_CONTAINS(e.message, place);
    CHECK_CONTAINS(e.message, rule);
    CHECK(count(db, "SELECT count(*) FROM CyberShake_Sites") == 0);
    cs_db_close(db);
    unlink(tf_path("study.sqlite"));
    unlink(tf_path("study.sqlite-wal"));
    unlink(tf_path("study.sqlite-shm"));
}

TEST(sites_reject_latitude_out_of_range) {
    expect_rejected("short_name,latitude,longitude\nA,34,-118\nB,95.5,-118\n", "3",
                    "latitude = '95.5': must lie in [-90, 90]");
}
TEST(sites_reject_longitude_out_of_range) {
    expect_rejected("short_name,latitude,longitude\nA,34,-218\n", "2", "longitude = '-218'");
}
TEST(sites_reject_duplicate_short_name) {
    expect_rejected("short_name,latitude,longitude\nA,34,-118\nB,34,-118\nA,35,-118\n", "4",
                    "duplicate short name (first at line 2)");
}
TEST(sites_reject_missing_field) {
    expect_rejected("short_name,latitude,longitude\nA,34,-118\nB,34\n", "3",
                    "has 2 fields, the header has 3");
    expect_rejected("short_name,latitude,longitude\nA,,-118\n", "2",
                    "latitude = '': missing value");
}
TEST(sites_reject_non_numeric_value) {
    expect_rejected("short_name,latitude,longitude\nA,34.1N,-118\n", "2",
                    "latitude = '34.1N': not a number");
    expect_rejected("short_name,latitude,longitude,vs30\nA,34,-118,fast\n", "2", "vs30 = 'fast'");
}
TEST(sites_reject_bad_header_and_names) {
    expect_rejected("short_name,latitude\nA,34\n", "1", "'longitude' is missing");
    expect_rejected("short_name,latitude,longitude,colour\nA,34,-118,red\n", "1", "unknown column");
    expect_rejected("short_name,latitude,longitude\nA/B,34,-118\n", "2", "only letters");
    expect_rejected("short_name,latitude,longitude\nA,34,-118,\n", "2", "has 4 fields");
}

TEST(sites_reject_conflicting_redefinition) {
    cs_error e;
    cs_db *db = new_study(&e);
    CHECK_MSG(db, "%s", e.message);
    const char *csv = tf_path("sites.csv");
    write_text(csv, good_sites);
    cs_sites_import_result r;
    CHECK_OK(cs_sites_import(db, csv, &r, &e), &e);
    const char *csv2 = tf_path("moved.csv");
    write_text(csv2, "short_name,latitude,longitude\nNEW,33,-117\nPAS,34.2,-118.17119\n");
    CHECK(cs_sites_import(db, csv2, &r, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "moved.csv:3");
    CHECK_CONTAINS(e.message, "already in the study with other values");
    /* NEW came before the bad row but the transaction was rolled back. */
    CHECK(count(db, "SELECT count(*) FROM CyberShake_Sites") == 2);
    cs_db_close(db);
}
