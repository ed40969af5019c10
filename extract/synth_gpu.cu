/* The CUDA extractor (synth_gpu.h): the frequency path of synth.c, the same formulas, on the
 * device. Threads of the accumulation run over (frequency, variation, run of subfaults) and loop
 * over the run, so the spectra of a point are read by consecutive threads (coalesced) and the
 * sums need no atomics: the runs' partial sums are added in a fixed order. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cufft_dl.cuh"
#include "measures_gpu.cuh"
#include "phase_f32.h"
#include "rupgen_relax.h"
#include "times_gpu.cuh"

extern "C" {
#include "accumulate_split.h"
#include "cs_cuda_check.h"
#include "synth_gpu.h"
}

/* ------------------------------------------------------------------------------ the context */

/* A staged subfault (104 bytes): its samples and coarse nodes at offsets within its
 * variation's, the variation's own offsets added on the device. xstep = df / dfc, the record's
 * frequency step in coarse steps (a product per frequency where a quotient cost a division).
 * tinit NaN: the device's rupture time of point pt (synth_gpu_stage_times). */
struct staged {
    double tinit, tc, dts, scale, dfc, xstep;
    float m[6];
    int row, sr_off, c_off, nsr, nc, direct, b, pt;
};

/* One variation's stage, in pinned memory (copied to the device asynchronously). A cache line
 * each: the host's threads stage neighbouring variations at once, and areas sharing a line had
 * every subfault's counter update bounce it between cores. */
struct alignas(64) stage_area {
    staged *s;
    float *sr;
    size_t cap_s, cap_sr;
    long n, nsr, ncoarse;
};

struct synth_gpu {
    synth_gpu_shape s;
    int device;
    char name[320];
    long block, points;
    int batch, series; /* series per point: 3 (combined) or 18 */
    double df;
    /* load */
    float *strain;            /* block x 18 x nt_sgt */
    double *real;             /* block x 18 x L */
    cufftDoubleComplex *spec; /* block x 18 x (L/2 + 1) */
    double *mt;               /* block x 6 */
    int *drows, *hrows;       /* block: the rows a load fills (device, pinned host) */
    int loaded;               /* rows were loaded in the present layout (series) */
    float2 *G;                /* points x 18 x nf (series per point in use) */
    cufft_dl_plan fwd;
    cufft_dl_plans inv; /* the records' inverse transforms, per power-of-two batch size */
    /* variations */
    double2 *acc; /* batch x 3 x nf */
    /* the sums' runs (accumulate_split.h): partial sums slices x nb x 3 x nf; runs a
     * variation when set (synth_gpu_set_sum_runs), else the rule's */
    double2 *part;
    size_t cap_part;
    int sum_runs;
    /* rupture times made here (synth_gpu_set_times): the ruptures' realisations' edge times
     * and each rupture's place among them (device, and its counts on the host), the window's
     * end; per variation of the batch its realisation (-1: times staged by the host),
     * hypocentre and rupture (pinned, copied to dreal, dhypo, dwhich), and the batch's times
     * (batch x tn, tn the largest rupture's points) once made */
    double *dedge, *dtimes;
    size_t cap_edge, cap_times, cap_rup;
    times_rupture *drup;
    std::vector<times_rupture> hrup;
    int tn, times_ready;
    double window_end;
    int *hreal, *hhypo, *hwhich, *dreal, *dhypo, *dwhich;
    /* each variation's stage apart, so threads can stage different variations at once */
    std::vector<stage_area> areas;
    /* per variation: subfaults start[b] .. start[b + 1], samples from sr_base[b], coarse nodes
     * from c_base[b] (pinned, 3 x (batch + 1)) */
    long long *bases;
    cudaEvent_t copied; /* the stages' copies done: the areas may be written again */
    int copies_pending;
    staged *ds;
    float *dsr;
    float2 *dC; /* the coarse slip-rate spectra, single precision as the terms they enter */
    long long *dbases;
    size_t cap_s, cap_sr, cap_c;
    /* records */
    cufftDoubleComplex *X; /* batch x 3 x (M/2 + 1) */
    double *Y;             /* batch x 3 x M */
    int nb;
    int zero_pending;        /* the accumulators are zeroed by the batch's first accumulate */
    measures_gpu *meas;      /* the records' measures (synth_gpu_set_measures), or NULL */
    cudaEvent_t rec_done[2]; /* each slot's records copied to the host */
    /* the records' copies to the host on a stream of their own, so the next batch's sums run
     * meanwhile: Y written (default stream), Y copied (the copy stream; the next batch's
     * transform waits for it before writing Y again) */
    cudaStream_t copy_stream;
    cudaEvent_t y_written, y_copied;
    int y_copy_pending;
    double *hvel; /* synth_gpu_record_buffer's page-locked slots, or NULL */
    int rec_nb[2];
};

static size_t half(int n) {
    return (size_t)n / 2 + 1;
}

extern "C" double synth_gpu_bytes(const synth_gpu_shape *s, long block, int batch, long points) {
    size_t M = (size_t)s->L * s->up;
    double load = (double)block * 18 *
                  (s->nt_sgt * sizeof(float) + s->L * sizeof(double) + half(s->L) * 16.0);
    double spectra = (double)points * 18 * s->nf * sizeof(float2);
    double rec = (double)batch * 3 * (half((int)M) * 16.0 + M * sizeof(double) + s->nf * 16.0);
    return load + spectra + rec + (batch > 0 ? ACC_PART_BYTES : 0);
}

extern "C" double synth_gpu_free_bytes(int device, int ranks) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) return -1;
    if (cudaSetDevice(device % n) != cudaSuccess) return -1;
    size_t fr = 0, total = 0;
    if (cudaMemGetInfo(&fr, &total) != cudaSuccess) return -1;
    int d = device % n, sharing = ranks > d ? (ranks - 1 - d) / n + 1 : 1;
    double share = (double)total / sharing;
    return share < (double)fr ? share : (double)fr;
}

