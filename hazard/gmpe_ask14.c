/* Abrahamson, Silva and Kamai (2014), NGA-West2, California (gmpe.h). Coefficients from the
 * published table (the paper's Tables 4-6, California's columns, as OpenQuake's hazardlib
 * carries them: gem/oq-hazardlib at 006d9140, openquake/hazardlib/gsim/abrahamson_2014.py);
 * the equations' numbers are the paper's. */
#include <math.h>
#include <stddef.h>

#include "gmpe.h"

/* Coefficients the same for every period. */
#define ASK_N      1.5
#define ASK_M2     5.0
#define ASK_A2HW   0.2
#define ASK_H1     0.25
#define ASK_H2     1.5
#define ASK_H3     (-0.75)
#define ASK_PHIAMP 0.4
#define ASK_VREF   1180.0

typedef struct {
    double period; /* 0: PGA */
    double m1, vlin, b, c, c4, a1, a2, a3, a4, a5, a6, a7, a8, a10, a11, a12, a13, a15, a17, a43,
        a44, a45, a46, s1e, s2e, s3, s4, s1m, s2m;
} ask14_coeffs;

#define ASK_NPER 23
static const ask14_coeffs ask14[ASK_NPER] = {
    {0,     6.75,  660, -1.47,  2.4,   4.5,  0.587, -0.79, 0.275, -0.1,
     -0.41, 2.154, 0.0, -0.015, 1.735, 0,    -0.1,  0.6,   1.1,   -0.0072,
     0.1,   0.05,  0,   -0.05,  0.754, 0.52, 0.47,  0.36,  0.741, 0.501},
    {0.01,  6.75,  660, -1.47,  2.4,   4.5,  0.587, -0.790, 0.275, -0.1,
     -0.41, 2.154, 0.0, -0.015, 1.735, 0,    -0.1,  0.6,    1.1,   -0.0072,
     0.1,   0.05,  0,   -0.05,  0.754, 0.52, 0.47,  0.36,   0.741, 0.501},
    {0.02,  6.75,  680, -1.46,  2.4,   4.5,  0.598, -0.790, 0.275, -0.1,
     -0.41, 2.146, 0.0, -0.015, 1.718, 0,    -0.1,  0.6,    1.1,   -0.0073,
     0.1,   0.05,  0,   -0.05,  0.76,  0.52, 0.47,  0.36,   0.747, 0.501},
    {0.03,  6.75,  770, -1.39,  2.4,   4.5,  0.602, -0.790, 0.275, -0.1,
     -0.41, 2.157, 0.0, -0.015, 1.615, 0,    -0.1,  0.6,    1.1,   -0.0075,
     0.1,   0.05,  0,   -0.05,  0.781, 0.52, 0.47,  0.36,   0.769, 0.501},
    {0.05,  6.75,  915, -1.22,  2.4,   4.5,  0.707, -0.790, 0.275, -0.1,
     -0.41, 2.085, 0.0, -0.015, 1.358, 0,    -0.1,  0.6,    1.1,   -0.008,
     0.1,   0.05,  0,   -0.05,  0.81,  0.53, 0.47,  0.36,   0.798, 0.512},
    {0.075, 6.75,  960, -1.15,  2.4,   4.5,  0.973, -0.790, 0.275, -0.1,
     -0.41, 2.029, 0.0, -0.015, 1.258, 0,    -0.1,  0.6,    1.1,   -0.0089,
     0.1,   0.05,  0,   -0.05,  0.81,  0.54, 0.47,  0.36,   0.798, 0.522},
    {0.1,   6.75,  910, -1.23,  2.4,  4.5,  1.169, -0.790, 0.275, -0.1,
     -0.41, 2.041, 0.0, -0.015, 1.31, 0,    -0.1,  0.6,    1.1,   -0.0095,
     0.1,   0.05,  0,   -0.05,  0.81, 0.55, 0.47,  0.36,   0.795, 0.527},
    {0.15,  6.75,  740, -1.59,  2.4,   4.5,  1.442, -0.790, 0.275, -0.1,
     -0.41, 2.121, 0.0, -0.022, 1.66,  0,    -0.1,  0.6,    1.1,   -0.0095,
     0.1,   0.05,  0,   -0.05,  0.801, 0.56, 0.47,  0.36,   0.773, 0.519},
    {0.2,   6.75,  590, -2.01, 2.4,   4.5,   1.637, -0.790, 0.275, -0.1,
     -0.41, 2.224, 0.0, -0.03, 2.22,  0,     -0.1,  0.6,    1.1,   -0.0086,
     0.1,   0.05,  0,   -0.03, 0.789, 0.565, 0.47,  0.36,   0.753, 0.514},
    {0.25,  6.75,  495, -2.41,  2.4,  4.5,  1.701, -0.790, 0.275, -0.1,
     -0.41, 2.312, 0.0, -0.038, 2.77, 0,    -0.1,  0.6,    1.1,   -0.0074,
     0.1,   0.05,  0,   0,      0.77, 0.57, 0.47,  0.36,   0.729, 0.513},
    {0.3,   6.75,  430,  -2.76,  2.4,  4.5,  1.712, -0.790, 0.275, -0.1,
     -0.41, 2.338, 0.0,  -0.045, 3.25, 0,    -0.1,  0.6,    1.03,  -0.0064,
     0.1,   0.05,  0.03, 0.03,   0.74, 0.58, 0.47,  0.36,   0.693, 0.519},
    {0.4,   6.75,  360,  -3.28,  2.4,   4.5,  1.662, -0.790, 0.275, -0.1,
     -0.41, 2.469, 0.0,  -0.055, 3.99,  0,    -0.1,  0.58,   0.92,  -0.0043,
     0.1,   0.07,  0.06, 0.06,   0.699, 0.59, 0.47,  0.36,   0.644, 0.524},
    {0.5,   6.75,  340, -3.6,   2.4,   4.5, 1.571, -0.790, 0.275, -0.1,
     -0.41, 2.559, 0.0, -0.065, 4.45,  0,   -0.1,  0.56,   0.84,  -0.0032,
     0.1,   0.1,   0.1, 0.09,   0.676, 0.6, 0.47,  0.36,   0.616, 0.532},
    {0.75,  6.75,  330,  -3.8,   2.4,   4.5,   1.299, -0.790, 0.275, -0.1,
     -0.41, 2.682, 0.0,  -0.095, 4.75,  0,     -0.1,  0.53,   0.68,  -0.0025,
     0.14,  0.14,  0.14, 0.13,   0.631, 0.615, 0.47,  0.36,   0.566, 0.548},
    {1,     6.75,  330,  -3.5,  2.4,   4.5,  1.043, -0.790, 0.275, -0.1,
     -0.41, 2.763, 0.0,  -0.11, 4.3,   0,    -0.1,  0.5,    0.57,  -0.0025,
     0.17,  0.17,  0.17, 0.14,  0.609, 0.63, 0.47,  0.36,   0.541, 0.565},
    {1.5,   6.75,  330, -2.4,   2.4,   4.5,  0.665, -0.790, 0.275, -0.1,
     -0.41, 2.836, 0.0, -0.124, 2.6,   0,    -0.1,  0.42,   0.42,  -0.0022,
     0.22,  0.21,  0.2, 0.16,   0.578, 0.64, 0.47,  0.36,   0.506, 0.576},
    {2,     6.75,  330,  -1,     2.4,   4.5,  0.329, -0.790, 0.275, -0.1,
     -0.41, 2.897, 0.0,  -0.138, 0.55,  0,    -0.1,  0.35,   0.31,  -0.0019,
     0.26,  0.25,  0.22, 0.16,   0.555, 0.65, 0.47,  0.36,   0.48,  0.587},
    {3,     6.82,  330,  0,      2.4,   4.5,  -0.060, -0.790, 0.275, -0.1,
     -0.41, 2.906, 0.0,  -0.172, -0.95, 0,    -0.1,   0.2,    0.16,  -0.0015,
     0.34,  0.3,   0.23, 0.16,   0.548, 0.64, 0.47,   0.36,   0.472, 0.576},
    {4,     6.92,  330,  0,      2.4,   4.5,  -0.299, -0.790, 0.275, -0.1,
     -0.41, 2.889, 0.0,  -0.197, -0.95, 0,    -0.1,   0,      0.05,  -0.001,
     0.41,  0.32,  0.23, 0.14,   0.527, 0.63, 0.47,   0.36,   0.447, 0.565},
    {5,     7,     330,  0,      2.4,   4.5,  -0.562, -0.765, 0.275, -0.1,
     -0.41, 2.898, 0.0,  -0.218, -0.93, 0,    -0.1,   0,      -0.04, -0.001,
     0.51,  0.32,  0.22, 0.13,   0.505, 0.63, 0.47,   0.36,   0.425, 0.568},
    {6,     7.06,  330, 0,      2.4,   4.5,  -0.875, -0.711, 0.275, -0.1,
     -0.41, 2.896, 0.0, -0.235, -0.91, 0,    -0.2,   0,      -0.11, -0.001,
     0.55,  0.32,  0.2, 0.1,    0.477, 0.63, 0.47,   0.36,   0.395, 0.571},
    {7.5,   7.15,  330,  0,      2.4,   4.5,  -1.303, -0.634, 0.275, -0.1,
     -0.41, 2.870, 0.0,  -0.255, -0.87, 0,    -0.2,   0,      -0.19, -0.001,
     0.49,  0.28,  0.17, 0.09,   0.457, 0.63, 0.47,   0.36,   0.378, 0.575},
    {10,    7.25,  330,  0,      2.4,   4.5,  -1.928, -0.529, 0.275, -0.1,
     -0.41, 2.843, 0.0,  -0.285, -0.8,  0,    -0.2,   0,      -0.3,  -0.001,
     0.42,  0.22,  0.14, 0.08,   0.429, 0.63, 0.47,   0.36,   0.359, 0.585},
};

