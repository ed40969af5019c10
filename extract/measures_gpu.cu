/* The records' measures on the device (measures_gpu.cuh). Each record's measures are those of
 * im.c, made from the same record with the same formulas (im_osc.h, im_spec.h) in double
 * precision; what differs is the order of the sums (parallel reductions and scans), ~1e-15
 * relative. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "cufft_dl.cuh"
#include "measures_gpu.cuh"

extern "C" {
#include "cs_cuda_check.h"
#include "im.h"
#include "im_osc.h"
#include "im_spec.h"
}

enum {
    SA_ANGLES = 180,
    SA_THREADS = 192,
    SCAN_THREADS = 256,
    FAS_GROUP = 4,
    ROTD_TILE = 1024,
    OSC_CHUNKS = 64
};

/* Zero-padded real series of length N and their spectra (N/2 + 1 bins each). */
struct transform {
    long N;
    double *R;
    cufftDoubleComplex *Z;
    cufft_dl_plans fwd;
};

struct measures_gpu {
    int np, ncomp, nt, batch, G;
    double damping, dt, ko_b;
    unsigned long long want_fas, want_dur; /* bit p: the period's FAS, durations are made */
    double *dper;                          /* np periods */
    long long ulen;                        /* substeps + 1 of the longest SA response */
    /* per slot (a batch's measures in flight while the next batch's records are made) */
    double *dacc[2];           /* batch x ncomp x nt: the records' accelerations */
    double *dval[2], *hval[2]; /* batch x G, the given layout (im.h); hval pinned */
    int nb[2];
    /* on the measures' stream, one batch at a time */
    double *du, *dpk;   /* SA: batch x np x 2 x ulen responses of E and N; batch x np x 3 peaks */
    double2 *dstate;    /* SA: batch x np x ncomp x OSC_CHUNKS states of the recursion's chunks */
    transform dur, fas; /* fas.R NULL: the FAS takes the durations' spectra (the same N) */
    cufftDoubleComplex *W; /* a period's filtered spectra, the inverse transform's input */
    cufft_dl_plans inv;
    double *dh; /* np x (dur.N / 2 + 1): each period's band-pass, 1/N included */
    double *ko; /* 3 x fas.N / 2: the bins' b log10 f, its sine and cosine */
    cudaStream_t stream;
    cudaEvent_t y_ready, done[2];
};

static size_t bins(long N) {
    return (size_t)N / 2 + 1;
}

/* The samples' intervals a chunk of the oscillators' recursion steps (osc_response_kernel). */
static int osc_span(int nt) {
    return im_osc_span(nt, OSC_CHUNKS);
}

/* The room of the longest SA response: its first sample, then every chunk's substeps
 * interleaved (osc_response_kernel), the chunks past the record's end zeros. */
static long long sa_ulen(int nt, int np, const double *periods, double dt) {
    int maxsub = 1;
    for (int p = 0; p < np; p++)
        if (im_osc_substeps(dt, periods[p]) > maxsub) maxsub = im_osc_substeps(dt, periods[p]);
    return im_osc_slot(0, (long long)osc_span(nt) * maxsub, OSC_CHUNKS);
}

static double tmax_of(const synth_gpu_measures *m) {
    double t = 0;
    for (int p = 0; p < m->nperiods; p++)
        t = fmax(t, m->periods[p]);
    return t;
}

static int any_of(const int *want, int np) {
    for (int p = 0; p < np && want; p++)
        if (want[p]) return 1;
    return 0;
}

double measures_gpu_bytes(const synth_gpu_measures *m, int nt, int batch) {
    const int np = m->nperiods, ncomp = m->ncomp;
    double per_slot = 8.0 * batch * ((double)ncomp * nt + IM_GIVEN_VALUES(np));
    double sa = np > 0
                    ? 8.0 * batch * np *
                          (2.0 * sa_ulen(nt, np, m->periods, m->dt) + 3 + 2.0 * ncomp * OSC_CHUNKS)
                    : 0;
    double nser = (double)batch * ncomp, spec = 0;
    long nd = im_spec_duration_length(nt), nf = im_spec_fas_length(nt, m->dt, tmax_of(m));
    int dur = any_of(m->want_dur, np), fas = any_of(m->want_fas, np);
    /* the series, their spectra, cuFFT's work areas (taken as the series' size, twice: plans
     * for batches of 1, 2, 4 ... records) */
    if (dur || fas) spec += nser * (16.0 * nd + 16.0 * bins(nd));
    if (dur) spec += nser * (16.0 * bins(nd) + 8.0 * nd) + 8.0 * np * bins(nd);
    if (fas && (!dur || nf != nd))
        spec += nser * (16.0 * nf + 16.0 * bins(nf)) + 24.0 * nf / 2;
    else if (fas)
        spec += 24.0 * nf / 2;
    return 2 * per_slot + sa + spec + 8.0 * np;
}

