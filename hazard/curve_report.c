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
    int rc = 0;
    if (!sc || !lnm || !rups) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    for (long q = 0; q < set->n; q++) {
        sc[q] = (gmpe_scenario){.mag = set->mag[q],
                                .vs30 = sv->vs30,
                                .z1_m = sv->z1_m,
                                .width = NAN,
                                .zhyp = NAN,
                                .z2p5_km = sv->z2p5_km,
                                .ry0 = NAN};
        CS_CALL_GOTO(rc, err,
                     hazard_rupture_scenario(db, run, set->source[q], set->rupture[q], &sc[q], err),
                     done);
    }
    double period = strcmp(im->measure, "PGA") ? im->period : 0;
    char site_text[160];
    gmpe_site_text(sv->vs30, sv->z1_m, sv->z2p5_km, site_text, sizeof site_text);
    for (int g = 0; g < gs->n; g++) {
        const char *t = gs->name[g], *label = gmpe_label(t);
        for (long q = 0; q < set->n; q++) {
            gmpe_value v;
            CS_CALL_GOTO(rc, err, gmpe_eval(t, period, &sc[q], &v, err), done);
            lnm[q] = v.ln_median;
            rups[q] = (hazard_rupture){.prob = set->rups[q].prob,
                                       .nvalues = 1,
                                       .values = &lnm[q],
                                       .lognormal = 1,
                                       .sigma = v.sigma,
                                       .trunc = trunc,
                                       .upper_only = 1};
        }
        CS_CALL_GOTO(rc, err, hazard_curve(rups, set->n, levels, nlev, poe[g], err), done);
        char inputs[320];
        long long id;
        snprintf(inputs, sizeof inputs,
                 "GMPE %s, %s, sigma %s%g, the run's ruptures and probabilities; cybershake %s",
                 label, site_text, trunc > 0 ? "truncated (upper tail) at " : "untruncated", trunc,
                 CS_VERSION);
        CS_CALL_GOTO(rc, err,
                     hazard_store(db, run, type_id, levels, poe[g], nlev, inputs, &id, err), done);
    }
    if (gs->weighted) {
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
        CS_CALL_GOTO(rc, err,
                     hazard_store(db, run, type_id, levels, poe[gs->n], nlev, inputs, &id, err),
                     done);
    }
    const int ncurves = gs->n + gs->weighted;
    for (int g = 0; g < ncurves; g++)
        for (int i = 0; i < nlev; i++)
            annual[g][i] = hazard_annual(poe[g][i], run->time_span);
done:
    free(sc);
    free(lnm);
    free(rups);
    return rc;
}

/* What hazard_curve_report reads and stores in the study, for its files and report. */
typedef struct {
    hazard_run run;
    hazard_set set;
    long long type_id, curve_id;
    char units[16];
    gmpe_set gs;
    site_values sv; /* the request's, the unknown ones from the study */
} curve_work;

/* The run's curve from its amplitudes and, with --gmpe, the models' curves over the same
 * ruptures, stored in the study. */
static int store_curves(cs_db *db, const curve_request *rq, const hazard_im *im,
                        const double *levels, int nlev, double *poe,
                        double gpoe[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS],
                        double gannual[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS], curve_work *w,
                        cs_error *err) {
    CS_CALL(err, hazard_run_find(db, rq->run, &w->run, err));
    CS_CALL(err, hazard_im_type(db, &w->run, im, &w->type_id, w->units, sizeof w->units, err));
    CS_CALL(err, hazard_load(db, &w->run, w->type_id, &w->set, err));
    CS_CALL(err, hazard_curve(w->set.rups, w->set.n, levels, nlev, poe, err));
    char inputs[512];
    snprintf(inputs, sizeof inputs,
             "PeakAmplitudes of the run; P(IM>x|rupture) = fraction of variations above x "
             "(equal weights); Poisson; cybershake %s",
             CS_VERSION);
    CS_CALL(err,
            hazard_store(db, &w->run, w->type_id, levels, poe, nlev, inputs, &w->curve_id, err));
    if (!rq->gmpe) return 0;
    /* GMPE curves over the same ruptures, by the same integrator, stored beside it */
    CS_CALL(err, gmpe_set_parse(rq->gmpe, "--gmpe", &w->gs, err));
    double vs30 = NAN, z1 = NAN, z25 = NAN;
    hazard_site_values(db, &w->run, &vs30, &z1, &z25);
    site_values *sv = &w->sv;
    if (isnan(sv->vs30)) sv->vs30 = isnan(vs30) ? 760 : vs30;
    if (isnan(sv->z1_m)) sv->z1_m = z1;
    if (isnan(sv->z2p5_km)) sv->z2p5_km = z25;
    CS_CALL(err, gmpe_curves(db, &w->run, &w->set, im, w->type_id, &w->gs, sv, rq->truncation,
                             levels, nlev, gpoe, gannual, err));
    return 0;
}

/* FILE.csv -> FILE_gmpe_NAME.csv */
static void csv_beside(const char *csv, const char *name, char *out, size_t size) {
    const size_t n = strlen(csv);
    const int dot = n > 4 && !strcmp(csv + n - 4, ".csv");
    snprintf(out, size, "%.*s_gmpe_%s.csv", (int)(dot ? n - 4 : n), csv, name);
}