/* Vs30* (eqs. 8, 9): Vs30 capped at V1, which falls from 1500 m/s at 0.5 s to 800 m/s at 3 s. */
static double vs30_star(double period, double vs30) {
    const double v1 = period <= 0.5 ? 1500 : period < 3 ? 1500 * pow(period / 0.5, -0.35) : 800;
    return fmin(vs30, v1);
}

/* The site response (eq. 7) at Vs30, nonlinear below Vlin, driven by Sa1180. */
static double site(const ask14_coeffs *c, double vs30, double sa1180) {
    const double x = vs30_star(c->period, vs30) / c->vlin;
    if (vs30 >= c->vlin) return (c->a10 + c->b * ASK_N) * log(x);
    return c->a10 * log(x) - c->b * log(sa1180 + c->c) + c->b * log(sa1180 + c->c * pow(x, ASK_N));
}

/* The hanging-wall term (eqs. 10-15), Rx > 0 and dip < 90 only; without Ry0 its taper on Rjb. */
static double hanging_wall(const ask14_coeffs *c, const gmpe_scenario *s, double width) {
    if (!(s->rx > 0) || s->dip >= 90) return 0;
    const double m = s->mag;
    const double t1 = s->dip <= 30 ? 60.0 / 45 : (90 - s->dip) / 45;
    const double t2 = m > 6.5   ? 1 + ASK_A2HW * (m - 6.5)
                      : m > 5.5 ? 1 + ASK_A2HW * (m - 6.5) - (1 - ASK_A2HW) * (m - 6.5) * (m - 6.5)
                                : 0;
    const double r1 = width * cos(s->dip * M_PI / 180), r2 = 3 * r1;
    double t3 = 0;
    if (s->rx < r1)
        t3 = ASK_H1 + ASK_H2 * (s->rx / r1) + ASK_H3 * (s->rx / r1) * (s->rx / r1);
    else if (s->rx <= r2)
        t3 = 1 - (s->rx - r1) / (r2 - r1);
    const double t4 = s->ztor <= 10 ? 1 - s->ztor * s->ztor / 100 : 0;
    double t5;
    if (isfinite(s->ry0)) {
        const double d = s->ry0 - s->rx * tan(20 * M_PI / 180);
        t5 = d <= 0 ? 1 : d < 5 ? 1 - d / 5 : 0;
    } else {
        t5 = s->rjb < 30 ? 1 - s->rjb / 30 : 0;
    }
    return c->a13 * t1 * t2 * t3 * t4 * t5;
}

