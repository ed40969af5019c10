#include "cs_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

struct cs_csv {
    FILE *f;
    char *path;
    int line;        /* lines consumed so far */
    int record_line; /* first line of the current record */
    char *buf;       /* field storage */
    size_t cap;
    size_t *offsets;
    size_t nfields, fcap;
    int column; /* of the last character read, 1-based within its line */
    char place[512];
};

/* One character, keeping the column for messages. */
static int next_char(cs_csv *c) {
    int ch = fgetc(c->f);
    c->column = ch == '\n' ? 0 : c->column + 1;
    return ch;
}

int cs_csv_open(const char *path, cs_csv **out, cs_error *err) {
    *out = NULL;
    cs_csv *c = calloc(1, sizeof *c);
    if (!c) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    c->f = fopen(path, "rb");
    if (!c->f) {
        free(c);
        return cs_error_errno(err, path, "open CSV file");
    }
    c->path = cs_strdup(path);
    *out = c;
    return 0;
}

void cs_csv_close(cs_csv *c) {
    if (!c) return;
    if (c->f) fclose(c->f);
    free(c->path);
    free(c->buf);
    free(c->offsets);
    free(c);
}

/* push_char and push_field: 0, or -1 when the buffer cannot grow (the reader reports it: oom). */
static int push_char(cs_csv *c, size_t *len, char ch) {
    if (*len + 1 >= c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 512;
        char *nb = realloc(c->buf, ncap);
        if (!nb) return -1;
        c->buf = nb;
        c->cap = ncap;
    }
    c->buf[(*len)++] = ch;
    return 0;
}

static int push_field(cs_csv *c, size_t start) {
    if (c->nfields == c->fcap) {
        size_t ncap = c->fcap ? c->fcap * 2 : 16;
        size_t *no = realloc(c->offsets, ncap * sizeof *no);
        if (!no) return -1;
        c->offsets = no;
        c->fcap = ncap;
    }
    c->offsets[c->nfields++] = start;
    return 0;
}

int cs_csv_next(cs_csv *c, cs_error *err) {
    for (;;) {
        c->nfields = 0;
        size_t len = 0;
        int ch = next_char(c);
        if (ch == EOF) return 0;
        c->line++;
        c->record_line = c->line;
        /* Skip blank and comment lines. */
        if (ch == '\n' || ch == '#' || ch == '\r') {
            while (ch != '\n' && ch != EOF)
                ch = next_char(c);
            continue;
        }
        int quoted = 0, was_quoted = 0;
        size_t start = 0;
        for (;;) {
            /* fields are C strings: a NUL would silently cut the field short */
            if (ch == '\0')
                return -cs_error_input(err, cs_csv_place(c), NULL, NULL,
                                       "a NUL byte at column %d of line %d (field %zu); the file "
                                       "is not text",
                                       c->column, c->line, c->nfields + 1);
            if (ch == EOF && quoted)
                return -cs_error_input(err, cs_csv_place(c), NULL, NULL,
                                       "quoted field is not closed before end of file");
            if (quoted) {
                if (ch == '"') {
                    int nx = next_char(c);
                    if (nx == '"') {
                        if (push_char(c, &len, '"')) goto oom;
                    } else {
                        quoted = 0;
                        ch = nx;
                        continue;
                    }
                } else {
                    if (ch == '\n') c->line++;
                    if (push_char(c, &len, (char)ch)) goto oom;
                }
                ch = next_char(c);
                continue;
            }
            if (ch == ',' || ch == '\n' || ch == EOF) {
                if (push_char(c, &len, '\0') || push_field(c, start)) goto oom;
                start = len;
                was_quoted = 0;
                if (ch != ',') break;
                ch = next_char(c);
                continue;
            }
            if (ch == '\r') {
                ch = next_char(c);
                continue;
            }
            if (ch == '"') {
                if (len != start || was_quoted)
                    return -cs_error_input(err, cs_csv_place(c), NULL, NULL,
                                           "a quote inside an unquoted field; quote the whole "
                                           "field and double inner quotes");
                quoted = was_quoted = 1;
                ch = next_char(c);
                continue;
            }
            if (push_char(c, &len, (char)ch)) goto oom;
            ch = next_char(c);
        }
        /* Unquoted fields are trimmed, so "34.1, -118.2" reads as two clean numbers. */
        for (size_t i = 0; i < c->nfields; i++) {
            char *f = c->buf + c->offsets[i];
            char *t = cs_trim(f);
            if (t != f) memmove(f, t, strlen(t) + 1);
        }
        return 1;
    }
oom:
    return -cs_error_set(err, CS_ERR_RESOURCE, "out of memory reading %s", c->path);
}

size_t cs_csv_nfields(const cs_csv *c) {
    return c->nfields;
}
const char *cs_csv_field(const cs_csv *c, size_t i) {
    return i < c->nfields ? c->buf + c->offsets[i] : NULL;
}
int cs_csv_line(const cs_csv *c) {
    return c->record_line;
}
const char *cs_csv_path(const cs_csv *c) {
    return c->path;
}
const char *cs_csv_place(cs_csv *c) {
    snprintf(c->place, sizeof c->place, "%s:%d", c->path, c->record_line);
    return c->place;
}
