/* `cybershake hazard disagg` (and `cybershake db disagg`): a run's hazard disaggregated at a level
 * or a probability, stored, printed and drawn. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "hazard_cli.h"
#include "disagg_report.h"

static int m_bins(const char *arg, void *t, cs_error *err) {
    disagg_bins *b = t;
    return disagg_parse_edges(arg, "--m-bins", b->m, &b->nm, err);
}
static int r_bins(const char *arg, void *t, cs_error *err) {
    disagg_bins *b = t;
    return disagg_parse_edges(arg, "--r-bins", b->r, &b->nr, err);
}
static int eps_bins(const char *arg, void *t, cs_error *err) {
    disagg_bins *b = t;
    return disagg_parse_edges(arg, "--eps-bins", b->e, &b->ne, err);
}

int cs_disagg_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard disagg STUDY RUN_ID|SITE --im 'RotD50 3.0'\n"
        "          (--poe '2% in 50 yr' | --poe ANNUAL | --level X) [--top N]\n"
        "          [--m-bins E1,E2,...] [--r-bins ...] [--eps-bins ...] [--plot FILE.png|svg]\n"
        "          [--if-reached]\n\n"
        "Disaggregates the run's hazard curve at a level (--level, in the IM's units) or at an\n"
        "annual probability of exceedance (--poe): each rupture's share lambda_r P(IM > x | r)\n"
        "of the total, the same exceedance rule as the curve. Prints the mean and modal\n"
        "magnitude, Rrup and epsilon, the --top N ruptures (10), and the M x Rrup table;\n"
        "stores it (Disaggregations, Disagg_Bins, Disagg_Ruptures); --plot draws the M x Rrup\n"
        "contributions. Default bins: PEER Set 2 Case 1's (M 5-7 by 0.1, Rrup 0-100 km by 20,\n"
        "epsilon -1..2 by 1, open bins beyond). --if-reached: a --poe the curve never reaches is\n"
        "reported (and drawn as a note with --plot), stores nothing and exits 0, as the\n"
        "workflow asks for it. Also 'cybershake db disagg'. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    disagg_request rq = {.level = NAN, .top = 10};
    disagg_default_bins(&rq.bins);
    const cs_opt opts[] = {
        CS_OPT_STR("im", &rq.im),
        CS_OPT_STR("poe", &rq.poe),
        CS_OPT_NUM("level", &rq.level, DBL_TRUE_MIN, INFINITY, "needs a positive number"),
        CS_OPT_INT("top", &rq.top, 1, 10000, "needs 1 to 10000"),
        CS_OPT_FN("m-bins", &rq.bins, m_bins),
        CS_OPT_FN("r-bins", &rq.bins, r_bins),
        CS_OPT_FN("eps-bins", &rq.bins, eps_bins),
        CS_OPT_STR("plot", &rq.plot),
        CS_OPT_SET("if-reached", &rq.if_reached),
    };
    int first, npos;
    int rc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 2, 2,
                          "expects STUDY and RUN_ID or SITE", &first, &npos);
    if (rc) return rc;
    if (!rq.im) return cs_cli_usage(argv[0], "--im is required");
    if (!rq.poe == isnan(rq.level)) return cs_cli_usage(argv[0], "give one of --poe and --level");
    rq.study = argv[first];
    rq.run = argv[first + 1];
    cs_error err;
    cs_error_clear(&err);
    return disagg_report(&rq, stdout, &err) ? cs_cli_fail(argv[0], &err) : 0;
}
