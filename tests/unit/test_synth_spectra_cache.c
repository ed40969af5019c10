/* The map of the spectra a GPU rank keeps across ruptures (extract/synth_spectra_cache.h): which
 * keys share rows, which are loaded, which are evicted, and that a row never holds two keys. */
#include <stdlib.h>
#include <string.h>

#include "synth_spectra_cache.h"
#include "tf.h"

/* Tensor number t of a small set. */
static void tensor(int t, double m[6]) {
    for (int c = 0; c < 6; c++)
        m[c] = (t + 1) * 0.25 * (c + 1) * (c % 2 ? -1 : 1);
}

TEST(synth_spectra_cache_shares_rows_of_one_point_and_tensor) {
    synth_spectra_cache c;
    cs_error err;
    CHECK_OK(synth_spectra_cache_init(&c, 16, &err), &err);
    long pts[5] = {40, 7, 40, 7, 12};
    double m6[30];
    tensor(0, m6);
    tensor(0, m6 + 6);
    tensor(0, m6 + 12);
    tensor(1, m6 + 18); /* point 7 again with another tensor: a key of its own */
    tensor(0, m6 + 24);
    long row[5], load[5], nload;
    CHECK_OK(synth_spectra_cache_assign(&c, 5, pts, m6, row, load, &nload, &err), &err);
    CHECK(nload == 4);
    CHECK(row[0] == row[2]);
    CHECK(row[1] != row[3]);
    /* each key once, in increasing save point order (reads take runs of rows) */
    CHECK(pts[load[0]] == 7 && pts[load[1]] == 7 && pts[load[2]] == 12 && pts[load[3]] == 40);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            CHECK((row[i] == row[j]) ==
                  (pts[i] == pts[j] && !memcmp(m6 + 6 * i, m6 + 6 * j, 6 * sizeof(double))));
    /* the next rupture finds what it shares and loads the rest */
    long pts2[3] = {12, 40, 99};
    double m2[18];
    tensor(0, m2);
    tensor(0, m2 + 6);
    tensor(0, m2 + 12);
    long row2[3];
    CHECK_OK(synth_spectra_cache_assign(&c, 3, pts2, m2, row2, load, &nload, &err), &err);
    CHECK(nload == 1 && load[0] == 2);
    CHECK(row2[0] == row[4] && row2[1] == row[0]);
    CHECK(c.hits == 1 + 2 && c.loads == 5);
    synth_spectra_cache_free(&c);
}

TEST(synth_spectra_cache_evicts_the_least_recently_used_rows) {
    synth_spectra_cache c;
    cs_error err;
    CHECK_OK(synth_spectra_cache_init(&c, 4, &err), &err);
    double m6[18];
    for (int i = 0; i < 3; i++)
        tensor(0, m6 + 6 * i);
    long row[3], load[3], nload;
    long a[2] = {1, 2}, b[2] = {1, 3}, d[3] = {4, 1, 5};
    CHECK_OK(synth_spectra_cache_assign(&c, 2, a, m6, row, load, &nload, &err), &err);
    long row1 = row[0], row2 = row[1];
    CHECK_OK(synth_spectra_cache_assign(&c, 2, b, m6, row, load, &nload, &err), &err);
    CHECK(nload == 1 && row[0] == row1);
    long row3 = row[1];
    /* one row free, two wanted: the oldest row not in this rupture goes (point 2, last used by
     * the first rupture); point 1 was used by the second, point 3 too, and stays */
    CHECK_OK(synth_spectra_cache_assign(&c, 3, d, m6, row, load, &nload, &err), &err);
    CHECK(nload == 2 && row[1] == row1);
    CHECK(c.evicted == 1 && c.flushes == 1);
    CHECK(row[0] != row3 && row[2] != row3 && row[0] != row[2]);
    CHECK(row[0] == row2 || row[2] == row2);
    /* point 3 still held, point 2 gone */
    long e[2] = {3, 2};
    CHECK_OK(synth_spectra_cache_assign(&c, 2, e, m6, row, load, &nload, &err), &err);
    CHECK(row[0] == row3 && nload == 1 && load[0] == 1);
    synth_spectra_cache_free(&c);
}

