/* Disaggregation plots (disagg_plot.h). */
#include "disagg_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "hazard_db.h"
#include "hazard_plot.h"

void disagg_probability_text(const char *target, double annual, char *out, size_t size) {
    if (target && cs_starts_with(target, "poe ") && strchr(target, '%')) {
        const char *t = target + 4;
        size_t n = strlen(t);
        if (n > 3 && !strcmp(t + n - 3, " yr"))
            snprintf(out, size, "%.*s years", (int)(n - 3), t);
        else
            snprintf(out, size, "%s", t);
        return;
    }
    snprintf(out, size, "%.2g%% in 50 years", 100 * -expm1(50 * log1p(-annual)));
}

int disagg_plot(const char *path, const disagg_plot_info *in, const disagg_bins *b,
                const double *bins, cs_error *err) {
    char prob[64], title[256], sub[256], note[256];
    disagg_probability_text(in->target, in->annual, prob, sizeof prob);
    int at_level = in->target && cs_starts_with(in->target, "level");
    if (at_level)
        snprintf(title, sizeof title, "%s (run %lld): %s at %.3g %s", in->site, in->run_id,
                 in->imname, in->level, in->units);
    else
        snprintf(title, sizeof title, "%s (run %lld): %s at %s", in->site, in->run_id, in->imname,
                 prob);
    snprintf(sub, sizeof sub,
             "level %.4g %s; annual probability of exceedance %.3g (return period %.0f years%s%s)",
             in->level, in->units, in->annual, 1 / in->annual, at_level ? "; " : "",
             at_level ? prob : "");
    snprintf(note, sizeof note,
             "mean M %.2f, Rrup %.1f km, \xce\xb5 %.2f;   mode M %.2f, Rrup %.0f km, \xce\xb5 %.1f",
             in->mean_m, in->mean_r, in->mean_eps, in->mode_m, in->mode_r, in->mode_eps);
    plot_disagg_spec s = {title, sub, note, b->nm, b->nr, b->ne, b->m, b->r, b->e, bins};
    return hazard_plot_disagg(path, &s, err);
}

/* An axis's edges from the stored bins (nonzero bins only): every Low and High, and the gaps
 * between them that are a whole number of the narrowest bin split into such bins again. */
static int axis_edges(const double *lo, const double *hi, long n, double *e, int *ne,
                      cs_error *err) {
    double all[2 * 4096], wmin = INFINITY;
    long na = 0;
    for (long i = 0; i < n && na < 2 * 4096 - 1; i++) {
        all[na++] = lo[i], all[na++] = hi[i];
        if (fabs(lo[i]) < 1e8 && fabs(hi[i]) < 1e8) wmin = fmin(wmin, hi[i] - lo[i]);
    }
    int k = 0;
    for (;;) { /* ascending distinct values */
        double next = INFINITY;
        for (long i = 0; i < na; i++)
            if ((k == 0 || all[i] > e[k - 1] + 1e-9 * fmax(1, fabs(all[i]))) && all[i] < next)
                next = all[i];
        if (isinf(next)) break;
        if (k > 0 && isfinite(wmin) && fabs(next) < 1e8 && fabs(e[k - 1]) < 1e8) {
            double q = (next - e[k - 1]) / wmin;
            long m = lround(q);
            if (m > 1 && fabs(q - m) < 1e-6 * m) {
                double start = e[k - 1];
                for (long s = 1; s < m && k < DISAGG_MAX_EDGES; s++)
                    e[k++] = start + s * wmin;
            }
        }
        if (k >= DISAGG_MAX_EDGES)
            return cs_error_set(err, CS_ERR_INPUT,
                                "a stored disaggregation has more than %d "
                                "bin edges on an axis",
                                DISAGG_MAX_EDGES);
        e[k++] = next;
    }
    *ne = k - 1;
    return 0;
}

static int find_bin(const double *e, int n, double lo);

/* Where every stored edge is one of the default bins' (disagg_default_bins), the default edges
 * of that axis: the same epsilon colours and the same cells as the plot made at the time. */
static void use_default_edges(int axis, double *e, int *ne) {
    disagg_bins d;
    disagg_default_bins(&d);
    const double *de = axis == 0 ? d.m : axis == 1 ? d.r : d.e;
    int nd = axis == 0 ? d.nm : axis == 1 ? d.nr : d.ne;
    for (int i = 0; i <= *ne; i++)
        if (find_bin(de, nd + 1, e[i]) < 0) return;
    memcpy(e, de, sizeof(double) * (size_t)(nd + 1));
    *ne = nd;
}

