/* `cybershake hazard map`: one IM at one probability over the sites of a study. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "basemap.h"
#include "cs_atomic.h"
#include "cs_cli.h"
#include "cs_opt.h"
#include "cs_strutil.h"
#include "disagg.h"
#include "gmpe.h"
#include "gmpe_psha.h"
#include "hazard_cli.h"
#include "hazard_map.h"
#include "hazard_plot.h"

typedef struct {
    const char *models, *sigma, *vs30_grid, *netcdf, *sites_csv, *plot_basemap, *plot_difference;
    double truncation, max_km, vs30, spacing, step, margin, radius;
} basemap_args;

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
                       double annual, const hazard_map *m, const basemap_args *ba, const char *plot,
                       const char *csv, int argc, char **argv, cs_error *err) {
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
    int rc = hazard_forecast_read(db, m->erf_id, &f, err);
    if (!rc) rc = hazard_basemap_compute(f, m, &rq, &b, err);
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
    printf("basemap %s (%s, sigma %s), forecast of the runs within %g km: %d x %d nodes %s apart, "
           "%ld nodes in %.3g s: %.3g ms a node (%d threads; CPU %.3g ms a node)\n",
           labels, vs, ba->sigma, ba->max_km, b.nlon, b.nlat, grid, b.nodes, b.seconds,
           1e3 * b.seconds / (double)b.nodes, b.threads, 1e3 * b.cpu_seconds / (double)b.nodes);
    if (b.nodes_nan)
        printf("  %ld nodes without a value (no Vs30 there, no rupture within %g km, or a curve "
               "below the probability)\n",
               b.nodes_nan, ba->max_km);
    printf("  %-16s %11s %10s %7s %11s %11s %11s\n", "site", "lon", "lat", "vs30", "cybershake",
           "basemap", "difference");
    for (int s = 0; s < b.ns; s++)
        printf("  %-16s %11.5f %10.5f %7.0f %11.4g %11.4g %+11.4g\n", b.names[s], b.slon[s],
               b.slat[s], b.svs30[s], b.cs[s], b.sbase[s], b.sdiff[s]);
    printf("  difference (%s): thin-plate spline through %d sites, tapered to 0 from %g to %g km "
           "from the nearest site\n",
           m->units, b.nused, 0.5 * ba->radius, ba->radius);
    if (b.nodes_nonpositive)
        printf("  %ld nodes where basemap + difference <= 0 (the spline overshoots there; left "
               "as they are in the files, blank on the plot)\n",
               b.nodes_nonpositive);
    char title[160], hist[1024] = "";
    snprintf(title, sizeof title, "%s at %s", imname, poetext);
    for (int i = 0; i < argc; i++)
        snprintf(hist + strlen(hist), sizeof hist - strlen(hist), "%s%s", i ? " " : "cybershake ",
                 argv[i]);
    hazard_basemap_meta meta = {title, m->units, labels, hist, annual};
    if (!rc && ba->netcdf) {
        rc = hazard_basemap_write_netcdf(ba->netcdf, &b, &meta, err);
        if (!rc) printf("  netcdf: %s\n", ba->netcdf);
    }
    if (!rc && csv) {
        rc = hazard_basemap_write_csv(csv, &b, &meta, err);
        if (!rc) printf("  csv: %s\n", csv);
    }
    if (!rc && ba->sites_csv) {
        rc = hazard_basemap_write_sites_csv(ba->sites_csv, &b, &meta, err);
        if (!rc) printf("  sites csv: %s\n", ba->sites_csv);
    }
    char unit[96], sub[256];
    snprintf(unit, sizeof unit, "%s (%s)", imname, m->units);
    if (!rc && plot) {
        snprintf(sub, sizeof sub,
                 "%s basemap + interpolated CyberShake difference at %d sites (%s grid)", labels,
                 b.nused, grid);
        rc = plot_grid(plot, &b, b.comb, b.cs, title, sub, unit, 0, err);
        if (!rc) printf("  plot: %s\n", plot);
    }
    if (!rc && ba->plot_basemap) {
        snprintf(sub, sizeof sub, "%s basemap (%s grid); sites: CyberShake", labels, grid);
        rc = plot_grid(ba->plot_basemap, &b, b.base, b.cs, title, sub, unit, 0, err);
        if (!rc) printf("  basemap plot: %s\n", ba->plot_basemap);
    }
    if (!rc && ba->plot_difference) {
        snprintf(sub, sizeof sub,
                 "CyberShake minus %s at %d sites, thin-plate spline, 0 beyond %g km (%s grid)",
                 labels, b.nused, ba->radius, grid);
        snprintf(unit, sizeof unit, "difference (%s)", m->units);
        rc = plot_grid(ba->plot_difference, &b, b.diff, b.sdiff, title, sub, unit, 1, err);
        if (!rc) printf("  difference plot: %s\n", ba->plot_difference);
    }
    hazard_basemap_free(&b);
    return rc;
}

int cs_hazard_map_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard map STUDY --im 'RotD50 3.0' --poe '2% in 50 yr'\n"
        "          [--plot FILE.png|svg] [--csv FILE.csv]\n"
        "          [--basemap GMPE[:W][,GMPE[:W]...] [--spacing KM | --grid-step DEG] [--margin "
        "KM]\n"
        "           [--vs30 M/S | --vs30-grid FILE] [--radius KM] [--sigma RULE] [--truncation N]\n"
        "           [--max-distance KM] [--netcdf FILE.nc] [--sites-csv FILE]\n"
        "           [--plot-basemap FILE.png] [--plot-difference FILE.png]]\n\n"
        "The IM at an annual probability of exceedance at every site of the study with a\n"
        "finished run (its newest), from the runs' values with the curves' rule: a table,\n"
        "a CSV (site, lon, lat, value, run) and a map: a graticule in degrees, a scale bar,\n"
        "the sites coloured on a log scale with names and values, a colour bar with the unit\n"
        "(its range the data's, widened to a factor of 2 at least). Sites without a run are\n"
        "listed and drawn as hollow circles, not in the CSV.\n\n"
        "With --basemap GMPE[,GMPE...] (" GMPE_NAMES "; several: the mean of their\n"
        "curves; GMPE:WEIGHT,... as hazard curve --gmpe, weights summing to 1: the weighted\n"
        "mean of their annual probabilities, one basemap) it makes CyberShake's\n"
        "interpolated-difference map instead: a GMPE basemap on a\n"
        "regular grid over the sites' box plus --margin KM (10), nodes --spacing KM apart (2)\n"
        "or on multiples of --grid-step DEG, each the level at the probability from classical\n"
        "PSHA over the study's forecast (as gmpe-curve: --sigma, --truncation, --max-distance;\n"
        "Vs30 --vs30 M/S, 760 by default, or the cell of --vs30-grid FILE, an ESRI ASCII grid in\n"
        "degrees); the CyberShake-minus-basemap differences at the sites (g) interpolated by a\n"
        "thin-plate spline, tapered to 0 at --radius KM (20) from the nearest site; and the\n"
        "combined map basemap + difference. --netcdf FILE.nc (CF-1.8 grid of vs30, basemap,\n"
        "difference, combined), --csv (a row a node), --sites-csv, --plot (the combined map),\n"
        "--plot-basemap, --plot-difference (the interpolated difference, a linear scale about 0).\n"
        "docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *imtext = NULL, *poetext = NULL, *plot = NULL, *csv = NULL;
    basemap_args ba = {.sigma = "untruncated",
                       .truncation = 3,
                       .max_km = 200,
                       .vs30 = NAN,
                       .spacing = NAN,
                       .step = NAN,
                       .margin = 10,
                       .radius = 20};
    const cs_opt opts[] = {
        CS_OPT_STR("im", &imtext),
        CS_OPT_STR("poe", &poetext),
        CS_OPT_STR("plot", &plot),
        CS_OPT_STR("csv", &csv),
        CS_OPT_STR("basemap", &ba.models),
        CS_OPT_NUM("spacing", &ba.spacing, 0.01, 1000, "(km) needs a number in [0.01, 1000]"),
        CS_OPT_NUM("grid-step", &ba.step, 1e-4, 10, "(degrees) needs a number in [0.0001, 10]"),
        CS_OPT_NUM("margin", &ba.margin, 0, 1000, "(km) needs a number in [0, 1000]"),
        CS_OPT_NUM("vs30", &ba.vs30, 100, 3000, "(m/s) needs a number in [100, 3000]"),
        CS_OPT_STR("vs30-grid", &ba.vs30_grid),
        CS_OPT_NUM("radius", &ba.radius, 0.1, 10000, "(km) needs a number in [0.1, 10000]"),
        CS_OPT_STR("sigma", &ba.sigma),
        CS_OPT_NUM("truncation", &ba.truncation, 0.5, 10, "needs a number in [0.5, 10]"),
        CS_OPT_NUM("max-distance", &ba.max_km, 1, 2000, "needs a number in [1, 2000]"),
        CS_OPT_STR("netcdf", &ba.netcdf),
        CS_OPT_STR("sites-csv", &ba.sites_csv),
        CS_OPT_STR("plot-basemap", &ba.plot_basemap),
        CS_OPT_STR("plot-difference", &ba.plot_difference),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 1, 1,
                           "expects one argument: STUDY", &first, &npos);
    if (prc) return prc;
    if (!imtext || !poetext) return cs_cli_usage(argv[0], "needs --im and --poe");
    if (!ba.models && (ba.netcdf || ba.sites_csv || ba.plot_basemap || ba.plot_difference ||
                       ba.vs30_grid || !isnan(ba.vs30) || !isnan(ba.spacing) || !isnan(ba.step)))
        return cs_cli_usage(argv[0], "--netcdf, --sites-csv, --plot-basemap, --vs30, --vs30-grid, "
                                     "--spacing and --grid-step go with --basemap GMPE");
    if (!isnan(ba.spacing) && !isnan(ba.step))
        return cs_cli_usage(argv[0], "give --spacing KM or --grid-step DEG, not both");
    if (ba.vs30_grid && !isnan(ba.vs30))
        return cs_cli_usage(argv[0], "give --vs30 M/S or --vs30-grid FILE, not both");
    if (ba.models && gmpe_psha_mode(ba.sigma) < 0)
        return cs_cli_usage(argv[0], "--sigma is untruncated, upper, two-sided or zero, got '%s'",
                            ba.sigma);
    cs_error err;
    cs_error_clear(&err);
    hazard_im im;
    double annual;
    cs_db *db;
    if (hazard_im_parse(imtext, &im, &err) || disagg_parse_poe(poetext, &annual, &err) ||
        cs_db_open_current(argv[first], &db, &err))
        return cs_cli_fail(argv[0], &err);
    if (ba.models && strcmp(im.measure, "SA") && strcmp(im.measure, "PGA")) {
        cs_db_close(db);
        return cs_cli_usage(argv[0], "a GMPE basemap is for SA and PGA, not %s", im.measure);
    }
    /* the table is printed whole once every site's value is known: an error names itself
     * alone, not after half a table */
    char *table = NULL;
    size_t table_len = 0;
    FILE *t = open_memstream(&table, &table_len);
    if (!t) return 1;
    char imname[64];
    hazard_im_name(&im, imname, sizeof imname);
    fprintf(t, "%s at %s (annual %.3g):\n", imname, poetext, annual);
    hazard_map m;
    int rc = hazard_map_collect(db, argv[first], &im, annual, &m, t, &err);
    fclose(t);
    if (!rc) fputs(table, stdout);
    free(table);
    if (!rc && ba.models) {
        rc = basemap_run(db, &im, imname, poetext, annual, &m, &ba, plot, csv, argc, argv, &err);
        hazard_map_free(&m);
        cs_db_close(db);
        if (rc == CS_ERR_USAGE) return cs_cli_usage(argv[0], "%s", err.message);
        return rc ? cs_cli_fail(argv[0], &err) : 0;
    }
    if (!rc && csv) {
        cs_atomic_file a;
        rc = cs_atomic_open(&a, csv, &err);
        if (!rc) {
            fprintf(a.f, "# %s at %s (annual probability %.6g), %s\nsite,lon,lat,value,run\n",
                    imname, poetext, annual, m.units);
            for (int i = 0; i < m.n; i++)
                if (m.run[i])
                    fprintf(a.f, "%s,%.6f,%.6f,%.6g,%lld\n", m.names[i], m.lon[i], m.lat[i],
                            m.value[i], m.run[i]);
            rc = cs_atomic_commit(&a, NULL, &err);
        }
        if (!rc) printf("  csv: %s\n", csv);
    }
    if (!rc && plot) {
        char title[160], unit[64], sub[160];
        snprintf(title, sizeof title, "%s at %s", imname, poetext);
        snprintf(unit, sizeof unit, "%s (%s)", imname, m.units);
        snprintf(sub, sizeof sub, "%d of %d sites with a finished run (annual probability %.3g)",
                 m.nvalues, m.n, annual);
        plot_map_spec ps = {.title = title,
                            .subtitle = sub,
                            .unit = unit,
                            .n = m.n,
                            .lon = m.lon,
                            .lat = m.lat,
                            .value = m.value,
                            .names = m.names};
        rc = hazard_plot_map(plot, &ps, &err);
        if (!rc) printf("  plot: %s\n", plot);
    }
    hazard_map_free(&m);
    cs_db_close(db);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