extern "C" int synth_gpu_available(cs_error *err) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n < 1)
        return cs_error_set(err, CS_ERR_RESOURCE, "no CUDA device: %s",
                            cs_cuda_no_device_reason(e));
    return cufft_dl_open(err);
}

extern "C" const char *synth_gpu_device_name(const synth_gpu *g) {
    return g ? g->name : "";
}

extern "C" long synth_gpu_rows(const synth_gpu *g, int series) {
    return g->points * 18 / series;
}

extern "C" long synth_gpu_block(const synth_gpu *g) {
    return g->block;
}

extern "C" int synth_gpu_batch(const synth_gpu *g) {
    return g->batch;
}

extern "C" void synth_gpu_close(synth_gpu *g) {
    if (!g) return;
    measures_gpu_close(g->meas);
    cufft_dl_plan_free(&g->fwd);
    cufft_dl_plans_free(&g->inv);
    cudaFree(g->strain);
    cudaFree(g->real);
    cudaFree(g->spec);
    cudaFree(g->mt);
    cudaFree(g->drows);
    cudaFreeHost(g->hrows);
    cudaFree(g->G);
    cudaFree(g->acc);
    cudaFree(g->part);
    cudaFree(g->dedge);
    cudaFree(g->dtimes);
    cudaFree(g->drup);
    cudaFreeHost(g->hreal);
    cudaFree(g->dreal);
    cudaFree(g->ds);
    cudaFree(g->dsr);
    cudaFree(g->dC);
    cudaFree(g->dbases);
    cudaFreeHost(g->bases);
    for (stage_area &a : g->areas) {
        cudaFreeHost(a.s);
        cudaFreeHost(a.sr);
    }
    if (g->copied) cudaEventDestroy(g->copied);
    if (g->copy_stream) cudaStreamSynchronize(g->copy_stream);
    if (g->y_written) cudaEventDestroy(g->y_written);
    if (g->y_copied) cudaEventDestroy(g->y_copied);
    if (g->copy_stream) cudaStreamDestroy(g->copy_stream);
    cudaFree(g->X);
    cudaFree(g->Y);
    for (int i = 0; i < 2; i++)
        if (g->rec_done[i]) cudaEventDestroy(g->rec_done[i]);
    if (g->hvel) cudaFreeHost(g->hvel);
    delete g;
}

extern "C" int synth_gpu_open(synth_gpu **out, int device, const synth_gpu_shape *s, long block,
                              int batch, long points, cs_error *err) {
    *out = NULL;
    if (synth_gpu_available(err)) return -1;
    int n = 0;
    CS_CUDA_CHECK(cudaGetDeviceCount(&n));
    synth_gpu *g = new synth_gpu();
    g->s = *s;
    g->device = device % n;
    g->block = block < 1 ? 1 : block;
    g->batch = batch < 1 ? 1 : batch;
    g->points = points < 1 ? 1 : points;
    g->df = 1.0 / (s->L * s->dt_sgt);
    g->series = 3;
    g->areas.assign(g->batch, stage_area());
    cudaDeviceProp prop;
    int rc = 0;
    size_t M = (size_t)s->L * s->up;
#define OPEN_CK(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess && !rc)                                                              \
            rc = cs_error_set(err, CS_ERR_RESOURCE, "%s:%d: %s: %s (%.2f GB asked in all)",        \
                              __FILE__, __LINE__, #call, cudaGetErrorString(e_),                   \
                              synth_gpu_bytes(s, g->block, g->batch, g->points) / 1e9);            \
    } while (0)
    OPEN_CK(cudaSetDevice(g->device));
    OPEN_CK(cudaGetDeviceProperties(&prop, g->device));
    if (!rc) snprintf(g->name, sizeof g->name, "%s (device %d)", prop.name, g->device);
    OPEN_CK(cudaMalloc(&g->strain, sizeof(float) * 18 * (size_t)s->nt_sgt * g->block));
    OPEN_CK(cudaMalloc(&g->real, sizeof(double) * 18 * (size_t)s->L * g->block));
    OPEN_CK(cudaMalloc(&g->spec, sizeof(cufftDoubleComplex) * 18 * half(s->L) * g->block));
    OPEN_CK(cudaMalloc(&g->mt, sizeof(double) * 6 * g->block));
    OPEN_CK(cudaMalloc(&g->drows, sizeof(int) * g->block));
    OPEN_CK(cudaHostAlloc(&g->hrows, sizeof(int) * g->block, cudaHostAllocDefault));
    OPEN_CK(cudaMalloc(&g->G, sizeof(float2) * 18 * (size_t)s->nf * g->points));
    OPEN_CK(cudaMalloc(&g->acc, sizeof(double2) * 3 * (size_t)s->nf * g->batch));
    OPEN_CK(cudaMalloc(&g->X, sizeof(cufftDoubleComplex) * 3 * half((int)M) * g->batch));
    OPEN_CK(cudaMalloc(&g->Y, sizeof(double) * 3 * M * g->batch));
    OPEN_CK(cudaHostAlloc(&g->bases, sizeof(long long) * 3 * (g->batch + 1), cudaHostAllocDefault));
    OPEN_CK(cudaMalloc(&g->dbases, sizeof(long long) * 3 * (g->batch + 1)));
    OPEN_CK(cudaHostAlloc(&g->hreal, sizeof(int) * 3 * g->batch, cudaHostAllocDefault));
    OPEN_CK(cudaMalloc(&g->dreal, sizeof(int) * 3 * g->batch));
    if (!rc) {
        g->hhypo = g->hreal + g->batch, g->hwhich = g->hreal + 2 * g->batch;
        g->dhypo = g->dreal + g->batch, g->dwhich = g->dreal + 2 * g->batch;
    }
    OPEN_CK(cudaEventCreateWithFlags(&g->copied, cudaEventDisableTiming));
    for (int i = 0; i < 2; i++)
        OPEN_CK(cudaEventCreateWithFlags(&g->rec_done[i], cudaEventDisableTiming));
    OPEN_CK(cudaStreamCreateWithFlags(&g->copy_stream, cudaStreamNonBlocking));
    OPEN_CK(cudaEventCreateWithFlags(&g->y_written, cudaEventDisableTiming));
    OPEN_CK(cudaEventCreateWithFlags(&g->y_copied, cudaEventDisableTiming));
    /* the zero padding of the forward transforms is written once: loads fill only the samples */
    if (!rc) OPEN_CK(cudaMemset(g->real, 0, sizeof(double) * 18 * (size_t)s->L * g->block));
