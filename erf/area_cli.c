/* `cybershake erf add-area`: an area source (gridded seismicity) into a forecast, for classical
 * PSHA beside the fault ruptures (erf_area.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_cli.h"
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
    static const struct option opts[] = {
        {"name", required_argument, 0, 'n'},        {"polygon", required_argument, 0, 'p'},
        {"mfd", required_argument, 0, 'm'},         {"bin", required_argument, 0, 'b'},
        {"spacing", required_argument, 0, 's'},     {"depths", required_argument, 0, 'z'},
        {"rake", required_argument, 0, 'r'},        {"dip", required_argument, 0, 'd'},
        {"strike", required_argument, 0, 'k'},      {"source-id", required_argument, 0, 'i'},
        {"source-name", required_argument, 0, 'N'}, {"origin", required_argument, 0, 'o'},
        {"time-span", required_argument, 0, 'T'},   {0}};
    optind = 0;
    int c;
    double id = -1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'n':
            name = optarg;
            break;
        case 'p':
            polygon = optarg;
            break;
        case 'm':
            mfd = optarg;
            break;
        case 'z':
            depths = optarg;
            break;
        case 'o':
            origin = optarg;
            break;
        case 'N':
            bad = cs_copy(a.name, sizeof a.name, optarg) ? 2 : 0;
            break;
        case 'b':
            bad = cs_cli_number(argv[0], "--bin", optarg, 0.001, 1, &a.dm);
            break;
        case 's':
            bad = cs_cli_number(argv[0], "--spacing (km)", optarg, 0.1, 100, &a.spacing_km);
            break;
        case 'r':
            bad = cs_cli_number(argv[0], "--rake", optarg, -180, 180, &a.rake);
            break;
        case 'd':
            bad = cs_cli_number(argv[0], "--dip", optarg, 1, 90, &a.dip);
            break;
        case 'k':
            bad = cs_cli_number(argv[0], "--strike", optarg, 0, 360, &a.strike);
            break;
        case 'i':
            bad = cs_cli_number(argv[0], "--source-id", optarg, 0, 1e15, &id);
            break;
        case 'T':
            bad = cs_cli_number(argv[0], "--time-span", optarg, 1e-6, 1e6, &a.time_span_years);
            break;
        default:
            return cs_cli_usage(argv[0], "unknown option");
        }
        if (bad) return 2;
    }
    if (optind != argc - 1) return cs_cli_usage(argv[0], "expects one argument: STUDY");
    if (!name || !polygon || !mfd)
        return cs_cli_usage(argv[0], "--name, --polygon and --mfd are required");
    double v[4];
    if (numbers(mfd, v, 4) != 4 || !(v[0] > 0) || !(v[1] > 0) || !(v[3] > v[2]))
        return cs_cli_usage(argv[0],
                            "--mfd is RATE,B,MMIN,MMAX (rate > 0 per year, b > 0, MMAX > MMIN), "
                            "got '%s'",
                            mfd);
    a.rate = v[0], a.b = v[1], a.mmin = v[2], a.mmax = v[3];
    a.ndepths = numbers(depths, a.depth_km, ERF_AREA_MAX_DEPTHS);
    if (a.ndepths < 1)
        return cs_cli_usage(argv[0], "--depths is one to %d depths in km, got '%s'",
                            ERF_AREA_MAX_DEPTHS, depths);
    for (int k = 0; k < a.ndepths; k++)
        if (!(a.depth_km[k] >= 0 && a.depth_km[k] <= 700))
            return cs_cli_usage(argv[0], "--depths: %g km is not a depth (0 to 700)",
                                a.depth_km[k]);
    cs_error err;
    cs_error_clear(&err);
    char local[4096], sha[65];
    if (cs_stage_input(polygon, local, sizeof local, &err) ||
        erf_area_read_polygon(local, &a, &err) || cs_sha256_file(local, sha, &err))
        return cs_cli_fail(argv[0], &err);
    erf_area_default_origin(&a);
    if (origin && (numbers(origin, v, 2) != 2 || fabs(v[0]) > 180 || fabs(v[1]) > 90)) {
        free(a.poly);
        return cs_cli_usage(argv[0], "--origin is LON,LAT in degrees, got '%s'", origin);
    }
    if (origin) a.origin_lon = v[0], a.origin_lat = v[1];
    char inputs[1024];
    snprintf(inputs, sizeof inputs,
             "area source %s: polygon %s (sha256 %s, %d vertices), grid %g km about %.5f,%.5f, "
             "depths %s km, mfd %s bin %g, rake %g dip %g strike %g",
             a.name, polygon, sha, a.nv, a.spacing_km, a.origin_lon, a.origin_lat, depths, mfd,
             a.dm, a.rake, a.dip, a.strike);
    if (id >= 0) a.source_id = (long long)id;
    erf_area_added got;
    int rc = erf_area_add(argv[optind], name, inputs, &a, &got, &err);
    free(a.poly);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("forecast %s (ERF_ID %lld): area source %lld '%s', %ld grid points x %d depths, %ld "
           "magnitude bins (M %g to %g), %.6g earthquakes per year\n",
           name, got.erf_id, a.source_id, a.name, got.npoints, a.ndepths, got.nruptures, a.mmin,
           a.mmax, got.total_rate);
    return 0;
}