static void transform_free(transform *t) {
    cufft_dl_plans_free(&t->fwd);
    cudaFree(t->R);
    cudaFree(t->Z);
    t->R = NULL;
    t->Z = NULL;
}

void measures_gpu_close(measures_gpu *mg) {
    if (!mg) return;
    if (mg->stream) cudaStreamSynchronize(mg->stream);
    for (int i = 0; i < 2; i++) {
        cudaFree(mg->dacc[i]);
        cudaFree(mg->dval[i]);
        cudaFreeHost(mg->hval[i]);
        if (mg->done[i]) cudaEventDestroy(mg->done[i]);
    }
    cudaFree(mg->dper);
    cudaFree(mg->du);
    cudaFree(mg->dpk);
    cudaFree(mg->dstate);
    transform_free(&mg->dur);
    transform_free(&mg->fas);
    cudaFree(mg->W);
    cufft_dl_plans_free(&mg->inv);
    cudaFree(mg->dh);
    cudaFree(mg->ko);
    if (mg->y_ready) cudaEventDestroy(mg->y_ready);
    if (mg->stream) cudaStreamDestroy(mg->stream);
    delete mg;
}

static int open_parts(measures_gpu *mg, const synth_gpu_measures *m, cs_error *err) {
    const int np = mg->np, ncomp = mg->ncomp;
    const size_t nser = (size_t)mg->batch * ncomp;
    CS_CUDA_CHECK(cudaStreamCreateWithFlags(&mg->stream, cudaStreamNonBlocking));
    CS_CUDA_CHECK(cudaEventCreateWithFlags(&mg->y_ready, cudaEventDisableTiming));
    for (int i = 0; i < 2; i++) {
        CS_CUDA_CHECK(cudaEventCreateWithFlags(&mg->done[i], cudaEventDisableTiming));
        CS_CUDA_CHECK(cudaMalloc(&mg->dacc[i], sizeof(double) * nser * mg->nt));
        CS_CUDA_CHECK(cudaMalloc(&mg->dval[i], sizeof(double) * mg->G * mg->batch));
        CS_CUDA_CHECK(
            cudaHostAlloc(&mg->hval[i], sizeof(double) * mg->G * mg->batch, cudaHostAllocDefault));
    }
    if (np > 0) {
        size_t per = (size_t)np * mg->batch;
        mg->ulen = sa_ulen(mg->nt, np, m->periods, mg->dt);
        CS_CUDA_CHECK(cudaMalloc(&mg->dper, sizeof(double) * np));
        CS_CUDA_CHECK(
            cudaMemcpy(mg->dper, m->periods, sizeof(double) * np, cudaMemcpyHostToDevice));
        CS_CUDA_CHECK(cudaMalloc(&mg->du, sizeof(double) * 2 * (size_t)mg->ulen * per));
        CS_CUDA_CHECK(cudaMalloc(&mg->dpk, sizeof(double) * 3 * per));
        CS_CUDA_CHECK(cudaMalloc(&mg->dstate, sizeof(double2) * ncomp * OSC_CHUNKS * per));
    }
    const int dur = mg->want_dur != 0, fas = mg->want_fas != 0;
    mg->dur.N = im_spec_duration_length(mg->nt);
    mg->fas.N = im_spec_fas_length(mg->nt, mg->dt, tmax_of(m));
    if (dur || (fas && mg->fas.N == mg->dur.N)) {
        CS_CUDA_CHECK(cudaMalloc(&mg->dur.R, sizeof(double) * nser * mg->dur.N));
        CS_CUDA_CHECK(cudaMalloc(&mg->dur.Z, sizeof(cufftDoubleComplex) * nser * bins(mg->dur.N)));
    }
    if (dur) {
        const long nb = mg->dur.N / 2;
        const double df = 1 / (mg->dur.N * mg->dt);
        std::vector<double> h((size_t)np * bins(mg->dur.N), 0.0);
        for (int p = 0; p < np; p++)
            for (long k = 0; k <= nb; k++)
                h[(size_t)p * (nb + 1) + k] =
                    im_spec_duration_filter(k * df, m->periods[p]) / (double)(2 * nb);
        CS_CUDA_CHECK(cudaMalloc(&mg->W, sizeof(cufftDoubleComplex) * nser * bins(mg->dur.N)));
        CS_CUDA_CHECK(cudaMalloc(&mg->dh, sizeof(double) * h.size()));
        CS_CUDA_CHECK(
            cudaMemcpy(mg->dh, h.data(), sizeof(double) * h.size(), cudaMemcpyHostToDevice));
    }
    if (fas) {
        if (mg->fas.N != mg->dur.N) {
            CS_CUDA_CHECK(cudaMalloc(&mg->fas.R, sizeof(double) * nser * mg->fas.N));
            CS_CUDA_CHECK(
                cudaMalloc(&mg->fas.Z, sizeof(cufftDoubleComplex) * nser * bins(mg->fas.N)));
        }
        const long n = mg->fas.N / 2;
        const double df = 1 / (mg->fas.N * mg->dt);
        std::vector<double> ko(3 * (size_t)n);
        for (long k = 0; k < n; k++) {
            ko[k] = mg->ko_b * log10((k + 1) * df);
            ko[n + k] = sin(ko[k]);
            ko[2 * n + k] = cos(ko[k]);
        }
        CS_CUDA_CHECK(cudaMalloc(&mg->ko, sizeof(double) * ko.size()));
        CS_CUDA_CHECK(
            cudaMemcpy(mg->ko, ko.data(), sizeof(double) * ko.size(), cudaMemcpyHostToDevice));
    }
    return 0;
}

