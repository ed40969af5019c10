#include "synth_spectra_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t key_hash(long point, const double *m) {
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *p = (const unsigned char *)&point;
    for (size_t i = 0; i < sizeof point; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    p = (const unsigned char *)m;
    for (size_t i = 0; i < 6 * sizeof *m; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static long bucket_of(const synth_spectra_cache *c, long point, const double *m) {
    return (long)(key_hash(point, m) & (uint64_t)(c->nbuckets - 1));
}

void synth_spectra_cache_clear(synth_spectra_cache *c) {
    for (long b = 0; b < c->nbuckets; b++)
        c->bucket[b] = -1;
    c->nfree = 0;
    for (long r = c->rows - 1; r >= 0; r--) {
        c->row[r].used = 0;
        c->row[r].next = -1;
        c->free_rows[c->nfree++] = r;
    }
    c->held = 0;
}

int synth_spectra_cache_init(synth_spectra_cache *c, long rows, cs_error *err) {
    memset(c, 0, sizeof *c);
    if (rows < 1) return cs_error_set(err, CS_ERR_INTERNAL, "a spectra map of %ld rows", rows);
    c->rows = rows;
    c->nbuckets = 1;
    while (c->nbuckets < rows)
        c->nbuckets *= 2;
    c->row = malloc(sizeof *c->row * (size_t)rows);
    c->bucket = malloc(sizeof *c->bucket * (size_t)c->nbuckets);
    c->free_rows = malloc(sizeof *c->free_rows * (size_t)rows);
    if (!c->row || !c->bucket || !c->free_rows) {
        synth_spectra_cache_free(c);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a map of %ld spectra rows",
                            rows);
    }
    synth_spectra_cache_clear(c);
    return 0;
}

void synth_spectra_cache_free(synth_spectra_cache *c) {
    free(c->row);
    free(c->bucket);
    free(c->free_rows);
    memset(c, 0, sizeof *c);
}

/* The row holding the key, or -1: none does (an answer, not a failure). */
static long find(const synth_spectra_cache *c, long point, const double *m) {
    for (long r = c->bucket[bucket_of(c, point, m)]; r >= 0; r = c->row[r].next)
        if (c->row[r].point == point && !memcmp(c->row[r].m, m, sizeof c->row[r].m)) return r;
    return -1;
}

static void unlink_row(synth_spectra_cache *c, long r) {
    long *at = &c->bucket[bucket_of(c, c->row[r].point, c->row[r].m)];
    while (*at != r)
        at = &c->row[*at].next;
    *at = c->row[r].next;
    c->row[r].next = -1;
    c->row[r].used = 0;
    c->free_rows[c->nfree++] = r;
    c->held--;
}

typedef struct {
    long long used;
    long row;
} aged;

static int cmp_aged(const void *a, const void *b) {
    const aged *x = a, *y = b;
    if (x->used != y->used) return x->used < y->used ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Frees rows the rupture in hand does not use, the least recently used first, until `want` are
 * free (or none is left to evict). */
static int evict(synth_spectra_cache *c, long want, cs_error *err) {
    aged *a = malloc(sizeof *a * (size_t)(c->held + 1));
    if (!a) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory evicting spectra rows");
    long n = 0;
    for (long r = 0; r < c->rows; r++)
        if (c->row[r].used > 0 && c->row[r].used < c->epoch) a[n++] = (aged){c->row[r].used, r};
    qsort(a, (size_t)n, sizeof *a, cmp_aged);
    for (long i = 0; i < n && c->nfree < want; i++) {
        unlink_row(c, a[i].row);
        c->evicted++;
    }
    c->flushes++;
    free(a);
    return 0;
}

typedef struct {
    long point, q;
} loaded;

static int cmp_loaded(const void *a, const void *b) {
    const loaded *x = a, *y = b;
    if (x->point != y->point) return x->point < y->point ? -1 : 1;
    return (x->q > y->q) - (x->q < y->q);
}

int synth_spectra_cache_assign(synth_spectra_cache *c, long n, const long *points, const double *m6,
                               long *row, long *load, long *nload, cs_error *err) {
    *nload = 0;
    c->epoch++;
    long missing = 0;
    for (long q = 0; q < n; q++) {
        long r = find(c, points[q], m6 + 6 * q);
        row[q] = r;
        if (r >= 0) {
            c->row[r].used = c->epoch;
        } else {
            missing++;
        }
    }
    if (missing > c->nfree) {
        long want = missing > c->rows / 4 ? missing : c->rows / 4;
        CS_CALL(err, evict(c, want, err));
    }
    loaded *l = missing ? malloc(sizeof *l * (size_t)missing) : NULL;
    if (missing && !l) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    long nl = 0;
    for (long q = 0; q < n; q++) {
        if (row[q] >= 0) continue;
        long r = find(c, points[q], m6 + 6 * q); /* a repeat of a key loaded just now */
        if (r < 0) {
            if (c->nfree == 0) {
                /* its rows are half assigned and not loaded: forget them all */
                free(l);
                synth_spectra_cache_clear(c);
                return cs_error_set(err, CS_ERR_RESOURCE,
                                    "a rupture of more distinct points and tensors than the %ld "
                                    "rows of spectra the device keeps",
                                    c->rows);
            }
            r = c->free_rows[--c->nfree];
            synth_spectra_cache_row *x = &c->row[r];
            x->point = points[q];
            memcpy(x->m, m6 + 6 * q, sizeof x->m);
            long b = bucket_of(c, x->point, x->m);
            x->next = c->bucket[b];
            c->bucket[b] = r;
            c->held++;
            l[nl++] = (loaded){points[q], q};
        }
        c->row[r].used = c->epoch;
        row[q] = r;
    }
    qsort(l, (size_t)nl, sizeof *l, cmp_loaded);
    for (long i = 0; i < nl; i++)
        load[i] = l[i].q;
    *nload = nl;
    c->hits += n - nl;
    c->loads += nl;
    free(l);
    return 0;
}