/* ln Sa (g) at tabulated period c without the site and soil-depth terms: the base form (eqs. 2-
 * 6), style of faulting, hanging wall, Ztor (eq. 16). */
static double source_path(const ask14_coeffs *c, const gmpe_scenario *s, double width) {
    const double m = s->mag;
    const double c4m = m > 5 ? c->c4 : m > 4 ? c->c4 - (c->c4 - 1) * (5 - m) : 1;
    const double r = sqrt(s->rrup * s->rrup + c4m * c4m);
    double f = c->a1 + c->a17 * s->rrup;
    if (m > c->m1)
        f += c->a5 * (m - c->m1) + c->a8 * (8.5 - m) * (8.5 - m) +
             (c->a2 + c->a3 * (m - c->m1)) * log(r);
    else if (m >= ASK_M2)
        f += c->a4 * (m - c->m1) + c->a8 * (8.5 - m) * (8.5 - m) +
             (c->a2 + c->a3 * (m - c->m1)) * log(r);
    else
        f += c->a4 * (ASK_M2 - c->m1) + c->a8 * (8.5 - ASK_M2) * (8.5 - ASK_M2) +
             c->a6 * (m - ASK_M2) + c->a7 * (m - ASK_M2) * (m - ASK_M2) +
             (c->a2 + c->a3 * (ASK_M2 - c->m1)) * log(r);
    const double rk = fmod(s->rake + 540.0, 360.0) - 180.0; /* [-180, 180) */
    const double w = m > 5 ? 1 : m >= 4 ? m - 4 : 0;
    if (rk > 30 && rk < 150) f += c->a11 * w;
    if (rk > -150 && rk < -30) f += c->a12 * w;
    f += hanging_wall(c, s, width);
    f += c->a15 * fmin(s->ztor, 20) / 20;
    return f;
}

