#include "variation_source.h"

#include <omp.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

void variation_source_free_buffer(variation_buffer *b) {
    free(b->sf);
    free(b->sr);
    free(b->own_points);
    free(b->t);
    memset(b, 0, sizeof *b);
}

void variation_source_close(variation_source *src) {
    free(src->points);
    free(src->m6);
    free(src->vs);
    for (int k = 0; k < src->nreal; k++) {
        rupgen_realisation_free(&src->real[k]);
        free(src->sr_si[k]);
    }
    free(src->real);
    free(src->sr_si);
    variation_source_free_buffer(&src->buf);
    memset(src, 0, sizeof *src);
}

/* The slip realisations of the source's variations, and their slip rates in m/s. */
static int make_realisations(variation_source *src, cs_error *err) {
    rupgen_layout lay;
    CS_CALL(err, rupgen_plan(src->r, src->gen, &lay, err));
    int nhypo = lay.nhypo_strike * lay.nhypo_dip;
    int nvar = src->nvar < lay.nvariations ? src->nvar : lay.nvariations;
    int nreal = nvar > 0 && nhypo > 0 ? (nvar - 1) / nhypo + 1 : 0;
    src->real = calloc((size_t)(nreal ? nreal : 1), sizeof *src->real);
    src->sr_si = calloc((size_t)(nreal ? nreal : 1), sizeof *src->sr_si);
    if (!src->real || !src->sr_si) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    CS_CALL(err, rupgen_realisations_make(src->r, src->gen, src->vs, src->rho, 0, nreal,
                                          src->threads, src->real, err));
    src->nreal = nreal;
    for (int k = 0; k < nreal; k++) {
        rupgen_realisation *re = &src->real[k];
        src->sr_si[k] = malloc(sizeof(double) * (size_t)(re->nsamples ? re->nsamples : 1));
        if (!src->sr_si[k]) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        for (long j = 0; j < re->nsamples; j++)
            src->sr_si[k][j] = re->sr[j] * 0.01;
    }
    return 0;
}

/* Point i of the rupture on the SGT grid, its moment tensor in the box frame and its vs and
 * rho, through the SGT set's frame `thread`. */
static int locate_point(variation_source *src, int thread, long i, cs_error *err) {
    const erf_rupture *r = src->r;
    double axes[3][3];
    CS_CALL(err, sgt_set_locate_axes(src->sgt, thread, r->lon[i], r->lat[i], r->dep[i],
                                     &src->points[i], axes, err));
    synth_moment_tensor_in((const double(*)[3])axes, r->stk[i], r->dip[i], r->rake[i],
                           src->m6 + 6 * i);
    double mu = src->sgt->material[3 * src->points[i] + 1];
    src->rho[i] = src->sgt->material[3 * src->points[i] + 2];
    src->vs[i] = src->rho[i] > 0 && mu > 0 ? sqrt(mu / src->rho[i]) : 0;
    return 0;
}

/* Every point located on the source's threads (each through its own frame of the SGT set: two
 * projections a point, most of a rupture's opening where one thread did them); the failure of
 * the first point that fails, as one thread would report it. */
static int open_generated(variation_source *src, cs_error *err) {
    const erf_rupture *r = src->r;
    long n = src->n = erf_rupture_npoints(r);
    size_t nn = (size_t)(n ? n : 1);
    src->points = malloc(sizeof(long) * nn);
    src->m6 = malloc(sizeof(double) * 6 * nn);
    src->vs = malloc(sizeof(double) * 2 * nn);
    if (!src->points || !src->m6 || !src->vs)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a rupture of %ld points", n);
    src->rho = src->vs + n;
    int threads = src->threads < 1 ? 1 : src->threads;
    if (threads > src->sgt->nframes) threads = src->sgt->nframes;
    if ((long)threads * 64 > n) threads = (int)(n / 64 > 0 ? n / 64 : 1);
    long bad = n;
    int bad_rc = 0;
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num();
        cs_error e;
        cs_error_clear(&e);
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++) {
            int rc = locate_point(src, t, i, &e);
            if (rc) {
#pragma omp critical(variation_source_bad_point)
                if (i < bad) {
                    bad = i;
                    bad_rc = rc;
                    *err = e;
                }
            }
        }
    }
    if (bad < n) {
        CS_TRACE(err);
        cs_error_prefix(err, "source %lld rupture %lld point %ld: ", r->source_id, r->rupture_id,
                        bad);
        return bad_rc;
    }
    return make_realisations(src, err);
}

