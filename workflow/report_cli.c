/* `cybershake report`: a static HTML report of a study (workflow/wf_report.h). */
#include <stdio.h>

#include "cs_cli.h"
#include "cs_opt.h"
#include "wf_report.h"

int cs_report_cli_main(int argc, char **argv);

int cs_report_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake report STUDY --out DIR [--top N]\n\n"
        "A static HTML report of the study in DIR (DIR/index.html with the plots as PNG files\n"
        "beside it; inline CSS, no scripts, nothing fetched: open it from the disk): a map of\n"
        "the sites at 2% in 50 years for each IM with curves, and for each run with hazard\n"
        "curves its curves (with the GMPE curves stored beside them), uniform hazard spectrum\n"
        "(RotD50, 2% and 10% in 50 years), stored disaggregations (M x Rrup x epsilon) with\n"
        "their leading ruptures, the --top N ruptures (5) that dominate them with variation 0's\n"
        "seismogram from the run's seismogram file, and the run's provenance: forecast, hazard\n"
        "datasets (with the cybershake version that made them), the workflow's configuration\n"
        "and its SHA-256, steps and commands, and every file recorded with its checksum.\n"
        "Written into a temporary folder beside DIR and renamed into place; a report already\n"
        "in DIR is replaced, any other existing DIR is refused. docs/workflow.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *out = NULL;
    long top = 5;
    const cs_opt opts[] = {CS_OPT_STR("out", &out),
                           CS_OPT_INT("top", &top, 1, 50, "needs 1 to 50")};
    int first, npos;
    int rc = cs_opt_parse(argv[0], argc, argv, opts, 2, 1, 1, "expects one argument: STUDY", &first,
                          &npos);
    if (rc) return rc;
    if (!out) return cs_cli_usage(argv[0], "--out DIR is required");
    wf_report_request rq = {argv[first], out, (int)top};
    cs_error err;
    cs_error_clear(&err);
    return wf_report(&rq, stdout, &err) ? cs_cli_fail(argv[0], &err) : 0;
}
