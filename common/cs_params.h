/* Strict reader of parameter files: one `key = value` per line, `#` starts a comment, values
 * with a physical dimension carry their unit ("h = 200 m", "fmax = 0.5 Hz").
 *
 * The set of keys is declared by the caller as a table of specs. An unknown key, a key given
 * twice, a value of the wrong type or unit, a value out of its range, or a required key that is
 * missing is an error naming the file and line (or the key, when it is missing altogether). */
#ifndef CS_PARAMS_H
#define CS_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "cs_error.h"
#include "cs_units.h"

typedef enum { CS_PT_REAL, CS_PT_INT, CS_PT_STRING, CS_PT_BOOL, CS_PT_CHOICE } cs_param_type;

typedef struct {
    const char *key;
    cs_param_type type;
    cs_unit_dim dim;           /* CS_PT_REAL only */
    int required;              /* 1: must be given (default_value is then ignored) */
    const char *default_value; /* text form, with unit; NULL: no default */
    const char *choices;       /* CS_PT_CHOICE: "cpu|cuda" */
    double min, max;           /* inclusive range in SI for REAL and INT; ignored if min > max */
    const char *help;
} cs_param_spec;

typedef struct cs_params cs_params;

/* Reads and validates a file. On error *out is NULL and err names the place. */
int cs_params_read(const char *path, const cs_param_spec *specs, size_t nspecs, cs_params **out,
                   cs_error *err);
/* The same from text in memory; `name` is used in messages in place of a file name. */
int cs_params_parse(const char *name, const char *text, const cs_param_spec *specs, size_t nspecs,
                    cs_params **out, cs_error *err);
/* Sets or overrides one key after reading (command-line --set key=value). */
int cs_params_set(cs_params *p, const char *key, const char *value, const char *place,
                  cs_error *err);
void cs_params_free(cs_params *p);

/* 1 if the key was given in the file or has a default. */
int cs_params_has(const cs_params *p, const char *key);
/* 1 if the key was given explicitly (not defaulted). */
int cs_params_given(const cs_params *p, const char *key);
double cs_params_real(const cs_params *p, const char *key); /* SI */
long cs_params_int(const cs_params *p, const char *key);
int cs_params_bool(const cs_params *p, const char *key);
const char *cs_params_string(const cs_params *p, const char *key); /* also CHOICE */
/* "file:line" where the key was set, or "default" / "command line". */
const char *cs_params_where(const cs_params *p, const char *key);

/* A text value as a parameter file must hold it, for writers of such files (the plan): quoted
 * where it holds '#' (else read as a comment) or starts or ends with a space; refused, naming
 * key and rule, where it holds a quote or a line break, which no value can. */
int cs_params_text_value(const char *key, const char *value, char *out, size_t size, cs_error *err);
/* Writes every key with its value as read (a record of the run's inputs). */
void cs_params_dump(const cs_params *p, FILE *f);
/* Writes the table of keys (markdown) for the docs and for --help. */
void cs_params_describe(const cs_param_spec *specs, size_t nspecs, FILE *f);

#endif
