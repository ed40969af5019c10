#include "im.h"
#include "im_osc.h"
#include "im_spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "cs_strutil.h"
#include "im_band.h"

static const double cybershake_periods[] = {1, 1.5, 2, 3, 4, 5, 7.5, 10};

void im_config_default(im_config *c, double fmax) {
    memset(c, 0, sizeof *c);
    c->damping = 0.05;
    c->vertical = 1;
    c->fmax = fmax;
    c->ko_b = IM_KO_BANDWIDTH;
    for (size_t i = 0; i < sizeof cybershake_periods / sizeof cybershake_periods[0]; i++)
        if (im_band_valid("SA", cybershake_periods[i], fmax, NULL, 0))
            c->periods[c->nperiods++] = cybershake_periods[i];
}

int im_config_band(im_config *c, double fmax, cs_error *err) {
    if (c->nperiods == 0) {
        int vertical = c->vertical;
        im_config_default(c, fmax);
        c->vertical = vertical;
        return 0;
    }
    c->fmax = fmax;
    for (int p = 0; p < c->nperiods; p++) {
        char why[256], t[32];
        if (im_band_valid("SA", c->periods[p], fmax, why, sizeof why)) continue;
        snprintf(t, sizeof t, "%g", c->periods[p]);
        return cs_error_input(err, "--periods", NULL, t,
                              "SA at %g s is outside the simulated band (fmax %g Hz): %s",
                              c->periods[p], fmax, why);
    }
    return 0;
}

int im_config_parse(im_config *c, const char *list, cs_error *err) {
    memset(c, 0, sizeof *c);
    c->damping = 0.05;
    c->vertical = 1;
    c->ko_b = IM_KO_BANDWIDTH;
    char buf[1024];
    cs_copy(buf, sizeof buf, list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        double p;
        char *t = cs_trim(tok);
        if (cs_parse_double(t, &p) || !(p > 0 && p <= 100))
            return cs_error_input(err, "--periods", NULL, t,
                                  "a period is a number of seconds in (0, 100]");
        if (c->nperiods == IM_MAX_PERIODS)
            return cs_error_input(err, "--periods", NULL, list, "at most %d periods",
                                  IM_MAX_PERIODS);
        for (int i = 0; i < c->nperiods; i++)
            if (c->periods[i] == p) return cs_error_input(err, "--periods", NULL, t, "given twice");
        c->periods[c->nperiods++] = p;
    }
    if (c->nperiods == 0) return cs_error_input(err, "--periods", NULL, list, "no period given");
    return 0;
}

static void set_type(im_type *t, const char *measure, double period, const char *component,
                     const char *units) {
    memset(t, 0, sizeof *t);
    cs_copy(t->measure, sizeof t->measure, measure);
    t->period = period;
    cs_copy(t->component, sizeof t->component, component);
    cs_copy(t->units, sizeof t->units, units);
}

/* Every measure of c, band or not, in the order im_compute computes them; t has room for
 * IM_MAX_TYPES. */
static int list_types(const im_config *c, im_type *t) {
    int k = 0;
    for (int p = 0; p < c->nperiods; p++) {
        set_type(&t[k++], "SA", c->periods[p], "RotD50", "g");
        set_type(&t[k++], "SA", c->periods[p], "RotD100", "g");
        set_type(&t[k++], "SA", c->periods[p], "geometric mean", "g");
        if (c->vertical) set_type(&t[k++], "SA", c->periods[p], "Z", "g");
    }
    static const char *comps[4] = {"RotD50", "E", "N", "Z"};
    const int ncomp = c->vertical ? 4 : 3;
    for (int i = 0; i < ncomp; i++)
        set_type(&t[k++], "PGA", 0, comps[i], "g");
    for (int i = 0; i < ncomp; i++)
        set_type(&t[k++], "PGV", 0, comps[i], "m/s");
    static const char *dur[4][2] = {
        {"Arias", "m/s"}, {"CAV", "m/s"}, {"D5-75", "s"}, {"D5-95", "s"}};
    for (int i = 0; i < 4; i++)
        for (int h = 0; h < 2; h++)
            set_type(&t[k++], dur[i][0], 0, h ? "N" : "E", dur[i][1]);
    static const char *fas[4] = {"E", "N", "Z", "EAS"};
    for (int p = 0; p < c->nperiods; p++)
        for (int i = 0; i < 4; i++)
            if (i != 2 || c->vertical) set_type(&t[k++], "FAS", c->periods[p], fas[i], "m/s");
    for (int p = 0; p < c->nperiods; p++)
        for (int d = 0; d < 2; d++)
            for (int i = 0; i < ncomp - 1; i++)
                set_type(&t[k++], d ? "D5-95" : "D5-75", c->periods[p], comps[i + 1], "s");
    return k;
}

