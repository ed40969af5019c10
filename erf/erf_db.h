/* The forecast in the study database: ERF_IDs, Ruptures (with magnitude, probability over the
 * forecast's time span, annual rate, gridded surface), Points (docs/database.md). */
#ifndef ERF_DB_H
#define ERF_DB_H

#include "cs_db.h"
#include "erf_rupture.h"

/* A new forecast; fails if the name is taken. `inputs` records provenance (files, checksums,
 * options). */
int erf_db_create(cs_db *db, const char *name, const char *description, double time_span_years,
                  const char *inputs, long long *erf_id, cs_error *err);
int erf_db_find(cs_db *db, const char *name, long long *erf_id, double *time_span_years,
                cs_error *err);

/* The transaction of a forecast's bulk write: foreign keys are not checked row by row (the
 * writer adds each rupture before its points, so they hold by construction, and a check per
 * point was a third of a 17 M-point build) and the page cache is large; both are restored when
 * it ends. erf_db_bulk_end commits when ok, rolls back otherwise. */
int erf_db_bulk_begin(cs_db *db, cs_error *err);
int erf_db_bulk_end(cs_db *db, int ok, cs_error *err);

/* Adds ruptures with their points; the caller holds the transaction. */
typedef struct {
    cs_db *db;
    long long erf_id;
    sqlite3_stmt *rupture, *point, *points; /* points: ERF_DB_POINTS_PER_INSERT rows at once */
} erf_db_writer;
#define ERF_DB_POINTS_PER_INSERT 64

int erf_db_writer_open(cs_db *db, long long erf_id, erf_db_writer *w, cs_error *err);
/* annual_rate may be NAN (a file that gives only a probability). */
int erf_db_writer_add(erf_db_writer *w, const erf_rupture *r, double annual_rate,
                      const char *source_key, cs_error *err);
void erf_db_writer_close(erf_db_writer *w);

/* A writer that counts what it adds: the sink (an erf_emit) that the fault and area sources'
 * rupture makers feed when a forecast is built. */
typedef struct {
    erf_db_writer w;
    long nruptures, npoints; /* ruptures and their points added */
    double total_rate;       /* their annual rates summed */
} erf_db_counter;
int erf_db_counter_add(const erf_rupture *r, double annual_rate, const char *source_key,
                       void *counter, cs_error *err);

typedef struct {
    long long source_id, rupture_id;
} erf_rupture_key;

/* Every fault rupture of a forecast (area sources, which CyberShake does not simulate, left
 * out), ordered by source then rupture; *keys is malloc'ed. */
int erf_db_rupture_keys(cs_db *db, long long erf_id, erf_rupture_key **keys, long *n,
                        cs_error *err);
int erf_db_load_rupture(cs_db *db, long long erf_id, long long source_id, long long rupture_id,
                        erf_rupture *r, cs_error *err);

#endif
