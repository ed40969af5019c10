/* Intensity measures against closed forms: the oscillator recursion against the exact response
 * to a step and to a ramp of ground acceleration, RotD of motions whose rotated peaks are known,
 * the spectral derivative of a band-limited signal, Arias intensity and durations of a record
 * built to have them; and the synthesis paths against each other on a synthetic SGT. */
#include <stdlib.h>
#include <string.h>

#include "im.h"
#include "im_band.h"
#include "im_osc.h"
#include "tf.h"

/* u(t) of u'' + 2 z w u' + w^2 u = -a0 from rest. */
static double step_response(double a0, double w, double z, double t) {
    double sq = sqrt(1 - z * z), wd = w * sq;
    return -a0 / (w * w) * (1 - exp(-z * w * t) * (cos(wd * t) + z / sq * sin(wd * t)));
}

/* u(t) for a(t) = c t from rest: particular -(c/w^2)(t - 2z/w) plus the homogeneous part. */
static double ramp_response(double c, double w, double z, double t) {
    double sq = sqrt(1 - z * z), wd = w * sq;
    double u0 = -2 * c * z / (w * w * w), v0 = c / (w * w); /* initial values of -particular */
    double A = u0, B = (v0 + z * w * u0) / wd;
    return -c / (w * w) * (t - 2 * z / w) + exp(-z * w * t) * (A * cos(wd * t) + B * sin(wd * t));
}

TEST(im_oscillator_matches_step_and_ramp_responses) {
    int nt = 2000;
    double dt = 0.01, z = 0.05, a[2000], u[2000];
    double periods[3] = {0.3, 1.0, 5.0};
    for (int p = 0; p < 3; p++) {
        double w = 2 * M_PI / periods[p];
        for (int i = 0; i < nt; i++)
            a[i] = 2.5;
        im_oscillator(a, nt, dt, periods[p], z, 1, u);
        for (int i = 0; i < nt; i += 37)
            CHECK_NEAR(u[i], step_response(2.5, w, z, i * dt), 1e-9 * 2.5 / (w * w));
        for (int i = 0; i < nt; i++)
            a[i] = 0.7 * i * dt;
        im_oscillator(a, nt, dt, periods[p], z, 1, u);
        double scale = 0.7 * nt * dt / (w * w);
        for (int i = 0; i < nt; i += 37)
            CHECK_NEAR(u[i], ramp_response(0.7, w, z, i * dt), 1e-9 * scale);
    }
    /* substeps: the response at 7 points per sample of the step, every one exact */
    static double uf[7 * 2000];
    double w = 2 * M_PI / 0.3;
    for (int i = 0; i < nt; i++)
        a[i] = 2.5;
    im_oscillator(a, nt, dt, 0.3, z, 7, uf);
    for (int i = 0; i < 7 * (nt - 1); i += 13)
        CHECK_NEAR(uf[i], step_response(2.5, w, z, i * dt / 7), 1e-9 * 2.5 / (w * w));
    CHECK(im_substeps(0.05, 1.0) == 4 && im_substeps(0.01, 10) == 1);
}

/* im_rotd projects only the samples that can be an angle's peak: on wandering, decaying
 * two-component motions (a bundle of oscillations with random phases, noise and spikes) and on
 * decaying ellipses, its RotD50 and RotD100 are the brute-force scan's over every sample, to the
 * last bit. */
