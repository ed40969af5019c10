/* Campbell and Bozorgnia (2014), NGA-West2, California and global (gmpe.h). Coefficients from
 * the published table (the paper's Table 1 with the sigma coefficients of its Table 2, as
 * OpenQuake's hazardlib carries them: gem/oq-hazardlib at 006d9140,
 * openquake/hazardlib/gsim/campbell_bozorgnia_2014.py, its 0.08 s row being the paper's
 * 0.075 s); the equations' numbers are the paper's. */
#include <math.h>
#include <stddef.h>

#include "gmpe.h"

/* Coefficients the same for every period (non-Japan): c8, h4, c, n and phi_lnAF. */
#define CB_C8     0.0
#define CB_H4     1.0
#define CB_C      1.88
#define CB_N      1.18
#define CB_PHI_AF 0.3
#define CB_ZBOT   15.0 /* km, the seismogenic depth for the width estimate (eq. 39) */

typedef struct {
    double period; /* 0: PGA */
    double c0, c1, c2, c3, c4, c5, c6, c7, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19,
        c20, dc20, a2, h1, h2, h3, h5, h6, k1, k2, k3, phi1, phi2, tau1, tau2, phic, rho;
} cb14_coeffs;

#define CB_NPER 22
static const cb14_coeffs cb14[CB_NPER] = {
    {0,       -4.416, 0.984, 0.537, -1.499,  -0.496, -2.773, 0.248,  6.768,  -0.212,
     0.720,   1.090,  2.186, 1.420, -0.0064, -0.202, 0.393,  0.0977, 0.0333, 0.00757,
     -0.0055, 0.0000, 0.167, 0.241, 1.474,   -0.715, -0.337, -0.270, 865,    -1.186,
     1.839,   0.734,  0.492, 0.409, 0.322,   0.166,  1.000},
    {0.01,    -4.365, 0.977, 0.533, -1.485,  -0.499, -2.773, 0.248,  6.753,  -0.214,
     0.720,   1.094,  2.191, 1.416, -0.0070, -0.207, 0.390,  0.0981, 0.0334, 0.00755,
     -0.0055, 0.0000, 0.168, 0.242, 1.471,   -0.714, -0.336, -0.270, 865,    -1.186,
     1.839,   0.734,  0.492, 0.404, 0.325,   0.166,  1.000},
    {0.02,    -4.348, 0.976, 0.549, -1.488,  -0.501, -2.772, 0.247,  6.502,  -0.208,
     0.730,   1.149,  2.189, 1.453, -0.0167, -0.199, 0.387,  0.1009, 0.0327, 0.00759,
     -0.0055, 0.0000, 0.166, 0.244, 1.467,   -0.711, -0.339, -0.263, 865,    -1.219,
     1.840,   0.738,  0.496, 0.417, 0.326,   0.166,  0.998},
    {0.03,    -4.024, 0.931, 0.628, -1.494,  -0.517, -2.782, 0.246,  6.291,  -0.213,
     0.759,   1.290,  2.164, 1.476, -0.0422, -0.202, 0.378,  0.1095, 0.0331, 0.00790,
     -0.0057, 0.0000, 0.167, 0.246, 1.467,   -0.713, -0.338, -0.259, 908,    -1.273,
     1.841,   0.747,  0.503, 0.446, 0.344,   0.165,  0.986},
    {0.05,    -3.479, 0.887, 0.674, -1.388,  -0.615, -2.791, 0.240,  6.317,  -0.244,
     0.826,   1.449,  2.138, 1.549, -0.0663, -0.339, 0.295,  0.1226, 0.0270, 0.00803,
     -0.0063, 0.0000, 0.173, 0.251, 1.449,   -0.701, -0.338, -0.263, 1054,   -1.346,
     1.843,   0.777,  0.520, 0.508, 0.377,   0.162,  0.938},
    {0.075,   -3.293, 0.902, 0.726, -1.469,  -0.596, -2.745, 0.227,  6.861,  -0.266,
     0.815,   1.535,  2.446, 1.772, -0.0794, -0.404, 0.322,  0.1165, 0.0288, 0.00811,
     -0.0070, 0.0000, 0.198, 0.260, 1.435,   -0.695, -0.347, -0.219, 1086,   -1.471,
     1.845,   0.782,  0.535, 0.504, 0.418,   0.158,  0.887},
    {0.10,    -3.666, 0.993, 0.698, -1.572,  -0.536, -2.633, 0.210,  7.294,  -0.229,
     0.831,   1.615,  2.969, 1.916, -0.0294, -0.416, 0.384,  0.0998, 0.0325, 0.00744,
     -0.0073, 0.0000, 0.174, 0.259, 1.449,   -0.708, -0.391, -0.201, 1032,   -1.624,
     1.847,   0.769,  0.543, 0.445, 0.426,   0.170,  0.870},
    {0.15,    -4.866, 1.267, 0.510, -1.669, -0.490, -2.458, 0.183,  8.031,  -0.211,
     0.749,   1.877,  3.544, 2.161, 0.0642, -0.407, 0.417,  0.0760, 0.0388, 0.00716,
     -0.0069, 0.0000, 0.198, 0.254, 1.461,  -0.715, -0.449, -0.099, 878,    -1.931,
     1.852,   0.769,  0.543, 0.382, 0.387,  0.180,  0.876},
    {0.20,    -5.411, 1.366, 0.447, -1.750, -0.451, -2.421, 0.182,  8.385,  -0.163,
     0.764,   2.069,  3.707, 2.465, 0.0968, -0.311, 0.404,  0.0571, 0.0437, 0.00688,
     -0.0060, 0.0000, 0.204, 0.237, 1.484,  -0.721, -0.393, -0.198, 748,    -2.188,
     1.856,   0.761,  0.552, 0.339, 0.338,  0.186,  0.870},
    {0.25,    -5.962, 1.458, 0.274, -1.711, -0.404, -2.392, 0.189,  7.534,  -0.150,
     0.716,   2.205,  3.343, 2.766, 0.1441, -0.172, 0.466,  0.0437, 0.0463, 0.00556,
     -0.0055, 0.0000, 0.185, 0.206, 1.581,  -0.787, -0.339, -0.210, 654,    -2.381,
     1.861,   0.744,  0.545, 0.340, 0.316,  0.191,  0.850},
    {0.30,    -6.403, 1.528, 0.193, -1.770, -0.321, -2.376, 0.195,  6.990,  -0.131,
     0.737,   2.306,  3.334, 3.011, 0.1597, -0.084, 0.528,  0.0323, 0.0508, 0.00458,
     -0.0049, 0.0000, 0.164, 0.210, 1.586,  -0.795, -0.447, -0.121, 587,    -2.518,
     1.865,   0.727,  0.568, 0.340, 0.300,  0.198,  0.819},
    {0.40,    -7.566, 1.739, -0.020, -1.594, -0.426, -2.303, 0.185,  7.012,  -0.159,
     0.738,   2.398,  3.544, 3.203,  0.1410, 0.085,  0.540,  0.0209, 0.0432, 0.00401,
     -0.0037, 0.0000, 0.160, 0.226,  1.544,  -0.770, -0.525, -0.086, 503,    -2.657,
     1.874,   0.690,  0.593, 0.356,  0.264,  0.206,  0.743},
    {0.50,    -8.379, 1.872, -0.121, -1.577, -0.440, -2.296, 0.186,  6.902,  -0.153,
     0.718,   2.355,  3.016, 3.333,  0.1474, 0.233,  0.638,  0.0092, 0.0405, 0.00388,
     -0.0027, 0.0000, 0.184, 0.217,  1.554,  -0.770, -0.407, -0.281, 457,    -2.669,
     1.883,   0.663,  0.611, 0.379,  0.263,  0.208,  0.684},
    {0.75,    -9.841, 2.021, -0.042, -1.757, -0.443, -2.232, 0.186,   5.522,  -0.090,
     0.795,   1.995,  2.616, 3.054,  0.1764, 0.411,  0.776,  -0.0082, 0.0420, 0.00420,
     -0.0016, 0.0000, 0.216, 0.154,  1.626,  -0.780, -0.371, -0.285,  410,    -2.401,
     1.906,   0.606,  0.633, 0.430,  0.326,  0.221,  0.562},
    {1.00,    -11.011, 2.180, -0.069, -1.707, -0.527, -2.158, 0.169,   5.650,  -0.105,
     0.556,   1.447,   2.470, 2.562,  0.2593, 0.479,  0.771,  -0.0131, 0.0426, 0.00409,
     -0.0006, 0.0000,  0.596, 0.117,  1.616,  -0.733, -0.128, -0.756,  400,    -1.955,
     1.929,   0.579,   0.628, 0.470,  0.353,  0.225,  0.467},
    {1.50,   -12.469, 2.270, 0.047, -1.621, -0.630, -2.063, 0.158,   5.795,  -0.058,
     0.480,  0.330,   2.108, 1.453, 0.2881, 0.566,  0.748,  -0.0187, 0.0380, 0.00424,
     0.0000, 0.0000,  0.596, 0.117, 1.616,  -0.733, -0.128, -0.756,  400,    -1.025,
     1.974,  0.541,   0.603, 0.497, 0.399,  0.222,  0.364},
    {2.00,   -12.969, 2.271, 0.149, -1.512, -0.768, -2.104, 0.158,   6.632,  -0.028,
     0.401,  -0.514,  1.327, 0.657, 0.3112, 0.562,  0.763,  -0.0258, 0.0252, 0.00448,
     0.0000, 0.0000,  0.596, 0.117, 1.616,  -0.733, -0.128, -0.756,  400,    -0.299,
     2.019,  0.529,   0.588, 0.499, 0.400,  0.226,  0.298},
    {3.00,   -13.306, 2.150, 0.368, -1.315, -0.890, -2.051, 0.148,   6.759,  0.000,
     0.206,  -0.848,  0.601, 0.367, 0.3478, 0.534,  0.686,  -0.0311, 0.0236, 0.00345,
     0.0000, 0.0000,  0.596, 0.117, 1.616,  -0.733, -0.128, -0.756,  400,    0.000,
     2.110,  0.527,   0.578, 0.500, 0.417,  0.229,  0.234},
    {4.00,   -14.020, 2.132, 0.726, -1.506, -0.885, -1.986, 0.135,   7.978,  0.000,
     0.105,  -0.793,  0.568, 0.306, 0.3747, 0.522,  0.691,  -0.0413, 0.0102, 0.00603,
     0.0000, 0.0000,  0.596, 0.117, 1.616,  -0.733, -0.128, -0.756,  400,    0.000,
     2.200,  0.521,   0.559, 0.543, 0.393,  0.237,  0.202},
    {5.00,   -14.558, 2.116, 1.027, -1.721, -0.878, -2.021, 0.135,   8.538,  0.000,
     0.000,  -0.748,  0.356, 0.268, 0.3382, 0.477,  0.670,  -0.0281, 0.0034, 0.00805,
     0.0000, 0.0000,  0.596, 0.117, 1.616,  -0.733, -0.128, -0.756,  400,    0.000,
     2.291,  0.502,   0.551, 0.534, 0.421,  0.237,  0.184},
    {7.50,   -15.509, 2.223, 0.169, -0.756, -1.077, -2.179, 0.165,   8.468,  0.000,
     0.000,  -0.664,  0.075, 0.374, 0.3754, 0.321,  0.757,  -0.0205, 0.0050, 0.00280,
     0.0000, 0.0000,  0.596, 0.117, 1.616,  -0.733, -0.128, -0.756,  400,    0.000,
     2.517,  0.457,   0.546, 0.523, 0.438,  0.271,  0.176},
    {10.0,   -15.975, 2.132,  0.367, -0.800, -1.282, -2.244, 0.180,  6.564,  0.000,
     0.000,  -0.576,  -0.027, 0.297, 0.3506, 0.174,  0.621,  0.0009, 0.0099, 0.00458,
     0.0000, 0.0000,  0.596,  0.117, 1.616,  -0.733, -0.128, -0.756, 400,    0.000,
     2.744,  0.441,   0.543,  0.466, 0.438,  0.290,  0.154},
};

