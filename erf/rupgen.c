#include "rupgen.h"

#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cs_rng.h"

void rupgen_defaults(rupgen_params *p) {
    *p = (rupgen_params){.hypo_spacing_km = 4.0,
                         .min_hypo = 3,
                         .nslip = 1,
                         .slip_cv = 0.75,
                         .rvfrac = 0.8,
                         .shallow_vr_factor = 0.6,
                         .shallow_depth_km = 5.0,
                         .shallow_ramp_km = 3.0,
                         .vr_slip_gain = 0.15,
                         .taper_km = 0, /* 0: two grid spacings */
                         .dt = 0,       /* 0: mean rise time / 20, at most 0.05 s */
                         .seed = 0};
}

int rupgen_check(const rupgen_params *p, cs_error *err) {
    struct {
        const char *name;
        double v, lo, hi;
    } rules[] = {{"hypo_spacing_km", p->hypo_spacing_km, 0.1, 1000},
                 {"min_hypo", p->min_hypo, 1, 100},
                 {"nslip", p->nslip, 1, 10000},
                 {"slip_cv", p->slip_cv, 0, 3},
                 {"rvfrac", p->rvfrac, 0.1, 1.0},
                 {"shallow_vr_factor", p->shallow_vr_factor, 0.1, 1.0},
                 {"shallow_depth_km", p->shallow_depth_km, 0, 100},
                 {"shallow_ramp_km", p->shallow_ramp_km, 0, 100},
                 {"vr_slip_gain", p->vr_slip_gain, 0, 0.5},
                 {"taper_km", p->taper_km, 0, 1000},
                 {"dt", p->dt, 0, 1}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!(rules[i].v >= rules[i].lo && rules[i].v <= rules[i].hi))
            return cs_error_set(err, CS_ERR_INPUT,
                                "rupture generator: %s = %g must lie in [%g, %g]", rules[i].name,
                                rules[i].v, rules[i].lo, rules[i].hi);
    return 0;
}

static int count_along(int npoints, double length_km, double spacing, int min_count) {
    int n = (int)lround(length_km / spacing);
    if (n < min_count) n = min_count;
    return n > npoints ? npoints : n;
}

int rupgen_plan(const erf_rupture *r, const rupgen_params *p, rupgen_layout *out, cs_error *err) {
    CS_CALL(err, rupgen_check(p, err));
    out->nhypo_strike =
        count_along(r->ncols, r->ncols * r->spacing_km, p->hypo_spacing_km, p->min_hypo);
    out->nhypo_dip =
        count_along(r->nrows, r->nrows * r->spacing_km, p->hypo_spacing_km, p->min_hypo);
    out->nvariations = p->nslip * out->nhypo_strike * out->nhypo_dip;
    return 0;
}

/* Weight that ramps from 0 at depth `top` to 1 at top + ramp (1 below). */
static double ramp_up(double depth, double top, double ramp) {
    if (depth >= top + ramp) return 1.0;
    if (depth <= top) return 0.0;
    return (depth - top) / ramp;
}

static double shallow_weight(double depth_km, const rupgen_params *p) {
    return 1.0 - ramp_up(depth_km, p->shallow_depth_km, p->shallow_ramp_km);
}

double rupgen_liu_stf(double t, double tau) {
    if (t <= 0 || t >= tau) return 0.0;
    double t1 = 0.13 * tau, t2 = tau - t1;
    double cn = M_PI / (1.4 * M_PI * t1 + 1.2 * t1 + 0.3 * M_PI * t2);
    if (t < t1) return cn * (0.7 - 0.7 * cos(M_PI * t / t1) + 0.6 * sin(0.5 * M_PI * t / t1));
    if (t < 2 * t1) return cn * (1.0 - 0.7 * cos(M_PI * t / t1) + 0.3 * cos(M_PI * (t - t1) / t2));
    return cn * (0.3 + 0.3 * cos(M_PI * (t - t1) / t2));
}

static uint64_t slip_seed(const erf_rupture *r, const rupgen_params *p, int slip_index) {
    return cs_rng_seed(p->seed, (uint64_t)r->source_id, (uint64_t)r->rupture_id,
                       (uint64_t)slip_index);
}