/* Variation v from its realisation: only its rupture times are made here; the slip rates are
 * the realisation's own (the same values rupgen_variation_in writes into an SRF). */
/* hp: NULL, the rupture times made here; else they are left NaN for the caller's device, and
 * *hp the hypocentre's point. */
static int produce_generated(const variation_source *src, variation_buffer *b, int v,
                             double hypo[4], int *hp, cs_error *err) {
    size_t nn = (size_t)(src->n ? src->n : 1);
    if (b->cap < src->n) {
        synth_subfault *sf = realloc(b->sf, sizeof *sf * nn);
        if (!sf) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for subfaults");
        b->sf = sf;
        b->cap = src->n;
    }
    if (b->t_cap < src->n) {
        double *t = realloc(b->t, sizeof(double) * nn);
        if (!t) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for rupture times");
        b->t = t;
        b->t_cap = src->n;
    }
    rupgen_info info;
    CS_CALL(err, rupgen_hypocentre(src->r, src->gen, v, &info, err));
    if (info.slip_index >= src->nreal)
        return cs_error_set(err, CS_ERR_INPUT, "variation %d outside the source's %d", v,
                            src->nvar);
    const rupgen_realisation *re = &src->real[info.slip_index];
    if (hp) {
        *hp = info.hypo_point;
        for (long i = 0; i < src->n; i++)
            b->t[i] = NAN;
    } else {
        CS_CALL(err, rupgen_times(src->r, re, info.hypo_point, b->t, err));
    }
    for (long i = 0; i < src->n; i++) {
        synth_subfault *q = &b->sf[i];
        memcpy(q->m, src->m6 + 6 * i, sizeof q->m);
        q->slot = (int)i;
        q->scale = src->sgt->material[3 * src->points[i] + 1] * re->area_cm2 * 1e-4;
        q->tinit = b->t[i];
        q->dt_s = re->dt;
        q->nsr = re->nt[i];
        q->sr = src->sr_si[info.slip_index] + re->at[i];
    }
    b->nsf = src->n;
    hypo[0] = info.hypo_lat;
    hypo[1] = info.hypo_lon;
    hypo[2] = info.hypo_depth;
    hypo[3] = info.slip_index;
    return 0;
}

/* A variation's SRF, read, into b (freed); its points into *points (allocated). */
static int from_srf(const variation_source *src, variation_buffer *b, srf_file *srf_in,
                    long **points, long *npoints, double hypo[4], cs_error *err) {
    srf_file srf = *srf_in;
    memset(srf_in, 0, sizeof *srf_in);
    free(b->sf);
    free(b->sr);
    b->sf = NULL;
    b->sr = NULL;
    b->sr_cap = 0;
    int rc =
        synth_subfaults_from_srf(src->sgt, &srf, &b->sf, &b->nsf, points, npoints, &b->sr, err);
    b->cap = b->nsf;
    /* the hypocentre: the first point to rupture */
    long first = 0;
    for (long i = 1; i < srf.npoints; i++)
        if (srf.points[i].tinit < srf.points[first].tinit) first = i;
    hypo[0] = srf.npoints ? srf.points[first].lat : NAN;
    hypo[1] = srf.npoints ? srf.points[first].lon : NAN;
    hypo[2] = srf.npoints ? srf.points[first].dep : NAN;
    hypo[3] = 0;
    srf_free(&srf);
    return rc;
}