/* The rupture's width and hypocentre depth: given, or the paper's estimates (eqs. 35-39). */
typedef struct {
    double width, zhyp;
} cb_geometry;

static cb_geometry geometry(const gmpe_scenario *s) {
    const double sind = sin(s->dip * M_PI / 180);
    cb_geometry g = {s->width, s->zhyp};
    if (!isfinite(g.width)) {
        g.width = sqrt(pow(10, (s->mag - 4.07) / 0.98));
        if (s->ztor < CB_ZBOT) g.width = fmin(g.width, (CB_ZBOT - s->ztor) / sind);
    }
    if (!isfinite(g.zhyp)) {
        const double zbor = s->ztor + g.width * sind;
        const double ln_dz =
            fmin(fmin(-4.317 + 0.984 * s->mag, 2.325) + fmin(0.0445 * (s->dip - 40), 0),
                 log(0.9 * (zbor - s->ztor)));
        g.zhyp = s->ztor + exp(ln_dz);
    }
    return g;
}

/* The terms that do not depend on the site: magnitude (eq. 2), geometric attenuation (3), style
 * of faulting (4-6), hanging wall (7-16), hypocentre depth (21-23), dip (24), anelastic
 * attenuation (25). */
static double source_path(const cb14_coeffs *c, const gmpe_scenario *s, const cb_geometry *g) {
    const double m = s->mag;
    double f = c->c0 + c->c1 * m;
    if (m > 4.5) f += c->c2 * (m - 4.5);
    if (m > 5.5) f += c->c3 * (m - 5.5);
    if (m > 6.5) f += c->c4 * (m - 6.5);
    f += (c->c5 + c->c6 * m) * log(sqrt(s->rrup * s->rrup + c->c7 * c->c7));
    const double rk = fmod(s->rake + 540.0, 360.0) - 180.0; /* [-180, 180) */
    const double flt = rk > 30 && rk < 150 ? CB_C8 : rk > -150 && rk < -30 ? c->c9 : 0;
    f += flt * fmin(fmax(m - 4.5, 0), 1);
    /* hanging wall: Rx, Rrup, M, Ztor and dip factors */
    double hrx = 0;
    const double r1 = g->width * cos(s->dip * M_PI / 180), r2 = 62 * m - 350;
    if (s->rx >= 0 && s->rx < r1) {
        const double x = s->rx / r1;
        hrx = c->h1 + c->h2 * x + c->h3 * x * x;
    } else if (s->rx >= r1) {
        const double x = (s->rx - r1) / (r2 - r1);
        hrx = fmax(CB_H4 + c->h5 * x + c->h6 * x * x, 0);
    }
    const double hrrup = s->rrup > 0 ? (s->rrup - s->rjb) / s->rrup : 1;
    const double hm = m <= 5.5   ? 0
                      : m <= 6.5 ? (m - 5.5) * (1 + c->a2 * (m - 6.5))
                                 : 1 + c->a2 * (m - 6.5);
    const double hz = s->ztor <= 16.66 ? 1 - 0.06 * s->ztor : 0;
    f += c->c10 * hrx * hrrup * hm * hz * (90 - s->dip) / 45;
    const double fh = fmin(fmax(g->zhyp - 7, 0), 13);
    f += fh * (c->c17 + (c->c18 - c->c17) * fmin(fmax(m - 5.5, 0), 1));
    f += c->c19 * s->dip * fmin(fmax(5.5 - m, 0), 1);
    if (s->rrup > 80) f += (c->c20 + c->dc20) * (s->rrup - 80);
    return f;
}

