/* `cybershake stage fetch|push`: the staging of wf_stage.h as a command (the workflow's stage
 * and push steps run it). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cs_cli.h"
#include "wf_stage.h"

int cs_stage_cli_main(int argc, char **argv);

int cs_stage_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake stage fetch URL DEST [--sha256 HEX] [--retries N] [--timeout S]\n"
        "       cybershake stage push FILE URL [--retries N] [--timeout S]\n\n"
        "fetch: downloads a file://, http:// or https:// URL to DEST through DEST.part,\n"
        "resuming an interrupted transfer with a range request, retrying time-outs, dropped\n"
        "connections, 429 and 5xx with doubling pauses (--retries, 5), following redirects\n"
        "only to the same scheme, verifying TLS and, with --sha256, the checksum before DEST\n"
        "appears. push: PUTs FILE to URL and its SHA-256 to URL.sha256. --timeout: seconds\n"
        "without progress before a transfer is abandoned and retried (60).\n";
    if (cs_cli_wants_help(argc, argv) || argc < 2) return fputs(help, stdout), argc < 2 ? 2 : 0;
    wf_fetch_options fo;
    wf_fetch_defaults(&fo);
    const char *sha = NULL;
    static const struct option opts[] = {{"sha256", required_argument, 0, 's'},
                                         {"retries", required_argument, 0, 'r'},
                                         {"timeout", required_argument, 0, 't'},
                                         {"retry-delay", required_argument, 0, 'd'},
                                         {0}};
    optind = 2;
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        double v;
        switch (ch) {
        case 's':
            sha = optarg;
            break;
        case 'r':
            if (cs_cli_number(argv[0], "--retries", optarg, 0, 100, &v)) return 2;
            fo.retries = (int)v;
            break;
        case 't':
            if (cs_cli_number(argv[0], "--timeout", optarg, 1, 86400, &v)) return 2;
            fo.stall_timeout = v;
            break;
        case 'd':
            if (cs_cli_number(argv[0], "--retry-delay", optarg, 0, 3600, &v)) return 2;
            fo.retry_delay = v;
            break;
        default:
            return cs_cli_usage(argv[0], "unknown option");
        }
    }
    if (optind != argc - 2) return cs_cli_usage(argv[0], "expects two arguments after %s", argv[1]);
    cs_error err;
    cs_error_clear(&err);
    int rc;
    if (!strcmp(argv[1], "fetch"))
        rc = wf_fetch(argv[optind], argv[optind + 1], sha, &fo, &err);
    else if (!strcmp(argv[1], "push"))
        rc = sha ? cs_cli_usage(argv[0], "push takes no --sha256 (it computes it)")
                 : wf_push(argv[optind], argv[optind + 1], &fo, &err);
    else
        return cs_cli_usage(argv[0], "unknown stage command '%s' (fetch, push)", argv[1]);
    return rc == 2 ? 2 : rc ? cs_cli_fail(argv[0], &err) : 0;
}
