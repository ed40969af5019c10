/* The steps of one site's run and the commands that carry them out:
 *   stage (inputs given as URLs) -> plan -> mesh -> sgt_E, sgt_N, sgt_Z -> check -> extract
 *   -> hazard -> disagg -> push (when products go to a URL).
 * Each step is one or more argv vectors (never a shell string), the files it must leave behind
 * (checksummed into the study when it finishes) and the steps it needs. The same list drives
 * the local executor, the Slurm executor and --dry-run. */
#ifndef WF_PLAN_H
#define WF_PLAN_H

#include "cs_error.h"
#include "wf_config.h"

#define WF_MAX_STEPS 12
#define WF_MAX_CMDS  48
#define WF_MAX_FILES 48
#define WF_MAX_DEPS  4

typedef struct {
    char name[32];
    int ndeps, deps[WF_MAX_DEPS]; /* indices of earlier steps */
    int ranks;                    /* MPI ranks its commands use (Slurm --ntasks) */
    int gpu;                      /* 1: wants the configured GPUs */
    int resumable;                /* a rerun continues the step's own progress (extract) */
    int ncmds;
    char **cmd[WF_MAX_CMDS]; /* NULL-terminated argv vectors, run in order */
    int nout;
    char out[WF_MAX_FILES][4096];
    char out_kind[WF_MAX_FILES][32];
} wf_step;

typedef struct {
    int n;
    wf_step *steps;
    char work[4096]; /* the run's folder */
} wf_plan;

typedef struct {
    const char *study, *site, *self; /* self: this program's path */
    long long run_id;
    const char *work; /* the run's folder */
} wf_plan_inputs;

int wf_plan_build(const wf_config *c, const wf_plan_inputs *in, wf_plan *p, cs_error *err);
void wf_plan_free(wf_plan *p);
int wf_plan_find(const wf_plan *p, const char *name); /* index or -1 */

/* One argv as a shell would need it typed (single quotes where needed): for logs, the study's
 * Command column and Slurm batch scripts, never for running through a shell built from input. */
void wf_quote_argv(char *const *argv, char *out, size_t size);

#endif
