/* The Slurm executor: one batch script per step, each running that step through
 * `cybershake run ... --step NAME` (the same code as the local executor, so retries, logs and
 * checksums are the same), chained with --dependency=afterok; job ids go into the study and
 * the driver polls the study and squeue until every job has ended. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs_atomic.h"
#include "cs_progress.h"
#include "cs_strutil.h"
#include "wf_exec.h"
#include "wf_run.h"

/* 1 while Slurm still knows the job as pending or running. */
static int job_alive(const char *id) {
    char *argv[] = {"squeue", "-h", "-j", (char *)id, "-o", "%T", NULL};
    char out[256];
    int status;
    cs_error e;
    cs_error_clear(&e);
    if (wf_capture(argv, out, sizeof out, &status, &e) || status) return 0;
    char *t = cs_trim(out);
    return !strcmp(t, "PENDING") || !strcmp(t, "RUNNING") || !strcmp(t, "CONFIGURING") ||
           !strcmp(t, "COMPLETING") || !strcmp(t, "SUSPENDED") || !strcmp(t, "REQUEUED");
}

static void add_line(char *buf, size_t size, const char *fmt, const char *v) {
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, fmt, v);
}

/* A configuration value that goes into a #SBATCH line, checked again as it is written (the
 * configuration was checked when it was read: wf_config_check_value). */
static int check_directive(const wf_config *c, const char *key, cs_error *err) {
    const char *where = c->path[0] ? c->path : "configuration";
    if (cs_params_has(c->p, key)) where = cs_params_where(c->p, key);
    return wf_config_check_value(where, key, wf_cfg_str(c, key), err);
}

/* A path as one argument of a #SBATCH line, which sbatch reads with its own rules: an unquoted
 * '#' starts a comment, quotes and backslashes are its quoting, '%' starts a file-name pattern
 * (%j) and a newline ends the line whatever the quotes. Plain paths stay as they are; others
 * go in double quotes with " and \ escaped and % doubled; a control character is refused. */
static int sbatch_path(const char *key, const char *v, char *out, size_t size, cs_error *err) {
    int plain = *v != 0;
    for (const char *q = v; *q; q++) {
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            return cs_error_input(err, "batch script", key, v,
                                  "a path in a #SBATCH line may not hold control characters");
        if (!isalnum((unsigned char)*q) && !strchr("/._-+,=@:", *q)) plain = 0;
    }
    size_t n = 0;
    if (!plain) out[n++] = '"';
    for (const char *q = v; *q; q++) {
        if (n + 4 >= size) return cs_error_input(err, "batch script", key, v, "path too long");
        if (!plain && (*q == '"' || *q == '\\')) out[n++] = '\\';
        if (*q == '%') out[n++] = '%';
        out[n++] = *q;
    }
    if (!plain) out[n++] = '"';
    out[n] = 0;
    return 0;
}

static int write_script(const wf_config *c, const wf_plan *p, const wf_run_options *o,
                        long long run_id, int i, char *path, size_t psize, cs_error *err) {
    const wf_step *s = &p->steps[i];
    CS_CALL(err, check_directive(c, "slurm_time", err));
    CS_CALL(err, check_directive(c, "slurm_partition", err));
    CS_CALL(err, check_directive(c, "slurm_account", err));
    snprintf(path, psize, "%s/slurm/%s.sh", p->work, s->name);
    char *text = calloc(1, 65536), num[32];
    if (!text) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    char job[160], outp[4200], outq[8600];
    char site[64];
    cs_safe_name(o->site, site, sizeof site);
    snprintf(job, sizeof job, "cs-%s-%lld-%s", site, run_id, s->name);
    snprintf(outp, sizeof outp, "%s/logs/%s.slurm.out", p->work, s->name);
    if (sbatch_path("work_dir", outp, outq, sizeof outq, err)) {
        free(text);
        CS_TRACE(err);
        return err->status;
    }
    add_line(text, 65536, "%s", "#!/bin/sh\n");
    add_line(text, 65536, "#SBATCH --job-name=%s\n", job);
    add_line(text, 65536, "#SBATCH --output=%s\n", outq);
    snprintf(num, sizeof num, "%d", s->ranks);
    add_line(text, 65536, "#SBATCH --ntasks=%s\n", num);
    add_line(text, 65536, "#SBATCH --time=%s\n", wf_cfg_str(c, "slurm_time"));
    if (wf_cfg_given(c, "slurm_partition"))
        add_line(text, 65536, "#SBATCH --partition=%s\n", wf_cfg_str(c, "slurm_partition"));
    if (wf_cfg_given(c, "slurm_account"))
        add_line(text, 65536, "#SBATCH --account=%s\n", wf_cfg_str(c, "slurm_account"));
    if (s->gpu) add_line(text, 65536, "%s", "#SBATCH --gres=gpu:1\n");
    /* The step itself, through this program: argv quoted once, here, for the script. */
    char *argv[64];
    int n = 0;
    char rid[32];
    snprintf(rid, sizeof rid, "%lld", run_id);
    argv[n++] = (char *)o->self;
    argv[n++] = "run";
    argv[n++] = (char *)o->site;
    argv[n++] = "--study";
    argv[n++] = (char *)o->study;
    argv[n++] = "--run";
    argv[n++] = rid;
    argv[n++] = "--step";
    argv[n++] = (char *)s->name;
    if (o->config) {
        argv[n++] = "--config";
        argv[n++] = (char *)o->config;
    }
    for (int k = 0; k < o->nsets && n < 60; k++) {
        argv[n++] = "--set";
        argv[n++] = o->sets[k];
    }
    argv[n] = NULL;
    /* quoting makes an argument at most four times as long, plus its quotes and a space: a
     * command that might not fit is refused rather than cut */
    size_t need = 1;
    for (int k = 0; k < n; k++)
        need += 4 * strlen(argv[k]) + 3;
    char line[16384];
    if (need > sizeof line || o->nsets > 25) {
        free(text);
        return cs_error_input(err, path, NULL, NULL,
                              "the step's command (paths and --set values) is too long for the "
                              "batch script");
    }
    wf_quote_argv(argv, line, sizeof line);
    add_line(text, 65536, "exec %s\n", line);
    int rc = cs_atomic_write_file(path, text, strlen(text), NULL, err);
    free(text);
    return rc;
}