TEST(im_rotd_skips_no_peak) {
    int nt = 20000;
    double *x = malloc(sizeof(double) * nt), *y = malloc(sizeof(double) * nt);
    unsigned long long st = 12345;
    for (int trial = 0; trial < 20; trial++) {
        double ph[6];
        for (int j = 0; j < 6; j++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            ph[j] = (double)(st >> 11) / 9007199254740992.0 * 2 * M_PI;
        }
        for (int i = 0; i < nt; i++) {
            double t = i * 0.01, env = t * exp(-t / (5 + trial));
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            double noise = ((double)(st >> 11) / 9007199254740992.0 - 0.5) * 0.05;
            x[i] = env * (sin(2.1 * t + ph[0]) + 0.5 * sin(7.3 * t + ph[1]) +
                          0.2 * sin(0.4 * t + ph[2])) +
                   noise;
            y[i] = env * (cos(1.7 * t + ph[3]) + 0.7 * sin(5.1 * t + ph[4]) +
                          0.3 * sin(13 * t + ph[5])) -
                   noise;
            if (i == 3 * trial + 7) x[i] += 40; /* a spike off the stride */
            if (trial >= 10) {
                /* ellipses: the lowest peak (the minor axis) sits on samples whose radius is
                 * that peak, right at the floor the scan prunes by */
                double aspect = 1 + 0.1 * (trial - 10);
                x[i] = env * cos(2.1 * t + ph[0]);
                y[i] = env * aspect * sin(2.1 * t + ph[0]);
            }
        }
        double c[180], s[180], peak[180], r50, r100;
        for (int k = 0; k < 180; k++) {
            c[k] = cos(k * M_PI / 180);
            s[k] = sin(k * M_PI / 180);
            peak[k] = 0;
        }
        for (int i = 0; i < nt; i++)
            for (int k = 0; k < 180; k++) {
                double r = fabs(x[i] * c[k] + y[i] * s[k]);
                peak[k] = r > peak[k] ? r : peak[k];
            }
        /* the brute force's median and largest, by selection */
        for (int a = 0; a < 180; a++)
            for (int b = a + 1; b < 180; b++)
                if (peak[b] < peak[a]) {
                    double tmp = peak[a];
                    peak[a] = peak[b];
                    peak[b] = tmp;
                }
        im_rotd(x, y, nt, &r50, &r100);
        CHECK(r50 == 0.5 * (peak[89] + peak[90]));
        CHECK(r100 == peak[179]);
    }
    free(x);
    free(y);
}

/* The device's order of an oscillator's responses (im_osc_slot: every substep of every chunk in
 * a slot of its own, the rest zeros) gives RotD50 and RotD100 bit for bit as the record's own
 * order does. */
TEST(im_rotd_of_the_device_response_order_equals_the_records) {
    const int chunks = 64;
    unsigned long long st = 777;
    int shapes[4][2] = {{1001, 1}, {1001, 3}, {777, 2}, {8000, 4}}; /* nt, substeps */
    for (int c = 0; c < 4; c++) {
        int nt = shapes[c][0], sub = shapes[c][1], span = im_osc_span(nt, chunks);
        long long n = (long long)(nt - 1) * sub + 1,
                  room = im_osc_slot(0, (long long)span * sub, chunks);
        double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
        double *xd = calloc((size_t)room, sizeof(double)),
               *yd = calloc((size_t)room, sizeof(double));
        char *seen = calloc((size_t)room, 1);
        CHECK(x && y && xd && yd && seen);
        x[0] = y[0] = 0;
        for (long long i = 1; i < n; i++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            double r = (double)(st >> 11) / 9007199254740992.0 - 0.5, t = i * 0.01 / sub;
            x[i] = sin(1.3 * t) * exp(-t / 40) + 0.1 * r;
            y[i] = cos(0.9 * t) * exp(-t / 30) - 0.07 * r;
        }
        seen[0] = 1;
        long long placed = 1;
        for (int j = 0; j < chunks; j++) {
            int i0 = j * span < nt - 1 ? j * span : nt - 1;
            int i1 = i0 + span < nt - 1 ? i0 + span : nt - 1;
            for (long long t = 0; t < (long long)(i1 - i0) * sub; t++) {
                long long at = im_osc_slot(j, t, chunks);
                CHECK_MSG(at > 0 && at < room && !seen[at], "chunk %d substep %lld: slot %lld", j,
                          t, at);
                seen[at] = 1;
                xd[at] = x[(long long)i0 * sub + t + 1];
                yd[at] = y[(long long)i0 * sub + t + 1];
                placed++;
            }
        }
        CHECK(placed == n);
        double a50, a100, b50, b100;
        im_rotd(x, y, (int)n, &a50, &a100);
        im_rotd(xd, yd, (int)room, &b50, &b100);
        CHECK_MSG(a50 == b50 && a100 == b100, "nt %d sub %d: %.17g %.17g against %.17g %.17g", nt,
                  sub, a50, a100, b50, b100);
        free(x);
        free(y);
        free(xd);
        free(yd);
        free(seen);
    }
}

