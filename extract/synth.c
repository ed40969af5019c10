#include "synth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sgt_file.h"
#include "moment_tensor.h"

/* The next length of the form 2^a 3^b 5^c at least n (FFTW is fastest on those). */
static int good_size(int n) {
    for (int m = n;; m++) {
        int r = m;
        while (r % 2 == 0)
            r /= 2;
        while (r % 3 == 0)
            r /= 3;
        while (r % 5 == 0)
            r /= 5;
        if (r == 1) return m;
    }
}

int synth_init(synth_ctx *c, const sgt_set *s, cs_error *err) {
    memset(c, 0, sizeof *c);
    c->sgt = s;
    c->nt_sgt = s->nt;
    c->dt_sgt = s->dt;
    c->nt_rec = s->nt - (int)ceil(s->time_shift / s->dt - 1e-9);
    if (c->nt_rec < 2)
        return cs_error_input(err, s->path[0], "nt", NULL,
                              "the SGT lasts %g s, no longer than its impulse's time shift (%g s): "
                              "nothing of a record would be complete; run it longer",
                              s->nt * s->dt, s->time_shift);
    /* rise times of real ruptures stay well under 40 s; a longer one is refused with a message */
    c->max_sr_duration = fmin(0.5 * s->nt * s->dt, 40.0);
    /* The window [0, nt dt) must not receive anything wrapped around: the record's support runs
     * from -time_shift to (SGT length + latest start + slip-rate duration), with starts after
     * the window's end plus the time shift dropped. */
    int pad = (int)ceil((s->time_shift + c->max_sr_duration) / s->dt) + 2;
    c->L = good_size(c->nt_rec + s->nt + pad);
    c->fcut = 1.5 * s->fmax;
    double nyq = 0.5 / s->dt;
    if (c->fcut > nyq) c->fcut = nyq;
    c->nf = (int)floor(c->fcut * c->L * s->dt) + 1;
    if (c->nf > c->L / 2) c->nf = c->L / 2;
    c->up = s->fmax > 0 ? (int)ceil(s->dt * 20 * s->fmax - 1e-9) : 1;
    if (c->up < 1) c->up = 1;
    c->nt = c->nt_rec * c->up;
    c->dt = s->dt / c->up;
    size_t M = (size_t)c->L * (size_t)c->up;
    c->rbuf = fftw_malloc(sizeof(double) * M);
    c->cbuf = fftw_malloc(sizeof(fftw_complex) * (M / 2 + 1));
    c->rec = malloc(sizeof(double) * 3 * (size_t)c->nt_rec);
    c->acc = malloc(sizeof(double complex) * 3 * (size_t)c->nf);
    c->work = malloc(sizeof(double) * 14 * (size_t)(c->nf > c->L ? c->nf : c->L));
    c->sinc2 = malloc(sizeof(double) * (size_t)c->nf);
    if (!c->rbuf || !c->cbuf || !c->acc || !c->work || !c->sinc2 || !c->rec) {
        synth_free(c);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for FFTs of length %d", c->L);
    }
    c->r2c = fftw_plan_dft_r2c_1d(c->L, c->rbuf, c->cbuf, FFTW_ESTIMATE);
    c->c2r = fftw_plan_dft_c2r_1d((int)M, c->cbuf, c->rbuf, FFTW_ESTIMATE);
    c->last_dts = -1;
    return 0;
}

void synth_free(synth_ctx *c) {
    if (c->r2c) fftw_destroy_plan(c->r2c);
    if (c->c2r) fftw_destroy_plan(c->c2r);
    fftw_free(c->rbuf);
    fftw_free(c->cbuf);
    free(c->acc);
    free(c->work);
    free(c->sinc2);
    free(c->rec);
    memset(c, 0, sizeof *c);
}

void synth_cache_free(synth_cache *cache) {
    free(cache->points);
    free(cache->strain);
    free(cache->spectra);
    free(cache->combined);
    free(cache->combined_m);
    memset(cache, 0, sizeof *cache);
}

/* exp(+i 2 pi f ts) removes the impulse's time shift; dt turns the DFT into the Fourier
 * transform of the sampled function. */
static void shift_factors(synth_ctx *c, double complex *shift) {
    double complex step = cexp(2 * M_PI * I * c->sgt->time_shift / (c->L * c->dt_sgt)), z = 1;
    for (int k = 0; k < c->nf; k++) {
        shift[k] = z * c->dt_sgt;
        z *= step;
    }
}

