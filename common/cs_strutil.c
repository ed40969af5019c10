#include "cs_strutil.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cs_trim(char *s) {
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* cs_parse_double, cs_parse_long and cs_copy answer yes or no (0 or -1, cs_strutil.h) and set
 * no cs_error: the caller knows the field and value, and names them in its message. */
int cs_parse_double(const char *s, double *out) {
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* ERANGE on underflow still gives the nearest double (a tiny number or zero): a number;
     * on overflow it gives HUGE_VAL, refused below */
    if (end == s || (errno == ERANGE && fabs(v) > 1.0)) return -1;
    while (*end && isspace((unsigned char)*end))
        end++;
    if (*end) return -1;
    if (!isfinite(v)) return -1;
    *out = v;
    return 0;
}

int cs_parse_long(const char *s, long *out) {
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno == ERANGE) return -1;
    while (*end && isspace((unsigned char)*end))
        end++;
    if (*end) return -1;
    *out = v;
    return 0;
}

int cs_copy(char *dst, size_t size, const char *src) {
    if (size == 0) return -1;
    size_t n = strlen(src);
    if (n >= size) {
        memcpy(dst, src, size - 1);
        dst[size - 1] = '\0';
        return -1;
    }
    memcpy(dst, src, n + 1);
    return 0;
}

char *cs_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int cs_starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

char *cs_read_line(void *file, char **buf, size_t *cap) {
    FILE *f = file;
    size_t len = 0;
    if (!*buf || *cap < 256) {
        size_t want = 256;
        char *nb = realloc(*buf, want);
        if (!nb) return NULL;
        *buf = nb;
        *cap = want;
    }
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 2 > *cap) {
            char *nb = realloc(*buf, *cap * 2);
            if (!nb) return NULL;
            *buf = nb;
            *cap *= 2;
        }
        if (c == '\n') break;
        (*buf)[len++] = (char)c;
    }
    if (c == EOF && len == 0) return NULL;
    if (len > 0 && (*buf)[len - 1] == '\r') len--;
    (*buf)[len] = '\0';
    return *buf;
}

uint64_t cs_fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void cs_safe_name(const char *text, char *out, size_t size) {
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < size; c++) {
        char ch = *c;
        if (ch == '%') {
            const char *pct = "pct";
            for (int i = 0; pct[i] && n + 1 < size; i++)
                out[n++] = pct[i];
            continue;
        }
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '-' || ch == '_';
        if (!ok) ch = '_';
        if (ch == '_' && n > 0 && out[n - 1] == '_') continue;
        if (n == 0 && ch == '.') ch = '_';
        out[n++] = ch;
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = 0;
    if (n == 0) cs_copy(out, size, "file");
}