TEST(im_rotd_of_linear_and_circular_motion) {
    int nt = 3600;
    double *x = malloc(sizeof(double) * nt), *y = malloc(sizeof(double) * nt), r50, r100;
    /* motion along azimuth 30 deg from x: peaks |cos(theta - 30)| A; median over theta is A cos 45
     */
    double peak = 0;
    for (int i = 0; i < nt; i++) {
        double s = sin(2 * M_PI * i / 400.0) * exp(-i / 2000.0);
        peak = fmax(peak, fabs(3 * s));
        x[i] = 3 * s * cos(M_PI / 6);
        y[i] = 3 * s * sin(M_PI / 6);
    }
    im_rotd(x, y, nt, &r50, &r100);
    CHECK_NEAR(r100, peak, 1e-12);
    /* 180 one-degree steps: the median lies between the 89th and 90th peak, cos(44.5..45.5 deg) */
    CHECK_NEAR(r50, peak * cos(M_PI / 4), peak * 0.0062);
    for (int i = 0; i < nt; i++) {
        x[i] = 2 * cos(2 * M_PI * i / 360.0);
        y[i] = 2 * sin(2 * M_PI * i / 360.0);
    }
    im_rotd(x, y, nt, &r50, &r100);
    CHECK_NEAR(r50, 2.0, 1e-3);
    CHECK_NEAR(r100, 2.0, 1e-3);
    free(x);
    free(y);
}

TEST(im_acceleration_is_the_derivative) {
    int nt = 4000;
    double dt = 0.02, *v = malloc(sizeof(double) * nt), *a = malloc(sizeof(double) * nt);
    cs_error err;
    /* a Gaussian-windowed 0.7 Hz wave, zero at both ends */
    for (int i = 0; i < nt; i++) {
        double t = i * dt - 30, g = exp(-t * t / 50.0), w = 2 * M_PI * 0.7;
        v[i] = g * sin(w * t);
    }
    CHECK_OK(im_acceleration(v, nt, dt, a, &err), &err);
    double worst = 0;
    for (int i = 0; i < nt; i++) {
        double t = i * dt - 30, g = exp(-t * t / 50.0), w = 2 * M_PI * 0.7;
        double exact = g * (w * cos(w * t) - 2 * t / 50.0 * sin(w * t));
        worst = fmax(worst, fabs(a[i] - exact));
    }
    /* 4th-order differences: (omega dt)^4 / 30 = 2.0e-6 of the amplitude omega */
    double w = 2 * M_PI * 0.7;
    CHECK_MSG(worst < 3e-6 * w, "worst error %g", worst);
    free(v);
    free(a);
}

