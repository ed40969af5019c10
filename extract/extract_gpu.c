#include "extract_gpu.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cs_progress.h"
#include "sgt_set.h"

typedef struct {
    float *strain; /* block x 18 x nt_sgt */
    double *vel;   /* 2 x batch x 3 x nt: the batch in the device's hands and the one before */
} gpu_buffers;

static void buffers_free(gpu_buffers *b) {
    free(b->strain);
    free(b->vel);
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
    }
    return 0;
}

/* rc is a failure's status, not success or "again with full spectra". */
static int is_failure(int rc) {
    return rc != 0 && rc != EXTRACT_AGAIN_FULL;
}

/* A producing thread's own buffers. */
typedef struct {
    variation_buffer vb;
    synth_gpu_subfault *gs;
    long cap;
} thread_buffer;

/* Variation v's subfaults on points first .. first + np - 1, staged as batch member b.
 * Returns 0, a status, or EXTRACT_AGAIN_FULL when one's tensor is not its point's combination. */
static int stage_variation(extract_worker *w, const variation_source *src, thread_buffer *t, int v,
                           int b, long first, long np, int full, double hypo[4], cs_error *err) {
    int got = variation_source_produce_into(src, &t->vb, v, hypo, err);
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
        int use = synth_subfault_usable(w->synth, src->n, s, err);
        if (use < 0) {
            CS_TRACE(err);
            return extract_failure(err);
        }
        if (!use || s->slot < first || s->slot >= first + np) continue;
        if (!full && memcmp(src->m6 + 6 * (size_t)s->slot, s->m, sizeof s->m))
            return EXTRACT_AGAIN_FULL;
        synth_gpu_subfault *g = &t->gs[n++];
        g->row = s->slot - first;
        g->tinit = s->tinit;
        g->dt_s = s->dt_s;
        g->scale = s->scale;
        g->nsr = s->nsr;
        g->sr = s->sr;
        memcpy(g->m, s->m, sizeof g->m);
    }
    return synth_gpu_stage(w->gpu, b, t->gs, n, err);
}

/* Every variation of a batch staged: generated ones by the rank's threads at once (the host's
 * share of the work), SRFs read by one. Returns the first failure's status, else
 * EXTRACT_AGAIN_FULL when a tensor is not its point's. */
static int stage_batch_run(extract_worker *w, const variation_source *src, int v0, int nb,
                           long first, long np, int full, rupture_result *out, cs_error *err) {
    int nth = src->lfns ? 1 : omp_get_max_threads(), status = 0;
    thread_buffer *tb = calloc((size_t)nth, sizeof *tb);
    if (!tb) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
#pragma omp parallel num_threads(nth)
    {
        thread_buffer *t = &tb[omp_get_thread_num()];
#pragma omp for schedule(dynamic)
        for (int b = 0; b < nb; b++) {
            int seen;
#pragma omp atomic read
            seen = status;
            if (is_failure(seen)) continue;
            cs_error e;
            cs_error_clear(&e);
            double hypo[4];
            int rc = stage_variation(w, src, t, v0 + b, b, first, np, full, hypo, &e);
            if (is_failure(rc)) extract_name_variation(src, v0 + b, &e);
            if (!rc) memcpy(out->hypo + 4 * (size_t)(v0 + b), hypo, sizeof hypo);
#pragma omp critical(extract_gpu_status)
            {
                /* the first failure wins; "again with full spectra" only over success */
                if (is_failure(rc) && !is_failure(status)) *err = e, status = rc;
                if (rc == EXTRACT_AGAIN_FULL && status == 0) status = rc;
            }
        }
    }
    for (int i = 0; i < nth; i++) {
        variation_source_free_buffer(&tb[i].vb);
        free(tb[i].gs);
    }
    free(tb);
    return status;
}

static int stage_batch(extract_worker *w, const variation_source *src, int v0, int nb, long first,
                       long np, int full, rupture_result *out, cs_error *err) {
    double t0 = cs_now();
    int rc = stage_batch_run(w, src, v0, nb, first, np, full, out, err);
    w->phase[EXTRACT_MAKE] += cs_now() - t0;
    return rc;
}

/* The device's records of a batch, the wait timed. */
static int records(extract_worker *w, int nb, double *vel, cs_error *err) {
    double t0 = cs_now();
    int rc = synth_gpu_records(w->gpu, nb, vel, err);
    w->phase[EXTRACT_SUM] += cs_now() - t0;
    return rc;
}

/* The records of a batch: IMs by the rank's threads, one variation each. */
static int finish_batch_run(extract_worker *w, const double *vel, int v0, int nb,
                            rupture_result *out, cs_error *err);
static int finish_batch(extract_worker *w, const double *vel, int v0, int nb, rupture_result *out,
                        cs_error *err) {
    double t0 = cs_now();
    int rc = finish_batch_run(w, vel, v0, nb, out, err);
    w->phase[EXTRACT_MEASURE] += cs_now() - t0;
    return rc;
}

