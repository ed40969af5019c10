/* Extraction benchmark: rupture variations per second per core, three-component records of
 * 8,000 samples with every intensity measure, for the frequency path and the plain time-domain
 * path, on one rupture of >= 2,000 subfaults; and the misfit between the two paths.
 *
 * The SGT is synthetic, in memory: at every subfault, 18 band-limited random series (noise
 * filtered by the SGT impulse's band, under a decaying envelope that starts at the S arrival
 * from the site) stand for the strain of the three forces. The rupture and its variations are
 * the generator's (Mw 7.0, 48 x 22 km at 0.5 km: 96 x 44 = 4,224 subfaults, or as given).
 *
 *   extract_bench [--variations N] [--time-variations N] [--nt 8000] [--dt 0.05] [--fmax 1]
 *                 [--length KM] [--width KM] [--spacing KM] [--gpu-variations N]
 *
 * Prints one summary line per case. One thread (per core). With --gpu-variations, the CUDA
 * extractor (bench/extract_gpu_part.c) takes N variations of the same rupture in batches: its
 * spectra time, synthesis time per variation, and its records against the CPU's. */
#include <complex.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_progress.h"
#include "cs_rng.h"
#include "im.h"
#include "rupgen.h"
#include "moment_tensor.h"
#include "sgt_source.h"
#include "synth.h"
#include "extract_gpu_part.h"

static int medium(double lon, double lat, double depth_km, double *vs, double *rho, void *ctx,
                  cs_error *err) {
    (void)lon, (void)lat, (void)ctx, (void)err;
    *vs = depth_km < 5 ? 2800 : 3500;
    *rho = depth_km < 5 ? 2600 : 2800;
    return 0;
}

static double arg(int argc, char **argv, const char *name, double def) {
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name)) return atof(argv[i + 1]);
    return def;
}

