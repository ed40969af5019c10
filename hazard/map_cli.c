/* `cybershake hazard map`: one IM at one probability over the sites of a study. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_cli.h"
#include "cs_opt.h"
#include "cs_sites.h"
#include "disagg.h"
#include "hazard_cli.h"
#include "hazard_plot.h"
#include "site_level.h"

int cs_hazard_map_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard map STUDY --im 'RotD50 3.0' --poe '2% in 50 yr'\n"
        "          [--plot FILE.png|svg] [--csv FILE.csv]\n\n"
        "The IM at an annual probability of exceedance at every site of the study with a\n"
        "finished run (its newest), from the runs' values with the curves' rule: a table,\n"
        "a CSV (site, lon, lat, value, run) and a map (sites coloured on a log scale, names and\n"
        "values beside them). Sites without a run are listed and left out. docs/hazard.md.\n";
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
    cs_site *sites;
    int nsites;
    if (cs_sites_list(db, &sites, &nsites, &err)) return cs_cli_fail(argv[0], &err);
    double *lon = malloc(sizeof(double) * (size_t)(3 * nsites + 1));
    const char **names = malloc(sizeof(char *) * (size_t)(nsites + 1));
    long long *runs = malloc(sizeof(long long) * (size_t)(nsites + 1));
    if (!lon || !names || !runs) return 1;
    double *lat = lon + nsites, *val = lon + 2 * nsites;
    int n = 0, rc = 0;
    char units[32] = "", imname[64];
    cs_error band; /* why a site was left out for its band (the last) */
    cs_error_clear(&band);
    hazard_im_name(&im, imname, sizeof imname);
    /* the table is printed whole once every site's value is known: an error names itself
     * alone, not after half a table */
    char *table = NULL;
    size_t table_len = 0;
    FILE *t = open_memstream(&table, &table_len);
    if (!t) return 1;
    fprintf(t, "%s at %s (annual %.3g):\n  %-16s %11s %10s  %-8s %s\n", imname, poetext, annual,
            "site", "lon", "lat", "run", "value");
    for (int i = 0; i < nsites && !rc; i++) {
        hazard_run run;
        long long type;
        cs_error e;
        cs_error_clear(&e);
        if (hazard_run_find(db, sites[i].short_name, &run, &e)) {
            fprintf(t, "  %-16s %11.5f %10.5f  %-8s (no finished run)\n", sites[i].short_name,
                    sites[i].lon, sites[i].lat, "-");
            continue;
        }
        /* a site whose run does not resolve the IM is left out, saying why */
        if (hazard_im_band(&run, &im, &e)) {
            fprintf(t, "  %-16s %11.5f %10.5f  %-8lld (outside the run's band, fmax %g Hz)\n",
                    sites[i].short_name, sites[i].lon, sites[i].lat, run.run_id, run.max_frequency);
            band = e;
            continue;
        }
        double level;
        rc = hazard_im_type(db, &run, &im, &type, units, sizeof units, &err) ||
             site_level(db, &run, type, annual, &level, &err);
        if (rc) break;
        lon[n] = sites[i].lon, lat[n] = sites[i].lat, val[n] = level;
        names[n] = sites[i].short_name, runs[n] = run.run_id;
        fprintf(t, "  %-16s %11.5f %10.5f  %-8lld %.4g %s\n", names[n], lon[n], lat[n], runs[n],
                level, units);
        n++;
    }
    fclose(t);
    if (!rc) fputs(table, stdout);
    free(table);
    if (!rc && n == 0 && band.status != CS_OK) { /* every run there is outside the band */
        err = band;
        rc = 1;
    } else if (!rc && n == 0) {
        rc = cs_error_input(&err, argv[first], "sites", NULL,
                            "no site of the study has a finished run ('cybershake run')");
    }
    if (!rc && csv) {
        cs_atomic_file a;
        rc = cs_atomic_open(&a, csv, &err);
        if (!rc) {
            fprintf(a.f, "# %s at %s (annual probability %.6g), %s\nsite,lon,lat,value,run\n",
                    imname, poetext, annual, units);
            for (int i = 0; i < n; i++)
                fprintf(a.f, "%s,%.6f,%.6f,%.6g,%lld\n", names[i], lon[i], lat[i], val[i], runs[i]);
            rc = cs_atomic_commit(&a, NULL, &err);
        }
        if (!rc) printf("  csv: %s\n", csv);
    }
    if (!rc && plot) {
        char title[160], unit[64];
        snprintf(title, sizeof title, "%s at %s", imname, poetext);
        snprintf(unit, sizeof unit, "%s (%s)", imname, units);
        plot_map_spec m = {title, unit, n, lon, lat, val, names};
        rc = hazard_plot_map(plot, &m, &err);
        if (!rc) printf("  plot: %s\n", plot);
    }
    free(lon);
    free(names);
    free(runs);
    free(sites);
    cs_db_close(db);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