/* Reads variation v's SRF into b; its points into *points (allocated). */
static int read_srf(const variation_source *src, variation_buffer *b, int v, long **points,
                    long *npoints, double hypo[4], cs_error *err) {
    srf_file srf;
    CS_CALL(err, srf_read(src->lfns[v], &srf, err));
    CS_CALL(err, from_srf(src, b, &srf, points, npoints, hypo, err));
    return 0;
}

static int open_files(variation_source *src, cs_error *err) {
    double hypo[4];
    CS_CALL(err, read_srf(src, &src->buf, 0, &src->points, &src->n, hypo, err));
    src->m6 = calloc(6 * (size_t)(src->n ? src->n : 1), sizeof(double));
    if (!src->m6) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    /* each point's combination is made for its first subfault's tensor; a variation with
     * another one makes the synthesis fall back to every component's spectra */
    const variation_buffer *b = &src->buf;
    for (long q = b->nsf - 1; q >= 0; q--)
        memcpy(src->m6 + 6 * b->sf[q].slot, b->sf[q].m, sizeof b->sf[q].m);
    return 0;
}

int variation_source_open(variation_source *src, const sgt_set *sgt, const rupgen_params *gen,
                          const erf_rupture *r, int nvar, char *const *lfns, int threads,
                          cs_error *err) {
    memset(src, 0, sizeof *src);
    src->threads = threads;
    src->sgt = sgt;
    src->gen = gen;
    src->r = r;
    src->lfns = lfns;
    src->nvar = nvar;
    int rc = lfns ? (nvar > 0 ? open_files(src, err) : 0) : open_generated(src, err);
    if (rc) {
        if (lfns && nvar > 0 && strncmp(err->message, lfns[0], strlen(lfns[0])))
            cs_error_prefix(err, "%s: ", lfns[0]);
        variation_source_close(src);
    }
    return rc;
}

/* The rest of a variation from its SRF's points (b->own_points when they are not the
 * rupture's). */
static int own_points(const variation_source *src, variation_buffer *b, long *points,
                      long npoints) {
    if (npoints == src->n && !memcmp(points, src->points, sizeof(long) * (size_t)npoints)) {
        free(points);
        return 0;
    }
    b->own_points = points;
    b->own_npoints = npoints;
    return VARIATION_OTHER_POINTS;
}

int variation_source_produce_srf(const variation_source *src, variation_buffer *b, srf_file *srf,
                                 double hypo[4], cs_error *err) {
    long *points = NULL, npoints = 0;
    free(b->own_points);
    b->own_points = NULL;
    b->own_npoints = 0;
    if (from_srf(src, b, srf, &points, &npoints, hypo, err)) {
        CS_TRACE(err);
        free(points);
        return -1;
    }
    return own_points(src, b, points, npoints);
}

int variation_source_produce_into(const variation_source *src, variation_buffer *b, int v,
                                  double hypo[4], cs_error *err) {
    /* -1 on failure, not a status: VARIATION_OTHER_POINTS (2) is an answer, and a status (a
     * generated variation's failure, 1 or 4) was once taken for success by callers testing < 0 */
    if (!src->lfns) {
        if (produce_generated(src, b, v, hypo, NULL, err)) {
            CS_TRACE(err);
            return -1;
        }
        return 0;
    }
    long *points = NULL, npoints = 0;
    free(b->own_points);
    b->own_points = NULL;
    b->own_npoints = 0;
    if (read_srf(src, b, v, &points, &npoints, hypo, err)) {
        CS_TRACE(err);
        free(points);
        return -1;
    }
    return own_points(src, b, points, npoints);
}

int variation_source_produce_untimed(const variation_source *src, variation_buffer *b, int v,
                                     double hypo[4], int *hypo_point, cs_error *err) {
    if (src->lfns) return cs_error_set(err, CS_ERR_INTERNAL, "untimed variations of SRF files");
    if (produce_generated(src, b, v, hypo, hypo_point, err)) {
        CS_TRACE(err);
        return -1;
    }
    return 0;
}

int variation_source_produce(variation_source *src, int v, double hypo[4], cs_error *err) {
    return variation_source_produce_into(src, &src->buf, v, hypo, err);
}
