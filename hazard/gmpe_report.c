/* `cybershake hazard gmpe-curve`'s work: classical PSHA at a site over a whole forecast with
 * ground-motion models, no simulation (see gmpe_report.h). */
#include "gmpe_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_sites.h"
#include "cs_strutil.h"
#include "cs_version.h"
#include "erf_db.h"
#include "forecast.h"
#include "gmpe.h"
#include "gmpe_psha.h"
#include "hazard_io.h"
#include "hazard_plot.h"

static void bind_im(sqlite3_stmt *st, const hazard_im *im) {
    sqlite3_bind_text(st, 1, im->measure, -1, SQLITE_STATIC);
    if (im->period > 0)
        sqlite3_bind_double(st, 2, im->period);
    else
        sqlite3_bind_null(st, 2);
    sqlite3_bind_text(st, 3, im->component, -1, SQLITE_STATIC);
}

/* The IM type of a curve without a run: found, or added with the units in g. */
static int im_type_for(cs_db *db, const hazard_im *im, long long *id, cs_error *err) {
    sqlite3_stmt *st;
    if (cs_db_prepare(db,
                      "INSERT OR IGNORE INTO IM_Types (IM_Type_Measure, IM_Type_Value, "
                      "IM_Type_Units, IM_Type_Component) VALUES (?, ?, 'g', ?)",
                      &st, err))
        return -1;
    bind_im(st, im);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "adding the IM type", err);
    if (cs_db_prepare(db,
                      "SELECT IM_Type_ID FROM IM_Types WHERE IM_Type_Measure = ? AND IM_Type_Value "
                      "IS ? AND IM_Type_Component = ?",
                      &st, err))
        return -1;
    bind_im(st, im);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : cs_db_fail(db, "reading the IM type", err);
}