TEST(im_arias_and_durations_of_a_built_record) {
    /* acceleration: a steady 1 Hz sine of amplitude A over [10 s, 30 s], zero elsewhere:
     * Arias = pi/(2g) A^2/2 20 s; the Husid curve rises linearly over the 20 s, so D5-75 is
     * 14 s and D5-95 18 s (to the oscillation's ripple). Built as velocity so im_compute's
     * derivative gives it back. */
    int nt = 4000;
    double dt = 0.01, A = 2.0;
    double *v = calloc(3 * (size_t)nt, sizeof(double));
    im_config c;
    im_config_default(&c, 0);
    c.nperiods = 1;
    c.periods[0] = 1.0;
    for (int i = 0; i < nt; i++) {
        double t = i * dt, w = 2 * M_PI;
        if (t >= 10 && t <= 30) v[i] = -A / w * cos(w * (t - 10)) + A / w;
        if (t > 30) v[i] = 0;
        v[nt + i] = v[i];
    }
    /* make the velocity continuous: it returns to zero at 30 s since cos(2 pi 20) = 1 */
    im_type *types;
    int n;
    cs_error err;
    CHECK_OK(im_types(&c, &types, &n, &err), &err);
    double *values = malloc(sizeof(double) * (size_t)n);
    CHECK_OK(im_compute(&c, v, nt, dt, values, &err), &err);
    for (int i = 0; i < n; i++) {
        if (!strcmp(types[i].measure, "Arias") && !strcmp(types[i].component, "E"))
            CHECK_NEAR(values[i], M_PI / (2 * IM_G) * A * A / 2 * 20,
                       0.01 * M_PI / (2 * IM_G) * 40);
        /* broadband (period 0), and band-passed one octave around 1 Hz (period 1 s: the sine
         * passes, its onset and end ring for a few cycles); Z is still */
        if (!strcmp(types[i].component, "Z")) continue;
        if (!strcmp(types[i].measure, "D5-75"))
            CHECK_NEAR(values[i], 14.0, types[i].period > 0 ? 0.6 : 0.3);
        if (!strcmp(types[i].measure, "D5-95"))
            CHECK_NEAR(values[i], 18.0, types[i].period > 0 ? 0.6 : 0.3);
        if (!strcmp(types[i].measure, "PGA") && !strcmp(types[i].component, "E"))
            CHECK_NEAR(values[i], A / IM_G, 0.02 * A / IM_G);
        if (!strcmp(types[i].measure, "CAV") && !strcmp(types[i].component, "E"))
            CHECK_NEAR(values[i], A * 2 / M_PI * 20, 0.02 * A * 2 / M_PI * 20);
    }
    free(types);
    free(values);
    free(v);
}

TEST(im_types_and_periods) {
    im_config c;
    cs_error err;
    im_config_default(&c, 0.5);
    CHECK(c.nperiods == 6 && c.periods[0] == 2 && c.periods[5] == 10);
    CHECK(im_config_parse(&c, "3,x", &err) != 0 && strstr(err.message, "'x'"));
    CHECK(im_config_parse(&c, "3,3", &err) != 0 && strstr(err.message, "twice"));
    CHECK_OK(im_config_parse(&c, "3, 5,10", &err), &err);
    im_type *t;
    int n;
    CHECK_OK(im_types(&c, &t, &n, &err), &err);
    CHECK(n == 3 * IM_PER_PERIOD + 8 + 8); /* 14 measures a period: SA, FAS, durations */
    CHECK(!strcmp(t[0].measure, "SA") && t[0].period == 3 && !strcmp(t[0].component, "RotD50") &&
          !strcmp(t[0].units, "g"));
    free(t);
}

/* A horizontal-only record (vertical = 0): exactly PGA Z and PGV Z are left out, every other
 * measure has the three-component record's value, and the Z samples are never read (NaN there
 * changes nothing). */
TEST(im_horizontal_only_drops_the_vertical_measures) {
    int nt = 800;
    double dt = 0.02;
    double *v = malloc(sizeof(double) * 3 * (size_t)nt);
    for (int i = 0; i < nt; i++) {
        double t = i * dt;
        v[i] = sin(2 * M_PI * 0.3 * t) * exp(-0.1 * t);
        v[nt + i] = 0.5 * cos(2 * M_PI * 0.45 * t) * exp(-0.2 * t);
        v[2 * nt + i] = 0.2 * sin(2 * M_PI * 0.7 * t);
    }
    im_config c3, c2;
    cs_error err;
    CHECK_OK(im_config_parse(&c3, "3,5", &err), &err);
    c2 = c3;
    c2.vertical = 0;
    im_type *t3, *t2;
    int n3, n2;
    CHECK_OK(im_types(&c3, &t3, &n3, &err), &err);
    CHECK_OK(im_types(&c2, &t2, &n2, &err), &err);
    CHECK(n2 == n3 - 2 - 4 * 2); /* PGA, PGV; SA, FAS, D5-75, D5-95 at 3 and 5 s */
    double *x3 = malloc(sizeof(double) * (size_t)n3), *x2 = malloc(sizeof(double) * (size_t)n2);
    CHECK_OK(im_compute(&c3, v, nt, dt, x3, &err), &err);
    for (int i = 0; i < nt; i++)
        v[2 * nt + i] = NAN;
    CHECK_OK(im_compute(&c2, v, nt, dt, x2, &err), &err);
    int k = 0;
    for (int i = 0; i < n3; i++) {
        if (!strcmp(t3[i].component, "Z")) continue;
        CHECK(k < n2 && !strcmp(t2[k].measure, t3[i].measure) &&
              !strcmp(t2[k].component, t3[i].component) && x2[k] == x3[i]);
        k++;
    }
    CHECK(k == n2);
    free(t3), free(t2), free(x3), free(x2), free(v);
}

