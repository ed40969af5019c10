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

/* Classical PSHA over the run's ruptures with a ground-motion model: each rupture one lognormal
 * variation (median and sigma of the model at its distances, magnitude and mechanism), the
 * curve by the same integrator, stored as a curve of the run under a dataset naming the model. */
static int gmpe_curves(cs_db *db, const hazard_run *run, const hazard_set *set, const hazard_im *im,
                       long long type_id, const char *list, double vs30, double trunc,
                       const double *levels, int nlev, char names[GMPE_MAX_MODELS][32],
                       double annual[GMPE_MAX_MODELS][HAZARD_MAX_LEVELS], int *ng, cs_error *err) {
    if (strcmp(im->measure, "SA") && strcmp(im->measure, "PGA"))
        return cs_error_input(err, "--gmpe", NULL, list, "GMPE curves are for SA and PGA");
    char buf[128];
    cs_copy(buf, sizeof buf, list);
    const size_t n = (size_t)(set->n ? set->n : 1);
    gmpe_scenario *sc = malloc(sizeof *sc * n);
    double *lnm = malloc(sizeof(double) * n);
    hazard_rupture *rups = malloc(sizeof *rups * n);
    int rc = sc && lnm && rups ? 0 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (long q = 0; q < set->n && !rc; q++) {
        sc[q] = (gmpe_scenario){.mag = set->mag[q],
                                .vs30 = vs30,
                                .z1_m = NAN,
                                .width = NAN,
                                .zhyp = NAN,
                                .z2p5_km = NAN,
                                .ry0 = NAN};
        rc = hazard_rupture_scenario(db, run, set->source[q], set->rupture[q], &sc[q], err);
    }
    double period = strcmp(im->measure, "PGA") ? im->period : 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        if (*ng == GMPE_MAX_MODELS) {
            rc =
                cs_error_input(err, "--gmpe", NULL, list, "at most " GMPE_MAX_MODELS_STR " models");
            break;
        }
        const char *label = gmpe_label(t);
        if (!label) {
            rc = cs_error_input(err, "--gmpe", NULL, t, "models: " GMPE_NAMES);
            break;
        }
        for (long q = 0; q < set->n && !rc; q++) {
            gmpe_value g;
            rc = gmpe_eval(t, period, &sc[q], &g, err);
            lnm[q] = g.ln_median;
            rups[q] = (hazard_rupture){.prob = set->rups[q].prob,
                                       .nvalues = 1,
                                       .values = &lnm[q],
                                       .lognormal = 1,
                                       .sigma = g.sigma,
                                       .trunc = trunc,
                                       .upper_only = 1};
        }
        double poe[HAZARD_MAX_LEVELS];
        if (!rc) rc = hazard_curve(rups, set->n, levels, nlev, poe, err);
        char inputs[256];
        long long id;
        snprintf(inputs, sizeof inputs,
                 "GMPE %s, Vs30 %g m/s, sigma %s%g, the run's ruptures and probabilities; "
                 "cybershake %s",
                 label, vs30, trunc > 0 ? "truncated (upper tail) at " : "untruncated", trunc,
                 CS_VERSION);
        if (!rc) rc = hazard_store(db, run, type_id, levels, poe, nlev, inputs, &id, err);
        for (int i = 0; i < nlev && !rc; i++)
            annual[*ng][i] = hazard_annual(poe[i], run->time_span);
        if (!rc) cs_copy(names[(*ng)++], 32, label);
    }
    free(sc);
    free(lnm);
    free(rups);
    return rc;
}

int hazard_curve_report(const curve_request *rq, FILE *out, cs_error *err) {
    const char *imtext = rq->im, *levels_text = rq->levels, *csv = rq->csv, *plot = rq->plot;
    const char *compare = rq->gmpe;
    const double vs30_opt = rq->vs30, trunc = rq->truncation;
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
    int ng = 0;
    char gnames[GMPE_MAX_MODELS][32];
    static double gannual[GMPE_MAX_MODELS][HAZARD_MAX_LEVELS];
    double vs30 = isnan(vs30_opt) ? hazard_site_vs30(db, &run) : vs30_opt;
    if (isnan(vs30)) vs30 = 760;
    if (!rc && compare)
        rc = gmpe_curves(db, &run, &set, &im, type_id, compare, vs30, trunc, levels, nlev, gnames,
                         gannual, &ng, err);
    cs_db_close(db);
    if (!rc && csv) rc = hazard_write_csv(csv, &run, imname, units, levels, poe, nlev, err);
    for (int i = 0; i < nlev; i++)
        annual[i] = hazard_annual(poe[i], run.time_span);
    double pa2 = hazard_annual(0.02, 50), pa10 = hazard_annual(0.10, 50);
    if (!rc && plot) {
        char title[256], xlabel[128], label[128];
        snprintf(title, sizeof title, "%s, run %lld: %s", run.site, run.run_id, imname);
        snprintf(xlabel, sizeof xlabel, "%s (%s)", imname, units);
        snprintf(label, sizeof label, "CyberShake (%ld ruptures, %ld variations)", set.n,
                 set.nvalues);
        plot_curve pc[1 + GMPE_MAX_MODELS] = {{label, levels, annual, nlev}};
        char glabels[GMPE_MAX_MODELS][96];
        for (int g = 0; g < ng; g++) {
            snprintf(glabels[g], sizeof glabels[g], "%s (Vs30 %g m/s, same ruptures)", gnames[g],
                     vs30);
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
        fprintf(out, "  %s (Vs30 %g m/s): 2%% in 50 years %.4g %s, 10%% in 50 years %.4g %s\n",
                gnames[g], vs30, y2, units, y10, units);
    }
    if (csv) fprintf(out, "  csv: %s\n", csv);
    if (plot) fprintf(out, "  plot: %s\n", plot);
    hazard_set_free(&set);
    return 0;
}
