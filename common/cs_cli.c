#include "cs_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

int cs_cli_usage(const char *prog, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nsee '%s --help'\n", prog);
    return 2;
}

int cs_cli_fail(const char *prog, const cs_error *err) {
    fprintf(stderr, "%s: error: %s\n", prog, err->message[0] ? err->message : "unknown error");
    /* For developers: where the error was raised and every CS_CALL that passed it on. */
    const char *want = getenv("CYBERSHAKE_ERROR_TRACE");
    if (want && !strcmp(want, "1") && err->trace[0]) {
        fprintf(stderr, "%s: error trace (raised first):\n", prog);
        const char *p = err->trace;
        while (*p) {
            size_t n = strcspn(p, "\n");
            fprintf(stderr, "  at %.*s\n", (int)n, p);
            p += n;
            if (*p) p++;
        }
    }
    return cs_exit_code(err->status);
}

int cs_cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) break;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 1;
    }
    return 0;
}

static void list_commands(FILE *f, const char *prog, const char *intro, const cs_cli_command *cmds,
                          int n) {
    fprintf(f, "%s\n\nusage: %s COMMAND [ARGS...]\n\ncommands:\n", intro, prog);
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-14s %s\n", cmds[i].name, cmds[i].summary);
    fprintf(f, "\n'%s COMMAND --help' describes each command.\n", prog);
}

int cs_cli_dispatch(const char *prog, const char *intro, const cs_cli_command *cmds, int ncmds,
                    int argc, char **argv) {
    if (argc < 2) {
        list_commands(stderr, prog, intro, cmds, ncmds);
        return 2;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
        list_commands(stdout, prog, intro, cmds, ncmds);
        return 0;
    }
    for (int i = 0; i < ncmds; i++) {
        if (strcmp(cmds[i].name, name)) continue;
        char full[256];
        snprintf(full, sizeof full, "%s %s", prog, name);
        argv[1] = full;
        return cmds[i].run(argc - 1, argv + 1);
    }
    return cs_cli_usage(prog, "unknown command '%s'", name);
}

int cs_cli_number(const char *prog, const char *opt, const char *arg, double lo, double hi,
                  double *out) {
    if (cs_parse_double(arg, out) || !(*out >= lo && *out <= hi))
        return cs_cli_usage(prog, "%s needs a number in [%g, %g], got '%s'", opt, lo, hi, arg);
    return 0;
}