/* The cache's arrays for n points, spectra not yet filled. */
static int cache_alloc(synth_ctx *c, const long *points, long first, long n, long total, int paths,
                       const double *m6, synth_cache *cache, cs_error *err) {
    memset(cache, 0, sizeof *cache);
    cache->n = n;
    cache->first = first;
    cache->total = total;
    size_t nn = (size_t)(n ? n : 1);
    cache->points = malloc(sizeof(long) * nn);
    if (!cache->points) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    memcpy(cache->points, points + first, sizeof(long) * (size_t)n);
    if (!(paths & SYNTH_FREQUENCY)) return 0;
    if (m6) {
        cache->combined = malloc(sizeof(float complex) * 3 * (size_t)c->nf * nn);
        cache->combined_m = malloc(sizeof(double) * 6 * nn);
        if (cache->combined_m) memcpy(cache->combined_m, m6 + 6 * first, sizeof(double) * 6 * nn);
    } else {
        cache->spectra = malloc(sizeof(float complex) * 18 * (size_t)c->nf * nn);
    }
    if ((m6 && (!cache->combined || !cache->combined_m)) || (!m6 && !cache->spectra)) {
        synth_cache_free(cache);
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "out of memory for the SGT spectra of %ld points (%.2f GB)", n,
                            (m6 ? 3.0 : 18.0) * c->nf * n * sizeof(float complex) / 1e9);
    }
    return 0;
}

/* One series' spectrum at f_k, k < nf, shift removed, into dst (float complex pairs). */
static void series_spectrum(synth_ctx *c, const double complex *shift, float complex *dst) {
    memset(c->rbuf + c->nt_sgt, 0, sizeof(double) * (size_t)(c->L - c->nt_sgt));
    fftw_execute(c->r2c);
    for (int k = 0; k < c->nf; k++)
        dst[k] = (float complex)(c->cbuf[k] * shift[k]);
}

/* The spectra of cache rows q0 .. q0 + nq - 1 from their strain (nq x 3 x 6 x nt_sgt): each
 * component weighted (1,1,1,2,2,2) / impulse, or, where the cache keeps combinations, per point
 * and force sum_c w_c m_c H_c(t) / impulse, then one transform (3 per point, not 18). */
static void transform_block(synth_ctx *c, synth_cache *cache, long q0, long nq,
                            const float *strain) {
    int nf = c->nf, nt = c->nt_sgt;
    double complex *shift = (double complex *)c->work;
    shift_factors(c, shift);
    for (long b = 0; b < nq; b++) {
        long q = q0 + b;
        for (int f = 0; f < 3; f++) {
            const float *src = strain + ((size_t)b * 18 + (size_t)f * 6) * nt;
            if (cache->combined) {
                const double *m = cache->combined_m + 6 * q;
                double w[6];
                for (int comp = 0; comp < 6; comp++)
                    w[comp] = m[comp] * sgt_file_tensor_weight[comp] / c->sgt->impulse[f];
                for (int t = 0; t < nt; t++) {
                    double v = 0;
                    for (int comp = 0; comp < 6; comp++)
                        v += w[comp] * src[(size_t)comp * nt + t];
                    c->rbuf[t] = v;
                }
                series_spectrum(c, shift, cache->combined + ((size_t)q * 3 + (size_t)f) * nf);
                continue;
            }
            for (int comp = 0; comp < 6; comp++) {
                double w = sgt_file_tensor_weight[comp] / c->sgt->impulse[f];
                for (int t = 0; t < nt; t++)
                    c->rbuf[t] = w * src[(size_t)comp * nt + t];
                series_spectrum(c, shift,
                                cache->spectra + ((size_t)q * 18 + (size_t)f * 6 + comp) * nf);
            }
        }
    }
}

int synth_cache_from_strain(synth_ctx *c, const long *points, long n, float *strain, int paths,
                            const double *m6, synth_cache *cache, cs_error *err) {
    CS_CALL(err, cache_alloc(c, points, 0, n, n, paths, m6, cache, err));
    if (paths & SYNTH_FREQUENCY) transform_block(c, cache, 0, n, strain);
    /* the cache takes the strain when the time path needs it */
    if (paths & SYNTH_TIME)
        cache->strain = strain;
    else
        free(strain);
    return 0;
}

