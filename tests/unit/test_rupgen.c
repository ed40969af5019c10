/* The rupture generator: exact moment, k^-2 slip spectrum, causal rupture times, rise time
 * growing with slip, reproducible variations. */
#include <fftw3.h>
#include <stdlib.h>
#include <string.h>

#include "cs_sha256.h"
#include "rupgen.h"
#include "sgt_model.h"
#include "tf.h"

/* A planar rupture: top centre (lon0, lat0), strike, dip, top depth; flat-earth placement is
 * enough for a test surface (the generator takes the points as given). */
static int planar(erf_rupture *r, double mag, int ncols, int nrows, double strike, double dip,
                  double top, cs_error *e) {
    if (erf_rupture_alloc(r, nrows, ncols, e)) return -1;
    r->source_id = 12;
    r->rupture_id = 3;
    r->magnitude = mag;
    r->spacing_km = 1.0;
    double lat0 = 34.0, lon0 = -118.0, kmlat = 110.95, kmlon = 110.95 * cos(lat0 * M_PI / 180);
    double st = strike * M_PI / 180, dp = dip * M_PI / 180;
    for (int k = 0; k < nrows; k++)
        for (int i = 0; i < ncols; i++) {
            double along = (i - 0.5 * (ncols - 1)), down = k;
            double horiz = down * cos(dp);
            double north = along * cos(st) + horiz * cos(st + M_PI / 2);
            double east = along * sin(st) + horiz * sin(st + M_PI / 2);
            int q = k * ncols + i;
            r->lat[q] = lat0 + north / kmlat;
            r->lon[q] = lon0 + east / kmlon;
            r->dep[q] = top + down * sin(dp);
            r->stk[q] = strike;
            r->dip[q] = dip;
            r->rake[q] = 90;
        }
    return 0;
}

static sgt_model model;
static int model_loaded;

static int layered(double lon, double lat, double depth_km, double *vs, double *rho, void *ctx,
                   cs_error *err) {
    sgt_material m;
    if (sgt_model_query(ctx, 0, 0, depth_km * 1e3, 0, 0, 0, &m, err)) return -1;
    *vs = m.vs;
    *rho = m.rho;
    return 0;
}

static sgt_model *bbp_model(void) {
    if (!model_loaded) {
        char path[4096];
        cs_error e;
        snprintf(path, sizeof path, "%s/tests/data/bbp_nr02-vs500.fk1d", tf_repo());
        if (sgt_model_read_fk1d(&model, path, &e)) return NULL;
        model_loaded = 1;
    }
    return &model;
}

TEST(rupgen_liu_function_has_unit_area) {
    for (double tau = 0.5; tau < 5; tau *= 2.3) {
        double sum = 0, dt = tau / 20000, peak = 0, tpeak = 0;
        for (double t = 0; t < tau; t += dt) {
            double f = rupgen_liu_stf(t, tau);
            sum += f * dt;
            if (f > peak) peak = f, tpeak = t;
        }
        CHECK_NEAR(sum, 1.0, 1e-4);
        CHECK(tpeak > 0.1 * tau && tpeak < 0.3 * tau); /* peaks near 2 tau1 = 0.26 tau */
        CHECK(rupgen_liu_stf(-0.1, tau) == 0 && rupgen_liu_stf(tau * 1.01, tau) == 0);
    }
}

/* Every variation's moment, as generated and as read back from its SRF, equals the magnitude's
 * Hanks-Kanamori moment to 1e-6 (the writer prints shortest round-trip numbers, so only the
 * summation order differs: ~1e-15). */