int rupgen_slip(const erf_rupture *r, const rupgen_params *p, const double *mu, int slip_index,
                double *slip, cs_error *err) {
    int nx = r->ncols, nz = r->nrows, px = 2 * nx, pz = 2 * nz, pxh = px / 2 + 1;
    double dx = r->spacing_km;
    double a_s = pow(10.0, 0.5 * r->magnitude - 2.5), a_d = pow(10.0, 0.333 * r->magnitude - 1.5);
    double *field = fftw_malloc(sizeof(double) * (size_t)px * (size_t)pz);
    fftw_complex *spec = fftw_malloc(sizeof(fftw_complex) * (size_t)pxh * (size_t)pz);
    if (!field || !spec) {
        fftw_free(field);
        fftw_free(spec);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a %d x %d slip field", px, pz);
    }
    /* Plans before filling: FFTW_ESTIMATE does not touch the arrays. FFTW's planner is not
     * thread-safe (its execution is): variations are made by several threads on GPU ranks. */
    fftw_plan fwd, inv;
#pragma omp critical(cs_fftw_planner)
    {
        fwd = fftw_plan_dft_r2c_2d(pz, px, field, spec, FFTW_ESTIMATE);
        inv = fftw_plan_dft_c2r_2d(pz, px, spec, field, FFTW_ESTIMATE);
    }
    cs_rng rng;
    cs_rng_init(&rng, slip_seed(r, p, slip_index));
    for (long i = 0; i < (long)px * pz; i++)
        field[i] = cs_rng_normal(&rng);
    fftw_execute(fwd);
    /* von Karman, Hurst 1: amplitude 1 / (1 + (k a)^2), k in rad/km; no DC (the mean is set
     * below). */
    for (int j = 0; j < pz; j++) {
        int jj = j <= pz / 2 ? j : j - pz;
        double kz = 2 * M_PI * jj / (pz * dx);
        for (int i = 0; i < pxh; i++) {
            double kx = 2 * M_PI * i / (px * dx);
            double f =
                (i == 0 && j == 0) ? 0.0 : 1.0 / (1.0 + kx * kx * a_s * a_s + kz * kz * a_d * a_d);
            spec[(size_t)j * pxh + i][0] *= f;
            spec[(size_t)j * pxh + i][1] *= f;
        }
    }
    fftw_execute(inv);
#pragma omp critical(cs_fftw_planner)
    {
        fftw_destroy_plan(fwd);
        fftw_destroy_plan(inv);
    }
    fftw_free(spec);

    /* The window of the padded field that is the fault, normalised to mean 0 and std 1. */
    int n = nx * nz;
    double mean = 0, var = 0;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            slip[k * nx + i] = field[(size_t)k * px + i];
            mean += slip[k * nx + i];
        }
    fftw_free(field);
    mean /= n;
    for (int i = 0; i < n; i++)
        var += (slip[i] - mean) * (slip[i] - mean);
    double sd = n > 1 && var > 0 ? sqrt(var / n) : 1.0;
    double taper = p->taper_km > 0 ? p->taper_km : 2 * dx;
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++) {
            double s = 1.0 + p->slip_cv * (slip[k * nx + i] - mean) / sd;
            if (s < 0) s = 0;
            /* Cosine taper to zero at the ends along strike and at the bottom edge (the top
             * keeps its slip: ruptures reach the surface). Distances from the edge of the
             * cell. */
            double edges[3] = {(i + 0.5) * dx, (nx - i - 0.5) * dx, (nz - k - 0.5) * dx};
            for (int e = 0; e < 3; e++)
                if (edges[e] < taper && (e < 2 ? nx : nz) > 2)
                    s *= 0.5 * (1 - cos(M_PI * edges[e] / taper));
            slip[k * nx + i] = s;
        }
    /* Scale to the magnitude's moment: M0 = sum mu A s (SI; slip returned in cm). */
    double area = dx * dx * 1e6, sum = 0;
    for (int i = 0; i < n; i++)
        sum += mu[i] * area * slip[i];
    if (!(sum > 0))
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "source %lld rupture %lld: slip realisation %d has no moment",
                            r->source_id, r->rupture_id, slip_index);
    double scale = srf_moment_of_magnitude(r->magnitude) / sum;
    for (int i = 0; i < n; i++)
        slip[i] *= scale * 100.0;
    return 0;
}

/* Earth-centred coordinates (km) on the WGS84 ellipsoid, depth below it: straight-line
 * distances between rupture points in one metric, so the first-arrival path between two points
 * is never shorter than their chord. */
