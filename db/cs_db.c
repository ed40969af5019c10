#include "cs_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs_db_schema.h"
#include "cs_log.h"
#include "cs_strutil.h"
#include "cs_version.h"

struct cs_db {
    sqlite3 *h;
    char *path;
};

int cs_db_fail(cs_db *db, const char *what, cs_error *err) {
    return cs_error_set(err, CS_ERR_IO, "%s: %s: %s", db ? db->path : "study database", what,
                        db && db->h ? sqlite3_errmsg(db->h) : "no connection");
}

/* How a read-only command opens a study:
 *   2 nothing of ours can change it while it is read: its folder (where SQLite's -wal and -shm
 *     files would go) or the file cannot be written, and no -wal file holds changes that are not
 *     in it yet. Read only and immutable: no locks, no -shm or -wal needed or made.
 *   1 a -wal file is there (a writer has it open): read only, through the files that exist.
 *   0 a study this process could write, that nobody has open: a read-write connection that
 *     writes nothing (query_only). A read-only one would make the -wal and -shm files and, not
 *     being allowed to remove them, leave them beside the study; this one removes them when it
 *     closes, as every connection does. */
static int read_mode(const char *path) {
    char dir[4096], wal[4200];
    if (cs_copy(dir, sizeof dir, path)) return 0;
    char *slash = strrchr(dir, '/');
    if (!slash)
        cs_copy(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    snprintf(wal, sizeof wal, "%s-wal", path);
    struct stat st;
    if (stat(wal, &st) == 0) return st.st_size > 0 || access(dir, W_OK) == 0 ? 1 : 2;
    return access(dir, W_OK) != 0 || access(path, W_OK) != 0 ? 2 : 0;
}

/* A file name as an SQLite URI ("file:...?mode=ro"): '%', '?' and '#' percent-encoded. 0, or
 * -1 when it does not fit out (the caller names the path: "path too long"). */
static int read_uri(const char *path, int immutable, char *out, size_t size) {
    size_t n = (size_t)snprintf(out, size, "file:");
    for (const char *c = path; *c; c++) {
        if (n + 4 >= size) return -1;
        if (*c == '%' || *c == '?' || *c == '#')
            n += (size_t)snprintf(out + n, size - n, "%%%02X", (unsigned char)*c);
        else
            out[n++] = *c;
    }
    int k = snprintf(out + n, size - n, "?mode=ro%s", immutable ? "&immutable=1" : "");
    return k < 0 || (size_t)k >= size - n ? -1 : 0;
}

/* mode: 0 read and write, 1 create, 2 read only. */
static int db_open(const char *path, int mode, cs_db **out, cs_error *err) {
    *out = NULL;
    struct stat st;
    if (mode != 1 && stat(path, &st) != 0)
        return cs_error_input(err, path, NULL, NULL,
                              "no such study database; create it with 'cybershake db init %s'",
                              path);
    cs_db *db = calloc(1, sizeof *db);
    if (!db) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    db->path = cs_strdup(path);
    /* A connection is used by one thread at a time (every stage opens its own): no per-call
     * locking, which was a tenth of reading a 17 M-point forecast. */
    int flags = SQLITE_OPEN_NOMUTEX;
    char uri[8500];
    const char *name = path;
    int how = mode == 2 ? read_mode(path) : -1;
    if (how > 0) {
        /* Read only: nothing is written, the journal mode is left as it is (read_mode). */
        if (read_uri(path, how == 2, uri, sizeof uri)) {
            cs_db_close(db);
            return cs_error_input(err, path, NULL, NULL, "path too long");
        }
        name = uri;
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    } else if (how == 0) {
        flags |= SQLITE_OPEN_READWRITE; /* query_only below */
    } else {
        flags |= SQLITE_OPEN_READWRITE | (mode == 1 ? SQLITE_OPEN_CREATE : 0);
    }
    if (sqlite3_open_v2(name, &db->h, flags, NULL) != SQLITE_OK) {
        cs_db_fail(db, "cannot open", err);
        cs_db_close(db);
        return CS_ERR_IO;
    }
    sqlite3_busy_timeout(db->h, 30000);
    sqlite3_extended_result_codes(db->h, 1);
    /* A file that is not SQLite fails here, on the first read. */
    char *msg = NULL;
    if (sqlite3_exec(db->h,
                     mode == 2 ? "PRAGMA foreign_keys = ON; PRAGMA query_only = 1;"
                                 "PRAGMA mmap_size = 1073741824;"
                                 "SELECT count(*) FROM sqlite_master;"
                               : "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL;"
                                 "PRAGMA synchronous = NORMAL;"
                                 /* reads through the page cache's mapping, not one pread per
                                  * page (the hazard queries read megabytes of value arrays) */
                                 "PRAGMA mmap_size = 1073741824;",
                     NULL, NULL, &msg) != SQLITE_OK) {
        cs_error_input(err, path, NULL, NULL, "not a usable study database: %s",
                       msg ? msg : "unknown error");
        sqlite3_free(msg);
        cs_db_close(db);
        return CS_ERR_INPUT;
    }
    *out = db;
    return 0;
}

int cs_db_open(const char *path, int create, cs_db **out, cs_error *err) {
    return db_open(path, create ? 1 : 0, out, err);
}

int cs_db_open_read(const char *path, cs_db **out, cs_error *err) {
    return db_open(path, 2, out, err);
}

void cs_db_close(cs_db *db) {
    if (!db) return;
    if (db->h) sqlite3_close_v2(db->h);
    free(db->path);
    free(db);
}

sqlite3 *cs_db_handle(cs_db *db) {
    return db->h;
}
const char *cs_db_path(const cs_db *db) {
    return db->path;
}

int cs_db_exec(cs_db *db, const char *sql, cs_error *err) {
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        cs_error_set(err, CS_ERR_IO, "%s: %s", db->path, msg ? msg : sqlite3_errmsg(db->h));
        sqlite3_free(msg);
        return CS_ERR_IO;
    }
    return 0;
}