TEST(rupgen_moment_is_the_magnitude_moment) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    p.nslip = 2;
    CHECK_OK(planar(&r, 6.6, 30, 15, 300, 40, 3.0, &e), &e);
    rupgen_layout lay;
    CHECK_OK(rupgen_plan(&r, &p, &lay, &e), &e);
    CHECK(lay.nhypo_strike == 8 && lay.nhypo_dip == 4 && lay.nvariations == 64);
    double target = srf_moment_of_magnitude(6.6);
    for (int v = 0; v < lay.nvariations; v += 9) {
        srf_file s, t;
        rupgen_info info;
        CHECK_OK(rupgen_variation(&r, &p, layered, bbp_model(), v, &s, &info, &e), &e);
        CHECK_NEAR(info.moment / target, 1.0, 1e-6);
        CHECK_NEAR(srf_moment(&s, NULL, NULL) / target, 1.0, 1e-6);
        CHECK_OK(srf_write(tf_path("v.srf"), &s, NULL, &e), &e);
        CHECK_OK(srf_read(tf_path("v.srf"), &t, &e), &e);
        CHECK_NEAR(srf_moment(&t, NULL, NULL) / target, 1.0, 1e-6);
        /* each point's slip-rate integrates to its slip */
        for (long i = 0; i < t.npoints; i += 37) {
            double sum = 0;
            for (int j = 0; j < t.points[i].nt[0]; j++)
                sum += t.points[i].sr[0][j];
            CHECK_NEAR(sum * t.points[i].dt, t.points[i].slip[0],
                       1e-9 * t.points[i].slip[0] + 1e-12);
        }
        srf_free(&s);
        srf_free(&t);
    }
    erf_rupture_free(&r);
}

/* The 2D amplitude spectrum of the slip, averaged over 50 realisations in rings of the
 * correlation-normalised wavenumber kappa = |(kx a_s, kz a_d)|, falls as kappa^-2 between 3
 * and 15 (above the corner at 1, below the grid's Nyquist at pi a_d = 31). A Hann window
 * before the transform keeps the fault's edges from leaking a k^-1 tail into the band. */
TEST(rupgen_slip_spectrum_falls_as_k_minus_2) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    int nx = 256, nz = 128;
    CHECK_OK(planar(&r, 7.5, nx, nz, 0, 90, 0, &e), &e);
    double a_s = pow(10, 0.5 * 7.5 - 2.5), a_d = pow(10, 0.333 * 7.5 - 1.5);
    double *mu = malloc(sizeof(double) * nx * nz), *slip = malloc(sizeof(double) * nx * nz);
    for (int i = 0; i < nx * nz; i++)
        mu[i] = 3e10;
    double *in = fftw_malloc(sizeof(double) * nx * nz);
    fftw_complex *out = fftw_malloc(sizeof(fftw_complex) * nz * (nx / 2 + 1));
    fftw_plan plan = fftw_plan_dft_r2c_2d(nz, nx, in, out, FFTW_ESTIMATE);
    enum { NB = 24 };
    double ring[NB] = {0};
    long count[NB] = {0};
    double lo = log(3.0), hi = log(15.0);
    for (int real = 0; real < 50; real++) {
        CHECK_OK(rupgen_slip(&r, &p, mu, real, slip, &e), &e);
        double mean = 0;
        for (int i = 0; i < nx * nz; i++)
            mean += slip[i] / (nx * nz);
        for (int k = 0; k < nz; k++)
            for (int i = 0; i < nx; i++)
                in[k * nx + i] = (slip[k * nx + i] - mean) *
                                 (0.5 - 0.5 * cos(2 * M_PI * (i + 0.5) / nx)) *
                                 (0.5 - 0.5 * cos(2 * M_PI * (k + 0.5) / nz));
        fftw_execute(plan);
        for (int k = 0; k < nz; k++)
            for (int i = 0; i <= nx / 2; i++) {
                int kk = k <= nz / 2 ? k : k - nz;
                double kx = 2 * M_PI * i / nx * a_s, kz = 2 * M_PI * kk / nz * a_d;
                double kappa = sqrt(kx * kx + kz * kz);
                if (kappa <= 0) continue;
                int b = (int)floor((log(kappa) - lo) / (hi - lo) * NB);
                if (b < 0 || b >= NB) continue;
                double *c = out[k * (nx / 2 + 1) + i];
                ring[b] += sqrt(c[0] * c[0] + c[1] * c[1]);
                count[b]++;
            }
    }
    /* least-squares slope of log amplitude against log kappa over the rings */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int b = 0; b < NB; b++) {
        if (!count[b]) continue;
        double x = lo + (b + 0.5) * (hi - lo) / NB, y = log(ring[b] / count[b]);
        sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
    }
    double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    fftw_destroy_plan(plan);
    fftw_free(in);
    fftw_free(out);
    free(mu);
    free(slip);
    erf_rupture_free(&r);
    CHECK(m >= 20);
    printf("     slip amplitude spectrum slope %.3f over kappa 3..15\n", slope);
    CHECK_NEAR(slope, -2.0, 0.3);
}

