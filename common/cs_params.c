#include "cs_params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

typedef struct {
    int set;    /* given or defaulted */
    int given;  /* given explicitly */
    char *text; /* the value as written */
    char where[320];
    double real;
    long integer;
    int boolean;
} param_value;

struct cs_params {
    const cs_param_spec *specs;
    size_t n;
    param_value *values;
};

/* The index of key's spec, or -1: none. */
static int find_spec(const cs_params *p, const char *key) {
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->specs[i].key, key) == 0) return (int)i;
    return -1;
}

/* Edit distance, to suggest the key the user probably meant. */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

static int unknown_key(const cs_params *p, const char *place, const char *key, cs_error *err) {
    const char *best = NULL;
    size_t best_d = 4;
    for (size_t i = 0; i < p->n; i++) {
        size_t d = edit_distance(key, p->specs[i].key);
        if (d < best_d) {
            best_d = d;
            best = p->specs[i].key;
        }
    }
    if (best) return cs_error_input(err, place, NULL, key, "unknown key; did you mean '%s'?", best);
    return cs_error_input(err, place, NULL, key,
                          "unknown key; run with --help to list the keys this file accepts");
}

static int parse_value(const cs_param_spec *s, const char *text, const char *place, param_value *v,
                       cs_error *err) {
    switch (s->type) {
    case CS_PT_REAL: {
        double x;
        int rc = cs_unit_parse(text, s->dim, &x);
        if (rc == -1) return cs_error_input(err, place, s->key, text, "not a number");
        if (rc == -2)
            return cs_error_input(
                err, place, s->key, text, "%s %s needs a unit (%s), e.g. '%s = %s %s'",
                strchr("aeiou", cs_unit_dim_name(s->dim)[0]) ? "an" : "a", cs_unit_dim_name(s->dim),
                cs_unit_accepted(s->dim), s->key, text, cs_unit_si_name(s->dim));
        if (rc == -3) {
            if (s->dim == CS_DIM_NONE)
                return cs_error_input(err, place, s->key, text,
                                      "must be a plain number without a unit");
            return cs_error_input(err, place, s->key, text, "unit must be one of: %s (a %s)",
                                  cs_unit_accepted(s->dim), cs_unit_dim_name(s->dim));
        }
        if (!isfinite(x)) return cs_error_input(err, place, s->key, text, "must be finite");
        if (s->min <= s->max && (x < s->min || x > s->max))
            return cs_error_input(err, place, s->key, text, "must lie in [%g, %g] %s", s->min,
                                  s->max, cs_unit_si_name(s->dim));
        v->real = x;
        return 0;
    }
    case CS_PT_INT: {
        long x;
        if (cs_parse_long(text, &x) != 0)
            return cs_error_input(err, place, s->key, text, "must be a whole number");
        if (s->min <= s->max && ((double)x < s->min || (double)x > s->max))
            return cs_error_input(err, place, s->key, text, "must lie in [%.0f, %.0f]", s->min,
                                  s->max);
        v->integer = x;
        return 0;
    }
    case CS_PT_BOOL:
        if (!strcmp(text, "true") || !strcmp(text, "yes") || !strcmp(text, "on") ||
            !strcmp(text, "1"))
            v->boolean = 1;
        else if (!strcmp(text, "false") || !strcmp(text, "no") || !strcmp(text, "off") ||
                 !strcmp(text, "0"))
            v->boolean = 0;
        else
            return cs_error_input(err, place, s->key, text, "must be true or false");
        return 0;
    case CS_PT_CHOICE: {
        const char *c = s->choices;
        size_t len = strlen(text);
        while (c && *c) {
            const char *bar = strchr(c, '|');
            size_t clen = bar ? (size_t)(bar - c) : strlen(c);
            if (clen == len && strncmp(c, text, len) == 0) return 0;
            c = bar ? bar + 1 : NULL;
        }
        return cs_error_input(err, place, s->key, text, "must be one of: %s", s->choices);
    }
    case CS_PT_STRING:
        if (!*text) return cs_error_input(err, place, s->key, text, "must not be empty");
        return 0;
    }
    return cs_error_set(err, CS_ERR_INTERNAL, "%s: unknown parameter type", s->key);
}

