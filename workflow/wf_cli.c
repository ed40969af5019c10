/* `cybershake run` (one site or a list, end to end, resumable) and `cybershake status`. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_cli.h"
#include "wf_cli.h"
#include "cs_opt.h"
#include "cs_sites.h"
#include "cs_strutil.h"
#include "wf_run.h"
#include "cs_stage.h"

/* --set KEY=VALUE, repeatable: kept in order. */
struct set_list {
    char **sets;
    int *n;
};
static int add_set(const char *arg, void *t, cs_error *err) {
    struct set_list *l = t;
    l->sets[(*l->n)++] = (char *)arg;
    return 0;
}

int cs_run_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake run SITE --study STUDY.sqlite [--config FILE] [--set KEY=VALUE]...\n"
        "          [--dry-run] [--new] [--no-wait]\n"
        "       cybershake run --sites FILE|URL --study STUDY.sqlite [--config FILE] ...\n"
        "       cybershake run --keys\n\n"
        "Runs a site end to end: stage (inputs given as URLs) -> plan -> mesh -> sgt E, N, Z\n"
        "-> check -> extract -> hazard curves -> disaggregations (-> push to push_url), each\n"
        "step recorded in the study (Workflow_Steps: state, attempts, host, command, job, log;\n"
        "its outputs in Files with SHA-256). The same command resumes the run: steps whose\n"
        "outputs still match their checksums are skipped, the rest run again (an SGT from its\n"
        "checkpoint, an extraction from its last finished rupture). A failing step is retried\n"
        "'retries' times, then the run stops and says which step failed and why. executor =\n"
        "local runs steps here (mpirun for the MPI stages); executor = slurm submits one job per\n"
        "step chained with afterok and follows them (--no-wait: submit and return).\n"
        "--dry-run prints the steps and commands without running anything; --new starts a new\n"
        "run even when one with this configuration exists. --sites imports a site CSV into\n"
        "the study and runs every site of it. 'cybershake status' shows runs and steps.\n"
        "--keys lists the configuration keys. docs/workflow.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    if (argc == 2 && !strcmp(argv[1], "--keys")) {
        cs_params_describe(wf_config_specs, wf_config_nspecs, stdout);
        return 0;
    }
    wf_run_options o;
    memset(&o, 0, sizeof o);
    /* The steps' `mpirun` as root: Open MPI refuses root unless told (as `cybershake mpirun`
     * does); an environment the user set is kept. */
    if (geteuid() == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    const char *sites = NULL, *sites_sha = NULL;
    char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets) return 1;
    long run_id = 0;
    int nsets = 0;
    struct set_list sl = {sets, &nsets};
    const cs_opt opts[] = {
        CS_OPT_STR("study", &o.study),
        CS_OPT_STR("config", &o.config),
        CS_OPT_FN("set", &sl, add_set),
        CS_OPT_SET("dry-run", &o.dry_run),
        CS_OPT_SET("new", &o.new_run),
        CS_OPT_SET("no-wait", &o.no_wait),
        CS_OPT_STR("sites", &sites),
        CS_OPT_STR("sites-sha256", &sites_sha),
        CS_OPT_INT("run", &run_id, 1, 9.2e18, "needs a Run_ID"),
        CS_OPT_STR("step", &o.only_step),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 0, -1,
                           NULL, &first, &npos);
    if (prc) {
        free(sets);
        return prc;
    }
    o.run_id = run_id;
    o.nsets = nsets;
    o.sets = sets;
    if (!o.study) return cs_cli_usage(argv[0], "needs --study STUDY.sqlite");
    if (sites ? first != argc : first != argc - 1)
        return cs_cli_usage(argv[0], "expects one SITE, or --sites FILE and no SITE");
    if ((o.only_step != NULL) != (o.run_id > 0))
        return cs_cli_usage(argv[0], "--step and --run go together (a step inside a batch job)");
    char self[PATH_MAX], study[PATH_MAX], config[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) return cs_cli_usage(argv[0], "cannot find this program's path");
    self[k] = 0;
    o.self = self;
    if (realpath(o.study, study)) o.study = study;
    if (o.config && realpath(o.config, config)) o.config = config;
    cs_error err;
    cs_error_clear(&err);
    int rc = 0;
    if (!sites) {
        o.site = argv[first];
        rc = wf_run(&o, &err);
    } else {
        rc = wf_run_sites(&o, sites, sites_sha, stdout, stderr, argv[0], &err);
    }
    free(sets);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}

/* The last n lines of a step's log that are not blank (its attempts' "== " headers included,
 * so each line's attempt is seen), indented under the step; a log that cannot be read says so. */
static void print_log_end(const char *path, int n) {
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("             (cannot read the log: %s)\n", strerror(errno));
        return;
    }
    if (fseek(f, -8192, SEEK_END)) rewind(f);
    char lines[5][512];
    int count = 0;
    char *buf = NULL;
    size_t cap = 0;
    for (char *line; (line = cs_read_line(f, &buf, &cap));) {
        char *t = cs_trim(line);
        if (*t) cs_copy(lines[count++ % 5], sizeof lines[0], t);
    }
    free(buf);
    fclose(f);
    if (n > 5) n = 5;
    int first = count > n ? count - n : 0;
    for (int i = first; i < count; i++)
        printf("             | %s\n", lines[i % 5]);
}