#undef OPEN_CK
    if (rc) {
        synth_gpu_close(g);
        return rc;
    }
    *out = g;
    return 0;
}

/* ------------------------------------------------------------------------------------ load */

__constant__ double tensor_weight[6] = {1, 1, 1, 2, 2, 2};

/* The series of one block: per point and force sum_c w_c m_c H_c / impulse (series 3), or each
 * component weighted (series 18); samples past nt_sgt stay the zero padding. */
__global__ void series_kernel(const float *strain, const double *mt, int nq, int series, int nt,
                              int L, double i0, double i1, double i2, double *real) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)nq * series * nt;
    if (idx >= total) return;
    int t = (int)(idx % nt);
    long long sidx = idx / nt; /* q * series + j */
    int q = (int)(sidx / series), j = (int)(sidx % series);
    double v;
    if (series == 3) {
        int f = j;
        double imp = f == 0 ? i0 : f == 1 ? i1 : i2;
        const float *src = strain + ((size_t)q * 18 + (size_t)f * 6) * nt;
        v = 0;
        for (int c = 0; c < 6; c++)
            v += mt[6 * q + c] * tensor_weight[c] * src[(size_t)c * nt + t];
        v /= imp;
    } else {
        int f = j / 6, c = j % 6;
        double imp = f == 0 ? i0 : f == 1 ? i1 : i2;
        v = tensor_weight[c] / imp * strain[((size_t)q * 18 + j) * nt + t];
    }
    real[(size_t)sidx * L + t] = v;
}

/* Keeps f_k, k < nf, of each series, times exp(+i 2 pi f ts) dt (the impulse's shift removed,
 * the DFT made the sampled function's transform), into the point's row of G: row-major in
 * (point, frequency, series), so that a term of accumulate_kernel reads its point's series at one
 * address and constant offsets. */
__global__ void keep_kernel(const cufftDoubleComplex *spec, int nq, int series, int nf, int hl,
                            double ts_over_T, double dt, const int *rows, float2 *G) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)nq * series * nf) return;
    int k = (int)(idx % nf);
    long long s = idx / nf;
    int q = (int)(s / series), j = (int)(s % series);
    double sn, cs;
    double ph = k * ts_over_T;
    ph -= rint(ph);
    sincospi(2 * ph, &sn, &cs);
    cufftDoubleComplex z = spec[(size_t)s * hl + k];
    G[((size_t)rows[q] * nf + k) * series + j] =
        make_float2((float)((z.x * cs - z.y * sn) * dt), (float)((z.x * sn + z.y * cs) * dt));
}

extern "C" int synth_gpu_load_rows(synth_gpu *g, const long *rows, long nq, const float *strain,
                                   const double *m6, cs_error *err) {
    const synth_gpu_shape *s = &g->s;
    int series = m6 ? 3 : 18;
    long nrows = synth_gpu_rows(g, series);
    if (nq < 1) return 0;
    if (nq > g->block)
        return cs_error_set(err, CS_ERR_INTERNAL, "a load of %ld points (block %ld)", nq, g->block);
    for (long q = 0; q < nq; q++) {
        if (rows[q] < 0 || rows[q] >= nrows)
            return cs_error_set(err, CS_ERR_INTERNAL, "a load into row %ld of %ld", rows[q], nrows);
        g->hrows[q] = (int)rows[q];
    }
    if (g->loaded && series != g->series)
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "a load of %d series per point where the rows hold %d (begin a new "
                            "layout with synth_gpu_forget)",
                            series, g->series);
    g->series = series;
    g->loaded = 1;
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    CS_CUDA_CHECK(cudaMemcpy(g->strain, strain, sizeof(float) * 18 * (size_t)s->nt_sgt * nq,
                             cudaMemcpyHostToDevice));
    CS_CUDA_CHECK(cudaMemcpy(g->drows, g->hrows, sizeof(int) * nq, cudaMemcpyHostToDevice));
    if (m6) CS_CUDA_CHECK(cudaMemcpy(g->mt, m6, sizeof(double) * 6 * nq, cudaMemcpyHostToDevice));
    long long n = (long long)nq * series * s->nt_sgt;
    series_kernel<<<(unsigned)((n + 255) / 256), 256>>>(g->strain, g->mt, (int)nq, series,
                                                        s->nt_sgt, s->L, s->impulse[0],
                                                        s->impulse[1], s->impulse[2], g->real);
    CS_CUDA_CHECK(cudaGetLastError());
    CS_CALL(err, cufft_dl_plan_for(&g->fwd, s->L, (int)(nq * series), CUFFT_D2Z, 0, err));
    CS_CALL(err, cufft_dl_d2z(&g->fwd, g->real, g->spec, err));
    long long m = (long long)nq * series * s->nf;
    keep_kernel<<<(unsigned)((m + 255) / 256), 256>>>(
        g->spec, (int)nq, series, s->nf, (int)half(s->L), s->time_shift / (s->L * s->dt_sgt),
        s->dt_sgt, g->drows, g->G);
    CS_CUDA_CHECK(cudaGetLastError());
    return 0;
}

