/* Reading text files line by line, skipping blank lines and '#' comments, with the place
 * ("file:line") of the current line kept for messages. */
#ifndef CS_LINES_H
#define CS_LINES_H

#include <stdio.h>

#include "cs_error.h"

typedef struct {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    int line;
    char place[4200];
    char copy[512]; /* the current line as read, for messages */
} cs_lines;

int cs_lines_open(cs_lines *r, const char *path, const char *what, cs_error *err);
/* The next line holding data (trimmed, writable), or NULL at the end of the file. */
char *cs_lines_next(cs_lines *r);
void cs_lines_close(cs_lines *r);

/* Splits a line on blanks and commas into at most max numbers; returns how many there were
 * (max + 1 if more), or -1 if a token is not a number. Modifies the line. */
int cs_parse_numbers(char *line, double *vals, int max);

#endif