int measures_gpu_open(measures_gpu **out, const synth_gpu_measures *m, int nt, int batch,
                      cs_error *err) {
    *out = NULL;
    if (m->nperiods < 0 || m->nperiods > 64 || m->ncomp < 2 || m->ncomp > 3 || nt < 5 ||
        batch < 1 || batch > 1 << (CUFFT_DL_SIZES - 1) || !(m->dt > 0))
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "device measures of %d periods, %d components, %d samples at %g s, "
                            "batches of %d",
                            m->nperiods, m->ncomp, nt, m->dt, batch);
    measures_gpu *mg = new measures_gpu();
    mg->np = m->nperiods;
    mg->ncomp = m->ncomp;
    mg->nt = nt;
    mg->batch = batch;
    mg->G = IM_GIVEN_VALUES(m->nperiods);
    mg->damping = m->damping;
    mg->dt = m->dt;
    mg->ko_b = m->ko_b > 0 ? m->ko_b : IM_KO_BANDWIDTH;
    for (int p = 0; p < m->nperiods; p++) {
        if (m->want_fas && m->want_fas[p]) mg->want_fas |= 1ULL << p;
        if (m->want_dur && m->want_dur[p]) mg->want_dur |= 1ULL << p;
    }
    int rc = cufft_dl_open(err);
    if (!rc && (rc = open_parts(mg, m, err)))
        cs_error_prefix(err, "device measures (%.2f GB): ", measures_gpu_bytes(m, nt, batch) / 1e9);
    if (rc) {
        measures_gpu_close(mg);
        return rc;
    }
    *out = mg;
    return 0;
}

/* ------------------------------------------------------------------------------- kernels */

__global__ void nan_kernel(double *v, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = nan("");
}

/* Thread t < 180 of a block: the peak of the E and N series combined at angle t degrees; the
 * block's RotD50 (the median of the 180) into *r50 and RotD100 into *r100 by thread 0. The
 * series have n samples at a stride of 1 (e, nn). As im_rotd does on the host: every 16th
 * sample first, the least of those peaks a floor under every angle's peak, so that a sample
 * whose radius is below it (|p . u| <= |p|, with a margin for rounding) is the peak at no angle;
 * then the samples above the floor only, the same maxima bit for bit. They pass through shared
 * memory a tile at a time, loaded by the whole block and compacted there (a maximum does not
 * depend on the order): read by each angle's thread from global memory, one sample after the
 * other, the loop was bound by the loads' latency (80,000 samples of a 1 Hz response took
 * milliseconds a block). */
static __device__ void rotd_block(const double *e, const double *nn, long long n, double *r50,
                                  double *r100) {
    __shared__ double te[ROTD_TILE], tn[ROTD_TILE];
    __shared__ double peak[SA_ANGLES], sorted[SA_ANGLES];
    __shared__ int count;
    __shared__ double floor2;
    const int t = threadIdx.x;
    double c = 0, s = 0, m = 0;
    if (t < SA_ANGLES) sincospi(t / 180.0, &s, &c);
    for (int pass = 0; pass < 2; pass++) {
        const int stride = pass == 0 ? 16 : 1;
        const long long ns = (n + stride - 1) / stride;
        for (long long j0 = 0; j0 < ns; j0 += ROTD_TILE) {
            const int len = ns - j0 < ROTD_TILE ? (int)(ns - j0) : ROTD_TILE;
            __syncthreads();
            if (t == 0) count = 0;
            __syncthreads();
            for (int j = t; j < len; j += blockDim.x) {
                const long long at = (j0 + j) * stride;
                const double x = e[at], y = nn[at];
                if (pass == 0 || x * x + y * y >= floor2) {
                    const int k = atomicAdd(&count, 1);
                    te[k] = x;
                    tn[k] = y;
                }
            }
            __syncthreads();
            if (t < SA_ANGLES)
                for (int j = 0; j < count; j++)
                    m = fmax(m, fabs(te[j] * c + tn[j] * s));
        }
        if (pass == 0) {
            if (t < SA_ANGLES) peak[t] = m;
            __syncthreads();
            if (t == 0) {
                double f = peak[0];
                for (int j = 1; j < SA_ANGLES; j++)
                    f = fmin(f, peak[j]);
                floor2 = f * f * (1 - 1e-9);
            }
            __syncthreads();
        }
    }
    if (t < SA_ANGLES) peak[t] = m;
    __syncthreads();
    if (t < SA_ANGLES) {
        int rank = 0;
        for (int j = 0; j < SA_ANGLES; j++)
            rank += peak[j] < m || (peak[j] == m && j < t);
        sorted[rank] = m;
    }
    __syncthreads();
    if (t == 0) {
        *r50 = 0.5 * (sorted[89] + sorted[90]);
        *r100 = sorted[179];
    }
    __syncthreads();
}

