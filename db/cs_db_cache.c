#include "cs_db_cache.h"

#include <sqlite3.h>

int cs_db_cache_count(cs_db *db, long long run_id, long long im_type_id, long long *n,
                      cs_error *err) {
    sqlite3_stmt *st;
    int rc = cs_db_prepare(
        db, "SELECT count(*) FROM " CS_DB_CACHE_TABLE " WHERE Run_ID = ? AND IM_Type_ID = ?", &st,
        err);
    if (rc) return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, im_type_id);
    *n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return 0;
}

int cs_db_cache_invalidate(cs_db *db, long long run_id, cs_error *err) {
    sqlite3_stmt *st;
    int rc = cs_db_prepare(db, "DELETE FROM " CS_DB_CACHE_TABLE " WHERE Run_ID = ?", &st, err);
    if (rc) return rc;
    sqlite3_bind_int64(st, 1, run_id);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : cs_db_fail(db, "clearing hazard values", err);
    sqlite3_finalize(st);
    return rc;
}
