/* `cybershake stage fetch|push`: the staging of cs_stage.h as a command (the workflow's stage
 * and push steps run it). */
#include <stdio.h>
#include <string.h>

#include "cs_cli.h"
#include "wf_cli.h"
#include "cs_opt.h"
#include "cs_stage.h"

int cs_stage_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake stage fetch URL DEST [--sha256 HEX] [--retries N] [--timeout S]\n"
        "                  [--min-speed B] [--deadline S] [--retry-delay S]\n"
        "       cybershake stage push FILE URL [--retries N] [--timeout S] [--deadline S]\n\n"
        "fetch: downloads a file://, http:// or https:// URL to DEST through DEST.part,\n"
        "resuming an interrupted transfer with a range request only from the same file (its\n"
        "ETag or Last-Modified, kept in DEST.part.validator, sent as If-Range; otherwise it\n"
        "starts over), retrying time-outs, dropped connections, 429 and 5xx with doubling\n"
        "pauses (--retries, 5; --retry-delay, 1 s), following redirects only to the same\n"
        "scheme, verifying TLS and, with --sha256, the checksum before DEST appears. push:\n"
        "PUTs FILE to URL and its SHA-256 to URL.sha256.\n"
        "--timeout S: a transfer slower than --min-speed bytes/s (1024) for S seconds (60) is\n"
        "abandoned and retried. --deadline S: the whole fetch or push, retries and pauses\n"
        "included, fails after S seconds (86400; 0: none).\n";
    if (cs_cli_wants_help(argc, argv) || argc < 2) return fputs(help, stdout), argc < 2 ? 2 : 0;
    cs_fetch_options fo;
    cs_fetch_defaults(&fo);
    const char *sha = NULL;
    long retries = fo.retries;
    double timeout = fo.stall_timeout, delay = fo.retry_delay, speed = fo.min_speed,
           deadline = fo.deadline;
    const cs_opt opts[] = {
        CS_OPT_STR("sha256", &sha),
        CS_OPT_INT("retries", &retries, 0, 100, "needs a number in [0, 100]"),
        CS_OPT_NUM("timeout", &timeout, 1, 86400, "needs a number in [1, 86400]"),
        CS_OPT_NUM("retry-delay", &delay, 0, 3600, "needs a number in [0, 3600]"),
        CS_OPT_NUM("min-speed", &speed, 1, 1e12, "needs bytes per second, at least 1"),
        CS_OPT_NUM("deadline", &deadline, 0, 1e7, "needs seconds in [0, 1e7] (0: none)"),
    };
    char rule[64];
    snprintf(rule, sizeof rule, "expects two arguments after %s", argv[1]);
    /* the subcommand word is the first positional argument */
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, (int)(sizeof opts / sizeof *opts), 3, 3, rule,
                           &first, &npos);
    if (prc) return prc;
    const char *verb = argv[first++]; /* getopt_long has moved the options after it */
    fo.retries = (int)retries, fo.stall_timeout = timeout, fo.retry_delay = delay;
    fo.min_speed = speed, fo.deadline = deadline;
    cs_error err;
    cs_error_clear(&err);
    int rc;
    if (!strcmp(verb, "fetch"))
        rc = cs_fetch(argv[first], argv[first + 1], sha, &fo, &err);
    else if (!strcmp(verb, "push"))
        rc = sha ? cs_cli_usage(argv[0], "push takes no --sha256 (it computes it)")
                 : cs_push(argv[first], argv[first + 1], &fo, &err);
    else
        return cs_cli_usage(argv[0], "unknown stage command '%s' (fetch, push)", verb);
    return rc == 2 ? 2 : rc ? cs_cli_fail(argv[0], &err) : 0;
}
