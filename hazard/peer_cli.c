/* `cybershake hazard peer`: a PEER PSHA verification case built from its definition, printed,
 * compared with published values, written as CSV and drawn. */
#include <stdio.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "cs_strutil.h"
#include "hazard_cli.h"
#include "peer_report.h"

int cs_hazard_peer_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard peer CASE [--sites 1,2,...] [--step KM] [--reference FILE.csv]\n"
        "          [--tolerance F] [--csv OUT.csv] [--plot FILE.png|svg]\n\n"
        "          [--area-step KM] [--edition 2018|2010] [--rupture-grid definition|nshmp]\n"
        "          [--sources area,b,c]\n"
        "A PEER PSHA verification case of Set 1 (1, 2, 3, 4, 5, 6, 7, 8a, 8b, 8c, 10, 11) built\n"
        "from its definition: fault and floating ruptures every --step km (0.02), or the area\n"
        "source's point sources on a --area-step km grid (1), magnitude-frequency distribution,\n"
        "Sadigh et al. (1997) rock PGA, the hazard stage's integrator. Prints the annual\n"
        "probability of exceedance at the PEER levels (0.001 to 1 g) for the case's sites (fault\n"
        "sites 1-7, area sites 1-4, or --sites). --reference compares with published values (the "
        "PEER 2010 or "
        "nshmp-haz\n"
        "CSVs of ../shared/reference/peer): the largest relative difference where both are\n"
        "nonzero, except where the reference has fallen below 1% of its plateau (the last steps\n"
        "before a sigma = 0 cut-off); where only one is zero, a rupture's median must lie within\n"
        "10% of the level (the cut-off itself); exit 1 if a difference exceeds --tolerance (1%)\n"
        "or a zero lies elsewhere. --edition: the cases as PEER 2018/03 defines them (the\n"
        "default: cases 10 and 11 with Sadigh's sigma untruncated) or as the 2010 report did\n"
        "(sigma 0 there). Set 2 (PEER 2018/03): s2-2a, s2-2b, s2-2c, s2-2d (Fault 3 with ASK14,\n"
        "BSSA14, CB14, CY14, sigma untruncated) and s2-3a to s2-3d (Fault 4, dipping 45 degrees:\n"
        "the hanging wall, sigma 0), sites 1-6; s2-4a, s2-4b (Fault 5, 0-30 km, CY14 with sigma\n"
        "0: hypocentres uniform or triangular (0, 10, 30 km) down dip) and s2-5a, s2-5b (Fault 6,\n"
        "CY14 with sigma 0.65: normal, or the mixture of 1.2 and 0.8 sigma; levels 0.001 to 7 g),\n"
        "one site each. --rupture-grid nshmp (cases 4 and 5): the rupture's size W = sqrt(A / 2)\n"
        "and L = A / W, its positions and its hypocentre on nshmp-haz's grid of --step km (its\n"
        "implementation), not the definition's log W = 0.5 M - 2.15 (definition, the default).\n"
        "s2-1 (case 1, multiple sources): the area source (points on the --area-step grid at 5 to\n"
        "10 km) and Faults B and C (Youngs-Coppersmith, floating every --step km) at its one "
        "site,\n"
        "Sadigh rock with sigma untruncated; --sources area,b,c counts only those named (all\n"
        "three by default). Its hazard curve, not its deaggregation.\n"
        "docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *sites_text = NULL, *grid = "definition", *sources_text = NULL;
    peer_request rq = {.po = {0.02, 1.0, 2018, 0}, .tolerance = 0.01};
    long edition = 2018;
    const cs_opt opts[] = {
        CS_OPT_STR("sites", &sites_text),
        CS_OPT_NUM("step", &rq.po.step_km, 0.001, 5, "(km) needs a number in [0.001, 5]"),
        CS_OPT_NUM("area-step", &rq.po.area_km, 0.1, 10, "(km) needs a number in [0.1, 10]"),
        CS_OPT_STR("reference", &rq.reference),
        CS_OPT_STR("csv", &rq.csv),
        CS_OPT_STR("plot", &rq.plot),
        CS_OPT_NUM("tolerance", &rq.tolerance, 1e-12, 0.99, "needs a number in [1e-12, 0.99]"),
        CS_OPT_INT("edition", &edition, 2010, 2018, "needs 2018 or 2010"),
        CS_OPT_STR("rupture-grid", &grid),
        CS_OPT_STR("sources", &sources_text),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 1, 1,
                           "expects one argument: CASE", &first, &npos);
    if (prc) return prc;
    if (edition != 2010 && edition != 2018)
        return cs_cli_usage(argv[0], "--edition needs 2018 or 2010, got %ld", edition);
    rq.po.edition = (int)edition;
    const char *id = rq.id = argv[first];
    if (strcmp(grid, "definition") && strcmp(grid, "nshmp"))
        return cs_cli_usage(argv[0], "--rupture-grid needs definition or nshmp, got '%s'", grid);
    rq.po.nshmp_grid = !strcmp(grid, "nshmp");
    if (rq.po.nshmp_grid && !(peer_is_set2(id) && (id[3] == '4' || id[3] == '5')))
        return cs_cli_usage(argv[0], "--rupture-grid nshmp is for Set 2 cases 4 and 5, not %s", id);
    if (sources_text) {
        if (strcmp(id, "s2-1"))
            return cs_cli_usage(argv[0], "--sources is for Set 2 case 1 (s2-1), not %s", id);
        char buf[64];
        cs_copy(buf, sizeof buf, sources_text);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            const int bit = !strcmp(t, "area") ? PEER_SOURCE_AREA
                            : !strcmp(t, "b")  ? PEER_SOURCE_FAULT_B
                            : !strcmp(t, "c")  ? PEER_SOURCE_FAULT_C
                                               : 0;
            if (!bit) return cs_cli_usage(argv[0], "--sources takes area, b and c, got '%s'", t);
            rq.po.sources |= bit;
        }
    }
    const peer_site *sites;
    int nsites = peer_case_sites(id, &sites);
    int *want = rq.want;
    for (int st = 0; st < nsites; st++)
        want[st] = 1;
    if (sites_text) {
        memset(rq.want, 0, sizeof rq.want);
        char buf[256];
        cs_copy(buf, sizeof buf, sites_text);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            long v;
            if (cs_parse_long(t, &v) || v < 1 || v > nsites)
                return cs_cli_usage(argv[0], "--sites takes numbers 1 to %d for case %s, got '%s'",
                                    nsites, id, t);
            want[v - 1] = 1;
        }
    }
    cs_error err;
    cs_error_clear(&err);
    int bad = 0;
    if (peer_report(&rq, stdout, &bad, &err)) return cs_cli_fail(argv[0], &err);
    return bad ? 1 : 0;
}
