#include "extract_gpu.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cs_progress.h"
#include "extract_batch_rule.h"
#include "sgt_set.h"
#include "synth_spectra_cache.h"

typedef struct {
    float *strain; /* block x 18 x nt_sgt */
    /* two slots, the batch in the device's hands and the one before: records (batch x 3 x nt)
     * and, where the device takes them, their measures (batch x IM_GIVEN_VALUES(nperiods)) */
    double *vel, *given;
    size_t rec, grec; /* one slot's doubles */
    int vel_owned;    /* vel malloc'ed here (else the context's page-locked record buffer) */
} gpu_buffers;

static void buffers_free(gpu_buffers *b) {
    free(b->strain);
    if (b->vel_owned) free(b->vel);
    free(b->given);
}

/* The ruptures a pipeline takes: one, or several small generated ones whose variations share
 * batches (a batch's work on the device takes about as long for 18 variations as for 128, and
 * most of a site's ruptures have fewer variations than a batch). The pipeline's variation v is
 * rupture k's variation v - first[k]. */
typedef struct {
    int nr;
    variation_source *const *src;
    rupture_result *const *out;
    const int *first;   /* nr + 1 */
    long *const *rowof; /* each rupture's points' rows (NULL: rows 0 .. n - 1, one rupture) */
} gpu_ruptures;

/* The variations a batch of these ruptures takes: the device's whole batch for several, at
 * most EXTRACT_RUPTURE_BATCH for one (extract_batch_rule.h says why). */
static int batch_of(const extract_worker *w, const gpu_ruptures *g) {
    int batch = synth_gpu_batch(w->gpu);
    return g->nr > 1 || batch < EXTRACT_RUPTURE_BATCH ? batch : EXTRACT_RUPTURE_BATCH;
}

