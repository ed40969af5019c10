#include "gmpe.h"

#include <math.h>
#include <string.h>
#include <stddef.h>

/* Rock coefficients by period (s; 0 = PGA): C1, C2, C3, C4, C5, C6, C7 for M <= 6.5; C1, C2 for
 * M > 6.5 (C3, C4, C7 are shared; C5, C6 switch to -0.48451, 0.524); sigma a, b (a - b M) and
 * its value above M 7.21. Sadigh et al. (1997) Table 3, with C3 as the (8.5 - M)^2.5 term's. */
static const double periods[13] = {0, 0.075, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 4};
static const double lo[13][7] = {{-0.624, 1.0, 0.000, -2.100, 1.29649, 0.250, 0.0},
                                 {0.110, 1.0, 0.006, -2.128, 1.29649, 0.250, -0.082},
                                 {0.275, 1.0, 0.006, -2.148, 1.29649, 0.250, -0.041},
                                 {0.153, 1.0, -0.004, -2.080, 1.29649, 0.250, 0.0},
                                 {-0.057, 1.0, -0.017, -2.028, 1.29649, 0.250, 0.0},
                                 {-0.298, 1.0, -0.028, -1.990, 1.29649, 0.250, 0.0},
                                 {-0.588, 1.0, -0.040, -1.945, 1.29649, 0.250, 0.0},
                                 {-1.208, 1.0, -0.050, -1.865, 1.29649, 0.250, 0.0},
                                 {-1.705, 1.0, -0.055, -1.800, 1.29649, 0.250, 0.0},
                                 {-2.407, 1.0, -0.065, -1.725, 1.29649, 0.250, 0.0},
                                 {-2.945, 1.0, -0.070, -1.670, 1.29649, 0.250, 0.0},
                                 {-3.700, 1.0, -0.080, -1.610, 1.29649, 0.250, 0.0},
                                 {-4.230, 1.0, -0.100, -1.570, 1.29649, 0.250, 0.0}};
static const double hi_c1[13] = {-1.274, -0.540, -0.375, -0.497, -0.707, -0.948, -1.238,
                                 -1.858, -2.355, -3.057, -3.595, -4.350, -4.880};
static const double sig[13][3] = {{1.39, 0.14, 0.38}, {1.40, 0.14, 0.39}, {1.41, 0.14, 0.40},
                                  {1.43, 0.14, 0.42}, {1.45, 0.14, 0.44}, {1.48, 0.14, 0.47},
                                  {1.50, 0.14, 0.49}, {1.52, 0.14, 0.51}, {1.53, 0.14, 0.52},
                                  {1.53, 0.14, 0.52}, {1.53, 0.14, 0.52}, {1.53, 0.14, 0.52},
                                  {1.53, 0.14, 0.52}};

static void at_index(int i, double m, double r, double rake, gmpe_value *v) {
    const double *c = lo[i];
    double c1 = c[0], c2 = c[1], c5 = c[4], c6 = c[5];
    if (m > 6.5) {
        c1 = hi_c1[i];
        c2 = 1.1;
        c5 = -0.48451;
        c6 = 0.524;
    }
    double y = c1 + c2 * m + c[2] * pow(8.5 - m, 2.5) + c[3] * log(r + exp(c5 + c6 * m)) +
               c[6] * log(r + 2);
    double rk = fmod(rake + 360.0, 360.0);
    if (rk > 180) rk -= 360; /* (-180, 180] */
    if (rk >= 45 && rk <= 135) y += log(1.2);
    v->ln_median = y;
    v->sigma = m >= 7.21 ? sig[i][2] : sig[i][0] - sig[i][1] * m;
}

int gmpe_sadigh97_rock(double period, double mag, double rrup_km, double rake, gmpe_value *out,
                       cs_error *err) {
    if (!(period >= 0 && period <= 4))
        return cs_error_input(err, "GMPE Sadigh et al. (1997)", "period", NULL,
                              "%g s is outside the model's 0 (PGA) to 4 s", period);
    if (!(rrup_km >= 0) || !(mag > 0))
        return cs_error_set(err, CS_ERR_INPUT, "Sadigh et al. (1997): M %g, Rrup %g km", mag,
                            rrup_km);
    int i = 0;
    while (i < 12 && periods[i + 1] <= period)
        i++;
    if (periods[i] == period || i == 12) {
        at_index(i, mag, rrup_km, rake, out);
        return 0;
    }
    gmpe_value a, b;
    at_index(i, mag, rrup_km, rake, &a);
    at_index(i + 1, mag, rrup_km, rake, &b);
    /* PGA sits at 0: interpolate from it linearly in T up to 0.075 s, in ln T beyond */
    double t = i == 0 ? period / periods[1]
                      : (log(period) - log(periods[i])) / (log(periods[i + 1]) - log(periods[i]));
    out->ln_median = a.ln_median + t * (b.ln_median - a.ln_median);
    out->sigma = a.sigma + t * (b.sigma - a.sigma);
    return 0;
}