static void ecef(double lat, double lon, double depth_km, double out[3]) {
    const double a = 6378.137, f = 1 / 298.257223563, e2 = f * (2 - f);
    double phi = lat * M_PI / 180, lam = lon * M_PI / 180;
    double nrad = a / sqrt(1 - e2 * sin(phi) * sin(phi)), h = -depth_km;
    out[0] = (nrad + h) * cos(phi) * cos(lam);
    out[1] = (nrad + h) * cos(phi) * sin(lam);
    out[2] = (nrad * (1 - e2) + h) * sin(phi);
}

static double dist3(const double *a, const double *b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* Dijkstra's queue: a 4-ary heap (half the levels of a binary one; 20-30% faster than it here)
 * of the points not yet done, keyed by their times t[], each
 * point in it once (pos[q] its place, -1 not queued, -2 done) and moved up when its time falls.
 * A heap of (time, point) pairs pushed at every improvement held up to 16 entries a point and
 * cost most of the search; the times it gives are the same (the shortest path's sum, whatever
 * the order the points are taken in). */
enum { HEAP_ARITY = 4 };

typedef struct {
    const double *t;
    int *node, *pos, n;
} heap;

static void heap_up(heap *h, int i) {
    const int q = h->node[i];
    const double tq = h->t[q];
    while (i > 0) {
        int up = (i - 1) / HEAP_ARITY, u = h->node[up];
        if (h->t[u] <= tq) break;
        h->node[i] = u;
        h->pos[u] = i;
        i = up;
    }
    h->node[i] = q;
    h->pos[q] = i;
}

/* q queued, or moved up after its time fell. */
static void heap_update(heap *h, int q) {
    if (h->pos[q] < 0) {
        h->node[h->n] = q;
        h->pos[q] = h->n++;
    }
    heap_up(h, h->pos[q]);
}

/* The point of least time, taken out and marked done. */
static int heap_pop(heap *h) {
    const int top = h->node[0], last = h->node[--h->n];
    h->pos[top] = -2;
    if (h->n == 0) return top;
    const double tl = h->t[last];
    int i = 0;
    for (;;) {
        int c = HEAP_ARITY * i + 1;
        if (c >= h->n) break;
        int end = c + HEAP_ARITY < h->n ? c + HEAP_ARITY : h->n;
        double tmin = h->t[h->node[c]];
        for (int j = c + 1; j < end; j++) {
            double tj = h->t[h->node[j]];
            if (tj < tmin) tmin = tj, c = j;
        }
        if (tmin >= tl) break;
        h->node[i] = h->node[c];
        h->pos[h->node[i]] = i;
        i = c;
    }
    h->node[i] = last;
    h->pos[last] = i;
    return top;
}

/* Travel times along every edge of the surface at speed v (km/s) per point: the chord times the
 * mean of its ends' slownesses (slow: room for one a point). Made once per realisation, they spare
 * each hypocentre's search a square root and nine products per edge (the same quotients and
 * products, so the same times). */
static void edge_times(const erf_rupture *r, const double *xyz, const double *v, double *slow,
                       double *edge, int threads) {
    int n = erf_rupture_npoints(r), nx = r->ncols;
    for (int c = 0; c < n; c++)
        slow[c] = 1 / v[c];
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int c = 0; c < n; c++) {
        int ci = c % nx, ck = c / nx;
        for (int o = 0; o < RUPGEN_EDGES; o++) {
            int i = ci + rupgen_relax_di(o), k = ck + rupgen_relax_dk(o);
            double *e = &edge[(size_t)c * RUPGEN_EDGES + o];
            if (i < 0 || i >= nx || k < 0 || k >= r->nrows) {
                *e = INFINITY;
                continue;
            }
            int q = k * nx + i;
            *e = dist3(xyz + 3 * c, xyz + 3 * q) * 0.5 * (slow[c] + slow[q]);
        }
    }
}

/* First arrival times (s) from point `start` over the edges' travel times. A time that is not
 * less than infinity (off the surface, or a speed of 0) never improves a point. */