/* The rupture of the pipeline's variation v. */
static int rupture_of(const gpu_ruptures *g, int v) {
    int lo = 0, hi = g->nr - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (g->first[mid] <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The spectra of points first .. first + np - 1 into device rows 0 .. np - 1. */
static int load_chunk(extract_worker *w, const variation_source *src, long first, long np,
                      const double *m6, gpu_buffers *buf, cs_error *err) {
    long block = synth_gpu_block(w->gpu);
    for (long q0 = 0; q0 < np; q0 += block) {
        long nq = np - q0 < block ? np - q0 : block;
        double t0 = cs_now();
        CS_CALL(err, sgt_set_read(w->sgt, src->points + first + q0, nq, buf->strain, err));
        double t1 = cs_now();
        CS_CALL(err, synth_gpu_load(w->gpu, q0, nq, buf->strain, m6 ? m6 + 6 * (first + q0) : NULL,
                                    err));
        w->phase[EXTRACT_READ] += t1 - t0;
        w->phase[EXTRACT_SPECTRA] += cs_now() - t1;
        w->points_made += (double)nq;
    }
    return 0;
}

/* rc is a failure's status, not success or "again with full spectra". */
static int is_failure(int rc) {
    return rc != 0 && rc != EXTRACT_AGAIN_FULL;
}

/* The spectra of the points the rank does not hold yet (points[load[i]] combined with
 * m6 + 6 load[i], i < nload, in save point order so that the reads take runs of rows) into the
 * rows the map gave them. */
static int load_missing(extract_worker *w, const long *points, const double *m6, const long *rowof,
                        const long *load, long nload, gpu_buffers *buf, cs_error *err) {
    long block = synth_gpu_block(w->gpu);
    long *pts = malloc(sizeof(long) * (size_t)block), *rows = malloc(sizeof(long) * (size_t)block);
    double *m = malloc(sizeof(double) * 6 * (size_t)block);
    int rc = 0;
    if (!pts || !rows || !m) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (long i0 = 0; !rc && i0 < nload; i0 += block) {
        long nq = nload - i0 < block ? nload - i0 : block;
        for (long q = 0; q < nq; q++) {
            long slot = load[i0 + q];
            pts[q] = points[slot];
            rows[q] = rowof[slot];
            memcpy(m + 6 * q, m6 + 6 * slot, sizeof(double) * 6);
        }
        double t0 = cs_now();
        rc = sgt_set_read(w->sgt, pts, nq, buf->strain, err);
        double t1 = cs_now();
        if (!rc) rc = synth_gpu_load_rows(w->gpu, rows, nq, buf->strain, m, err);
        w->phase[EXTRACT_READ] += t1 - t0;
        w->phase[EXTRACT_SPECTRA] += cs_now() - t1;
        w->points_made += (double)nq;
    }
    free(pts);
    free(rows);
    free(m);
    if (rc) CS_TRACE(err);
    return rc;
}

/* A producing thread's own buffers. */
typedef struct {
    variation_buffer vb;
    synth_gpu_subfault *gs;
    long cap;
} thread_buffer;

/* Variation v of rupture k (of the pipeline's) on points first .. first + np - 1, staged as
 * batch member b.
 * Returns 0, a status, or EXTRACT_AGAIN_FULL when one's tensor is not its point's combination. */
static int stage_variation(extract_worker *w, const variation_source *src, int k, thread_buffer *t,
                           int v, int b, long first, long np, const long *rowof, int full,
                           srf_file *srf, double hypo[4], cs_error *err) {
    /* a generated variation's rupture times made on the device where it has the rupture's
     * edges (extract_rupture_gpu), else here */
    int on_device = !srf && synth_gpu_times_on(w->gpu), hp = -1;
    int got = srf         ? variation_source_produce_srf(src, &t->vb, srf, hypo, err)
              : on_device ? variation_source_produce_untimed(src, &t->vb, v, hypo, &hp, err)
                          : variation_source_produce_into(src, &t->vb, v, hypo, err);
    if (got == VARIATION_OTHER_POINTS)
        return cs_error_set(err, CS_ERR_INPUT,
                            "its subfaults lie on other points than the rupture's first "
                            "variation's; the CUDA extractor takes the variations of a rupture "
                            "on one geometry (--backend cpu takes it)");
    if (got < 0) {
        CS_TRACE(err);
        return extract_failure(err);
    }
    if (t->cap < t->vb.nsf) {
        synth_gpu_subfault *gs = realloc(t->gs, sizeof *gs * (size_t)t->vb.nsf);
        if (!gs) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for subfaults");
        t->gs = gs;
        t->cap = t->vb.nsf;
    }
    long n = 0;
    for (long i = 0; i < t->vb.nsf; i++) {
        const synth_subfault *s = &t->vb.sf[i];
        int use = on_device ? synth_subfault_checked(w->synth, src->n, s, err)
                            : synth_subfault_usable(w->synth, src->n, s, err);
        if (use < 0) {
            CS_TRACE(err);
            return extract_failure(err);
        }
        if (!use || s->slot < first || s->slot >= first + np) continue;
        if (!full && memcmp(src->m6 + 6 * (size_t)s->slot, s->m, sizeof s->m))
            return EXTRACT_AGAIN_FULL;
        synth_gpu_subfault *g = &t->gs[n++];
        g->row = rowof ? rowof[s->slot] : s->slot - first;
        g->pt = s->slot;
        g->tinit = s->tinit;
        g->dt_s = s->dt_s;
        g->scale = s->scale;
        g->nsr = s->nsr;
        g->sr = s->sr;
        memcpy(g->m, s->m, sizeof g->m);
    }
    if (on_device) CS_CALL(err, synth_gpu_stage_times(w->gpu, b, k, (int)hypo[3], hp, err));
    return synth_gpu_stage(w->gpu, b, t->gs, n, err);
}

/* The pipeline's variations v0 + b, b in [b0, b1), staged by nth threads (srf[b - b0]: each
 * one's SRF, read; or NULL: generated). Folds each one's result into *status: the first
 * failure's status (err set), else EXTRACT_AGAIN_FULL when a tensor is not its point's. */
static void stage_range(extract_worker *w, const gpu_ruptures *g, thread_buffer *tb, int nth,
                        int v0, int b0, int b1, long first, long np, int full, srf_file *srf,
                        int *status, cs_error *err) {
#pragma omp parallel num_threads(nth)
    {
        thread_buffer *t = &tb[omp_get_thread_num()];
#pragma omp for schedule(dynamic)
        for (int b = b0; b < b1; b++) {
            int seen;
#pragma omp atomic read
            seen = *status;
            if (is_failure(seen)) continue;
            cs_error e;
            cs_error_clear(&e);
            double hypo[4];
            int k = rupture_of(g, v0 + b), v = v0 + b - g->first[k];
            const variation_source *src = g->src[k];
            /* kept rows: each rupture's points whole, whatever the first one's count */
            const long *rowof = g->rowof ? g->rowof[k] : NULL;
            int rc = stage_variation(w, src, k, t, v, b, rowof ? 0 : first, rowof ? src->n : np,
                                     rowof, full, srf ? &srf[b - b0] : NULL, hypo, &e);
            if (is_failure(rc)) extract_name_variation(src, v, &e);
            if (!rc) memcpy(g->out[k]->hypo + 4 * (size_t)v, hypo, sizeof hypo);
#pragma omp critical(extract_gpu_status)
            {
                /* the first failure wins; "again with full spectra" only over success */
                if (is_failure(rc) && !is_failure(*status)) *err = e, *status = rc;
                if (rc == EXTRACT_AGAIN_FULL && *status == 0) *status = rc;
            }
        }
    }
}

/* The SRF files of variations v0 + b, b in [b0, b1), read by the threads at once (parsing the
 * text is most of an SRF variation's cost: 84 files of 10 MB took 7.8 s on one thread). */
static void read_srfs(const variation_source *src, int v0, int b0, int b1, srf_file *srf,
                      int *status, cs_error *err) {
#pragma omp parallel for schedule(dynamic)
    for (int b = b0; b < b1; b++) {
        cs_error e;
        cs_error_clear(&e);
        int rc = srf_read(src->lfns[v0 + b], &srf[b - b0], &e);
        if (rc) {
            extract_name_variation(src, v0 + b, &e);
#pragma omp critical(extract_gpu_status)
            {
                if (!is_failure(*status)) *err = e, *status = rc;
            }
        }
    }
}

/* Every variation of a batch staged: generated ones by the rank's threads at once (the host's
 * share of the work); SRFs read by the threads a group at a time, then turned into subfaults
 * by one (PROJ's transformations are shared). Returns the first failure's status, else
 * EXTRACT_AGAIN_FULL when a tensor is not its point's. */
static int stage_batch_run(extract_worker *w, const gpu_ruptures *g, int v0, int nb, long first,
                           long np, int full, cs_error *err) {
    /* SRF files come one rupture at a time */
    const variation_source *src = g->src[0];
    int nth = omp_get_max_threads(), status = 0;
    thread_buffer *tb = calloc((size_t)nth, sizeof *tb);
    srf_file *srf = src->lfns ? calloc((size_t)nth, sizeof *srf) : NULL;
    if (!tb || (src->lfns && !srf)) {
        free(tb);
        free(srf);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    if (!src->lfns) {
        stage_range(w, g, tb, nth, v0, 0, nb, first, np, full, NULL, &status, err);
    } else {
        for (int b0 = 0; b0 < nb && !is_failure(status); b0 += nth) {
            int b1 = nb - b0 < nth ? nb : b0 + nth;
            read_srfs(src, v0, b0, b1, srf, &status, err);
            if (!is_failure(status))
                stage_range(w, g, tb, 1, v0, b0, b1, first, np, full, srf, &status, err);
            for (int i = 0; i < b1 - b0; i++)
                srf_free(&srf[i]); /* those staged were taken over (zeroed) */
        }
    }
    for (int i = 0; i < nth; i++) {
        variation_source_free_buffer(&tb[i].vb);
        free(tb[i].gs);
    }
    free(tb);
    free(srf);
    return status;
}

/* g->rowof: each point's row (the spectra the rank keeps), or NULL: rows first .. first + np -
 * 1 */
static int stage_batch(extract_worker *w, const gpu_ruptures *g, int v0, int nb, long first,
                       long np, int full, cs_error *err) {
    double t0 = cs_now();
    int rc = stage_batch_run(w, g, v0, nb, first, np, full, err);
    w->phase[EXTRACT_MAKE] += cs_now() - t0;
    return rc;
}

/* The device's records of a batch into slot `slot` (copied while the host goes on), the call
 * timed. */
static int records(extract_worker *w, int nb, gpu_buffers *buf, int slot, cs_error *err) {
    double t0 = cs_now();
    int rc = synth_gpu_records(w->gpu, nb, buf->vel + (size_t)slot * buf->rec, slot, err);
    w->phase[EXTRACT_SUM] += cs_now() - t0;
    return rc;
}

/* The records of a batch (slot `slot`): IMs by the rank's threads, one variation each. */
static int finish_batch_run(extract_worker *w, const gpu_buffers *buf, int slot,
                            const gpu_ruptures *g, int v0, int nb, cs_error *err);
static int finish_batch(extract_worker *w, const gpu_buffers *buf, int slot, const gpu_ruptures *g,
                        int v0, int nb, cs_error *err) {
    double t0 = cs_now();
    CS_CALL(err, synth_gpu_wait(w->gpu, slot, nb,
                                buf->given ? buf->given + (size_t)slot * buf->grec : NULL, err));
    double t1 = cs_now();
    w->phase[EXTRACT_SUM] += t1 - t0;
    int rc = finish_batch_run(w, buf, slot, g, v0, nb, err);
    w->phase[EXTRACT_MEASURE] += cs_now() - t1;
    return rc;
}

static int finish_batch_run(extract_worker *w, const gpu_buffers *buf, int slot,
                            const gpu_ruptures *g, int v0, int nb, cs_error *err) {
    int nt = w->synth->nt, failed = 0;
    const double *vel = buf->vel + (size_t)slot * buf->rec;
    const double *given = buf->given ? buf->given + (size_t)slot * buf->grec : NULL;
    size_t per = IM_GIVEN_VALUES((size_t)w->ims->nperiods);
    cs_error first_err;
    cs_error_clear(&first_err);
#pragma omp parallel for schedule(dynamic)
    for (int b = 0; b < nb; b++) {
        cs_error e;
        cs_error_clear(&e);
        int k = rupture_of(g, v0 + b);
        if (extract_take_record_given(w, vel + (size_t)b * 3 * nt,
                                      given ? given + (size_t)b * per : NULL, g->out[k],
                                      v0 + b - g->first[k], &e)) {
#pragma omp critical
            {
                if (!failed) first_err = e;
                failed = 1;
            }
        }
    }
    if (failed) {
        *err = first_err;
        CS_TRACE(err);
        return extract_failure(err);
    }
    return 0;
}

/* Variations whose spectra the device holds at once (in rows g->rowof[k][point], or 0 .. n - 1
 * when rowof is NULL), their batches in a pipeline (two record buffers): while the device sums
 * batch i and makes its records, the host's threads make the variations of batch i + 1; while
 * it sums batch i + 1 and makes its records, they take batch i's measures. A batch's records
 * are asked for with its sums (their slot held batch i - 1, taken in the round before), so the
 * device never waits for the host to make them. */
static int pipelined(extract_worker *w, const gpu_ruptures *g, int full, gpu_buffers *buf,
                     cs_error *err) {
    int batch = batch_of(w, g), nvar = g->first[g->nr];
    long np = g->src[0]->n; /* without rowof, one rupture's (stage_range) */
    int nb = nvar < batch ? nvar : batch, rc;
    CS_CALL(err, synth_gpu_begin(w->gpu, nb, err));
    if ((rc = stage_batch(w, g, 0, nb, 0, np, full, err))) return rc;
    CS_CALL(err, synth_gpu_accumulate(w->gpu, err));
    CS_CALL(err, records(w, nb, buf, 0, err));
    for (int v0 = 0, i = 0; v0 < nvar; v0 += batch, i++) {
        nb = nvar - v0 < batch ? nvar - v0 : batch;
        int next = v0 + batch, nnext = nvar - next < batch ? nvar - next : batch;
        if (nnext > 0) {
            CS_CALL(err, synth_gpu_begin(w->gpu, nnext, err));
            if ((rc = stage_batch(w, g, next, nnext, 0, np, full, err))) return rc;
            CS_CALL(err, synth_gpu_accumulate(w->gpu, err));
            CS_CALL(err, records(w, nnext, buf, (i + 1) % 2, err));
        }
        CS_CALL(err, finish_batch(w, buf, i % 2, g, v0, nb, err));
    }
    return 0;
}

/* The ruptures on the spectra the rank keeps: their points' rows from the map (the ruptures'
 * points taken as one list, so that none of them gives up a row another of them holds), the
 * missing ones loaded. *fits = 0 (nothing done) when they have more distinct points than the
 * rows. */
static int kept(extract_worker *w, variation_source *const *src, int nr, const int *first,
                rupture_result *const *out, gpu_buffers *buf, int *fits, cs_error *err) {
    synth_spectra_cache *c = w->cache;
    *fits = 1; /* a failure below is the ruptures' */
    long n = 0;
    for (int k = 0; k < nr; k++)
        n += src[k]->n;
    long *rowof = malloc(sizeof(long) * (size_t)n + 1);
    long *load = malloc(sizeof(long) * (size_t)n + 1), nload = 0;
    long **rows = malloc(sizeof(long *) * (size_t)nr);
    /* one rupture's lists are its own; several are copied into one */
    long *points = nr == 1 ? src[0]->points : malloc(sizeof(long) * (size_t)n + 1);
    double *m6 = nr == 1 ? src[0]->m6 : malloc(sizeof(double) * 6 * (size_t)n + 1);
    int rc = 0;
    if (!rowof || !load || !rows || !points || !m6) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    } else {
        for (long k = 0, at = 0; k < nr; at += src[k]->n, k++) {
            rows[k] = rowof + at;
            if (nr == 1) continue;
            memcpy(points + at, src[k]->points, sizeof(long) * (size_t)src[k]->n);
            memcpy(m6 + 6 * at, src[k]->m6, sizeof(double) * 6 * (size_t)src[k]->n);
        }
        if (c->held == 0) synth_gpu_forget(w->gpu); /* whatever the rows held is no one's now */
        cs_error e;
        cs_error_clear(&e);
        *fits = !synth_spectra_cache_assign(c, n, points, m6, rowof, load, &nload, &e);
        rc = *fits ? load_missing(w, points, m6, rowof, load, nload, buf, err) : 0;
        if (*fits) w->points_kept += (double)(n - nload);
        gpu_ruptures g = {nr, src, out, first, rows};
        if (*fits && !rc) rc = pipelined(w, &g, 0, buf, err);
        /* rows half loaded, or a failure: the map no longer says what the rows hold */
        if (is_failure(rc)) synth_spectra_cache_clear(c);
    }
    if (nr > 1) {
        free(points);
        free(m6);
    }
    free(rows);
    free(rowof);
    free(load);
    return rc;
}

/* A rupture whose spectra the device cannot hold at once: every batch takes the chunks of its
 * points in turn, each loaded again. */
static int chunked(extract_worker *w, const gpu_ruptures *g, int full, long chunk, gpu_buffers *buf,
                   cs_error *err) {
    const variation_source *src = g->src[0];
    const double *m6 = full ? NULL : src->m6;
    int batch = batch_of(w, g), nvar = g->first[1];
    for (int v0 = 0; v0 < nvar; v0 += batch) {
        int nb = nvar - v0 < batch ? nvar - v0 : batch;
        CS_CALL(err, synth_gpu_begin(w->gpu, nb, err));
        for (long first = 0; first < src->n; first += chunk) {
            long np = src->n - first < chunk ? src->n - first : chunk;
            CS_CALL(err, load_chunk(w, src, first, np, m6, buf, err));
            int rc = stage_batch(w, g, v0, nb, first, np, full, err);
            if (rc) return rc;
            CS_CALL(err, synth_gpu_accumulate(w->gpu, err));
        }
        CS_CALL(err, records(w, nb, buf, 0, err));
        CS_CALL(err, finish_batch(w, buf, 0, g, v0, nb, err));
    }
    return 0;
}

static int run(extract_worker *w, variation_source *src, int nvar, int full, gpu_buffers *buf,
               rupture_result *out, cs_error *err) {
    if (nvar < 1) return 0;
    int first[2] = {0, nvar};
    if (w->cache && !full && src->m6) {
        int fits, rc = kept(w, &src, 1, first, &out, buf, &fits, err);
        if (fits) return rc;
    }
    /* the paths below write the rows from the first on, in either layout */
    if (w->cache) synth_spectra_cache_clear(w->cache);
    long chunk = synth_gpu_rows(w->gpu, full || !src->m6 ? 18 : 3);
    if (chunk < 1) return cs_error_set(err, CS_ERR_RESOURCE, "the GPU holds no point's spectra");
    gpu_ruptures g = {1, &src, &out, first, NULL};
    if (chunk < src->n) return chunked(w, &g, full, chunk, buf, err);
    CS_CALL(err, load_chunk(w, src, 0, src->n, full ? NULL : src->m6, buf, err));
    return pipelined(w, &g, full, buf, err);
}

/* Generated ruptures' realisations' edge times to the device, so that it makes the variations'
 * rupture times (the host's largest share otherwise), unless CYBERSHAKE_GPU_TIMES=0
 * (w->gpu_times); none for SRF files. */
static int set_times(extract_worker *w, variation_source *const *src, int nr, cs_error *err) {
    synth_gpu_times_rupture *t = malloc(sizeof *t * (size_t)nr);
    if (!t) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    int on = w->gpu_times;
    for (int k = 0; k < nr && on; k++) {
        const variation_source *s = src[k];
        on = !s->lfns && s->nreal >= 1 && s->n >= 1 && s->n <= 2147483647L / RUPGEN_EDGES;
        t[k] = (synth_gpu_times_rupture){s->real, s->nreal, s->n, s->r->ncols};
    }
    int rc =
        synth_gpu_set_times(w->gpu, on ? t : NULL, on ? nr : 0, synth_window_end(w->synth), err);
    free(t);
    return rc;
}

/* The context's host buffers for a pipeline. */
static int buffers_make(extract_worker *w, gpu_buffers *buf, cs_error *err) {
    memset(buf, 0, sizeof *buf);
    long block = synth_gpu_block(w->gpu);
    int batch = synth_gpu_batch(w->gpu);
    buf->strain = malloc(sizeof(float) * 18 * (size_t)w->synth->nt_sgt * (size_t)block);
    buf->rec = 3 * (size_t)w->synth->nt * (size_t)batch;
    buf->vel = synth_gpu_record_buffer(w->gpu);
    buf->vel_owned = buf->vel == NULL;
    if (!buf->vel) buf->vel = malloc(sizeof(double) * 2 * buf->rec);
    buf->grec = IM_GIVEN_VALUES((size_t)w->ims->nperiods) * (size_t)batch;
    if (w->gpu_measures) buf->given = malloc(sizeof(double) * 2 * buf->grec);
    if (buf->strain && buf->vel && (!w->gpu_measures || buf->given)) return 0;
    buffers_free(buf);
    return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for the GPU's host buffers");
}

int extract_rupture_gpu(extract_worker *w, variation_source *src, int nvar, int full,
                        rupture_result *out, cs_error *err) {
    gpu_buffers buf;
    CS_CALL(err, buffers_make(w, &buf, err));
    int rc = set_times(w, &src, 1, err);
    if (!rc) rc = run(w, src, nvar, full, &buf, out, err);
    buffers_free(&buf);
    return rc;
}

int extract_ruptures_gpu(extract_worker *w, variation_source *const *src, const int *nvar, int nr,
                         rupture_result *const *out, cs_error *err) {
    if (!w->cache) return EXTRACT_ALONE;
    for (int k = 0; k < nr; k++)
        if (src[k]->lfns || !src[k]->m6 || nvar[k] < 1) return EXTRACT_ALONE;
    int *first = malloc(sizeof(int) * (size_t)(nr + 1));
    if (!first) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    first[0] = 0;
    for (int k = 0; k < nr; k++)
        first[k + 1] = first[k] + nvar[k];
    gpu_buffers buf;
    int fits = 1, rc = buffers_make(w, &buf, err);
    if (!rc) {
        rc = set_times(w, src, nr, err);
        if (!rc) rc = kept(w, src, nr, first, out, &buf, &fits, err);
        buffers_free(&buf);
    }
    free(first);
    if (!fits || rc == EXTRACT_AGAIN_FULL) return EXTRACT_ALONE;
    return rc;
}