static void wgs84(double lat, double lon, double depth_km, double out[3]) {
    const double a = 6378.137, f = 1 / 298.257223563, e2 = f * (2 - f);
    double phi = lat * M_PI / 180, lam = lon * M_PI / 180;
    double nn = a / sqrt(1 - e2 * sin(phi) * sin(phi));
    out[0] = (nn - depth_km) * cos(phi) * cos(lam);
    out[1] = (nn - depth_km) * cos(phi) * sin(lam);
    out[2] = (nn * (1 - e2) - depth_km) * sin(phi);
}

/* No point starts before its straight-line distance from the hypocentre over the fastest
 * rupture speed the generator may use (rvfrac x (1 + vr_slip_gain) x the largest Vs on the
 * fault), the hypocentre starts at 0, and no point is later than its distance over the slowest
 * speed with the grid path's detour (at most 1.06 for a 16-neighbour stencil). */
TEST(rupgen_rupture_times_are_causal) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    CHECK_OK(planar(&r, 6.8, 40, 18, 120, 35, 0.5, &e), &e);
    rupgen_layout lay;
    CHECK_OK(rupgen_plan(&r, &p, &lay, &e), &e);
    double vsmax = 0, vsmin = 1e9;
    for (int i = 0; i < erf_rupture_npoints(&r); i++) {
        double vs = 0, rho = 0;
        CHECK_OK(layered(0, 0, r.dep[i], &vs, &rho, bbp_model(), &e), &e);
        vsmax = fmax(vsmax, vs);
        vsmin = fmin(vsmin, vs);
    }
    double vfast = p.rvfrac * (1 + p.vr_slip_gain) * vsmax * 1e-3;
    double vslow = p.rvfrac * (1 - p.vr_slip_gain) * p.shallow_vr_factor * vsmin * 1e-3;
    for (int v = 0; v < lay.nvariations; v += 4) {
        srf_file s;
        rupgen_info info;
        CHECK_OK(rupgen_variation(&r, &p, layered, bbp_model(), v, &s, &info, &e), &e);
        CHECK(info.vr_max * 1e-3 <= vfast * (1 + 1e-12));
        double h[3], q[3];
        wgs84(info.hypo_lat, info.hypo_lon, info.hypo_depth, h);
        CHECK(s.points[info.hypo_point].tinit == 0);
        for (long i = 0; i < s.npoints; i++) {
            wgs84(s.points[i].lat, s.points[i].lon, s.points[i].dep, q);
            double d = sqrt((q[0] - h[0]) * (q[0] - h[0]) + (q[1] - h[1]) * (q[1] - h[1]) +
                            (q[2] - h[2]) * (q[2] - h[2]));
            CHECK_MSG(s.points[i].tinit >= d / vfast - 1e-9,
                      "variation %d point %ld starts at %.4f s, before %.4f km / %.3f km/s", v, i,
                      s.points[i].tinit, d, vfast);
            CHECK(s.points[i].tinit <= 1.06 * d / vslow + 1e-9);
        }
        srf_free(&s);
    }
    erf_rupture_free(&r);
}

