/* Small string helpers used by the text readers. */
#ifndef CS_STRUTIL_H
#define CS_STRUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Trims leading and trailing white space in place and returns the start. */
char *cs_trim(char *s);
/* Parses a whole string as a finite double / a long; 0 on success, -1 if anything is left over. */
int cs_parse_double(const char *s, double *out);
int cs_parse_long(const char *s, long *out);
/* strncpy that always terminates and reports truncation (-1). */
int cs_copy(char *dst, size_t size, const char *src);
/* Duplicates a string (NULL on allocation failure). */
char *cs_strdup(const char *s);
/* 1 if s starts with prefix. */
int cs_starts_with(const char *s, const char *prefix);
/* Reads a whole text line of any length; returns NULL at end of file. *buf grows as needed. */
char *cs_read_line(void *file, char **buf, size_t *cap);
/* A file name made of [A-Za-z0-9._-] from any text ('RotD50 3' -> 'RotD50_3', '%' -> 'pct'),
 * never starting with a dot ('file' if nothing is left). */
void cs_safe_name(const char *text, char *out, size_t size);

/* 64-bit FNV-1a hash of n bytes, continuing from h (start with CS_FNV_START): identifies
 * inputs (a checkpoint's run), not a security checksum. */
#define CS_FNV_START 0xcbf29ce484222325ULL
uint64_t cs_fnv1a(uint64_t h, const void *data, size_t n);

#endif