int wf_slurm_run(cs_db *db, const wf_config *c, const wf_plan *p, const wf_run_options *o,
                 long long run_id, const int *todo, const int *reset, cs_error *err) {
    char jobs[WF_MAX_STEPS][32];
    memset(jobs, 0, sizeof jobs);
    int nsub = 0;
    for (int i = 0; i < p->n; i++) {
        const wf_step *s = &p->steps[i];
        if (!todo[i]) {
            printf("[%d/%d] %s: done, outputs verified\n", i + 1, p->n, s->name);
            continue;
        }
        wf_step_row row;
        CS_CALL(err, wf_db_get_step(db, run_id, s->name, &row, err));
        if (cs_starts_with(row.job, "slurm:") && job_alive(row.job + 6) &&
            strcmp(row.state, "failed")) {
            cs_copy(jobs[i], sizeof jobs[i], row.job + 6);
            printf("[%d/%d] %s: Slurm job %s still queued or running\n", i + 1, p->n, s->name,
                   jobs[i]);
            nsub++;
            continue;
        }
        if (reset[i]) CS_CALL(err, wf_db_reset_extraction(db, run_id, err));
        char script[4200], dep[512] = "";
        CS_CALL(err, write_script(c, p, o, run_id, i, script, sizeof script, err));
        for (int d = 0; d < s->ndeps; d++)
            if (jobs[s->deps[d]][0]) {
                size_t n = strlen(dep);
                snprintf(dep + n, sizeof dep - n, "%s%s",
                         n ? ":" : "--dependency=afterok:", jobs[s->deps[d]]);
            }
        char *argv[8];
        int n = 0;
        argv[n++] = "sbatch";
        argv[n++] = "--parsable";
        if (dep[0]) argv[n++] = dep;
        argv[n++] = script;
        argv[n] = NULL;
        char out[256];
        int status;
        CS_CALL(err, wf_capture(argv, out, sizeof out, &status, err));
        char *id = cs_trim(out), *semi = strchr(id, ';');
        if (semi) *semi = 0;
        long v;
        if (status || cs_parse_long(id, &v))
            return cs_error_input(err, script, "sbatch", id,
                                  "Slurm refused the step (exit status %d)", status);
        cs_copy(jobs[i], sizeof jobs[i], id);
        char job[64];
        snprintf(job, sizeof job, "slurm:%s", id);
        CS_CALL(err, wf_db_step_job(db, run_id, s->name, job, err));
        CS_CALL(err, wf_db_step_state(db, run_id, s->name, "pending", NULL, err));
        printf("[%d/%d] %s: Slurm job %s%s%s\n", i + 1, p->n, s->name, id, dep[0] ? ", " : "", dep);
        nsub++;
    }
    fflush(stdout);
    if (o->no_wait || nsub == 0) {
        if (nsub) printf("submitted; 'cybershake status %s' follows them\n", o->study);
        return 0;
    }
    double poll = wf_cfg_real(c, "poll_interval");
    for (;;) {
        int pending = 0;
        for (int i = 0; i < p->n; i++) {
            if (!jobs[i][0]) continue;
            wf_step_row row;
            CS_CALL(err, wf_db_get_step(db, run_id, p->steps[i].name, &row, err));
            if (!strcmp(row.state, "done")) continue;
            int alive = strcmp(row.state, "failed") ? job_alive(jobs[i]) : 0;
            if (alive) {
                pending++;
                continue;
            }
            /* The job is gone: its step wrote its state before it ended; read it once more. */
            CS_CALL(err, wf_db_get_step(db, run_id, p->steps[i].name, &row, err));
            if (!strcmp(row.state, "done")) continue;
            char msg[1400];
            snprintf(msg, sizeof msg, "Slurm job %s ended without finishing the step%s%s", jobs[i],
                     row.error[0] ? ": " : "", row.error);
            wf_db_step_state(db, run_id, p->steps[i].name, "failed", msg, err);
            for (int k = 0; k < p->n; k++)
                if (jobs[k][0] && k != i && job_alive(jobs[k])) {
                    char *argv[] = {"scancel", jobs[k], NULL};
                    char o2[64];
                    int st;
                    wf_capture(argv, o2, sizeof o2, &st, err);
                }
            return cs_error_set(err, CS_ERR_INPUT, "step %s failed: %s (logs: %s/logs/%s.*)",
                                p->steps[i].name, msg, p->work, p->steps[i].name);
        }
        if (!pending) return 0;
        cs_sleep(poll);
    }
}
