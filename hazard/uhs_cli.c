/* `cybershake hazard uhs`: the uniform hazard spectrum of a site at a probability. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_cli.h"
#include "disagg.h"
#include "hazard_cli.h"
#include "hazard_plot.h"
#include "site_level.h"

#define MAX_PERIODS 64

int cs_hazard_uhs_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard uhs STUDY RUN_ID|SITE [--poe '2% in 50 yr']...\n"
        "          [--component RotD50] [--plot FILE.png|svg] [--csv FILE.csv]\n\n"
        "The uniform hazard spectrum of a run: at each SA period the run has (component\n"
        "RotD50 unless --component), the spectral acceleration whose annual probability of\n"
        "exceedance is --poe (repeatable; default 2% and 10% in 50 years), from the run's\n"
        "values with the curves' rule. Printed, written as CSV (period, then one column per\n"
        "probability) and drawn (SA against period, log-log). docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *poes[8] = {0}, *component = "RotD50", *plot = NULL, *csv = NULL;
    int npoe = 0;
    static const struct option opts[] = {{"poe", required_argument, 0, 'p'},
                                         {"component", required_argument, 0, 'm'},
                                         {"plot", required_argument, 0, 'o'},
                                         {"csv", required_argument, 0, 'c'},
                                         {0}};
    optind = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 'p':
            if (npoe == 8) return cs_cli_usage(argv[0], "at most 8 --poe");
            poes[npoe++] = optarg;
            break;
        case 'm':
            component = optarg;
            break;
        case 'o':
            plot = optarg;
            break;
        case 'c':
            csv = optarg;
            break;
        default:
            return cs_cli_usage(argv[0], "unknown option");
        }
    }
    if (optind != argc - 2) return cs_cli_usage(argv[0], "expects STUDY and RUN_ID|SITE");
    if (!npoe) poes[npoe++] = "2% in 50 yr", poes[npoe++] = "10% in 50 yr";
    cs_error err;
    cs_error_clear(&err);
    double annual[8];
    for (int j = 0; j < npoe; j++)
        if (disagg_parse_poe(poes[j], &annual[j], &err)) return cs_cli_fail(argv[0], &err);
    cs_db *db;
    hazard_run run;
    if (cs_db_open_current(argv[optind], &db, &err) ||
        hazard_run_find(db, argv[optind + 1], &run, &err))
        return cs_cli_fail(argv[0], &err);
    sqlite3_stmt *st;
    if (cs_db_prepare(db,
                      "SELECT DISTINCT t.IM_Type_Value FROM IM_Types t WHERE t.IM_Type_Measure = "
                      "'SA' AND t.IM_Type_Component = ? AND EXISTS (SELECT 1 FROM PeakAmplitudes "
                      "p WHERE p.Run_ID = ? AND p.IM_Type_ID = t.IM_Type_ID) ORDER BY 1",
                      &st, &err))
        return cs_cli_fail(argv[0], &err);
    sqlite3_bind_text(st, 1, component, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, run.run_id);
    double period[MAX_PERIODS], sa[8][MAX_PERIODS];
    int n = 0;
    while (n < MAX_PERIODS && sqlite3_step(st) == SQLITE_ROW)
        period[n++] = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    int rc = 0;
    if (n == 0)
        rc = cs_error_input(&err, argv[optind], "IM_Types", component,
                            "run %lld has no SA of this component", run.run_id);
    printf("uniform hazard spectrum, site %s, run %lld, SA %s (g):\n  %8s", run.site, run.run_id,
           component, "period s");
    for (int j = 0; j < npoe; j++)
        printf(" %14s", poes[j]);
    printf("\n");
    for (int i = 0; i < n && !rc; i++) {
        hazard_im im = {"SA", period[i], ""};
        snprintf(im.component, sizeof im.component, "%s", component);
        long long type;
        char units[32];
        rc = hazard_im_type(db, &run, &im, &type, units, sizeof units, &err);
        printf("  %8.4g", period[i]);
        for (int j = 0; j < npoe && !rc; j++) {
            rc = site_level(db, &run, type, annual[j], &sa[j][i], &err);
            if (!rc) printf(" %14.4g", sa[j][i]);
        }
        printf("\n");
    }
    if (!rc && csv) {
        cs_atomic_file a;
        rc = cs_atomic_open(&a, csv, &err);
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
            rc = cs_atomic_commit(&a, NULL, &err);
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
        rc = ymax > 0 ? plot_loglog(plot, &ps, &err)
                      : cs_error_input(&err, argv[optind], "UHS", NULL, "every value is zero");
    }
    cs_db_close(db);
    if (rc) return cs_cli_fail(argv[0], &err);
    if (csv) printf("  csv: %s\n", csv);
    if (plot) printf("  plot: %s\n", plot);
    return 0;
}
