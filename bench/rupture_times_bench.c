/* The rupture generator's per-variation step, its rupture times (rupgen_times: Dijkstra over the
 * rupture's surface from the hypocentre), timed on a planar rupture of L x W points 250 m
 * apart; prints the time per search and an FNV-1a hash of every time array, so that a faster
 * search can be checked to give the same times bit for bit (docs/performance.md), and the time
 * a slip realisation takes to make.
 *   build/bin/rupture_times_bench [NCOLS NROWS [SEARCHES]]   (default 192 22 400) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cs_progress.h"
#include "erf_rupture.h"
#include "rupgen.h"

int main(int argc, char **argv) {
    cs_error err;
    int ncols = argc > 1 ? atoi(argv[1]) : 192, nrows = argc > 2 ? atoi(argv[2]) : 22;
    int searches = argc > 3 ? atoi(argv[3]) : 400;
    if (ncols < 1 || nrows < 1 || searches < 1)
        return fprintf(stderr, "usage: rupture_times_bench [NCOLS NROWS [SEARCHES]]\n"), 2;
    const double spacing = 0.25;
    erf_rupture r;
    if (erf_rupture_alloc(&r, nrows, ncols, &err)) return fprintf(stderr, "%s\n", err.message), 1;
    r.magnitude = 7.0;
    r.spacing_km = spacing;
    for (int k = 0; k < nrows; k++)
        for (int i = 0; i < ncols; i++) {
            int q = k * ncols + i;
            r.lat[q] = 34.0 + i * spacing / 111.2, r.lon[q] = -118.0, r.dep[q] = k * spacing;
            r.stk[q] = 0, r.dip[q] = 90, r.rake[q] = 180;
        }
    rupgen_params p;
    rupgen_defaults(&p);
    const int n = nrows * ncols;
    double *vs = malloc(sizeof(double) * (size_t)n), *rho = malloc(sizeof(double) * (size_t)n);
    double *t = malloc(sizeof(double) * (size_t)n);
    if (!vs || !rho || !t) return fprintf(stderr, "out of memory\n"), 1;
    for (int i = 0; i < n; i++)
        vs[i] = 3464, rho[i] = 2700;
    /* a realisation's making (once per slip realisation of a rupture: its slip, speeds, slip
     * rates and edge times), timed over a few */
    rupgen_realisation s;
    double made = cs_now();
    for (int k = 4; k >= 0; k--) {
        if (rupgen_realisation_make(&r, &p, vs, rho, k, &s, &err))
            return fprintf(stderr, "%s\n", err.message), 1;
        if (k) rupgen_realisation_free(&s);
    }
    made = (cs_now() - made) / 5;
    uint64_t hash = 1469598103934665603ULL;
    double spent = 0;
    for (int v = 0; v < searches; v++) {
        double t0 = cs_now();
        if (rupgen_times(&r, &s, (int)((v * 997L) % n), t, &err))
            return fprintf(stderr, "%s\n", err.message), 1;
        spent += cs_now() - t0;
        const unsigned char *b = (const unsigned char *)t;
        for (size_t i = 0; i < sizeof(double) * (size_t)n; i++)
            hash = (hash ^ b[i]) * 1099511628211ULL;
    }
    printf("%d x %d points: %.1f us per rupture-time search (%d searches); times' hash %016llx; "
           "%.1f us per realisation\n",
           ncols, nrows, spent / searches * 1e6, searches, (unsigned long long)hash, made * 1e6);
    rupgen_realisation_free(&s);
    erf_rupture_free(&r);
    free(vs), free(rho), free(t);
    return 0;
}
