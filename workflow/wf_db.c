#include "wf_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "cs_db_cache.h"
#include "cs_fault.h"
#include "cs_sha256.h"
#include "cs_sites.h"
#include "cs_strutil.h"
#include "erf_db.h"

#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

static void col_copy(char *dst, size_t size, sqlite3_stmt *st, int i) {
    const unsigned char *t = sqlite3_column_text(st, i);
    cs_copy(dst, size, t ? (const char *)t : "");
}

/* 1 found, 0 none, -1 failed (err set): a count, not a status. */
static int read_run(cs_db *db, const char *where, sqlite3_int64 a, const char *b, wf_run_row *r,
                    cs_error *err) {
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT Run_ID, Site_ID, State, Work_Dir, coalesce(Error, '') FROM Workflow_Runs "
             "WHERE %s ORDER BY Run_ID DESC LIMIT 1",
             where);
    sqlite3_stmt *st;
    if (cs_db_prepare(db, sql, &st, err)) {
        CS_TRACE(err);
        return -1;
    }
    sqlite3_bind_int64(st, 1, a);
    if (b) sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        r->run_id = sqlite3_column_int64(st, 0);
        r->site_id = sqlite3_column_int64(st, 1);
        col_copy(r->state, sizeof r->state, st, 2);
        col_copy(r->work_dir, sizeof r->work_dir, st, 3);
        col_copy(r->error, sizeof r->error, st, 4);
        found = 1;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        cs_db_fail(db, "reading runs", err);
        return -1;
    }
    return found;
}

int wf_db_find_run(cs_db *db, const char *site, const wf_config *c, wf_run_row *run,
                   cs_error *err) {
    cs_site s;
    if (cs_sites_find(db, site, &s, err)) {
        CS_TRACE(err);
        return -1; /* 1 is "found" here (wf_db.h), so a failure is -1 with err set */
    }
    return read_run(db, "Site_ID = ? AND Config_SHA256 = ?", s.id, c->sha256, run, err);
}

int wf_db_get_run(cs_db *db, long long run_id, wf_run_row *run, cs_error *err) {
    int f = read_run(db, "Run_ID = ?", run_id, NULL, run, err);
    if (f < 0) {
        CS_TRACE(err);
        return err->status; /* read_run filled err */
    }
    if (f == 0)
        return cs_error_input(err, cs_db_path(db), "Workflow_Runs", NULL,
                              "has no run %lld ('cybershake status' lists them)", run_id);
    return 0;
}

