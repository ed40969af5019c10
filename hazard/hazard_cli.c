/* `cybershake hazard ...`: hazard curves of a run, stored in the study, exported as CSV and
 * drawn. */
#include <math.h>
#include <stdio.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "curve_report.h"
#include "hazard_cli.h"

static int cmd_curve(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard curve STUDY RUN_ID|SITE --im 'RotD50 3.0' [--levels L1,L2,...]\n"
        "          [--csv FILE.csv] [--plot FILE.png|FILE.svg]\n"
        "          [--gmpe MODEL[:WEIGHT],...] [--vs30 M/S] [--z1 M] [--z2p5 KM]\n"
        "          [--truncation N]\n\n"
        "The hazard curve of a run (or of a site's newest finished run): P(IM > x) =\n"
        "1 - prod_r (1 - P_r)^f_r(x), f_r the fraction of rupture r's variations above x, at\n"
        "--levels (default 51 levels log-spaced from 1e-4 to 10, in the IM's units: g for SA\n"
        "and PGA). Stored in Hazard_Curves and Hazard_Curve_Points (probability over the\n"
        "forecast's time span) under a Hazard_Dataset recording the inputs; --csv writes it in\n"
        "OpenQuake's hazard-curve layout, --plot draws it (annual probability of exceedance,\n"
        "lines at 2% and 10% in 50 years). --im takes 'COMPONENT PERIOD' for SA ('RotD50 3.0',\n"
        "'geometric mean 5'), 'MEASURE PERIOD COMPONENT' for SA, FAS and the period-dependent\n"
        "durations ('SA 3 Z', 'FAS 5 EAS' at 1/5 Hz, 'D5-95 10 E'), or 'MEASURE COMPONENT'\n"
        "('PGA RotD50', 'PGV E'). Only IMs within the run's band are integrated (SA and FAS at\n"
        "T >= 1/fmax, durations at T >= sqrt(2)/fmax, band-limited PGV; not PGA, Arias, CAV or\n"
        "the broadband durations): another is refused with the rule (docs/extract.md, \"The\n"
        "band\").\n"
        "--gmpe bssa14,sadigh97,cy14,i14,cb14,ask14 (up to 5) adds classical curves of those\n"
        "models over the same ruptures (the same integrator; --vs30, default the site's or 760\n"
        "m/s; --z1 (m) and --z2p5 (km), default the site's, else unknown: each model's own\n"
        "estimate or no basin term; --truncation N sigmas, default none), stored and drawn on\n"
        "the same plot, and with --csv written beside it (FILE_gmpe_MODEL.csv). Weights\n"
        "(--gmpe ask14:0.22,bssa14:0.22,cb14:0.22,cy14:0.22,i14:0.12, the NSHM 2014/2018\n"
        "western-US weights; every model weighted, summing to 1) add their weighted mean, the\n"
        "mean of the models' probabilities of exceedance, stored, drawn and written\n"
        "(FILE_gmpe_mean.csv).\n"
        "docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    curve_request rq = {.vs30 = NAN, .z1_m = NAN, .z2p5_km = NAN};
    const cs_opt opts[] = {
        CS_OPT_STR("im", &rq.im),
        CS_OPT_STR("levels", &rq.levels),
        CS_OPT_STR("csv", &rq.csv),
        CS_OPT_STR("plot", &rq.plot),
        CS_OPT_STR("gmpe", &rq.gmpe),
        CS_OPT_NUM("vs30", &rq.vs30, 100, 3000, "(m/s) needs a number in [100, 3000]"),
        CS_OPT_NUM("z1", &rq.z1_m, 0, 10000, "(m) needs a number in [0, 10000]"),
        CS_OPT_NUM("z2p5", &rq.z2p5_km, 0, 20, "(km) needs a number in [0, 20]"),
        CS_OPT_NUM("truncation", &rq.truncation, 0.1, 10, "(sigmas) needs a number in [0.1, 10]"),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 2, 2,
                           "expects STUDY and RUN_ID or SITE", &first, &npos);
    if (prc) return prc;
    if (!rq.im) return cs_cli_usage(argv[0], "--im is required (e.g. --im 'RotD50 3.0')");
    rq.study = argv[first];
    rq.run = argv[first + 1];
    cs_error err;
    cs_error_clear(&err);
    return hazard_curve_report(&rq, stdout, &err) ? cs_cli_fail(argv[0], &err) : 0;
}

int cs_hazard_cli_main(int argc, char **argv) {
    static const cs_cli_command cmds[] = {
        {"curve", cmd_curve, "the hazard curve of a run: store, CSV, plot"},
        {"disagg", cs_disagg_cli_main,
         "disaggregate a run's curve by M, Rrup, epsilon and rupture"},
        {"gmpe-curve", cs_hazard_gmpe_curve_main,
         "classical PSHA over a whole forecast with a ground-motion model"},
        {"map", cs_hazard_map_main, "an IM at a probability over the study's sites (map, CSV)"},
        {"uhs", cs_hazard_uhs_main, "the uniform hazard spectrum of a run (table, CSV, plot)"},
        {"peer", cs_hazard_peer_main,
         "a PEER PSHA verification case (Set 1) with Sadigh et al. 1997"},
    };
    return cs_cli_dispatch("cybershake hazard", "Hazard curves of a study's runs.", cmds,
                           (int)(sizeof cmds / sizeof cmds[0]), argc, argv);
}
