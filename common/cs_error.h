/* Error reporting shared by every library of the toolkit.
 *
 * Libraries never print and never exit: they fill a cs_error and return its status, so that
 * the command-line entry point (the only place that exits) decides what the user sees. A
 * message always names the place (file:line, dataset or field), the offending value and the
 * rule it broke, so the user knows what to change. */
#ifndef CS_ERROR_H
#define CS_ERROR_H

#include <stdarg.h>

typedef enum {
    CS_OK = 0,
    CS_ERR_INPUT = 1,    /* the input broke a rule: bad value, malformed file */
    CS_ERR_USAGE = 2,    /* the command line itself is wrong */
    CS_ERR_IO = 3,       /* the operating system refused (open, write, rename) */
    CS_ERR_RESOURCE = 4, /* not enough memory, device, disk */
    CS_ERR_INTERNAL = 5, /* a bug or an unexpected library failure */
    CS_ERR_PEER = 6      /* another MPI rank failed (and reported why) */
} cs_status;

#define CS_ERROR_MESSAGE_MAX 2048

typedef struct {
    cs_status status;
    char message[CS_ERROR_MESSAGE_MAX];
} cs_error;

void cs_error_clear(cs_error *e);

/* Sets status and a formatted message; returns the status so callers can `return
 * cs_error_set(...)`. */
int cs_error_set(cs_error *e, cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cs_error_vset(cs_error *e, cs_status status, const char *fmt, va_list ap);

/* Bad input in the canonical form "PLACE: FIELD = 'VALUE': RULE".
 * place is "file:line", a dataset name or a parameter key; field may be NULL. */
int cs_error_input(cs_error *e, const char *place, const char *field, const char *value,
                   const char *rule_fmt, ...) __attribute__((format(printf, 5, 6)));

/* An operating-system failure on a path, with strerror(errno). */
int cs_error_errno(cs_error *e, const char *path, const char *action);

/* Prepends context ("while importing sites: ") to an existing message. */
void cs_error_prefix(cs_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Process exit status for a library status: 0 ok, 2 usage, 1 anything else. */
int cs_exit_code(cs_status status);

const char *cs_status_name(cs_status status);

#endif
