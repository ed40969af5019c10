/* `cybershake plan`: plans one site on one forecast of its study. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_cli.h"
#include "cs_progress.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "site_plan.h"
#include "wf_stage.h"

int cs_plan_cli_main(int argc, char **argv);

/* Rates measured on this project's solver (docs/performance.md), for the time estimate. */
#define GPU_LUPS       8.2e9 /* one H200, viscoelastic, whole solver */
#define CPU_LUPS       15e6  /* 2-core VM, viscoelastic */
#define BYTES_PER_NODE 80.0  /* viscoelastic fields, memory variables, material (float32) */

int cs_plan_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake plan STUDY SITE --erf NAME --fmax HZ --model-format F\n"
        "          --model-file PATH --out DIR [--cutoff KM] [--vs-min M/S] [--ppw N]\n"
        "          [--rotation DEG] [--padding KM] [--round KM] [--absorbing-width N]\n"
        "          [--ranks-x N] [--ranks-y N] [--mesh-near KM] [--mesh-max-stride N]\n\n"
        "Plans site SITE on forecast NAME: the ruptures within --cutoff km (200) become the\n"
        "site's CyberShake_Site_Ruptures; the simulation box is rotated to --rotation (-55),\n"
        "padded by --padding km (30) beyond the site and every rupture point, rounded up to\n"
        "--round km (10) and to node counts divisible by --ranks-x x --ranks-y; h comes from\n"
        "--fmax and the model's smallest Vs (floor --vs-min, 500 m/s) at --ppw (5) points per\n"
        "wavelength, dt from the CFL limit. Writes DIR/SITE.points (save points: every rupture\n"
        "point snapped to the grid plus an adaptive mesh around the site) and\n"
        "DIR/SITE.sgt.params (the SGT run), atomically, and prints a summary. --model-file may\n"
        "be a URL (file, http, https; '#sha256=HEX' gives its checksum), staged first.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    plan_options o;
    site_plan_defaults(&o);
    const char *erf = NULL, *fmt = NULL, *model = NULL, *out = NULL;
    static const struct option opts[] = {{"erf", required_argument, 0, 'e'},
                                         {"fmax", required_argument, 0, 'f'},
                                         {"model-format", required_argument, 0, 'F'},
                                         {"model-file", required_argument, 0, 'm'},
                                         {"out", required_argument, 0, 'o'},
                                         {"cutoff", required_argument, 0, 'c'},
                                         {"vs-min", required_argument, 0, 'v'},
                                         {"ppw", required_argument, 0, 'p'},
                                         {"rotation", required_argument, 0, 'r'},
                                         {"padding", required_argument, 0, 'P'},
                                         {"round", required_argument, 0, 'R'},
                                         {"absorbing-width", required_argument, 0, 'a'},
                                         {"ranks-x", required_argument, 0, 'x'},
                                         {"ranks-y", required_argument, 0, 'y'},
                                         {"mesh-near", required_argument, 0, 'n'},
                                         {"mesh-max-stride", required_argument, 0, 's'},
                                         {0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        double v;
        switch (c) {
        case 'e':
            erf = optarg;
            continue;
        case 'F':
            fmt = optarg;
            continue;
        case 'm':
            model = optarg;
            continue;
        case 'o':
            out = optarg;
            continue;
        case '?':
            return cs_cli_usage(argv[0], "unknown option");
        default:
            break;
        }
        if (cs_parse_double(optarg, &v))
            return cs_cli_usage(argv[0], "an option needs a number, got '%s'", optarg);
        int whole = c == 'a' || c == 'x' || c == 'y' || c == 's';
        if ((whole && (v != floor(v) || v < (c == 'a' ? 0 : 1) || v > 1e6)) ||
            (!whole && c != 'r' && !(v > 0)))
            return cs_cli_usage(argv[0], "option value '%s' is out of range", optarg);
        switch (c) {
        case 'f':
            o.fmax = v;
            break;
        case 'c':
            o.cutoff_km = v;
            break;
        case 'v':
            o.vs_floor = v;
            break;
        case 'p':
            o.ppw = v;
            break;
        case 'r':
            o.rotation = v;
            break;
        case 'P':
            o.padding_km = v;
            break;
        case 'R':
            o.round_km = v;
            break;
        case 'a':
            o.absorbing_width = (int)v;
            break;
        case 'x':
            o.ranks_x = (int)v;
            break;
        case 'y':
            o.ranks_y = (int)v;
            break;
        case 'n':
            o.mesh_near_km = v;
            break;
        case 's':
            o.mesh_max_stride = (int)v;
            break;
        }
    }
    if (optind != argc - 2) return cs_cli_usage(argv[0], "expects two arguments: STUDY SITE");
    if (!erf || !fmt || !model || !out || !(o.fmax > 0))
        return cs_cli_usage(argv[0],
                            "--erf, --fmax, --model-format, --model-file and --out are required");
    const char *study = argv[optind], *site = argv[optind + 1];
    cs_error err;
    cs_error_clear(&err);
    if (mkdir(out, 0777) && errno != EEXIST) {
        cs_error_errno(&err, out, "create the output folder");
        return cs_cli_fail(argv[0], &err);
    }
    char model_local[4096]; /* a URL is staged; the plan names the local copy */
    if (wf_stage_input(model, model_local, sizeof model_local, &err))
        return cs_cli_fail(argv[0], &err);
    model = model_local;
    erf_medium medium;
    if (erf_medium_open(&medium, fmt, model, &err)) return cs_cli_fail(argv[0], &err);
    cs_db *db = NULL;
    long long erf_id;
    double span;
    site_plan p = {0};
    char params[4096];
    int rc = cs_db_open_current(study, &db, &err);
    if (!rc) rc = erf_db_find(db, erf, &erf_id, &span, &err);
    if (!rc) rc = site_plan_make(db, site, erf_id, &medium, &o, &p, &err);
    if (!rc) rc = site_plan_write(db, &p, &o, site, out, fmt, model, params, sizeof params, &err);
    cs_db_close(db);
    erf_medium_close(&medium);
    if (rc) {
        site_plan_free(&p);
        return cs_cli_fail(argv[0], &err);
    }
    double nodes = (double)p.nx * p.ny * p.nz;
    printf("site %s on forecast %s: %d ruptures within %g km\n", site, erf, p.nruptures,
           o.cutoff_km);
    printf("box (rotation %g deg), corners lon lat:\n", o.rotation);
    for (int i = 0; i < 4; i++)
        printf("  %.6f %.6f\n", p.corner_lon[i], p.corner_lat[i]);
    printf("grid: %d x %d x %d nodes, h = %g m (min Vs %.0f m/s, fmax %g Hz), dt = %g s "
           "(max Vp %.0f m/s), nt = %d (%.1f s)\n",
           p.nx, p.ny, p.nz, p.h, p.vs_min, o.fmax, p.dt, p.vp_max, p.nt, p.nt * p.dt);
    printf("save points: %ld (%ld rupture points and the adaptive mesh, deduplicated)\n", p.npoints,
           p.nrupture_points);
    char gpu[32], cpu[32];
    cs_format_duration(nodes * p.nt / GPU_LUPS, gpu, sizeof gpu);
    cs_format_duration(nodes * p.nt / CPU_LUPS, cpu, sizeof cpu);
    printf("per force run: about %.3g GB of memory; about %s on one H200 (8.2 G LUPS), %s on 2 CPU "
           "cores (15 M LUPS)\n",
           nodes * BYTES_PER_NODE / 1e9, gpu, cpu);
    printf("wrote %s\n", params);
    site_plan_free(&p);
    return 0;
}
