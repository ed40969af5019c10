/* `cybershake hazard map`'s work (map_report.h). */
#include "map_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basemap.h"
#include "cs_atomic.h"
#include "cs_strutil.h"
#include "disagg.h"
#include "gmpe.h"
#include "gmpe_psha.h"
#include "hazard_map.h"
#include "hazard_plot.h"

static int plot_grid(const char *path, const hazard_basemap *b, const double *grid,
                     const double *site_values, const char *title, const char *sub,
                     const char *unit, int diverging, cs_error *err) {
    /* the colour range: the basemap's and the sites' values (an overshoot of the difference's
     * surface takes the end colour rather than stretching the scale), a factor 2 at least */
    double v0 = INFINITY, v1 = 0;
    for (long q = 0; q < b->nodes; q++)
        if (b->base[q] > 0) v0 = fmin(v0, b->base[q]), v1 = fmax(v1, b->base[q]);
    for (int s = 0; s < b->ns; s++)
        if (site_values[s] > 0) v0 = fmin(v0, site_values[s]), v1 = fmax(v1, site_values[s]);
    if (!(v1 > 0)) v0 = v1 = 1;
    if (v1 < 2 * v0) {
        double mid = sqrt(v0 * v1);
        v0 = mid / sqrt(2), v1 = mid * sqrt(2);
    }
    plot_map_spec ps = {.title = title,
                        .subtitle = sub,
                        .unit = unit,
                        .n = b->ns,
                        .lon = b->slon,
                        .lat = b->slat,
                        .value = site_values,
                        .names = b->names,
                        .gnlon = b->nlon,
                        .gnlat = b->nlat,
                        .glon0 = b->lon0,
                        .glat0 = b->lat0,
                        .gdlon = b->dlon,
                        .gdlat = b->dlat,
                        .gv = grid,
                        .vmin = diverging ? 0 : v0,
                        .vmax = diverging ? 0 : v1,
                        .diverging = diverging};
    return hazard_plot_map(path, &ps, err);
}

/* "BSSA14", "BSSA14 + CY14 (mean)" or "0.3 BSSA14 + 0.7 CY14 (weighted mean)": the models of a
 * --basemap the computation has accepted. */
static void basemap_labels(const char *models, char *labels, size_t size) {
    gmpe_set gs;
    cs_error e;
    labels[0] = 0;
    if (gmpe_set_parse(models, "--basemap", &gs, &e)) return;
    if (gs.weighted) {
        gmpe_set_describe(&gs, labels, size);
        snprintf(labels + strlen(labels), size - strlen(labels), " (weighted mean)");
        return;
    }
    for (int k = 0; k < gs.n; k++)
        snprintf(labels + strlen(labels), size - strlen(labels), "%s%s", k ? " + " : "",
                 gmpe_label(gs.name[k]));
    if (gs.n > 1) snprintf(labels + strlen(labels), size - strlen(labels), " (mean)");
}