double synth_cache_point_bytes(const synth_ctx *c, int combined) {
    return (combined ? 3.0 : 18.0) * c->nf * sizeof(float complex) + 6 * sizeof(double) +
           sizeof(long);
}

long synth_strain_block(const synth_ctx *c, double bytes) {
    double row = 18.0 * c->nt_sgt * sizeof(float);
    long b = (long)(bytes / row);
    return b < 1 ? 1 : b;
}

static int load_range(synth_ctx *c, const long *points, long first, long n, long total, int paths,
                      const double *m6, long block, synth_cache *cache, cs_error *err) {
    if (paths & SYNTH_TIME) {
        /* the time path convolves the strain itself: all of it stays */
        float *strain = malloc(sizeof(float) * 18 * (size_t)c->nt_sgt * (size_t)(n ? n : 1));
        if (!strain)
            return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for the SGT of %ld points", n);
        int rc;
        CS_CALL_GOTO(rc, err, sgt_set_read(c->sgt, points + first, n, strain, err), strain_fail);
        CS_CALL_GOTO(rc, err,
                     synth_cache_from_strain(c, points + first, n, strain, paths,
                                             m6 ? m6 + 6 * first : NULL, cache, err),
                     strain_fail);
        cache->first = first;
        cache->total = total;
        return 0;
    strain_fail:
        free(strain);
        return rc;
    }
    CS_CALL(err, cache_alloc(c, points, first, n, total, paths, m6, cache, err));
    if (block < 1) block = 1;
    if (block > n) block = n ? n : 1;
    float *strain = malloc(sizeof(float) * 18 * (size_t)c->nt_sgt * (size_t)block);
    if (!strain) {
        synth_cache_free(cache);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for the SGT of %ld points", block);
    }
    for (long q0 = 0; q0 < n; q0 += block) {
        long nq = n - q0 < block ? n - q0 : block;
        int rc = sgt_set_read(c->sgt, points + first + q0, nq, strain, err);
        if (rc) {
            CS_TRACE(err);
            free(strain);
            synth_cache_free(cache);
            return rc;
        }
        transform_block(c, cache, q0, nq, strain);
    }
    free(strain);
    return 0;
}

int synth_cache_load_range(synth_ctx *c, const long *points, long first, long n, long total,
                           int paths, const double *m6, long block, synth_cache *cache,
                           cs_error *err) {
    CS_CALL(err, load_range(c, points, first, n, total, paths, m6, block, cache, err));
    return 0;
}

int synth_cache_load(synth_ctx *c, const long *points, long n, int paths, const double *m6,
                     synth_cache *cache, cs_error *err) {
    return synth_cache_load_range(c, points, 0, n, n, paths, m6,
                                  synth_strain_block(c, SYNTH_STRAIN_BLOCK_BYTES), cache, err);
}

/* sinc^2(f dt_s) dt_s: the Fourier transform of the unit triangle of half-width dt_s, which
 * turns the samples' sum of phasors into the spectrum of the piecewise-linear slip rate. */
static void triangle_factor(synth_ctx *c, double dts) {
    if (dts == c->last_dts) return;
    for (int k = 0; k < c->nf; k++) {
        double x = M_PI * k / (c->L * c->dt_sgt) * dts;
        double s = x == 0 ? 1 : sin(x) / x;
        c->sinc2[k] = s * s * dts;
    }
    c->last_dts = dts;
}

static int check_subfault(const synth_ctx *c, const synth_cache *cache, const synth_subfault *s,
                          cs_error *err) {
    if (s->slot < 0 || s->slot >= cache->total)
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "subfault slot %d outside the rupture's %ld points", s->slot,
                            cache->total);
    if (s->nsr > 0 && (s->nsr - 1) * s->dt_s > c->max_sr_duration)
        return cs_error_set(err, CS_ERR_INPUT,
                            "a slip-rate function lasts %.3g s, longer than the %.3g s the "
                            "synthesis allows (40 s, or half the SGT's length when shorter): "
                            "check the rise times, or extend the SGT run (nt)",
                            (s->nsr - 1) * s->dt_s, c->max_sr_duration);
    if (!(s->dt_s > 0) && s->nsr > 0)
        return cs_error_set(err, CS_ERR_INPUT, "a slip-rate function has dt = %g s", s->dt_s);
    return 0;
}

