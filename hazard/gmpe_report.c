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
    CS_CALL(err, cs_db_prepare(db,
                               "INSERT OR IGNORE INTO IM_Types (IM_Type_Measure, IM_Type_Value, "
                               "IM_Type_Units, IM_Type_Component) VALUES (?, ?, 'g', ?)",
                               &st, err));
    bind_im(st, im);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(db, "adding the IM type", err);
    CS_CALL(err, cs_db_prepare(db,
                               "SELECT IM_Type_ID FROM IM_Types WHERE IM_Type_Measure = ? AND "
                               "IM_Type_Value IS ? AND IM_Type_Component = ?",
                               &st, err));
    bind_im(st, im);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : cs_db_fail(db, "reading the IM type", err);
}

/* One curve of the report: stored under its dataset, written as PREFIX_FILE.csv, printed at 2% and
 * 10% in 50 years; its annual probabilities and name come back. */
static int report_curve(cs_db *db, const hazard_run *run, long long type_id, const double *levels,
                        const double *poe, int nlev, const char *inputs, const char *csv,
                        const char *file, const char *imname, const char *label, char name[32],
                        double *annual, FILE *out, cs_error *err) {
    long long id;
    CS_CALL(err, hazard_store(db, run, type_id, levels, poe, nlev, inputs, &id, err));
    cs_copy(name, 32, label);
    for (int i = 0; i < nlev; i++)
        annual[i] = hazard_annual(poe[i], run->time_span);
    if (csv) {
        char path[4200];
        snprintf(path, sizeof path, "%s_%s.csv", csv, file);
        CS_CALL(err, hazard_write_csv(path, run, imname, "g", levels, poe, nlev, err));
        fprintf(out, "  csv: %s\n", path);
    }
    const double pa2 = hazard_annual(0.02, 50), pa10 = hazard_annual(0.10, 50);
    fprintf(out, "  %s (curve %lld): 2%% in 50 years %.4g g, 10%% in 50 years %.4g g\n", label, id,
            hazard_level_at(levels, annual, nlev, pa2),
            hazard_level_at(levels, annual, nlev, pa10));
    return 0;
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
    const double z1 = isnan(rq->z1_m) ? site.z1p0_m : rq->z1_m;
    const double z25 = isnan(rq->z2p5_km) ? site.z2p5_km : rq->z2p5_km;
    gmpe_set gs;
    if (gmpe_set_parse(models, "--gmpe", &gs, err)) {
        cs_db_close(db);
        return err->status;
    }
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
    char imname[64], site_text[160];
    hazard_im_name(&im, imname, sizeof imname);
    gmpe_site_text(vs30, z1, z25, site_text, sizeof site_text);
    double period = strcmp(im.measure, "PGA") ? im.period : 0;
    double *lnm = malloc(sizeof(double) * (size_t)(n + 1));
    hazard_rupture *rups = malloc(sizeof *rups * (size_t)(n + 1));
    static double annual[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS];
    static double poes[GMPE_MAX_MODELS + 1][HAZARD_MAX_LEVELS];
    char names[GMPE_MAX_MODELS + 1][32], desc[256] = "", mean_label[320];
    plot_curve pc[GMPE_MAX_MODELS + 1];
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
            "%s at %s (%.5f, %.5f), forecast %s: %ld of its %ld ruptures within %g km%s; %s, "
            "sigma %s\n",
            imname, site.short_name, site.lon, site.lat, erf, nrup, nall, max_km, area_note,
            site_text, sigma);
    if (!rc && rupcsv) {
        rc = hazard_forecast_write_csv(rupcsv, fr, n, err);
        if (!rc) fprintf(out, "  ruptures and distances: %s\n", rupcsv);
    }
    for (int k = 0; k < gs.n && !rc; k++) {
        const char *t = gs.name[k], *label = gmpe_label(t);
        const gmpe_psha gp = {.period = period,
                              .mode = mode,
                              .truncation = trunc,
                              .vs30 = vs30,
                              .z1_m = z1,
                              .z2p5_km = z25};
        CS_CALL_GOTO(rc, err, gmpe_psha_ruptures(t, &gp, fr, n, lnm, rups, err), done);
        double *poe = poes[ng];
        CS_CALL_GOTO(rc, err, hazard_curve(rups, n, levels, nlev, poe, err), done);
        char inputs[400], tr[32] = "";
        if (mode == 1 || mode == 2) snprintf(tr, sizeof tr, " at %g sigma", trunc);
        snprintf(inputs, sizeof inputs,
                 "GMPE %s over forecast %s within %g km, %s, sigma %s%s; cybershake %s", label, erf,
                 max_km, site_text, sigma, tr, CS_VERSION);
        CS_CALL_GOTO(rc, err,
                     report_curve(db, &run, type_id, levels, poe, nlev, inputs, csv, t, imname,
                                  label, names[ng], annual[ng], out, err),
                     done);
        pc[ng] = (plot_curve){names[ng], levels, annual[ng], nlev}, ng++;
    }
    if (!rc && gs.weighted) {
        const double *curves[GMPE_MAX_MODELS];
        for (int k = 0; k < gs.n; k++)
            curves[k] = poes[k];
        gmpe_set_mean(&gs, curves, nlev, poes[ng]);
        gmpe_set_describe(&gs, desc, sizeof desc);
        char inputs[600], tr[32] = "";
        if (mode == 1 || mode == 2) snprintf(tr, sizeof tr, " at %g sigma", trunc);
        snprintf(inputs, sizeof inputs,
                 "GMPE weighted mean (%s) over forecast %s within %g km, %s, sigma %s%s, the mean "
                 "of the models' probabilities of exceedance; cybershake %s",
                 desc, erf, max_km, site_text, sigma, tr, CS_VERSION);
        snprintf(mean_label, sizeof mean_label, "Weighted mean (%s)", desc);
        rc = report_curve(db, &run, type_id, levels, poes[ng], nlev, inputs, csv, "mean", imname,
                          mean_label, names[ng], annual[ng], out, err);
        if (!rc) pc[ng] = (plot_curve){mean_label, levels, annual[ng], nlev}, ng++;
    }
    if (!rc && plot) {
        char title[160], xlabel[96];
        snprintf(title, sizeof title, "%s, forecast %s: %s (GMPE)", site.short_name, erf, imname);
        snprintf(xlabel, sizeof xlabel, "%s (g)", imname);
        rc = hazard_plot_curves(plot, title, xlabel, pc, ng, err);
        if (!rc) fprintf(out, "  plot: %s\n", plot);
    }
done:
    free(fr);
    free(lnm);
    free(rups);
    cs_db_close(db);
    return rc ? err->status : 0;
}
