/* `cybershake hazard uhs`'s work (uhs_report.h). */
#include "uhs_report.h"

#include <math.h>
#include <stdio.h>

#include "cs_atomic.h"
#include "disagg.h"
#include "hazard_db.h"
#include "hazard_plot.h"
#include "site_level.h"

#define MAX_PERIODS 64

int hazard_uhs_report(const uhs_request *rq, FILE *out, cs_error *err) {
    const char *component = rq->component, *plot = rq->plot, *csv = rq->csv;
    const char *const *poes = rq->poe;
    const int npoe = rq->npoe;
    double annual[8];
    for (int j = 0; j < npoe; j++)
        if (disagg_parse_poe(poes[j], &annual[j], err)) return err->status;
    cs_db *db;
    hazard_run run;
    if (cs_db_open_current(rq->study, &db, err) || hazard_run_find(db, rq->run, &run, err))
        return err->status;
    sqlite3_stmt *st;
    if (cs_db_prepare(db,
                      "SELECT DISTINCT t.IM_Type_Value FROM IM_Types t WHERE t.IM_Type_Measure = "
                      "'SA' AND t.IM_Type_Component = ? AND EXISTS (SELECT 1 FROM PeakAmplitudes "
                      "p WHERE p.Run_ID = ? AND p.IM_Type_ID = t.IM_Type_ID) ORDER BY 1",
                      &st, err))
        return err->status;
    sqlite3_bind_text(st, 1, component, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, run.run_id);
    double period[MAX_PERIODS], sa[8][MAX_PERIODS];
    int n = 0;
    while (n < MAX_PERIODS && sqlite3_step(st) == SQLITE_ROW)
        period[n++] = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    /* the periods of the run's band only (formats/im_band.h); those left out are named */
    double out_of_band[MAX_PERIODS];
    int nout = 0, kept = 0, rc = 0;
    cs_error band;
    cs_error_clear(&band);
    for (int i = 0; i < n; i++) {
        hazard_im im = {"SA", period[i], ""};
        snprintf(im.component, sizeof im.component, "%s", component);
        if (hazard_im_band(&run, &im, nout ? NULL : &band))
            out_of_band[nout++] = period[i];
        else
            period[kept++] = period[i];
    }
    n = kept;
    if (n == 0 && nout > 0) {
        *err = band;
        rc = -1;
    } else if (n == 0) {
        rc = cs_error_input(err, rq->study, "IM_Types", component,
                            "run %lld has no SA of this component", run.run_id);
    }
    fprintf(out, "uniform hazard spectrum, site %s, run %lld, SA %s (g):\n  %8s", run.site,
            run.run_id, component, "period s");
    for (int j = 0; j < npoe; j++)
        fprintf(out, " %14s", poes[j]);
    fprintf(out, "\n");
    for (int i = 0; i < n && !rc; i++) {
        hazard_im im = {"SA", period[i], ""};
        snprintf(im.component, sizeof im.component, "%s", component);
        long long type;
        char units[32];
        rc = hazard_im_type(db, &run, &im, &type, units, sizeof units, err);
        fprintf(out, "  %8.4g", period[i]);
        for (int j = 0; j < npoe && !rc; j++) {
            rc = site_level(db, &run, type, annual[j], &sa[j][i], err);
            if (!rc) fprintf(out, " %14.4g", sa[j][i]);
        }
        fprintf(out, "\n");
    }
    if (!rc && nout > 0) {
        fprintf(out, "  not given, outside the run's band (fmax %g Hz, SA at T >= %.3g s only):",
                run.max_frequency, 1 / run.max_frequency);
        for (int i = 0; i < nout; i++)
            fprintf(out, " %g s", out_of_band[i]);
        fprintf(out, "\n");
    }
    if (!rc && csv) {
        cs_atomic_file a;
        rc = cs_atomic_open(&a, csv, err);
        if (!rc) {
            fprintf(a.f, "# uniform hazard spectrum, site %s, run %lld, SA %s in g\nperiod_s",
                    run.site, run.run_id, component);
            for (int j = 0; j < npoe; j++)
                fprintf(a.f, ",poe_%.6g", annual[j]);
            fprintf(a.f, "\n");
            for (int i = 0; i < n; i++) {
                fprintf(a.f, "%.6g", period[i]);
                for (int j = 0; j < npoe; j++)
                    fprintf(a.f, ",%.6g", sa[j][i]);
                fprintf(a.f, "\n");
            }
            rc = cs_atomic_commit(&a, NULL, err);
        }
    }
    if (!rc && plot) {
        plot_curve c[8];
        double ymin = INFINITY, ymax = 0;
        for (int j = 0; j < npoe; j++) {
            c[j] = (plot_curve){poes[j], period, sa[j], n};
            for (int i = 0; i < n; i++)
                if (sa[j][i] > 0) ymin = fmin(ymin, sa[j][i]), ymax = fmax(ymax, sa[j][i]);
        }
        char title[128], ylabel[64];
        snprintf(title, sizeof title, "Uniform hazard spectrum, %s (run %lld)", run.site,
                 run.run_id);
        snprintf(ylabel, sizeof ylabel, "SA %s (g)", component);
        plot_spec ps = {title,
                        "period (s)",
                        ylabel,
                        pow(10, floor(log10(period[0]))),
                        pow(10, ceil(log10(period[n - 1] * 1.0001))),
                        pow(10, floor(log10(ymin))),
                        pow(10, ceil(log10(ymax))),
                        c,
                        npoe,
                        NULL,
                        0};
        rc = ymax > 0 ? hazard_plot_loglog(plot, &ps, err)
                      : cs_error_input(err, rq->study, "UHS", NULL, "every value is zero");
    }
    cs_db_close(db);
    if (rc) return rc;
    if (csv) fprintf(out, "  csv: %s\n", csv);
    if (plot) fprintf(out, "  plot: %s\n", plot);
    return 0;
}