int gmpe_report(const gmpe_request *rq, FILE *out, cs_error *err) {
    const char *erf = rq->erf, *imtext = rq->im, *models = rq->models, *sigma = rq->sigma;
    const char *levels_text = rq->levels, *csv = rq->csv, *plot = rq->plot, *rupcsv = rq->ruptures;
    const double trunc = rq->truncation, max_km = rq->max_km;
    double vs30 = rq->vs30;
    const int mode = rq->mode;
    hazard_im im;
    double levels[HAZARD_MAX_LEVELS];
    int nlev = 0;
    if (hazard_im_parse(imtext, &im, err)) return err->status;
    if (strcmp(im.measure, "SA") && strcmp(im.measure, "PGA"))
        return cs_error_set(err, CS_ERR_USAGE, "GMPE curves are for SA and PGA, not %s",
                            im.measure);
    if (levels_text ? hazard_parse_levels(levels_text, levels, &nlev, err) : 0) return err->status;
    if (!levels_text) hazard_default_levels(levels, &nlev);
    cs_db *db;
    cs_site site;
    hazard_run run = {0};
    if (cs_db_open_current(rq->study, &db, err) || cs_sites_find(db, rq->site, &site, err) ||
        erf_db_find(db, erf, &run.erf_id, &run.time_span, err))
        return err->status;
    run.site_id = site.id;
    cs_copy(run.site, sizeof run.site, site.short_name);
    run.lon = site.lon, run.lat = site.lat;
    if (isnan(vs30)) vs30 = isnan(site.vs30) ? 760 : site.vs30;
    hazard_forecast_rupture *fr = NULL;
    long n = 0, nall = 0;
    long long type_id = 0;
    int rc =
        hazard_forecast_load(db, run.erf_id, site.lon, site.lat, max_km, &fr, &n, &nall, err) ||
        im_type_for(db, &im, &type_id, err);
    if (!rc && n == 0)
        rc = cs_error_input(err, rq->study, "Ruptures", erf,
                            "no rupture of the forecast lies within %g km of %s", max_km,
                            site.short_name);
    char imname[64], buf[128];
    hazard_im_name(&im, imname, sizeof imname);
    cs_copy(buf, sizeof buf, models);
    double period = strcmp(im.measure, "PGA") ? im.period : 0;
    double *lnm = malloc(sizeof(double) * (size_t)(n + 1));
    hazard_rupture *rups = malloc(sizeof *rups * (size_t)(n + 1));
    static double annual[GMPE_MAX_MODELS][HAZARD_MAX_LEVELS];
    char names[GMPE_MAX_MODELS][32];
    plot_curve pc[GMPE_MAX_MODELS];
    int ng = 0;
    if (!lnm || !rups) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    /* entries come rupture by rupture; an area rupture's points are several entries */
    long nrup = 0, narea = 0, npts = 0;
    for (long q = 0; q < n; q++) {
        const int first = q == 0 || fr[q].source_id != fr[q - 1].source_id ||
                          fr[q].rupture_id != fr[q - 1].rupture_id;
        nrup += first;
        narea += first && fr[q].point >= 0;
        npts += fr[q].point >= 0;
    }
    char area_note[128] = "";
    if (narea)
        snprintf(area_note, sizeof area_note, " (%ld of them area ruptures: %ld point sources)",
                 narea, npts);
    fprintf(out,
            "%s at %s (%.5f, %.5f), forecast %s: %ld of its %ld ruptures within %g km%s; Vs30 %g "
            "m/s, sigma %s\n",
            imname, site.short_name, site.lon, site.lat, erf, nrup, nall, max_km, area_note, vs30,
            sigma);
    if (!rc && rupcsv) {
        rc = hazard_forecast_write_csv(rupcsv, fr, n, err);
        if (!rc) fprintf(out, "  ruptures and distances: %s\n", rupcsv);
    }
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        const char *label = gmpe_label(t);
        if (!label || ng == GMPE_MAX_MODELS) {
            rc = cs_error_input(err, "--gmpe", NULL, t,
                                "models: " GMPE_NAMES " (at most " GMPE_MAX_MODELS_STR ")");
            break;
        }
        const gmpe_psha gp = {.period = period, .mode = mode, .truncation = trunc, .vs30 = vs30};
        if (!rc) rc = gmpe_psha_ruptures(t, &gp, fr, n, lnm, rups, err);
        double poe[HAZARD_MAX_LEVELS];
        if (!rc) rc = hazard_curve(rups, n, levels, nlev, poe, err);
        char inputs[320], tr[32] = "";
        if (mode == 1 || mode == 2) snprintf(tr, sizeof tr, " at %g sigma", trunc);
        snprintf(inputs, sizeof inputs,
                 "GMPE %s over forecast %s within %g km, Vs30 %g m/s, sigma %s%s; cybershake %s",
                 label, erf, max_km, vs30, sigma, tr, CS_VERSION);
        long long id;
        if (!rc) rc = hazard_store(db, &run, type_id, levels, poe, nlev, inputs, &id, err);
        cs_copy(names[ng], sizeof names[ng], label);
        for (int i = 0; i < nlev && !rc; i++)
            annual[ng][i] = hazard_annual(poe[i], run.time_span);
        if (!rc && csv) {
            char path[4200];
            snprintf(path, sizeof path, "%s_%s.csv", csv, t);
            rc = hazard_write_csv(path, &run, imname, "g", levels, poe, nlev, err);
            if (!rc) fprintf(out, "  csv: %s\n", path);
        }
        if (!rc) {
            double pa2 = hazard_annual(0.02, 50), pa10 = hazard_annual(0.10, 50);
            double x2 = hazard_level_at(levels, annual[ng], nlev, pa2),
                   x10 = hazard_level_at(levels, annual[ng], nlev, pa10);
            fprintf(out, "  %s (curve %lld): 2%% in 50 years %.4g g, 10%% in 50 years %.4g g\n",
                    names[ng], id, x2, x10);
            pc[ng] = (plot_curve){names[ng], levels, annual[ng], nlev};
            ng++;
        }
    }
    if (!rc && plot) {
        char title[160], xlabel[96];
        snprintf(title, sizeof title, "%s, forecast %s: %s (GMPE)", site.short_name, erf, imname);
        snprintf(xlabel, sizeof xlabel, "%s (g)", imname);
        rc = hazard_plot_curves(plot, title, xlabel, pc, ng, err);
        if (!rc) fprintf(out, "  plot: %s\n", plot);
    }
    free(fr);
    free(lnm);
    free(rups);
    cs_db_close(db);
    return rc ? err->status : 0;
}