/* The band rule (formats/im_band.h): SA at T >= 1/fmax and PGV are given, the broadband
 * measures never; fmax 0 (not known) gives everything. */
TEST(im_band_rule) {
    char why[512];
    CHECK(im_band_valid("SA", 3, 0.34, why, sizeof why) && why[0] == '\0');
    CHECK(im_band_valid("SA", 2, 0.5, why, sizeof why)); /* T fmax = 1 exactly */
    CHECK(!im_band_valid("SA", 2, 0.34, why, sizeof why) && strstr(why, "1/fmax = 2.94 s"));
    CHECK(im_band_valid("PGV", 0, 0.34, why, sizeof why));
    const char *broad[] = {"PGA", "Arias", "CAV", "D5-75", "D5-95"};
    for (int i = 0; i < 5; i++) {
        CHECK(!im_band_valid(broad[i], 0, 0.34, why, sizeof why) && strstr(why, broad[i]) &&
              strstr(why, "broadband") && strstr(why, "0.34 Hz"));
        CHECK(im_band_valid(broad[i], 0, 0, why, sizeof why));
        CHECK(!im_band_valid(broad[i], 0, 0.34, NULL, 0));
    }
    CHECK(im_band_valid("SA", 0.1, 0, NULL, 0));
    /* FAS at 1/T <= fmax; durations at a period where the octave band-pass's upper corner
     * sqrt(2)/T is within the band (T >= 4.16 s at 0.34 Hz); broadband durations never */
    CHECK(im_band_valid("FAS", 2, 0.5, why, sizeof why));
    CHECK(!im_band_valid("FAS", 2, 0.34, why, sizeof why) && strstr(why, "2.94 s"));
    CHECK(im_band_valid("D5-95", 5, 0.34, why, sizeof why));
    CHECK(im_band_valid("D5-75", M_SQRT2 / 0.34, 0.34, why, sizeof why));
    CHECK(!im_band_valid("D5-75", 4, 0.34, why, sizeof why) && strstr(why, "4.16 s") &&
          strstr(why, "sqrt(2)/fmax"));
    CHECK(!im_band_valid("D5-95", 0, 0.34, why, sizeof why) && strstr(why, "broadband"));
}

/* A configuration with a band lists and computes only what the band gives, the same values as
 * without it; periods outside it are refused by im_config_band with the rule. */
