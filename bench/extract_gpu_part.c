#include "extract_gpu_part.h"

#include "extract_batch_rule.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_progress.h"
#include "synth_gpu.h"

int bench_source_open(bench_source *bs, const erf_rupture *r, const rupgen_params *p,
                      rupgen_medium medium, cs_error *err) {
    memset(bs, 0, sizeof *bs);
    bs->r = r;
    bs->p = p;
    int n = erf_rupture_npoints(r);
    rupgen_layout lay;
    CS_CALL(err, rupgen_plan(r, p, &lay, err));
    bs->nhypo = lay.nhypo_strike * lay.nhypo_dip;
    bs->nvariations = lay.nvariations;
    bs->nreal = lay.nvariations / bs->nhypo;
    double *m = malloc(sizeof(double) * 2 * (size_t)n);
    bs->real = calloc((size_t)bs->nreal, sizeof *bs->real);
    bs->sr = calloc((size_t)bs->nreal, sizeof *bs->sr);
    if (!m || !bs->real || !bs->sr) {
        free(m);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    int rc = rupgen_medium_sample(r, medium, NULL, m, m + n, err);
    for (int k = 0; !rc && k < bs->nreal; k++) {
        CS_CALL_GOTO(rc, err, rupgen_realisation_make(r, p, m, m + n, k, &bs->real[k], err), done);
        bs->sr[k] = malloc(sizeof(double) * (size_t)(bs->real[k].nsamples + 1));
        if (!bs->sr[k]) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            break;
        }
        for (long j = 0; j < bs->real[k].nsamples; j++)
            bs->sr[k][j] = bs->real[k].sr[j] * 0.01;
    }
done:
    free(m);
    return rc;
}

void bench_source_close(bench_source *bs) {
    for (int k = 0; k < bs->nreal; k++) {
        rupgen_realisation_free(&bs->real[k]);
        free(bs->sr[k]);
    }
    free(bs->real);
    free(bs->sr);
    memset(bs, 0, sizeof *bs);
}

/* hp NULL: the rupture times made here; else left NaN for the device, *hp the hypocentre's
 * point and *real its realisation. */
static int variation_timed(const bench_source *bs, const double *m6, long n, int v,
                           synth_subfault *sf, double *t, int *hp, int *real, cs_error *err) {
    rupgen_info info;
    CS_CALL(err, rupgen_hypocentre(bs->r, bs->p, v, &info, err));
    const rupgen_realisation *re = &bs->real[info.slip_index];
    if (hp) {
        *hp = info.hypo_point;
        *real = info.slip_index;
        for (long i = 0; i < n; i++)
            t[i] = NAN;
    } else {
        CS_CALL(err, rupgen_times(bs->r, re, info.hypo_point, t, err));
    }
    for (long i = 0; i < n; i++) {
        sf[i] = (synth_subfault){(int)i, {0},       3e10 * re->area_cm2 * 1e-4,         t[i],
                                 re->dt, re->nt[i], bs->sr[info.slip_index] + re->at[i]};
        memcpy(sf[i].m, m6, sizeof sf[i].m);
    }
    return 0;
}

int bench_variation(const bench_source *bs, const double *m6, long n, int v, synth_subfault *sf,
                    double *t, cs_error *err) {
    return variation_timed(bs, m6, n, v, sf, t, NULL, NULL, err);
}

/* Variation v's subfaults (mu 3e10, the bench's), as the CPU and the GPU take them: from the
 * realisation of its slip, as the extractor's variation source makes them. */
static int make_variation(const bench_source *bs, const double *m6, long n, int v,
                          synth_subfault *sf, double **t, int *hp, int *real, cs_error *err) {
    if (!*t && !(*t = malloc(sizeof(double) * (size_t)(n + 1))))
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    return variation_timed(bs, m6, n, v, sf, *t, hp, real, err);
}

/* Ruptures the device's rupture times are set for (set_times): variation v takes rupture
 * (v / SMALL) mod this one's, as the extractor's groups of small ruptures do. */