/* The largest of x over the block (SA_THREADS threads), in thread 0. */
static __device__ double block_max(double x) {
    __shared__ double part[SA_THREADS / 32];
    for (int o = 16; o > 0; o /= 2)
        x = fmax(x, __shfl_xor_sync(0xffffffffu, x, o));
    __syncthreads();
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = x;
    __syncthreads();
    double m = 0;
    for (int w = 0; w < SA_THREADS / 32; w++)
        m = fmax(m, part[w]);
    return m;
}

/* One block per record: PGV as RotD50 of E and N, and each component's peak (im.c's). */
__global__ void pgv_kernel(const double *Y, int M, int nt, int ncomp, int G, int at, double *val) {
    const int b = blockIdx.x, t = threadIdx.x;
    const double *y = Y + (size_t)b * 3 * M;
    double own[3] = {0, 0, 0};
    for (int f = 0; f < ncomp; f++) {
        double m = 0;
        for (int j = t; j < nt; j += blockDim.x)
            m = fmax(m, fabs(y[(size_t)f * M + j]));
        own[f] = block_max(m);
    }
    double r50, r100;
    rotd_block(y, y + M, nt, &r50, &r100);
    if (t == 0) {
        double *v = val + (size_t)b * G + at;
        v[0] = r50;
        for (int f = 0; f < ncomp; f++)
            v[1 + f] = own[f];
    }
}

/* The acceleration of each record's first ncomp components (as im_acceleration). */
__global__ void acceleration_kernel(const double *Y, int nb, int ncomp, int nt, int M, double dt,
                                    double *acc) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)nb * ncomp * nt) return;
    int t = (int)(idx % nt);
    long long s = idx / nt;
    int b = (int)(s / ncomp), f = (int)(s % ncomp);
    acc[idx] = im_osc_acc(Y + ((size_t)b * 3 + f) * M, t, nt, dt);
}

/* The oscillators' recursion split in time: each (record, period, component) series' sample
 * intervals in OSC_CHUNKS chunks of `span` samples, a thread per chunk. One thread per series
 * stepping 80,000 substeps (a 1 Hz record at T = 1 s) left the device all but idle: 3,072
 * threads, 17 ms a batch of 128 records. The recursion is linear in its state (x, v), so a
 * chunk's end state is A^L s + p, A^L the homogeneous step matrix over the chunk's L substeps,
 * s the state at its start and p the end state of the chunk's own excitation from rest:
 *   1. every chunk's p, from rest (osc_particular_kernel);
 *   2. the chunks' start states in turn, one thread a series (osc_starts_kernel);
 *   3. every chunk stepped again from its start state, the response kept and its peak taken
 *      (osc_response_kernel): the recursion of im.c, from a start state that differs from the
 *      sequential one's by rounding only (~1e-15 relative). */
struct osc_series {
    int b, p, f, sub;
    im_osc_coef k;
    const double *ag;
};

static __device__ osc_series osc_series_of(long long s, const double *acc, const double *periods,
                                           int np, int ncomp, int nt, double dt, double z) {
    osc_series o;
    o.f = (int)(s % ncomp);
    long long bp = s / ncomp;
    o.p = (int)(bp % np), o.b = (int)(bp / np);
    o.sub = im_osc_substeps(dt, periods[o.p]);
    o.k = im_osc_coefficients(dt, periods[o.p], z, o.sub);
    o.ag = acc + ((size_t)o.b * ncomp + o.f) * nt;
    return o;
}

/* Samples i0 .. i1 - 1's intervals from state (x, v); with u, the response at the run's substep
 * t written at u[t stride]; returns the peak of |x| over them. */
static __device__ double osc_run(const osc_series *o, int i0, int i1, double *x, double *v,
                                 double *u, int stride) {
    double peak = 0;
    long long t = 0;
    for (int i = i0; i < i1; i++) {
        double g0 = o->ag[i], g1 = o->ag[i + 1], a0 = g0;
        for (int q = 0; q < o->sub; q++, t++) {
            double a1 = im_osc_excitation(g0, g1, q, o->sub);
            im_osc_step(&o->k, x, v, a0, a1);
            a0 = a1;
            if (u) u[t * stride] = *x;
            peak = fmax(peak, fabs(*x));
        }
    }
    return peak;
}