/* Below the shallow zone the rise time is c sqrt(s / s_mean): sorted by slip, the number of
 * slip-rate samples never decreases, and it spans a range (not a constant). */
TEST(rupgen_rise_time_grows_with_slip) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    CHECK_OK(planar(&r, 6.5, 24, 14, 0, 60, 8.5, &e), &e);
    srf_file s;
    rupgen_info info;
    CHECK_OK(rupgen_variation(&r, &p, layered, bbp_model(), 4, &s, &info, &e), &e);
    int n = (int)s.npoints, pairs = 0, lo_nt = 1 << 30, hi_nt = 0;
    for (int i = 0; i < n; i++) {
        if (!(s.points[i].slip[0] > 0)) continue;
        lo_nt = s.points[i].nt[0] < lo_nt ? s.points[i].nt[0] : lo_nt;
        hi_nt = s.points[i].nt[0] > hi_nt ? s.points[i].nt[0] : hi_nt;
        for (int j = 0; j < n; j++)
            if (s.points[j].slip[0] > s.points[i].slip[0]) {
                CHECK_MSG(s.points[j].nt[0] >= s.points[i].nt[0],
                          "slip %.3f cm has %d samples, slip %.3f cm has %d", s.points[j].slip[0],
                          s.points[j].nt[0], s.points[i].slip[0], s.points[i].nt[0]);
                pairs++;
            }
    }
    CHECK(pairs > 1000 && hi_nt > 2 * lo_nt);
    srf_free(&s);
    erf_rupture_free(&r);
}

static void sha_of(const erf_rupture *r, const rupgen_params *p, int v, char *sha) {
    cs_error e;
    srf_file s;
    rupgen_info info;
    sha[0] = 0;
    if (rupgen_variation(r, p, layered, bbp_model(), v, &s, &info, &e)) return;
    srf_write(tf_path("r.srf"), &s, sha, &e);
    srf_free(&s);
}

/* The same seed gives the same SRF byte for byte; variation k made alone equals variation k of
 * a run over all of them; another slip realisation or another rupture differs. */
TEST(rupgen_variations_are_reproducible) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    p.nslip = 2;
    CHECK_OK(planar(&r, 6.0, 12, 9, 45, 70, 2, &e), &e);
    rupgen_layout lay;
    CHECK_OK(rupgen_plan(&r, &p, &lay, &e), &e);
    CHECK(lay.nhypo_strike == 3 && lay.nhypo_dip == 3);
    char all[64][65], alone[65], again[65];
    CHECK(lay.nvariations <= 64);
    for (int v = 0; v < lay.nvariations; v++)
        sha_of(&r, &p, v, all[v]);
    int k = 13;
    sha_of(&r, &p, k, alone);
    sha_of(&r, &p, k, again);
    CHECK(alone[0] && strcmp(alone, all[k]) == 0 && strcmp(alone, again) == 0);
    CHECK(strcmp(all[k], all[k - 9]) != 0); /* same hypocentre, other slip */
    r.rupture_id++;
    sha_of(&r, &p, k, again);
    CHECK(strcmp(again, alone) != 0);
    erf_rupture_free(&r);
}

/* A slip realisation made once serves every hypocentre of its slip (what the extractor's
 * variation source relies on): each variation's slip, rupture times and slip rates from the
 * shared realisation equal, bit for bit, those of the variation made alone; the two
 * realisations differ. */