static int store(cs_params *p, int idx, const char *text, const char *place, int given,
                 cs_error *err) {
    param_value nv = {0};
    CS_CALL(err, parse_value(&p->specs[idx], text, place, &nv, err));

    nv.text = cs_strdup(text);
    if (!nv.text) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    nv.set = 1;
    nv.given = given;
    cs_copy(nv.where, sizeof nv.where, place);
    free(p->values[idx].text);
    p->values[idx] = nv;
    return 0;
}

/* Removes a comment that starts at an unquoted '#', and surrounding quotes of the value. */
static char *strip_comment(char *line) {
    int quoted = 0;
    for (char *c = line; *c; c++) {
        if (*c == '"') quoted = !quoted;
        if (*c == '#' && !quoted) {
            *c = '\0';
            break;
        }
    }
    return line;
}

static char *unquote(char *v) {
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        v[n - 1] = '\0';
        return v + 1;
    }
    return v;
}

int cs_params_parse(const char *name, const char *text, const cs_param_spec *specs, size_t nspecs,
                    cs_params **out, cs_error *err) {
    *out = NULL;
    cs_params *p = calloc(1, sizeof *p);
    if (!p) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    p->specs = specs;
    p->n = nspecs;
    p->values = calloc(nspecs ? nspecs : 1, sizeof *p->values);
    char *copy = cs_strdup(text);
    if (!p->values || !copy) {
        free(copy);
        cs_params_free(p);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    int lineno = 0;
    int rc = 0;
    /* strtok_r would skip empty lines and break the line count, so split by hand. */
    char *cur = copy;
    while (cur) {
        char *nl = strchr(cur, '\n');
        if (nl) *nl = '\0';
        lineno++;
        char place[300];
        snprintf(place, sizeof place, "%s:%d", name, lineno);
        char *line = cs_trim(strip_comment(cur));
        cur = nl ? nl + 1 : NULL;
        if (!*line) continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            rc = cs_error_input(err, place, NULL, line, "expected 'key = value'");
            break;
        }
        *eq = '\0';
        char *key = cs_trim(line);
        char *value = unquote(cs_trim(eq + 1));
        if (!*key) {
            rc = cs_error_input(err, place, NULL, value, "missing key before '='");
            break;
        }
        int idx = find_spec(p, key);
        if (idx < 0) {
            rc = unknown_key(p, place, key, err);
            break;
        }
        if (p->values[idx].given) {
            rc = cs_error_input(err, place, key, value, "given twice (first at %s)",
                                p->values[idx].where);
            break;
        }
        if (!*value) {
            rc = cs_error_input(err, place, key, value, "missing value after '='");
            break;
        }
        if ((rc = store(p, idx, value, place, 1, err)) != 0) break;
    }
    free(copy);
    if (rc == 0) {
        for (size_t i = 0; i < nspecs; i++) {
            if (p->values[i].given) continue;
            if (specs[i].required) {
                rc = cs_error_input(err, name, specs[i].key, NULL,
                                    "required key is missing; add a line '%s = ...' (%s)",
                                    specs[i].key, specs[i].help ? specs[i].help : "no default");
                break;
            }
            if (specs[i].default_value) {
                if ((rc = store(p, (int)i, specs[i].default_value, "default", 0, err)) != 0) {
                    cs_error_prefix(err, "built-in default: ");
                    rc = CS_ERR_INTERNAL;
                    err->status = CS_ERR_INTERNAL;
                    break;
                }
            }
        }
    }
    if (rc != 0) {
        cs_params_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

int cs_params_read(const char *path, const cs_param_spec *specs, size_t nspecs, cs_params **out,
                   cs_error *err) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return cs_error_errno(err, path, "open parameter file");
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return cs_error_errno(err, path, "seek");
    }
    long size = ftell(f);
    rewind(f);
    if (size < 0 || size > 16 * 1024 * 1024) {
        fclose(f);
        return cs_error_input(err, path, NULL, NULL, "not a parameter file (size %ld bytes)", size);
    }
    char *text = malloc((size_t)size + 1);
    if (!text) {
        fclose(f);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    size_t got = fread(text, 1, (size_t)size, f);
    fclose(f);
    text[got] = '\0';
    if (memchr(text, '\0', got)) {
        free(text);
        return cs_error_input(err, path, NULL, NULL, "binary data in a parameter file");
    }
    int rc = cs_params_parse(path, text, specs, nspecs, out, err);
    free(text);
    return rc;
}

int cs_params_set(cs_params *p, const char *key, const char *value, const char *place,
                  cs_error *err) {
    int idx = find_spec(p, key);
    if (idx < 0) return unknown_key(p, place, key, err);
    return store(p, idx, value, place, 1, err);
}

void cs_params_free(cs_params *p) {
    if (!p) return;
    if (p->values)
        for (size_t i = 0; i < p->n; i++)
            free(p->values[i].text);
    free(p->values);
    free(p);
}

static const param_value *lookup(const cs_params *p, const char *key) {
    int idx = find_spec(p, key);
    if (idx < 0) {
        /* Asking for a key that is not declared is a programming error, not bad input. */
        fprintf(stderr, "cybershake: internal error: parameter '%s' is not declared\n", key);
        abort();
    }
    return &p->values[idx];
}

int cs_params_has(const cs_params *p, const char *key) {
    return lookup(p, key)->set;
}
int cs_params_given(const cs_params *p, const char *key) {
    return lookup(p, key)->given;
}
double cs_params_real(const cs_params *p, const char *key) {
    const param_value *v = lookup(p, key);
    return v->set ? v->real : NAN;
}
long cs_params_int(const cs_params *p, const char *key) {
    return lookup(p, key)->integer;
}
int cs_params_bool(const cs_params *p, const char *key) {
    return lookup(p, key)->boolean;
}
const char *cs_params_string(const cs_params *p, const char *key) {
    const param_value *v = lookup(p, key);
    return v->set ? v->text : NULL;
}
const char *cs_params_where(const cs_params *p, const char *key) {
    return lookup(p, key)->where;
}

void cs_params_dump(const cs_params *p, FILE *f) {
    for (size_t i = 0; i < p->n; i++)
        if (p->values[i].set)
            fprintf(f, "%s = %s%s\n", p->specs[i].key, p->values[i].text,
                    p->values[i].given ? "" : "    # default");
}

void cs_params_describe(const cs_param_spec *specs, size_t nspecs, FILE *f) {
    fprintf(f, "| key | type | unit | default | meaning |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < nspecs; i++) {
        const cs_param_spec *s = &specs[i];
        const char *type = s->type == CS_PT_REAL     ? "real"
                           : s->type == CS_PT_INT    ? "integer"
                           : s->type == CS_PT_BOOL   ? "true/false"
                           : s->type == CS_PT_CHOICE ? s->choices
                                                     : "text";
        const char *unit = s->type == CS_PT_REAL ? cs_unit_accepted(s->dim) : "";
        /* Choices are written "a|b" in the specs; a bare '|' would split a markdown cell. */
        char typebuf[256];
        size_t o = 0;
        for (const char *c = type; *c && o + 3 < sizeof typebuf; c++) {
            if (*c == '|') typebuf[o++] = '\\';
            typebuf[o++] = *c;
        }
        typebuf[o] = '\0';
        fprintf(f, "| %s | %s | %s | %s | %s |\n", s->key, typebuf, unit,
                s->required ? "required" : (s->default_value ? s->default_value : "none"),
                s->help ? s->help : "");
    }
}

int cs_params_text_value(const char *key, const char *value, char *out, size_t size,
                         cs_error *err) {
    if (strpbrk(value, "\"\n\r"))
        return cs_error_input(err, key, NULL, value,
                              "a parameter file cannot hold a value with a quote or a line break");
    size_t n = strlen(value);
    int quote = strchr(value, '#') || (n && (value[0] == ' ' || value[n - 1] == ' '));
    if ((size_t)snprintf(out, size, quote ? "\"%s\"" : "%s", value) >= size)
        return cs_error_input(err, key, NULL, value, "too long for a parameter file");
    return 0;
}