int cs_db_prepare(cs_db *db, const char *sql, sqlite3_stmt **st, cs_error *err) {
    if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return cs_error_set(err, CS_ERR_INTERNAL, "%s: cannot prepare '%.80s': %s", db->path, sql,
                            sqlite3_errmsg(db->h));
    }
    return 0;
}

int cs_db_begin(cs_db *db, cs_error *err) {
    return cs_db_exec(db, "BEGIN IMMEDIATE", err);
}
int cs_db_commit(cs_db *db, cs_error *err) {
    return cs_db_exec(db, "COMMIT", err);
}
void cs_db_rollback(cs_db *db) {
    if (!sqlite3_get_autocommit(db->h)) sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

int cs_db_latest_version(void) {
    return cs_db_migrations[cs_db_n_migrations - 1].version;
}

const char *cs_db_migration_description(int version) {
    for (int i = 0; i < cs_db_n_migrations; i++)
        if (cs_db_migrations[i].version == version) return cs_db_migrations[i].description;
    return NULL;
}

int cs_db_schema_version(cs_db *db, int *version, cs_error *err) {
    *version = 0;
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", &st, err));
    int ntables = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    if (ntables == 0) return 0;
    if (sqlite3_prepare_v2(db->h, "SELECT max(Version) FROM Schema_Version", -1, &st, NULL) !=
        SQLITE_OK)
        return cs_error_input(err, db->path, NULL, NULL,
                              "has tables but no Schema_Version table: not a study database");
    if (sqlite3_step(st) == SQLITE_ROW) *version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return 0;
}

/* A study of a schema this program does not know: made by a newer toolkit, which it names. */
static int newer_schema(const char *path, int have, cs_error *err) {
    char v[16];
    snprintf(v, sizeof v, "%d", have);
    return cs_error_input(err, path, "schema version", v,
                          "is newer than the %d this cybershake (%s) knows: the study was made by "
                          "a newer version of the toolkit, which this one cannot read or migrate; "
                          "use that version or a newer one",
                          cs_db_latest_version(), CS_VERSION);
}

int cs_db_migrate(cs_db *db, int target, cs_error *err) {
    int latest = cs_db_latest_version();
    if (target == 0) target = latest;
    if (target < 1 || target > latest)
        return cs_error_input(err, "schema version", NULL, NULL,
                              "%d is not a version this code knows (1 to %d)", target, latest);
    int have, rc, version = 0;
    CS_CALL(err, cs_db_schema_version(db, &have, err));
    if (have > latest) return newer_schema(db->path, have, err);
    if (have > target)
        return cs_error_input(err, db->path, NULL, NULL,
                              "schema version %d is newer than the requested %d; migrations only "
                              "go forward",
                              have, target);
    for (int i = 0; i < cs_db_n_migrations; i++) {
        const cs_db_migration *m = &cs_db_migrations[i];
        if (m->version <= have || m->version > target) continue;
        /* One transaction per migration: a crash leaves the file at the last whole version. */
        version = m->version;
        CS_CALL(err, cs_db_begin(db, err));
        CS_CALL_GOTO(rc, err, cs_db_exec(db, m->sql, err), failed_sql);
        sqlite3_stmt *st;
        CS_CALL_GOTO(rc, err,
                     cs_db_prepare(db,
                                   "INSERT INTO Schema_Version (Version, Description, Applied_At, "
                                   "Code_Version) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', "
                                   "'now'), ?)",
                                   &st, err),
                     rollback);
        sqlite3_bind_int(st, 1, m->version);
        sqlite3_bind_text(st, 2, m->description, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, CS_VERSION, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            cs_db_fail(db, "cannot record schema version", err);
            cs_db_rollback(db);
            return CS_ERR_IO;
        }
        /* Foreign keys must still hold after the schema change. */
        CS_CALL_GOTO(rc, err, cs_db_prepare(db, "PRAGMA foreign_key_check", &st, err), rollback);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc == SQLITE_ROW) {
            cs_db_rollback(db);
            return cs_error_set(err, CS_ERR_INPUT,
                                "%s: migration to version %d breaks a foreign key", db->path,
                                m->version);
        }
        CS_CALL_GOTO(rc, err, cs_db_commit(db, err), rollback);
        cs_debug("%s: schema version %d (%s)", db->path, m->version, m->description);
    }
    return 0;
failed_sql:
    cs_db_rollback(db);
    cs_error_prefix(err, "migration to schema version %d failed: ", version);
    return rc;
rollback:
    cs_db_rollback(db);
    return rc;
}

