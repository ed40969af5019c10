/* The study database: one SQLite file per study (docs/database.md).
 *
 * Every connection runs with foreign keys on, WAL journaling and a busy timeout. The schema is
 * an ordered list of migrations; a database records the version it is at in Schema_Version and
 * `cs_db_migrate` brings it forward one migration per transaction, so an interrupted upgrade
 * leaves it at the last complete version. */
#ifndef CS_DB_H
#define CS_DB_H

#include <sqlite3.h>

#include "cs_error.h"

typedef struct cs_db cs_db;

/* Opens an existing study database (create = 0) or creates a new empty file (create = 1). */
int cs_db_open(const char *path, int create, cs_db **out, cs_error *err);
/* Opens an existing study for reading only (SQLITE_OPEN_READONLY, query_only): nothing is
 * written, the journal mode is left as it is, and where the study cannot change (its folder or
 * the file cannot be written, and no -wal file holds changes) it is read as immutable, so no
 * -shm, -wal or -journal file is needed or made: the read-only commands (db info, db sites,
 * status) work on a read-only file system or a study of another user. */
int cs_db_open_read(const char *path, cs_db **out, cs_error *err);
void cs_db_close(cs_db *db);
sqlite3 *cs_db_handle(cs_db *db);
const char *cs_db_path(const cs_db *db);

/* Creates a new study at `path` with the schema at `version` (0 = newest). Fails if the file
 * exists, so an existing study is never overwritten by accident. */
int cs_db_init(const char *path, int version, cs_error *err);

/* Schema version the file is at (0 for an empty file), and the newest this code knows. */
int cs_db_schema_version(cs_db *db, int *version, cs_error *err);
int cs_db_latest_version(void);
const char *cs_db_migration_description(int version);
/* Applies migrations up to `target` (0 = newest); reports each applied step to the log. */
int cs_db_migrate(cs_db *db, int target, cs_error *err);
/* Opens a study and checks it is at the newest schema; names the command that upgrades an older
 * one, and says that a newer one was made by a newer toolkit that this one cannot read. */
int cs_db_open_current(const char *path, cs_db **out, cs_error *err);
/* The same, read only (cs_db_open_read). */
int cs_db_open_current_read(const char *path, cs_db **out, cs_error *err);

int cs_db_exec(cs_db *db, const char *sql, cs_error *err);
int cs_db_prepare(cs_db *db, const char *sql, sqlite3_stmt **st, cs_error *err);
int cs_db_begin(cs_db *db, cs_error *err); /* BEGIN IMMEDIATE: takes the write lock now */
int cs_db_commit(cs_db *db, cs_error *err);
void cs_db_rollback(cs_db *db);
/* A failed sqlite call as an error naming the database and SQLite's message. */
int cs_db_fail(cs_db *db, const char *what, cs_error *err);

/* Records a product: path, checksum, size, kind, run (or 0). Replaces the row for that path in
 * Files, and the run's own record of it in Run_Files (which other runs' records don't touch). */
int cs_db_record_file(cs_db *db, const char *path, const char *sha256, long long bytes,
                      const char *kind, long long run_id, cs_error *err);
/* Drops a run's records of its files whose kind starts with kind_prefix. */
int cs_db_forget_run_files(cs_db *db, long long run_id, const char *kind_prefix, cs_error *err);

#endif