extern "C" int synth_gpu_load(synth_gpu *g, long row0, long nq, const float *strain,
                              const double *m6, cs_error *err) {
    if (nq > g->block)
        return cs_error_set(err, CS_ERR_INTERNAL, "a load of %ld points (block %ld)", nq, g->block);
    if (row0 == 0) synth_gpu_forget(g);
    std::vector<long> rows((size_t)(nq > 0 ? nq : 1));
    for (long q = 0; q < nq; q++)
        rows[(size_t)q] = row0 + q;
    return synth_gpu_load_rows(g, rows.data(), nq, strain, m6, err);
}

extern "C" void synth_gpu_forget(synth_gpu *g) {
    g->loaded = 0;
}

/* ------------------------------------------------------------------------------ variations */

/* The last batch's copies out of the stage areas (and hreal, bases) done: the host may write
 * them again. */
static cudaError_t stage_copies_done(const synth_gpu *g) {
    return g->copies_pending ? cudaEventSynchronize(g->copied) : cudaSuccess;
}

extern "C" int synth_gpu_begin(synth_gpu *g, int nb, cs_error *err) {
    if (nb < 1 || nb > g->batch)
        return cs_error_set(err, CS_ERR_INTERNAL, "a batch of %d variations (room for %d)", nb,
                            g->batch);
    g->nb = nb;
    g->zero_pending = 1;
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    /* the areas are about to be written */
    CS_CUDA_CHECK(stage_copies_done(g));
    g->copies_pending = 0;
    for (int b = 0; b < g->batch; b++) {
        g->areas[b].n = g->areas[b].nsr = g->areas[b].ncoarse = 0;
        g->hreal[b] = -1;
    }
    g->times_ready = 0;
    return 0;
}

/* Pinned room for n items, kept (what it held is not). */
template <typename T> static cudaError_t pinned(T **p, size_t *cap, size_t n) {
    if (n <= *cap) return cudaSuccess;
    cudaFreeHost(*p);
    *p = NULL;
    size_t want = n + n / 4 + 64;
    cudaError_t e = cudaHostAlloc((void **)p, sizeof(T) * want, cudaHostAllocDefault);
    *cap = e == cudaSuccess ? want : 0;
    return e;
}

template <typename T> static cudaError_t ensure(T **p, size_t *cap, size_t n) {
    if (n <= *cap) return cudaSuccess;
    cudaFree(*p);
    *p = NULL;
    size_t want = n + n / 4 + 16;
    cudaError_t e = cudaMalloc(p, sizeof(T) * want);
    *cap = e == cudaSuccess ? want : 0;
    return e;
}

extern "C" int synth_gpu_set_times(synth_gpu *g, const synth_gpu_times_rupture *r, int nr,
                                   double window_end, cs_error *err) {
    g->tn = 0;
    g->hrup.clear();
    if (!r || nr < 1) return 0;
    size_t edges = 0;
    long most = 0;
    for (int k = 0; k < nr; k++) {
        if (!r[k].real || r[k].nreal < 1 || r[k].n < 1 || r[k].n > 2147483647L / RUPGEN_EDGES ||
            r[k].nx < 1)
            return cs_error_set(err, CS_ERR_INTERNAL,
                                "rupture times of rupture %d of %d: %ld points, %d columns, %d "
                                "realisations",
                                k, nr, r[k].n, r[k].nx, r[k].nreal);
        edges += (size_t)r[k].n * RUPGEN_EDGES * r[k].nreal;
        if (r[k].n > most) most = r[k].n;
    }
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    /* the previous ruptures' times may still be in use */
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    /* room the device's estimate does not count (128 bytes a point and realisation, 8 a point
     * and variation of a batch): where there is none, the host makes the times */
    if (ensure(&g->dedge, &g->cap_edge, edges) != cudaSuccess ||
        ensure(&g->dtimes, &g->cap_times, (size_t)most * g->batch) != cudaSuccess ||
        ensure(&g->drup, &g->cap_rup, (size_t)nr) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    size_t at = 0;
    for (int k = 0; k < nr; k++) {
        size_t per = (size_t)r[k].n * RUPGEN_EDGES;
        g->hrup.push_back({(long long)at, (int)r[k].n, r[k].nx, r[k].nreal});
        for (int j = 0; j < r[k].nreal; j++, at += per)
            CS_CUDA_CHECK(cudaMemcpy(g->dedge + at, r[k].real[j].edge, sizeof(double) * per,
                                     cudaMemcpyHostToDevice));
    }
    CS_CUDA_CHECK(
        cudaMemcpy(g->drup, g->hrup.data(), sizeof(times_rupture) * nr, cudaMemcpyHostToDevice));
    g->tn = (int)most;
    g->window_end = window_end;
    return 0;
}

extern "C" int synth_gpu_times_on(const synth_gpu *g) {
    return g->tn > 0;
}

extern "C" int synth_gpu_stage_times(synth_gpu *g, int b, int rupture, int real, int hypo_point,
                                     cs_error *err) {
    int nr = (int)g->hrup.size();
    if (b < 0 || b >= g->nb || g->tn < 1 || rupture < 0 || rupture >= nr || hypo_point < 0 ||
        hypo_point >= g->hrup[rupture].n || real < 0 || real >= g->hrup[rupture].nreal)
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "device rupture times for variation %d (rupture %d of %d, "
                            "realisation %d, point %d)",
                            b, rupture, nr, real, hypo_point);
    CS_CUDA_CHECK(stage_copies_done(g));
    g->hreal[b] = real;
    g->hhypo[b] = hypo_point;
    g->hwhich[b] = rupture;
    return 0;
}