__global__ void osc_particular_kernel(const double *acc, const double *periods, int np, int nb,
                                      int ncomp, int nt, double dt, double z, int span,
                                      double2 *pend) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)nb * np * ncomp * OSC_CHUNKS) return;
    const int j = (int)(idx % OSC_CHUNKS);
    const osc_series o = osc_series_of(idx / OSC_CHUNKS, acc, periods, np, ncomp, nt, dt, z);
    const int i0 = j * span < nt - 1 ? j * span : nt - 1;
    const int i1 = i0 + span < nt - 1 ? i0 + span : nt - 1;
    double x = 0, v = 0;
    osc_run(&o, i0, i1, &x, &v, NULL, 0);
    pend[idx] = make_double2(x, v);
}

__global__ void osc_starts_kernel(const double *periods, int np, int nseries, int ncomp, int nt,
                                  double dt, double z, int span, double2 *state) {
    long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseries) return;
    const int p = (int)((s / ncomp) % np), sub = im_osc_substeps(dt, periods[p]);
    const im_osc_coef k = im_osc_coefficients(dt, periods[p], z, sub);
    /* A^L, L = span sub, by squaring */
    double m[4] = {1, 0, 0, 1}, a[4] = {k.a11, k.a12, k.a21, k.a22};
    for (long long L = (long long)span * sub; L > 0; L /= 2) {
        if (L & 1) {
            double r[4] = {m[0] * a[0] + m[1] * a[2], m[0] * a[1] + m[1] * a[3],
                           m[2] * a[0] + m[3] * a[2], m[2] * a[1] + m[3] * a[3]};
            for (int q = 0; q < 4; q++)
                m[q] = r[q];
        }
        double r[4] = {a[0] * a[0] + a[1] * a[2], a[0] * a[1] + a[1] * a[3],
                       a[2] * a[0] + a[3] * a[2], a[2] * a[1] + a[3] * a[3]};
        for (int q = 0; q < 4; q++)
            a[q] = r[q];
    }
    /* state[s][j]: in, chunk j's own end state; out, its start state */
    double2 *st = state + s * OSC_CHUNKS;
    double x = 0, v = 0;
    for (int j = 0; j < OSC_CHUNKS; j++) {
        double2 pj = st[j];
        st[j] = make_double2(x, v);
        double xn = m[0] * x + m[1] * v + pj.x, vn = m[2] * x + m[3] * v + pj.y;
        x = xn, v = vn;
    }
}

/* Each chunk stepped from its start state. The E and N responses are kept for RotD in the
 * order the threads make them: after the first sample, substep t of chunk j at 1 + t OSC_CHUNKS
 * + j, so that a warp's 32 chunks store 256 contiguous bytes (stored at each chunk's own place,
 * span x sub doubles apart, a store was 32 requests: 753 us of a median batch's 3.3 ms, 9% of
 * the SMs busy; Nsight Compute). RotD takes maxima over the samples, which do not depend on
 * their order; the slots past the record's end hold zeros, which cannot raise a maximum of
 * absolute values. */
__global__ void osc_response_kernel(const double *acc, const double *periods, int np, int nb,
                                    int ncomp, int nt, double dt, double z, int span,
                                    const double2 *state, long long ulen, double *u,
                                    unsigned long long *pk) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)nb * np * ncomp * OSC_CHUNKS) return;
    const int j = (int)(idx % OSC_CHUNKS);
    const long long s = idx / OSC_CHUNKS;
    const osc_series o = osc_series_of(s, acc, periods, np, ncomp, nt, dt, z);
    const int i0 = j * span < nt - 1 ? j * span : nt - 1;
    const int i1 = i0 + span < nt - 1 ? i0 + span : nt - 1;
    const size_t bp = (size_t)o.b * np + o.p;
    double *uf = o.f < 2 ? u + (bp * 2 + o.f) * ulen : NULL;
    if (uf && j == 0) uf[0] = 0;
    double *mine = uf ? uf + im_osc_slot(j, 0, OSC_CHUNKS) : NULL;
    double2 st = state[idx];
    double x = st.x, v = st.y;
    double peak = osc_run(&o, i0, i1, &x, &v, mine, OSC_CHUNKS);
    if (mine)
        for (long long t = (long long)(i1 - i0) * o.sub, most = (long long)span * o.sub; t < most;
             t++)
            mine[t * OSC_CHUNKS] = 0;
    /* peaks are >= 0: their bits order as the values do */
    atomicMax(pk + bp * 3 + o.f, (unsigned long long)__double_as_longlong(peak));
}

/* One block per (period, record): RotD50 and RotD100 of the E and N responses, with the
 * components' own peaks the four SA values (g) at val[b G + 4 p]. */
