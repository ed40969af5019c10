/* `cybershake erf ...`: build a forecast from fault sources or import CyberShake rupture
 * geometry files into a study (area sources: area_cli.c), list it, and make its rupture
 * variations. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include "cs_cli.h"
#include "erf_cli.h"
#include "cs_db.h"
#include "cs_opt.h"
#include "cs_progress.h"
#include "cs_sha256.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "erf_faults.h"
#include "cs_stage.h"
#include "erf_geometry.h"
#include "erf_medium.h"
#include "erf_study.h"
#include "rupgen.h"

/* --near LAT,LON in degrees, into target's two doubles. */
static int parse_near(const char *arg, void *target, cs_error *err) {
    double *ll = target;
    if (sscanf(arg, "%lf,%lf", &ll[0], &ll[1]) != 2 || fabs(ll[0]) > 90 || fabs(ll[1]) > 180)
        return cs_error_set(err, CS_ERR_USAGE, "--near needs LAT,LON in degrees, got '%s'", arg);
    return 0;
}

#define NOPTS(opts) ((int)(sizeof(opts) / sizeof *(opts)))

static int cmd_build(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake erf build STUDY --name NAME --faults faults.csv --traces traces.csv\n"
        "          [--spacing KM] [--float-step KM] [--time-span YEARS]\n"
        "          [--near LAT,LON --within KM] [--files STEM,...] [--description TEXT]\n\n"
        "Builds a forecast from fault sources (the 2008 NSHM California fault table of\n"
        "erf/demo/: characteristic and Gutenberg-Richter sources, weighted by their logic-tree\n"
        "weights) into the study: gridded surfaces every --spacing km (1), floating GR\n"
        "ruptures every --float-step km (5) along strike, Poisson probabilities over\n"
        "--time-span years (1). --near/--within keep the sources whose trace comes within KM\n"
        "of the point; --files keeps the sources of the named NSHM files (e.g. bFault.ch).\n"
        "--faults and --traces may be URLs (file, http, https; '#sha256=HEX' gives the\n"
        "checksum they must have), staged first. docs/erf.md gives every rule.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *name = NULL, *faults = NULL, *traces = NULL, *files = NULL, *desc = NULL;
    erf_build_options o = {1.0, 5.0, 1.0};
    double near[2] = {NAN, NAN}, within = INFINITY;
    const cs_opt opts[] = {
        CS_OPT_STR("name", &name),
        CS_OPT_STR("faults", &faults),
        CS_OPT_STR("traces", &traces),
        CS_OPT_POS("spacing", &o.spacing_km, "needs a positive number"),
        CS_OPT_POS("float-step", &o.float_step_km, "needs a positive number"),
        CS_OPT_POS("time-span", &o.time_span_years, "needs a positive number"),
        CS_OPT_FN("near", near, parse_near),
        CS_OPT_POS("within", &within, "needs a positive number"),
        CS_OPT_STR("files", &files),
        CS_OPT_STR("description", &desc),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 1, 1,
                           "expects one argument: STUDY", &first, &npos);
    if (prc) return prc;
    double near_lat = near[0], near_lon = near[1];
    if (!name || !faults || !traces)
        return cs_cli_usage(argv[0], "--name, --faults and --traces are required");
    if (isfinite(within) != !isnan(near_lat))
        return cs_cli_usage(argv[0], "--near and --within go together");

    cs_error err;
    cs_error_clear(&err);
    erf_fault_set set;
    char faults_local[4096], traces_local[4096];
    if (cs_stage_input(faults, faults_local, sizeof faults_local, &err) ||
        cs_stage_input(traces, traces_local, sizeof traces_local, &err))
        return cs_cli_fail(argv[0], &err);
    faults = faults_local;
    traces = traces_local;
    if (erf_faults_read(faults, traces, &set, &err)) return cs_cli_fail(argv[0], &err);
    char sha_f[65], sha_t[65], inputs[4096];
    if (cs_sha256_file(faults, sha_f, &err) || cs_sha256_file(traces, sha_t, &err)) {
        erf_faults_free(&set);
        return cs_cli_fail(argv[0], &err);
    }
    snprintf(inputs, sizeof inputs,
             "fault sources: %s (sha256 %s), %s (sha256 %s); spacing %g km, float step %g km, "
             "time span %g yr; near %g,%g within %g km; files %s",
             faults, sha_f, traces, sha_t, o.spacing_km, o.float_step_km, o.time_span_years,
             near_lat, near_lon, within, files ? files : "all");
    erf_build_request q = {.name = name,
                           .description = desc ? desc : "fault sources",
                           .inputs = inputs,
                           .set = &set,
                           .options = o,
                           .files = files,
                           .near_lat = near_lat,
                           .near_lon = near_lon,
                           .within_km = within};
    erf_built got;
    int rc = erf_build_forecast(argv[first], &q, &got, &err);
    erf_faults_free(&set);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("forecast %s (ERF_ID %lld): %d sources, %ld ruptures, %ld points; annual rate of "
           "all ruptures %.6g /yr\n",
           name, got.erf_id, got.nsources, got.nruptures, got.npoints, got.total_rate);
    return 0;
}