TEST(rupgen_one_realisation_serves_every_hypocentre) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    p.nslip = 2;
    CHECK_OK(planar(&r, 6.0, 12, 9, 45, 70, 2, &e), &e);
    rupgen_layout lay;
    CHECK_OK(rupgen_plan(&r, &p, &lay, &e), &e);
    int n = erf_rupture_npoints(&r), nhypo = lay.nhypo_strike * lay.nhypo_dip;
    double *vs = malloc(sizeof(double) * 3 * (size_t)n), *rho = vs + n, *t = rho + n;
    CHECK(vs != NULL);
    CHECK_OK(rupgen_medium_sample(&r, layered, bbp_model(), vs, rho, &e), &e);
    rupgen_realisation re[2];
    for (int k = 0; k < 2; k++)
        CHECK_OK(rupgen_realisation_make(&r, &p, vs, rho, k, &re[k], &e), &e);
    CHECK(memcmp(re[0].slip, re[1].slip, sizeof(double) * (size_t)n) != 0);
    for (int v = 0; v < lay.nvariations; v++) {
        srf_file s;
        rupgen_info info;
        CHECK_OK(rupgen_variation_in(&r, &p, vs, rho, v, &s, &info, &e), &e);
        const rupgen_realisation *x = &re[v / nhypo];
        CHECK(info.slip_index == v / nhypo && info.moment == x->moment);
        CHECK_OK(rupgen_times(&r, x, info.hypo_point, t, &e), &e);
        int same = s.npoints == n && s.nsamples == x->nsamples;
        for (int i = 0; same && i < n; i++) {
            const srf_point *q = &s.points[i];
            same = q->slip[0] == x->slip[i] && q->tinit == t[i] && q->dt == x->dt &&
                   q->nt[0] == x->nt[i] &&
                   !memcmp(q->sr[0], x->sr + x->at[i], sizeof(double) * (size_t)x->nt[i]);
        }
        CHECK(same);
        srf_free(&s);
    }
    CHECK(rupgen_times(&r, &re[0], n, t, &e) != 0);
    for (int k = 0; k < 2; k++)
        rupgen_realisation_free(&re[k]);
    free(vs);
    erf_rupture_free(&r);
}

/* The 97 x 23 dipping rupture in the layered medium that the rupture-time tests search, its
 * realisation `slip`, and room for 4 arrays of its points (*buf: vs, rho, then two free). */
static int dipping_realisation(erf_rupture *r, rupgen_realisation *re, double **buf, int slip,
                               cs_error *e) {
    rupgen_params p;
    rupgen_defaults(&p);
    *buf = NULL;
    CS_CALL(e, planar(r, 6.9, 97, 23, 200, 55, 0.3, e));
    int n = erf_rupture_npoints(r);
    double *vs = malloc(sizeof(double) * 4 * (size_t)n);
    if (!vs) {
        erf_rupture_free(r);
        return cs_error_set(e, CS_ERR_RESOURCE, "out of memory");
    }
    int rc = rupgen_medium_sample(r, layered, bbp_model(), vs, vs + n, e);
    if (!rc) rc = rupgen_realisation_make(r, &p, vs, vs + n, slip, re, e);
    if (rc) {
        free(vs);
        erf_rupture_free(r);
        return rc;
    }
    *buf = vs;
    return 0;
}

/* The rupture-time search (Dijkstra over a queue) against the simplest independent path to
 * the same answer: every edge relaxed in sweeps until nothing falls (Bellman-Ford), with the
 * stencil and the edge time written out here again. The shortest sums are unique, so the two
 * must agree bit for bit, whatever order either takes the points in. */