int hazard_curve_report(const curve_request *rq, FILE *out, cs_error *err) {
    const char *imtext = rq->im, *levels_text = rq->levels, *csv = rq->csv, *plot = rq->plot;
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
    char imname[64];
    hazard_im_name(&im, imname, sizeof imname);
    static double gpoe[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS];
    static double gannual[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS];
    curve_work w = {.set = {0}, .sv = {rq->vs30, rq->z1_m, rq->z2p5_km}};
    int rc = store_curves(db, rq, &im, levels, nlev, poe, gpoe, gannual, &w, err);
    if (rc) CS_TRACE(err);
    const int ng = w.gs.n + w.gs.weighted;
    char gnames[GMPE_MAX_MODELS + 1][32], gfile[GMPE_MAX_MODELS + 1][32];
    for (int g = 0; g < w.gs.n; g++) {
        cs_copy(gnames[g], sizeof gnames[g], gmpe_label(w.gs.name[g]));
        cs_copy(gfile[g], sizeof gfile[g], w.gs.name[g]);
    }
    if (w.gs.weighted) {
        cs_copy(gnames[w.gs.n], sizeof gnames[0], "Weighted mean");
        cs_copy(gfile[w.gs.n], sizeof gfile[0], "mean");
    }
    char desc[256] = "";
    if (w.gs.weighted) gmpe_set_describe(&w.gs, desc, sizeof desc);
    cs_db_close(db);
    if (rc) goto done;
    if (csv) {
        CS_CALL_GOTO(rc, err,
                     hazard_write_csv(csv, &w.run, imname, w.units, levels, poe, nlev, err), done);
        for (int g = 0; g < ng; g++) {
            char path[4200];
            csv_beside(csv, gfile[g], path, sizeof path);
            CS_CALL_GOTO(
                rc, err,
                hazard_write_csv(path, &w.run, imname, w.units, levels, gpoe[g], nlev, err), done);
        }
    }
    for (int i = 0; i < nlev; i++)
        annual[i] = hazard_annual(poe[i], w.run.time_span);
    double pa2 = hazard_annual(0.02, 50), pa10 = hazard_annual(0.10, 50);
    if (plot) {
        char title[256], xlabel[128], label[128];
        snprintf(title, sizeof title, "%s, run %lld: %s", w.run.site, w.run.run_id, imname);
        snprintf(xlabel, sizeof xlabel, "%s (%s)", imname, w.units);
        snprintf(label, sizeof label, "CyberShake (%ld ruptures, %ld variations)", w.set.n,
                 w.set.nvalues);
        plot_curve pc[2 + GMPE_MAX_MODELS] = {{label, levels, annual, nlev}};
        char glabels[GMPE_MAX_MODELS + 1][320];
        for (int g = 0; g < ng; g++) {
            if (g == w.gs.n)
                snprintf(glabels[g], sizeof glabels[g], "Weighted mean: %s", desc);
            else
                snprintf(glabels[g], sizeof glabels[g], "%s (Vs30 %g m/s, same ruptures)",
                         gnames[g], w.sv.vs30);
            pc[1 + g] = (plot_curve){glabels[g], levels, gannual[g], nlev};
        }
        CS_CALL_GOTO(rc, err, hazard_plot_curves(plot, title, xlabel, pc, 1 + ng, err), done);
    }
    fprintf(out,
            "hazard curve %lld: site %s, run %lld, %s: %ld ruptures, %ld variations, %d levels\n",
            w.curve_id, w.run.site, w.run.run_id, imname, w.set.n, w.set.nvalues, nlev);
    double x2 = hazard_level_at(levels, annual, nlev, pa2),
           x10 = hazard_level_at(levels, annual, nlev, pa10);
    fprintf(out, "  2%% in 50 years (annual %.3g): %s%.4g %s\n", pa2,
            isnan(x2) ? "below the lowest level, " : "", isnan(x2) ? levels[0] : x2, w.units);
    fprintf(out, "  10%% in 50 years (annual %.3g): %s%.4g %s\n", pa10,
            isnan(x10) ? "below the lowest level, " : "", isnan(x10) ? levels[0] : x10, w.units);
    for (int g = 0; g < ng; g++) {
        double y2 = hazard_level_at(levels, gannual[g], nlev, pa2),
               y10 = hazard_level_at(levels, gannual[g], nlev, pa10);
        if (g == w.gs.n)
            fprintf(out,
                    "  Weighted mean (%s): 2%% in 50 years %.4g %s, 10%% in 50 years %.4g %s\n",
                    desc, y2, w.units, y10, w.units);
        else
            fprintf(out, "  %s (Vs30 %g m/s): 2%% in 50 years %.4g %s, 10%% in 50 years %.4g %s\n",
                    gnames[g], w.sv.vs30, y2, w.units, y10, w.units);
    }
    for (int g = 0; g < ng && csv; g++) {
        char path[4200];
        csv_beside(csv, gfile[g], path, sizeof path);
        fprintf(out, "  csv (%s): %s\n", gnames[g], path);
    }
    if (csv) fprintf(out, "  csv: %s\n", csv);
    if (plot) fprintf(out, "  plot: %s\n", plot);
done:
    hazard_set_free(&w.set);
    return rc;
}