static int cmd_import_geometry(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake erf import-geometry STUDY --name NAME [--time-span YEARS] FILE...\n\n"
        "Imports CyberShake rupture geometry files (header lines Probability, Magnitude,\n"
        "GridSpacing, NumRows, NumCols, a comment line, then 'lat lon depth rake dip strike'\n"
        "per point, rows from shallow to deep) into forecast NAME, created if new. Each file\n"
        "is named SOURCE_RUPTURE.txt (CyberShake's layout), which gives its ids. All files go\n"
        "in one transaction: one bad file and nothing is imported. A FILE may be a URL\n"
        "(file, http, https; '#sha256=HEX' gives the checksum it must have): it is staged\n"
        "first (docs/workflow.md).\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *name = NULL;
    double span = 1.0;
    const cs_opt opts[] = {
        CS_OPT_STR("name", &name),
        CS_OPT_POS("time-span", &span, "needs a positive number"),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 2, -1,
                           "expects STUDY and at least one FILE", &first, &npos);
    if (prc) return prc;
    if (!name) return cs_cli_usage(argv[0], "--name is required");
    cs_error err;
    cs_error_clear(&err);
    /* files given as URLs are staged first; from here on argv names the local copies */
    char(*local)[4096] = malloc(sizeof *local * (size_t)argc);
    if (!local) {
        cs_error_set(&err, CS_ERR_RESOURCE, "out of memory for %d file names", argc);
        return cs_cli_fail(argv[0], &err);
    }
    for (int i = first + 1; i < argc; i++) {
        if (cs_stage_input(argv[i], local[i], sizeof local[i], &err)) {
            free(local);
            return cs_cli_fail(argv[0], &err);
        }
        argv[i] = local[i];
    }
    for (int i = first + 1; i < argc; i++) {
        long long s, r;
        if (erf_geometry_ids_from_path(argv[i], &s, &r, &err)) {
            free(local);
            return cs_cli_usage(argv[0], "%s", err.message);
        }
    }
    long long erf_id;
    long npoints;
    int rc = erf_import_geometry(argv[first], name, span, argv + first + 1, npos - 1, &erf_id,
                                 &npoints, &err);
    free(local);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("imported %d ruptures (%ld points) into forecast %s (ERF_ID %lld)\n", npos - 1, npoints,
           name, erf_id);
    return 0;
}

static int cmd_list(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake erf list STUDY [--name NAME]\n\n"
        "Lists the forecasts of a study, or with --name the ruptures of one (source, rupture,\n"
        "magnitude, probability, annual rate, grid, source name).\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *name = NULL;
    const cs_opt opts[] = {CS_OPT_STR("name", &name)};
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 1, 1,
                           "expects one argument: STUDY", &first, &npos);
    if (prc) return prc;
    cs_error err;
    cs_error_clear(&err);
    cs_db *db;
    if (cs_db_open_current(argv[first], &db, &err)) return cs_cli_fail(argv[0], &err);
    sqlite3_stmt *st;
    long long erf_id = 0;
    double span;
    int rc = 0;
    if (name) rc = erf_db_find(db, name, &erf_id, &span, &err);
    if (!rc)
        rc = cs_db_prepare(
            db,
            name ? "SELECT Source_ID, Rupture_ID, Magnitude, Prob, Annual_Rate, Num_Rows, "
                   "Num_Columns, Source_Name FROM Ruptures WHERE ERF_ID = ? ORDER BY Source_ID, "
                   "Rupture_ID"
                 : "SELECT e.ERF_ID, e.ERF_Name, e.Time_Span_Years, count(r.Rupture_ID), "
                   "coalesce(sum(r.Num_Points), 0), e.ERF_Description FROM ERF_IDs e LEFT JOIN "
                   "Ruptures r USING (ERF_ID) GROUP BY e.ERF_ID ORDER BY e.ERF_ID",
            &st, &err);
    if (!rc) {
        if (name) {
            sqlite3_bind_int64(st, 1, erf_id);
            printf("%-8s %-8s %-6s %-12s %-12s %-9s %s\n", "source", "rupture", "mag", "prob",
                   "rate/yr", "grid", "name");
        } else {
            printf("%-6s %-20s %-8s %-9s %-10s %s\n", "ERF_ID", "name", "span/yr", "ruptures",
                   "points", "description");
        }
        long n = 0;
        while (sqlite3_step(st) == SQLITE_ROW) {
            n++;
            if (name)
                printf("%-8lld %-8lld %-6.2f %-12.5g %-12.5g %3dx%-5d %s\n",
                       sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                       sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
                       sqlite3_column_double(st, 4), sqlite3_column_int(st, 5),
                       sqlite3_column_int(st, 6), (const char *)sqlite3_column_text(st, 7));
            else
                printf("%-6lld %-20s %-8g %-9lld %-10lld %s\n", sqlite3_column_int64(st, 0),
                       (const char *)sqlite3_column_text(st, 1), sqlite3_column_double(st, 2),
                       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
                       sqlite3_column_text(st, 5) ? (const char *)sqlite3_column_text(st, 5) : "");
        }
        sqlite3_finalize(st);
        printf("%ld %s\n", n, name ? "ruptures" : "forecasts");
    }
    cs_db_close(db);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}