/* Shallow site response (eqs. 17, 18; A1100 the PGA on rock of Vs30 1100 m/s) and basin response
 * (eq. 20) on Z2.5 (km). */
static double site(const cb14_coeffs *c, double vs30, double a1100, double z2p5) {
    const double x = vs30 / c->k1;
    double f = vs30 <= c->k1 ? c->c11 * log(x) +
                                   c->k2 * (log(a1100 + CB_C * pow(x, CB_N)) - log(a1100 + CB_C))
                             : (c->c11 + c->k2 * CB_N) * log(x);
    if (z2p5 <= 1)
        f += c->c14 * (z2p5 - 1);
    else if (z2p5 > 3)
        f += c->c16 * c->k3 * exp(-0.75) * (1 - exp(-0.25 * (z2p5 - 3)));
    return f;
}

/* Z2.5 (km) from Vs30 for California (eq. 33). */
static double z2p5_of_vs30(double vs30) {
    return exp(7.089 - 1.144 * log(vs30));
}

static double a1100_of(const gmpe_scenario *s, const cb_geometry *g) {
    return exp(source_path(&cb14[0], s, g) + site(&cb14[0], 1100, 0, z2p5_of_vs30(1100)));
}

/* tau_lnY and phi_lnY by magnitude (eqs. 27, 28). */
static void tau_phi(const cb14_coeffs *c, double m, double *tau, double *phi) {
    const double t = fmin(fmax(5.5 - m, 0), 1);
    *tau = c->tau2 + (c->tau1 - c->tau2) * t;
    *phi = c->phi2 + (c->phi1 - c->phi2) * t;
}