/* --basemap: the grid, the sites' differences, the files. */
static int basemap_run(cs_db *db, const hazard_im *im, const char *imname, const char *poetext,
                       double annual, const hazard_map *m, const map_basemap_args *ba,
                       const char *plot, const char *csv, int argc, char *const *argv, FILE *out,
                       cs_error *err) {
    if (strcmp(im->measure, "SA") && strcmp(im->measure, "PGA"))
        return cs_error_set(err, CS_ERR_USAGE, "a GMPE basemap is for SA and PGA, not %s",
                            im->measure);
    if (m->mixed_erfs)
        return cs_error_input(err, "CyberShake_Runs", "ERF_ID", NULL,
                              "the sites' runs use different forecasts: one basemap is over one "
                              "forecast");
    hazard_vs30_grid vg = {0};
    if (ba->vs30_grid) CS_CALL(err, hazard_vs30_grid_read(ba->vs30_grid, &vg, err));
    hazard_basemap_request rq = {.models = ba->models,
                                 .period = strcmp(im->measure, "PGA") ? im->period : 0,
                                 .mode = gmpe_psha_mode(ba->sigma),
                                 .truncation = ba->truncation,
                                 .max_km = ba->max_km,
                                 .vs30 = isnan(ba->vs30) ? 760 : ba->vs30,
                                 .vs30_grid = ba->vs30_grid ? &vg : NULL,
                                 .spacing_km = isnan(ba->spacing) ? 2 : ba->spacing,
                                 .step_deg = isnan(ba->step) ? 0 : ba->step,
                                 .margin_km = ba->margin,
                                 .radius_km = ba->radius,
                                 .annual = annual,
                                 .years = m->time_span};
    hazard_forecast *f = NULL;
    hazard_basemap b;
    int rc;
    CS_CALL_GOTO(rc, err, hazard_forecast_read(db, m->erf_id, &f, err), computed);
    CS_CALL_GOTO(rc, err, hazard_basemap_compute(f, m, &rq, &b, err), computed);
computed:
    hazard_forecast_free(f);
    hazard_vs30_grid_free(&vg);
    if (rc) return rc;
    char labels[256], vs[300], grid[64];
    basemap_labels(ba->models, labels, sizeof labels);
    if (ba->vs30_grid)
        snprintf(vs, sizeof vs, "Vs30 from %s", ba->vs30_grid);
    else
        snprintf(vs, sizeof vs, "Vs30 %g m/s", rq.vs30);
    if (rq.step_deg > 0)
        snprintf(grid, sizeof grid, "%g\xc2\xb0", rq.step_deg);
    else
        snprintf(grid, sizeof grid, "%g km", rq.spacing_km);
    fprintf(out,
            "basemap %s (%s, sigma %s), forecast of the runs within %g km: %d x %d nodes %s apart, "
            "%ld nodes in %.3g s: %.3g ms a node (%d threads; CPU %.3g ms a node)\n",
            labels, vs, ba->sigma, ba->max_km, b.nlon, b.nlat, grid, b.nodes, b.seconds,
            1e3 * b.seconds / (double)b.nodes, b.threads, 1e3 * b.cpu_seconds / (double)b.nodes);
    if (b.nodes_nan)
        fprintf(out,
                "  %ld nodes without a value (no Vs30 there, no rupture within %g km, or a curve "
                "below the probability)\n",
                b.nodes_nan, ba->max_km);
    fprintf(out, "  %-16s %11s %10s %7s %11s %11s %11s\n", "site", "lon", "lat", "vs30",
            "cybershake", "basemap", "difference");
    for (int s = 0; s < b.ns; s++)
        fprintf(out, "  %-16s %11.5f %10.5f %7.0f %11.4g %11.4g %+11.4g\n", b.names[s], b.slon[s],
                b.slat[s], b.svs30[s], b.cs[s], b.sbase[s], b.sdiff[s]);
    fprintf(out,
            "  difference (%s): thin-plate spline through %d sites, tapered to 0 from %g to %g km "
            "from the nearest site\n",
            m->units, b.nused, 0.5 * ba->radius, ba->radius);
    if (b.nodes_nonpositive)
        fprintf(out,
                "  %ld nodes where basemap + difference <= 0 (the spline overshoots there; left "
                "as they are in the files, blank on the plot)\n",
                b.nodes_nonpositive);
    char title[160], hist[1024] = "";
    snprintf(title, sizeof title, "%s at %s", imname, poetext);
    for (int i = 0; i < argc; i++)
        snprintf(hist + strlen(hist), sizeof hist - strlen(hist), "%s%s", i ? " " : "cybershake ",
                 argv[i]);
    hazard_basemap_meta meta = {title, m->units, labels, hist, annual};
    if (ba->netcdf) {
        CS_CALL_GOTO(rc, err, hazard_basemap_write_netcdf(ba->netcdf, &b, &meta, err), done);
        fprintf(out, "  netcdf: %s\n", ba->netcdf);
    }
    if (csv) {
        CS_CALL_GOTO(rc, err, hazard_basemap_write_csv(csv, &b, &meta, err), done);
        fprintf(out, "  csv: %s\n", csv);
    }
    if (ba->sites_csv) {
        CS_CALL_GOTO(rc, err, hazard_basemap_write_sites_csv(ba->sites_csv, &b, &meta, err), done);
        fprintf(out, "  sites csv: %s\n", ba->sites_csv);
    }
    char unit[96], sub[256];
    snprintf(unit, sizeof unit, "%s (%s)", imname, m->units);
    if (plot) {
        snprintf(sub, sizeof sub,
                 "%s basemap + interpolated CyberShake difference at %d sites (%s grid)", labels,
                 b.nused, grid);
        CS_CALL_GOTO(rc, err, plot_grid(plot, &b, b.comb, b.cs, title, sub, unit, 0, err), done);
        fprintf(out, "  plot: %s\n", plot);
    }
    if (ba->plot_basemap) {
        snprintf(sub, sizeof sub, "%s basemap (%s grid); sites: CyberShake", labels, grid);
        CS_CALL_GOTO(rc, err,
                     plot_grid(ba->plot_basemap, &b, b.base, b.cs, title, sub, unit, 0, err), done);
        fprintf(out, "  basemap plot: %s\n", ba->plot_basemap);
    }
    if (ba->plot_difference) {
        snprintf(sub, sizeof sub,
                 "CyberShake minus %s at %d sites, thin-plate spline, 0 beyond %g km (%s grid)",
                 labels, b.nused, ba->radius, grid);
        snprintf(unit, sizeof unit, "difference (%s)", m->units);
        CS_CALL_GOTO(rc, err,
                     plot_grid(ba->plot_difference, &b, b.diff, b.sdiff, title, sub, unit, 1, err),
                     done);
        fprintf(out, "  difference plot: %s\n", ba->plot_difference);
    }
done:
    hazard_basemap_free(&b);
    return rc;
}