static int cmd_variations(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake erf variations STUDY --name NAME --model-format F --model-file PATH\n"
        "          [--scenario NAME] [--hypo-spacing KM] [--slips N] [--seed N]\n"
        "          [--source S [--rupture R]] [--srf-dir DIR]\n\n"
        "Lays out the rupture variations of forecast NAME (docs/erf.md: hypocentres every\n"
        "--hypo-spacing km (4), at least 3 along strike and down dip, times --slips slip\n"
        "realisations (1)) as rows of Rupture_Variations under scenario --scenario\n"
        "(default 'gp-<seed>'), and with --srf-dir writes each variation as SRF 2.0\n"
        "(DIR/S_R_V.srf), the medium from a 1D velocity model (fk1d, depth-table, ucvm1d).\n"
        "--source/--rupture restrict the SRFs written (the rows cover the whole forecast).\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *name = NULL, *fmt = NULL, *model_file = NULL, *scenario = NULL, *srf_dir = NULL;
    long only_source = -1, only_rupture = -1;
    rupgen_params p;
    rupgen_defaults(&p);
    long slips = p.nslip, seed = (long)p.seed;
    const cs_opt opts[] = {
        CS_OPT_STR("name", &name),
        CS_OPT_STR("model-format", &fmt),
        CS_OPT_STR("model-file", &model_file),
        CS_OPT_STR("scenario", &scenario),
        CS_OPT_POS("hypo-spacing", &p.hypo_spacing_km, "needs a positive number"),
        CS_OPT_INT("slips", &slips, 1, INT_MAX, "needs a whole number >= 1"),
        CS_OPT_INT("seed", &seed, 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_INT("source", &only_source, 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_INT("rupture", &only_rupture, 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_STR("srf-dir", &srf_dir),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 1, 1,
                           "expects one argument: STUDY", &first, &npos);
    if (prc) return prc;
    p.nslip = (int)slips;
    p.seed = (unsigned long long)seed;
    if (!name || !fmt || !model_file)
        return cs_cli_usage(argv[0], "--name, --model-format and --model-file are required");
    char scen[128];
    if (scenario)
        cs_copy(scen, sizeof scen, scenario);
    else
        snprintf(scen, sizeof scen, "gp-%llu", p.seed);
    cs_error err;
    cs_error_clear(&err);
    erf_medium medium;
    if (erf_medium_open(&medium, fmt, model_file, &err)) return cs_cli_fail(argv[0], &err);
    if (srf_dir && mkdir(srf_dir, 0777) && errno != EEXIST) {
        erf_medium_close(&medium);
        cs_error_errno(&err, srf_dir, "create the SRF folder");
        return cs_cli_fail(argv[0], &err);
    }
    erf_variations_request q = {.name = name,
                                .scenario = scen,
                                .params = &p,
                                .model_format = fmt,
                                .model_file = model_file,
                                .medium = &medium,
                                .srf_dir = srf_dir,
                                .only_source = only_source,
                                .only_rupture = only_rupture};
    erf_variations_made got;
    int rc = erf_make_variations(argv[first], &q, &got, &err);
    erf_medium_close(&medium);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("scenario %s (Rup_Var_Scenario_ID %lld): %ld variations of %ld ruptures", scen,
           got.scenario_id, got.nrows, got.nruptures);
    if (srf_dir) printf("; %ld SRF files in %s", got.nsrf, srf_dir);
    printf("\n");
    return 0;
}

static double mu_of_medium(double depth_km, void *ctx) {
    double vs, rho;
    cs_error ignored;
    if (erf_medium_query(0, 0, depth_km, &vs, &rho, ctx, &ignored)) return NAN;
    return rho * vs * vs;
}

static int cmd_srf_info(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake erf srf-info FILE.srf [--model-format F --model-file PATH]\n\n"
        "Reads an SRF (1.0 or 2.0, one or many planes) and prints its planes, points, slip,\n"
        "duration, total moment and moment magnitude (M0 = 10^(1.5 Mw + 9.05) N*m). SRF 2.0\n"
        "carries Vs and density at each point; SRF 1.0 needs a 1D velocity model for the\n"
        "rigidity (fk1d, depth-table or ucvm1d). A malformed file is reported with file:line.\n"
        "FILE.srf may be a URL (file, http, https; '#sha256=HEX' gives its checksum).\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *fmt = NULL, *model_file = NULL;
    const cs_opt opts[] = {CS_OPT_STR("model-format", &fmt), CS_OPT_STR("model-file", &model_file)};
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 1, 1,
                           "expects one argument: FILE.srf", &first, &npos);
    if (prc) return prc;
    if (!fmt != !model_file)
        return cs_cli_usage(argv[0], "--model-format and --model-file go together");
    cs_error err;
    cs_error_clear(&err);
    srf_file s;
    char srf_local[4096];
    if (cs_stage_input(argv[first], srf_local, sizeof srf_local, &err))
        return cs_cli_fail(argv[0], &err);
    argv[first] = srf_local;
    if (srf_read(argv[first], &s, &err)) return cs_cli_fail(argv[0], &err);
    erf_medium medium;
    int have_model = fmt != NULL;
    if (have_model && erf_medium_open(&medium, fmt, model_file, &err)) {
        srf_free(&s);
        return cs_cli_fail(argv[0], &err);
    }
    if (s.version == 1 && !have_model) {
        srf_free(&s);
        cs_error_input(&err, argv[first], "VERSION", "1.0",
                       "an SRF 1.0 has no Vs or density; give --model-format and --model-file "
                       "for the rigidity");
        return cs_cli_fail(argv[0], &err);
    }
    printf("%s: SRF %d.0, %d plane%s, %ld points, %ld slip-rate samples\n", argv[first], s.version,
           s.nplanes, s.nplanes == 1 ? "" : "s", s.npoints, s.nsamples);
    for (int i = 0; i < s.nplanes; i++) {
        const srf_plane *p = &s.planes[i];
        printf("  plane %d: top centre %.5f %.5f, %d x %d subfaults, %.3f x %.3f km, strike "
               "%g dip %g, top %.3f km, hypocentre %.3f km along strike, %.3f km down dip; "
               "%ld points\n",
               i + 1, p->elon, p->elat, p->nstk, p->ndip, p->len, p->wid, p->stk, p->dip, p->dtop,
               p->shyp, p->dhyp, s.block_count[i]);
    }
    double smax = 0, tend = 0, tfirst = INFINITY;
    for (long i = 0; i < s.npoints; i++) {
        const srf_point *q = &s.points[i];
        double slip =
            sqrt(q->slip[0] * q->slip[0] + q->slip[1] * q->slip[1] + q->slip[2] * q->slip[2]);
        int nt = q->nt[0] > q->nt[1] ? q->nt[0] : q->nt[1];
        if (q->nt[2] > nt) nt = q->nt[2];
        if (slip > smax) smax = slip;
        if (slip > 0 && q->tinit < tfirst) tfirst = q->tinit;
        if (slip > 0 && q->tinit + nt * q->dt > tend) tend = q->tinit + nt * q->dt;
    }
    double m0 = srf_moment(&s, have_model ? mu_of_medium : NULL, have_model ? &medium : NULL);
    printf("  slip up to %.4g cm; slip from t = %.4g s to %.4g s\n", smax, tfirst, tend);
    printf("  moment %.6g N*m (%s), Mw %.4f\n", m0,
           have_model ? "rigidity from the velocity model"
                      : "rigidity from the file's Vs and density",
           srf_magnitude_of_moment(m0));
    for (int i = 0; i < s.ncomments && i < 5; i++)
        printf("  %s\n", s.comments[i]);
    if (have_model) erf_medium_close(&medium);
    srf_free(&s);
    return isfinite(m0)
               ? 0
               : (fprintf(stderr, "%s: the velocity model gave no rigidity at some depth\n",
                          argv[0]),
                  1);
}

int cs_erf_cli_main(int argc, char **argv) {
    static const cs_cli_command cmds[] = {
        {"build", cmd_build, "build a forecast from fault sources (NSHM fault table)"},
        {"import-geometry", cmd_import_geometry, "import CyberShake rupture geometry files"},
        {"add-area", cs_erf_add_area_main, "add an area source (gridded seismicity) for PSHA"},
        {"list", cmd_list, "list forecasts, or the ruptures of one"},
        {"variations", cmd_variations, "lay out rupture variations; write them as SRF"},
        {"srf-info", cmd_srf_info, "read an SRF file and summarise it (planes, moment, Mw)"},
    };
    return cs_cli_dispatch("cybershake erf", "Earthquake rupture forecasts of a study.", cmds,
                           (int)(sizeof cmds / sizeof cmds[0]), argc, argv);
}