int cs_status_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake status STUDY [SITE|RUN_ID]\n\n"
        "The workflow's runs (newest first) and the state of each step: attempts, host, job\n"
        "(local process group or Slurm job id), start, duration and error; the log file of\n"
        "each step that has run, and the last lines of the log of each step that failed (an\n"
        "attempt waiting for its retry included) or still runs.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    if (argc < 2 || argc > 3) return cs_cli_usage(argv[0], "expects STUDY [SITE|RUN_ID]");
    cs_error err;
    cs_error_clear(&err);
    cs_db *db;
    if (cs_db_open_current_read(argv[1], &db, &err)) return cs_cli_fail(argv[0], &err);
    sqlite3_stmt *runs, *steps;
    const char *filter = argc == 3 ? argv[2] : NULL;
    int rc = cs_db_prepare(db,
                           "SELECT w.Run_ID, s.CS_Short_Name, w.State, w.Executor, w.Work_Dir, "
                           "w.Created_At, coalesce(w.Finished_At, ''), coalesce(w.Error, '') "
                           "FROM Workflow_Runs w JOIN CyberShake_Sites s ON s.CS_Site_ID = "
                           "w.Site_ID WHERE ?1 IS NULL OR s.CS_Short_Name = ?1 OR w.Run_ID = "
                           "CAST(?1 AS INTEGER) ORDER BY w.Run_ID DESC",
                           &runs, &err) ||
             cs_db_prepare(db,
                           "SELECT Step_Name, State, Attempts, coalesce(Host, ''), "
                           "coalesce(Job_ID, ''), coalesce(Started_At, ''), coalesce(CAST(round("
                           "(julianday(Finished_At) - julianday(Started_At)) * 86400) AS "
                           "INTEGER), ''), coalesce(Error, ''), coalesce(Log_File, '') FROM "
                           "Workflow_Steps WHERE Run_ID = ? ORDER BY Position",
                           &steps, &err);
    if (rc) return cs_cli_fail(argv[0], &err);
    if (filter)
        sqlite3_bind_text(runs, 1, filter, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(runs, 1);
    int nruns = 0;
    while (sqlite3_step(runs) == SQLITE_ROW) {
        nruns++;
        long long id = sqlite3_column_int64(runs, 0);
        printf("run %lld  site %s  %s  (%s executor, started %s%s%s)\n  folder %s\n", id,
               sqlite3_column_text(runs, 1), sqlite3_column_text(runs, 2),
               sqlite3_column_text(runs, 3), sqlite3_column_text(runs, 5),
               *sqlite3_column_text(runs, 6) ? ", ended " : "", sqlite3_column_text(runs, 6),
               sqlite3_column_text(runs, 4));
        if (*sqlite3_column_text(runs, 7)) printf("  error: %s\n", sqlite3_column_text(runs, 7));
        printf("  %-8s %-8s %3s  %-22s %-20s %7s  %s\n", "step", "state", "try", "job", "started",
               "took s", "error");
        sqlite3_reset(steps);
        sqlite3_bind_int64(steps, 1, id);
        while (sqlite3_step(steps) == SQLITE_ROW) {
            /* the job as local:HOST:PGID or slurm:ID (the process identity is for resumes) */
            char job[64];
            cs_copy(job, sizeof job, (const char *)sqlite3_column_text(steps, 4));
            char *c = cs_starts_with(job, "local:") ? strchr(job + 6, ':') : NULL;
            if (c && (c = strchr(c + 1, ':'))) *c = 0;
            const char *state = (const char *)sqlite3_column_text(steps, 1);
            const char *log = (const char *)sqlite3_column_text(steps, 8);
            printf("  %-8s %-8s %3d  %-22.22s %-20s %7s  %s\n", sqlite3_column_text(steps, 0),
                   state, sqlite3_column_int(steps, 2), job, sqlite3_column_text(steps, 5),
                   sqlite3_column_text(steps, 6), sqlite3_column_text(steps, 7));
            if (!*log) continue;
            printf("           log %s\n", log);
            /* what went wrong, or how far it is: the log's end */
            const char *error = (const char *)sqlite3_column_text(steps, 7);
            if (!strcmp(state, "failed") || !strcmp(state, "running") ||
                (!strcmp(state, "pending") && *error))
                print_log_end(log, 5);
        }
    }
    sqlite3_finalize(runs);
    sqlite3_finalize(steps);
    /* nothing for a name that is no site of the study, or a number that is no run of it (nor a
     * site's name): a typo, not news */
    cs_site site;
    if (!nruns && filter && cs_sites_find(db, filter, &site, &err)) {
        if (err.status == CS_ERR_INPUT && strspn(filter, "0123456789") == strlen(filter))
            cs_error_input(&err, argv[1], "run", filter,
                           "no such workflow run in the study; 'cybershake status %s' lists them",
                           argv[1]);
        cs_db_close(db);
        return cs_cli_fail(argv[0], &err);
    }
    cs_db_close(db);
    if (!nruns) printf("no workflow runs%s%s\n", filter ? " for " : "", filter ? filter : "");
    return 0;
}