int im_types_all(const im_config *c, im_type **types, int **valid, int *n, cs_error *err) {
    im_type *t = malloc(sizeof *t * (size_t)IM_MAX_TYPES);
    int *ok = malloc(sizeof *ok * (size_t)IM_MAX_TYPES);
    if (!t || !ok) {
        free(t);
        free(ok);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    int k = list_types(c, t);
    for (int i = 0; i < k; i++)
        ok[i] = im_band_valid(t[i].measure, t[i].period, c->fmax, NULL, 0);
    *types = t;
    *valid = ok;
    *n = k;
    return 0;
}

int im_types(const im_config *c, im_type **types, int *n, cs_error *err) {
    int *ok;
    CS_CALL(err, im_types_all(c, types, &ok, n, err));
    int k = 0;
    for (int i = 0; i < *n; i++)
        if (ok[i]) (*types)[k++] = (*types)[i];
    free(ok);
    *n = k;
    return 0;
}

int im_acceleration(const double *v, int nt, double dt, double *ag, cs_error *err) {
    if (nt < 5)
        return cs_error_set(err, CS_ERR_INPUT,
                            "a record of %d samples is too short for its "
                            "acceleration (5 at least)",
                            nt);
    for (int t = 0; t < nt; t++)
        ag[t] = im_osc_acc(v, t, nt, dt);
    return 0;
}

int im_substeps(double dt, double period) {
    return im_osc_substeps(dt, period);
}

enum { OSC_MAX = 3 };

/* The responses of m <= OSC_MAX records ag[j] to one oscillator, their recursions interleaved
 * (independent chains that the core runs side by side; each alone is bound by its own
 * latency): u[j] as im_oscillator writes it (NULL: not kept), peak[j] its max |u|. */
static void oscillators(const double *const *ag, int m, int nt, double dt, double period, double z,
                        int sub, double *const *u, double *peak) {
    const im_osc_coef k = im_osc_coefficients(dt, period, z, sub);
    double x[OSC_MAX] = {0}, v[OSC_MAX] = {0}, pk[OSC_MAX] = {0};
    for (int j = 0; j < m; j++)
        if (u[j]) u[j][0] = 0;
    /* the excitation at substep q is ag[i] + (ag[i + 1] - ag[i]) q / sub; its value at the end
     * of one substep is the start of the next (the same expression), and ag[i] itself at q = 0
     * (the product with 0 adds nothing): one division per substep, not two */
    double a0[OSC_MAX];
    long at = 0;
    for (int i = 0; i + 1 < nt; i++) {
        for (int j = 0; j < m; j++)
            a0[j] = ag[j][i];
        for (int q = 0; q < sub; q++) {
            at++;
            for (int j = 0; j < m; j++) {
                double a1 = im_osc_excitation(ag[j][i], ag[j][i + 1], q, sub);
                im_osc_step(&k, &x[j], &v[j], a0[j], a1);
                a0[j] = a1;
                if (u[j]) u[j][at] = x[j];
                if (fabs(x[j]) > pk[j]) pk[j] = fabs(x[j]);
            }
        }
    }
    for (int j = 0; j < m; j++)
        peak[j] = pk[j];
}

double im_oscillator(const double *ag_in, int nt, double dt_in, double period, double z, int sub,
                     double *u) {
    double peak;
    oscillators(&ag_in, 1, nt, dt_in, period, z, sub, &u, &peak);
    return peak;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void rotd_sample(double a, double b, const double *c, const double *s, double *peak) {
    for (int k = 0; k < 180; k++) {
        double r = fabs(a * c[k] + b * s[k]);
        peak[k] = r > peak[k] ? r : peak[k];
    }
}

void im_rotd(const double *x, const double *y, int nt, double *rot50, double *rot100) {
    double c[180], s[180], peak[180];
    for (int k = 0; k < 180; k++) {
        c[k] = cos(k * M_PI / 180);
        s[k] = sin(k * M_PI / 180);
        peak[k] = 0;
    }
    /* Every 16th sample first: the smallest of those peaks is a floor under every angle's
     * peak, and a sample whose radius is below it (|p . u| <= |p|, with a margin for rounding)
     * is the peak at no angle. Only the others are then projected: the same maxima, bit for
     * bit, from the few samples near the motion's outer envelope. */
    enum { STRIDE = 16 };
    for (int t = 0; t < nt; t += STRIDE)
        rotd_sample(x[t], y[t], c, s, peak);
    double floor2 = peak[0];
    for (int k = 1; k < 180; k++)
        floor2 = peak[k] < floor2 ? peak[k] : floor2;
    floor2 *= floor2 * (1 - 1e-9);
    for (int t = 0; t < nt; t++)
        if (x[t] * x[t] + y[t] * y[t] >= floor2) rotd_sample(x[t], y[t], c, s, peak);
    qsort(peak, 180, sizeof(double), cmp_double);
    *rot50 = 0.5 * (peak[89] + peak[90]);
    *rot100 = peak[179];
}

static double peak_abs(const double *x, int nt) {
    double p = 0;
    for (int t = 0; t < nt; t++)
        if (fabs(x[t]) > p) p = fabs(x[t]);
    return p;
}

/* Arias intensity, CAV and the 5-75 and 5-95% durations of one acceleration component. */
static void durations(const double *a, int nt, double dt, double out[4], double *cum) {
    double arias = 0, cav = 0;
    cum[0] = 0;
    for (int i = 0; i + 1 < nt; i++) {
        double p = a[i], q = a[i + 1];
        arias += dt / 3 * (p * p + p * q + q * q);
        if (p * q >= 0)
            cav += 0.5 * dt * (fabs(p) + fabs(q));
        else
            cav += 0.5 * dt * (p * p + q * q) / (fabs(p) + fabs(q));
        cum[i + 1] = arias;
    }
    double t_at[3], frac[3] = {0.05, 0.75, 0.95};
    for (int f = 0; f < 3; f++) {
        double target = frac[f] * arias;
        t_at[f] = 0;
        for (int i = 0; i + 1 < nt; i++)
            if (cum[i + 1] >= target && arias > 0) {
                double span = cum[i + 1] - cum[i];
                t_at[f] = dt * (i + (span > 0 ? (target - cum[i]) / span : 0));
                break;
            }
    }
    out[0] = M_PI / (2 * IM_G) * arias;
    out[1] = cav;
    out[2] = t_at[1] - t_at[0];
    out[3] = t_at[2] - t_at[0];
}

double im_ko_window(double f, double fc, double b) {
    if (!(f > 0) || !(fc > 0)) return 0;
    double x = b * log10(f / fc), r = im_spec_sinc_ratio(sin(x), x);
    return r * r * r * r;
}

/* The bins' b log10(f_k) and its sine and cosine, once a record: the window at any fc is then
 * sin(x) = sin(l_k) cos(c) - cos(l_k) sin(c), x = l_k - c, c = b log10(fc), with no sine per
 * bin and frequency (|x| stays below a few hundred: rounding ~1e-14 absolute). */
typedef struct {
    int n;
    double *l, *sl, *cl;
} ko_bins;

static void ko_bins_fill(ko_bins *kb, int n, double df, double b) {
    kb->n = n;
    for (int k = 0; k < n; k++) {
        kb->l[k] = b * log10((k + 1) * df);
        kb->sl[k] = sin(kb->l[k]);
        kb->cl[k] = cos(kb->l[k]);
    }
}

/* The smoothed value at fc of each of the m spectra amp[j] (bins 1..n), into out[j]. */
static void ko_smooth_bins(const ko_bins *kb, const double *const *amp, int m, double fc, double b,
                           double *out) {
    double c = b * log10(fc), sc = sin(c), cc = cos(c), wsum = 0, sum[4] = {0, 0, 0, 0};
    for (int k = 0; k < kb->n; k++) {
        double w = im_spec_ko_weight(kb->l[k], kb->sl[k], kb->cl[k], c, sc, cc);
        wsum += w;
        for (int j = 0; j < m; j++)
            sum[j] += w * amp[j][k];
    }
    for (int j = 0; j < m; j++)
        out[j] = wsum > 0 ? sum[j] / wsum : 0;
}

double im_ko_smooth(const double *amp, int n, double df, double fc, double b) {
    ko_bins kb = {n, malloc(sizeof(double) * 3 * (size_t)(n > 0 ? n : 1)), NULL, NULL};
    if (!kb.l || !(n > 0) || !(fc > 0)) {
        free(kb.l);
        return n > 0 && fc > 0 ? NAN : 0;
    }
    kb.sl = kb.l + n;
    kb.cl = kb.sl + n;
    ko_bins_fill(&kb, n, df, b);
    double out;
    ko_smooth_bins(&kb, &amp, 1, fc, b, &out);
    free(kb.l);
    return out;
}

/* The r2c and c2r plans of each power of two, made once (FFTW_ESTIMATE) and kept for the
 * process: planning again for every record recomputed FFTW's twiddle factors each time, which
 * cost more than the transforms. Executed with other arrays of the same alignment (fftw_malloc,
 * offsets of an even count of complex numbers), which FFTW allows from any thread. */
static struct { fftw_plan r2c, c2r; } plan_cache[31];

static int plans_of(long N, fftw_plan *r2c, fftw_plan *c2r) {
    int lg = 0;
    while ((1L << lg) < N)
        lg++;
#pragma omp critical(cs_fftw_planner)
    {
        if (!plan_cache[lg].r2c) {
            double *x = fftw_malloc(sizeof(double) * (size_t)N);
            fftw_complex *z = fftw_malloc(sizeof(fftw_complex) * (size_t)(N / 2 + 1));
            if (x && z) {
                fftw_plan a = fftw_plan_dft_r2c_1d((int)N, x, z, FFTW_ESTIMATE);
                fftw_plan b = fftw_plan_dft_c2r_1d((int)N, z, x, FFTW_ESTIMATE);
                if (a && b) {
                    plan_cache[lg].r2c = a;
                    plan_cache[lg].c2r = b;
                } else {
                    if (a) fftw_destroy_plan(a);
                    if (b) fftw_destroy_plan(b);
                }
            }
            fftw_free(x);
            fftw_free(z);
        }
        *r2c = plan_cache[lg].r2c;
        *c2r = plan_cache[lg].c2r;
    }
    return *r2c ? 0 : -1;
}

/* A record's spectra of length N: x real (N), z complex (nb + 1), spec ncomp spectra of nb + 1
 * bins at a stride of nb + 2 (an even count of complex numbers keeps each as aligned as z).
 * The arrays stay with the workspace from record to record. */
typedef struct {
    long N, nb;
    int ncomp;
    size_t ld;
    double *x;
    fftw_complex *z, *spec;
    fftw_plan r2c, c2r;
} spectra;

static void spectra_free(spectra *s) {
    fftw_free(s->x), fftw_free(s->z), fftw_free(s->spec);
    memset(s, 0, sizeof *s);
}

/* s ready for ncomp spectra of length N (its arrays kept when they are of that size). */
static int spectra_ready(spectra *s, long N, int ncomp, cs_error *err) {
    if (s->x && s->N == N && s->ncomp >= ncomp) return 0;
    spectra_free(s);
    s->N = N;
    s->nb = N / 2;
    s->ld = (size_t)s->nb + 2;
    s->ncomp = ncomp > 0 ? ncomp : 1;
    s->x = fftw_malloc(sizeof(double) * (size_t)N);
    s->z = fftw_malloc(sizeof(fftw_complex) * s->ld);
    s->spec = fftw_malloc(sizeof(fftw_complex) * (size_t)s->ncomp * s->ld);
    if (!s->x || !s->z || !s->spec || plans_of(N, &s->r2c, &s->c2r)) {
        spectra_free(s);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for spectra of %ld points", N);
    }
    return 0;
}

/* Component f of acc (nt samples) zero-padded to s->N, transformed into out (nb + 1 bins). */
static void spectrum_of(spectra *s, const double *acc, int f, int nt, fftw_complex *out) {
    memcpy(s->x, acc + (size_t)f * nt, sizeof(double) * (size_t)nt);
    memset(s->x + nt, 0, sizeof(double) * (size_t)(s->N - nt));
    fftw_execute_dft_r2c(s->r2c, s->x, out);
}

struct im_workspace {
    double *buf; /* acceleration (3 nt), the two oscillator responses (nu each), every measure */
    size_t nbuf;
    im_type types[IM_MAX_TYPES];
    spectra fas, dur;
    double *amp; /* FAS: each component's amplitude, the EAS, then the bins' ko_bins */
    size_t namp;
    long ko_nb; /* the bins amp holds: nb, df, b and the rows before them (0: none) */
    int ko_nfas;
    double ko_df, ko_b;
    double *h; /* the durations' band-pass of each period, nb + 1 values each */
    size_t nh;
    long h_nb;
    double h_df;
    int h_np;
    double h_periods[IM_MAX_PERIODS];
};

im_workspace *im_workspace_new(void) {
    return calloc(1, sizeof(im_workspace));
}

void im_workspace_free(im_workspace *ws) {
    if (!ws) return;
    free(ws->buf);
    free(ws->amp);
    free(ws->h);
    spectra_free(&ws->fas);
    spectra_free(&ws->dur);
    free(ws);
}

/* *p holds at least n doubles (grown, its contents not kept). */
static int room(double **p, size_t *have, size_t n, cs_error *err) {
    if (*have >= n) return 0;
    free(*p);
    *have = 0;
    *p = malloc(sizeof(double) * (n ? n : 1));
    if (!*p) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %zu values", n);
    *have = n;
    return 0;
}

/* FAS (E, N, [Z], EAS at every period, NaN where want[p] is 0) of the acceleration acc (ncomp x
 * nt) into fas, in list_types' order. The durations' spectra are taken when they are of the
 * same length (dur->N; the same transforms of the same records). */
static int fas_measures(im_workspace *ws, const im_config *c, const double *acc, int ncomp, int nt,
                        double dt, const int *want, double *fas, cs_error *err) {
    const int nfas = ncomp + 1;
    double tmax = 0;
    int any = 0;
    for (int p = 0; p < c->nperiods; p++) {
        for (int i = 0; i < nfas; i++)
            fas[p * nfas + i] = NAN;
        any |= want[p];
        if (c->periods[p] > tmax) tmax = c->periods[p];
    }
    if (!any) return 0;
    long N = im_spec_fas_length(nt, dt, tmax);
    const spectra *shared = ws->dur.x && ws->dur.N == N ? &ws->dur : NULL;
    spectra *s = &ws->fas;
    if (!shared) CS_CALL(err, spectra_ready(s, N, 0, err));
    const long nb = N / 2;
    const double df = 1 / (N * dt), b = c->ko_b > 0 ? c->ko_b : IM_KO_BANDWIDTH;
    /* bins 1..nb: each component's amplitude, the EAS, then the bins' logarithms */
    size_t namp = (size_t)nb * (size_t)(nfas + 3);
    if (ws->namp < namp) ws->ko_nb = 0;
    CS_CALL(err, room(&ws->amp, &ws->namp, namp, err));
    double *amp = ws->amp, *ampc[4];
    for (int f = 0; f < nfas; f++)
        ampc[f] = amp + (size_t)f * nb;
    for (int f = 0; f < ncomp; f++) {
        const fftw_complex *z = shared ? shared->spec + (size_t)f * shared->ld : s->z;
        if (!shared) spectrum_of(s, acc, f, nt, s->z);
        for (long k = 1; k <= nb; k++) {
            double a2 = z[k][0] * z[k][0] + z[k][1] * z[k][1];
            ampc[f][k - 1] = dt * sqrt(a2);
            /* the EAS's sum of squares, in its own row until the root */
            if (f == 0) ampc[ncomp][k - 1] = a2;
            if (f == 1) ampc[ncomp][k - 1] = dt * sqrt((ampc[ncomp][k - 1] + a2) / 2);
        }
    }
    double *bins = amp + (size_t)nfas * nb;
    ko_bins kb = {(int)nb, bins, bins + nb, bins + 2 * (size_t)nb};
    if (ws->ko_nb != nb || ws->ko_nfas != nfas || ws->ko_df != df || ws->ko_b != b) {
        ko_bins_fill(&kb, (int)nb, df, b);
        ws->ko_nb = nb, ws->ko_nfas = nfas, ws->ko_df = df, ws->ko_b = b;
    }
    for (int p = 0; p < c->nperiods; p++)
        if (want[p])
            ko_smooth_bins(&kb, (const double *const *)ampc, nfas, 1 / c->periods[p], b,
                           fas + p * nfas);
    return 0;
}

/* ws->h: the durations' band-pass at every period of c for bins 0..nb at df (made again only
 * when they change). */
static int duration_filters(im_workspace *ws, const im_config *c, long nb, double df,
                            cs_error *err) {
    if (ws->h && ws->h_nb == nb && ws->h_df == df && ws->h_np == c->nperiods &&
        !memcmp(ws->h_periods, c->periods, sizeof(double) * (size_t)c->nperiods))
        return 0;
    ws->h_nb = 0;
    CS_CALL(err, room(&ws->h, &ws->nh, (size_t)(nb + 1) * (size_t)c->nperiods, err));
    for (int p = 0; p < c->nperiods; p++)
        for (long k = 0; k <= nb; k++)
            ws->h[(size_t)p * (nb + 1) + k] =
                im_spec_duration_filter(k * df, c->periods[p]) / (double)(2 * nb);
    ws->h_nb = nb, ws->h_df = df, ws->h_np = c->nperiods;
    memcpy(ws->h_periods, c->periods, sizeof(double) * (size_t)c->nperiods);
    return 0;
}

/* The period-dependent durations (D5-75 then D5-95 of E, N, [Z] at every period, NaN where
 * want[p] is 0) of the acceleration acc (ncomp x nt) into dur, in list_types' order; cum holds
 * nt values. Leaves the records' spectra in ws->dur (or ws->dur.x NULL when none is wanted). */
static int period_durations(im_workspace *ws, const im_config *c, const double *acc, int ncomp,
                            int nt, double dt, const int *want, double *dur, double *cum,
                            cs_error *err) {
    const int ndur = 2 * ncomp;
    int any = 0;
    for (int p = 0; p < c->nperiods; p++) {
        for (int i = 0; i < ndur; i++)
            dur[p * ndur + i] = NAN;
        any |= want[p];
    }
    spectra *s = &ws->dur;
    if (!any) {
        spectra_free(s);
        return 0;
    }
    CS_CALL(err, spectra_ready(s, im_spec_duration_length(nt), ncomp, err));
    for (int f = 0; f < ncomp; f++)
        spectrum_of(s, acc, f, nt, s->spec + (size_t)f * s->ld);
    const double df = 1 / (s->N * dt);
    CS_CALL(err, duration_filters(ws, c, s->nb, df, err));
    for (int p = 0; p < c->nperiods; p++) {
        if (!want[p]) continue;
        const double *h = ws->h + (size_t)p * (s->nb + 1);
        for (int f = 0; f < ncomp; f++) {
            const fftw_complex *z = s->spec + (size_t)f * s->ld;
            for (long k = 0; k <= s->nb; k++) {
                s->z[k][0] = h[k] * z[k][0];
                s->z[k][1] = h[k] * z[k][1];
            }
            fftw_execute_dft_c2r(s->c2r, s->z, s->x);
            double d[4];
            durations(s->x, nt, dt, d, cum);
            dur[p * ndur + f] = d[2];
            dur[p * ndur + ncomp + f] = d[3];
        }
    }
    return 0;
}

/* The broadband measures (PGA of each component and RotD50, Arias, CAV, D5-75, D5-95 of the
 * horizontals) are outside every simulated band: made only when the configuration has no band
 * (fmax <= 0), NaN otherwise (never returned then). */
static int broadband_wanted(const im_config *c) {
    return im_band_valid("PGA", 0, c->fmax, NULL, 0) ||
           im_band_valid("Arias", 0, c->fmax, NULL, 0) ||
           im_band_valid("CAV", 0, c->fmax, NULL, 0) ||
           im_band_valid("D5-75", 0, c->fmax, NULL, 0) ||
           im_band_valid("D5-95", 0, c->fmax, NULL, 0);
}

void im_band_periods(const im_config *c, int *want_fas, int *want_dur) {
    for (int p = 0; p < c->nperiods; p++) {
        want_fas[p] = im_band_valid("FAS", c->periods[p], c->fmax, NULL, 0);
        want_dur[p] = im_band_valid("D5-75", c->periods[p], c->fmax, NULL, 0);
    }
}

int im_compute_in(im_workspace *ws, const im_config *c, const double *vel, int nt, double dt,
                  double *values, cs_error *err) {
    return im_compute_in_given(ws, c, vel, nt, dt, NULL, values, err);
}

/* The measures per period (SA, FAS, durations) and the PGV from the given layout (im.h) into
 * all[] at the places list_types gives them; k: where the SA start. Returns where they end. */
static int take_given(const im_config *c, int ncomp, const double *given, double *all, int k) {
    const int np = c->nperiods;
    for (int p = 0; p < np; p++) {
        const double *sa = given + 4 * p;
        all[k++] = sa[0], all[k++] = sa[1], all[k++] = sa[2];
        if (c->vertical) all[k++] = sa[3];
    }
    k += 1 + ncomp; /* PGA (broadband) */
    const double *pgv = given + IM_GIVEN_PGV(np);
    all[k++] = pgv[0];
    for (int f = 0; f < ncomp; f++)
        all[k++] = pgv[1 + f];
    k += 8; /* Arias, CAV, D5-75, D5-95 of E and N (broadband) */
    for (int p = 0; p < np; p++) {
        const double *fas = given + IM_GIVEN_FAS(np) + 4 * p;
        for (int f = 0; f < ncomp; f++)
            all[k++] = fas[f];
        all[k++] = fas[3];
    }
    for (int p = 0; p < np; p++) {
        const double *dur = given + IM_GIVEN_DUR(np) + 6 * p;
        for (int i = 0; i < 2; i++)
            for (int f = 0; f < ncomp; f++)
                all[k++] = dur[3 * i + f];
    }
    return k;
}

int im_compute_in_given(im_workspace *ws, const im_config *c, const double *vel, int nt, double dt,
                        const double *given, double *values, cs_error *err) {
    int maxsub = 1;
    for (int p = 0; p < c->nperiods && !given; p++) {
        int m = im_substeps(dt, c->periods[p]);
        if (m > maxsub) maxsub = m;
    }
    size_t nu = (size_t)(nt > 1 ? nt - 1 : 0) * (size_t)maxsub + 1;
    if (nu < (size_t)nt) nu = (size_t)nt;
    const int ncomp = c->vertical ? 3 : 2, broadband = broadband_wanted(c);
    CS_CALL(err, room(&ws->buf, &ws->nbuf, 3 * (size_t)nt + 2 * nu + IM_MAX_TYPES, err));
    double *acc = ws->buf, *ue = acc + 3 * (size_t)nt, *un = ue + nu, *all = un + nu;
    if (!given || broadband)
        for (int f = 0; f < ncomp; f++)
            CS_CALL(err, im_acceleration(vel + (size_t)f * nt, nt, dt, acc + (size_t)f * nt, err));
    /* every measure into all[], in list_types' order; those of the band go to values */
    int k = 0;
    if (given) {
        for (int i = 0; i < IM_MAX_TYPES; i++)
            all[i] = NAN;
        take_given(c, ncomp, given, all, 0);
    }
    for (int p = 0; p < c->nperiods && !given; p++) {
        double w = 2 * M_PI / c->periods[p], pk[OSC_MAX], r50, r100;
        int sub = im_substeps(dt, c->periods[p]);
        const double *ag[OSC_MAX] = {acc, acc + nt, acc + 2 * (size_t)nt};
        double *u[OSC_MAX] = {ue, un, NULL};
        oscillators(ag, ncomp, nt, dt, c->periods[p], c->damping, sub, u, pk);
        im_rotd(ue, un, (nt - 1) * sub + 1, &r50, &r100);
        all[k++] = w * w * r50 / IM_G;
        all[k++] = w * w * r100 / IM_G;
        all[k++] = w * w * sqrt(pk[0] * pk[1]) / IM_G;
        if (c->vertical) all[k++] = w * w * pk[2] / IM_G;
    }
    if (given) k = c->nperiods * (3 + c->vertical);
    double r50, r100;
    if (broadband) im_rotd(acc, acc + nt, nt, &r50, &r100);
    all[k++] = broadband ? r50 / IM_G : NAN;
    for (int f = 0; f < ncomp; f++)
        all[k++] = broadband ? peak_abs(acc + (size_t)f * nt, nt) / IM_G : NAN;
    if (!given) {
        im_rotd(vel, vel + nt, nt, &r50, &r100);
        all[k++] = r50;
        for (int f = 0; f < ncomp; f++)
            all[k++] = peak_abs(vel + (size_t)f * nt, nt);
    } else
        k += 1 + ncomp;
    double d[2][4];
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < 4; i++)
            d[h][i] = NAN;
        if (broadband) durations(acc + (size_t)h * nt, nt, dt, d[h], ue);
    }
    for (int i = 0; i < 4; i++)
        for (int h = 0; h < 2; h++)
            all[k++] = d[h][i];
    if (!given) {
        int want_fas[IM_MAX_PERIODS], want_dur[IM_MAX_PERIODS];
        im_band_periods(c, want_fas, want_dur);
        double *fas = all + k, *dur = fas + (size_t)c->nperiods * (ncomp + 1);
        CS_CALL(err, period_durations(ws, c, acc, ncomp, nt, dt, want_dur, dur, ue, err));
        CS_CALL(err, fas_measures(ws, c, acc, ncomp, nt, dt, want_fas, fas, err));
    }
    int n = list_types(c, ws->types), kept = 0;
    for (int i = 0; i < n; i++)
        if (im_band_valid(ws->types[i].measure, ws->types[i].period, c->fmax, NULL, 0))
            values[kept++] = all[i];
    return 0;
}

int im_compute(const im_config *c, const double *vel, int nt, double dt, double *values,
               cs_error *err) {
    im_workspace *ws = im_workspace_new();
    if (!ws) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a record's measures");
    int rc = im_compute_in(ws, c, vel, nt, dt, values, err);
    im_workspace_free(ws);
    if (rc) CS_TRACE(err);
    return rc;
}
