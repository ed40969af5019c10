/* The variations of one rupture, one at a time, as subfaults on the rupture's save points:
 * generated in memory (rupgen, with the rigidity and density of the SGT's material at each
 * point, so the moment the synthesis uses is the magnitude's exactly) or read from SRF files.
 * A variation can be produced again (chunked synthesis takes each variation once per chunk of
 * the rupture's points); the same variation always gives the same subfaults. */
#ifndef VARIATION_SOURCE_H
#define VARIATION_SOURCE_H

#include "erf_rupture.h"
#include "rupgen.h"
#include "srf.h"
#include "synth.h"

/* One variation's subfaults; a thread producing variations keeps its own. */
typedef struct {
    synth_subfault *sf;
    long nsf, cap;
    double *sr;
    size_t sr_cap;
    long *own_points; /* VARIATION_OTHER_POINTS: that variation's own points */
    long own_npoints;
    double *t; /* generated: the variation's rupture times, t_cap of them */
    long t_cap;
} variation_buffer;

typedef struct {
    const sgt_set *sgt;
    const rupgen_params *gen;
    const erf_rupture *r;
    char *const *lfns; /* SRF paths, or NULL: generated */
    int nvar;
    long n;           /* the rupture's points (SRF: the first variation's) */
    long *points;     /* their save points */
    double *m6;       /* n x 6: the moment tensor of each point's first subfault, or NULL */
    double *vs, *rho; /* generated: the medium at each point */
    /* generated: the slip realisations the variations use, made once at opening (every
     * variation of a realisation shares its slip and slip rates; only the rupture times depend
     * on the hypocentre), and their slip rates in m/s, as the synthesis reads them */
    rupgen_realisation *real;
    double **sr_si;
    int nreal;
    int threads;          /* OpenMP threads that make the realisations at opening */
    variation_buffer buf; /* the last variation produced by variation_source_produce */
} variation_source;

/* The variation's subfaults lie on other points than the first variation's (SRFs only). */
enum { VARIATION_OTHER_POINTS = 2 };

/* threads: OpenMP threads for making the slip realisations (a GPU rank's; 1 on a CPU rank,
 * whose node's cores are the other ranks'). */
int variation_source_open(variation_source *src, const sgt_set *sgt, const rupgen_params *gen,
                          const erf_rupture *r, int nvar, char *const *lfns, int threads,
                          cs_error *err);
/* Variation v into src->buf (slots index src->points, or buf.own_points when it returns
 * VARIATION_OTHER_POINTS); hypo: lat, lon, depth (km), slip realisation (0 for SRFs). 0 or
 * VARIATION_OTHER_POINTS, or -1 (err set) when the variation cannot be made. */
int variation_source_produce(variation_source *src, int v, double hypo[4], cs_error *err);
/* The same into a buffer of the caller's: several threads may produce generated variations of
 * one source at once (SRF files are read by one thread: PROJ's transformations are shared; see
 * variation_source_produce_srf for reading them apart). */
int variation_source_produce_into(const variation_source *src, variation_buffer *b, int v,
                                  double hypo[4], cs_error *err);
/* A generated variation without its rupture times (NaN: a GPU makes them from the realisation's
 * edge times, hypo[3] naming the realisation), *hypo_point the hypocentre's point. 0, or -1
 * (err set). */
int variation_source_produce_untimed(const variation_source *src, variation_buffer *b, int v,
                                     double hypo[4], int *hypo_point, cs_error *err);
/* The same for an SRF variation whose file was read already (srf_read of its lfns[v], which
 * threads may do at once; turning its points into subfaults takes one thread at a time): srf
 * is taken over (freed, zeroed). */
int variation_source_produce_srf(const variation_source *src, variation_buffer *b, srf_file *srf,
                                 double hypo[4], cs_error *err);
void variation_source_free_buffer(variation_buffer *b);
void variation_source_close(variation_source *src);

#endif