extern "C" int synth_gpu_stage(synth_gpu *g, int b, const synth_gpu_subfault *sf, long n,
                               cs_error *err) {
    if (b < 0 || b >= g->nb)
        return cs_error_set(err, CS_ERR_INTERNAL, "variation %d of a batch of %d", b, g->nb);
    stage_area &a = g->areas[b];
    size_t samples = 0;
    for (long i = 0; i < n; i++)
        samples += (size_t)sf[i].nsr;
    if (a.n || a.nsr) return cs_error_set(err, CS_ERR_INTERNAL, "variation %d staged twice", b);
    CS_CUDA_CHECK(stage_copies_done(g));
    if (samples > 2147483647UL || n > 2147483647L)
        return cs_error_set(err, CS_ERR_RESOURCE, "a variation of %zu slip-rate samples", samples);
    CS_CUDA_CHECK(pinned(&a.s, &a.cap_s, (size_t)n));
    CS_CUDA_CHECK(pinned(&a.sr, &a.cap_sr, samples));
    int nf = g->s.nf;
    /* counted here and stored once: see stage_area */
    long ns = a.n, nsr = a.nsr, ncoarse = a.ncoarse;
    staged *out = a.s;
    float *sr = a.sr;
    for (long i = 0; i < n; i++) {
        const synth_gpu_subfault *p = &sf[i];
        staged &q = out[ns++];
        memset(&q, 0, sizeof q);
        q.tinit = p->tinit;
        q.dts = p->dt_s;
        q.tc = 0.5 * (p->nsr - 1) * p->dt_s;
        q.scale = p->scale;
        for (int c = 0; c < 6; c++)
            q.m[c] = (float)p->m[c];
        q.row = (int)p->row;
        q.nsr = p->nsr;
        q.b = b;
        q.pt = (int)p->pt;
        q.sr_off = (int)nsr;
        for (int j = 0; j < p->nsr; j++)
            sr[nsr + j] = (float)p->sr[j];
        nsr += p->nsr;
        /* the coarse grid of synth.c's slip_rate_spectrum, or the direct sum where it is as
         * coarse as the record's own */
        double hw = q.tc + q.dts;
        q.dfc = 1.0 / (64.0 * hw);
        q.nc = (int)ceil((nf - 1) * g->df / q.dfc) + 3;
        q.direct = q.dfc <= 2 * g->df || q.nc + 1 > nf;
        q.xstep = g->df / q.dfc;
        q.c_off = (int)ncoarse;
        if (!q.direct) ncoarse += q.nc + 2; /* nodes -1 .. nc */
    }
    a.n = ns;
    a.nsr = nsr;
    a.ncoarse = ncoarse;
    return 0;
}

/* Nodes -1 .. nc of the coarse centred sum, sum_j s_j exp(i 2 pi m dfc (tc - j dts)), at
 * C[m + 1]: node -1 is the conjugate of node 1 (the sum of real samples), stored so that the
 * interpolation reads four nodes from one address. */
__global__ void coarse_kernel(const staged *sub, const long long *bases, int nb, const float *sr,
                              float2 *C) {
    const staged q = sub[blockIdx.x];
    if (q.direct) return;
    const float *srq = sr + bases[nb + 1 + q.b] + q.sr_off;
    float2 *Cq = C + bases[2 * (nb + 1) + q.b] + q.c_off;
    for (int m = threadIdx.x; m <= q.nc; m += blockDim.x) {
        double f = m * q.dfc, re = 0, im = 0, sn, cs, bs, bc;
        double p0 = f * q.tc;
        p0 -= rint(p0);
        sincospi(2 * p0, &sn, &cs);
        double p1 = f * q.dts;
        p1 -= rint(p1);
        sincospi(-2 * p1, &bs, &bc);
        for (int j = 0; j < q.nsr; j++) {
            double v = srq[j];
            re += v * cs;
            im += v * sn;
            double r = cs * bc - sn * bs;
            sn = cs * bs + sn * bc;
            cs = r;
        }
        Cq[m + 1] = make_float2((float)re, (float)im);
        if (m == 1) Cq[0] = make_float2((float)re, -(float)im);
    }
}

/* acc[b][f][k] += sum over variation b's subfaults of G(point, f, k) S(k), S the slip rate's
 * spectrum with its start's phase, the triangle factor and mu A. A block's threads share one
 * variation: its subfaults are read into shared memory a tile at a time. A term's phase and
 * coarse node are formed in single precision from two-float constants of its subfault
 * (phase_f32.h: within 3e-8 of a cycle and 6e-8 of a node, as the double path's once turned to
 * float, and no conversion in the loop), the phase turned by a float sine and cosine within
 * 1.2e-7, as precise as the float spectra they multiply. Each term is made in single precision, as
 * precise as the float G it multiplies, and summed in single precision over runs of ACC_FLUSH
 * terms, each run's sum added in double: on Hopper a double operation issues at half a float one's
 * rate and a conversion between the two slower still (on an H200 the site's mix took 8% less
 * of the pipeline, the records moving from 6.3e-8 to 1.1e-7 of the CPU's, relative L2).
 * The runs count the terms added, not the subfaults staged, so a subfault skipped past the
 * window (the device's times) and one the host left unstaged give the same sums bit for bit
 * where both give a variation's subfaults one run (accumulate_split.h cuts the staged ones). */
enum { TILE = 64, ACC_FLUSH = 32 };

/* A tile's subfault as each term reads it: mu A dts, its coarse nodes' offset in the
 * variation's (-1: the direct sum) and its row's offset in G (row x nf x series). */
struct __align__(16) tile_term {
    float w;
    int coff;
    long long goff;
};