/* BSSA14 rows: e0 e1 e2 e3 e4 e5 e6 Mh c1 c2 c3 h clin Vc f4 f5 R1 R2 dphiR dphiV phi1 phi2
 * tau1 tau2 (Dc3 = 0 globally; f6, f7 belong to the basin term, not used). */
enum {
    B_E0,
    B_E1,
    B_E2,
    B_E3,
    B_E4,
    B_E5,
    B_E6,
    B_MH,
    B_C1,
    B_C2,
    B_C3,
    B_H,
    B_CLIN,
    B_VC,
    B_F4,
    B_F5,
    B_R1,
    B_R2,
    B_DPHIR,
    B_DPHIV,
    B_PHI1,
    B_PHI2,
    B_TAU1,
    B_TAU2,
    B_N
};
static const double bssa_periods[9] = {0, 1, 1.5, 2, 3, 4, 5, 7.5, 10};
static const double bssa[9][B_N] = {
    {0.4473, 0.4856, 0.2459,    0.4539, 1.431, 0.05053, -0.1662, 5.5,
     -1.134, 0.1917, -0.008088, 4.5,    -0.6,  1500,    -0.15,   -0.00701,
     110,    270,    0.1,       0.07,   0.695, 0.495,   0.398,   0.348},
    {0.3932, 0.4218,  0.207,    0.4124, 1.5004, -0.18983, 0.17895,  6.2,
     -1.193, 0.10248, -0.00121, 5.74,   -1.05,  1109.95,  -0.10521, -0.00844,
     116.39, 270,     0.098,    0.02,   0.553,  0.625,    0.498,    0.298},
    {-0.14954, -0.11866, -0.3138,   -0.1437, 1.7622,  -0.1467, 0.33896, 6.2,
     -1.2063,  0.096445, -0.000365, 6.18,    -1.0454, 1072.39, -0.062,  -0.00771,
     125.38,   262.41,   0.104,     0.01,    0.532,   0.619,   0.525,   0.315},
    {-0.58669, -0.55003, -0.71466, -0.60658, 1.9152,  -0.11237, 0.44788,   6.2,
     -1.2159,  0.096361, 0,        6.54,     -1.0392, 1009.49,  -0.036136, -0.00479,
     130.37,   240.14,   0.105,    0.008,    0.526,   0.618,    0.532,     0.329},
    {-1.1898, -1.142,   -1.23, -1.2664, 2.1323,  -0.04332, 0.62694,   6.2,
     -1.2179, 0.097638, 0,     6.93,    -1.0112, 922.43,   -0.013577, -0.00183,
     130.36,  195,      0.088, 0,       0.534,   0.619,    0.537,     0.344},
    {-1.6388, -1.5748, -1.6673,   -1.7516, 2.204,    -0.014642, 0.76303,   6.2,
     -1.2162, 0.10218, -0.000052, 7.32,    -0.96938, 844.48,    -0.003212, -0.00152,
     129.49,  199.45,  0.07,      0,       0.536,    0.616,     0.543,     0.349},
    {-1.966,  -1.8882, -2.0245, -2.0928, 2.2299,   -0.014855, 0.87314,   6.2,
     -1.2189, 0.10353, 0,       7.78,    -0.91954, 793.13,    -0.000255, -0.00144,
     130.22,  230,     0.061,   0,       0.528,    0.622,     0.532,     0.335},
    {-2.5865, -2.4874, -2.8176, -2.6854, 2.1187,   -0.081606, 1.0121,    6.2,
     -1.2543, 0.12507, 0,       9.48,    -0.77665, 771.01,    -0.000055, -0.00137,
     130.72,  250.39,  0.058,   0,       0.512,    0.634,     0.511,     0.27},
    {-3.0702, -2.9537, -3.3776, -3.1726, 1.8837,   -0.15096, 1.0651, 6.2,
     -1.3253, 0.15183, 0,       9.66,    -0.65575, 775,      0,      -0.00136,
     130,     210,     0.06,    0,       0.51,     0.604,    0.487,  0.239}};