static int first_arrivals(const erf_rupture *r, const double *edge, int start, double *t,
                          cs_error *err) {
    int n = erf_rupture_npoints(r), nx = r->ncols;
    int step[RUPGEN_EDGES];
    rupgen_relax_steps(nx, step);
    heap h = {t, malloc(sizeof(int) * (size_t)n), malloc(sizeof(int) * (size_t)n), 0};
    if (!h.node || !h.pos) {
        free(h.node);
        free(h.pos);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for rupture times");
    }
    for (int i = 0; i < n; i++) {
        t[i] = INFINITY;
        h.pos[i] = -1;
    }
    t[start] = 0;
    heap_update(&h, start);
    while (h.n) {
        const int c = heap_pop(&h);
        const double tc = t[c], *ec = edge + (size_t)c * RUPGEN_EDGES;
        for (int o = 0; o < RUPGEN_EDGES; o++) {
            if (!(ec[o] < INFINITY)) continue;
            int q = c + step[o];
            if (h.pos[q] == -2) continue;
            double tq = tc + ec[o];
            if (tq < t[q]) {
                t[q] = tq;
                heap_update(&h, q);
            }
        }
    }
    free(h.node);
    free(h.pos);
    return 0;
}

int rupgen_hypocentre(const erf_rupture *r, const rupgen_params *p, int variation,
                      rupgen_info *info, cs_error *err) {
    rupgen_layout lay;
    CS_CALL(err, rupgen_plan(r, p, &lay, err));
    if (variation < 0 || variation >= lay.nvariations)
        return cs_error_set(err, CS_ERR_INPUT,
                            "source %lld rupture %lld: variation %d outside 0..%d", r->source_id,
                            r->rupture_id, variation, lay.nvariations - 1);
    int nhypo = lay.nhypo_strike * lay.nhypo_dip;
    memset(info, 0, sizeof *info);
    info->slip_index = variation / nhypo;
    info->hypo_strike = (variation % nhypo) % lay.nhypo_strike;
    info->hypo_dip = (variation % nhypo) / lay.nhypo_strike;
    int hcol = (int)((info->hypo_strike + 0.5) * r->ncols / lay.nhypo_strike);
    int hrow = (int)((info->hypo_dip + 0.5) * r->nrows / lay.nhypo_dip);
    info->hypo_point = hrow * r->ncols + hcol;
    info->hypo_lat = r->lat[info->hypo_point];
    info->hypo_lon = r->lon[info->hypo_point];
    info->hypo_depth = r->dep[info->hypo_point];
    info->corr_strike_km = pow(10.0, 0.5 * r->magnitude - 2.5);
    info->corr_dip_km = pow(10.0, 0.333 * r->magnitude - 1.5);
    return 0;
}

int rupgen_medium_sample(const erf_rupture *r, rupgen_medium medium, void *ctx, double *vs,
                         double *rho, cs_error *err) {
    for (int i = 0; i < erf_rupture_npoints(r); i++)
        CS_CALL(err, medium(r->lon[i], r->lat[i], r->dep[i], &vs[i], &rho[i], ctx, err));
    return 0;
}

int rupgen_variation(const erf_rupture *r, const rupgen_params *p, rupgen_medium medium,
                     void *medium_ctx, int variation, srf_file *out, rupgen_info *info,
                     cs_error *err) {
    int n = erf_rupture_npoints(r);
    double *m = malloc(sizeof(double) * 2 * (size_t)n);
    if (!m)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a rupture of %d points", n);
    int rc;
    CS_CALL_GOTO(rc, err, rupgen_medium_sample(r, medium, medium_ctx, m, m + n, err), done);
    CS_CALL_GOTO(rc, err, rupgen_variation_in(r, p, m, m + n, variation, out, info, err), done);
done:
    free(m);
    return rc;
}

void rupgen_realisation_free(rupgen_realisation *s) {
    free(s->slip);
    free(s->nt);
    free(s->at);
    free(s->sr);
    free(s->edge);
    memset(s, 0, sizeof *s);
}

/* Rise times, their sampling and the normalised slip-rate functions of s (slip set); mu per
 * point for the moment. */
