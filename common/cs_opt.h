/* Command-line options from one table: each command declares its options (name, kind, where
 * the value goes, its range and the rule a bad value breaks) instead of writing its own getopt
 * loop. Parsing is getopt_long's (so `--name value`, `--name=value`, permuted positionals and
 * its messages for unknown options stay as users know them); bad values and counts of
 * positional arguments are reported in one form: "PROG: --NAME RULE, got 'VALUE'" and a pointer
 * to --help, exit status 2. */
#ifndef CS_OPT_H
#define CS_OPT_H

#include <float.h>

#include "cs_error.h"

typedef enum {
    CS_OPT_STRING, /* const char ** */
    CS_OPT_DOUBLE, /* double *, within [lo, hi] */
    CS_OPT_LONG,   /* long *, within [lo, hi] */
    CS_OPT_FLAG,   /* int *, set to 1; takes no value */
    CS_OPT_CALL    /* call(arg, target, err) parses; CS_ERR_USAGE is bad usage, else a failure */
} cs_opt_kind;

typedef struct {
    const char *name; /* without the leading -- */
    cs_opt_kind kind;
    void *target;
    double lo, hi;    /* CS_OPT_DOUBLE, CS_OPT_LONG: accepted range (inclusive) */
    const char *rule; /* CS_OPT_DOUBLE, CS_OPT_LONG: "needs 1 to 10000" (the usage message) */
    int (*call)(const char *arg, void *target, cs_error *err); /* CS_OPT_CALL */
} cs_opt;

#define CS_OPT_STR(n, t)                                                                           \
    { (n), CS_OPT_STRING, (t), 0, 0, NULL, NULL }
#define CS_OPT_NUM(n, t, lo, hi, rule)                                                             \
    { (n), CS_OPT_DOUBLE, (t), (lo), (hi), (rule), NULL }
/* A number > 0 (the smallest positive double up: cs_parse_double refuses infinities). */
#define CS_OPT_POS(n, t, rule) CS_OPT_NUM((n), (t), DBL_TRUE_MIN, DBL_MAX, (rule))
#define CS_OPT_INT(n, t, lo, hi, rule)                                                             \
    { (n), CS_OPT_LONG, (t), (lo), (hi), (rule), NULL }
#define CS_OPT_SET(n, t)                                                                           \
    { (n), CS_OPT_FLAG, (t), 0, 0, NULL, NULL }
#define CS_OPT_FN(n, t, fn)                                                                        \
    { (n), CS_OPT_CALL, (t), 0, 0, NULL, (fn) }

/* Parses argv[1..] by the table. On success returns 0 with *first pointing at the first
 * positional argument in argv (getopt_long moves them to the end) and *npos their count, which
 * must lie within [min_pos, max_pos] (max_pos < 0: no limit; otherwise pos_rule is the usage
 * message, e.g. "expects STUDY and SITE"). Otherwise it has printed the usage or failure message
 * and returns the exit status (2 bad usage, 1 a CS_OPT_CALL's failure). */
int cs_opt_parse(const char *prog, int argc, char **argv, const cs_opt *opts, int nopts,
                 int min_pos, int max_pos, const char *pos_rule, int *first, int *npos);

#endif
