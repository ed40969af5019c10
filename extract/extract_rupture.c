#include "extract_rupture.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_log.h"
#include "cs_progress.h"
#include "extract_gpu.h"
#include "extract_memory.h"

void extract_rupture_result_free(rupture_result *res) {
    free(res->ims);
    free(res->hypo);
    free(res->seis);
    memset(res, 0, sizeof *res);
}

static int alloc_result(rupture_result *out, int nvar, int nim, int nt, int want_seis,
                        cs_error *err) {
    memset(out, 0, sizeof *out);
    out->nvar = nvar;
    out->nim = nim;
    out->nt = nt;
    out->ims = malloc(sizeof(double) * (size_t)nvar * (size_t)nim + 1);
    out->hypo = malloc(sizeof(double) * 4 * (size_t)nvar + 1);
    if (want_seis) out->seis = malloc(sizeof(float) * 3 * (size_t)nt * (size_t)nvar + 1);
    if (!out->ims || !out->hypo || (want_seis && !out->seis)) {
        extract_rupture_result_free(out);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d variations", nvar);
    }
    return 0;
}

int extract_worker_workspaces(extract_worker *w, cs_error *err) {
    int n = omp_get_max_threads(), procs = omp_get_num_procs();
    w->nimws = n > procs ? n : procs;
    w->imws = calloc((size_t)w->nimws, sizeof *w->imws);
    if (!w->imws) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    return 0;
}

void extract_worker_free_workspaces(extract_worker *w) {
    for (int i = 0; i < w->nimws; i++)
        im_workspace_free(w->imws[i]);
    free(w->imws);
    w->imws = NULL;
    w->nimws = 0;
}

/* The calling thread's measures of a record (the device's given, or NULL): in its own workspace
 * where the worker has one. */
static int measure(extract_worker *w, const double *vel, const double *given, double *values,
                   cs_error *err) {
    int nt = w->synth->nt, me = omp_get_thread_num();
    if (me >= w->nimws) {
        im_workspace *ws = im_workspace_new();
        if (!ws) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a record's measures");
        int rc = im_compute_in_given(ws, w->ims, vel, nt, w->synth->dt, given, values, err);
        im_workspace_free(ws);
        return rc;
    }
    if (!w->imws[me] && !(w->imws[me] = im_workspace_new()))
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a record's measures");
    return im_compute_in_given(w->imws[me], w->ims, vel, nt, w->synth->dt, given, values, err);
}

int extract_take_record(extract_worker *w, const double *vel, rupture_result *out, int v,
                        cs_error *err) {
    return extract_take_record_given(w, vel, NULL, out, v, err);
}

int extract_take_record_given(extract_worker *w, const double *vel, const double *given,
                              rupture_result *out, int v, cs_error *err) {
    int nt = w->synth->nt;
    double t0 = omp_in_parallel() ? 0 : cs_now();
    CS_CALL(err, measure(w, vel, given, out->ims + (size_t)v * out->nim, err));
    if (!omp_in_parallel()) w->phase[EXTRACT_MEASURE] += cs_now() - t0;
    if (out->seis)
        for (size_t i = 0; i < 3 * (size_t)nt; i++)
            out->seis[(size_t)v * 3 * nt + i] = (float)vel[i];
    /* a horizontal-only set simulated no vertical motion: NaN, never a zero that reads as data */
    if (out->seis && !w->sgt->has_force[2])
        for (size_t i = 2 * (size_t)nt; i < 3 * (size_t)nt; i++)
            out->seis[(size_t)v * 3 * nt + i] = NAN;
    return 0;
}

static void set_hypo(rupture_result *out, int v, const double h[4]) {
    memcpy(out->hypo + 4 * (size_t)v, h, sizeof(double) * 4);
}

void extract_name_variation(const variation_source *src, int v, cs_error *err) {
    if (src->lfns) {
        /* the SRF reader's messages name the file already */
        if (strncmp(err->message, src->lfns[v], strlen(src->lfns[v])))
            cs_error_prefix(err, "%s: ", src->lfns[v]);
    } else
        cs_error_prefix(err, "source %lld rupture %lld variation %d: ", src->r->source_id,
                        src->r->rupture_id, v);
}