TEST(im_types_and_values_within_the_band) {
    int nt = 1200;
    double dt = 0.05;
    double *v = malloc(sizeof(double) * 3 * (size_t)nt);
    for (int i = 0; i < 3 * nt; i++)
        v[i] = sin(0.37 * i) * exp(-0.002 * (i % nt)) + 0.3 * cos(0.05 * i);
    im_config all, band;
    cs_error err;
    im_config_default(&all, 0);
    band = all;
    band.fmax = 0.34;
    im_type *ta, *tb;
    int na, nb;
    CHECK_OK(im_types(&all, &ta, &na, &err), &err);
    CHECK_OK(im_types(&band, &tb, &nb, &err), &err);
    /* SA (4 components) and FAS (4) at 3, 4, 5, 7.5, 10 s; PGV; durations (2 x 3) at
     * T >= sqrt(2)/0.34 = 4.16 s: 5, 7.5, 10 s */
    CHECK(na == IM_PER_PERIOD * 8 + 8 + 8 && nb == 8 * 5 + 4 + 6 * 3);
    double *xa = malloc(sizeof(double) * (size_t)na), *xb = malloc(sizeof(double) * (size_t)nb);
    CHECK_OK(im_compute(&all, v, nt, dt, xa, &err), &err);
    CHECK_OK(im_compute(&band, v, nt, dt, xb, &err), &err);
    int k = 0;
    for (int i = 0; i < na; i++) {
        int in = !strcmp(ta[i].measure, "PGV") ||
                 ((!strcmp(ta[i].measure, "SA") || !strcmp(ta[i].measure, "FAS")) &&
                  ta[i].period >= 3) ||
                 (!strncmp(ta[i].measure, "D5-", 3) && ta[i].period >= 5);
        if (!in) continue;
        CHECK(k < nb && !strcmp(tb[k].measure, ta[i].measure) && tb[k].period == ta[i].period &&
              !strcmp(tb[k].component, ta[i].component) && xb[k] == xa[i]);
        k++;
    }
    CHECK(k == nb);
    for (int i = 0; i < nb; i++)
        CHECK(strcmp(tb[i].measure, "PGA") && strcmp(tb[i].measure, "Arias"));
    im_config asked;
    CHECK_OK(im_config_parse(&asked, "3,5", &err), &err);
    CHECK_OK(im_config_band(&asked, 0.34, &err), &err);
    CHECK(asked.fmax == 0.34 && asked.nperiods == 2);
    CHECK_OK(im_config_parse(&asked, "5,1", &err), &err);
    CHECK(im_config_band(&asked, 0.34, &err) != 0 && strstr(err.message, "SA at 1 s") &&
          strstr(err.message, "0.34 Hz") && strstr(err.message, "1/fmax"));
    asked.nperiods = 0;
    CHECK_OK(im_config_band(&asked, 0.34, &err), &err);
    CHECK(asked.nperiods == 5 && asked.periods[0] == 3);
    free(ta), free(tb), free(xa), free(xb), free(v);
}

/* The Konno-Ohmachi window: 1 at fc, 0 at fc 10^(k pi/b) (k = +-1, +-2), 0 at f <= 0,
 * symmetric in log f, and of area 2 pi / (3 b) in log10 f (the integral of (sin x / x)^4 is
 * 2 pi / 3); a constant spectrum is smoothed to itself. */
TEST(im_konno_ohmachi_window) {
    const double b = 40, fc = 0.37;
    CHECK_NEAR(im_ko_window(fc, fc, b), 1.0, 1e-15);
    CHECK_NEAR(im_ko_window(fc * (1 + 1e-9), fc, b), 1.0, 1e-12);
    for (int k = 1; k <= 2; k++) {
        CHECK_NEAR(im_ko_window(fc * pow(10, k * M_PI / b), fc, b), 0.0, 1e-25);
        CHECK_NEAR(im_ko_window(fc * pow(10, -k * M_PI / b), fc, b), 0.0, 1e-25);
    }
    CHECK(im_ko_window(0, fc, b) == 0 && im_ko_window(-1, fc, b) == 0);
    /* (sin x / x)^4 at x = pi/2: (2/pi)^4 */
    CHECK_NEAR(im_ko_window(fc * pow(10, M_PI / (2 * b)), fc, b), pow(2 / M_PI, 4), 1e-14);
    CHECK_NEAR(im_ko_window(fc * 2, fc, b), im_ko_window(fc / 2, fc, b), 1e-15);
    double area = 0, h = 1e-5;
    for (double u = -3; u < 3; u += h) /* u = log10(f/fc), midpoint rule */
        area += h * im_ko_window(fc * pow(10, u + h / 2), fc, b);
    CHECK_NEAR(area, 2 * M_PI / (3 * b), 1e-6);
    int n = 4000;
    double *amp = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        amp[i] = 2.5;
    CHECK_NEAR(im_ko_smooth(amp, n, 0.001, 0.3, b), 2.5, 1e-12);
    /* a line through the bins: smoothed values lie within the window's span of the line */
    for (int i = 0; i < n; i++)
        amp[i] = (i + 1) * 0.001;
    double s = im_ko_smooth(amp, n, 0.001, 0.3, b);
    CHECK(s > 0.3 * pow(10, -M_PI / b) && s < 0.3 * pow(10, M_PI / b));
    free(amp);
}

