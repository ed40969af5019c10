/* `cybershake hazard curve`'s work (curve_report.h). */
#include "curve_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "cs_version.h"
#include "gmpe.h"
#include "hazard_db.h"
#include "hazard_io.h"
#include "hazard_plot.h"

/* The site's values the models take: Vs30 (m/s), Z1.0 (m), Z2.5 (km); NAN: unknown. */
typedef struct {
    double vs30, z1_m, z2p5_km;
} site_values;

/* Classical PSHA over the run's ruptures with ground-motion models: each rupture one lognormal
 * variation (median and sigma of the model at its distances, magnitude and mechanism, and the
 * site's Vs30, Z1.0 and Z2.5), the curve by the same integrator, stored as a curve of the run
 * under a dataset naming the model; with weights, the weighted mean of the models' curves
 * (gmpe_set_mean) stored beside them as one more (annual[set->n]). */
static int gmpe_curves(cs_db *db, const hazard_run *run, const hazard_set *set, const hazard_im *im,
                       long long type_id, const gmpe_set *gs, const site_values *sv, double trunc,
                       const double *levels, int nlev,
                       double poe[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS],
                       double annual[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS], cs_error *err) {
    if (strcmp(im->measure, "SA") && strcmp(im->measure, "PGA"))
        return cs_error_input(err, "--gmpe", NULL, NULL, "GMPE curves are for SA and PGA");
    const size_t n = (size_t)(set->n ? set->n : 1);
    gmpe_scenario *sc = malloc(sizeof *sc * n);
    double *lnm = malloc(sizeof(double) * n);
    hazard_rupture *rups = malloc(sizeof *rups * n);
    int rc = sc && lnm && rups ? 0 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (long q = 0; q < set->n && !rc; q++) {
        sc[q] = (gmpe_scenario){.mag = set->mag[q],
                                .vs30 = sv->vs30,
                                .z1_m = sv->z1_m,
                                .width = NAN,
                                .zhyp = NAN,
                                .z2p5_km = sv->z2p5_km,
                                .ry0 = NAN};
        rc = hazard_rupture_scenario(db, run, set->source[q], set->rupture[q], &sc[q], err);
    }
    double period = strcmp(im->measure, "PGA") ? im->period : 0;
    char site_text[160];
    gmpe_site_text(sv->vs30, sv->z1_m, sv->z2p5_km, site_text, sizeof site_text);
    for (int g = 0; g < gs->n && !rc; g++) {
        const char *t = gs->name[g], *label = gmpe_label(t);
        for (long q = 0; q < set->n && !rc; q++) {
            gmpe_value v;
            rc = gmpe_eval(t, period, &sc[q], &v, err);
            lnm[q] = v.ln_median;
            rups[q] = (hazard_rupture){.prob = set->rups[q].prob,
                                       .nvalues = 1,
                                       .values = &lnm[q],
                                       .lognormal = 1,
                                       .sigma = v.sigma,
                                       .trunc = trunc,
                                       .upper_only = 1};
        }
        if (!rc) rc = hazard_curve(rups, set->n, levels, nlev, poe[g], err);
        char inputs[320];
        long long id;
        snprintf(inputs, sizeof inputs,
                 "GMPE %s, %s, sigma %s%g, the run's ruptures and probabilities; cybershake %s",
                 label, site_text, trunc > 0 ? "truncated (upper tail) at " : "untruncated", trunc,
                 CS_VERSION);
        if (!rc) rc = hazard_store(db, run, type_id, levels, poe[g], nlev, inputs, &id, err);
    }
    if (!rc && gs->weighted) {
        const double *curves[GMPE_MAX_MODELS];
        for (int g = 0; g < gs->n; g++)
            curves[g] = poe[g];
        gmpe_set_mean(gs, curves, nlev, poe[gs->n]);
        char desc[256], inputs[512];
        long long id;
        gmpe_set_describe(gs, desc, sizeof desc);
        snprintf(inputs, sizeof inputs,
                 "GMPE weighted mean (%s), %s, the mean of the models' probabilities of "
                 "exceedance; cybershake %s",
                 desc, site_text, CS_VERSION);
        rc = hazard_store(db, run, type_id, levels, poe[gs->n], nlev, inputs, &id, err);
    }
    const int ncurves = gs->n + gs->weighted;
    for (int g = 0; g < ncurves && !rc; g++)
        for (int i = 0; i < nlev; i++)
            annual[g][i] = hazard_annual(poe[g][i], run->time_span);
    free(sc);
    free(lnm);
    free(rups);
    return rc;
}

