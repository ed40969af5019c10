#include "cs_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void cs_error_clear(cs_error *e) {
    if (!e) return;
    e->status = CS_OK;
    e->message[0] = '\0';
}

int cs_error_vset(cs_error *e, cs_status status, const char *fmt, va_list ap) {
    if (!e) return (int)status;
    e->status = status;
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    return (int)status;
}

int cs_error_set(cs_error *e, cs_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = cs_error_vset(e, status, fmt, ap);
    va_end(ap);
    return rc;
}

int cs_error_input(cs_error *e, const char *place, const char *field, const char *value,
                   const char *rule_fmt, ...) {
    if (!e) return CS_ERR_INPUT;
    char rule[CS_ERROR_MESSAGE_MAX / 2];
    va_list ap;
    va_start(ap, rule_fmt);
    vsnprintf(rule, sizeof rule, rule_fmt, ap);
    va_end(ap);
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

int cs_error_errno(cs_error *e, const char *path, const char *action) {
    int saved = errno;
    return cs_error_set(e, CS_ERR_IO, "%s: cannot %s: %s", path, action, strerror(saved));
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