/* Median and sigma at tabulated period i: tau and phi with the site response's dependence on
 * the rock PGA (eqs. 29-31). */
static void at(int i, const gmpe_scenario *s, const cb_geometry *g, double a1100, double z2p5,
               gmpe_value *v) {
    const cb14_coeffs *c = &cb14[i];
    v->ln_median = source_path(c, s, g) + site(c, s->vs30, a1100, z2p5);
    double tau_y, phi_y, tau_pga, phi_pga;
    tau_phi(c, s->mag, &tau_y, &phi_y);
    tau_phi(&cb14[0], s->mag, &tau_pga, &phi_pga);
    const double phib_y = sqrt(phi_y * phi_y - CB_PHI_AF * CB_PHI_AF);
    const double phib_pga = sqrt(phi_pga * phi_pga - CB_PHI_AF * CB_PHI_AF);
    double alpha = 0;
    if (s->vs30 < c->k1)
        alpha =
            c->k2 * a1100 * (1 / (a1100 + CB_C * pow(s->vs30 / c->k1, CB_N)) - 1 / (a1100 + CB_C));
    v->tau = sqrt(tau_y * tau_y + alpha * alpha * tau_pga * tau_pga +
                  2 * alpha * c->rho * tau_y * tau_pga);
    v->phi = sqrt(phib_y * phib_y + CB_PHI_AF * CB_PHI_AF + alpha * alpha * phib_pga * phib_pga +
                  2 * alpha * c->rho * phib_y * phib_pga);
    v->sigma = sqrt(v->tau * v->tau + v->phi * v->phi);
}

