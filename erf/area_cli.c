/* `cybershake erf add-area`: an area source (gridded seismicity) into a forecast, for classical
 * PSHA beside the fault ruptures (erf_area.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "erf_cli.h"
#include "cs_sha256.h"
#include "cs_strutil.h"
#include "erf_area.h"
#include "cs_stage.h"

/* "a,b,c" into at most max numbers; the count, or -1 (a count, not a status: the caller names
 * the option and the rule in its usage message). */
static int numbers(const char *s, double *v, int max) {
    char buf[512];
    if (cs_copy(buf, sizeof buf, s)) return -1;
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max || cs_parse_double(cs_trim(t), &v[n])) return -1;
        n++;
    }
    return n;
}

/* --source-name NAME, into the area source's name. */
static int parse_source_name(const char *arg, void *target, cs_error *err) {
    erf_area_source *a = target;
    if (cs_copy(a->name, sizeof a->name, arg))
        return cs_error_set(err, CS_ERR_USAGE, "--source-name is at most %zu characters, got '%s'",
                            sizeof a->name - 1, arg);
    return 0;
}

/* The numbers of --mfd and --depths into a, and of --origin (when given) into origin[2]; 0, or
 * the usage exit status 2 after saying which breaks its rule. */
static int area_numbers(const char *prog, const char *mfd, const char *depths, const char *origin,
                        erf_area_source *a, double origin_ll[2]) {
    double v[4];
    if (numbers(mfd, v, 4) != 4 || !(v[0] > 0) || !(v[1] > 0) || !(v[3] > v[2]))
        return cs_cli_usage(prog,
                            "--mfd is RATE,B,MMIN,MMAX (rate > 0 per year, b > 0, MMAX > MMIN), "
                            "got '%s'",
                            mfd);
    a->rate = v[0], a->b = v[1], a->mmin = v[2], a->mmax = v[3];
    a->ndepths = numbers(depths, a->depth_km, ERF_AREA_MAX_DEPTHS);
    if (a->ndepths < 1)
        return cs_cli_usage(prog, "--depths is one to %d depths in km, got '%s'",
                            ERF_AREA_MAX_DEPTHS, depths);
    for (int k = 0; k < a->ndepths; k++)
        if (!(a->depth_km[k] >= 0 && a->depth_km[k] <= 700))
            return cs_cli_usage(prog, "--depths: %g km is not a depth (0 to 700)", a->depth_km[k]);
    if (origin &&
        (numbers(origin, origin_ll, 2) != 2 || fabs(origin_ll[0]) > 180 || fabs(origin_ll[1]) > 90))
        return cs_cli_usage(prog, "--origin is LON,LAT in degrees, got '%s'", origin);
    return 0;
}

int cs_erf_add_area_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake erf add-area STUDY --name ERF --polygon FILE --mfd RATE,B,MMIN,MMAX\n"
        "          [--bin 0.1] [--spacing KM] [--depths 5[,6,...]] [--rake 0] [--dip 90]\n"
        "          [--strike 0] [--source-id N] [--source-name NAME] [--origin LON,LAT]\n"
        "          [--time-span YEARS]\n\n"
        "Adds an area source (gridded seismicity) to forecast ERF (created, with --time-span\n"
        "years, 1 by default, if new): point sources on a grid of --spacing km (5) inside the\n"
        "polygon (FILE: one 'lon,lat' per line; a URL is staged first), laid about --origin\n"
        "(the mean of the vertices by default) at each of --depths km (equally likely); a\n"
        "truncated exponential magnitude distribution, RATE earthquakes of M >= MMIN per year\n"
        "with b value B up to MMAX, in --bin wide bins. Each bin is one rupture of Source_Type\n"
        "'area' whose points are the grid: classical PSHA (hazard gmpe-curve) takes them as\n"
        "equally likely point sources; CyberShake's simulations leave area ruptures out.\n"
        "docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *name = NULL, *polygon = NULL, *mfd = NULL, *depths = "5", *origin = NULL;
    erf_area_source a;
    memset(&a, 0, sizeof a);
    a.spacing_km = 5, a.dm = 0.1, a.dip = 90, a.time_span_years = 1, a.source_id = -1;
    cs_copy(a.name, sizeof a.name, "area source");
    double id = -1, origin_ll[2];
    const cs_opt opts[] = {
        CS_OPT_STR("name", &name),
        CS_OPT_STR("polygon", &polygon),
        CS_OPT_STR("mfd", &mfd),
        CS_OPT_NUM("bin", &a.dm, 0.001, 1, "needs a number in [0.001, 1]"),
        CS_OPT_NUM("spacing", &a.spacing_km, 0.1, 100, "(km) needs a number in [0.1, 100]"),
        CS_OPT_STR("depths", &depths),
        CS_OPT_NUM("rake", &a.rake, -180, 180, "needs a number in [-180, 180]"),
        CS_OPT_NUM("dip", &a.dip, 1, 90, "needs a number in [1, 90]"),
        CS_OPT_NUM("strike", &a.strike, 0, 360, "needs a number in [0, 360]"),
        CS_OPT_NUM("source-id", &id, 0, 1e15, "needs a number in [0, 1e+15]"),
        CS_OPT_FN("source-name", &a, parse_source_name),
        CS_OPT_STR("origin", &origin),
        CS_OPT_NUM("time-span", &a.time_span_years, 1e-6, 1e6, "needs a number in [1e-06, 1e+06]"),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 1, 1,
                           "expects one argument: STUDY", &first, &npos);
    if (prc) return prc;
    if (!name || !polygon || !mfd)
        return cs_cli_usage(argv[0], "--name, --polygon and --mfd are required");
    if (area_numbers(argv[0], mfd, depths, origin, &a, origin_ll)) return 2;
    cs_error err;
    cs_error_clear(&err);
    char local[4096], sha[65];
    if (cs_stage_input(polygon, local, sizeof local, &err) ||
        erf_area_read_polygon(local, &a, &err) || cs_sha256_file(local, sha, &err))
        return cs_cli_fail(argv[0], &err);
    erf_area_default_origin(&a);
    if (origin) a.origin_lon = origin_ll[0], a.origin_lat = origin_ll[1];
    char inputs[1024];
    snprintf(inputs, sizeof inputs,
             "area source %s: polygon %s (sha256 %s, %d vertices), grid %g km about %.5f,%.5f, "
             "depths %s km, mfd %s bin %g, rake %g dip %g strike %g",
             a.name, polygon, sha, a.nv, a.spacing_km, a.origin_lon, a.origin_lat, depths, mfd,
             a.dm, a.rake, a.dip, a.strike);
    if (id >= 0) a.source_id = (long long)id;
    erf_area_added got;
    int rc = erf_area_add(argv[first], name, inputs, &a, &got, &err);
    free(a.poly);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("forecast %s (ERF_ID %lld): area source %lld '%s', %ld grid points x %d depths, %ld "
           "magnitude bins (M %g to %g), %.6g earthquakes per year\n",
           name, got.erf_id, a.source_id, a.name, got.npoints, a.ndepths, got.nruptures, a.mmin,
           a.mmax, got.total_rate);
    return 0;
}