double synth_window_end(const synth_ctx *c) {
    return c->nt_rec * c->dt_sgt + c->sgt->time_shift;
}

/* Drops what cannot reach the window [0, nt dt): starts after its end plus the time shift. */
static int reaches_window(const synth_ctx *c, const synth_subfault *s) {
    return s->nsr > 0 && s->tinit < synth_window_end(c);
}

int synth_subfault_checked(const synth_ctx *c, long total, const synth_subfault *s, cs_error *err) {
    synth_cache whole = {.n = total, .first = 0, .total = total};
    if (check_subfault(c, &whole, s, err)) {
        CS_TRACE(err);
        return -1;
    }
    return s->nsr > 0;
}

int synth_subfault_usable(const synth_ctx *c, long total, const synth_subfault *s, cs_error *err) {
    synth_cache whole = {.n = total, .first = 0, .total = total};
    if (check_subfault(c, &whole, s, err)) {
        CS_TRACE(err);
        return -1; /* not a status: 0 and 1 are answers (see synth.h), so a refusal is -1 */
    }
    return reaches_window(c, s);
}

/* The samples' sum of phasors D(f) = sum_j s_j exp(-i 2 pi f (t_j - tc)) at n frequencies
 * f0 + m step (tc the centre of the samples), into dr, di: vectorised over the frequencies.
 * The arrays must not overlap: without restrict gcc needs more run-time alias checks than it
 * allows for six arrays and leaves the loop scalar. */
static void phasor_sum(const synth_subfault *s, double tc, double f0, double step, int n,
                       double *restrict dr, double *restrict di, double *restrict zr,
                       double *restrict zi, double *restrict ur, double *restrict ui) {
    double complex a0 = cexp(2 * M_PI * I * f0 * tc), a1 = cexp(2 * M_PI * I * step * tc);
    double complex b0 = cexp(-2 * M_PI * I * f0 * s->dt_s),
                   b1 = cexp(-2 * M_PI * I * step * s->dt_s);
    /* products written out (the same roundings): C's complex multiply would test every one for
     * NaN and branch to __muldc3 */
    double a0r = creal(a0), a0i = cimag(a0), a1r = creal(a1), a1i = cimag(a1);
    double b0r = creal(b0), b0i = cimag(b0), b1r = creal(b1), b1i = cimag(b1);
    for (int m = 0; m < n; m++) {
        zr[m] = a0r;
        zi[m] = a0i;
        ur[m] = b0r;
        ui[m] = b0i;
        dr[m] = di[m] = 0;
        double t = a0r * a1r - a0i * a1i;
        a0i = a0r * a1i + a0i * a1r;
        a0r = t;
        t = b0r * b1r - b0i * b1i;
        b0i = b0r * b1i + b0i * b1r;
        b0r = t;
    }
    for (int j = 0; j < s->nsr; j++) {
        double v = s->sr[j];
        for (int m = 0; m < n; m++) {
            dr[m] += v * zr[m];
            di[m] += v * zi[m];
            double r = zr[m] * ur[m] - zi[m] * ui[m];
            zi[m] = zr[m] * ui[m] + zi[m] * ur[m];
            zr[m] = r;
        }
    }
}

/* The 4-point Lagrange interpolant of the coarse samples r, i (r[0] the node m - 1) at
 * x_k = k df / dfc for k0 <= k < k1, all of whose x_k lie in [m, m + 1). The nodes are fixed
 * over the run, so the loop over k vectorises; the cubic is taken in Horner's form, which needs
 * no weights per k (it differs from the weighted sum by rounding only). */
static void lagrange_run(double *restrict ar, double *restrict ai, int k0, int k1, double df,
                         double dfc, int m, const double *r, const double *i) {
    double r1 = r[1], ra = -r[0] / 3 - r[1] / 2 + r[2] - r[3] / 6, rb = (r[0] + r[2]) / 2 - r[1],
           rc = (r[3] - r[0]) / 6 + (r[1] - r[2]) / 2;
    double i1 = i[1], ia = -i[0] / 3 - i[1] / 2 + i[2] - i[3] / 6, ib = (i[0] + i[2]) / 2 - i[1],
           ic = (i[3] - i[0]) / 6 + (i[1] - i[2]) / 2;
    for (int k = k0; k < k1; k++) {
        double u = k * df / dfc - m;
        ar[k] = r1 + u * (ra + u * (rb + u * rc));
        ai[k] = i1 + u * (ia + u * (ib + u * ic));
    }
}