/* The soil-depth term (eq. 17) on Z1.0 against its California reference for the Vs30 (eq. 18);
 * none when Z1.0 is unknown. */
static double soil_depth(const ask14_coeffs *c, double vs30, double z1_m) {
    if (!isfinite(z1_m)) return 0;
    const double v4 = pow(vs30, 4), r4 = pow(610.0, 4), x4 = pow(1360.0, 4);
    const double z1ref = exp(-7.67 / 4 * log((v4 + r4) / (x4 + r4))) / 1000; /* km */
    static const double vs[5] = {150, 250, 400, 700, 1000};
    const double a[5] = {c->a43, c->a44, c->a45, c->a46, c->a46};
    double f = a[4];
    if (vs30 <= vs[0])
        f = a[0];
    else
        for (int k = 0; k < 4; k++)
            if (vs30 <= vs[k + 1]) {
                f = a[k] + (a[k + 1] - a[k]) * (vs30 - vs[k]) / (vs[k + 1] - vs[k]);
                break;
            }
    return f * log((z1_m / 1000 + 0.01) / (z1ref + 0.01));
}

/* Median and sigma at tabulated period i (eqs. 1, 23-30): Sa1180 the same period's rock value,
 * phi and tau with the site response's derivative on it. */
static void at(int i, const gmpe_scenario *s, double width, gmpe_value *v) {
    const ask14_coeffs *c = &ask14[i];
    const double sp = source_path(c, s, width);
    const double sa1180 = exp(sp + site(c, ASK_VREF, 0));
    v->ln_median = sp + site(c, s->vs30, sa1180) + soil_depth(c, s->vs30, s->z1_m);
    const double m = s->mag;
    const double s1 = s->vs30_measured ? c->s1m : c->s1e, s2 = s->vs30_measured ? c->s2m : c->s2e;
    const double phi_a = m < 4 ? s1 : m <= 6 ? s1 + (s2 - s1) / 2 * (m - 4) : s2;
    const double tau_a = m < 5 ? c->s3 : m <= 7 ? c->s3 + (c->s4 - c->s3) / 2 * (m - 5) : c->s4;
    double damp = 0;
    if (s->vs30 < c->vlin)
        damp = c->b * sa1180 *
               (-1 / (sa1180 + c->c) + 1 / (sa1180 + c->c * pow(s->vs30 / c->vlin, ASK_N)));
    const double phi_b2 = phi_a * phi_a - ASK_PHIAMP * ASK_PHIAMP;
    v->phi = sqrt(phi_b2 * (1 + damp) * (1 + damp) + ASK_PHIAMP * ASK_PHIAMP);
    v->tau = tau_a * (1 + damp);
    v->sigma = sqrt(v->phi * v->phi + v->tau * v->tau);
}