TEST(rupgen_rupture_times_equal_a_relaxation_to_the_fixed_point) {
    static const int off[16][2] = {{1, 0},  {-1, 0},  {0, 1},  {0, -1}, {1, 1},  {1, -1},
                                   {-1, 1}, {-1, -1}, {1, 2},  {1, -2}, {-1, 2}, {-1, -2},
                                   {2, 1},  {2, -1},  {-2, 1}, {-2, -1}};
    cs_error e;
    erf_rupture r;
    rupgen_realisation re;
    double *vs;
    CHECK_OK(dipping_realisation(&r, &re, &vs, 1, &e), &e);
    int n = erf_rupture_npoints(&r), nx = r.ncols;
    double *t = vs + 2 * n, *b = t + n;
    const int hypos[] = {0, n - 1, nx * 5 + 15, nx * 20 + 3, 48, nx * 11 + 60};
    for (size_t h = 0; h < sizeof hypos / sizeof *hypos; h++) {
        CHECK_OK(rupgen_times(&r, &re, hypos[h], t, &e), &e);
        for (int i = 0; i < n; i++)
            b[i] = INFINITY;
        b[hypos[h]] = 0;
        for (int changed = 1, sweeps = 0; changed; sweeps++) {
            CHECK(sweeps < 10 * n);
            changed = 0;
            for (int c = 0; c < n; c++)
                for (int o = 0; o < 16 && b[c] < INFINITY; o++) {
                    int i = c % nx + off[o][0], k = c / nx + off[o][1];
                    if (i < 0 || i >= nx || k < 0 || k >= r.nrows) continue;
                    int q = k * nx + i;
                    const double *x = re.xyz + 3 * c, *y = re.xyz + 3 * q;
                    double d = sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
                                    (x[2] - y[2]) * (x[2] - y[2]));
                    double cand = b[c] + d * 0.5 * (1 / re.vr[c] + 1 / re.vr[q]);
                    if (cand < b[q]) b[q] = cand, changed = 1;
                }
        }
        for (int i = 0; i < n; i++)
            CHECK_MSG(t[i] == b[i], "hypocentre %d point %d: %.17g s, the relaxation %.17g s",
                      hypos[h], i, t[i], b[i]);
    }
    rupgen_realisation_free(&re);
    free(vs);
    erf_rupture_free(&r);
}

/* Realisations made on several threads are those made one at a time, bit for bit, and a
 * failure keeps none of them and says why. */
TEST(rupgen_realisations_on_threads_equal_one_at_a_time) {
    cs_error e;
    erf_rupture r;
    rupgen_params p;
    rupgen_defaults(&p);
    CHECK_OK(planar(&r, 6.4, 21, 8, 10, 80, 1.0, &e), &e);
    int n = erf_rupture_npoints(&r);
    double *vs = malloc(sizeof(double) * 2 * (size_t)n), *rho = vs + n;
    CHECK(vs != NULL);
    CHECK_OK(rupgen_medium_sample(&r, layered, bbp_model(), vs, rho, &e), &e);
    enum { K = 5 };
    rupgen_realisation one[K], many[K];
    CHECK_OK(rupgen_realisations_make(&r, &p, vs, rho, 2, K, 1, one, &e), &e);
    CHECK_OK(rupgen_realisations_make(&r, &p, vs, rho, 2, K, 3, many, &e), &e);
    for (int k = 0; k < K; k++) {
        const rupgen_realisation *a = &one[k], *b = &many[k];
        CHECK(a->slip_index == 2 + k && b->slip_index == 2 + k);
        CHECK(a->nsamples == b->nsamples && a->dt == b->dt && a->moment == b->moment);
        CHECK(!memcmp(a->slip, b->slip, sizeof(double) * 5 * (size_t)n)); /* slip, vr, xyz */
        CHECK(!memcmp(a->nt, b->nt, sizeof(int) * (size_t)n));
        CHECK(!memcmp(a->sr, b->sr, sizeof(double) * (size_t)a->nsamples));
        CHECK(!memcmp(a->edge, b->edge, sizeof(double) * RUPGEN_EDGES * (size_t)n));
        if (k) CHECK(memcmp(one[0].slip, a->slip, sizeof(double) * (size_t)n) != 0);
    }
    /* fewer realisations than threads: the threads share each one's points */
    rupgen_realisation two[2];
    CHECK_OK(rupgen_realisations_make(&r, &p, vs, rho, 3, 2, 4, two, &e), &e);
    for (int k = 0; k < 2; k++) {
        const rupgen_realisation *a = &one[1 + k], *b = &two[k];
        CHECK(a->nsamples == b->nsamples && a->moment == b->moment);
        CHECK(!memcmp(a->slip, b->slip, sizeof(double) * 5 * (size_t)n));
        CHECK(!memcmp(a->sr, b->sr, sizeof(double) * (size_t)a->nsamples));
        CHECK(!memcmp(a->edge, b->edge, sizeof(double) * RUPGEN_EDGES * (size_t)n));
        rupgen_realisation_free(&two[k]);
    }
    for (int k = 0; k < K; k++) {
        rupgen_realisation_free(&one[k]);
        rupgen_realisation_free(&many[k]);
    }
    /* a point in no rock: every realisation fails, the first one's error is given */
    vs[n / 2] = 0;
    CHECK(rupgen_realisations_make(&r, &p, vs, rho, 7, K, 3, many, &e) != 0);
    CHECK_MSG(strstr(e.message, "rock") != NULL && !strncmp(e.message, "slip realisation 7: ", 20),
              "%s", e.message);
    for (int k = 0; k < K; k++)
        CHECK(many[k].slip == NULL && many[k].sr == NULL && many[k].edge == NULL);
    free(vs);
    erf_rupture_free(&r);
}