int cs_db_init(const char *path, int version, cs_error *err) {
    struct stat st;
    if (stat(path, &st) == 0)
        return cs_error_input(err, path, NULL, NULL,
                              "already exists; a study is never overwritten (remove it first, or "
                              "use 'cybershake db migrate' to upgrade it)");
    cs_db *db;
    int rc;
    CS_CALL(err, cs_db_open(path, 1, &db, err));
    CS_CALL_GOTO(rc, err, cs_db_migrate(db, version, err), done);
done:
    cs_db_close(db);
    if (rc) unlink(path);
    return rc;
}

static int open_current(const char *path, int mode, cs_db **out, cs_error *err) {
    cs_db *db;
    int rc;
    CS_CALL(err, db_open(path, mode, &db, err));
    int v;
    CS_CALL_GOTO(rc, err, cs_db_schema_version(db, &v, err), fail);
    if (v != cs_db_latest_version()) {
        cs_db_close(db);
        if (v == 0)
            return cs_error_input(err, path, NULL, NULL,
                                  "is empty; create a study with 'cybershake db init'");
        if (v > cs_db_latest_version()) return newer_schema(path, v, err);
        return cs_error_input(err, path, "schema version", NULL,
                              "is %d, this program needs %d; upgrade it with 'cybershake db "
                              "migrate %s'",
                              v, cs_db_latest_version(), path);
    }
    *out = db;
    return 0;
fail:
    cs_db_close(db);
    return rc;
}

int cs_db_open_current(const char *path, cs_db **out, cs_error *err) {
    return open_current(path, 0, out, err);
}

int cs_db_open_current_read(const char *path, cs_db **out, cs_error *err) {
    return open_current(path, 2, out, err);
}

int cs_db_record_file(cs_db *db, const char *path, const char *sha256, long long bytes,
                      const char *kind, long long run_id, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db,
                          "INSERT INTO Files (Path, SHA256, Bytes, Kind, Run_ID, Created_At) "
                          "VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) "
                          "ON CONFLICT (Path) DO UPDATE SET SHA256 = excluded.SHA256, "
                          "Bytes = excluded.Bytes, Kind = excluded.Kind, Run_ID = excluded.Run_ID, "
                          "Created_At = excluded.Created_At",
                          &st, err));
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, sha256, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, bytes);
    sqlite3_bind_text(st, 4, kind, -1, SQLITE_TRANSIENT);
    if (run_id > 0)
        sqlite3_bind_int64(st, 5, run_id);
    else
        sqlite3_bind_null(st, 5);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "cannot record file", err);
    if (run_id <= 0) return 0;
    CS_CALL(err, cs_db_prepare(db,
                               "INSERT OR REPLACE INTO Run_Files (Run_ID, Path, Kind, SHA256, "
                               "Bytes, Recorded_At) VALUES (?, ?, ?, ?, ?, "
                               "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                               &st, err));
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, sha256, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, bytes);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "cannot record the run's file", err);
    return 0;
}

int cs_db_forget_run_files(cs_db *db, long long run_id, const char *kind_prefix, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db, "DELETE FROM Run_Files WHERE Run_ID = ? AND substr(Kind, 1, ?) = ?",
                          &st, err));
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int(st, 2, (int)strlen(kind_prefix));
    sqlite3_bind_text(st, 3, kind_prefix, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "cannot forget the run's files", err);
    return 0;
}
