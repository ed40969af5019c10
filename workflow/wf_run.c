#include "wf_run.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cs_fault.h"
#include "cs_progress.h"
#include "cs_strutil.h"
#include "wf_exec.h"

static int mkdirs(const char *path, cs_error *err) {
    char buf[4096];
    cs_copy(buf, sizeof buf, path);
    for (char *s = buf + 1;; s++) {
        if (*s == '/' || *s == 0) {
            char c = *s;
            *s = 0;
            if (mkdir(buf, 0755) && errno != EEXIST)
                return cs_error_errno(err, buf, "cannot create the folder");
            *s = c;
            if (!c) break;
        }
    }
    return 0;
}

/* An exclusive lock on a file, held until *fd is closed: two workflows never drive the same
 * run (or step) at once, and a killed one releases it with its death. */
static int take_lock(const char *path, int *lock_fd, cs_error *err) {
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return cs_error_errno(err, path, "cannot open the lock file");
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        char who[64] = "";
        ssize_t n = read(fd, who, sizeof who - 1);
        who[n > 0 ? n : 0] = 0;
        close(fd);
        return cs_error_input(err, path, "lock", cs_trim(who),
                              "another 'cybershake run' is driving this run (process above); "
                              "wait for it or stop it");
    }
    if (ftruncate(fd, 0) == 0) dprintf(fd, "%d\n", (int)getpid());
    *lock_fd = fd;
    return 0;
}

static void host_name(char *out, size_t size) {
    out[0] = 0;
    gethostname(out, size - 1);
    out[size - 1] = 0;
}

/* Joins a step's commands into the text of the Command column. */
static void step_command(const wf_step *s, char *out, size_t size) {
    size_t n = 0;
    out[0] = 0;
    for (int k = 0; k < s->ncmds && n + 16 < size; k++) {
        if (k) n += (size_t)snprintf(out + n, size - n, " && ");
        wf_quote_argv(s->cmd[k], out + n, size - n);
        n += strlen(out + n);
    }
}

int wf_run_step(cs_db *db, const wf_config *c, const wf_plan *p, long long run_id, int step,
                int reset_extraction, cs_error *err) {
    const wf_step *s = &p->steps[step];
    char log[4200], host[256];
    cs_fault_point2("step-start", s->name);
    snprintf(log, sizeof log, "%s/logs/%s.log", p->work, s->name);
    host_name(host, sizeof host);
    if (reset_extraction) CS_CALL(err, wf_db_reset_extraction(db, run_id, err));
    int tries = (int)wf_cfg_int(c, "retries") + 1;
    double delay = wf_cfg_real(c, "retry_delay");
    char *command = malloc(65536), last[1024] = "";
    if (!command) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    step_command(s, command, 65536);
    int ok = 0;
    for (int attempt = 1; attempt <= tries && !ok; attempt++) {
        double t0 = cs_now();
        int failed = 0;
        for (int k = 0; k < s->ncmds && !failed; k++) {
            char line[8192];
            wf_quote_argv(s->cmd[k], line, sizeof line);
            FILE *f = fopen(log, "a");
            if (f) {
                time_t t = time(NULL);
                char when[32];
                strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
                fprintf(f, "== %s attempt %d, %s on %s: %s\n", s->name, attempt, when, host, line);
                fclose(f);
            }
            pid_t pid;
            int spawned = wf_spawn(s->cmd[k], log, s->gpu ? wf_cfg_str(c, "gpus") : "", &pid, err);
            if (spawned) free(command);
            CS_CALL(err, spawned);
            /* Inside a batch job the job is what identifies the step's processes. */
            char job[384];
            const char *sj = getenv("SLURM_JOB_ID");
            if (sj && *sj)
                snprintf(job, sizeof job, "slurm:%s", sj);
            else {
                /* the leader's identity beside its pid: a resume stops this very process
                 * group, never another that reuses the number */
                char who[128];
                wf_process_identity(pid, who, sizeof who);
                snprintf(job, sizeof job, "local:%s:%d:%s", host, (int)pid, who);
            }
            int rc = k == 0 ? wf_db_step_started(db, run_id, s->name, command, job, log, err)
                            : wf_db_step_job(db, run_id, s->name, job, err);
            cs_fault_point2("step-running", s->name);
            int status = 0;
            if (wf_wait(pid, log, &status, err) || rc) {
                free(command);
                CS_TRACE(err);
                return -1;
            }
            if (status) {
                wf_log_tail(log, last, sizeof last);
                if (!last[0]) snprintf(last, sizeof last, "exit status %d", status);
                failed = 1;
            }
        }
        if (!failed) {
            cs_error e;
            cs_error_clear(&e);
            cs_fault_point2("step-exited", s->name);
            if (wf_db_step_done(db, run_id, p, step, &e) == 0) {
                cs_fault_point2("step-done", s->name);
                ok = 1;
                printf("  %s: done in %.1f s\n", s->name, cs_now() - t0);
                fflush(stdout);
                break;
            }
            cs_copy(last, sizeof last, e.message);
        }
        wf_db_step_state(db, run_id, s->name, attempt < tries ? "pending" : "failed", last, err);
        if (attempt < tries) {
            printf("  %s: attempt %d of %d failed: %s; again in %.0f s\n", s->name, attempt, tries,
                   last, delay);
            fflush(stdout);
            cs_sleep(delay);
            delay *= 2;
        }
    }
    free(command);
    if (ok) return 0;
    return cs_error_set(err, CS_ERR_INPUT, "step %s failed after %d attempt%s: %s (log: %s)",
                        s->name, tries, tries == 1 ? "" : "s", last, log);
}