static int finish_batch_run(extract_worker *w, const double *vel, int v0, int nb,
                            rupture_result *out, cs_error *err) {
    int nt = w->synth->nt, failed = 0;
    cs_error first_err;
    cs_error_clear(&first_err);
#pragma omp parallel for schedule(dynamic)
    for (int b = 0; b < nb; b++) {
        cs_error e;
        cs_error_clear(&e);
        if (extract_take_record(w, vel + (size_t)b * 3 * nt, out, v0 + b, &e)) {
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

/* A rupture whose spectra the device holds at once, its batches in a pipeline: while the
 * device sums batch i, the host's threads take the measures of batch i - 1 and make the
 * variations of batch i + 1 (two record buffers). */
static int pipelined(extract_worker *w, variation_source *src, int nvar, int full, gpu_buffers *buf,
                     rupture_result *out, cs_error *err) {
    const double *m6 = full ? NULL : src->m6;
    int batch = synth_gpu_batch(w->gpu);
    size_t rec = 3 * (size_t)w->synth->nt * (size_t)batch;
    CS_CALL(err, load_chunk(w, src, 0, src->n, m6, buf, err));
    int nb = nvar < batch ? nvar : batch, rc;
    CS_CALL(err, synth_gpu_begin(w->gpu, nb, err));
    if ((rc = stage_batch(w, src, 0, nb, 0, src->n, full, out, err))) return rc;
    CS_CALL(err, synth_gpu_accumulate(w->gpu, err));
    for (int v0 = 0, i = 0; v0 < nvar; v0 += batch, i++) {
        nb = nvar - v0 < batch ? nvar - v0 : batch;
        int next = v0 + batch, nnext = nvar - next < batch ? nvar - next : batch;
        if (i > 0)
            CS_CALL(err, finish_batch(w, buf->vel + (size_t)((i - 1) % 2) * rec, v0 - batch, batch,
                                      out, err));
        if (nnext > 0) {
            CS_CALL(err, synth_gpu_begin(w->gpu, nnext, err));
            if ((rc = stage_batch(w, src, next, nnext, 0, src->n, full, out, err))) return rc;
        }
        CS_CALL(err, records(w, nb, buf->vel + (size_t)(i % 2) * rec, err));
        if (nnext > 0) CS_CALL(err, synth_gpu_accumulate(w->gpu, err));
        if (nnext <= 0)
            CS_CALL(err, finish_batch(w, buf->vel + (size_t)(i % 2) * rec, v0, nb, out, err));
    }
    return 0;
}

/* A rupture whose spectra the device cannot hold at once: every batch takes the chunks of its
 * points in turn, each loaded again. */
static int chunked(extract_worker *w, variation_source *src, int nvar, int full, long chunk,
                   gpu_buffers *buf, rupture_result *out, cs_error *err) {
    const double *m6 = full ? NULL : src->m6;
    int batch = synth_gpu_batch(w->gpu);
    for (int v0 = 0; v0 < nvar; v0 += batch) {
        int nb = nvar - v0 < batch ? nvar - v0 : batch;
        CS_CALL(err, synth_gpu_begin(w->gpu, nb, err));
        for (long first = 0; first < src->n; first += chunk) {
            long np = src->n - first < chunk ? src->n - first : chunk;
            CS_CALL(err, load_chunk(w, src, first, np, m6, buf, err));
            int rc = stage_batch(w, src, v0, nb, first, np, full, out, err);
            if (rc) return rc;
            CS_CALL(err, synth_gpu_accumulate(w->gpu, err));
        }
        CS_CALL(err, records(w, nb, buf->vel, err));
        CS_CALL(err, finish_batch(w, buf->vel, v0, nb, out, err));
    }
    return 0;
}

static int run(extract_worker *w, variation_source *src, int nvar, int full, gpu_buffers *buf,
               rupture_result *out, cs_error *err) {
    long chunk = synth_gpu_rows(w->gpu, full || !src->m6 ? 18 : 3);
    if (chunk < 1) return cs_error_set(err, CS_ERR_RESOURCE, "the GPU holds no point's spectra");
    if (nvar < 1) return 0;
    return chunk >= src->n ? pipelined(w, src, nvar, full, buf, out, err)
                           : chunked(w, src, nvar, full, chunk, buf, out, err);
}

int extract_rupture_gpu(extract_worker *w, variation_source *src, int nvar, int full,
                        rupture_result *out, cs_error *err) {
    gpu_buffers buf = {0};
    long block = synth_gpu_block(w->gpu);
    int batch = synth_gpu_batch(w->gpu);
    buf.strain = malloc(sizeof(float) * 18 * (size_t)w->synth->nt_sgt * (size_t)block);
    buf.vel = malloc(sizeof(double) * 2 * 3 * (size_t)w->synth->nt * (size_t)batch);
    int rc = buf.strain && buf.vel
                 ? run(w, src, nvar, full, &buf, out, err)
                 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory for the GPU's host buffers");
    buffers_free(&buf);
    return rc;
}