/* SA at periods up to 0.25 s is not allowed below PGA (the paper's rule). */
static void at_period(int i, const gmpe_scenario *s, const cb_geometry *g, double a1100,
                      double z2p5, gmpe_value *v) {
    at(i, s, g, a1100, z2p5, v);
    if (cb14[i].period > 0 && cb14[i].period <= 0.25) {
        gmpe_value pga;
        at(0, s, g, a1100, z2p5, &pga);
        if (pga.ln_median > v->ln_median) v->ln_median = pga.ln_median;
    }
}

int gmpe_cb14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err) {
    if (!(period >= 0 && period <= 10))
        return cs_error_input(err, "GMPE CB14", "period", NULL,
                              "%g s is outside the model's 0 (PGA) to 10 s", period);
    if (!(s->mag > 0) || !(s->rrup >= 0) || !(s->rjb >= 0) || !(s->vs30 > 0) ||
        !(s->dip > 0 && s->dip <= 90) || !(s->ztor >= 0) || !isfinite(s->rx) ||
        !isfinite(s->rake) || !(isnan(s->width) || s->width > 0) ||
        !(isnan(s->zhyp) || s->zhyp >= 0) || !(isnan(s->z2p5_km) || s->z2p5_km >= 0))
        return cs_error_set(err, CS_ERR_INPUT,
                            "CB14: M %g, rake %g, Rrup %g km, Rjb %g km, Rx %g km, dip %g, Ztor "
                            "%g km, width %g km, Zhyp %g km, Vs30 %g m/s, Z2.5 %g km out of range",
                            s->mag, s->rake, s->rrup, s->rjb, s->rx, s->dip, s->ztor, s->width,
                            s->zhyp, s->vs30, s->z2p5_km);
    const cb_geometry g = geometry(s);
    const double a1100 = a1100_of(s, &g);
    const double z2p5 = isnan(s->z2p5_km) ? z2p5_of_vs30(s->vs30) : s->z2p5_km;
    if (period == 0) {
        at(0, s, &g, a1100, z2p5, out);
        return 0;
    }
    const double p = fmax(period, 0.01);
    int i = 1;
    while (i < CB_NPER - 1 && cb14[i + 1].period <= p)
        i++;
    if (cb14[i].period == p || i == CB_NPER - 1) {
        at_period(i, s, &g, a1100, z2p5, out);
        return 0;
    }
    gmpe_value a, b;
    at_period(i, s, &g, a1100, z2p5, &a);
    at_period(i + 1, s, &g, a1100, z2p5, &b);
    const double t = log(p / cb14[i].period) / log(cb14[i + 1].period / cb14[i].period);
    out->ln_median = a.ln_median + t * (b.ln_median - a.ln_median);
    out->sigma = a.sigma + t * (b.sigma - a.sigma);
    out->tau = a.tau + t * (b.tau - a.tau);
    out->phi = a.phi + t * (b.phi - a.phi);
    return 0;
}
