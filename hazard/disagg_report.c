/* `cybershake hazard disagg`'s work: a run's hazard disaggregated at a level or a probability,
 * stored in the study (Disaggregations, Disagg_Bins, Disagg_Ruptures), reported and drawn. */
#include "disagg_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "hazard_db.h"
#include "disagg_plot.h"
#include "hazard_plot.h"

typedef struct {
    long idx;
    double c;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
    double x = ((const ranked *)a)->c, y = ((const ranked *)b)->c;
    return (x < y) - (x > y);
}

/* The result into Disaggregations, Disagg_Bins (nonzero bins) and Disagg_Ruptures (the top n),
 * in one transaction. */
static int store_disagg(cs_db *db, const hazard_run *run, long long type_id, const char *target,
                        double annual, const disagg_bins *b, const disagg_result *d,
                        const hazard_set *set, const ranked *top, int ntop, long long *id,
                        cs_error *err) {
    CS_CALL(err, cs_db_begin(db, err));
    sqlite3_stmt *st = NULL;
    /* a rerun replaces the disaggregation of the same run, IM type and target (its bins and
     * ruptures go with it, ON DELETE CASCADE) instead of adding a second one */
    int rc = cs_db_prepare(db,
                           "DELETE FROM Disaggregations WHERE Run_ID = ? AND IM_Type_ID = ? AND "
                           "Target = ?",
                           &st, err);
    if (!rc) {
        sqlite3_bind_int64(st, 1, run->run_id);
        sqlite3_bind_int64(st, 2, type_id);
        sqlite3_bind_text(st, 3, target, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = cs_db_fail(db, "replacing the disaggregation", err);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Disaggregations (Run_ID, IM_Type_ID, IM_Level, Annual_Poe, "
                           "Target, Mean_M, Mean_R, Mean_Eps, Mode_M, Mode_R, Mode_Eps, "
                           "Created_At) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                           "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                           &st, err);
    if (!rc) {
        double v[8] = {d->level,    annual,    d->mean_m, d->mean_r,
                       d->mean_eps, d->mode_m, d->mode_r, d->mode_eps};
        sqlite3_bind_int64(st, 1, run->run_id);
        sqlite3_bind_int64(st, 2, type_id);
        sqlite3_bind_double(st, 3, v[0]);
        sqlite3_bind_double(st, 4, v[1]);
        sqlite3_bind_text(st, 5, target, -1, SQLITE_TRANSIENT);
        for (int i = 2; i < 8; i++)
            sqlite3_bind_double(st, 4 + i, v[i]);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding the disaggregation", err);
        *id = sqlite3_last_insert_rowid(cs_db_handle(db));
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Disagg_Bins (Disagg_ID, M_Low, M_High, R_Low, R_High, "
                           "Eps_Low, Eps_High, Contribution) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           &st, err);
    for (int i = 0; i < b->nm && !rc; i++)
        for (int j = 0; j < b->nr && !rc; j++)
            for (int k = 0; k < b->ne && !rc; k++) {
                double c = d->bins[((size_t)i * b->nr + j) * b->ne + k];
                if (c <= 0) continue;
                double v[7] = {b->m[i], b->m[i + 1], b->r[j], b->r[j + 1], b->e[k], b->e[k + 1], c};
                sqlite3_reset(st);
                sqlite3_bind_int64(st, 1, *id);
                for (int q = 0; q < 7; q++)
                    sqlite3_bind_double(st, 2 + q, v[q]);
                if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding a bin", err);
            }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Disagg_Ruptures (Disagg_ID, Source_ID, Rupture_ID, "
                           "Contribution) VALUES (?, ?, ?, ?)",
                           &st, err);
    for (int i = 0; i < ntop && !rc; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, *id);
        sqlite3_bind_int64(st, 2, set->source[top[i].idx]);
        sqlite3_bind_int64(st, 3, set->rupture[top[i].idx]);
        sqlite3_bind_double(st, 4, top[i].c);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding a rupture", err);
    }
    sqlite3_finalize(st);
    if (rc) {
        CS_TRACE(err);
        cs_db_rollback(db);
        return rc;
    }
    return cs_db_commit(db, err);
}

static void bin_name(char *out, size_t size, const double *e, int i, const char *unit) {
    if (e[i] <= -1e8)
        snprintf(out, size, "<%g%s", e[i + 1], unit);
    else if (e[i + 1] >= 1e8)
        snprintf(out, size, ">%g%s", e[i], unit);
    else
        snprintf(out, size, "%g-%g%s", e[i], e[i + 1], unit);
}

/* The leading ruptures with their names, magnitudes, distances, epsilons and shares. */
static void print_ruptures(FILE *out, cs_db *db, const hazard_run *run, const hazard_set *set,
                           const disagg_result *d, const ranked *rk, int ntop, cs_error *err) {
    fprintf(out, "  %-8s %-8s %-32s %6s %9s %8s %8s\n", "source", "rupture", "name", "M", "Rrup km",
            "epsilon", "share %");
    sqlite3_stmt *nm = NULL;
    cs_db_prepare(db,
                  "SELECT coalesce(Source_Name, '') FROM Ruptures WHERE ERF_ID = ? AND "
                  "Source_ID = ? AND Rupture_ID = ?",
                  &nm, err);
    for (int i = 0; i < ntop; i++) {
        long q = rk[i].idx;
        char name[64] = "";
        if (nm) {
            sqlite3_reset(nm);
            sqlite3_bind_int64(nm, 1, run->erf_id);
            sqlite3_bind_int64(nm, 2, set->source[q]);
            sqlite3_bind_int64(nm, 3, set->rupture[q]);
            if (sqlite3_step(nm) == SQLITE_ROW)
                cs_copy(name, sizeof name, (const char *)sqlite3_column_text(nm, 0));
        }
        fprintf(out, "  %-8lld %-8lld %-32.32s %6.2f %9.1f %8.2f %8.2f\n", set->source[q],
                set->rupture[q], name, set->mag[q], set->rrup[q], d->eps[q], 100 * rk[i].c);
    }
    sqlite3_finalize(nm);
}

/* The M x Rrup shares (summed over epsilon) into *mr, printed for the bins with any share
 * (rows m0..m1, columns 0..r1). */
static int print_mr_table(FILE *out, const disagg_bins *b, const disagg_result *d, double **mrp,
                          int *m0p, int *m1p, int *r1p, cs_error *err) {
    double *mr = *mrp = calloc((size_t)b->nm * b->nr, sizeof(double));
    if (!mr) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    int m0 = b->nm, m1 = -1, r1 = -1;
    for (int i = 0; i < b->nm; i++)
        for (int j = 0; j < b->nr; j++)
            for (int k = 0; k < b->ne; k++) {
                double v = d->bins[((size_t)i * b->nr + j) * b->ne + k];
                mr[i * b->nr + j] += v;
                if (v > 0) {
                    m0 = i < m0 ? i : m0;
                    m1 = i > m1 ? i : m1;
                    r1 = j > r1 ? j : r1;
                }
            }
    char nmx[32];
    fprintf(out, "  share %% by magnitude (rows) and Rrup (columns):\n  %-10s", "");
    for (int j = 0; j <= r1; j++) {
        bin_name(nmx, sizeof nmx, b->r, j, "");
        fprintf(out, " %9s", nmx);
    }
    fprintf(out, "\n");
    for (int i = m0; i <= m1; i++) {
        bin_name(nmx, sizeof nmx, b->m, i, "");
        fprintf(out, "  M %-8s", nmx);
        for (int j = 0; j <= r1; j++)
            fprintf(out, " %9.2f", 100 * mr[i * b->nr + j]);
        fprintf(out, "\n");
    }
    *m0p = m0, *m1p = m1, *r1p = r1;
    return 0;
}

/* The curve never reaches the probability asked for: nothing to disaggregate, said, drawn as a
 * note (plot, when given), nothing stored. */
static int never_reached(FILE *out, const hazard_run *run, const char *imname, const char *poetext,
                         double annual, double largest, const char *plot, cs_error *err) {
    char why[256];
    snprintf(why, sizeof why,
             "the hazard curve never reaches %s (annual %.4g):\nits largest annual "
             "probability of exceedance is %.4g\nno disaggregation at this probability",
             poetext, annual, largest);
    fprintf(out, "site %s, run %lld, %s: %s\n", run->site, run->run_id, imname, why);
    if (!plot) return 0;
    char title[160];
    snprintf(title, sizeof title, "%s, run %lld: %s, %s", run->site, run->run_id, imname, poetext);
    CS_CALL(err, hazard_plot_note(plot, title, why, err));
    fprintf(out, "  plot: %s\n", plot);
    return 0;
}

int disagg_report(const disagg_request *rq, FILE *out, cs_error *err) {
    const char *imtext = rq->im, *poetext = rq->poe, *plot = rq->plot;
    double level = rq->level;
    const long top_n = rq->top;
    const disagg_bins b = rq->bins;
    hazard_im im;
    double annual = NAN;
    if (hazard_im_parse(imtext, &im, err) || (poetext && disagg_parse_poe(poetext, &annual, err)))
        return err->status;
    cs_db *db;
    if (cs_db_open_current(rq->study, &db, err)) return err->status;
    hazard_run run;
    hazard_set set = {0};
    disagg_result d = {0};
    ranked *rk = NULL;
    long long type_id = 0, id = 0;
    char units[16] = "", imname[64], target[64];
    hazard_im_name(&im, imname, sizeof imname);
    int rc, ntop = 0, m0 = b.nm, m1 = -1, r1 = -1;
    double *mr = NULL;
    CS_CALL_GOTO(rc, err, hazard_run_find(db, rq->run, &run, err), done);
    CS_CALL_GOTO(rc, err, hazard_im_type(db, &run, &im, &type_id, units, sizeof units, err), done);
    CS_CALL_GOTO(rc, err, hazard_load(db, &run, type_id, &set, err), done);
    if (poetext && rq->if_reached) {
        double largest = 0;
        CS_CALL_GOTO(rc, err, disagg_largest_annual(set.rups, set.n, run.time_span, &largest, err),
                     done);
        if (largest < annual) {
            CS_CALL_GOTO(rc, err,
                         never_reached(out, &run, imname, poetext, annual, largest, plot, err),
                         done);
            goto done;
        }
    }
    if (poetext)
        CS_CALL_GOTO(rc, err, disagg_level_for(set.rups, set.n, run.time_span, annual, &level, err),
                     done);
    CS_CALL_GOTO(rc, err, disagg_compute(set.rups, set.mag, set.rrup, set.n, level, &b, &d, err),
                 done);
    if (isnan(annual)) annual = hazard_annual(-expm1(-d.total), run.time_span);
    rk = malloc(sizeof *rk * (size_t)(set.n ? set.n : 1));
    if (!rk) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    for (long i = 0; i < set.n; i++)
        rk[i] = (ranked){i, d.contribution[i]};
    qsort(rk, (size_t)set.n, sizeof *rk, cmp_ranked);
    ntop = (int)(top_n < set.n ? top_n : set.n);
    while (ntop > 0 && rk[ntop - 1].c <= 0)
        ntop--;
    if (poetext)
        snprintf(target, sizeof target, "poe %s", poetext);
    else
        snprintf(target, sizeof target, "level %g", level);
    CS_CALL_GOTO(rc, err,
                 store_disagg(db, &run, type_id, target, annual, &b, &d, &set, rk, ntop, &id, err),
                 done);
    fprintf(out,
            "disaggregation %lld: site %s, run %lld, %s at %.5g %s (annual probability of "
            "exceedance %.4g)\n",
            id, run.site, run.run_id, imname, level, units, annual);
    fprintf(out,
            "  mean M %.2f, Rrup %.1f km, epsilon %.2f; modal M %.2f, Rrup %.1f km, epsilon "
            "%.2f\n",
            d.mean_m, d.mean_r, d.mean_eps, d.mode_m, d.mode_r, d.mode_eps);
    print_ruptures(out, db, &run, &set, &d, rk, ntop, err);
    cs_db_close(db);
    db = NULL;
    /* the M x Rrup table (summed over epsilon), bins with any share */
    CS_CALL_GOTO(rc, err, print_mr_table(out, &b, &d, &mr, &m0, &m1, &r1, err), done);
    if (plot && m1 >= m0) {
        disagg_plot_info in = {run.site, imname,   units,     run.run_id, target,
                               level,    annual,   d.mean_m,  d.mean_r,   d.mean_eps,
                               d.mode_m, d.mode_r, d.mode_eps};
        CS_CALL_GOTO(rc, err, disagg_plot(plot, &in, &b, d.bins, err), done);
        fprintf(out, "  plot: %s\n", plot);
    }
done:
    if (db) cs_db_close(db);
    free(mr);
    free(rk);
    disagg_free(&d);
    hazard_set_free(&set);
    return rc;
}