template <int series>
__global__ void __launch_bounds__(ACC_THREADS, 9)
    accumulate_kernel(const staged *sub, const long long *bases, int nb, const float *sr_all,
                      const float2 *C_all, const float2 *G, int nf, double df, double2 *acc,
                      int slices, double2 *part, const double *times, int tn, double window_end) {
    __shared__ staged tile[TILE]; /* the direct sum's */
    /* per subfault of the tile, once for the block: df (its start plus centre) less its nearest
     * integer and df / dfc, each as two floats (phase_f32.h: the terms' phases and nodes then
     * take no double operation and no conversion), NaN where the device's start falls past the
     * window (dropped, as the host drops it); the term's constants; dts (the sinc's) */
    __shared__ float4 tile_a[TILE];
    __shared__ tile_term tile_b[TILE];
    __shared__ double tile_dts[TILE];
    /* each thread's double sums of its runs of ACC_FLUSH terms: in registers they took 12 of the
     * 56 that 9 blocks an SM leave a thread, and the loop's addresses were made again each term */
    __shared__ double run_sums[6][ACC_THREADS];
    int k = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y, z = blockIdx.z;
    const long long *start = bases;
    const float *sr = sr_all + bases[nb + 1 + b];
    const float2 *C = C_all + bases[2 * (nb + 1) + b];
    /* this thread's frequency in every row of G */
    const float2 *Gk = G + (size_t)(k < nf ? k : 0) * series;
    const double f = k * df;
    const float kf = (float)k;
    for (int i = 0; i < 6; i++)
        run_sums[i][threadIdx.x] = 0;
    float fr[3] = {0, 0, 0}, fi[3] = {0, 0, 0};
    int terms = 0;
    /* sinc(pi f dts)^2 of the last subfault's dts: a rupture's subfaults share one sampling */
    double sinc_dts = -1;
    float sinc2 = 1;
    /* run z of the variation's subfaults (accumulate_split.h) */
    long long len = start[b + 1] - start[b];
    long long lo = start[b] + len * z / slices, hi = start[b] + len * (z + 1) / slices;
    for (long long i0 = lo; i0 < hi; i0 += TILE) {
        int nt = (int)min((long long)TILE, hi - i0);
        __syncthreads();
        for (int j = threadIdx.x; j < nt; j += blockDim.x) {
            const staged q = sub[i0 + j];
            double tinit = q.tinit;
            if (isnan(tinit)) { /* a start the device made */
                tinit = times[(size_t)b * tn + q.pt];
                if (!(tinit < window_end)) tinit = NAN;
            }
            tile[j] = q;
            double cycles = df * (tinit + q.tc);
            float4 a;
            phase_f32_split(cycles - rint(cycles), &a.x, &a.y);
            phase_f32_split(q.xstep, &a.z, &a.w);
            tile_a[j] = a;
            tile_term t;
            t.w = (float)(q.scale * q.dts);
            t.coff = q.direct ? -1 : q.c_off;
            t.goff = (long long)q.row * nf * series;
            tile_b[j] = t;
            tile_dts[j] = q.dts;
        }
        __syncthreads();
        if (k >= nf) continue;
        for (int j = 0; j < nt; j++) {
            const float4 a = tile_a[j];
            if (isnan(a.x)) continue;
            const tile_term t = tile_b[j];
            /* the point's series at this frequency, asked for first: nothing below waits on them
             * until the end */
            const float2 *Gp = Gk + t.goff;
            float2 gv[3];
            if (series == 3)
                for (int ff = 0; ff < 3; ff++)
                    gv[ff] = Gp[ff];
            float dr, di;
            if (t.coff < 0) {
                const staged &q = tile[j];
                double sn, cs, bs, bc, p0 = f * q.tc, p1 = f * q.dts, er = 0, ei = 0;
                p0 -= rint(p0);
                p1 -= rint(p1);
                sincospi(2 * p0, &sn, &cs);
                sincospi(-2 * p1, &bs, &bc);
                for (int jj = 0; jj < q.nsr; jj++) {
                    double v = sr[q.sr_off + jj];
                    er += v * cs;
                    ei += v * sn;
                    double r = cs * bc - sn * bs;
                    sn = cs * bs + sn * bc;
                    cs = r;
                }
                dr = (float)er;
                di = (float)ei;
            } else {
                /* the node k df / dfc and its offset u, and the cubic's weights at u, in single
                 * precision; c[0] is node m - 1 (coarse_kernel stores node -1) */
                int m;
                const float u = phase_f32_node(kf, a.z, a.w, &m);
                const float2 *c = C + t.coff + m;
                const float2 n0 = c[0], n1 = c[1], n2 = c[2], n3 = c[3];
                const float up = u + 1, um = u - 1, um2 = u - 2;
                const float a6 = u * um * (1.0f / 6), b2 = up * um2 * 0.5f;
                const float w0 = -a6 * um2, w1 = b2 * um, w2 = -b2 * u, w3 = a6 * up;
                dr = fmaf(w3, n3.x, fmaf(w2, n2.x, fmaf(w1, n1.x, w0 * n0.x)));
                di = fmaf(w3, n3.y, fmaf(w2, n2.y, fmaf(w1, n1.y, w0 * n0.y)));
            }
            /* the phase of the start and centre, exp(-i 2 pi f (tinit + tc)) */
            float snf, csf;
            phase_f32_sincos_turns(-phase_f32_turns(kf, a.x, a.y), &snf, &csf);
            const double dts = tile_dts[j];
            if (dts != sinc_dts) {
                double h = f * dts; /* its argument reduced as the phase's */
                float sinc =
                    h == 0 ? 1.0f
                           : sinpif((float)(h - 2 * rint(0.5 * h))) / ((float)M_PI * (float)h);
                sinc2 = sinc * sinc;
                sinc_dts = dts;
            }
            const float w = t.w * sinc2, cw = csf * w, sw = snf * w;
            const float sr_ = fmaf(dr, cw, -di * sw), si_ = fmaf(dr, sw, di * cw);
            if (series == 3) {
                for (int ff = 0; ff < 3; ff++) {
                    fr[ff] = fmaf(-gv[ff].y, si_, fmaf(gv[ff].x, sr_, fr[ff]));
                    fi[ff] = fmaf(gv[ff].y, sr_, fmaf(gv[ff].x, si_, fi[ff]));
                }
            } else {
                const staged &q = tile[j];
                for (int ff = 0; ff < 3; ff++) {
                    float gr = 0, gi = 0;
                    for (int cc = 0; cc < 6; cc++) {
                        const float2 gv = Gp[ff * 6 + cc];
                        gr = fmaf(q.m[cc], gv.x, gr);
                        gi = fmaf(q.m[cc], gv.y, gi);
                    }
                    fr[ff] = fmaf(-gi, si_, fmaf(gr, sr_, fr[ff]));
                    fi[ff] = fmaf(gi, sr_, fmaf(gr, si_, fi[ff]));
                }
            }
            if (++terms == ACC_FLUSH) {
                for (int ff = 0; ff < 3; ff++) {
                    run_sums[2 * ff][threadIdx.x] += fr[ff];
                    run_sums[2 * ff + 1][threadIdx.x] += fi[ff];
                    fr[ff] = fi[ff] = 0;
                }
                terms = 0;
            }
        }
    }
    if (k >= nf) return;
    for (int ff = 0; ff < 3; ff++) {
        size_t at = ((size_t)b * 3 + ff) * nf + k;
        double sx = run_sums[2 * ff][threadIdx.x] + fr[ff];
        double sy = run_sums[2 * ff + 1][threadIdx.x] + fi[ff];
        if (slices == 1) {
            acc[at].x += sx;
            acc[at].y += sy;
        } else {
            part[(size_t)z * nb * 3 * nf + at] = make_double2(sx, sy);
        }
    }
}

