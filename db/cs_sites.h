/* Sites of a study: import from CSV into CyberShake_Sites, and listing.
 *
 * The CSV has a header naming its columns: short_name, latitude, longitude are required;
 * long_name, vs30 (m/s), z1p0 (m, depth to Vs 1 km/s) and z2p5 (km, depth to Vs 2.5 km/s) are
 * optional. Every row is checked (field count, numbers, ranges,
 * unique short names) and the whole file goes in one transaction: one bad row and nothing is
 * imported. */
#ifndef CS_SITES_H
#define CS_SITES_H

#include <math.h>

#include "cs_db.h"
#include "cs_error.h"

#define CS_SHORT_NAME_MAX 16
#define CS_LONG_NAME_MAX  128

typedef struct {
    long long id;
    char short_name[CS_SHORT_NAME_MAX + 1];
    char long_name[CS_LONG_NAME_MAX + 1];
    double lat, lon;
    double vs30;    /* m/s, NAN when unknown */
    double z1p0_m;  /* depth to Vs 1 km/s (m), NAN when unknown */
    double z2p5_km; /* depth to Vs 2.5 km/s (km), NAN when unknown */
} cs_site;

typedef struct {
    int added;     /* new sites */
    int unchanged; /* already in the study with the same values */
} cs_sites_import_result;

/* Checks a short name: 1 to 16 characters from [A-Za-z0-9_-] (it becomes part of file names). */
int cs_site_check_short_name(const char *name, const char *place, cs_error *err);

/* Reads and checks every row of a sites CSV without a database: *sites and *lines (each row's
 * line in the file) are malloc'ed, n >= 1. */
int cs_sites_read(const char *csv_path, cs_site **sites, int **lines, int *n, cs_error *err);
int cs_sites_import(cs_db *db, const char *csv_path, cs_sites_import_result *res, cs_error *err);
/* All sites ordered by short name; *sites is malloc'ed. */
int cs_sites_list(cs_db *db, cs_site **sites, int *n, cs_error *err);
int cs_sites_find(cs_db *db, const char *short_name, cs_site *site, cs_error *err);

#endif
