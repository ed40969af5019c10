/* Rank 0's side of an extraction: the study database. It starts or resumes the run (site,
 * forecast, scenario, SGT files and their SHA-256), registers the IM types, lists the ruptures
 * still to do (largest first), packs each into a task message, and records each result (its
 * seismogram part, then its rows, in transactions of many ruptures); at the end it assembles the
 * seismogram file and marks the run done. The messages are what rank 0 and the workers exchange. */
#ifndef EXTRACT_STUDY_H
#define EXTRACT_STUDY_H

#include "cs_db.h"
#include "extract_run.h"
#include "seis_file.h"

/* What every rank needs to know about the run (rank 0 fills it, then broadcasts it). */
typedef struct {
    long long run_id;
    char sgt[3][4096];
    im_config ims;
    int method;
    rupgen_params gen;
    int want_seis;
    double max_memory; /* bytes, <= 0: the default */
    int backend;
} run_config;

/* One rupture to do, as rank 0 sends it. */
typedef struct {
    long long source, rupture;
    int nrows, ncols, nvar, from_files;
    double magnitude, spacing_km, prob;
    long lfn_bytes; /* NUL-separated paths after the geometry */
} task_header;

typedef struct {
    long long source, rupture;
    int nvar, nim, nt, status, has_seis;
    char message[CS_ERROR_MESSAGE_MAX];
} result_header;

typedef struct {
    long long source, rupture;
    long cost;
} todo_item;

typedef struct {
    cs_db *db;
    long long run_id, site_id, erf_id, scen_id;
    char site_name[32]; /* the run's site (CS_Short_Name), for the seismogram file */
    double fmax;        /* Hz, the run's band (its SGTs'); measures outside it are not stored */
    int scen_has_files;
    int nim;
    im_type *types;
    long long *type_ids;
    todo_item *todo;
    long ntodo, ndone_before, ntotal;
    seis_meta meta;
    char seis_path[4096];
    sqlite3_stmt *ins_pa, *ins_pa_var, *ins_rv, *ins_done, *lfns;
    int batch_open;  /* a transaction of recorded ruptures not yet committed */
    long batch_rows; /* its PeakAmplitudes rows */
} master;

/* Ruptures are recorded in transactions of about this many rows: one per rupture wrote each
 * IM type's index pages once per rupture (half the time of a 20 M-row site went to those
 * writes). A killed run loses at most the open batch, whose ruptures it does again. */
#define EXTRACT_BATCH_ROWS 200000

int extract_study_prepare(master *m, const extract_options *o, run_config *cfg, cs_error *err);
/* The part of prepare that readies recording for a run already set in m (db, run, forecast,
 * scenario): registers the IM types and prepares the statements extract_study_take_result
 * uses. Benchmarks of the recording path call it directly (bench/study_rows_bench.c). */
int extract_study_recorder(master *m, const im_config *ims, cs_error *err);
void extract_study_close(master *m);
/* The task message of one rupture: header, geometry, SRF paths when the scenario has files. */
int extract_study_build_task(master *m, const run_config *cfg, const todo_item *t, char **buf,
                             long *size, cs_error *err);
/* Rank 0's queue of tasks: the todo list in order, as messages of one task or of several
 * (extract_message.h). */
typedef struct {
    long next;  /* the next todo item to build */
    char *held; /* a task built but not sent (it did not fit the group before), or NULL */
    long held_size;
    int group_variations; /* a message's variations at most, from generated ruptures of fewer
                           * each (0: a rupture a message) */
    long messages;        /* messages made */
} task_queue;

/* The next message: the next todo item's task, with the items after it while they are
 * generated ruptures of fewer than q->group_variations variations that add up to at most that
 * many. *msg NULL (and 0) when none is left; *count the tasks it holds. */
int extract_study_next_task(master *m, const run_config *cfg, task_queue *q, char **msg, long *size,
                            int *count, cs_error *err);
void extract_study_queue_free(task_queue *q);
/* Records one result message, or turns a worker's failure into the run's error. */
int extract_study_take_result(master *m, const char *res, int from_files, long *nvar,
                              cs_error *err);
/* Commits the open batch of recorded ruptures, if any. */
int extract_study_flush(master *m, cs_error *err);
/* When every rupture is done: the seismogram file, its checksum, the run's status. */
int extract_study_finish_run(master *m, cs_error *err);

#endif
