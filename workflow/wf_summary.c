/* The end of a run: what a user asks first (the IM at the design probabilities, the ruptures
 * that dominate them, where the plots are), read back from what the steps stored. */
#include <stdio.h>
#include <string.h>

#include "cs_strutil.h"
#include "hazard_db.h"
#include "wf_run.h"

static int disagg_row(cs_db *db, long long run_id, long long type_id, const char *target,
                      long long *id, double *level, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db,
                          "SELECT Disagg_ID, IM_Level FROM Disaggregations WHERE Run_ID = ? AND "
                          "IM_Type_ID = ? AND Target = ? ORDER BY Disagg_ID DESC LIMIT 1",
                          &st, err));
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, type_id);
    char t[96];
    snprintf(t, sizeof t, "poe %s", target); /* as 'cybershake hazard disagg' names it */
    sqlite3_bind_text(st, 3, t, -1, SQLITE_TRANSIENT);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        *id = sqlite3_column_int64(st, 0);
        *level = sqlite3_column_double(st, 1);
    }
    sqlite3_finalize(st);
    return found;
}

static int print_leaders(cs_db *db, long long disagg_id, long long erf_id, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(db,
                          "SELECT d.Source_ID, d.Rupture_ID, coalesce(r.Source_Name, ''), "
                          "r.Magnitude, d.Contribution FROM Disagg_Ruptures d JOIN Ruptures r ON "
                          "r.ERF_ID = ? AND r.Source_ID = d.Source_ID AND r.Rupture_ID = "
                          "d.Rupture_ID WHERE d.Disagg_ID = ? ORDER BY d.Contribution DESC",
                          &st, err));
    sqlite3_bind_int64(st, 1, erf_id);
    sqlite3_bind_int64(st, 2, disagg_id);
    printf("    %6s %7s  %-36s %5s  %s\n", "source", "rupture", "fault", "M", "share");
    while (sqlite3_step(st) == SQLITE_ROW)
        printf("    %6lld %7lld  %-36.36s %5.2f  %5.1f%%\n", sqlite3_column_int64(st, 0),
               sqlite3_column_int64(st, 1), (const char *)sqlite3_column_text(st, 2),
               sqlite3_column_double(st, 3), 100 * sqlite3_column_double(st, 4));
    sqlite3_finalize(st);
    return 0;
}

int wf_print_summary(cs_db *db, const wf_config *c, const wf_plan *p, long long run_id,
                     cs_error *err) {
    char id[32];
    snprintf(id, sizeof id, "%lld", run_id);
    hazard_run run;
    CS_CALL(err, hazard_run_find(db, id, &run, err));
    printf("\nhazard at %s (run %lld), from the disaggregations:\n  %-22s", run.site, run_id, "IM");
    for (int j = 0; j < c->npoes; j++)
        printf(" %16s", c->poes[j]);
    printf("\n");
    /* each IM once: its type, units and name, for the table and the leading ruptures */
    long long type[WF_MAX_LIST];
    char units[WF_MAX_LIST][32], name[WF_MAX_LIST][64];
    for (int i = 0; i < c->nims; i++) {
        hazard_im im;
        CS_CALL(err, hazard_im_parse(c->ims[i], &im, err));
        hazard_im_name(&im, name[i], sizeof name[i]);
        /* an IM outside the run's band has no value: the row says why (formats/im_band.h) */
        cs_error band;
        cs_error_clear(&band);
        type[i] = -1;
        if (hazard_im_band(&run, &im, &band)) {
            printf("  %-22s not given: %s\n", name[i], band.message);
            continue;
        }
        CS_CALL(err, hazard_im_type(db, &run, &im, &type[i], units[i], sizeof units[i], err));
        printf("  %-22s", name[i]);
        for (int j = 0; j < c->npoes; j++) {
            long long did;
            double level;
            int f = disagg_row(db, run_id, type[i], c->poes[j], &did, &level, err);
            if (f < 0) {
                CS_TRACE(err);
                return err->status;
            }
            if (f)
                printf(" %14.4g %s", level, units[i]);
            else
                printf(" %16s", "-");
        }
        printf("\n");
    }
    /* the leading ruptures at the first probability (the design level, 2% in 50 years) */
    for (int i = 0; i < c->nims && c->npoes > 0; i++) {
        long long did;
        double level;
        if (type[i] < 0) continue;
        int f = disagg_row(db, run_id, type[i], c->poes[0], &did, &level, err);
        if (f < 0) {
            CS_TRACE(err);
            return err->status;
        }
        if (f == 0) continue;
        printf("\nruptures that dominate %s at %s (%.4g %s):\n", name[i], c->poes[0], level,
               units[i]);
        CS_CALL(err, print_leaders(db, did, run.erf_id, err));
    }
    printf("\nplots and tables:\n");
    for (int i = 0; i < p->n; i++) {
        const wf_step *s = &p->steps[i];
        if (strcmp(s->name, "hazard") && strcmp(s->name, "disagg")) continue;
        for (int k = 0; k < s->nout; k++)
            printf("  %s\n", s->out[k]);
    }
    return 0;
}