/* The study's default folder for run files: runs/ next to the study database. */
static void default_base(const char *study, char *out, size_t size) {
    char buf[PATH_MAX];
    if (!realpath(study, buf)) cs_copy(buf, sizeof buf, study);
    snprintf(out, size, "%s/runs", dirname(buf));
}

static void print_plan(const wf_plan *p, cs_db *db, long long run_id) {
    for (int i = 0; i < p->n; i++) {
        const wf_step *s = &p->steps[i];
        wf_step_row row;
        cs_error e;
        cs_error_clear(&e);
        if (run_id <= 0 || wf_db_get_step(db, run_id, s->name, &row, &e))
            cs_copy(row.state, sizeof row.state, "new");
        printf("step %d/%d %s [%s]", i + 1, p->n, s->name, row.state);
        if (s->ndeps) {
            printf(" after");
            for (int d = 0; d < s->ndeps; d++)
                printf(" %s", p->steps[s->deps[d]].name);
        }
        printf("\n");
        for (int k = 0; k < s->ncmds; k++) {
            char line[8192];
            wf_quote_argv(s->cmd[k], line, sizeof line);
            printf("    %s\n", line);
        }
        for (int k = 0; k < s->nout; k++)
            printf("    -> %s\n", s->out[k]);
    }
}

/* A step an interrupted run left "running" on this host (job "local:HOST:PGID:IDENTITY"): its
 * process group is stopped if its leader is still the process the run started. */
static void stop_stale_step(const char *step, const char *job) {
    const char *p = strchr(job + strlen("local:"), ':');
    if (!p) return;
    char *end;
    long pgid = strtol(p + 1, &end, 10);
    const char *identity = *end == ':' ? end + 1 : "";
    int k = wf_kill_stale((pid_t)pgid, identity);
    if (k == 1)
        printf("  %s: stopped what the interrupted run left of it (process group %ld)\n", step,
               pgid);
    else if (k < 0)
        printf("  %s: process group %ld of the interrupted run is not stopped: its record does "
               "not say which process led it (stop it yourself if it still runs)\n",
               step, pgid);
}

/* Steps that must run: not done, outputs missing or changed, or after one that runs again.
 * reset[i]: the extraction starts over (it had finished, or its SGTs are made again). */