int wf_db_open_run(cs_db *db, const char *site, const wf_config *c, const char *base, int new_run,
                   wf_run_row *run, cs_error *err) {
    memset(run, 0, sizeof *run);
    cs_site s;
    long long erf_id;
    double span;
    CS_CALL(err, cs_sites_find(db, site, &s, err));
    CS_CALL(err, erf_db_find(db, wf_cfg_str(c, "erf"), &erf_id, &span, err));
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    cs_params_dump(c->p, m);
    fclose(m);
    /* The lookup and the insert in one write transaction: two drivers started at once for a
     * site's first run find or make one run between them, not one each. */
    int rc = cs_db_begin(db, err);
    if (rc) {
        free(text);
        CS_TRACE(err);
        return rc;
    }
    int f = new_run ? 0 : wf_db_find_run(db, site, c, run, err);
    cs_fault_point("run-looked-up");
    if (f != 0) {
        free(text);
        if (f < 0) {
            cs_db_rollback(db);
            CS_TRACE(err);
            return err->status; /* wf_db_find_run filled err */
        }
        return cs_db_commit(db, err);
    }
    sqlite3_stmt *st = NULL;
    rc = cs_db_prepare(db,
                       "INSERT INTO CyberShake_Runs (Site_ID, ERF_ID, Status, Status_Time, "
                       "Max_Frequency, Comment, Last_User) VALUES (?, ?, 'Initial', " NOW
                       ", ?, 'cybershake run', ?)",
                       &st, err);
    if (!rc) {
        const char *user = getenv("USER");
        sqlite3_bind_int64(st, 1, s.id);
        sqlite3_bind_int64(st, 2, erf_id);
        sqlite3_bind_double(st, 3, wf_cfg_real(c, "fmax"));
        sqlite3_bind_text(st, 4, user ? user : "", -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding the run", err);
        run->run_id = sqlite3_last_insert_rowid(cs_db_handle(db));
    }
    sqlite3_finalize(st);
    run->site_id = s.id;
    snprintf(run->work_dir, sizeof run->work_dir, "%s/%s/run-%lld", base, site, run->run_id);
    cs_copy(run->state, sizeof run->state, "pending");
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Workflow_Runs (Run_ID, Site_ID, Config_SHA256, Config, "
                           "Work_Dir, Executor, State, Created_At) VALUES (?, ?, ?, ?, ?, ?, "
                           "'pending', " NOW ")",
                           &st, err);
    if (!rc) {
        sqlite3_bind_int64(st, 1, run->run_id);
        sqlite3_bind_int64(st, 2, s.id);
        sqlite3_bind_text(st, 3, c->sha256, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 4, text ? text : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 5, run->work_dir, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 6, wf_cfg_str(c, "executor"), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding the workflow run", err);
        sqlite3_finalize(st);
    }
    free(text);
    if (rc) {
        cs_db_rollback(db);
        return rc;
    }
    return cs_db_commit(db, err);
}

static int exec_bound(cs_db *db, const char *sql, long long run_id, const char *a, const char *b,
                      const char *c, const char *what, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db, sql, &st, err));
    sqlite3_bind_int64(st, 1, run_id);
    const char *v[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (v[i]) sqlite3_bind_text(st, i + 2, v[i], -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : cs_db_fail(db, what, err);
}

int wf_db_set_run_state(cs_db *db, long long run_id, const char *state, const char *error,
                        cs_error *err) {
    int rc = exec_bound(db,
                        "UPDATE Workflow_Runs SET State = ?2, Error = ?3, Finished_At = CASE WHEN "
                        "?2 IN ('done', 'failed') THEN " NOW " END WHERE Run_ID = ?1",
                        run_id, state, error, NULL, "updating the run", err);
    if (rc) return rc;
    const char *status = !strcmp(state, "done")     ? "Verified"
                         : !strcmp(state, "failed") ? "Failed"
                                                    : NULL;
    if (!status) return 0;
    return exec_bound(
        db, "UPDATE CyberShake_Runs SET Status = ?2, Status_Time = " NOW " WHERE Run_ID = ?1",
        run_id, status, NULL, NULL, "updating the run's status", err);
}

int wf_db_add_steps(cs_db *db, long long run_id, const wf_plan *p, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     db,
                     "INSERT INTO Workflow_Steps (Run_ID, Step_Name, Position) VALUES (?, ?, ?) "
                     "ON CONFLICT (Run_ID, Step_Name) DO UPDATE SET Position = excluded.Position",
                     &st, err));
    int rc = 0;
    for (int i = 0; i < p->n && !rc; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, p->steps[i].name, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, i);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding steps", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int wf_db_get_step(cs_db *db, long long run_id, const char *step, wf_step_row *row, cs_error *err) {
    memset(row, 0, sizeof *row);
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db,
                          "SELECT State, Attempts, coalesce(Job_ID, ''), coalesce(Host, ''), "
                          "coalesce(Error, ''), coalesce(Log_File, '') FROM Workflow_Steps WHERE "
                          "Run_ID = ? AND Step_Name = ?",
                          &st, err));
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, step, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        col_copy(row->state, sizeof row->state, st, 0);
        row->attempts = sqlite3_column_int(st, 1);
        col_copy(row->job, sizeof row->job, st, 2);
        col_copy(row->host, sizeof row->host, st, 3);
        col_copy(row->error, sizeof row->error, st, 4);
        col_copy(row->log, sizeof row->log, st, 5);
    } else {
        cs_copy(row->state, sizeof row->state, "pending");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : cs_db_fail(db, "reading a step", err);
}

int wf_db_step_started(cs_db *db, long long run_id, const char *step, const char *command,
                       const char *job, const char *log, cs_error *err) {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db,
                          "UPDATE Workflow_Steps SET State = 'running', Attempts = Attempts + 1, "
                          "Host = ?, Command = ?, Job_ID = ?, Log_File = ?, Started_At = " NOW
                          ", Finished_At = NULL, Error = NULL WHERE Run_ID = ? AND Step_Name = ?",
                          &st, err));
    sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, command, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, job, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, log, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, run_id);
    sqlite3_bind_text(st, 6, step, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : cs_db_fail(db, "starting a step", err);
}

int wf_db_step_job(cs_db *db, long long run_id, const char *step, const char *job, cs_error *err) {
    return exec_bound(db,
                      "UPDATE Workflow_Steps SET Job_ID = ?3 WHERE Run_ID = ?1 AND "
                      "Step_Name = ?2",
                      run_id, step, job, NULL, "recording a job", err);
}

int wf_db_step_state(cs_db *db, long long run_id, const char *step, const char *state,
                     const char *error, cs_error *err) {
    return exec_bound(db,
                      "UPDATE Workflow_Steps SET State = ?3, Error = ?4, Finished_At = CASE WHEN "
                      "?3 IN ('done', 'failed') THEN " NOW " END WHERE Run_ID = ?1 AND "
                      "Step_Name = ?2",
                      run_id, step, state, error, "updating a step", err);
}

/* Links a recorded file to a step in a role. */
static int link_file(cs_db *db, long long run_id, const char *step, const char *path,
                     const char *role, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     db,
                     "INSERT OR IGNORE INTO Step_Files (Step_ID, File_ID, Role) SELECT s.Step_ID, "
                     "f.File_ID, ? FROM Workflow_Steps s, Files f WHERE s.Run_ID = ? AND "
                     "s.Step_Name = ? AND f.Path = ?",
                     &st, err));
    sqlite3_bind_text(st, 1, role, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, run_id);
    sqlite3_bind_text(st, 3, step, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, path, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : cs_db_fail(db, "linking a file to its step", err);
}

