/* Helpers for the command-line entry points: subcommand dispatch, --help, and the mapping of
 * errors to exit status (0 success, 1 bad input or failure, 2 bad usage). */
#ifndef CS_CLI_H
#define CS_CLI_H

#include "cs_error.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's full name */
    const char *summary;
} cs_cli_command;

/* Runs the subcommand named by argv[1]; prints the list on --help or an unknown name. */
int cs_cli_dispatch(const char *prog, const char *intro, const cs_cli_command *cmds, int ncmds,
                    int argc, char **argv);

/* Prints "PROG: MESSAGE" and a pointer to --help; returns 2. */
int cs_cli_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "PROG: error: MESSAGE" from a library error; returns its exit status. */
int cs_cli_fail(const char *prog, const cs_error *err);
/* 1 if any argument is -h or --help. */
int cs_cli_wants_help(int argc, char **argv);

/* An option's number within [lo, hi] ("--vs30 needs a number in [100, 3000], got 'x'"):
 * 0, or the usage exit status 2 after saying so. */
int cs_cli_number(const char *prog, const char *opt, const char *arg, double lo, double hi,
                  double *out);

#endif
