#include "cs_opt.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>

#include "cs_cli.h"
#include "cs_strutil.h"

/* getopt_long reports an option by its index in the table, offset past every character code. */
enum { OPT_BASE = 256, OPT_MAX = 64 };

static int bad_value(const char *prog, const cs_opt *o, const char *arg) {
    return cs_cli_usage(prog, "--%s %s, got '%s'", o->name, o->rule ? o->rule : "has a bad value",
                        arg);
}

static int take(const char *prog, const cs_opt *o, const char *arg) {
    switch (o->kind) {
    case CS_OPT_STRING:
        *(const char **)o->target = arg;
        return 0;
    case CS_OPT_FLAG:
        *(int *)o->target = 1;
        return 0;
    case CS_OPT_DOUBLE: {
        double v;
        if (cs_parse_double(arg, &v) || !(v >= o->lo && v <= o->hi)) return bad_value(prog, o, arg);
        *(double *)o->target = v;
        return 0;
    }
    case CS_OPT_LONG: {
        long v;
        if (cs_parse_long(arg, &v) || v < o->lo || v > o->hi) return bad_value(prog, o, arg);
        *(long *)o->target = v;
        return 0;
    }
    case CS_OPT_CALL: {
        cs_error err;
        cs_error_clear(&err);
        int rc = o->call(arg, o->target, &err);
        if (rc == CS_ERR_USAGE) return cs_cli_usage(prog, "%s", err.message);
        return rc ? cs_cli_fail(prog, &err) : 0;
    }
    }
    return cs_cli_usage(prog, "--%s: unknown option kind", o->name);
}

int cs_opt_parse(const char *prog, int argc, char **argv, const cs_opt *opts, int nopts,
                 int min_pos, int max_pos, const char *pos_rule, int *first, int *npos) {
    if (nopts > OPT_MAX) return cs_cli_usage(prog, "too many options in its table (%d)", nopts);
    struct option lo[OPT_MAX + 1];
    for (int i = 0; i < nopts; i++)
        lo[i] = (struct option){opts[i].name,
                                opts[i].kind == CS_OPT_FLAG ? no_argument : required_argument, NULL,
                                OPT_BASE + i};
    lo[nopts] = (struct option){0, 0, 0, 0};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c < OPT_BASE || c >= OPT_BASE + nopts) return cs_cli_usage(prog, "unknown option");
        int rc = take(prog, &opts[c - OPT_BASE], optarg);
        if (rc) return rc;
    }
    *first = optind;
    *npos = argc - optind;
    if (*npos < min_pos || (max_pos >= 0 && *npos > max_pos))
        return cs_cli_usage(prog, "%s", pos_rule ? pos_rule : "wrong number of arguments");
    return 0;
}
