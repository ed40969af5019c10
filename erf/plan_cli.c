/* `cybershake plan`: plans one site on one forecast of its study. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_cli.h"
#include "erf_cli.h"
#include "cs_opt.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "site_plan.h"
#include "cs_stage.h"

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
    long width = o.absorbing_width, rx = o.ranks_x, ry = o.ranks_y, stride = o.mesh_max_stride;
    const double pos = DBL_TRUE_MIN;
    const cs_opt opts[] = {
        CS_OPT_STR("erf", &erf),
        CS_OPT_NUM("fmax", &o.fmax, pos, INFINITY, "needs a positive number (Hz)"),
        CS_OPT_STR("model-format", &fmt),
        CS_OPT_STR("model-file", &model),
        CS_OPT_STR("out", &out),
        CS_OPT_NUM("cutoff", &o.cutoff_km, pos, INFINITY, "needs a positive number (km)"),
        CS_OPT_NUM("vs-min", &o.vs_floor, pos, INFINITY, "needs a positive number (m/s)"),
        CS_OPT_NUM("ppw", &o.ppw, pos, INFINITY, "needs a positive number"),
        CS_OPT_NUM("rotation", &o.rotation, -INFINITY, INFINITY, "needs a number (degrees)"),
        CS_OPT_NUM("padding", &o.padding_km, pos, INFINITY, "needs a positive number (km)"),
        CS_OPT_NUM("round", &o.round_km, pos, INFINITY, "needs a positive number (km)"),
        CS_OPT_INT("absorbing-width", &width, 0, 1e6, "needs a whole number 0 to 1e6"),
        CS_OPT_INT("ranks-x", &rx, 1, 1e6, "needs a whole number 1 to 1e6"),
        CS_OPT_INT("ranks-y", &ry, 1, 1e6, "needs a whole number 1 to 1e6"),
        CS_OPT_NUM("mesh-near", &o.mesh_near_km, pos, INFINITY, "needs a positive number (km)"),
        CS_OPT_INT("mesh-max-stride", &stride, 1, 1e6, "needs a whole number 1 to 1e6"),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 2, 2,
                           "expects two arguments: STUDY SITE", &first, &npos);
    if (prc) return prc;
    o.absorbing_width = (int)width, o.ranks_x = (int)rx, o.ranks_y = (int)ry;
    o.mesh_max_stride = (int)stride;
    if (!erf || !fmt || !model || !out || !(o.fmax > 0))
        return cs_cli_usage(argv[0],
                            "--erf, --fmax, --model-format, --model-file and --out are required");
    const char *study = argv[first], *site = argv[first + 1];
    cs_error err;
    cs_error_clear(&err);
    if (mkdir(out, 0777) && errno != EEXIST) {
        cs_error_errno(&err, out, "create the output folder");
        return cs_cli_fail(argv[0], &err);
    }
    char model_local[4096]; /* a URL is staged; the plan names the local copy */
    if (cs_stage_input(model, model_local, sizeof model_local, &err))
        return cs_cli_fail(argv[0], &err);
    model = model_local;
    erf_medium medium;
    if (erf_medium_open(&medium, fmt, model, &err)) return cs_cli_fail(argv[0], &err);
    cs_db *db = NULL;
    long long erf_id;
    double span;
    site_plan p = {0};
    char params[4096];
    int rc;
    CS_CALL_GOTO(rc, &err, cs_db_open_current(study, &db, &err), done);
    CS_CALL_GOTO(rc, &err, erf_db_find(db, erf, &erf_id, &span, &err), done);
    CS_CALL_GOTO(rc, &err, site_plan_make(db, site, erf_id, &medium, &o, &p, &err), done);
    CS_CALL_GOTO(rc, &err,
                 site_plan_write(db, &p, &o, site, out, fmt, model, params, sizeof params, &err),
                 done);
done:
    cs_db_close(db);
    erf_medium_close(&medium);
    if (rc) {
        site_plan_free(&p);
        return cs_cli_fail(argv[0], &err);
    }
    site_plan_report(stdout, &p, &o, site, erf, params);
    site_plan_free(&p);
    return 0;
}