/* GROUP_BATCHES: the extractor's batches a message (extract_batch_rule.h), or
 * CYBERSHAKE_GROUP_BATCHES's (1 .. MOST_GROUP, to measure others) */
enum { SMALL = 18, MOST_GROUP = 16, MOST_RUPTURES = 4096 / SMALL * MOST_GROUP };
static int times_ruptures = 1;

static int set_times(synth_gpu *g, const synth_ctx *c, const bench_source *bs, long n, int nr,
                     cs_error *err) {
    synth_gpu_times_rupture r[MOST_RUPTURES];
    if (nr > MOST_RUPTURES) nr = MOST_RUPTURES;
    for (int k = 0; k < nr; k++)
        r[k] = (synth_gpu_times_rupture){bs->real, bs->nreal, n, bs->r->ncols};
    times_ruptures = nr > 0 ? nr : 1;
    return synth_gpu_set_times(g, nr > 0 ? r : NULL, nr, synth_window_end(c), err);
}

/* The host's share of a batch: its variations made and staged by every thread, as
 * extract_gpu.c does. spent (or NULL): += the threads' seconds in the rupture times and
 * subfaults (make_variation), the choice of subfaults, and synth_gpu_stage. */
static int gen_batch(const synth_ctx *c, const bench_source *bs, const double *m6, long n, int nlay,
                     int v0, int nb, synth_gpu *g, double spent[3]) {
    int failed = 0;
    double s_make = 0, s_pick = 0, s_stage = 0;
#pragma omp parallel reduction(| : failed) reduction(+ : s_make, s_pick, s_stage)
    {
        synth_subfault *tsf = malloc(sizeof *tsf * (size_t)n);
        synth_gpu_subfault *tgs = malloc(sizeof *tgs * (size_t)n);
        double *tsr = NULL;
#pragma omp for schedule(dynamic)
        for (int b = 0; b < nb; b++) {
            cs_error e;
            cs_error_clear(&e);
            double t0 = cs_now();
            int dev = synth_gpu_times_on(g), hp = -1, real = -1;
            if (!tsf || !tgs ||
                make_variation(bs, m6, n, (v0 + b) % nlay, tsf, &tsr, dev ? &hp : NULL, &real,
                               &e) ||
                (dev &&
                 synth_gpu_stage_times(g, b, ((v0 + b) / SMALL) % times_ruptures, real, hp, &e))) {
                failed = 1;
                continue;
            }
            double t1 = cs_now();
            long k = 0;
            for (long i = 0; i < n; i++) {
                int use = dev ? synth_subfault_checked(c, n, &tsf[i], &e)
                              : synth_subfault_usable(c, n, &tsf[i], &e);
                if (use < 0) failed = 1;
                if (use <= 0) continue;
                tgs[k] = (synth_gpu_subfault){
                    i, i, tsf[i].tinit, tsf[i].dt_s, tsf[i].scale, tsf[i].nsr, tsf[i].sr, {0}};
                memcpy(tgs[k].m, m6, sizeof tgs[k].m);
                k++;
            }
            double t2 = cs_now();
            if (synth_gpu_stage(g, b, tgs, k, &e)) failed = 1;
            s_make += t1 - t0;
            s_pick += t2 - t1;
            s_stage += cs_now() - t2;
        }
        free(tsf);
        free(tgs);
        free(tsr);
    }
    if (spent) spent[0] += s_make, spent[1] += s_pick, spent[2] += s_stage;
    return failed ? -1 : 0;
}

/* The measures of nb records (the device's given, nb x IM_GIVEN_VALUES(nperiods), or NULL:
 * made here). */
