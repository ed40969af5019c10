/* The rupture-time search's relaxation of one point, pulled from its neighbours: what a GPU
 * block repeats over a rupture's points until none falls (extract/times_gpu.cu), written once
 * for the device and the host's tests. A realisation's edge times are symmetric bit for bit (the
 * chord's squares and the slownesses' sum do not depend on the order of the two ends), so the
 * edge out of p towards a neighbour is the edge from it, and the fixed point this reaches is the
 * one rupgen_times' Dijkstra reaches: the same times, bit for bit (the shortest sums are
 * unique for positive edges, whatever order the points are relaxed in). */
#ifndef RUPGEN_RELAX_H
#define RUPGEN_RELAX_H

#include <math.h>

/* The rupture-time search's neighbours of a point: the 8 adjacent and the 8 a knight's move
 * away, so a path may turn by 27 degrees as well as 45. */
enum { RUPGEN_EDGES = 16 };

#ifdef __CUDACC__
#define RUPGEN_RELAX_HD static __host__ __device__ __forceinline__
#else
#define RUPGEN_RELAX_HD static inline
#endif

/* Neighbour o's offset in columns (along strike) and rows (down dip). */
RUPGEN_RELAX_HD int rupgen_relax_di(int o) {
    const int di[RUPGEN_EDGES] = {1, -1, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 2, 2, -2, -2};
    return di[o];
}

RUPGEN_RELAX_HD int rupgen_relax_dk(int o) {
    const int dk[RUPGEN_EDGES] = {0, 0, 1, -1, 1, -1, 1, -1, 2, -2, 2, -2, 1, -1, 1, -1};
    return dk[o];
}

/* The neighbours as steps in a rupture of nx columns. */
RUPGEN_RELAX_HD void rupgen_relax_steps(int nx, int step[RUPGEN_EDGES]) {
    for (int o = 0; o < RUPGEN_EDGES; o++)
        step[o] = rupgen_relax_dk(o) * nx + rupgen_relax_di(o);
}

/* The least of t[p] and each neighbour's time plus the edge between them (edge: the point's
 * RUPGEN_EDGES times, INFINITY where the neighbour is off the surface). */
RUPGEN_RELAX_HD double rupgen_relax_point(const double *t, const double *edge, int p,
                                          const int step[RUPGEN_EDGES]) {
    double best = t[p];
    for (int o = 0; o < RUPGEN_EDGES; o++) {
        double e = edge[o];
        if (!(e < INFINITY)) continue;
        double c = t[p + step[o]] + e;
        if (c < best) best = c;
    }
    return best;
}

#endif