/* The slip rate's spectrum at f_k = k df, k < nf, with its start time's phase (the triangle
 * factor apart): sum_j s_j exp(-i 2 pi f_k (tinit + j dt_s)). Centred on its samples the sum is
 * the transform of a function of half-width hw, smooth over 1/(2 hw) in frequency: it is
 * evaluated on a grid 32 times finer than that and interpolated by 4-point Lagrange
 * polynomials (relative error below 1e-4), then turned by the exact phase of tinit + tc. Short
 * records, whose own grid is as coarse, take the sum directly. */
static void slip_rate_spectrum(synth_ctx *c, const synth_subfault *s, double df,
                               double *restrict ar, double *restrict ai) {
    int nf = c->nf;
    double tc = 0.5 * (s->nsr - 1) * s->dt_s, hw = tc + s->dt_s;
    double dfc = 1.0 / (64.0 * hw);
    double *scratch = ar + 2 * (size_t)nf; /* zr, zi, ur, ui: 4 nf */
    int nc = (int)ceil((nf - 1) * df / dfc) + 3;
    if (dfc <= 2 * df || nc + 1 > nf) {
        phasor_sum(s, tc, 0, df, nf, ar, ai, scratch, scratch + nf, scratch + 2 * nf,
                   scratch + 3 * nf);
    } else {
        /* coarse samples m = -1 .. nc of the centred sum (m = -1 is the conjugate of m = 1) */
        double *cr = scratch + 4 * (size_t)nf, *ci = cr + nc + 2;
        double *tmp = ci + nc + 2;
        phasor_sum(s, tc, 0, dfc, nc + 1, cr + 1, ci + 1, tmp, tmp + nc + 1, tmp + 2 * (nc + 1),
                   tmp + 3 * (nc + 1));
        cr[0] = cr[2];
        ci[0] = -ci[2];
        /* k by runs of one coarse interval m = (int)(k df / dfc). A run's end is estimated,
         * then settled with that very expression, so that rounding neither moves a k to the
         * next interval nor drops or repeats one. */
        for (int k = 0; k < nf;) {
            int m = (int)(k * df / dfc);
            double est = ceil((m + 1) * dfc / df);
            int e = est >= nf ? nf : est <= k ? k + 1 : (int)est;
            while (e > k + 1 && (int)((e - 1) * df / dfc) > m)
                e--;
            while (e < nf && (int)(e * df / dfc) <= m)
                e++;
            lagrange_run(ar, ai, k, e, df, dfc, m, cr + m, ci + m);
            k = e;
        }
    }
    /* the phase of the start and centre, exp(-i 2 pi f_k (tinit + tc)) = w^k, as a base w^(nB)
     * times a table of w^j, j < B, so the loop over j vectorises. w^B comes from cexp, not from
     * B more products: the bases then drift no more than the plain recursion z *= w would. */
    enum { B = 32 };
    double th = -2 * M_PI * df * (s->tinit + tc);
    double complex w = cexp(I * th), wB = cexp(I * (B * th));
    double wr = creal(w), wi = cimag(w), pr[B], pi[B], zr = 1, zi = 0;
    for (int j = 0; j < B; j++) {
        pr[j] = zr;
        pi[j] = zi;
        double t = zr * wr - zi * wi;
        zi = zr * wi + zi * wr;
        zr = t;
    }
    double Wr = creal(wB), Wi = cimag(wB), br = 1, bi = 0;
    for (int k0 = 0; k0 < nf; k0 += B) {
        int n = nf - k0 < B ? nf - k0 : B;
        double *xr = ar + k0, *xi = ai + k0;
        for (int j = 0; j < n; j++) {
            double er = br * pr[j] - bi * pi[j], ei = br * pi[j] + bi * pr[j];
            double re = xr[j] * er - xi[j] * ei, im = xr[j] * ei + xi[j] * er;
            xr[j] = re;
            xi[j] = im;
        }
        double t = br * Wr - bi * Wi;
        bi = br * Wi + bi * Wr;
        br = t;
    }
}