/* FAS of a narrow Gaussian pulse of acceleration, exp(-(t - t0)^2 / (2 s^2)), whose spectrum
 * s sqrt(2 pi) exp(-2 pi^2 f^2 s^2) varies slowly (0.55% from 0 to 1/3 Hz): every component's
 * smoothed FAS (and EAS, from two equal components) is that value to 1e-3. */
TEST(im_fas_of_a_pulse) {
    int nt = 2000;
    double dt = 0.02, s = 0.05, t0 = 10;
    double *v = malloc(sizeof(double) * 3 * (size_t)nt);
    for (int i = 0; i < nt; i++) {
        double t = i * dt;
        v[i] = s * sqrt(M_PI / 2) * (1 + erf((t - t0) / (s * M_SQRT2)));
        v[nt + i] = v[i];
        v[2 * nt + i] = 0.5 * v[i];
    }
    im_config c;
    cs_error err;
    CHECK_OK(im_config_parse(&c, "3,5,10", &err), &err);
    im_type *t;
    int n;
    CHECK_OK(im_types(&c, &t, &n, &err), &err);
    double *x = malloc(sizeof(double) * (size_t)n);
    CHECK_OK(im_compute(&c, v, nt, dt, x, &err), &err);
    int nfas = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(t[i].measure, "FAS")) continue;
        double f = 1 / t[i].period;
        double want = s * sqrt(2 * M_PI) * exp(-2 * M_PI * M_PI * f * f * s * s) *
                      (strcmp(t[i].component, "Z") ? 1 : 0.5);
        CHECK_MSG(fabs(x[i] / want - 1) < 1e-3, "FAS %g s %s: %g, want %g", t[i].period,
                  t[i].component, x[i], want);
        CHECK(!strcmp(t[i].units, "m/s"));
        nfas++;
    }
    CHECK(nfas == 3 * 4);
    free(t), free(x), free(v);
}

/* One workspace reused over records of other lengths, steps, periods, components and bands
 * gives what a fresh one gives, bit for bit: nothing it keeps (spectra, Konno-Ohmachi bins,
 * the durations' filters) outlives what it was made for. */
TEST(im_workspace_reuse_is_exact) {
    cs_error err;
    struct {
        int nt, vertical;
        double dt, fmax, periods[3];
    } cases[7] = {{3000, 1, 0.05, 0.5, {2, 3, 5}},  {3000, 1, 0.1, 0.5, {2, 3, 5}},
                  {1200, 0, 0.05, 0.5, {2, 3, 5}},  {3000, 1, 0.05, 0, {2, 4, 10}},
                  {3000, 0, 0.1, 0.25, {4, 5, 10}}, {5000, 1, 0.02, 1.0, {1, 1.5, 3}},
                  {3000, 1, 0.05, 0.5, {2, 3, 5}}};
    im_workspace *ws = im_workspace_new();
    CHECK(ws != NULL);
    double *v = malloc(sizeof(double) * 3 * 5000);
    double *a = malloc(sizeof(double) * IM_MAX_TYPES), *b = malloc(sizeof(double) * IM_MAX_TYPES);
    CHECK(v && a && b);
    for (int c = 0; c < 7; c++) {
        im_config cfg;
        im_config_default(&cfg, cases[c].fmax);
        cfg.nperiods = 3;
        memcpy(cfg.periods, cases[c].periods, sizeof cfg.periods[0] * 3);
        cfg.vertical = cases[c].vertical;
        int nt = cases[c].nt;
        for (int i = 0; i < 3 * nt; i++) {
            double t = (i % nt) * cases[c].dt;
            v[i] = exp(-0.1 * t) * sin((1.3 + i / nt + c) * t) * (t > 1);
        }
        im_type *types;
        int n;
        CHECK_OK(im_types(&cfg, &types, &n, &err), &err);
        free(types);
        CHECK_OK(im_compute_in(ws, &cfg, v, nt, cases[c].dt, a, &err), &err);
        CHECK_OK(im_compute(&cfg, v, nt, cases[c].dt, b, &err), &err);
        CHECK(n > 0 && memcmp(a, b, sizeof(double) * (size_t)n) == 0);
    }
    im_workspace_free(ws);
    free(v);
    free(a);
    free(b);
}