int gmpe_ask14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err) {
    if (!(period >= 0 && period <= 10))
        return cs_error_input(err, "GMPE ASK14", "period", NULL,
                              "%g s is outside the model's 0 (PGA) to 10 s", period);
    if (!(s->mag > 0) || !(s->rrup >= 0) || !(s->rjb >= 0) || !(s->vs30 > 0) ||
        !(s->dip > 0 && s->dip <= 90) || !(s->ztor >= 0) || !isfinite(s->rx) ||
        !isfinite(s->rake) || !(isnan(s->width) || s->width > 0) ||
        !(isnan(s->ry0) || s->ry0 >= 0) || !(isnan(s->z1_m) || s->z1_m >= 0))
        return cs_error_set(err, CS_ERR_INPUT,
                            "ASK14: M %g, rake %g, Rrup %g km, Rjb %g km, Rx %g km, Ry0 %g km, "
                            "dip %g, Ztor %g km, width %g km, Vs30 %g m/s, Z1.0 %g m out of range",
                            s->mag, s->rake, s->rrup, s->rjb, s->rx, s->ry0, s->dip, s->ztor,
                            s->width, s->vs30, s->z1_m);
    /* the width unknown: the NGA-West2 spreadsheet's estimate */
    const double width = isfinite(s->width)
                             ? s->width
                             : fmin(18 / sin(s->dip * M_PI / 180), pow(10, -1.75 + 0.45 * s->mag));
    if (period == 0) {
        at(0, s, width, out);
        return 0;
    }
    const double p = fmax(period, 0.01);
    int i = 1;
    while (i < ASK_NPER - 1 && ask14[i + 1].period <= p)
        i++;
    if (ask14[i].period == p || i == ASK_NPER - 1) {
        at(i, s, width, out);
        return 0;
    }
    gmpe_value a, b;
    at(i, s, width, &a);
    at(i + 1, s, width, &b);
    const double t = log(p / ask14[i].period) / log(ask14[i + 1].period / ask14[i].period);
    out->ln_median = a.ln_median + t * (b.ln_median - a.ln_median);
    out->sigma = a.sigma + t * (b.sigma - a.sigma);
    out->tau = a.tau + t * (b.tau - a.tau);
    out->phi = a.phi + t * (b.phi - a.phi);
    return 0;
}