/* The bin whose lower edge is lo, or -1: none. */
static int find_bin(const double *e, int n, double lo) {
    for (int i = 0; i < n; i++)
        if (fabs(e[i] - lo) <= 1e-9 * fmax(1, fabs(lo))) return i;
    return -1;
}

int disagg_plot_stored(cs_db *db, long long id, const char *path, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT d.Run_ID, d.IM_Level, d.Annual_Poe, d.Target, d.Mean_M, "
                               "d.Mean_R, d.Mean_Eps, d.Mode_M, d.Mode_R, d.Mode_Eps, "
                               "t.IM_Type_Measure, coalesce(t.IM_Type_Value, 0), "
                               "t.IM_Type_Component, t.IM_Type_Units, s.CS_Short_Name FROM "
                               "Disaggregations d JOIN IM_Types t USING (IM_Type_ID) JOIN "
                               "CyberShake_Runs r USING (Run_ID) JOIN CyberShake_Sites s ON "
                               "s.CS_Site_ID = r.Site_ID WHERE d.Disagg_ID = ?",
                               &st, err));
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return cs_error_input(err, "Disaggregations", NULL, NULL, "no disaggregation %lld", id);
    }
    disagg_plot_info in;
    char target[64], site[64], units[32], imname[64];
    hazard_im im = {"", sqlite3_column_double(st, 11), ""};
    cs_copy(im.measure, sizeof im.measure, (const char *)sqlite3_column_text(st, 10));
    cs_copy(im.component, sizeof im.component, (const char *)sqlite3_column_text(st, 12));
    hazard_im_name(&im, imname, sizeof imname);
    cs_copy(target, sizeof target, (const char *)sqlite3_column_text(st, 3));
    cs_copy(units, sizeof units, (const char *)sqlite3_column_text(st, 13));
    cs_copy(site, sizeof site, (const char *)sqlite3_column_text(st, 14));
    in = (disagg_plot_info){site,
                            imname,
                            units,
                            sqlite3_column_int64(st, 0),
                            target,
                            sqlite3_column_double(st, 1),
                            sqlite3_column_double(st, 2),
                            sqlite3_column_double(st, 4),
                            sqlite3_column_double(st, 5),
                            sqlite3_column_double(st, 6),
                            sqlite3_column_double(st, 7),
                            sqlite3_column_double(st, 8),
                            sqlite3_column_double(st, 9)};
    sqlite3_finalize(st);
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT M_Low, M_High, R_Low, R_High, Eps_Low, Eps_High, "
                               "Contribution FROM Disagg_Bins WHERE Disagg_ID = ?",
                               &st, err));
    sqlite3_bind_int64(st, 1, id);
    long n = 0, cap = 0;
    double *row = NULL;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            double *g = realloc(row, sizeof(double) * 7 * (size_t)cap);
            if (!g) {
                sqlite3_finalize(st);
                free(row);
                return cs_error_set(err, CS_ERR_RESOURCE,
                                    "out of memory reading disaggregation %lld's bins", id);
            }
            row = g;
        }
        for (int q = 0; q < 7; q++)
            row[7 * n + q] = sqlite3_column_double(st, q);
        n++;
    }
    sqlite3_finalize(st);
    if (n == 0 || n > 4096) {
        free(row);
        return cs_error_input(err, "Disagg_Bins", NULL, NULL,
                              "disaggregation %lld has %ld bins (1 to 4096 drawn)", id, n);
    }
    disagg_bins b;
    double *lo = malloc(sizeof(double) * 2 * (size_t)n), *v = NULL;
    int rc;
    if (!lo) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    for (int axis = 0; axis < 3; axis++) {
        for (long i = 0; i < n; i++)
            lo[i] = row[7 * i + 2 * axis], lo[n + i] = row[7 * i + 2 * axis + 1];
        double *e = axis == 0 ? b.m : axis == 1 ? b.r : b.e;
        int *ne = axis == 0 ? &b.nm : axis == 1 ? &b.nr : &b.ne;
        CS_CALL_GOTO(rc, err, axis_edges(lo, lo + n, n, e, ne, err), done);
        use_default_edges(axis, e, ne);
    }
    v = calloc((size_t)b.nm * b.nr * b.ne, sizeof(double));
    if (!v) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    for (long i = 0; i < n; i++) {
        int a = find_bin(b.m, b.nm, row[7 * i]), c = find_bin(b.r, b.nr, row[7 * i + 2]),
            k = find_bin(b.e, b.ne, row[7 * i + 4]);
        if (a >= 0 && c >= 0 && k >= 0) v[((size_t)a * b.nr + c) * b.ne + k] += row[7 * i + 6];
    }
    CS_CALL_GOTO(rc, err, disagg_plot(path, &in, &b, v, err), done);
done:
    free(v);
    free(lo);
    free(row);
    return rc;
}