/* A variation whose SRF puts its subfaults on other points than the rupture's first variation:
 * its own cache, as the synthesis of a single SRF does. */
static int own_points(extract_worker *w, variation_source *src, int v, double *vel,
                      rupture_result *out, cs_error *err) {
    synth_cache cache = {0};
    int rc;
    CS_CALL_GOTO(rc, err,
                 synth_cache_load(w->synth, src->buf.own_points, src->buf.own_npoints, w->method,
                                  NULL, &cache, err),
                 done);
    CS_CALL_GOTO(rc, err,
                 w->method == SYNTH_TIME
                     ? synth_time(w->synth, &cache, src->buf.sf, src->buf.nsf, vel, err)
                     : synth_frequency(w->synth, &cache, src->buf.sf, src->buf.nsf, vel, err),
                 done);
    CS_CALL_GOTO(rc, err, extract_take_record(w, vel, out, v, err), done);
done:
    synth_cache_free(&cache);
    return rc;
}

/* Variation v (in src->buf) against the rupture's cache: its record and measures. Returns 0, a
 * status, or EXTRACT_AGAIN_FULL when the cache lacks a subfault's tensor. */
static int from_cache(extract_worker *w, const synth_cache *cache, const variation_source *src,
                      int v, double *vel, rupture_result *out, cs_error *err) {
    if (w->method == SYNTH_TIME) {
        CS_CALL(err, synth_time(w->synth, cache, src->buf.sf, src->buf.nsf, vel, err));
    } else {
        memset(w->synth->acc, 0, sizeof(double complex) * 3 * (size_t)w->synth->nf);
        int rc = synth_accumulate(w->synth, cache, src->buf.sf, src->buf.nsf, w->synth->acc, err);
        if (rc) return rc; /* a failure (traced where it arose), or "again with full spectra" */
        synth_record(w->synth, w->synth->acc, vel);
    }
    CS_CALL(err, extract_take_record(w, vel, out, v, err));
    return 0;
}

/* Every variation against one cache of the whole rupture: the SGT's spectra made once and
 * shared. Returns EXTRACT_AGAIN_FULL when a variation's moment tensors are not the cache's
 * combinations (the caller starts over with full spectra). */
static int whole_rupture(extract_worker *w, variation_source *src, int nvar, int full,
                         const extract_memory_plan *plan, double *vel, rupture_result *out,
                         cs_error *err) {
    synth_cache cache = {0};
    const double *m6 = full ? NULL : src->m6;
    CS_CALL(err, synth_cache_load_range(w->synth, src->points, 0, src->n, src->n, w->method, m6,
                                        plan->block, &cache, err));
    int rc = 0;
    for (int v = 0; v < nvar && !rc; v++) {
        double hypo[4];
        int got = variation_source_produce(src, v, hypo, err);
        if (got < 0) {
            rc = extract_failure(err);
            CS_TRACE(err);
            break;
        }
        set_hypo(out, v, hypo);
        rc = got == VARIATION_OTHER_POINTS ? own_points(w, src, v, vel, out, err)
                                           : from_cache(w, &cache, src, v, vel, out, err);
        if (rc && rc != EXTRACT_AGAIN_FULL) extract_name_variation(src, v, err);
    }
    synth_cache_free(&cache);
    return rc;
}

/* The rupture's points in chunks that fit the memory allowed: for each batch of variations,
 * every chunk's spectra are made in turn and each variation of the batch (generated again, or
 * its SRF read again) adds its chunk's subfaults to its own accumulator. */