/* The device's layout (im.h's "given") read into the right places: a given vector built from
 * the host's own measures by their types (the measure, period and component of each), handed
 * back, gives the same values bit for bit; a given value changed changes only its measure. */
static int given_slot(const im_type *t, const im_config *c) {
    const int np = c->nperiods;
    int p = 0;
    while (p < np && c->periods[p] != t->period)
        p++;
    static const char *comp[4] = {"E", "N", "Z", "EAS"};
    int f = 0;
    while (f < 4 && strcmp(t->component, comp[f]))
        f++;
    if (!strcmp(t->measure, "SA")) {
        static const char *sa[4] = {"RotD50", "RotD100", "geometric mean", "Z"};
        int j = 0;
        while (j < 4 && strcmp(t->component, sa[j]))
            j++;
        return 4 * p + j;
    }
    if (!strcmp(t->measure, "PGV"))
        return IM_GIVEN_PGV(np) + (strcmp(t->component, "RotD50") ? 1 + f : 0);
    if (!strcmp(t->measure, "FAS")) return IM_GIVEN_FAS(np) + 4 * p + f;
    if (t->period > 0 && !strcmp(t->measure, "D5-75")) return IM_GIVEN_DUR(np) + 6 * p + f;
    if (t->period > 0 && !strcmp(t->measure, "D5-95")) return IM_GIVEN_DUR(np) + 6 * p + 3 + f;
    return -1;
}

TEST(im_given_layout_is_read_in_place) {
    cs_error err;
    for (int vertical = 0; vertical < 2; vertical++) {
        im_config cfg;
        im_config_default(&cfg, 1.0);
        cfg.vertical = vertical;
        const int nt = 2000;
        const double dt = 0.05;
        double *v = malloc(sizeof(double) * 3 * nt), *a = malloc(sizeof(double) * IM_MAX_TYPES);
        double *b = malloc(sizeof(double) * IM_MAX_TYPES);
        double given[IM_GIVEN_VALUES(IM_MAX_PERIODS)];
        CHECK(v && a && b);
        for (int i = 0; i < 3 * nt; i++) {
            double t = (i % nt) * dt;
            v[i] = exp(-0.2 * t) * sin((0.9 + 0.4 * (i / nt)) * t) * (t > 2);
        }
        im_type *types;
        int n;
        CHECK_OK(im_types(&cfg, &types, &n, &err), &err);
        CHECK_OK(im_compute(&cfg, v, nt, dt, a, &err), &err);
        for (int i = 0; i < IM_GIVEN_VALUES(cfg.nperiods); i++)
            given[i] = NAN;
        int placed = 0;
        for (int i = 0; i < n; i++) {
            int at = given_slot(&types[i], &cfg);
            CHECK(at >= 0 && at < IM_GIVEN_VALUES(cfg.nperiods));
            CHECK(isnan(given[at]));
            given[at] = a[i];
            placed++;
        }
        CHECK(placed == n && n > 20);
        im_workspace *ws = im_workspace_new();
        CHECK_OK(im_compute_in_given(ws, &cfg, v, nt, dt, given, b, &err), &err);
        CHECK(memcmp(a, b, sizeof(double) * (size_t)n) == 0);
        /* each given value lands on its own measure only */
        for (int i = 0; i < n; i += 7) {
            int at = given_slot(&types[i], &cfg);
            double keep = given[at];
            given[at] = -1;
            CHECK_OK(im_compute_in_given(ws, &cfg, v, nt, dt, given, b, &err), &err);
            for (int j = 0; j < n; j++)
                CHECK(j == i ? b[j] == -1 : b[j] == a[j]);
            given[at] = keep;
        }
        im_workspace_free(ws);
        free(types);
        free(v);
        free(a);
        free(b);
    }
}