/* F_E + F_P: the median on the reference rock (Vs30 760 m/s) without site terms. */
static double bssa_rock(const double *c, double m, double rjb, double rake) {
    double rk = fmod(rake + 540.0, 360.0) - 180.0; /* (-180, 180] */
    double e = c[B_E1];                            /* strike-slip */
    if (rk > -150 && rk < -30) e = c[B_E2];
    if (rk > 30 && rk < 150) e = c[B_E3];
    double dm = m - c[B_MH];
    double fe = e + (m <= c[B_MH] ? c[B_E4] * dm + c[B_E5] * dm * dm : c[B_E6] * dm);
    double r = sqrt(rjb * rjb + c[B_H] * c[B_H]);
    double fp = (c[B_C1] + c[B_C2] * (m - 4.5)) * log(r / 1.0) + c[B_C3] * (r - 1.0);
    return fe + fp;
}

static void bssa_at(int i, double m, double rjb, double rake, double vs30, gmpe_value *v) {
    const double *c = bssa[i];
    double pga_rock = exp(bssa_rock(bssa[0], m, rjb, rake));
    double flin = c[B_CLIN] * log(fmin(vs30, c[B_VC]) / 760.0);
    double f2 =
        c[B_F4] * (exp(c[B_F5] * (fmin(vs30, 760.0) - 360.0)) - exp(c[B_F5] * (760.0 - 360.0)));
    double fnl = f2 * log((pga_rock + 0.1) / 0.1);
    v->ln_median = bssa_rock(c, m, rjb, rake) + flin + fnl;
    double t = m <= 4.5 ? 0 : m >= 5.5 ? 1 : m - 4.5;
    double tau = c[B_TAU1] + t * (c[B_TAU2] - c[B_TAU1]);
    double phi = c[B_PHI1] + t * (c[B_PHI2] - c[B_PHI1]);
    if (rjb > c[B_R2])
        phi += c[B_DPHIR];
    else if (rjb > c[B_R1])
        phi += c[B_DPHIR] * log(rjb / c[B_R1]) / log(c[B_R2] / c[B_R1]);
    if (vs30 <= 225)
        phi -= c[B_DPHIV];
    else if (vs30 < 300)
        phi -= c[B_DPHIV] * log(300 / vs30) / log(300.0 / 225.0);
    v->sigma = sqrt(phi * phi + tau * tau);
}

int gmpe_bssa14(double period, double mag, double rjb_km, double rake, double vs30, gmpe_value *out,
                cs_error *err) {
    if (!(period >= 0 && period <= 10))
        return cs_error_input(err, "GMPE BSSA14", "period", NULL,
                              "%g s is outside the model's 0 (PGA) to 10 s", period);
    if (!(vs30 > 0) || !(rjb_km >= 0) || !(mag > 0))
        return cs_error_set(err, CS_ERR_INPUT, "BSSA14: M %g, Rjb %g km, Vs30 %g m/s", mag, rjb_km,
                            vs30);
    int i = 0;
    while (i < 8 && bssa_periods[i + 1] <= period)
        i++;
    if (bssa_periods[i] == period || i == 8) {
        bssa_at(i, mag, rjb_km, rake, vs30, out);
        return 0;
    }
    gmpe_value a, b;
    bssa_at(i, mag, rjb_km, rake, vs30, &a);
    bssa_at(i + 1, mag, rjb_km, rake, vs30, &b);
    double t0 = i == 0 ? 0.01 : bssa_periods[i];
    double t = (log(fmax(period, 0.01)) - log(t0)) / (log(bssa_periods[i + 1]) - log(t0));
    out->ln_median = a.ln_median + t * (b.ln_median - a.ln_median);
    out->sigma = a.sigma + t * (b.sigma - a.sigma);
    return 0;
}

const char *gmpe_label(const char *name) {
    return !strcmp(name, "bssa14")     ? "BSSA14"
           : !strcmp(name, "sadigh97") ? "Sadigh et al. 1997"
           : !strcmp(name, "cy14")     ? "CY14"
           : !strcmp(name, "i14")      ? "I14"
           : !strcmp(name, "cb14")     ? "CB14"
           : !strcmp(name, "ask14")    ? "ASK14"
                                       : NULL;
}

int gmpe_eval(const char *name, double period, const gmpe_scenario *s, gmpe_value *out,
              cs_error *err) {
    if (!strcmp(name, "bssa14"))
        return gmpe_bssa14(period, s->mag, s->rjb, s->rake, s->vs30, out, err);
    if (!strcmp(name, "sadigh97"))
        return gmpe_sadigh97_rock(period, s->mag, s->rrup, s->rake, out, err);
    out->tau = out->phi = NAN;
    if (!strcmp(name, "cy14")) return gmpe_cy14(period, s, out, err);
    if (!strcmp(name, "i14")) return gmpe_i14(period, s, out, err);
    if (!strcmp(name, "cb14")) return gmpe_cb14(period, s, out, err);
    if (!strcmp(name, "ask14")) return gmpe_ask14(period, s, out, err);
    return cs_error_input(err, "--gmpe", NULL, name, "models: " GMPE_NAMES);
}