static int ims_batch(const synth_ctx *c, const im_config *ims, int nim, const double *vel,
                     const double *given, int nb, double *values, im_workspace **ws) {
    int bad = 0;
#pragma omp parallel for schedule(dynamic) reduction(| : bad)
    for (int b = 0; b < nb; b++) {
        cs_error e;
        im_workspace **mine = &ws[omp_get_thread_num()];
        if (!*mine) *mine = im_workspace_new();
        if (!*mine ||
            im_compute_in_given(*mine, ims, vel + (size_t)b * 3 * c->nt, c->nt, c->dt,
                                given ? given + (size_t)b * IM_GIVEN_VALUES(ims->nperiods) : NULL,
                                values + (size_t)b * nim, &e))
            bad = 1;
    }
    return bad ? -1 : 0;
}

/* The device's measures of a configuration, as the extractor sets them (extract_run.c); the
 * wanted periods written into want_fas, want_dur. */
static synth_gpu_measures device_measures(const im_config *ims, double dt, int *want_fas,
                                          int *want_dur) {
    im_band_periods(ims, want_fas, want_dur);
    return (synth_gpu_measures){ims->nperiods, ims->periods, want_fas,  want_dur,
                                ims->damping,  dt,           ims->ko_b, ims->vertical ? 3 : 2};
}

static double pipeline_run(const synth_ctx *c, const bench_source *bs, const double *m6, long n,
                           int nlay, int nvar, int batch, synth_gpu *g, const im_config *ims,
                           int nim, double *vel2, double *sa2, double *values, im_workspace **ws,
                           double split[4], cs_error *err);

/* The extractor's pipeline (extract_gpu.c): while the device sums batch i and makes its
 * records, the host's threads make batch i + 1; while it does batch i + 1, they take batch i's
 * measures; with sa2 (two slots of batch x
 * IM_GIVEN_VALUES(nperiods)), the measures made on the device. Returns the wall time, or -1
 * when a step fails (err set where the library reports). split (or NULL): += the main
 * thread's seconds making batches (its threads at work), queueing the device's work, waiting
 * for it, and taking the measures. */
static double pipelined(const synth_ctx *c, const bench_source *bs, const double *m6, long n,
                        int nlay, int nvar, int batch, synth_gpu *g, const im_config *ims, int nim,
                        double *vel2, double *sa2, double *values, im_workspace **ws,
                        double split[4], cs_error *err) {
    int want_fas[IM_MAX_PERIODS], want_dur[IM_MAX_PERIODS];
    synth_gpu_measures meas = device_measures(ims, c->dt, want_fas, want_dur);
    if (synth_gpu_set_measures(g, sa2 ? &meas : NULL, err)) return -1;
    return pipeline_run(c, bs, m6, n, nlay, nvar, batch, g, ims, nim, vel2, sa2, values, ws, split,
                        err);
}

/* pipelined's batches, the device's measures as they are set */
static double pipeline_run(const synth_ctx *c, const bench_source *bs, const double *m6, long n,
                           int nlay, int nvar, int batch, synth_gpu *g, const im_config *ims,
                           int nim, double *vel2, double *sa2, double *values, im_workspace **ws,
                           double split[4], cs_error *err) {
    double own[4] = {0, 0, 0, 0};
    if (!split) split = own;
    size_t rec = 3 * (size_t)c->nt * (size_t)batch,
           sarec = IM_GIVEN_VALUES((size_t)ims->nperiods) * batch;
#define SA_SLOT(i) (sa2 ? sa2 + (size_t)(i)*sarec : NULL)
    double t0 = cs_now();
    int nb = nvar < batch ? nvar : batch;
    if (synth_gpu_begin(g, nb, err) || gen_batch(c, bs, m6, n, nlay, 0, nb, g, NULL) ||
        synth_gpu_accumulate(g, err) || synth_gpu_records(g, nb, vel2, 0, err))
        return -1;
    for (int v0 = 0, i = 0; v0 < nvar; v0 += batch, i++) {
        nb = nvar - v0 < batch ? nvar - v0 : batch;
        int next = v0 + batch, nnext = nvar - next < batch ? nvar - next : batch;
        int slot = i % 2, other = (i + 1) % 2;
        double t1 = cs_now(), t2 = t1, t3;
        if (nnext > 0) {
            if (synth_gpu_begin(g, nnext, err) ||
                gen_batch(c, bs, m6, n, nlay, next, nnext, g, NULL))
                return -1;
            t2 = cs_now();
            if (synth_gpu_accumulate(g, err) ||
                synth_gpu_records(g, nnext, vel2 + (size_t)other * rec, other, err))
                return -1;
        }
        t3 = cs_now();
        if (synth_gpu_wait(g, slot, nb, SA_SLOT(slot), err)) return -1;
        double t4 = cs_now();
        if (ims_batch(c, ims, nim, vel2 + (size_t)slot * rec, SA_SLOT(slot), nb, values, ws))
            return -1;
        split[0] += t2 - t1;
        split[1] += t3 - t2;
        split[2] += t4 - t3;
        split[3] += cs_now() - t4;
    }
#undef SA_SLOT
    return cs_now() - t0;
}