/* The sites' map alone: the CSV (a row a site with a run) and the plot. */
static int sites_files(const map_request *rq, const char *imname, double annual,
                       const hazard_map *m, FILE *out, cs_error *err) {
    if (rq->csv) {
        cs_atomic_file a;
        CS_CALL(err, cs_atomic_open(&a, rq->csv, err));
        fprintf(a.f, "# %s at %s (annual probability %.6g), %s\nsite,lon,lat,value,run\n", imname,
                rq->poe, annual, m->units);
        for (int i = 0; i < m->n; i++)
            if (m->run[i])
                fprintf(a.f, "%s,%.6f,%.6f,%.6g,%lld\n", m->names[i], m->lon[i], m->lat[i],
                        m->value[i], m->run[i]);
        CS_CALL(err, cs_atomic_commit(&a, NULL, err));
        fprintf(out, "  csv: %s\n", rq->csv);
    }
    if (rq->plot) {
        char title[160], unit[64], sub[160];
        snprintf(title, sizeof title, "%s at %s", imname, rq->poe);
        snprintf(unit, sizeof unit, "%s (%s)", imname, m->units);
        snprintf(sub, sizeof sub, "%d of %d sites with a finished run (annual probability %.3g)",
                 m->nvalues, m->n, annual);
        plot_map_spec ps = {.title = title,
                            .subtitle = sub,
                            .unit = unit,
                            .n = m->n,
                            .lon = m->lon,
                            .lat = m->lat,
                            .value = m->value,
                            .names = m->names};
        CS_CALL(err, hazard_plot_map(rq->plot, &ps, err));
        fprintf(out, "  plot: %s\n", rq->plot);
    }
    return 0;
}

/* The sites' table (printed whole once every site's value is known: an error names itself
 * alone, not after half a table), then the basemap or the sites' files. */
static int map_in_study(cs_db *db, const map_request *rq, const hazard_im *im, double annual,
                        FILE *out, cs_error *err) {
    char *table = NULL;
    size_t table_len = 0;
    FILE *t = open_memstream(&table, &table_len);
    if (!t) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for the sites' table");
    char imname[64];
    hazard_im_name(im, imname, sizeof imname);
    fprintf(t, "%s at %s (annual %.3g):\n", imname, rq->poe, annual);
    hazard_map m;
    int rc = hazard_map_collect(db, rq->study, im, annual, &m, t, err);
    fclose(t);
    if (!rc) fputs(table, out);
    free(table);
    if (rc) {
        CS_TRACE(err);
        return rc;
    }
    if (rq->basemap.models)
        rc = basemap_run(db, im, imname, rq->poe, annual, &m, &rq->basemap, rq->plot, rq->csv,
                         rq->argc, rq->argv, out, err);
    else
        rc = sites_files(rq, imname, annual, &m, out, err);
    if (rc) CS_TRACE(err);
    hazard_map_free(&m);
    return rc;
}

int hazard_map_report(const map_request *rq, FILE *out, cs_error *err) {
    hazard_im im;
    double annual;
    cs_db *db;
    CS_CALL(err, hazard_im_parse(rq->im, &im, err));
    CS_CALL(err, disagg_parse_poe(rq->poe, &annual, err));
    CS_CALL(err, cs_db_open_current(rq->study, &db, err));
    int rc;
    if (rq->basemap.models && strcmp(im.measure, "SA") && strcmp(im.measure, "PGA"))
        rc =
            cs_error_set(err, CS_ERR_USAGE, "a GMPE basemap is for SA and PGA, not %s", im.measure);
    else
        rc = map_in_study(db, rq, &im, annual, out, err);
    if (rc) CS_TRACE(err);
    cs_db_close(db);
    return rc;
}