int wf_db_step_done(cs_db *db, long long run_id, const wf_plan *p, int step, cs_error *err) {
    const wf_step *s = &p->steps[step];
    char(*sha)[CS_SHA256_HEX] = calloc((size_t)s->nout + 1, CS_SHA256_HEX);
    if (!sha) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    int rc = 0;
    /* Checksums first, outside the write lock: an SGT file takes seconds to read. */
    for (int i = 0; i < s->nout; i++) {
        if (access(s->out[i], R_OK)) {
            rc = cs_error_input(err, s->out[i], NULL, NULL,
                                "step %s finished without writing this file", s->name);
            goto out;
        }
        CS_CALL_GOTO(rc, err, cs_sha256_file(s->out[i], sha[i], err), out);
    }
    CS_CALL_GOTO(rc, err, cs_db_begin(db, err), out);
    CS_CALL_GOTO(rc, err,
                 exec_bound(db,
                            "DELETE FROM Step_Files WHERE Step_ID = (SELECT Step_ID FROM "
                            "Workflow_Steps WHERE Run_ID = ?1 AND Step_Name = ?2)",
                            run_id, s->name, NULL, NULL, "clearing a step's files", err),
                 rollback);
    for (int i = 0; i < s->nout; i++) {
        CS_CALL_GOTO(rc, err,
                     cs_db_record_file(db, s->out[i], sha[i], cs_file_size(s->out[i]),
                                       s->out_kind[i], run_id, err),
                     rollback);
        CS_CALL_GOTO(rc, err, link_file(db, run_id, s->name, s->out[i], "output", err), rollback);
    }
    for (int d = 0; d < s->ndeps; d++) {
        const wf_step *dep = &p->steps[s->deps[d]];
        for (int i = 0; i < dep->nout; i++)
            CS_CALL_GOTO(rc, err, link_file(db, run_id, s->name, dep->out[i], "input", err),
                         rollback);
    }
    CS_CALL_GOTO(rc, err, wf_db_step_state(db, run_id, s->name, "done", NULL, err), rollback);
    rc = cs_db_commit(db, err);
    goto out;
rollback:
    cs_db_rollback(db);
out:
    free(sha);
    return rc;
}

int wf_db_verify_step(cs_db *db, long long run_id, const char *step, char *why, size_t size,
                      cs_error *err) {
    sqlite3_stmt *st;
    if (cs_db_prepare(db,
                      "SELECT f.Path, f.SHA256 FROM Step_Files l JOIN Files f USING (File_ID) "
                      "JOIN Workflow_Steps s USING (Step_ID) WHERE s.Run_ID = ? AND "
                      "s.Step_Name = ? AND l.Role = 'output'",
                      &st, err)) {
        CS_TRACE(err);
        return -1; /* 1 is "changed" here (wf_db.h), so a failure is -1 with err set */
    }
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, step, -1, SQLITE_TRANSIENT);
    int out = 0, rc;
    while (!out && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *path = (const char *)sqlite3_column_text(st, 0);
        const char *want = (const char *)sqlite3_column_text(st, 1);
        char sha[CS_SHA256_HEX];
        cs_error e;
        cs_error_clear(&e);
        if (access(path, R_OK)) {
            snprintf(why, size, "%s is missing", path);
            out = 1;
        } else if (cs_sha256_file(path, sha, &e) || strcmp(sha, want)) {
            snprintf(why, size, "%s changed (SHA-256 %.12s..., recorded %.12s...)", path, sha,
                     want);
            out = 1;
        }
    }
    /* the loop ends on a changed output, the last row or a failure: a failure is not "every
     * output unchanged" */
    if (!out && rc != SQLITE_DONE) {
        char what[200];
        snprintf(what, sizeof what, "reading the outputs recorded for step %s of run %lld", step,
                 run_id);
        cs_db_fail(db, what, err);
        sqlite3_finalize(st);
        return -1; /* 1 is "changed" here (wf_db.h), so a failure is -1 with err set */
    }
    sqlite3_finalize(st);
    return out;
}

int wf_db_reset_extraction(cs_db *db, long long run_id, cs_error *err) {
    static const char *sql[] = {
        "DELETE FROM PeakAmplitudes WHERE Run_ID = ?1",
        "DELETE FROM Extraction_Ruptures WHERE Run_ID = ?1",
        /* the seismogram file made before is not this extraction's */
        "DELETE FROM Run_Files WHERE Run_ID = ?1 AND Kind = 'seismograms'",
        "UPDATE CyberShake_Runs SET Rup_Var_Scenario_ID = NULL, Status = 'Initial' WHERE "
        "Run_ID = ?1",
    };
    CS_CALL(err, cs_db_begin(db, err));
    int rc;
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++)
        CS_CALL_GOTO(
            rc, err,
            exec_bound(db, sql[i], run_id, NULL, NULL, NULL, "resetting the extraction", err),
            rollback);
    CS_CALL_GOTO(rc, err, cs_db_cache_invalidate(db, run_id, err), rollback);
    return cs_db_commit(db, err);
rollback:
    cs_db_rollback(db);
    return rc;
}