static int decide(cs_db *db, const wf_config *c, const wf_plan *p, long long run_id, int *todo,
                  int *reset, cs_error *err) {
    char host[256];
    host_name(host, sizeof host);
    for (int i = 0; i < p->n; i++) {
        const wf_step *s = &p->steps[i];
        wf_step_row row;
        CS_CALL(err, wf_db_get_step(db, run_id, s->name, &row, err));
        int dep_again = 0;
        for (int d = 0; d < s->ndeps; d++)
            dep_again |= todo[s->deps[d]];
        char why[4400] = "";
        todo[i] = 1;
        reset[i] = 0;
        if (!strcmp(row.state, "running") && !strcmp(row.host, host) &&
            cs_starts_with(row.job, "local:"))
            stop_stale_step(s->name, row.job);
        if (!strcmp(row.state, "done")) {
            int v = dep_again ? 1 : wf_db_verify_step(db, run_id, s->name, why, sizeof why, err);
            if (v < 0) {
                CS_TRACE(err);
                return err->status ? (int)err->status : CS_ERR_INTERNAL;
            }
            if (v == 0) {
                todo[i] = 0;
                continue;
            }
            if (dep_again) snprintf(why, sizeof why, "a step it needs runs again");
            printf("  %s: done before, runs again: %s\n", s->name, why);
        }
        reset[i] = s->resumable && (dep_again || !strcmp(row.state, "done"));
    }
    return 0;
}