__global__ void sa_rotd_kernel(const double *u, const double *pk, const double *periods, int ncomp,
                               int span, double dt, long long ulen, int G, double *val) {
    const int p = blockIdx.x, np = gridDim.x, b = blockIdx.y;
    const double T = periods[p];
    /* osc_response_kernel's layout: the first sample, then every chunk's substeps */
    const long long n = im_osc_slot(0, (long long)span * im_osc_substeps(dt, T), OSC_CHUNKS);
    const size_t bp = (size_t)b * np + p;
    const double *ue = u + bp * 2 * ulen;
    double r50, r100;
    rotd_block(ue, ue + ulen, n, &r50, &r100);
    if (threadIdx.x == 0) {
        double w2g = (2 * M_PI / T) * (2 * M_PI / T) / 9.80665;
        const double *own = pk + bp * 3;
        double *o = val + (size_t)b * G + 4 * p;
        o[0] = w2g * r50;
        o[1] = w2g * r100;
        o[2] = w2g * sqrt(own[0] * own[1]);
        o[3] = ncomp == 3 ? w2g * own[2] : nan("");
    }
}

/* Each series (nser x nt) zero-padded to N. */
__global__ void pad_kernel(const double *acc, long long nser, int nt, long N, double *R) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nser * N) return;
    long long s = idx / N;
    long i = (long)(idx % N);
    R[idx] = i < nt ? acc[s * nt + i] : 0.0;
}

/* The sum over the block (SCAN_THREADS threads) of x, in every thread. */
static __device__ double block_sum(double x) {
    __shared__ double part[SCAN_THREADS / 32];
    for (int o = 16; o > 0; o /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, o);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    __syncthreads();
    if (lane == 0) part[warp] = x;
    __syncthreads();
    double s = 0;
    for (int w = 0; w < SCAN_THREADS / 32; w++)
        s += part[w];
    return s;
}

/* One block per record and group of FAS_GROUP periods: the Konno-Ohmachi smoothed FAS of E, N,
 * [Z] and the EAS at the periods wanted (im.c's fas_measures), from the acceleration spectra Z
 * (ncomp per record, nb + 1 bins each; bins 1 .. nb smoothed). */
__global__ void fas_kernel(const cufftDoubleComplex *Z, long nb, int ncomp, double dt,
                           const double *ko, const double *periods, int np, unsigned long long want,
                           double b_ko, int G, int at, double *val) {
    const int b = blockIdx.x;
    const cufftDoubleComplex *z = Z + (size_t)b * ncomp * (nb + 1);
    const double *l = ko, *sl = ko + nb, *cl = ko + 2 * nb;
    {
        const int p0 = blockIdx.y * FAS_GROUP;
        double c[FAS_GROUP], sc[FAS_GROUP], cc[FAS_GROUP], sum[FAS_GROUP][5];
        for (int g = 0; g < FAS_GROUP; g++) {
            int p = p0 + g < np ? p0 + g : np - 1;
            c[g] = b_ko * log10(1 / periods[p]);
            sincos(c[g], &sc[g], &cc[g]);
            for (int j = 0; j < 5; j++)
                sum[g][j] = 0;
        }
        for (long k = threadIdx.x; k < nb; k += blockDim.x) {
            double a2[3] = {0, 0, 0}, amp[4] = {0, 0, 0, 0};
            for (int f = 0; f < ncomp; f++) {
                cufftDoubleComplex v = z[(size_t)f * (nb + 1) + k + 1];
                a2[f] = v.x * v.x + v.y * v.y;
                amp[f] = dt * sqrt(a2[f]);
            }
            amp[3] = dt * sqrt((a2[0] + a2[1]) / 2);
            for (int g = 0; g < FAS_GROUP; g++) {
                double w = im_spec_ko_weight(l[k], sl[k], cl[k], c[g], sc[g], cc[g]);
                sum[g][4] += w;
                for (int f = 0; f < 4; f++)
                    sum[g][f] += w * amp[f];
            }
        }
        for (int g = 0; g < FAS_GROUP; g++) {
            double s[5];
            for (int j = 0; j < 5; j++)
                s[j] = block_sum(sum[g][j]);
            const int p = p0 + g;
            if (threadIdx.x == 0 && p < np && (want >> p & 1)) {
                double *o = val + (size_t)b * G + at + 4 * p;
                for (int f = 0; f < 4; f++)
                    if (f < ncomp || f == 3) o[f] = s[4] > 0 ? s[f] / s[4] : 0;
            }
        }
    }
}

/* The spectra times one period's band-pass (h, nb + 1 values, 1/N included). */
__global__ void filter_kernel(const cufftDoubleComplex *Z, long long nser, long nb1,
                              const double *h, cufftDoubleComplex *W) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nser * nb1) return;
    double g = h[idx % nb1];
    W[idx].x = g * Z[idx].x;
    W[idx].y = g * Z[idx].y;
}

