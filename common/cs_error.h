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
#define CS_ERROR_TRACE_MAX   1024

/* message is what the user reads. trace is for developers: the frames "func (file:line)", one
 * a line, from the place that raised the error outwards through every CS_CALL that passed it
 * on; it never changes the message. It is bounded: frames that do not fit are dropped and the
 * trace ends with "...". */
typedef struct {
    cs_status status;
    char message[CS_ERROR_MESSAGE_MAX];
    char trace[CS_ERROR_TRACE_MAX];
    int trace_frames;    /* frames recorded in trace */
    int trace_truncated; /* frames dropped because trace was full */
} cs_error;

/* Status ok, empty message, empty trace. */
void cs_error_clear(cs_error *e);

/* Sets status and a formatted message and starts a fresh trace; returns the status so callers
 * can `return cs_error_set(...)`. The macros of the same names below add the place that raised
 * the error as the trace's first frame. */
int cs_error_set(cs_error *e, cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cs_error_vset(cs_error *e, cs_status status, const char *fmt, va_list ap);

/* Bad input in the canonical form "PLACE: FIELD = 'VALUE': RULE".
 * place is "file:line", a dataset name or a parameter key; field may be NULL. */
int cs_error_input(cs_error *e, const char *place, const char *field, const char *value,
                   const char *rule_fmt, ...) __attribute__((format(printf, 5, 6)));

/* An operating-system failure on a path, with strerror(errno): "PATH: cannot ACTION: REASON".
 * action is what failed ("open", "write the download"), without "cannot" (a leading "cannot "
 * is dropped, so the message never says it twice). */
int cs_error_errno(cs_error *e, const char *path, const char *action);

/* Appends the frame "func (file:line)" to e's trace (nothing when e is NULL); used by the
 * macros below, seldom directly. */
void cs_error_trace(cs_error *e, const char *func, const char *file, int line);

/* The setters with the place that raised the error: they set as above, then record that place
 * as the first frame. Same arguments and result as the functions of the same name. */
int cs_error_set_at(const char *func, const char *file, int line, cs_error *e, cs_status status,
                    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int cs_error_input_at(const char *func, const char *file, int line, cs_error *e, const char *place,
                      const char *field, const char *value, const char *rule_fmt, ...)
    __attribute__((format(printf, 8, 9)));
int cs_error_errno_at(const char *func, const char *file, int line, cs_error *e, const char *path,
                      const char *action);
#define cs_error_set(...)   cs_error_set_at(__func__, __FILE__, __LINE__, __VA_ARGS__)
#define cs_error_input(...) cs_error_input_at(__func__, __FILE__, __LINE__, __VA_ARGS__)
#define cs_error_errno(e, path, action)                                                            \
    cs_error_errno_at(__func__, __FILE__, __LINE__, e, path, action)

/* The one way to pass a callee's failure on (host code only).
 *
 * CS_CALL(err, expr): expr returns a status (0 ok, as cs_error_set returns). On failure it
 * records the caller's frame in err's trace and returns that status from the caller.
 *
 * CS_CALL_GOTO(rc, err, expr, label): for functions with cleanup. Sets rc to expr's status;
 * on failure records the caller's frame and jumps to label (which cleans up and returns rc).
 * Every other way to label must set rc too (`rc = cs_error_set(...); goto label;`). Not in
 * C++ (sgt_cuda.cu), where a goto may not cross an initialisation: use CS_CALL there.
 *
 * CS_TRACE(err): records the caller's frame alone, where a failure is passed on by other means
 * (a NULL result, a status read from err). */
#define CS_TRACE(err) cs_error_trace((err), __func__, __FILE__, __LINE__)

#define CS_CALL(err, expr)                                                                         \
    do {                                                                                           \
        int cs_call_rc_ = (expr);                                                                  \
        if (cs_call_rc_ != 0) {                                                                    \
            CS_TRACE(err);                                                                         \
            return cs_call_rc_;                                                                    \
        }                                                                                          \
    } while (0)

#define CS_CALL_GOTO(rc, err, expr, label)                                                         \
    do {                                                                                           \
        (rc) = (expr);                                                                             \
        if ((rc) != 0) {                                                                           \
            CS_TRACE(err);                                                                         \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

/* Prepends context ("while importing sites: ") to an existing message. */
void cs_error_prefix(cs_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Process exit status for a library status: 0 ok, 2 usage, 1 anything else. */
int cs_exit_code(cs_status status);

const char *cs_status_name(cs_status status);

#endif