/* The device's rupture times (extract/times_gpu.cu) relax each point from its neighbours with
 * rupgen_relax_point until a pass changes none. Here the same schedule on one thread (runs of
 * consecutive points, ascending and descending in turn, one after another instead of at once):
 * the edge times are symmetric bit for bit, and the fixed point is rupgen_times' to the bit. */
TEST(rupgen_relaxation_of_the_device_gives_the_search_s_times) {
    cs_error e;
    erf_rupture r;
    rupgen_realisation re;
    double *vs;
    CHECK_OK(dipping_realisation(&r, &re, &vs, 0, &e), &e);
    int n = erf_rupture_npoints(&r), nx = r.ncols;
    double *t = vs + 2 * n, *g = t + n;
    int step[RUPGEN_EDGES];
    rupgen_relax_steps(nx, step);
    for (int c = 0; c < n; c++)
        for (int o = 0; o < RUPGEN_EDGES; o++) {
            double w = re.edge[(size_t)c * RUPGEN_EDGES + o];
            int i = c % nx + rupgen_relax_di(o), k = c / nx + rupgen_relax_dk(o);
            int inside = i >= 0 && i < nx && k >= 0 && k < r.nrows;
            CHECK_MSG(inside == (w < INFINITY), "point %d edge %d", c, o);
            if (!inside) continue;
            int back = -1;
            for (int o2 = 0; o2 < RUPGEN_EDGES; o2++)
                if (step[o2] == -step[o]) back = o2;
            CHECK(back >= 0 && re.edge[(size_t)(c + step[o]) * RUPGEN_EDGES + back] == w);
        }
    const int threads = 64, run = (n + threads - 1) / threads;
    const int hypos[] = {0, n - 1, nx * 11 + 48, nx * 22 + 5};
    for (size_t h = 0; h < sizeof hypos / sizeof *hypos; h++) {
        CHECK_OK(rupgen_times(&r, &re, hypos[h], t, &e), &e);
        for (int i = 0; i < n; i++)
            g[i] = INFINITY;
        g[hypos[h]] = 0;
        int passes = 0;
        for (int changed = 1; changed; passes++) {
            CHECK(passes < n);
            changed = 0;
            for (int j = 0; j < threads; j++) {
                int lo = j * run, hi = lo + run < n ? lo + run : n;
                for (int i = 0; i < hi - lo; i++) {
                    int q = passes % 2 ? hi - 1 - i : lo + i;
                    double v = rupgen_relax_point(g, re.edge + (size_t)q * RUPGEN_EDGES, q, step);
                    if (v < g[q]) g[q] = v, changed = 1;
                }
            }
        }
        for (int i = 0; i < n; i++)
            CHECK_MSG(g[i] == t[i], "hypocentre %d point %d: %.17g s, the search %.17g s", hypos[h],
                      i, g[i], t[i]);
        printf("    hypocentre %d: %d passes\n", hypos[h], passes);
    }
    rupgen_realisation_free(&re);
    free(vs);
    erf_rupture_free(&r);
}
