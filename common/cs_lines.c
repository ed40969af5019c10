#include "cs_lines.h"

#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

int cs_lines_open(cs_lines *r, const char *path, const char *what, cs_error *err) {
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) {
        char action[128];
        snprintf(action, sizeof action, "open %s", what);
        return cs_error_errno(err, path, action);
    }
    return 0;
}

char *cs_lines_next(cs_lines *r) {
    while (cs_read_line(r->f, &r->buf, &r->cap)) {
        r->line++;
        char *s = cs_trim(r->buf);
        if (!*s || *s == '#') continue;
        snprintf(r->place, sizeof r->place, "%s:%d", r->path, r->line);
        cs_copy(r->copy, sizeof r->copy, s);
        return s;
    }
    return NULL;
}

void cs_lines_close(cs_lines *r) {
    if (r->f) fclose(r->f);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

int cs_parse_numbers(char *line, double *vals, int max) {
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        if (n == max) return max + 1;
        if (cs_parse_double(tok, &vals[n])) return -1;
        n++;
    }
    return n;
}