int wf_run(const wf_run_options *o, cs_error *err) {
    /* A fault point reached in a step takes this driver with it, as a power loss would, when
     * the driver leads its process group (started by setsid or a job-control shell). */
    if (getenv("CYBERSHAKE_FAULT_KILL_AT") && !getenv("CYBERSHAKE_FAULT_KILL_GROUP") &&
        getpgrp() == getpid()) {
        char g[32];
        snprintf(g, sizeof g, "%d", (int)getpgrp());
        setenv("CYBERSHAKE_FAULT_KILL_GROUP", g, 1);
    }
    wf_config c;
    int got = wf_config_read(o->config, o->sets, o->nsets, &c, err);
    if (got) wf_config_free(&c);
    CS_CALL(err, got);
    cs_db *db = NULL;
    wf_plan plan = {0};
    int lock_fd = -1;
    int rc = cs_db_open_current(o->study, &db, err);
    char base[4096];
    if (wf_cfg_given(&c, "work_dir")) {
        char buf[PATH_MAX];
        if (!rc && !o->dry_run) rc = mkdirs(wf_cfg_str(&c, "work_dir"), err);
        cs_copy(base, sizeof base,
                realpath(wf_cfg_str(&c, "work_dir"), buf) ? buf : wf_cfg_str(&c, "work_dir"));
    } else {
        default_base(o->study, base, sizeof base);
    }
    char study[PATH_MAX];
    if (!realpath(o->study, study)) cs_copy(study, sizeof study, o->study);
    wf_run_row run;
    memset(&run, 0, sizeof run);
    if (!rc && o->run_id > 0) {
        rc = wf_db_get_run(db, o->run_id, &run, err);
        wf_run_row same;
        int f = rc ? -1 : wf_db_find_run(db, o->site, &c, &same, err);
        if (f == 0 || (f == 1 && same.site_id != run.site_id))
            rc = cs_error_input(err, o->config ? o->config : "--config", NULL, NULL,
                                "is not the configuration run %lld was started with (its "
                                "checksum differs)",
                                o->run_id);
        if (f < 0) rc = -1;
    } else if (!rc && o->dry_run) {
        int f = o->new_run ? 0 : wf_db_find_run(db, o->site, &c, &run, err);
        if (f < 0) rc = -1;
        if (f == 0) snprintf(run.work_dir, sizeof run.work_dir, "%s/%s/run-NEW", base, o->site);
    } else if (!rc) {
        rc = mkdirs(base, err) || wf_db_open_run(db, o->site, &c, base, o->new_run, &run, err);
    }
    wf_plan_inputs in = {study, o->site, o->self, run.run_id, run.work_dir};
    /* a failure from here on is recorded in the run's state (finish) */
    if (rc) goto finish;
    CS_CALL_GOTO(rc, err, wf_plan_build(&c, &in, &plan, err), finish);
    if (o->dry_run) {
        if (run.run_id > 0)
            printf("run %lld of site %s (%s), folder %s\n", run.run_id, o->site, run.state,
                   run.work_dir);
        else
            printf("a new run of site %s, folder %s\n", o->site, run.work_dir);
        print_plan(&plan, db, run.run_id);
        goto done;
    }
    char path[4200];
    static const char *sub[] = {"logs", "plan", "hazard", "inputs", "slurm"};
    for (size_t i = 0; i < sizeof sub / sizeof *sub; i++) {
        snprintf(path, sizeof path, "%s/%s", run.work_dir, sub[i]);
        CS_CALL_GOTO(rc, err, mkdirs(path, err), finish);
    }
    CS_CALL_GOTO(rc, err, wf_db_add_steps(db, run.run_id, &plan, err), finish);
    if (o->only_step) {
        int i = wf_plan_find(&plan, o->only_step);
        if (i < 0) {
            rc = cs_error_input(err, "--step", NULL, o->only_step, "is not a step of this run");
            goto done;
        }
        snprintf(path, sizeof path, "%s/.lock-%s", run.work_dir, o->only_step);
        wf_step_row row;
        CS_CALL_GOTO(rc, err, take_lock(path, &lock_fd, err), done);
        CS_CALL_GOTO(rc, err, wf_db_get_step(db, run.run_id, o->only_step, &row, err), done);
        int dep_done = 1;
        for (int d = 0; d < plan.steps[i].ndeps; d++) {
            wf_step_row dr;
            CS_CALL_GOTO(
                rc, err,
                wf_db_get_step(db, run.run_id, plan.steps[plan.steps[i].deps[d]].name, &dr, err),
                done);
            dep_done &= !strcmp(dr.state, "done");
        }
        if (!dep_done) {
            rc = cs_error_input(err, "--step", NULL, o->only_step,
                                "a step it needs has not finished");
            goto done;
        }
        /* The driver reset the extraction, where it had to, when it submitted the job. */
        CS_CALL_GOTO(rc, err, wf_run_step(db, &c, &plan, run.run_id, i, 0, err), done);
        goto done;
    }
    snprintf(path, sizeof path, "%s/.lock", run.work_dir);
    if (!rc) {
        rc = take_lock(path, &lock_fd, err);
        /* another driver holds the run: its state is that driver's to set, not ours */
        if (rc) goto done;
    }
    int todo[WF_MAX_STEPS] = {0}, reset[WF_MAX_STEPS] = {0};
    if (!rc) {
        printf("run %lld of site %s: %d steps, folder %s\n", run.run_id, o->site, plan.n,
               run.work_dir);
        fflush(stdout);
        rc = decide(db, &c, &plan, run.run_id, todo, reset, err) ||
             wf_db_set_run_state(db, run.run_id, "running", NULL, err);
    }
    if (!rc && !strcmp(wf_cfg_str(&c, "executor"), "slurm")) {
        rc = wf_slurm_run(db, &c, &plan, o, run.run_id, todo, reset, err);
        if (rc || o->no_wait) goto finish;
    } else if (!rc) {
        double t0 = cs_now();
        for (int i = 0; i < plan.n && !rc; i++) {
            if (!todo[i]) {
                printf("[%d/%d] %s: done, outputs verified\n", i + 1, plan.n, plan.steps[i].name);
                continue;
            }
            printf("[%d/%d] %s: running (log %s/logs/%s.log), %.0f s into the run\n", i + 1, plan.n,
                   plan.steps[i].name, run.work_dir, plan.steps[i].name, cs_now() - t0);
            fflush(stdout);
            rc = wf_run_step(db, &c, &plan, run.run_id, i, reset[i], err);
        }
    }
finish:
    if (rc && run.run_id > 0) {
        cs_error e;
        cs_error_clear(&e);
        wf_db_set_run_state(db, run.run_id, "failed", err->message, &e);
    } else if (!rc && !o->no_wait) {
        rc = wf_db_set_run_state(db, run.run_id, "done", NULL, err);
        printf("run %lld of site %s: done; outputs in %s\n", run.run_id, o->site, run.work_dir);
        if (!rc && !o->quiet) rc = wf_print_summary(db, &c, &plan, run.run_id, err);
    }
done:
    if (lock_fd >= 0) close(lock_fd);
    wf_plan_free(&plan);
    cs_db_close(db);
    wf_config_free(&c);
    return rc ? -1 : 0;
}
