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
        "          [--gmpe bssa14,sadigh97,cy14,i14,cb14,ask14] [--vs30 M/S] [--sigma "
        "untruncated|upper|two-sided|zero]\n"
        "          [--truncation N] [--max-distance KM] [--levels L1,L2,...] [--csv PREFIX]\n"
        "          [--plot FILE.png|svg] [--ruptures FILE.csv]\n\n"
        "Classical PSHA at a site over a whole forecast, without simulations: every rupture of\n"
        "forecast NAME within --max-distance km (200) of the site, its magnitude, probability\n"
        "and rake from the study, Rrup, Rjb, Rx (GC2) and Ztor from its surface points (a\n"
        "one-point rupture is a point source; the points of an 'area' rupture are equally\n"
        "likely point sources), the model's median and sigma (--gmpe, up to 5, default bssa14;\n"
        "Vs30 from --vs30, the site's, or 760 m/s), P(IM > x) by the same integrator as the\n"
        "simulated curves. --sigma: untruncated (default); upper (truncated at --truncation N\n"
        "sigmas, 3 by default, renormalised over the upper tail, as nshmp-haz does); two-sided\n"
        "(truncated on both sides, renormalised over both); zero (the median only: a step per\n"
        "rupture). Stored as curves of the site without a run (Hazard_Curves.Site_ID) under a\n"
        "dataset naming the model, printed at 2% and 10% in 50 years, written as OpenQuake CSV\n"
        "(--csv PREFIX: PREFIX_MODEL.csv) and drawn together (--plot); --ruptures writes each\n"
        "rupture's magnitude, probability, mechanism and distances. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    gmpe_request rq = {
        .models = "bssa14", .sigma = "untruncated", .truncation = 3, .vs30 = NAN, .max_km = 200};
    const cs_opt opts[] = {
        CS_OPT_STR("erf", &rq.erf),
        CS_OPT_STR("im", &rq.im),
        CS_OPT_STR("gmpe", &rq.models),
        CS_OPT_NUM("vs30", &rq.vs30, 100, 3000, "needs a number in [100, 3000]"),
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
