/* A CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF) that keeps line numbers, so every
 * complaint about a row can name file:line. Blank lines and lines starting with '#' are skipped. */
#ifndef CS_CSV_H
#define CS_CSV_H

#include <stddef.h>

#include "cs_error.h"

typedef struct cs_csv cs_csv;

int cs_csv_open(const char *path, cs_csv **out, cs_error *err);
void cs_csv_close(cs_csv *c);
/* Reads the next record. Returns 1 if a record was read, 0 at end of file, <0 on error. */
int cs_csv_next(cs_csv *c, cs_error *err);
size_t cs_csv_nfields(const cs_csv *c);
const char *cs_csv_field(const cs_csv *c, size_t i);
/* Line number (1-based) where the current record starts, and "path:line" for messages. */
int cs_csv_line(const cs_csv *c);
const char *cs_csv_place(cs_csv *c);
const char *cs_csv_path(const cs_csv *c);

#endif