int synth_accumulate(synth_ctx *c, const synth_cache *cache, const synth_subfault *sf, long nsf,
                     double complex *acc, cs_error *err) {
    if (!cache->spectra && !cache->combined)
        return cs_error_set(err, CS_ERR_INTERNAL, "the cache holds no spectra");
    int nf = c->nf;
    double df = 1.0 / (c->L * c->dt_sgt);
    /* scratch: the slip-rate spectrum as separate real and imaginary arrays, and the running
     * phasors, so the inner loops over frequency vectorise */
    double *ar = c->work, *ai = ar + nf;
    for (long q = 0; q < nsf; q++) {
        const synth_subfault *s = &sf[q];
        CS_CALL(err, check_subfault(c, cache, s, err));
        long row = s->slot - cache->first;
        if (row < 0 || row >= cache->n || !reaches_window(c, s)) continue;
        const double *cm = cache->combined_m ? cache->combined_m + 6 * (size_t)row : NULL;
        int combined = cm && !memcmp(cm, s->m, sizeof s->m);
        if (!combined && !cache->spectra) return SYNTH_AGAIN_FULL;
        triangle_factor(c, s->dt_s);
        slip_rate_spectrum(c, s, df, ar, ai);
        /* the slip-rate spectrum with the triangle factor and mu A, once for the 3 forces */
        for (int k = 0; k < nf; k++) {
            double w = s->scale * c->sinc2[k];
            ar[k] *= w;
            ai[k] *= w;
        }
        if (combined) {
            /* the point's combination for this very tensor */
            const float *G = (const float *)(cache->combined + (size_t)row * 3 * (size_t)nf);
            for (int f = 0; f < 3; f++) {
                const float *Gf = G + 2 * (size_t)f * nf;
                double *A = (double *)(acc + (size_t)f * nf);
                for (int k = 0; k < nf; k++) {
                    double gr = Gf[2 * k], gi = Gf[2 * k + 1];
                    A[2 * k] += gr * ar[k] - gi * ai[k];
                    A[2 * k + 1] += gr * ai[k] + gi * ar[k];
                }
            }
            continue;
        }
        const float *S = (const float *)(cache->spectra + (size_t)row * 18 * (size_t)nf);
        for (int f = 0; f < 3; f++) {
            const float *Sf = S + 2 * (size_t)f * 6 * nf;
            double *A = (double *)(acc + (size_t)f * nf);
            for (int k = 0; k < nf; k++) {
                double gr = 0, gi = 0;
                for (int comp = 0; comp < 6; comp++) {
                    gr += s->m[comp] * Sf[2 * ((size_t)comp * nf + k)];
                    gi += s->m[comp] * Sf[2 * ((size_t)comp * nf + k) + 1];
                }
                A[2 * k] += gr * ar[k] - gi * ai[k];
                A[2 * k + 1] += gr * ai[k] + gi * ar[k];
            }
        }
    }
    return 0;
}

/* The inverse transform at the record's sampling: v(t) = int V(f) e^{i 2 pi f t} df, the
 * conjugate half implied. */
void synth_record(synth_ctx *c, const double complex *acc, double *vel) {
    int M = c->L * c->up, nf = c->nf;
    double df = 1.0 / (c->L * c->dt_sgt);
    for (int f = 0; f < 3; f++) {
        for (int k = 0; k <= M / 2; k++)
            c->cbuf[k] = k < nf ? acc[(size_t)f * nf + k] * df : 0;
        fftw_execute(c->c2r);
        for (int t = 0; t < c->nt; t++)
            vel[(size_t)f * c->nt + t] = c->rbuf[t];
    }
}

int synth_frequency(synth_ctx *c, const synth_cache *cache, const synth_subfault *sf, long nsf,
                    double *vel, cs_error *err) {
    memset(c->acc, 0, sizeof(double complex) * 3 * (size_t)c->nf);
    int rc = synth_accumulate(c, cache, sf, nsf, c->acc, err);
    if (rc == SYNTH_AGAIN_FULL)
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "a subfault has another moment tensor than its point's combined "
                            "spectra and the cache keeps no others");
    CS_CALL(err, rc);
    synth_record(c, c->acc, vel);
    return 0;
}

/* The time path's record (at the SGT's dt) interpolated to the record's sampling: its band
 * below fcut, zero padded (nothing wraps), evaluated up times finer. */