/* The block's exclusive prefix sum of x, and the total in *total (SCAN_THREADS threads). */
static __device__ double block_exclusive_scan(double x, double *total) {
    __shared__ double warp_sum[SCAN_THREADS / 32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    double incl = x;
    for (int o = 1; o < 32; o *= 2) {
        double y = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += y;
    }
    __syncthreads();
    if (lane == 31) warp_sum[warp] = incl;
    __syncthreads();
    double before = 0, all = 0;
    for (int w = 0; w < SCAN_THREADS / 32; w++) {
        if (w < warp) before += warp_sum[w];
        all += warp_sum[w];
    }
    *total = all;
    return before + incl - x;
}

/* One block per series of one period's band-passed acceleration (X, N per series, the first
 * nt samples): the 5-75% and 5-95% durations of its Arias (Husid) curve, as im.c's durations:
 * the integral exact for the acceleration linear between samples, the crossing of each level
 * interpolated linearly within its interval. */
__global__ void duration_kernel(const double *X, long N, int nt, double dt, int ncomp, int p, int G,
                                int at, double *val) {
    __shared__ int first[3];
    __shared__ double t_at[3];
    const int s = blockIdx.x, t = threadIdx.x;
    const double *a = X + (size_t)s * N;
    const int nseg = nt - 1, per = (nseg + SCAN_THREADS - 1) / SCAN_THREADS;
    const int i0 = t * per < nseg ? t * per : nseg, i1 = i0 + per < nseg ? i0 + per : nseg;
    double local = 0;
    for (int i = i0; i < i1; i++) {
        double u = a[i], v = a[i + 1];
        local += dt / 3 * (u * u + u * v + v * v);
    }
    if (t < 3) first[t] = INT32_MAX, t_at[t] = 0;
    double arias, cum = block_exclusive_scan(local, &arias);
    const double frac[3] = {0.05, 0.75, 0.95};
    int found[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
    double c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
    for (int i = i0; i < i1 && arias > 0; i++) {
        double u = a[i], v = a[i + 1], next = cum + dt / 3 * (u * u + u * v + v * v);
        for (int f = 0; f < 3; f++)
            if (found[f] == INT32_MAX && next >= frac[f] * arias)
                found[f] = i, c0[f] = cum, c1[f] = next;
        cum = next;
    }
    for (int f = 0; f < 3; f++)
        if (found[f] != INT32_MAX) atomicMin(&first[f], found[f]);
    __syncthreads();
    for (int f = 0; f < 3; f++)
        if (found[f] != INT32_MAX && found[f] == first[f]) {
            double span = c1[f] - c0[f];
            t_at[f] = dt * (found[f] + (span > 0 ? (frac[f] * arias - c0[f]) / span : 0));
        }
    __syncthreads();
    if (t == 0) {
        const int b = s / ncomp, f = s % ncomp;
        double *o = val + (size_t)b * G + at + 6 * p;
        o[f] = t_at[1] - t_at[0];
        o[3 + f] = t_at[2] - t_at[0];
    }
}

/* ------------------------------------------------------------------------------- launch */

static unsigned blocks_of(long long n, int threads) {
    return (unsigned)((n + threads - 1) / threads);
}

/* The series of acc (nser x nt) into t's spectra, on the measures' stream. */
static int spectra_of(measures_gpu *mg, transform *t, const double *acc, int nser, cs_error *err) {
    pad_kernel<<<blocks_of((long long)nser * t->N, 256), 256, 0, mg->stream>>>(acc, nser, mg->nt,
                                                                               t->N, t->R);
    CS_CUDA_CHECK(cudaGetLastError());
    cufft_dl_plan *plan;
    CS_CALL(err, cufft_dl_plans_for(&t->fwd, (int)t->N, nser / mg->ncomp, mg->batch, mg->ncomp,
                                    CUFFT_D2Z, mg->stream, &plan, err));
    return cufft_dl_d2z(plan, t->R, t->Z, err);
}

static int spectral_measures(measures_gpu *mg, int nb, int slot, cs_error *err) {
    const int nser = nb * mg->ncomp, np = mg->np;
    const double *acc = mg->dacc[slot];
    double *val = mg->dval[slot];
    if (mg->dur.R) CS_CALL(err, spectra_of(mg, &mg->dur, acc, nser, err));
    if (mg->want_fas) {
        transform *t = mg->fas.R ? &mg->fas : &mg->dur;
        if (mg->fas.R) CS_CALL(err, spectra_of(mg, t, acc, nser, err));
        dim3 grid((unsigned)nb, (unsigned)((np + FAS_GROUP - 1) / FAS_GROUP));
        fas_kernel<<<grid, SCAN_THREADS, 0, mg->stream>>>(t->Z, t->N / 2, mg->ncomp, mg->dt, mg->ko,
                                                          mg->dper, np, mg->want_fas, mg->ko_b,
                                                          mg->G, IM_GIVEN_FAS(np), val);
        CS_CUDA_CHECK(cudaGetLastError());
    }
    cufft_dl_plan *inv = NULL;
    if (mg->want_dur)
        CS_CALL(err, cufft_dl_plans_for(&mg->inv, (int)mg->dur.N, nb, mg->batch, mg->ncomp,
                                        CUFFT_Z2D, mg->stream, &inv, err));
    const long nb1 = (long)bins(mg->dur.N);
    for (int p = 0; p < np; p++) {
        if (!(mg->want_dur >> p & 1)) continue;
        filter_kernel<<<blocks_of((long long)nser * nb1, 256), 256, 0, mg->stream>>>(
            mg->dur.Z, nser, nb1, mg->dh + (size_t)p * nb1, mg->W);
        CS_CUDA_CHECK(cudaGetLastError());
        /* the padded series are no longer needed: the band-passed ones take their place */
        CS_CALL(err, cufft_dl_z2d(inv, mg->W, mg->dur.R, err));
        duration_kernel<<<nser, SCAN_THREADS, 0, mg->stream>>>(
            mg->dur.R, mg->dur.N, mg->nt, mg->dt, mg->ncomp, p, mg->G, IM_GIVEN_DUR(np), val);
        CS_CUDA_CHECK(cudaGetLastError());
    }
    return 0;
}

int measures_gpu_launch(measures_gpu *mg, const double *Y, int M, int nb, int slot, cs_error *err) {
    if (slot < 0 || slot > 1 || nb < 1 || nb > mg->batch)
        return cs_error_set(err, CS_ERR_INTERNAL, "device measures of %d records in slot %d", nb,
                            slot);
    const int np = mg->np, ncomp = mg->ncomp;
    /* the default stream: the slot's last copy done, then what reads the records (Y is
     * written again by the next batch) */
    CS_CUDA_CHECK(cudaStreamWaitEvent(0, mg->done[slot], 0));
    long long nv = (long long)nb * mg->G;
    nan_kernel<<<blocks_of(nv, 256), 256>>>(mg->dval[slot], nv);
    CS_CUDA_CHECK(cudaGetLastError());
    pgv_kernel<<<nb, SA_THREADS>>>(Y, M, mg->nt, ncomp, mg->G, IM_GIVEN_PGV(np), mg->dval[slot]);
    CS_CUDA_CHECK(cudaGetLastError());
    long long na = (long long)nb * ncomp * mg->nt;
    acceleration_kernel<<<blocks_of(na, 256), 256>>>(Y, nb, ncomp, mg->nt, M, mg->dt,
                                                     mg->dacc[slot]);
    CS_CUDA_CHECK(cudaGetLastError());
    CS_CUDA_CHECK(cudaEventRecord(mg->y_ready, 0));
    /* the measures' stream: the rest, from the accelerations */
    CS_CUDA_CHECK(cudaStreamWaitEvent(mg->stream, mg->y_ready, 0));
    CS_CALL(err, spectral_measures(mg, nb, slot, err));
    if (np > 0) {
        const int nseries = nb * np * ncomp, span = osc_span(mg->nt);
        const long long nc = (long long)nseries * OSC_CHUNKS;
        osc_particular_kernel<<<blocks_of(nc, 128), 128, 0, mg->stream>>>(
            mg->dacc[slot], mg->dper, np, nb, ncomp, mg->nt, mg->dt, mg->damping, span, mg->dstate);
        CS_CUDA_CHECK(cudaGetLastError());
        osc_starts_kernel<<<blocks_of(nseries, 128), 128, 0, mg->stream>>>(
            mg->dper, np, nseries, ncomp, mg->nt, mg->dt, mg->damping, span, mg->dstate);
        CS_CUDA_CHECK(cudaGetLastError());
        CS_CUDA_CHECK(
            cudaMemsetAsync(mg->dpk, 0, sizeof(double) * 3 * (size_t)nb * np, mg->stream));
        osc_response_kernel<<<blocks_of(nc, 128), 128, 0, mg->stream>>>(
            mg->dacc[slot], mg->dper, np, nb, ncomp, mg->nt, mg->dt, mg->damping, span, mg->dstate,
            mg->ulen, mg->du, (unsigned long long *)mg->dpk);
        CS_CUDA_CHECK(cudaGetLastError());
        sa_rotd_kernel<<<dim3((unsigned)np, (unsigned)nb), SA_THREADS, 0, mg->stream>>>(
            mg->du, mg->dpk, mg->dper, ncomp, span, mg->dt, mg->ulen, mg->G, mg->dval[slot]);
        CS_CUDA_CHECK(cudaGetLastError());
    }
    CS_CUDA_CHECK(cudaMemcpyAsync(mg->hval[slot], mg->dval[slot], sizeof(double) * nv,
                                  cudaMemcpyDeviceToHost, mg->stream));
    CS_CUDA_CHECK(cudaEventRecord(mg->done[slot], mg->stream));
    mg->nb[slot] = nb;
    return 0;
}

int measures_gpu_wait(measures_gpu *mg, int slot, int nb, double *values, cs_error *err) {
    if (slot < 0 || slot > 1 || mg->nb[slot] != nb)
        return cs_error_set(err, CS_ERR_INTERNAL, "no device measures of %d records in slot %d", nb,
                            slot);
    CS_CUDA_CHECK(cudaEventSynchronize(mg->done[slot]));
    memcpy(values, mg->hval[slot], sizeof(double) * mg->G * (size_t)nb);
    return 0;
}
