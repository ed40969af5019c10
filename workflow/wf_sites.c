/* `cybershake run --sites`: every site of a site list, imported into the study and run. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_sites.h"
#include "cs_strutil.h"
#include "wf_run.h"
#include "cs_stage.h"

/* The short names of a site CSV, in file order (header and comments skipped). */
static int site_names(const char *path, char (**names)[CS_SHORT_NAME_MAX + 1], int *n,
                      cs_error *err) {
    FILE *f = fopen(path, "r");
    if (!f) return cs_error_errno(err, path, "open the site list");
    char *buf = NULL, *line;
    size_t cap = 0;
    int cap_n = 0;
    *n = 0;
    *names = NULL;
    while ((line = cs_read_line(f, &buf, &cap))) {
        char *t = cs_trim(line);
        if (!*t || *t == '#' || cs_starts_with(t, "short_name")) continue;
        char *comma = strchr(t, ',');
        if (comma) *comma = 0;
        t = cs_trim(t);
        if (*n == cap_n) {
            cap_n = cap_n ? 2 * cap_n : 16;
            void *g = realloc(*names, sizeof **names * (size_t)cap_n);
            if (!g) {
                /* never a shorter list that passes for the whole */
                free(buf);
                fclose(f);
                return cs_error_set(err, CS_ERR_RESOURCE, "%s: out of memory for %d site names",
                                    path, cap_n);
            }
            *names = g;
        }
        cs_copy((*names)[(*n)++], CS_SHORT_NAME_MAX + 1, t);
    }
    free(buf);
    fclose(f);
    return 0;
}

/* slurm: whether the configuration runs its steps on Slurm. */
static int executor_is_slurm(const wf_run_options *o, int *slurm, cs_error *err) {
    wf_config c;
    memset(&c, 0, sizeof c); /* freed below even when never read */
    int rc = wf_config_read(o->config, o->sets, o->nsets, &c, err);
    if (rc == 0) *slurm = !strcmp(wf_cfg_str(&c, "executor"), "slurm");
    wf_config_free(&c);
    return rc;
}

int wf_run_sites(const wf_run_options *o, const char *sites, const char *sites_sha, FILE *out,
                 FILE *errs, const char *prog, cs_error *err) {
    int rc = 0;
    char local[PATH_MAX + 32];
    if (wf_is_url(sites)) {
        snprintf(local, sizeof local, "%s.sites.csv", o->study);
        cs_fetch_options fo;
        cs_fetch_defaults(&fo);
        if (cs_fetch(sites, local, sites_sha, &fo, err)) return err->status;
        sites = local;
    }
    cs_db *db;
    cs_sites_import_result res;
    if (cs_db_open_current(o->study, &db, err)) return err->status;
    rc = cs_sites_import(db, sites, &res, err);
    cs_db_close(db);
    CS_CALL(err, rc);
    char(*names)[CS_SHORT_NAME_MAX + 1] = NULL;
    int n = 0, slurm = 0;
    CS_CALL_GOTO(rc, err, site_names(sites, &names, &n, err), done);
    CS_CALL_GOTO(rc, err, executor_is_slurm(o, &slurm, err), done);
    /* On Slurm every site's jobs are queued first, then followed site by site (the sites
     * run side by side in the queue); locally the sites run one after the other. */
    int failed = 0, passes = slurm && !o->no_wait && !o->dry_run ? 2 : 1;
    for (int pass = 0; pass < passes; pass++) {
        wf_run_options po = *o;
        if (slurm) po.no_wait = pass == 0 ? 1 : 0;
        for (int i = 0; i < n; i++) {
            fprintf(out, "== site %d of %d: %s%s\n", i + 1, n, names[i],
                    passes == 2 ? (pass == 0 ? " (queueing)" : " (following)") : "");
            fflush(out);
            po.site = names[i];
            cs_error e;
            cs_error_clear(&e);
            if (wf_run(&po, &e)) {
                fprintf(errs, "%s: site %s: %s\n", prog, names[i], e.message);
                if (pass == passes - 1 || !slurm) failed++;
            }
        }
    }
    if (failed) rc = cs_error_set(err, CS_ERR_INPUT, "%d of %d sites failed (above)", failed, n);
done:
    free(names);
    return rc;
}
