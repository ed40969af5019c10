/* `cybershake hazard map`: one IM at one probability over the sites of a study. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_cli.h"
#include "cs_opt.h"
#include "disagg.h"
#include "hazard_cli.h"
#include "hazard_map.h"
#include "hazard_plot.h"

int cs_hazard_map_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard map STUDY --im 'RotD50 3.0' --poe '2% in 50 yr'\n"
        "          [--plot FILE.png|svg] [--csv FILE.csv]\n\n"
        "The IM at an annual probability of exceedance at every site of the study with a\n"
        "finished run (its newest), from the runs' values with the curves' rule: a table,\n"
        "a CSV (site, lon, lat, value, run) and a map: a graticule in degrees, a scale bar,\n"
        "the sites coloured on a log scale with names and values, a colour bar with the unit\n"
        "(its range the data's, widened to a factor of 2 at least). Sites without a run are\n"
        "listed and drawn as hollow circles, not in the CSV. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *imtext = NULL, *poetext = NULL, *plot = NULL, *csv = NULL;
    const cs_opt opts[] = {CS_OPT_STR("im", &imtext), CS_OPT_STR("poe", &poetext),
                           CS_OPT_STR("plot", &plot), CS_OPT_STR("csv", &csv)};
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, 4, 1, 1, "expects one argument: STUDY",
                           &first, &npos);
    if (prc) return prc;
    if (!imtext || !poetext) return cs_cli_usage(argv[0], "needs --im and --poe");
    cs_error err;
    cs_error_clear(&err);
    hazard_im im;
    double annual;
    cs_db *db;
    if (hazard_im_parse(imtext, &im, &err) || disagg_parse_poe(poetext, &annual, &err) ||
        cs_db_open_current(argv[first], &db, &err))
        return cs_cli_fail(argv[0], &err);
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
        plot_map_spec ps = {title, sub, unit, m.n, m.lon, m.lat, m.value, m.names};
        rc = hazard_plot_map(plot, &ps, &err);
        if (!rc) printf("  plot: %s\n", plot);
    }
    hazard_map_free(&m);
    cs_db_close(db);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
