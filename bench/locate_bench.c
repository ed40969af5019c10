/* Locating rupture points on an SGT set (docs/performance.md, "Opening a rupture"): the time a
 * point takes to find its save point and its box axes, as a rupture's opening does for each of
 * its points, one thread with the separate calls (three projections a point), one thread with
 * sgt_set_locate_axes (two), and every thread with a frame each. The points are the set's own
 * save points turned back into longitude and latitude, so every one is found; the results of the
 * three ways are compared bit for bit.
 *
 *   build/bin/locate_bench SGT_E.h5[,SGT_N.h5] [REPEATS]
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_geo.h"
#include "cs_progress.h"
#include "sgt_set.h"

static int fail(const cs_error *e) {
    fprintf(stderr, "locate_bench: %s\n", e->message);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: locate_bench SGT_E.h5[,SGT_N.h5] [REPEATS]\n");
        return 2;
    }
    char *list = strdup(argv[1]), *paths[3];
    int np = 0;
    for (char *t = strtok(list, ","); t && np < 3; t = strtok(NULL, ","))
        paths[np++] = t;
    int repeats = argc > 2 ? atoi(argv[2]) : 20;
    sgt_set s;
    cs_error e;
    cs_error_clear(&e);
    if (sgt_set_open(&s, (const char *const *)paths, np, &e) ||
        sgt_set_frames(&s, omp_get_max_threads(), &e))
        return fail(&e);
    long n = s.npoints;
    double *lon = malloc(sizeof(double) * (size_t)n), *lat = malloc(sizeof(double) * (size_t)n);
    double *dep = malloc(sizeof(double) * (size_t)n);
    long *p0 = malloc(sizeof(long) * (size_t)n), *p1 = malloc(sizeof(long) * (size_t)n);
    double *a0 = malloc(sizeof(double) * 9 * (size_t)n),
           *a1 = malloc(sizeof(double) * 9 * (size_t)n);
    if (!lon || !lat || !dep || !p0 || !p1 || !a0 || !a1) return 1;
    for (long q = 0; q < n; q++) {
        const int *ix = s.index + 3 * q;
        if (cs_geo_to_geographic(s.frame, s.x0 + ix[0] * s.h, s.y0 + ix[1] * s.h, &lon[q], &lat[q],
                                 &e))
            return fail(&e);
        dep[q] = ix[2] * s.h / 1e3;
    }
    double t = cs_now();
    for (int r = 0; r < repeats; r++)
        for (long q = 0; q < n; q++)
            if (sgt_set_locate(&s, lon[q], lat[q], dep[q], &p0[q], &e) ||
                sgt_set_axes(&s, lon[q], lat[q], (double(*)[3])(a0 + 9 * q), &e))
                return fail(&e);
    double separate = (cs_now() - t) / ((double)repeats * n);
    t = cs_now();
    for (int r = 0; r < repeats; r++)
        for (long q = 0; q < n; q++)
            if (sgt_set_locate_axes(&s, 0, lon[q], lat[q], dep[q], &p1[q],
                                    (double(*)[3])(a1 + 9 * q), &e))
                return fail(&e);
    double one = (cs_now() - t) / ((double)repeats * n);
    int same = !memcmp(p0, p1, sizeof(long) * (size_t)n) &&
               !memcmp(a0, a1, sizeof(double) * 9 * (size_t)n);
    memset(p1, 0, sizeof(long) * (size_t)n);
    memset(a1, 0, sizeof(double) * 9 * (size_t)n);
    int threads = s.nframes, failed = 0;
    t = cs_now();
    for (int r = 0; r < repeats; r++) {
#pragma omp parallel num_threads(threads) reduction(| : failed)
        {
            cs_error te;
            cs_error_clear(&te);
            int k = omp_get_thread_num();
#pragma omp for schedule(static)
            for (long q = 0; q < n; q++)
                failed |= sgt_set_locate_axes(&s, k, lon[q], lat[q], dep[q], &p1[q],
                                              (double(*)[3])(a1 + 9 * q), &te) != 0;
        }
    }
    double all = (cs_now() - t) / ((double)repeats * n);
    same = same && !failed && !memcmp(p0, p1, sizeof(long) * (size_t)n) &&
           !memcmp(a0, a1, sizeof(double) * 9 * (size_t)n);
    printf("locate_bench: %ld save points x %d: a point %.3f us with the separate calls (three "
           "projections), %.3f us with sgt_set_locate_axes (two), %.3f us on %d threads (a frame "
           "each); the same points and axes bit for bit: %s\n",
           n, repeats, 1e6 * separate, 1e6 * one, 1e6 * all, threads, same ? "yes" : "NO");
    sgt_set_close(&s);
    free(list);
    free(lon);
    free(lat);
    free(dep);
    free(p0);
    free(p1);
    free(a0);
    free(a1);
    return same ? 0 : 1;
}