int extract_gpu_part(synth_ctx *c, const bench_source *bs, const float *strain, const double *mall,
                     const double *m6, long n, int nvar, const im_config *ims,
                     const synth_cache *cache, cs_error *err) {
    synth_gpu_shape shape = {c->nf,
                             c->L,
                             c->up,
                             c->nt,
                             c->nt_sgt,
                             c->dt_sgt,
                             c->sgt->time_shift,
                             {c->sgt->impulse[0], c->sgt->impulse[1], c->sgt->impulse[2]}};
    long block = 128;
    /* the device's batch as a rank alone on it takes it (extract_batch_rule.h), or
     * CYBERSHAKE_GPU_BATCH's; one rupture's variations go in batches of at most
     * EXTRACT_RUPTURE_BATCH, the messages of small ruptures in the device's whole batch */
    int capacity = 0;
    const char *eb = getenv("CYBERSHAKE_GPU_BATCH");
    if (eb && atoi(eb) >= SMALL && atoi(eb) <= 4096) capacity = atoi(eb);
    if (!capacity) {
        int want_fas[IM_MAX_PERIODS], want_dur[IM_MAX_PERIODS];
        synth_gpu_measures mm = device_measures(ims, c->dt, want_fas, want_dur);
        capacity = extract_batch_for(&shape, block, &mm, synth_gpu_free_bytes(0, 1));
    }
    int batch = capacity < EXTRACT_RUPTURE_BATCH ? capacity : EXTRACT_RUPTURE_BATCH;
    synth_gpu *g = NULL;
    /* every buffer here, freed at the end whichever way it is reached */
    synth_subfault *sf = NULL;
    double *sr = NULL, *vel = NULL, *vc = NULL, *values = NULL, *sa2 = NULL, *values_host = NULL,
           *values_ref = NULL;
    int rc = -1;
    im_workspace **ws = calloc((size_t)omp_get_max_threads(), sizeof *ws);
    if (!ws) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    double free0 = synth_gpu_free_bytes(0, 1);
    if (synth_gpu_open(&g, 0, &shape, block, capacity, n, err)) goto done;
    double t0 = cs_now();
    for (long q0 = 0; q0 < n; q0 += block) {
        long nq = n - q0 < block ? n - q0 : block;
        if (synth_gpu_load(g, q0, nq, strain + (size_t)q0 * 18 * c->nt_sgt, mall + 6 * q0, err))
            goto done;
    }
    /* a 1-variation batch makes the device wait for the loads */
    if (synth_gpu_begin(g, 1, err) || synth_gpu_accumulate(g, err)) goto done;
    double t_load = cs_now() - t0;
    sf = malloc(sizeof *sf * (size_t)n);
    /* the records' two slots in page-locked memory, as the extractor takes them */
    vel = synth_gpu_host_alloc(sizeof(double) * 2 * 3 * (size_t)c->nt * capacity);
    vc = malloc(sizeof(double) * 3 * (size_t)c->nt);
    im_type *types;
    int nim;
    if (im_types(ims, &types, &nim, err)) goto done;
    free(types);
    values = malloc(sizeof(double) * (size_t)nim * capacity);
    if (!vel || !vc || !sf || !values) {
        cs_error_set(err, CS_ERR_RESOURCE, "out of memory for the bench's records");
        goto done;
    }
    double t_gen = 0, t_gpu = 0, t_im = 0, worst = 0, spent[3] = {0, 0, 0};
    for (int v0 = 0; v0 < nvar; v0 += batch) {
        int nb = nvar - v0 < batch ? nvar - v0 : batch;
        if (synth_gpu_begin(g, nb, err)) goto done;
        t0 = cs_now();
        if (gen_batch(c, bs, m6, n, bs->nvariations, v0, nb, g, spent)) {
            cs_error_set(err, CS_ERR_INTERNAL, "making a batch's variations failed");
            goto done;
        }
        t_gen += cs_now() - t0;
        t0 = cs_now();
        if (synth_gpu_accumulate(g, err) || synth_gpu_records(g, nb, vel, -1, err)) goto done;
        t_gpu += cs_now() - t0;
        t0 = cs_now();
        if (ims_batch(c, ims, nim, vel, NULL, nb, values, ws)) {
            cs_error_set(err, CS_ERR_INTERNAL, "IMs failed");
            goto done;
        }
        t_im += cs_now() - t0;
        if (v0 == 0) {
            /* the GPU's first records against the CPU's frequency path (its cache, shared) */
            for (int b = 0; b < (nb < 4 ? nb : 4); b++) {
                if (make_variation(bs, m6, n, b, sf, &sr, NULL, NULL, err) ||
                    synth_frequency(c, cache, sf, n, vc, err))
                    goto done;
                double num = 0, den = 0;
                for (size_t i = 0; i < 3 * (size_t)c->nt; i++) {
                    double d = vel[(size_t)b * 3 * c->nt + i] - vc[i];
                    num += d * d;
                    den += vc[i] * vc[i];
                }
                if (sqrt(num / den) > worst) worst = sqrt(num / den);
            }
        }
    }
    double t_pipe = pipelined(c, bs, m6, n, bs->nvariations, nvar, batch, g, ims, nim, vel, NULL,
                              values, ws, NULL, err);
    if (t_pipe < 0) goto done;
    /* again with the measures made on the device; their values against the host's for the last
     * batch's records */
    sa2 = malloc(sizeof(double) * 2 * IM_GIVEN_VALUES((size_t)ims->nperiods) * capacity);
    values_host = malloc(sizeof(double) * (size_t)nim * capacity);
    if (!sa2 || !values_host) goto done;
    memcpy(values_host, values, sizeof(double) * (size_t)nim * batch);
    double t_pipe_sa = pipelined(c, bs, m6, n, bs->nvariations, nvar, batch, g, ims, nim, vel, sa2,
                                 values, ws, NULL, err);
    if (t_pipe_sa < 0) goto done;
    /* again with the rupture times made on the device (the extractor's way for generated
     * ruptures): the same times bit for bit, so the same measures to rounding (the subfaults
     * past the window are staged and skipped on the device, so the sums' runs may be cut
     * elsewhere) */
    values_ref = malloc(sizeof(double) * (size_t)nim * capacity);
    if (!values_ref) goto done;
    memcpy(values_ref, values, sizeof(double) * (size_t)nim * batch);
    if (set_times(g, c, bs, n, 1, err)) goto done;
    double split[4] = {0, 0, 0, 0};
    double t_pipe_dt = pipelined(c, bs, m6, n, bs->nvariations, nvar, batch, g, ims, nim, vel, sa2,
                                 values, ws, split, err);
    if (t_pipe_dt < 0) goto done; /* the times stay on for the small ruptures at the end */
    double worst_dt = 0;
    for (size_t i = 0; i < (size_t)nim * (size_t)((nvar - 1) % batch + 1); i++) {
        double d = fabs(values[i] - values_ref[i]) / fmax(fabs(values_ref[i]), 1e-300);
        if (d > worst_dt || d != d) worst_dt = d;
    }
    printf("gpu: rupture times on the device: %.1f variations/s pipelined; the last batch's "
           "measures against the host's times: worst relative difference %.2e\n",
           nvar / t_pipe_dt, worst_dt);
    printf("gpu: that pipeline's main thread a variation: making batches %.2f us, queueing the "
           "device's work %.2f us, waiting for it %.2f us, measures %.2f us\n",
           1e6 * split[0] / nvar, 1e6 * split[1] / nvar, 1e6 * split[2] / nvar,
           1e6 * split[3] / nvar);
    /* what the context holds now (spectra, buffers, plans, the measures'), against the
     * estimates the extractor sizes its share of the device by */
    int want_fas[IM_MAX_PERIODS], want_dur[IM_MAX_PERIODS];
    synth_gpu_measures meas = device_measures(ims, c->dt, want_fas, want_dur);
    printf("gpu: device memory in use %.2f GB; estimated %.2f GB for the sums and records, %.2f "
           "GB for the measures\n",
           (free0 - synth_gpu_free_bytes(0, 1)) / 1e9,
           synth_gpu_bytes(&shape, block, batch, n) / 1e9,
           synth_gpu_measures_bytes(&shape, batch, &meas) / 1e9);
    double worst_im = 0;
    for (size_t i = 0; i < (size_t)nim * (size_t)((nvar - 1) % batch + 1); i++) {
        double d = fabs(values[i] - values_host[i]) / fmax(fabs(values_host[i]), 1e-300);
        if (d > worst_im) worst_im = d;
    }
    /* the device's share of the measures: the last batch's records made again and waited for,
     * with the measures (still set) and without */
    int nlast = (nvar - 1) % batch + 1, reps = 4;
    double t_with = cs_now();
    for (int r = 0; r < reps; r++)
        if (synth_gpu_records(g, nlast, vel, 0, err) || synth_gpu_wait(g, 0, nlast, sa2, err))
            goto done;
    t_with = cs_now() - t_with;
    double t_without = cs_now();
    for (int r = 0; r < reps; r++)
        if (synth_gpu_records(g, nlast, vel, -1, err)) goto done;
    t_without = cs_now() - t_without;
    printf("gpu: measures on the device: %.1f variations/s pipelined; every "
           "measure of the last batch against the host's: worst relative difference %.2e; "
           "records with their measures %.5f s a variation, without %.5f s\n",
           nvar / t_pipe_sa, worst_im, t_with / (reps * nlast), t_without / (reps * nlast));
    /* where the host's share goes, in thread time (against the wall time above x threads:
     * what the threads lose to sharing the node) */
    printf("gpu: host thread time a variation: rupture times and subfaults %.5f s, choosing "
           "subfaults %.5f s, staging %.5f s\n",
           spent[0] / nvar, spent[1] / nvar, spent[2] / nvar);
    printf("gpu: %s; spectra of %ld points %.3f s; per variation: host generation (%d threads) "
           "%.5f s, GPU "
           "synthesis (accumulate + records, batches of %d) %.5f s, IMs on the host's threads "
           "%.5f s; %.1f variations/s on the GPU alone, %.1f with the host's steps in turn, %.1f "
           "pipelined as the extractor runs; records vs the CPU's frequency path: %.2e (relative "
           "L2, worst of the "
           "first %d)\n",
           synth_gpu_device_name(g), n, t_load, omp_get_max_threads(), t_gen / nvar, batch,
           t_gpu / nvar, t_im / nvar, nvar / t_gpu, nvar / (t_gen + t_gpu + t_im), nvar / t_pipe,
           worst, nvar < 4 ? nvar : 4);
    /* most of a site's variations are on ruptures of one batch (USC on erf/demo: 94%, most of
     * them 18 variations a rupture), which the extractor takes one at a time: made, summed and
     * measured in turn; and the same ruptures in two half batches, the host making the second
     * while the device sums the first */
    int nsmall = nvar / SMALL;
    double t_one = 0, t_two = 0, split_one[4] = {0, 0, 0, 0};
    for (int r = 0; r < nsmall; r++) {
        double a = pipeline_run(c, bs, m6, n, bs->nvariations, SMALL, SMALL, g, ims, nim, vel, sa2,
                                values, ws, split_one, err),
               b = pipeline_run(c, bs, m6, n, bs->nvariations, SMALL, SMALL / 2, g, ims, nim, vel,
                                sa2, values, ws, NULL, err);
        if (a < 0 || b < 0) goto done;
        t_one += a;
        t_two += b;
    }
    /* the same variations as batches of one rupture each in one pipeline (the device's latency
     * per small batch, the host's share hidden), and as the extractor's messages of small
     * ruptures: 7 ruptures a batch (126 variations), GROUP_BATCHES batches a message, the
     * message's ruptures' edges set for each */
    double t_chain = nsmall > 0 ? pipeline_run(c, bs, m6, n, bs->nvariations, nsmall * SMALL, SMALL,
                                               g, ims, nim, vel, sa2, values, ws, NULL, err)
                                : 0,
           t_group = 0;
    if (t_chain < 0) goto done;
    int group_batches = EXTRACT_GROUP_BATCHES;
    const char *eg = getenv("CYBERSHAKE_GROUP_BATCHES");
    if (eg && atoi(eg) >= 1 && atoi(eg) <= MOST_GROUP) group_batches = atoi(eg);
    const int per_batch = capacity / SMALL, group_ruptures = per_batch * group_batches;
    /* at least 3 messages, after one untimed: a batch larger than the pipelines' above makes
     * its stage areas and device arrays at first use, once a rank (cudaHostAlloc took most of
     * a first message of 112 ruptures) */
    int ngroups = nsmall / group_ruptures > 3 ? nsmall / group_ruptures : 3;
    for (int r = -1; r < ngroups; r++) {
        double ts = cs_now();
        if (set_times(g, c, bs, n, group_ruptures, err)) goto done;
        double a = pipeline_run(c, bs, m6, n, bs->nvariations, group_ruptures * SMALL,
                                per_batch * SMALL, g, ims, nim, vel, sa2, values, ws, NULL, err);
        if (a < 0) goto done;
        if (r >= 0) t_group += cs_now() - ts;
    }
    if (set_times(g, c, bs, n, 0, err)) goto done;
    if (nsmall > 0) {
        double per = 1e6 / (nsmall * SMALL);
        printf("gpu: ruptures of %d variations, one at a time as the extractor takes most of a "
               "site's (rupture times on the device): %.1f variations/s in one batch each, %.1f "
               "in two; a variation: making %.2f us, queueing %.2f us, waiting %.2f us, "
               "measures %.2f us; pipelined one after another in batches of %d: %.1f "
               "variations/s; in messages of %d ruptures (batches of %d, as the extractor takes "
               "them): %.1f\n",
               SMALL, nsmall * SMALL / t_one, nsmall * SMALL / t_two, split_one[0] * per,
               split_one[1] * per, split_one[2] * per, split_one[3] * per, SMALL,
               nsmall * SMALL / t_chain, group_ruptures, per_batch * SMALL,
               ngroups * group_ruptures * SMALL / t_group);
    }
    rc = 0;
done:
    free(sf);
    free(sr);
    synth_gpu_host_free(vel);
    free(vc);
    free(values);
    free(sa2);
    free(values_host);
    free(values_ref);
    for (int i = 0; i < omp_get_max_threads(); i++)
        im_workspace_free(ws[i]);
    free(ws);
    synth_gpu_close(g);
    return rc;
}