/* FILE.csv -> FILE_gmpe_NAME.csv */
static void csv_beside(const char *csv, const char *name, char *out, size_t size) {
    const size_t n = strlen(csv);
    const int dot = n > 4 && !strcmp(csv + n - 4, ".csv");
    snprintf(out, size, "%.*s_gmpe_%s.csv", (int)(dot ? n - 4 : n), csv, name);
}

int hazard_curve_report(const curve_request *rq, FILE *out, cs_error *err) {
    const char *imtext = rq->im, *levels_text = rq->levels, *csv = rq->csv, *plot = rq->plot;
    const char *compare = rq->gmpe;
    const double trunc = rq->truncation;
    hazard_im im;
    static double levels[HAZARD_MAX_LEVELS], poe[HAZARD_MAX_LEVELS], annual[HAZARD_MAX_LEVELS];
    int nlev;
    if (hazard_im_parse(imtext, &im, err)) return err->status;
    size_t pl = plot ? strlen(plot) : 0;
    if (plot && (pl < 5 || (strcmp(plot + pl - 4, ".png") && strcmp(plot + pl - 4, ".svg")))) {
        return cs_error_input(err, "--plot", NULL, plot, "a plot is written as .png or .svg");
    }
    if (levels_text) {
        if (hazard_parse_levels(levels_text, levels, &nlev, err)) return err->status;
    } else {
        hazard_default_levels(levels, &nlev);
    }
    cs_db *db;
    if (cs_db_open_current(rq->study, &db, err)) return err->status;
    hazard_run run;
    hazard_set set = {0};
    long long type_id = 0, curve_id = 0;
    char units[16] = "", imname[64], inputs[512];
    hazard_im_name(&im, imname, sizeof imname);
    int rc = hazard_run_find(db, rq->run, &run, err);
    if (!rc) rc = hazard_im_type(db, &run, &im, &type_id, units, sizeof units, err);
    if (!rc) rc = hazard_load(db, &run, type_id, &set, err);
    if (!rc) rc = hazard_curve(set.rups, set.n, levels, nlev, poe, err);
    snprintf(inputs, sizeof inputs,
             "PeakAmplitudes of the run; P(IM>x|rupture) = fraction of variations above x "
             "(equal weights); Poisson; cybershake %s",
             CS_VERSION);
    if (!rc) rc = hazard_store(db, &run, type_id, levels, poe, nlev, inputs, &curve_id, err);
    /* GMPE curves over the same ruptures, by the same integrator, stored beside it */
    gmpe_set gs = {0};
    static double gpoe[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS];
    static double gannual[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS];
    site_values sv = {rq->vs30, rq->z1_m, rq->z2p5_km};
    if (!rc && compare) rc = gmpe_set_parse(compare, "--gmpe", &gs, err);
    if (!rc && compare) {
        double vs30 = NAN, z1 = NAN, z25 = NAN;
        hazard_site_values(db, &run, &vs30, &z1, &z25);
        if (isnan(sv.vs30)) sv.vs30 = isnan(vs30) ? 760 : vs30;
        if (isnan(sv.z1_m)) sv.z1_m = z1;
        if (isnan(sv.z2p5_km)) sv.z2p5_km = z25;
        rc = gmpe_curves(db, &run, &set, &im, type_id, &gs, &sv, trunc, levels, nlev, gpoe, gannual,
                         err);
    }
    const int ng = gs.n + gs.weighted;
    char gnames[GMPE_MAX_MODELS + 1][32], gfile[GMPE_MAX_MODELS + 1][32];
    for (int g = 0; g < gs.n; g++) {
        cs_copy(gnames[g], sizeof gnames[g], gmpe_label(gs.name[g]));
        cs_copy(gfile[g], sizeof gfile[g], gs.name[g]);
    }
    if (gs.weighted) {
        cs_copy(gnames[gs.n], sizeof gnames[0], "Weighted mean");
        cs_copy(gfile[gs.n], sizeof gfile[0], "mean");
    }
    char desc[256] = "";
    if (gs.weighted) gmpe_set_describe(&gs, desc, sizeof desc);
    cs_db_close(db);
    if (!rc && csv) rc = hazard_write_csv(csv, &run, imname, units, levels, poe, nlev, err);
    for (int g = 0; g < ng && !rc && csv; g++) {
        char path[4200];
        csv_beside(csv, gfile[g], path, sizeof path);
        rc = hazard_write_csv(path, &run, imname, units, levels, gpoe[g], nlev, err);
    }
    for (int i = 0; i < nlev; i++)
        annual[i] = hazard_annual(poe[i], run.time_span);
    double pa2 = hazard_annual(0.02, 50), pa10 = hazard_annual(0.10, 50);
    if (!rc && plot) {
        char title[256], xlabel[128], label[128];
        snprintf(title, sizeof title, "%s, run %lld: %s", run.site, run.run_id, imname);
        snprintf(xlabel, sizeof xlabel, "%s (%s)", imname, units);
        snprintf(label, sizeof label, "CyberShake (%ld ruptures, %ld variations)", set.n,
                 set.nvalues);
        plot_curve pc[2 + GMPE_MAX_MODELS] = {{label, levels, annual, nlev}};
        char glabels[GMPE_MAX_MODELS + 1][320];
        for (int g = 0; g < ng; g++) {
            if (g == gs.n)
                snprintf(glabels[g], sizeof glabels[g], "Weighted mean: %s", desc);
            else
                snprintf(glabels[g], sizeof glabels[g], "%s (Vs30 %g m/s, same ruptures)",
                         gnames[g], sv.vs30);
            pc[1 + g] = (plot_curve){glabels[g], levels, gannual[g], nlev};
        }
        rc = hazard_plot_curves(plot, title, xlabel, pc, 1 + ng, err);
    }
    if (rc) {
        hazard_set_free(&set);
        return rc;
    }
    fprintf(out,
            "hazard curve %lld: site %s, run %lld, %s: %ld ruptures, %ld variations, %d levels\n",
            curve_id, run.site, run.run_id, imname, set.n, set.nvalues, nlev);
    double x2 = hazard_level_at(levels, annual, nlev, pa2),
           x10 = hazard_level_at(levels, annual, nlev, pa10);
    fprintf(out, "  2%% in 50 years (annual %.3g): %s%.4g %s\n", pa2,
            isnan(x2) ? "below the lowest level, " : "", isnan(x2) ? levels[0] : x2, units);
    fprintf(out, "  10%% in 50 years (annual %.3g): %s%.4g %s\n", pa10,
            isnan(x10) ? "below the lowest level, " : "", isnan(x10) ? levels[0] : x10, units);
    for (int g = 0; g < ng; g++) {
        double y2 = hazard_level_at(levels, gannual[g], nlev, pa2),
               y10 = hazard_level_at(levels, gannual[g], nlev, pa10);
        if (g == gs.n)
            fprintf(out,
                    "  Weighted mean (%s): 2%% in 50 years %.4g %s, 10%% in 50 years %.4g %s\n",
                    desc, y2, units, y10, units);
        else
            fprintf(out, "  %s (Vs30 %g m/s): 2%% in 50 years %.4g %s, 10%% in 50 years %.4g %s\n",
                    gnames[g], sv.vs30, y2, units, y10, units);
    }
    for (int g = 0; g < ng && csv; g++) {
        char path[4200];
        csv_beside(csv, gfile[g], path, sizeof path);
        fprintf(out, "  csv (%s): %s\n", gnames[g], path);
    }
    if (csv) fprintf(out, "  csv: %s\n", csv);
    if (plot) fprintf(out, "  plot: %s\n", plot);
    hazard_set_free(&set);
    return 0;
}