static void upsample(synth_ctx *c, const double *rec, double *vel) {
    int M = c->L * c->up;
    for (int f = 0; f < 3; f++) {
        memcpy(c->rbuf, rec + (size_t)f * c->nt_rec, sizeof(double) * (size_t)c->nt_rec);
        memset(c->rbuf + c->nt_rec, 0, sizeof(double) * (size_t)(c->L - c->nt_rec));
        fftw_execute(c->r2c);
        for (int k = 0; k <= M / 2; k++)
            c->cbuf[k] = k < c->nf && k <= c->L / 2 ? c->cbuf[k] / c->L : 0;
        fftw_execute(c->c2r);
        for (int t = 0; t < c->nt; t++)
            vel[(size_t)f * c->nt + t] = c->rbuf[t];
    }
}

/* The piecewise-linear slip rate at time u after the subfault's start (zero outside). */
static double slip_rate_at(const synth_subfault *s, double u) {
    double x = u / s->dt_s;
    if (x <= -1 || x >= s->nsr) return 0;
    int j = (int)floor(x);
    double a = x - j;
    double lo = j >= 0 ? s->sr[j] : 0, hi = j + 1 < s->nsr ? s->sr[j + 1] : 0;
    return (1 - a) * lo + a * hi;
}

int synth_time(synth_ctx *c, const synth_cache *cache, const synth_subfault *sf, long nsf,
               double *vel, cs_error *err) {
    if (!cache->strain) return cs_error_set(err, CS_ERR_INTERNAL, "the cache holds no strain");
    int nt = c->nt_rec, ns = c->nt_sgt;
    double dt = c->dt_sgt, ts = c->sgt->time_shift;
    double *rec = c->rec;
    memset(rec, 0, sizeof(double) * 3 * (size_t)nt);
    double *g = c->work;         /* nt */
    double *sd = c->work + c->L; /* slip rate on the record's grid */
    for (long q = 0; q < nsf; q++) {
        const synth_subfault *s = &sf[q];
        CS_CALL(err, check_subfault(c, cache, s, err));
        if (!reaches_window(c, s)) continue;
        /* v(t_m) = dt sum_r g(r dt) sdot(t_m + ts - tinit - r dt): with d = m - r the slip
         * rate is needed at d dt + ts - tinit, nonzero for d in (dlo, dhi) */
        int dlo = (int)floor((s->tinit - ts - s->dt_s) / dt);
        int dhi = (int)ceil((s->tinit - ts + s->nsr * s->dt_s) / dt);
        int nd = dhi - dlo + 1;
        if (nd > 4 * c->L) return cs_error_set(err, CS_ERR_INTERNAL, "slip rate too long");
        for (int d = 0; d < nd; d++)
            sd[d] = slip_rate_at(s, (dlo + d) * dt + ts - s->tinit);
        if (s->slot < cache->first || s->slot >= cache->first + cache->n)
            return cs_error_set(err, CS_ERR_INTERNAL, "the time path takes whole ruptures");
        const float *st = cache->strain + (size_t)(s->slot - cache->first) * 18 * (size_t)ns;
        for (int f = 0; f < 3; f++) {
            const float *sf6 = st + (size_t)f * 6 * ns;
            double w[6];
            for (int comp = 0; comp < 6; comp++)
                w[comp] =
                    s->m[comp] * sgt_file_tensor_weight[comp] / c->sgt->impulse[f] * s->scale * dt;
            for (int r = 0; r < ns; r++) {
                double v = 0;
                for (int comp = 0; comp < 6; comp++)
                    v += w[comp] * sf6[(size_t)comp * ns + r];
                g[r] = v;
            }
            double *out = rec + (size_t)f * nt;
            for (int r = 0; r < ns; r++) {
                if (g[r] == 0) continue;
                int m0 = r + dlo, m1 = r + dhi;
                if (m0 < 0) m0 = 0;
                if (m1 > nt - 1) m1 = nt - 1;
                for (int m = m0; m <= m1; m++)
                    out[m] += g[r] * sd[m - r - dlo];
            }
        }
    }
    upsample(c, rec, vel);
    return 0;
}

int synth_moment_tensor(const sgt_set *s, double lon, double lat, double strike, double dip,
                        double rake, double m[6], cs_error *err) {
    double axes[3][3];
    CS_CALL(err, sgt_set_axes(s, lon, lat, axes, err));
    synth_moment_tensor_in((const double(*)[3])axes, strike, dip, rake, m);
    return 0;
}