static int chunked(extract_worker *w, variation_source *src, int nvar, int full,
                   const extract_memory_plan *plan, double *vel, rupture_result *out,
                   cs_error *err) {
    int nf = w->synth->nf, batch = plan->batch;
    double complex *acc = malloc(sizeof(double complex) * 3 * (size_t)nf * (size_t)batch);
    if (!acc)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d variations' spectra",
                            batch);
    const double *m6 = full ? NULL : src->m6;
    int rc = 0;
    for (int v0 = 0; v0 < nvar && !rc; v0 += batch) {
        int nb = nvar - v0 < batch ? nvar - v0 : batch;
        memset(acc, 0, sizeof(double complex) * 3 * (size_t)nf * (size_t)nb);
        for (long first = 0; first < src->n && !rc; first += plan->chunk) {
            long np = src->n - first < plan->chunk ? src->n - first : plan->chunk;
            synth_cache cache = {0};
            if ((rc = synth_cache_load_range(w->synth, src->points, first, np, src->n,
                                             SYNTH_FREQUENCY, m6, plan->block, &cache, err)))
                break;
            for (int b = 0; b < nb && !rc; b++) {
                double hypo[4];
                int got = variation_source_produce(src, v0 + b, hypo, err);
                if (got == VARIATION_OTHER_POINTS) {
                    /* an error: its status once passed for success */
                    rc = cs_error_set(err, CS_ERR_RESOURCE,
                                      "its subfaults lie on other points than the rupture's first "
                                      "variation's, and the rupture's spectra do not fit the "
                                      "memory allowed (%.3g GB) to take it alone: raise it",
                                      plan->limit / 1e9);
                } else if (got < 0) {
                    rc = extract_failure(err);
                    CS_TRACE(err);
                } else {
                    set_hypo(out, v0 + b, hypo);
                    rc = synth_accumulate(w->synth, &cache, src->buf.sf, src->buf.nsf,
                                          acc + (size_t)b * 3 * nf, err);
                }
                if (rc && rc != EXTRACT_AGAIN_FULL) extract_name_variation(src, v0 + b, err);
            }
            synth_cache_free(&cache);
        }
        for (int b = 0; b < nb && !rc; b++) {
            synth_record(w->synth, acc + (size_t)b * 3 * nf, vel);
            rc = extract_take_record(w, vel, out, v0 + b, err);
        }
    }
    free(acc);
    return rc;
}

static int synthesise(extract_worker *w, variation_source *src, int nvar, double *vel,
                      rupture_result *out, cs_error *err) {
    for (int full = 0; full < 2; full++) {
        extract_memory_plan plan;
        CS_CALL(err, extract_memory_plan_make(w->synth, src->n, nvar, !full && src->m6, w->method,
                                              w->max_memory, out, &plan, err));
        int rc = w->gpu                 ? extract_rupture_gpu(w, src, nvar, full, out, err)
                 : plan.chunk >= src->n ? whole_rupture(w, src, nvar, full, &plan, vel, out, err)
                                        : chunked(w, src, nvar, full, &plan, vel, out, err);
        if (rc != EXTRACT_AGAIN_FULL) return rc;
        /* a subfault's tensor differs from its point's (SRFs with other rakes or a second slip
         * direction): again with every component's spectra */
    }
    return cs_error_set(err, CS_ERR_INTERNAL, "full spectra refused a subfault");
}

void extract_worker_report(const double *t, const double *count, int nranks, int gpu) {
    char kept[160] = "";
    if (gpu)
        snprintf(kept, sizeof kept,
                 "; spectra of %.0f points made, %.0f found kept; %.0f ruptures in shared batches",
                 count[EXTRACT_POINTS_MADE], count[EXTRACT_POINTS_KEPT], count[EXTRACT_TOGETHER]);
    cs_log(CS_LOG_INFO,
           "extraction, %d worker%s (seconds summed): %.0f ruptures, %.0f variations; opening "
           "%.1f, SGT reads %.1f, spectra %.1f, making variations %.1f, %s %.1f, measures %.1f%s",
           nranks, nranks == 1 ? "" : "s", count[EXTRACT_RUPTURES], count[EXTRACT_VARIATIONS],
           t[EXTRACT_OPEN], t[EXTRACT_READ], t[EXTRACT_SPECTRA], t[EXTRACT_MAKE],
           gpu ? "waiting for the device" : "synthesis", t[EXTRACT_SUM], t[EXTRACT_MEASURE], kept);
}

/* The seconds the worker's phases after opening have taken so far (what is not among them of a
 * synthesis is counted as its sums). */
static double phases_after_open(const extract_worker *w) {
    double t = 0;
    for (int i = EXTRACT_READ; i < EXTRACT_NPHASES; i++)
        t += w->phase[i];
    return t;
}