/* acc += the runs' partial sums, in the runs' order (the same sums at every run of a batch). */
__global__ void add_runs_kernel(const double2 *part, int slices, long long n, double2 *acc) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = 0, y = 0;
    for (int z = 0; z < slices; z++) {
        double2 p = part[z * n + i];
        x += p.x;
        y += p.y;
    }
    acc[i].x += x;
    acc[i].y += y;
}

extern "C" void synth_gpu_set_sum_runs(synth_gpu *g, int runs) {
    g->sum_runs = runs < 0 ? 0 : runs > ACC_MAX_SLICES ? ACC_MAX_SLICES : runs;
}

extern "C" int synth_gpu_accumulate(synth_gpu *g, cs_error *err) {
    int nb = g->nb;
    long long *start = g->bases, *srb = start + nb + 1, *cb = srb + nb + 1;
    start[0] = srb[0] = cb[0] = 0;
    for (int b = 0; b < nb; b++) {
        start[b + 1] = start[b] + g->areas[b].n;
        srb[b + 1] = srb[b] + g->areas[b].nsr;
        cb[b + 1] = cb[b] + g->areas[b].ncoarse;
    }
    size_t ns = (size_t)start[nb];
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    /* in stream order: after the previous batch's records were taken */
    if (g->zero_pending)
        CS_CUDA_CHECK(cudaMemsetAsync(g->acc, 0, sizeof(double2) * 3 * (size_t)g->s.nf * nb));
    g->zero_pending = 0;
    if (ns == 0) return 0;
    CS_CUDA_CHECK(ensure(&g->ds, &g->cap_s, ns));
    CS_CUDA_CHECK(ensure(&g->dsr, &g->cap_sr, (size_t)srb[nb] + 1));
    CS_CUDA_CHECK(ensure(&g->dC, &g->cap_c, (size_t)cb[nb] + 1));
    for (int b = 0; b < nb; b++) {
        const stage_area &a = g->areas[b];
        if (a.n)
            CS_CUDA_CHECK(cudaMemcpyAsync(g->ds + start[b], a.s, sizeof(staged) * a.n,
                                          cudaMemcpyHostToDevice));
        if (a.nsr)
            CS_CUDA_CHECK(cudaMemcpyAsync(g->dsr + srb[b], a.sr, sizeof(float) * a.nsr,
                                          cudaMemcpyHostToDevice));
    }
    CS_CUDA_CHECK(cudaMemcpyAsync(g->dbases, g->bases, sizeof(long long) * 3 * (nb + 1),
                                  cudaMemcpyHostToDevice));
    /* the batch's rupture times, once a batch (the chunks of a rupture share them) */
    int timed = 0;
    for (int b = 0; b < nb && g->tn > 0; b++)
        timed |= g->hreal[b] >= 0;
    int make_times = timed && !g->times_ready;
    if (make_times)
        CS_CUDA_CHECK(cudaMemcpyAsync(g->dreal, g->hreal, sizeof(int) * 3 * g->batch,
                                      cudaMemcpyHostToDevice));
    /* the host may stage the next batch once these copies are done, not the times */
    CS_CUDA_CHECK(cudaEventRecord(g->copied));
    g->copies_pending = 1;
    if (make_times) {
        CS_CALL(err, times_gpu_launch(g->dedge, g->drup, g->dreal, g->dhypo, g->dwhich, nb, g->tn,
                                      g->dtimes, err));
        g->times_ready = 1;
    }
    for (int b = 0; b < nb; b++)
        g->areas[b].n = g->areas[b].nsr = g->areas[b].ncoarse = 0;
    coarse_kernel<<<(unsigned)ns, 64>>>(g->ds, g->dbases, nb, g->dsr, g->dC);
    CS_CUDA_CHECK(cudaGetLastError());
    int kblocks = (g->s.nf + ACC_THREADS - 1) / ACC_THREADS;
    int slices = accumulate_slices((long long)ns, nb, kblocks, ACC_RESIDENT, g->sum_runs);
    long long n = 3LL * g->s.nf * nb;
    if (slices > 1 && (size_t)(slices * n) > g->cap_part) {
        /* within ACC_PART_BYTES, the share synth_gpu_bytes counts */
        size_t most = (size_t)ACC_PART_BLOCKS * ACC_THREADS * 3, want = slices * n + n;
        if (want > most) want = most;
        cudaFree(g->part);
        g->part = NULL;
        g->cap_part = 0;
        CS_CUDA_CHECK(cudaMalloc(&g->part, sizeof(double2) * want));
        g->cap_part = want;
    }
    dim3 grid((unsigned)kblocks, (unsigned)nb, (unsigned)slices);
    /* the point's series a term reads, 3 or 18, a constant of the kernel */
    if (g->series == 3)
        accumulate_kernel<3><<<grid, ACC_THREADS>>>(g->ds, g->dbases, nb, g->dsr, g->dC, g->G,
                                                    g->s.nf, g->df, g->acc, slices, g->part,
                                                    g->dtimes, g->tn, g->window_end);
    else
        accumulate_kernel<18><<<grid, ACC_THREADS>>>(g->ds, g->dbases, nb, g->dsr, g->dC, g->G,
                                                     g->s.nf, g->df, g->acc, slices, g->part,
                                                     g->dtimes, g->tn, g->window_end);
    CS_CUDA_CHECK(cudaGetLastError());
    if (slices > 1) {
        add_runs_kernel<<<(unsigned)((n + 255) / 256), 256>>>(g->part, slices, n, g->acc);
        CS_CUDA_CHECK(cudaGetLastError());
    }
    return 0;
}