void synth_moment_tensor_in(const double axes[3][3], double strike, double dip, double rake,
                            double m[6]) {
    double ned[6];
    mt_from_sdr(strike, dip, rake, 1.0, ned);
    mt_ned_to_box(ned, axes, m);
}

int synth_subfaults_from_srf(const sgt_set *s, const srf_file *srf, synth_subfault **sf_out,
                             long *nsf_out, long **points_out, long *npoints_out, double **sr_out,
                             cs_error *err) {
    long n = srf->npoints, nsf = 0;
    synth_subfault *sf = malloc(sizeof *sf * 2 * (size_t)(n ? n : 1));
    long *points = malloc(sizeof(long) * (size_t)(n ? n : 1));
    double *sr = malloc(sizeof(double) * (size_t)(srf->nsamples ? srf->nsamples : 1));
    if (!sf || !points || !sr) {
        free(sf);
        free(points);
        free(sr);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %ld subfaults", n);
    }
    long at = 0;
    int rc = 0;
    for (long i = 0; i < n; i++) {
        const srf_point *p = &srf->points[i];
        if (p->nt[2] > 0 && p->slip[2] != 0) {
            rc = cs_error_set(
                err, CS_ERR_INPUT,
                "SRF point %ld has opening slip (SLIP3 = %g cm): reciprocity synthesis "
                "takes shear slip only",
                i + 1, p->slip[2]);
            goto fail;
        }
        if ((rc = sgt_set_locate(s, p->lon, p->lat, p->dep, &points[i], err))) {
            CS_TRACE(err);
            cs_error_prefix(err, "SRF point %ld: ", i + 1);
            goto fail;
        }
        double mu = s->material[3 * points[i] + 1];
        for (int comp = 0; comp < 2; comp++) {
            if (p->nt[comp] <= 0) continue;
            synth_subfault *q = &sf[nsf];
            CS_CALL_GOTO(rc, err,
                         synth_moment_tensor(s, p->lon, p->lat, p->stk, p->dip,
                                             p->rake + (comp == 1 ? 90.0 : 0.0), q->m, err),
                         fail);
            q->slot = (int)i;
            q->scale = mu * p->area * 1e-4;
            q->tinit = p->tinit;
            q->dt_s = p->dt;
            q->nsr = p->nt[comp];
            q->sr = sr + at;
            for (int j = 0; j < p->nt[comp]; j++)
                sr[at + j] = p->sr[comp][j] * 0.01;
            at += p->nt[comp];
            nsf++;
        }
    }
    *sf_out = sf;
    *nsf_out = nsf;
    *points_out = points;
    *npoints_out = n;
    *sr_out = sr;
    return 0;
fail:
    free(sf);
    free(points);
    free(sr);
    return rc;
}

int synth_srf_seismogram(const sgt_set *s, const char *srf_path, int method, synth_seismogram *out,
                         cs_error *err) {
    memset(out, 0, sizeof *out);
    srf_file srf;
    CS_CALL(err, srf_read(srf_path, &srf, err));
    synth_ctx ctx;
    synth_cache cache = {0};
    synth_subfault *sf = NULL;
    long nsf = 0, *points = NULL, npoints = 0;
    double *sr = NULL;
    int rc;
    CS_CALL_GOTO(rc, err, synth_init(&ctx, s, err), no_ctx);
    CS_CALL_GOTO(rc, err, synth_subfaults_from_srf(s, &srf, &sf, &nsf, &points, &npoints, &sr, err),
                 done);
    CS_CALL_GOTO(rc, err, synth_cache_load(&ctx, points, npoints, method, NULL, &cache, err), done);
    out->vel = malloc(sizeof(double) * 3 * (size_t)ctx.nt);
    if (!out->vel) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    CS_CALL_GOTO(rc, err,
                 method == SYNTH_TIME ? synth_time(&ctx, &cache, sf, nsf, out->vel, err)
                                      : synth_frequency(&ctx, &cache, sf, nsf, out->vel, err),
                 done);
    out->nt = ctx.nt;
    out->dt = ctx.dt;
    out->nsubfaults = nsf;
done:
    free(sf);
    free(points);
    free(sr);
    synth_cache_free(&cache);
    synth_free(&ctx);
no_ctx:
    srf_free(&srf);
    if (rc) {
        free(out->vel);
        out->vel = NULL;
    }
    return rc;
}