TEST(synth_spectra_cache_refuses_a_rupture_larger_than_its_rows) {
    synth_spectra_cache c;
    cs_error err;
    CHECK_OK(synth_spectra_cache_init(&c, 3, &err), &err);
    double m6[24];
    for (int i = 0; i < 4; i++)
        tensor(0, m6 + 6 * i);
    long pts[4] = {5, 6, 7, 8}, row[4], load[4], nload;
    CHECK_OK(synth_spectra_cache_assign(&c, 2, pts, m6, row, load, &nload, &err), &err);
    CHECK(synth_spectra_cache_assign(&c, 4, pts, m6, row, load, &nload, &err) != 0);
    CHECK(err.status == CS_ERR_RESOURCE && strstr(err.message, "3 rows"));
    /* nothing half assigned is left behind: every key is loaded again */
    CHECK(c.held == 0);
    CHECK_OK(synth_spectra_cache_assign(&c, 3, pts, m6, row, load, &nload, &err), &err);
    CHECK(nload == 3);
    /* four keys of which two repeat fit three rows */
    long rep[4] = {9, 9, 10, 10};
    CHECK_OK(synth_spectra_cache_assign(&c, 4, rep, m6, row, load, &nload, &err), &err);
    CHECK(nload == 2 && row[0] == row[1] && row[2] == row[3]);
    synth_spectra_cache_free(&c);
}

/* Random ruptures over a small set of keys against a model of what each row holds: a rupture's
 * rows hold its keys, distinct keys get distinct rows, and a key is loaded exactly when no row
 * held it. */
TEST(synth_spectra_cache_agrees_with_a_model_over_random_ruptures) {
    enum { ROWS = 64, POINTS = 60, TENSORS = 3, MAXN = 40 };
    synth_spectra_cache c;
    cs_error err;
    CHECK_OK(synth_spectra_cache_init(&c, ROWS, &err), &err);
    long held_point[ROWS];
    int held_tensor[ROWS];
    for (int r = 0; r < ROWS; r++)
        held_point[r] = -1;
    unsigned seed = 12345;
    long loads = 0;
    for (int rupture = 0; rupture < 2000; rupture++) {
        long n = 1 + (long)(rand_r(&seed) % MAXN), pts[MAXN], row[MAXN], load[MAXN], nload;
        int tt[MAXN];
        double m6[6 * MAXN];
        long base = rand_r(&seed) % POINTS;
        for (long q = 0; q < n; q++) {
            pts[q] = (base + rand_r(&seed) % 12) % POINTS; /* nearby points, as a fault's */
            tt[q] = rand_r(&seed) % 8 ? 0 : 1 + rand_r(&seed) % (TENSORS - 1);
            tensor(tt[q], m6 + 6 * q);
        }
        int was_held[MAXN];
        for (long q = 0; q < n; q++) {
            was_held[q] = 0;
            for (int r = 0; r < ROWS; r++)
                if (held_point[r] == pts[q] && held_tensor[r] == tt[q]) was_held[q] = 1;
        }
        CHECK_OK(synth_spectra_cache_assign(&c, n, pts, m6, row, load, &nload, &err), &err);
        int is_loaded[MAXN] = {0};
        for (long i = 0; i < nload; i++) {
            CHECK(!was_held[load[i]]);
            CHECK(i == 0 || pts[load[i - 1]] <= pts[load[i]]);
            is_loaded[load[i]] = 1;
        }
        /* rows evicted this time hold nothing now; rows loaded hold their keys */
        for (int r = 0; r < ROWS; r++)
            if (c.row[r].used == 0) held_point[r] = -1;
        for (long q = 0; q < n; q++) {
            CHECK(row[q] >= 0 && row[q] < ROWS);
            if (is_loaded[q]) {
                held_point[row[q]] = pts[q];
                held_tensor[row[q]] = tt[q];
            }
            CHECK_MSG(held_point[row[q]] == pts[q] && held_tensor[row[q]] == tt[q],
                      "rupture %d: point %ld tensor %d in row %ld, which holds %ld/%d", rupture,
                      pts[q], tt[q], row[q], held_point[row[q]], held_tensor[row[q]]);
            int first = 1;
            for (long p = 0; p < q; p++) {
                CHECK((row[p] == row[q]) == (pts[p] == pts[q] && tt[p] == tt[q]));
                if (pts[p] == pts[q] && tt[p] == tt[q]) first = 0;
            }
            CHECK(is_loaded[q] == (first && !was_held[q]));
        }
        loads += nload;
    }
    CHECK(c.loads == loads && c.flushes > 0);
    synth_spectra_cache_free(&c);
}
