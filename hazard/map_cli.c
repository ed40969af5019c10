/* `cybershake hazard map`: one IM at one probability over the sites of a study. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "gmpe.h"
#include "gmpe_psha.h"
#include "hazard_cli.h"
#include "map_report.h"

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
    map_basemap_args ba = {.sigma = "untruncated",
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
    map_request rq = {.study = argv[first],
                      .im = imtext,
                      .poe = poetext,
                      .plot = plot,
                      .csv = csv,
                      .basemap = ba,
                      .argc = argc,
                      .argv = argv};
    int rc = hazard_map_report(&rq, stdout, &err);
    if (rc == CS_ERR_USAGE) return cs_cli_usage(argv[0], "%s", err.message);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
