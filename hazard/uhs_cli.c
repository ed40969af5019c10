/* `cybershake hazard uhs`: the uniform hazard spectrum of a site at a probability. */
#include <stdio.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "hazard_cli.h"
#include "uhs_report.h"

static int add_poe(const char *arg, void *t, cs_error *err) {
    uhs_request *rq = t;
    if (rq->npoe == UHS_MAX_POE) return cs_error_set(err, CS_ERR_USAGE, "at most 8 --poe");
    rq->poe[rq->npoe++] = arg;
    return 0;
}

int cs_hazard_uhs_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard uhs STUDY RUN_ID|SITE [--poe '2% in 50 yr']...\n"
        "          [--component RotD50] [--plot FILE.png|svg] [--csv FILE.csv]\n\n"
        "The uniform hazard spectrum of a run: at each SA period the run has (component\n"
        "RotD50 unless --component), the spectral acceleration whose annual probability of\n"
        "exceedance is --poe (repeatable; default 2% and 10% in 50 years), from the run's\n"
        "values with the curves' rule. Printed, written as CSV (period, then one column per\n"
        "probability) and drawn (SA against period, log-log). docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    uhs_request rq = {.component = "RotD50"};
    const cs_opt opts[] = {CS_OPT_FN("poe", &rq, add_poe), CS_OPT_STR("component", &rq.component),
                           CS_OPT_STR("plot", &rq.plot), CS_OPT_STR("csv", &rq.csv)};
    int first, npos;
    int rc = cs_opt_parse(argv[0], argc, argv, opts, 4, 2, 2, "expects STUDY and RUN_ID|SITE",
                          &first, &npos);
    if (rc) return rc;
    if (!rq.npoe) rq.poe[rq.npoe++] = "2% in 50 yr", rq.poe[rq.npoe++] = "10% in 50 yr";
    rq.study = argv[first];
    rq.run = argv[first + 1];
    cs_error err;
    cs_error_clear(&err);
    return hazard_uhs_report(&rq, stdout, &err) ? cs_cli_fail(argv[0], &err) : 0;
}
