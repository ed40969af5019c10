/* Reading OpenQuake's GMPE verification tables (hazardlib's tests/gsim/data CSV files) kept in
 * tests/data/gmpe: one row a scenario, its result type (MEAN in g, TOTAL_STDDEV,
 * INTER_EVENT_STDDEV, INTRA_EVENT_STDDEV in ln units) and a value per period. */
#ifndef GMPE_OQ_TABLE_H
#define GMPE_OQ_TABLE_H

#include <stdio.h>

#include "gmpe.h"

#define OQ_MAX_COLS 64

typedef struct {
    FILE *f;
    int ncol;
    int field[OQ_MAX_COLS]; /* what each column holds (gmpe_oq_table.c) */
    double period[OQ_MAX_COLS];
    char error[256];
} oq_table;

typedef struct {
    gmpe_scenario s;            /* columns not in the table: 0, or NAN for the optional values */
    char kind[32];              /* result_type */
    int n;                      /* periods of the row (PGV columns skipped) */
    double period[OQ_MAX_COLS]; /* 0: PGA */
    double value[OQ_MAX_COLS];
} oq_row;

/* Open tests/data/gmpe/NAME (NAME itself when it starts with '/') and read its header; 0, or -1
 * with t->error. */
int oq_table_open(oq_table *t, const char *name);
/* The next row: 1, 0 at the end, -1 with t->error on a malformed row. */
int oq_table_next(oq_table *t, oq_row *r);
void oq_table_close(oq_table *t);

typedef int (*oq_model)(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err);

/* Every row and period of tests/data/gmpe/NAME against the model: the median (MEAN rows) and
 * the standard deviations (sigma, tau, phi by the row's type) each within the relative
 * tolerance tol, else the running test fails naming the row. Rows read and the worst relative
 * difference come back. */
void oq_table_check(const char *name, oq_model model, double tol, int *rows, double *worst);

#endif
