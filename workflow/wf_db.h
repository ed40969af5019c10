/* What the workflow records in the study database: its runs (Workflow_Runs beside
 * CyberShake_Runs), each step's state, attempts, host, command, job and error
 * (Workflow_Steps), and every file a step leaves behind with its SHA-256 (Files, Step_Files).
 * A step's outputs are trusted later only while their checksums still match. */
#ifndef WF_DB_H
#define WF_DB_H

#include "cs_db.h"
#include "wf_config.h"
#include "wf_plan.h"

typedef struct {
    long long run_id, site_id;
    char state[16];
    char work_dir[4096];
    char error[1024];
} wf_run_row;

typedef struct {
    char state[16];
    int attempts;
    char job[384], host[256], error[1024], log[4096];
} wf_step_row;

/* The newest run of this site with this configuration (found = 1), or a new one when there is
 * none or new_run is set (work_dir = BASE/SITE/run-ID). */
int wf_db_open_run(cs_db *db, const char *site, const wf_config *c, const char *base, int new_run,
                   wf_run_row *run, cs_error *err);
/* The run with this id (for a step run inside a batch job). */
int wf_db_get_run(cs_db *db, long long run_id, wf_run_row *run, cs_error *err);
/* The newest run of a site with this configuration, without creating one: 1 found, 0 none. */
int wf_db_find_run(cs_db *db, const char *site, const wf_config *c, wf_run_row *run, cs_error *err);
int wf_db_set_run_state(cs_db *db, long long run_id, const char *state, const char *error,
                        cs_error *err);

/* A row for every step of the plan (kept if present). */
int wf_db_add_steps(cs_db *db, long long run_id, const wf_plan *p, cs_error *err);
int wf_db_get_step(cs_db *db, long long run_id, const char *step, wf_step_row *row, cs_error *err);
int wf_db_step_started(cs_db *db, long long run_id, const char *step, const char *command,
                       const char *job, const char *log, cs_error *err);
int wf_db_step_job(cs_db *db, long long run_id, const char *step, const char *job, cs_error *err);
int wf_db_step_state(cs_db *db, long long run_id, const char *step, const char *state,
                     const char *error, cs_error *err);
/* Checksums the step's outputs, records them (and its dependencies' outputs as its inputs),
 * and marks it done, in one transaction. A missing output is an error naming it. */
int wf_db_step_done(cs_db *db, long long run_id, const wf_plan *p, int step, cs_error *err);
/* 0 when every output the step recorded is there with its checksum; 1 with *why filled when
 * one is missing or changed; -1 (err set) when the records cannot be read. */
int wf_db_verify_step(cs_db *db, long long run_id, const char *step, char *why, size_t size,
                      cs_error *err);
/* Forgets the run's extraction (amplitudes, finished ruptures, derived hazard values and its
 * scenario), for an extraction that must start over because its SGTs were made again. */
int wf_db_reset_extraction(cs_db *db, long long run_id, cs_error *err);

#endif