int extract_rupture(extract_worker *w, const erf_rupture *r, int nvar, char *const *lfns,
                    rupture_result *out, cs_error *err) {
    CS_CALL(err, alloc_result(out, nvar, w->nim, w->synth->nt, w->want_seis, err));
    double *vel = malloc(sizeof(double) * 3 * (size_t)w->synth->nt);
    variation_source src;
    double t0 = cs_now();
    int threads = w->gpu ? omp_get_max_threads() : 1;
    int rc = vel ? variation_source_open(&src, w->sgt, w->gen, r, nvar, lfns, threads, err)
                 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    w->phase[EXTRACT_OPEN] += cs_now() - t0;
    if (!rc) {
        double t1 = cs_now(), before = phases_after_open(w);
        rc = synthesise(w, &src, nvar, vel, out, err);
        /* the CPU's paths time no phases of their own: their synthesis is what is left */
        w->phase[EXTRACT_SUM] += fmax(0, cs_now() - t1 - (phases_after_open(w) - before));
        variation_source_close(&src);
        w->ruptures++;
        w->variations += nvar;
    }
    free(vel);
    if (rc) extract_rupture_result_free(out);
    return rc;
}

/* The ruptures on the GPU together (extract_ruptures_gpu): 0, or EXTRACT_ALONE when they
 * cannot go together or one of them fails (each alone then gives each its own status, as a run
 * without groups would). out[k] is rupture k's result when it returns 0, else freed. */
static int together(extract_worker *w, const erf_rupture *r, const int *nvar, int nr,
                    rupture_result *out, cs_error *err) {
    variation_source *src = calloc((size_t)nr, sizeof *src);
    variation_source **sp = malloc(sizeof *sp * (size_t)nr);
    rupture_result **op = malloc(sizeof *op * (size_t)nr);
    int *opened = calloc((size_t)nr, sizeof *opened), rc = 0, nopen = 0;
    if (!src || !sp || !op || !opened) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (int k = 0; k < nr && !rc; k++) {
        sp[k] = &src[k];
        op[k] = &out[k];
        rc = alloc_result(&out[k], nvar[k], w->nim, w->synth->nt, w->want_seis, err);
    }
    double t0 = cs_now();
    /* one after another: locating the points shares the SGT frame's PROJ transformation, which
     * one thread may use at a time; each one's realisations take the threads */
    for (int k = 0; k < nr && !rc; k++) {
        cs_error e;
        cs_error_clear(&e);
        opened[k] = !variation_source_open(&src[k], w->sgt, w->gen, &r[k], nvar[k], NULL,
                                           omp_get_max_threads(), &e);
        nopen += opened[k];
    }
    w->phase[EXTRACT_OPEN] += cs_now() - t0;
    if (!rc && nopen == nr) {
        double t1 = cs_now(), before = phases_after_open(w);
        rc = extract_ruptures_gpu(w, sp, nvar, nr, op, err);
        w->phase[EXTRACT_SUM] += fmax(0, cs_now() - t1 - (phases_after_open(w) - before));
    } else if (!rc) {
        rc = EXTRACT_ALONE; /* the one that failed to open says why, alone */
    }
    for (int k = 0; k < nr && opened; k++)
        if (opened[k]) variation_source_close(&src[k]);
    if (rc == 0) {
        w->ruptures += nr;
        w->together += nr;
        for (int k = 0; k < nr; k++)
            w->variations += nvar[k];
    } else {
        for (int k = 0; k < nr; k++)
            extract_rupture_result_free(&out[k]);
        rc = EXTRACT_ALONE;
    }
    free(src);
    free(sp);
    free(op);
    free(opened);
    return rc;
}

void extract_ruptures(extract_worker *w, const erf_rupture *r, const int *nvar, int nr,
                      rupture_result *out, int *rc, cs_error *err) {
    /* together only where the device keeps spectra across ruptures (else each would be opened
     * again alone) */
    int all = nr > 1 && w->gpu && w->cache ? together(w, r, nvar, nr, out, &err[0]) : EXTRACT_ALONE;
    for (int k = 0; k < nr; k++) {
        cs_error_clear(&err[k]);
        rc[k] = 0;
        if (all == 0) continue;
        rc[k] = extract_rupture(w, &r[k], nvar[k], NULL, &out[k], &err[k]);
    }
}