static int slip_rates(const erf_rupture *r, const rupgen_params *p, const double *mu, double smean,
                      double *tau, int threads, rupgen_realisation *s, cs_error *err) {
    int n = s->n;
    /* Rise times: c sqrt(s / s_mean), doubled in the shallow zone, mean over slipping points
     * equal to 1.6e-9 M0^(1/3) (M0 in dyne-cm; Graves and Pitarka 2010). */
    double m0 = srf_moment_of_magnitude(r->magnitude);
    double tmean = 1.6e-9 * cbrt(m0 * 1e7), shape_sum = 0;
    int nslipping = 0;
    for (int i = 0; i < n; i++) {
        tau[i] = sqrt(s->slip[i] / smean) * (1.0 + shallow_weight(r->dep[i], p));
        if (s->slip[i] > 0) {
            shape_sum += tau[i];
            nslipping++;
        }
    }
    double c = tmean * nslipping / shape_sum;
    double dt = s->dt = p->dt > 0 ? p->dt : fmin(0.05, tmean / 20);
    s->nsamples = 0;
    for (int i = 0; i < n; i++) {
        tau[i] = fmax(c * tau[i], 2 * dt);
        s->nt[i] = s->slip[i] > 0 ? (int)ceil(tau[i] / dt) + 1 : 0;
        s->at[i] = s->nsamples;
        s->nsamples += s->nt[i];
    }
    s->sr = malloc(sizeof(double) * (size_t)(s->nsamples ? s->nsamples : 1));
    if (!s->sr) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for slip rates");
    s->area_cm2 = r->spacing_km * r->spacing_km * 1e10;
    /* each point's samples on their own (most of a realisation's time: the sines and cosines),
     * the moment's sum in the points' order */
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int i = 0; i < n; i++) {
        double *sr = s->sr + s->at[i], sum = 0;
        for (int j = 0; j < s->nt[i]; j++)
            sum += (sr[j] = rupgen_liu_stf(j * dt, tau[i]));
        for (int j = 0; j < s->nt[i]; j++)
            sr[j] *= s->slip[i] / (sum * dt);
    }
    s->moment = 0;
    for (int i = 0; i < n; i++)
        s->moment += mu[i] * r->spacing_km * r->spacing_km * 1e6 * s->slip[i] * 0.01;
    return 0;
}

/* Realisation slip_index into out, its per-point loops on `threads` OpenMP threads. */
static int realisation_make(const erf_rupture *r, const rupgen_params *p, const double *vs,
                            const double *rho, int slip_index, int threads, rupgen_realisation *out,
                            cs_error *err) {
    int n = erf_rupture_npoints(r);
    memset(out, 0, sizeof *out);
    out->slip_index = slip_index;
    out->n = n;
    size_t nn = (size_t)(n ? n : 1);
    /* slip, vr and xyz in one block (5 n); mu, tau and the slownesses in a scratch block */
    out->slip = malloc(sizeof(double) * 5 * nn);
    out->nt = malloc(sizeof(int) * nn);
    out->at = malloc(sizeof(long) * nn);
    out->edge = malloc(sizeof(double) * RUPGEN_EDGES * nn);
    double *scratch = calloc(3 * nn, sizeof(double));
    if (!out->slip || !out->nt || !out->at || !out->edge || !scratch) {
        free(scratch);
        rupgen_realisation_free(out);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a rupture of %d points", n);
    }
    out->vr = out->slip + n;
    out->xyz = out->vr + n;
    double *mu = scratch, *tau = scratch + n;
    int rc = -1;
    for (int i = 0; i < n; i++) {
        if (!(vs[i] > 0 && rho[i] > 0)) {
            rc =
                cs_error_set(err, CS_ERR_INPUT,
                             "source %lld rupture %lld point %d: the velocity model gives vs = %g, "
                             "rho = %g at depth %g km (a rupture needs solid rock)",
                             r->source_id, r->rupture_id, i, vs[i], rho[i], r->dep[i]);
            goto done;
        }
        mu[i] = rho[i] * vs[i] * vs[i];
        ecef(r->lat[i], r->lon[i], r->dep[i], out->xyz + 3 * i);
    }
    CS_CALL_GOTO(rc, err, rupgen_slip(r, p, mu, slip_index, out->slip, err), done);

    double smean = 0;
    for (int i = 0; i < n; i++)
        smean += out->slip[i];
    smean /= n;
    out->vr_max = 0;
    for (int i = 0; i < n; i++) {
        double depth_factor = 1.0 - (1.0 - p->shallow_vr_factor) * shallow_weight(r->dep[i], p);
        double slip_factor = 1.0 + p->vr_slip_gain * (out->slip[i] / smean - 1.0);
        if (slip_factor > 1 + p->vr_slip_gain) slip_factor = 1 + p->vr_slip_gain;
        if (slip_factor < 1 - p->vr_slip_gain) slip_factor = 1 - p->vr_slip_gain;
        out->vr[i] = p->rvfrac * vs[i] * 1e-3 * depth_factor * slip_factor; /* km/s */
        if (out->vr[i] * 1e3 > out->vr_max) out->vr_max = out->vr[i] * 1e3;
    }
    CS_CALL_GOTO(rc, err, slip_rates(r, p, mu, smean, tau, threads, out, err), done);
    edge_times(r, out->xyz, out->vr, scratch + 2 * nn, out->edge, threads);
    rc = 0;
done:
    free(scratch);
    if (rc) rupgen_realisation_free(out);
    return rc;
}