int main(int argc, char **argv) {
    int nvar = (int)arg(argc, argv, "--variations", 20);
    int nvar_time = (int)arg(argc, argv, "--time-variations", 3);
    int nt_rec = (int)arg(argc, argv, "--nt", 8000);
    double dt = arg(argc, argv, "--dt", 0.05), fmax = arg(argc, argv, "--fmax", 1.0);
    double length = arg(argc, argv, "--length", 48), width = arg(argc, argv, "--width", 22);
    double spacing = arg(argc, argv, "--spacing", 0.5);
    cs_error err;
    cs_error_clear(&err);

    /* a fake SGT set: only what the synthesis reads */
    sgt_set s;
    memset(&s, 0, sizeof s);
    sgt_impulse imp;
    if (sgt_impulse_init(&imp, fmax, &err)) return fprintf(stderr, "%s\n", err.message), 1;
    s.dt = dt;
    s.time_shift = imp.time_shift;
    s.nt = nt_rec + (int)ceil(imp.time_shift / dt - 1e-9);
    s.fmax = fmax;
    s.impulse[0] = s.impulse[1] = s.impulse[2] = 1e15;
    synth_ctx c;
    if (synth_init(&c, &s, &err)) return fprintf(stderr, "%s\n", err.message), 1;
    if (c.nt != nt_rec) return fprintf(stderr, "record of %d samples, not %d\n", c.nt, nt_rec), 1;

    /* the rupture: a planar Mw 7 surface, strike 0, dip 90, top at 0 */
    erf_rupture r;
    int ncols = (int)lround(length / spacing), nrows = (int)lround(width / spacing);
    if (erf_rupture_alloc(&r, nrows, ncols, &err)) return 1;
    r.magnitude = 7.0;
    r.spacing_km = spacing;
    for (int k = 0; k < nrows; k++)
        for (int i = 0; i < ncols; i++) {
            int q = k * ncols + i;
            r.lat[q] = 34.0 + i * spacing / 111.2;
            r.lon[q] = -118.0;
            r.dep[q] = k * spacing;
            r.stk[q] = 0;
            r.dip[q] = 90;
            r.rake[q] = 180;
        }
    long n = (long)nrows * ncols;

    /* synthetic strain: band-limited noise under an envelope starting at the S arrival */
    double t0 = cs_now();
    float *strain = malloc(sizeof(float) * 18 * (size_t)s.nt * (size_t)n);
    long *points = malloc(sizeof(long) * (size_t)n);
    if (!strain || !points) return fprintf(stderr, "out of memory\n"), 1;
    /* a generator a point (seeded by its index) and the points over the threads, each with its
     * own buffers: the same noise whatever the number of threads, in seconds rather than the
     * minute one thread took at 4,224 points (device time is scarce) */
    size_t lr = ((size_t)c.L + 7) / 8 * 8; /* each thread's buffer as aligned as the plan's */
    double *rbufs = fftw_alloc_real((size_t)omp_get_max_threads() * lr);
    fftw_complex *cbufs = fftw_alloc_complex((size_t)omp_get_max_threads() * (c.L / 2 + 1));
    if (!rbufs || !cbufs) return fprintf(stderr, "out of memory\n"), 1;
    fftw_plan fwd = fftw_plan_dft_r2c_1d(c.L, rbufs, cbufs, FFTW_ESTIMATE),
              inv = fftw_plan_dft_c2r_1d(c.L, cbufs, rbufs, FFTW_ESTIMATE);
#pragma omp parallel for schedule(dynamic, 4)
    for (long q = 0; q < n; q++) {
        double *rb = rbufs + (size_t)omp_get_thread_num() * lr;
        fftw_complex *cb = cbufs + (size_t)omp_get_thread_num() * (c.L / 2 + 1);
        cs_rng rng;
        cs_rng_init(&rng, 42 + (uint64_t)q);
        points[q] = q;
        double dist = sqrt(pow(20 + r.lat[q] * 0, 2) + pow((q % ncols) * spacing, 2) +
                           pow(r.dep[q], 2)); /* km from a site 20 km off the fault's end */
        double ts = dist / 3.5 + imp.time_shift;
        for (int f = 0; f < 18; f++) {
            for (int t = 0; t < c.L; t++)
                rb[t] = t < s.nt ? cs_rng_normal(&rng) : 0;
            fftw_execute_dft_r2c(fwd, rb, cb);
            for (int k = 0; k <= c.L / 2; k++) {
                double fr = k / (c.L * dt),
                       g = fr <= fmax         ? 1
                           : fr >= 1.5 * fmax ? 0
                                              : 0.5 * (1 + cos(M_PI * (fr - fmax) / (0.5 * fmax)));
                cb[k] *= g / c.L;
            }
            fftw_execute_dft_c2r(inv, cb, rb);
            for (int t = 0; t < s.nt; t++) {
                double tt = t * dt - ts, env = tt < 0 ? 0 : tt / 5 * exp(-tt / 20);
                strain[((size_t)q * 18 + f) * s.nt + t] = (float)(1e-6 * env * rb[t]);
            }
        }
    }
    fftw_destroy_plan(fwd);
    fftw_destroy_plan(inv);
    fftw_free(rbufs);
    fftw_free(cbufs);
    double t_setup = cs_now() - t0;

    synth_cache cache;
    double m6[6], ned[6], axes[3][3] = {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}};
    mt_from_sdr(0, 90, 180, 1, ned);
    mt_ned_to_box(ned, axes, m6);
    double *mall = malloc(sizeof(double) * 6 * (size_t)n);
    for (long q = 0; q < n; q++)
        memcpy(mall + 6 * q, m6, sizeof m6);
    t0 = cs_now();
    if (synth_cache_from_strain(&c, points, n, strain, SYNTH_FREQUENCY | SYNTH_TIME, mall, &cache,
                                &err))
        return fprintf(stderr, "%s\n", err.message), 1;
    double t_spectra = cs_now() - t0;

    rupgen_params p;
    rupgen_defaults(&p);
    rupgen_layout lay;
    rupgen_plan(&r, &p, &lay, &err);
    im_config ims;
    im_config_default(&ims, fmax);
    im_type *types;
    int nim;
    im_types(&ims, &types, &nim, &err);
    double *values = malloc(sizeof(double) * (size_t)nim);
    double *vf = malloc(sizeof(double) * 3 * (size_t)c.nt),
           *vt = malloc(sizeof(double) * 3 * (size_t)c.nt);
    synth_subfault *sf = malloc(sizeof *sf * (size_t)n);
    double *times = malloc(sizeof(double) * (size_t)(n + 1));
    double t_gen = 0, t_freq = 0, t_time = 0, t_im = 0, worst = 0;
    long nsub = 0;
    /* the slip realisations once per rupture, as the extractor's variation source makes them */
    t0 = cs_now();
    bench_source bs;
    if (bench_source_open(&bs, &r, &p, medium, &err))
        return fprintf(stderr, "%s\n", err.message), 1;
    double t_real = cs_now() - t0;
    im_workspace *imws = im_workspace_new();
    if (!imws || !times) return fprintf(stderr, "out of memory\n"), 1;
    /* one variation untimed first: the core's rate is its steady one, not its first use of the
     * workspaces and plans (a fourth of the time over 4 variations) */
    if (bench_variation(&bs, m6, n, 0, sf, times, &err) ||
        synth_frequency(&c, &cache, sf, n, vf, &err) ||
        im_compute_in(imws, &ims, vf, c.nt, c.dt, values, &err))
        return fprintf(stderr, "%s\n", err.message), 1;
    for (int v = 0; v < nvar; v++) {
        t0 = cs_now();
        if (bench_variation(&bs, m6, n, v % lay.nvariations, sf, times, &err))
            return fprintf(stderr, "%s\n", err.message), 1;
        for (long i = 0; i < n; i++)
            nsub += sf[i].nsr;
        t_gen += cs_now() - t0;
        t0 = cs_now();
        if (synth_frequency(&c, &cache, sf, n, vf, &err))
            return fprintf(stderr, "%s\n", err.message), 1;
        t_freq += cs_now() - t0;
        t0 = cs_now();
        if (im_compute_in(imws, &ims, vf, c.nt, c.dt, values, &err)) return 1;
        t_im += cs_now() - t0;
        if (v < nvar_time) {
            t0 = cs_now();
            if (synth_time(&c, &cache, sf, n, vt, &err))
                return fprintf(stderr, "%s\n", err.message), 1;
            t_time += cs_now() - t0;
            double num = 0, den = 0;
            for (size_t i = 0; i < 3 * (size_t)c.nt; i++) {
                num += (vf[i] - vt[i]) * (vf[i] - vt[i]);
                den += vt[i] * vt[i];
            }
            double mis = sqrt(num / den);
            if (mis > worst) worst = mis;
        }
    }
    /* the realisations' cost shared by the rupture's variations */
    t_gen += t_real * nvar / lay.nvariations;
    double per_freq = (t_gen + t_freq + t_im) / nvar;
    double per_time = (t_gen) / nvar + t_time / nvar_time + t_im / nvar;
    printf(
        "extract_bench: rupture %d x %d = %ld subfaults, records 3 x %d samples at %g s, fmax %g "
        "Hz, fcut %g Hz, %d frequencies, FFT length %d; %d IMs; mean %.1f slip-rate samples per "
        "subfault\n",
        nrows, ncols, n, c.nt, c.dt, fmax, c.fcut, c.nf, c.L, nim, (double)nsub / n / nvar);
    printf("setup: synthetic SGT %.1f s; SGT spectra of the rupture's points, combined with their "
           "moment tensors, %.2f s (once per rupture, %.3f s per variation of this rupture's %d)\n",
           t_setup, t_spectra, t_spectra / lay.nvariations, lay.nvariations);
    printf("per variation: generator %.4f s (with its share of the rupture's %d slip "
           "realisations, %.3f s), frequency path %.3f s, time path %.3f s, IMs %.4f s\n",
           t_gen / nvar, bs.nreal, t_real, t_freq / nvar, t_time / nvar_time, t_im / nvar);
    printf("case frequency: %.3f variations/s per core (with generation and IMs; %.3f with the "
           "rupture's spectra shared over its %d variations)\n",
           1 / per_freq, 1 / (per_freq + t_spectra / lay.nvariations), lay.nvariations);
    printf("case time: %.4f variations/s per core (with generation and IMs)\n", 1 / per_time);
    printf("speed-up of the synthesis %.1fx, of the whole variation %.1fx (spectra amortised: "
           "%.1fx); misfit frequency vs time path %.2e (relative L2, 3 components, worst of %d)\n",
           t_time / nvar_time / (t_freq / nvar), per_time / per_freq,
           per_time / (per_freq + t_spectra / lay.nvariations), worst, nvar_time);
    int ngpu = (int)arg(argc, argv, "--gpu-variations", 0);
    if (ngpu > 0 && extract_gpu_part(&c, &bs, strain, mall, m6, n, ngpu, &ims, &cache, &err))
        return fprintf(stderr, "%s\n", err.message), 1;
    return worst <= 0.01 ? 0 : 2;
}
