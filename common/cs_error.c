#include "cs_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* This file defines the functions that the header's macros of the same names wrap. */
#undef cs_error_set
#undef cs_error_input
#undef cs_error_errno

static void trace_reset(cs_error *e) {
    e->trace[0] = '\0';
    e->trace_frames = 0;
    e->trace_truncated = 0;
}

void cs_error_clear(cs_error *e) {
    if (!e) return;
    e->status = CS_OK;
    e->message[0] = '\0';
    trace_reset(e);
}

void cs_error_trace(cs_error *e, const char *func, const char *file, int line) {
    if (!e) return;
    static const char more[] = "...";
    if (e->trace_truncated) {
        e->trace_truncated++;
        return;
    }
    char frame[256];
    int n = snprintf(frame, sizeof frame, "%s (%s:%d)", func ? func : "?", file ? file : "?", line);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof frame) n = (int)sizeof frame - 1;
    size_t used = strlen(e->trace);
    size_t need = (used ? 1 : 0) + (size_t)n;
    /* Room is kept for a final "\n..." so a dropped frame is always visible. */
    if (used + need + sizeof more + 1 > sizeof e->trace) {
        if (used + 1 + sizeof more <= sizeof e->trace)
            snprintf(e->trace + used, sizeof e->trace - used, "%s%s", used ? "\n" : "", more);
        e->trace_truncated = 1;
        return;
    }
    snprintf(e->trace + used, sizeof e->trace - used, "%s%s", used ? "\n" : "", frame);
    e->trace_frames++;
}

int cs_error_vset(cs_error *e, cs_status status, const char *fmt, va_list ap) {
    if (!e) return (int)status;
    e->status = status;
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    trace_reset(e);
    return (int)status;
}

int cs_error_set(cs_error *e, cs_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = cs_error_vset(e, status, fmt, ap);
    va_end(ap);
    return rc;
}

int cs_error_set_at(const char *func, const char *file, int line, cs_error *e, cs_status status,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = cs_error_vset(e, status, fmt, ap);
    va_end(ap);
    cs_error_trace(e, func, file, line);
    return rc;
}

static int error_vinput(cs_error *e, const char *place, const char *field, const char *value,
                        const char *rule_fmt, va_list ap) {
    if (!e) return CS_ERR_INPUT;
    char rule[CS_ERROR_MESSAGE_MAX / 2];
    vsnprintf(rule, sizeof rule, rule_fmt, ap);
    char shown[160];
    /* Long values (a whole malformed line) are cut so the rule stays readable. */
    snprintf(shown, sizeof shown, "%s", value ? value : "");
    if (value && strlen(value) >= sizeof shown) strcpy(shown + sizeof shown - 4, "...");
    if (field && value)
        return cs_error_set(e, CS_ERR_INPUT, "%s: %s = '%s': %s", place, field, shown, rule);
    if (field) return cs_error_set(e, CS_ERR_INPUT, "%s: %s: %s", place, field, rule);
    if (value) return cs_error_set(e, CS_ERR_INPUT, "%s: '%s': %s", place, shown, rule);
    return cs_error_set(e, CS_ERR_INPUT, "%s: %s", place, rule);
}

int cs_error_input(cs_error *e, const char *place, const char *field, const char *value,
                   const char *rule_fmt, ...) {
    va_list ap;
    va_start(ap, rule_fmt);
    int rc = error_vinput(e, place, field, value, rule_fmt, ap);
    va_end(ap);
    return rc;
}

int cs_error_input_at(const char *func, const char *file, int line, cs_error *e, const char *place,
                      const char *field, const char *value, const char *rule_fmt, ...) {
    va_list ap;
    va_start(ap, rule_fmt);
    int rc = error_vinput(e, place, field, value, rule_fmt, ap);
    va_end(ap);
    cs_error_trace(e, func, file, line);
    return rc;
}

int cs_error_errno(cs_error *e, const char *path, const char *action) {
    int saved = errno;
    /* the message says "cannot" itself: an action given as "cannot open ..." would say it
     * twice */
    if (!strncmp(action, "cannot ", 7)) action += 7;
    return cs_error_set(e, CS_ERR_IO, "%s: cannot %s: %s", path, action, strerror(saved));
}

int cs_error_errno_at(const char *func, const char *file, int line, cs_error *e, const char *path,
                      const char *action) {
    int rc = cs_error_errno(e, path, action);
    cs_error_trace(e, func, file, line);
    return rc;
}

void cs_error_prefix(cs_error *e, const char *fmt, ...) {
    if (!e) return;
    char head[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    char joined[CS_ERROR_MESSAGE_MAX];
    snprintf(joined, sizeof joined, "%s%s", head, e->message);
    memcpy(e->message, joined, sizeof joined);
}

int cs_exit_code(cs_status status) {
    if (status == CS_OK) return 0;
    if (status == CS_ERR_USAGE) return 2;
    return 1;
}

const char *cs_status_name(cs_status status) {
    switch (status) {
    case CS_OK:
        return "ok";
    case CS_ERR_INPUT:
        return "bad input";
    case CS_ERR_USAGE:
        return "bad usage";
    case CS_ERR_IO:
        return "i/o error";
    case CS_ERR_RESOURCE:
        return "not enough resources";
    case CS_ERR_INTERNAL:
        return "internal error";
    case CS_ERR_PEER:
        return "another rank failed";
    }
    return "unknown";
}
