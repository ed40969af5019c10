/* `cybershake run`: one site's run, end to end, resumable (docs/workflow.md).
 *
 * The run is found by site and configuration checksum, so the same command given again
 * resumes it: a step whose recorded outputs still match their checksums is skipped; a step
 * that was running when the workflow died, that failed, or whose outputs are missing or
 * changed runs again, and so does every step after it that used its outputs. A failing step
 * is tried `retries` more times (pauses doubling from retry_delay), then the step and the run
 * are marked failed with the step's last log line. */
#ifndef WF_RUN_H
#define WF_RUN_H

#include <stdio.h>

#include "cs_db.h"
#include "cs_error.h"
#include "wf_config.h"
#include "wf_db.h"
#include "wf_plan.h"

typedef struct {
    const char *study, *site, *config, *self;
    char *const *sets;
    int nsets;
    int dry_run, new_run, no_wait, quiet;
    const char *only_step; /* inside a batch job: run just this step of run_id */
    long long run_id;
} wf_run_options;

int wf_run(const wf_run_options *o, cs_error *err);

/* Imports the site list (a file or a URL, with its SHA-256) into o->study and runs every site of
 * it with o (o->site unused): on Slurm every site's jobs are queued first and then followed;
 * locally the sites run one after the other. Progress goes to out; a site's failure to errs
 * (after prog) and the others go on; the result fails if any site did. */
int wf_run_sites(const wf_run_options *o, const char *sites, const char *sites_sha, FILE *out,
                 FILE *errs, const char *prog, cs_error *err);

/* Runs one step here with its retries (both executors end up here). */
int wf_run_step(cs_db *db, const wf_config *c, const wf_plan *p, long long run_id, int step,
                int reset_extraction, cs_error *err);

/* The Slurm executor: submits steps[i] for every i with todo[i] (afterok on the jobs of the
 * steps they need), records the job ids, and unless no_wait polls until they end. */
int wf_slurm_run(cs_db *db, const wf_config *c, const wf_plan *p, const wf_run_options *o,
                 long long run_id, const int *todo, const int *reset, cs_error *err);

/* What a finished run found: each hazard IM at each probability, and the ruptures leading its
 * disaggregations. */
int wf_print_summary(cs_db *db, const wf_config *c, const wf_plan *p, long long run_id,
                     cs_error *err);

#endif