int rupgen_realisation_make(const erf_rupture *r, const rupgen_params *p, const double *vs,
                            const double *rho, int slip_index, rupgen_realisation *out,
                            cs_error *err) {
    return realisation_make(r, p, vs, rho, slip_index, 1, out, err);
}

int rupgen_realisations_make(const erf_rupture *r, const rupgen_params *p, const double *vs,
                             const double *rho, int first, int count, int threads,
                             rupgen_realisation *out, cs_error *err) {
    int failed = count, rc = 0;
    if (threads < 1) threads = 1;
    memset(out, 0, sizeof *out * (size_t)(count > 0 ? count : 0));
    /* a realisation a thread where there are enough of them, else the threads on each one's
     * points in turn (a rupture has one or two: the workflow's slips) */
    int across = count >= threads, inner = across ? 1 : threads;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (across && count > 1)
    for (int k = 0; k < count; k++) {
        cs_error e;
        cs_error_clear(&e);
        int got = realisation_make(r, p, vs, rho, first + k, inner, &out[k], &e);
        if (got) {
#pragma omp critical(rupgen_realisations_failed)
            if (k < failed) failed = k, rc = got, *err = e;
        }
    }
    if (rc) {
        for (int k = 0; k < count; k++)
            rupgen_realisation_free(&out[k]);
        CS_TRACE(err);
        cs_error_prefix(err, "slip realisation %d: ", first + failed);
    }
    return rc;
}

int rupgen_times(const erf_rupture *r, const rupgen_realisation *s, int hypo_point, double *t,
                 cs_error *err) {
    if (hypo_point < 0 || hypo_point >= s->n)
        return cs_error_set(err, CS_ERR_INPUT, "hypocentre point %d outside the rupture's 0..%d",
                            hypo_point, s->n - 1);
    return first_arrivals(r, s->edge, hypo_point, t, err);
}

/* The SRF of variation info (hypocentre set) of realisation s with rupture times t. */
static int assemble_srf(const erf_rupture *r, const rupgen_params *p, const double *vs,
                        const double *rho, const rupgen_realisation *s, const double *t,
                        int variation, const rupgen_info *info, srf_file *out, cs_error *err) {
    int n = s->n;
    int hcol = info->hypo_point % r->ncols, hrow = info->hypo_point / r->ncols;
    CS_CALL(err, srf_alloc(out, 2, 1, n, s->nsamples, err));
    out->block_start[0] = 0;
    out->block_count[0] = n;
    int mid = (r->ncols - 1) / 2, mid2 = r->ncols / 2;
    out->planes[0] = (srf_plane){.elon = 0.5 * (r->lon[mid] + r->lon[mid2]),
                                 .elat = 0.5 * (r->lat[mid] + r->lat[mid2]),
                                 .nstk = r->ncols,
                                 .ndip = r->nrows,
                                 .len = r->ncols * r->spacing_km,
                                 .wid = r->nrows * r->spacing_km,
                                 .stk = r->stk[mid],
                                 .dip = r->dip[mid],
                                 .dtop = r->dep[mid],
                                 .shyp = (hcol - 0.5 * (r->ncols - 1)) * r->spacing_km,
                                 .dhyp = hrow * r->spacing_km};
    for (int i = 0; i < n; i++) {
        srf_point *q = &out->points[i];
        double *sr = out->samples + s->at[i];
        int nt = s->nt[i];
        *q = (srf_point){.lon = r->lon[i],
                         .lat = r->lat[i],
                         .dep = r->dep[i],
                         .stk = r->stk[i],
                         .dip = r->dip[i],
                         .area = s->area_cm2,
                         .tinit = t[i],
                         .dt = s->dt,
                         .vs = vs[i] * 100.0,
                         .den = rho[i] * 1e-3,
                         .rake = r->rake[i],
                         .slip = {s->slip[i], 0, 0},
                         .nt = {nt, 0, 0},
                         .sr = {sr, sr + nt, sr + nt}};
        memcpy(sr, s->sr + s->at[i], sizeof(double) * (size_t)nt);
    }
    char comment[512];
    snprintf(comment, sizeof comment,
             "# cybershake rupture generator: source %lld rupture %lld variation %d (slip %d, "
             "hypocentre %d,%d) Mw %.4f seed %llu",
             r->source_id, r->rupture_id, variation, info->slip_index, info->hypo_strike,
             info->hypo_dip, r->magnitude, p->seed);
    out->comments = malloc(sizeof *out->comments);
    if (!out->comments || !(out->comments[0] = strdup(comment))) {
        srf_free(out);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    out->ncomments = 1;
    return 0;
}

int rupgen_variation_in(const erf_rupture *r, const rupgen_params *p, const double *vs,
                        const double *rho, int variation, srf_file *out, rupgen_info *info,
                        cs_error *err) {
    CS_CALL(err, rupgen_hypocentre(r, p, variation, info, err));
    rupgen_realisation s;
    CS_CALL(err, rupgen_realisation_make(r, p, vs, rho, info->slip_index, &s, err));
    double *t = malloc(sizeof(double) * (size_t)(s.n ? s.n : 1));
    int rc = -1;
    if (!t) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for rupture times");
        goto done;
    }
    CS_CALL_GOTO(rc, err, rupgen_times(r, &s, info->hypo_point, t, err), done);
    CS_CALL_GOTO(rc, err, assemble_srf(r, p, vs, rho, &s, t, variation, info, out, err), done);
    info->moment = s.moment;
    info->vr_max = s.vr_max;
    rc = 0;
done:
    free(t);
    rupgen_realisation_free(&s);
    return rc;
}

