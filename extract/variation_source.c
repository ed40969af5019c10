#include "variation_source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void variation_source_free_buffer(variation_buffer *b) {
    free(b->sf);
    free(b->sr);
    free(b->own_points);
    memset(b, 0, sizeof *b);
}

void variation_source_close(variation_source *src) {
    free(src->points);
    free(src->m6);
    free(src->vs);
    variation_source_free_buffer(&src->buf);
    memset(src, 0, sizeof *src);
}

/* Point i of the rupture on the SGT grid, and its moment tensor in the box frame. */
static int locate_point(variation_source *src, long i, cs_error *err) {
    const erf_rupture *r = src->r;
    CS_CALL(err, sgt_set_locate(src->sgt, r->lon[i], r->lat[i], r->dep[i], &src->points[i], err));
    CS_CALL(err, synth_moment_tensor(src->sgt, r->lon[i], r->lat[i], r->stk[i], r->dip[i],
                                     r->rake[i], src->m6 + 6 * i, err));
    return 0;
}

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
    for (long i = 0; i < n; i++) {
        int rc = locate_point(src, i, err);
        if (rc) {
            CS_TRACE(err);
            cs_error_prefix(err, "source %lld rupture %lld point %ld: ", r->source_id,
                            r->rupture_id, i);
            return rc;
        }
        double mu = src->sgt->material[3 * src->points[i] + 1];
        src->rho[i] = src->sgt->material[3 * src->points[i] + 2];
        src->vs[i] = src->rho[i] > 0 && mu > 0 ? sqrt(mu / src->rho[i]) : 0;
    }
    return 0;
}

static int produce_generated(const variation_source *src, variation_buffer *b, int v,
                             double hypo[4], cs_error *err) {
    if (b->cap < src->n) {
        synth_subfault *sf = realloc(b->sf, sizeof *sf * (size_t)(src->n ? src->n : 1));
        if (!sf) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for subfaults");
        b->sf = sf;
        b->cap = src->n;
    }
    srf_file srf;
    rupgen_info info;
    CS_CALL(err, rupgen_variation_in(src->r, src->gen, src->vs, src->rho, v, &srf, &info, err));
    size_t need = (size_t)(srf.nsamples ? srf.nsamples : 1);
    if (need > b->sr_cap) {
        double *grown = realloc(b->sr, sizeof(double) * need);
        if (!grown) {
            srf_free(&srf);
            return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for slip rates");
        }
        b->sr = grown;
        b->sr_cap = need;
    }
    long at = 0;
    for (long i = 0; i < src->n; i++) {
        const srf_point *p = &srf.points[i];
        synth_subfault *q = &b->sf[i];
        memcpy(q->m, src->m6 + 6 * i, sizeof q->m);
        q->slot = (int)i;
        q->scale = src->sgt->material[3 * src->points[i] + 1] * p->area * 1e-4;
        q->tinit = p->tinit;
        q->dt_s = p->dt;
        q->nsr = p->nt[0];
        q->sr = b->sr + at;
        for (int j = 0; j < p->nt[0]; j++)
            b->sr[at + j] = p->sr[0][j] * 0.01;
        at += p->nt[0];
    }
    b->nsf = src->n;
    srf_free(&srf);
    hypo[0] = info.hypo_lat;
    hypo[1] = info.hypo_lon;
    hypo[2] = info.hypo_depth;
    hypo[3] = info.slip_index;
    return 0;
}

/* Reads variation v's SRF into b; its points into *points (allocated). */
static int read_srf(const variation_source *src, variation_buffer *b, int v, long **points,
                    long *npoints, double hypo[4], cs_error *err) {
    srf_file srf;
    CS_CALL(err, srf_read(src->lfns[v], &srf, err));
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
                          const erf_rupture *r, int nvar, char *const *lfns, cs_error *err) {
    memset(src, 0, sizeof *src);
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

int variation_source_produce_into(const variation_source *src, variation_buffer *b, int v,
                                  double hypo[4], cs_error *err) {
    /* -1 on failure, not a status: VARIATION_OTHER_POINTS (2) is an answer, and a status (a
     * generated variation's failure, 1 or 4) was once taken for success by callers testing < 0 */
    if (!src->lfns) {
        if (produce_generated(src, b, v, hypo, err)) {
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
    if (npoints == src->n && !memcmp(points, src->points, sizeof(long) * (size_t)npoints)) {
        free(points);
        return 0;
    }
    b->own_points = points;
    b->own_npoints = npoints;
    return VARIATION_OTHER_POINTS;
}

int variation_source_produce(variation_source *src, int v, double hypo[4], cs_error *err) {
    return variation_source_produce_into(src, &src->buf, v, hypo, err);
}
