/* `cybershake hazard gmpe-curve`: classical PSHA at a site over a whole forecast with a
 * ground-motion model, no simulation: every rupture of the forecast within --max-distance, its
 * magnitude, probability and rake from the study, its distances from its surface points
 * (forecast.h: faults, point sources, area sources), the model's median and sigma, and the
 * curve by the same integrator as the simulated curves. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "gmpe_psha.h"
#include "gmpe_report.h"
#include "hazard_cli.h"

int cs_hazard_gmpe_curve_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard gmpe-curve STUDY SITE --erf NAME --im 'RotD50 3.0'\n"
        "          [--gmpe MODEL[:WEIGHT],...] [--vs30 M/S] [--z1 M] [--z2p5 KM]\n"
        "          [--sigma untruncated|upper|two-sided|zero]\n"
        "          [--truncation N] [--max-distance KM] [--levels L1,L2,...] [--csv PREFIX]\n"
        "          [--plot FILE.png|svg] [--ruptures FILE.csv]\n\n"
        "Classical PSHA at a site over a whole forecast, without simulations: every rupture of\n"
        "forecast NAME within --max-distance km (200) of the site, its magnitude, probability\n"
        "and rake from the study, Rrup, Rjb, Rx (GC2) and Ztor from its surface points (a\n"
        "one-point rupture is a point source; the points of an 'area' rupture are equally\n"
        "likely point sources), the model's median and sigma (--gmpe bssa14,sadigh97,cy14,i14,\n"
        "cb14,ask14, up to 5, default bssa14; Vs30 from --vs30, the site's, or 760 m/s; Z1.0\n"
        "(m) and Z2.5 (km) from --z1 and --z2p5, the site's, or unknown: each model's own\n"
        "estimate or no basin term), P(IM > x) by the same integrator as the\n"
        "simulated curves. --sigma: untruncated (default); upper (truncated at --truncation N\n"
        "sigmas, 3 by default, renormalised over the upper tail, as nshmp-haz does); two-sided\n"
        "(truncated on both sides, renormalised over both); zero (the median only: a step per\n"
        "rupture). Stored as curves of the site without a run (Hazard_Curves.Site_ID) under a\n"
        "dataset naming the model, printed at 2% and 10% in 50 years, written as OpenQuake CSV\n"
        "(--csv PREFIX: PREFIX_MODEL.csv) and drawn together (--plot); --ruptures writes each\n"
        "rupture's magnitude, probability, mechanism and distances. Weights (--gmpe\n"
        "ask14:0.22,bssa14:0.22,cb14:0.22,cy14:0.22,i14:0.12, the NSHM 2014/2018 western-US\n"
        "weights; every model weighted, summing to 1) add the weighted mean curve, the mean of\n"
        "the models' probabilities of exceedance: stored, printed, written (PREFIX_mean.csv)\n"
        "and drawn. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    gmpe_request rq = {.models = "bssa14",
                       .sigma = "untruncated",
                       .truncation = 3,
                       .vs30 = NAN,
                       .z1_m = NAN,
                       .z2p5_km = NAN,
                       .max_km = 200};
    const cs_opt opts[] = {
        CS_OPT_STR("erf", &rq.erf),
        CS_OPT_STR("im", &rq.im),
        CS_OPT_STR("gmpe", &rq.models),
        CS_OPT_NUM("vs30", &rq.vs30, 100, 3000, "needs a number in [100, 3000]"),
        CS_OPT_NUM("z1", &rq.z1_m, 0, 10000, "(m) needs a number in [0, 10000]"),
        CS_OPT_NUM("z2p5", &rq.z2p5_km, 0, 20, "(km) needs a number in [0, 20]"),
        CS_OPT_STR("sigma", &rq.sigma),
        CS_OPT_NUM("truncation", &rq.truncation, 0.5, 10, "needs a number in [0.5, 10]"),
        CS_OPT_NUM("max-distance", &rq.max_km, 1, 2000, "needs a number in [1, 2000]"),
        CS_OPT_STR("levels", &rq.levels),
        CS_OPT_STR("csv", &rq.csv),
        CS_OPT_STR("plot", &rq.plot),
        CS_OPT_STR("ruptures", &rq.ruptures),
    };
    int first, npos;
    int rc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 2, 2,
                          "expects STUDY and SITE", &first, &npos);
    if (rc) return rc;
    if (!rq.erf || !rq.im) return cs_cli_usage(argv[0], "needs --erf and --im");
    rq.mode = gmpe_psha_mode(rq.sigma);
    if (rq.mode < 0)
        return cs_cli_usage(argv[0], "--sigma is untruncated, upper, two-sided or zero, got '%s'",
                            rq.sigma);
    rq.study = argv[first];
    rq.site = argv[first + 1];
    cs_error err;
    cs_error_clear(&err);
    rc = gmpe_report(&rq, stdout, &err);
    if (rc == CS_ERR_USAGE) return cs_cli_usage(argv[0], "%s", err.message);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