int rupgen_params_format(const rupgen_params *p, char *out, size_t size) {
    return snprintf(out, size,
                    "hypo_spacing_km=%.17g min_hypo=%d nslip=%d slip_cv=%.17g rvfrac=%.17g "
                    "shallow_vr_factor=%.17g shallow_depth_km=%.17g shallow_ramp_km=%.17g "
                    "vr_slip_gain=%.17g taper_km=%.17g dt=%.17g seed=%llu",
                    p->hypo_spacing_km, p->min_hypo, p->nslip, p->slip_cv, p->rvfrac,
                    p->shallow_vr_factor, p->shallow_depth_km, p->shallow_ramp_km, p->vr_slip_gain,
                    p->taper_km, p->dt, p->seed) >= (int)size;
}

int rupgen_params_parse(const char *text, rupgen_params *p, cs_error *err) {
    rupgen_defaults(p);
    const char *s = text;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s || !strncmp(s, "model=", 6)) break; /* provenance of `erf variations`, last */
        char key[64], val[64];
        int used = 0;
        if (sscanf(s, "%63[^= ]=%63s%n", key, val, &used) != 2)
            return cs_error_input(err, "Rupture_Variation_Scenario_IDs.Parameters", NULL, s,
                                  "expected key=value pairs");
        s += used;
        double v;
        if (sscanf(val, "%lf", &v) != 1)
            return cs_error_input(err, "Rupture_Variation_Scenario_IDs.Parameters", key, val,
                                  "must be a number");
        if (!strcmp(key, "hypo_spacing_km"))
            p->hypo_spacing_km = v;
        else if (!strcmp(key, "min_hypo"))
            p->min_hypo = (int)v;
        else if (!strcmp(key, "nslip"))
            p->nslip = (int)v;
        else if (!strcmp(key, "slip_cv"))
            p->slip_cv = v;
        else if (!strcmp(key, "rvfrac"))
            p->rvfrac = v;
        else if (!strcmp(key, "shallow_vr_factor"))
            p->shallow_vr_factor = v;
        else if (!strcmp(key, "shallow_depth_km"))
            p->shallow_depth_km = v;
        else if (!strcmp(key, "shallow_ramp_km"))
            p->shallow_ramp_km = v;
        else if (!strcmp(key, "vr_slip_gain"))
            p->vr_slip_gain = v;
        else if (!strcmp(key, "taper_km"))
            p->taper_km = v;
        else if (!strcmp(key, "dt"))
            p->dt = v;
        else if (!strcmp(key, "seed"))
            p->seed = strtoull(val, NULL, 10);
        else
            return cs_error_input(err, "Rupture_Variation_Scenario_IDs.Parameters", key, val,
                                  "unknown generator parameter");
    }
    return rupgen_check(p, err);
}
