/* Which rows of the device's spectra hold which points, kept across ruptures (docs/extract.md,
 * "The spectra a GPU rank keeps").
 *
 * A site's ruptures share their points: the production-shaped site's 13,228 ruptures have 16.4 M
 * points on 241 k save points, so a rank that loads every rupture's spectra anew reads each save
 * point's SGT about 70 times. The device keeps a rupture's spectra as rows (one per point and
 * moment tensor: the 3 combined series); this map lets the next rupture find the rows it shares
 * and load only the others.
 *
 * A row's key is its save point and the 6 components of the moment tensor its series were
 * combined with, compared bit for bit (the same tensor gives the same spectra). Rows that every
 * rupture since has left alone are given back first: when a rupture needs more rows than are
 * free, the least recently used rows not used by the rupture in hand are evicted, at least a
 * quarter of the rows at once, so that eviction (a sort) is rare. The map is plain host memory
 * (about 100 bytes a row); the rows themselves live on the device. */
#ifndef SYNTH_SPECTRA_CACHE_H
#define SYNTH_SPECTRA_CACHE_H

#include "cs_error.h"

typedef struct {
    long point;
    double m[6];
    long long used; /* the rupture (epoch) that last used it; 0: free */
    long next;      /* the next row of its hash bucket, -1 at the end */
} synth_spectra_cache_row;

typedef struct {
    long rows;
    synth_spectra_cache_row *row;
    long *bucket; /* nbuckets heads, -1 when empty */
    long nbuckets;
    long *free_rows; /* a stack of free rows */
    long nfree;
    long long epoch;
    long held;                  /* rows holding a key */
    long long hits, loads;      /* keys found, keys loaded (over the map's life) */
    long long evicted, flushes; /* rows evicted, eviction rounds */
} synth_spectra_cache;

int synth_spectra_cache_init(synth_spectra_cache *c, long rows, cs_error *err);
void synth_spectra_cache_free(synth_spectra_cache *c);
/* Forgets every key (another layout was written over the rows). */
void synth_spectra_cache_clear(synth_spectra_cache *c);

/* The rows of a rupture's n points (save points[q] combined with tensor m6 + 6 q): row[q] for
 * each; keys already held keep their rows; the others get rows, and the first point of each is
 * listed in load[0 .. *nload) (the caller fills those rows), in increasing save point order.
 * Repeated keys share a row. An error (CS_ERR_RESOURCE) when the rupture's distinct keys exceed
 * the rows: the caller takes another path (and clears the map if it writes the rows). */
int synth_spectra_cache_assign(synth_spectra_cache *c, long n, const long *points, const double *m6,
                               long *row, long *load, long *nload, cs_error *err);

#endif