/* ----------------------------------------------------------------------------------- records */

__global__ void spectrum_kernel(const double2 *acc, int nser, int nf, int hm, double df,
                                cufftDoubleComplex *X) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)nser * hm) return;
    int k = (int)(idx % hm);
    long long s = idx / hm;
    double2 a = k < nf ? acc[(size_t)s * nf + k] : make_double2(0, 0);
    X[idx].x = a.x * df;
    X[idx].y = a.y * df;
}

extern "C" double synth_gpu_measures_bytes(const synth_gpu_shape *s, int batch,
                                           const synth_gpu_measures *m) {
    return m && m->nperiods >= 0 ? measures_gpu_bytes(m, s->nt, batch) : 0;
}

extern "C" int synth_gpu_set_measures(synth_gpu *g, const synth_gpu_measures *m, cs_error *err) {
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    measures_gpu_close(g->meas);
    g->meas = NULL;
    if (!m) return 0;
    return measures_gpu_open(&g->meas, m, g->s.nt, g->batch, err);
}

extern "C" int synth_gpu_records(synth_gpu *g, int nb, double *vel, int slot, cs_error *err) {
    const synth_gpu_shape *s = &g->s;
    int M = s->L * s->up, hm = (int)half(M);
    if (slot < -1 || slot > 1)
        return cs_error_set(err, CS_ERR_INTERNAL, "records into slot %d", slot);
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    long long n = (long long)nb * 3 * hm;
    spectrum_kernel<<<(unsigned)((n + 255) / 256), 256>>>(g->acc, nb * 3, s->nf, hm, g->df, g->X);
    CS_CUDA_CHECK(cudaGetLastError());
    cufft_dl_plan *inv;
    CS_CALL(err, cufft_dl_plans_for(&g->inv, M, nb, g->batch, 3, CUFFT_Z2D, 0, &inv, err));
    /* the last batch's records must have left Y before the transform writes it */
    if (g->y_copy_pending) CS_CUDA_CHECK(cudaStreamWaitEvent(0, g->y_copied, 0));
    CS_CALL(err, cufft_dl_z2d(inv, g->X, g->Y, err));
    CS_CUDA_CHECK(cudaEventRecord(g->y_written, 0));
    if (slot >= 0 && g->meas) CS_CALL(err, measures_gpu_launch(g->meas, g->Y, M, nb, slot, err));
    CS_CUDA_CHECK(cudaStreamWaitEvent(g->copy_stream, g->y_written, 0));
    CS_CUDA_CHECK(cudaMemcpy2DAsync(vel, sizeof(double) * s->nt, g->Y, sizeof(double) * M,
                                    sizeof(double) * s->nt, (size_t)nb * 3, cudaMemcpyDeviceToHost,
                                    g->copy_stream));
    CS_CUDA_CHECK(cudaEventRecord(g->y_copied, g->copy_stream));
    g->y_copy_pending = 1;
    if (slot < 0) {
        CS_CUDA_CHECK(cudaStreamSynchronize(g->copy_stream));
        CS_CUDA_CHECK(cudaStreamSynchronize(0));
        return 0;
    }
    CS_CUDA_CHECK(cudaEventRecord(g->rec_done[slot], g->copy_stream));
    g->rec_nb[slot] = nb;
    return 0;
}

extern "C" int synth_gpu_wait(synth_gpu *g, int slot, int nb, double *values, cs_error *err) {
    if (slot < 0 || slot > 1 || g->rec_nb[slot] != nb || (g->meas && !values))
        return cs_error_set(err, CS_ERR_INTERNAL, "no records of %d variations in slot %d", nb,
                            slot);
    CS_CUDA_CHECK(cudaSetDevice(g->device));
    CS_CUDA_CHECK(cudaEventSynchronize(g->rec_done[slot]));
    g->rec_nb[slot] = 0;
    return g->meas ? measures_gpu_wait(g->meas, slot, nb, values, err) : 0;
}

extern "C" double *synth_gpu_record_buffer(synth_gpu *g) {
    if (!g->hvel && cudaSetDevice(g->device) == cudaSuccess)
        g->hvel =
            (double *)synth_gpu_host_alloc(sizeof(double) * 2 * 3 * (size_t)g->s.nt * g->batch);
    return g->hvel;
}

extern "C" void *synth_gpu_host_alloc(size_t bytes) {
    void *p = NULL;
    return cudaHostAlloc(&p, bytes, cudaHostAllocDefault) == cudaSuccess ? p : NULL;
}

extern "C" void synth_gpu_host_free(void *p) {
    if (p) cudaFreeHost(p);
}
