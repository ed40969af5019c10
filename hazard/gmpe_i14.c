/* Idriss (2014), NGA-West2 (gmpe.h). Coefficients from the published table (Idriss 2014,
 * Earthquake Spectra 30(3), Table 1, as OpenQuake's hazardlib carries it: gem/oq-hazardlib
 * at 006d9140, openquake/hazardlib/gsim/idriss_2014.py); the equations' numbers are the
 * paper's. */
#include <math.h>
#include <stddef.h>

#include "gmpe.h"

typedef struct {
    double period;                     /* 0: PGA */
    double a1_lo, a2_lo, b1_lo, b2_lo; /* M <= 6.75 */
    double a1_hi, a2_hi, b1_hi, b2_hi; /* M > 6.75 */
    double a3, xi, gamma, phi;
} i14_coeffs;

#define I14_NPER 22
static const i14_coeffs i14[I14_NPER] = {
    {0, 7.0887, 0.2058, 2.9935, -0.2287, 9.0138, -0.0794, 2.9935, -0.2287, 0.0589, -0.8540, -0.0027,
     0.0800},
    {0.01, 7.0887, 0.2058, 2.9935, -0.2287, 9.0138, -0.0794, 2.9935, -0.2287, 0.0589, -0.8540,
     -0.0027, 0.0800},
    {0.02, 7.1157, 0.2058, 2.9935, -0.2287, 9.0408, -0.0794, 2.9935, -0.2287, 0.0589, -0.8540,
     -0.0027, 0.0800},
    {0.03, 7.2087, 0.2058, 2.9935, -0.2287, 9.1338, -0.0794, 2.9935, -0.2287, 0.0589, -0.8540,
     -0.0027, 0.0800},
    {0.05, 6.2638, 0.0625, 2.8664, -0.2418, 7.9837, -0.1923, 2.7995, -0.2319, 0.0417, -0.6310,
     -0.0061, 0.0800},
    {0.075, 5.9051, 0.1128, 2.9406, -0.2513, 7.7560, -0.1614, 2.8143, -0.2326, 0.0527, -0.5910,
     -0.0056, 0.0800},
    {0.1, 7.5791, 0.0848, 3.0190, -0.2516, 9.4252, -0.1887, 2.8131, -0.2211, 0.0442, -0.7570,
     -0.0042, 0.0800},
    {0.15, 8.0190, 0.1713, 2.7871, -0.2236, 9.6242, -0.0665, 2.4091, -0.1676, 0.0329, -0.9110,
     -0.0046, 0.0800},
    {0.2, 9.2812, 0.1041, 2.8611, -0.2229, 11.1300, -0.1698, 2.4938, -0.1685, 0.0188, -0.9980,
     -0.0030, 0.0800},
    {0.25, 9.5804, 0.0875, 2.8289, -0.2200, 11.3629, -0.1766, 2.3773, -0.1531, 0.0095, -1.0420,
     -0.0028, 0.0800},
    {0.3, 9.8912, 0.0003, 2.8423, -0.2284, 11.7818, -0.2798, 2.3772, -0.1595, -0.0039, -1.0300,
     -0.0029, 0.0800},
    {0.4, 9.5342, 0.0027, 2.8300, -0.2318, 11.6097, -0.3048, 2.3413, -0.1594, -0.0133, -1.0190,
     -0.0028, 0.0800},
    {0.5, 9.2142, 0.0399, 2.8560, -0.2337, 11.4484, -0.2911, 2.3477, -0.1584, -0.0224, -1.0230,
     -0.0021, 0.0800},
    {0.75, 8.3517, 0.0689, 2.7544, -0.2392, 10.9065, -0.3097, 2.2042, -0.1577, -0.0267, -1.0560,
     -0.0029, 0.0800},
    {1.0, 7.0453, 0.1600, 2.7339, -0.2398, 9.8565, -0.2565, 2.1493, -0.1532, -0.0198, -1.0090,
     -0.0032, 0.0600},
    {1.5, 5.1307, 0.2429, 2.6800, -0.2417, 8.3363, -0.2320, 2.0408, -0.1470, -0.0367, -0.8980,
     -0.0033, 0.0400},
    {2.0, 3.3610, 0.3966, 2.6837, -0.2450, 6.8656, -0.1226, 2.0013, -0.1439, -0.0291, -0.8510,
     -0.0032, 0.0200},
    {3.0, 0.1784, 0.7560, 2.6907, -0.2389, 4.1178, 0.1724, 1.9408, -0.1278, -0.0214, -0.7610,
     -0.0031, 0.0200},
    {4.0, -2.4301, 0.9283, 2.5782, -0.2514, 1.8102, 0.3001, 1.7763, -0.1326, -0.0240, -0.6750,
     -0.0051, 0.0000},
    {5.0, -4.3570, 1.1209, 2.5468, -0.2541, 0.0977, 0.4609, 1.7030, -0.1291, -0.0202, -0.6290,
     -0.0059, 0.0000},
    {7.5, -7.8275, 1.4016, 2.4478, -0.2593, -3.0563, 0.6948, 1.5212, -0.1220, -0.0219, -0.5310,
     -0.0057, 0.0000},
    {10.0, -9.2857, 1.5574, 2.3922, -0.2586, -4.4387, 0.8393, 1.4195, -0.1145, -0.0035, -0.5860,
     -0.0061, 0.0000},
};

/* ln y (g), eq. 1: magnitude, distance (Rrup), site (Vs30, capped at 1200 m/s) and
 * style-of-faulting (reverse: 30 < rake < 150) terms. */
static double ln_median(const i14_coeffs *c, const gmpe_scenario *s) {
    const double m = s->mag, lo = m <= 6.75;
    const double a1 = lo ? c->a1_lo : c->a1_hi, a2 = lo ? c->a2_lo : c->a2_hi;
    const double b1 = lo ? c->b1_lo : c->b1_hi, b2 = lo ? c->b2_lo : c->b2_hi;
    double rk = fmod(s->rake + 540.0, 360.0) - 180.0; /* [-180, 180) */
    const double frv = rk > 30 && rk < 150;
    return a1 + a2 * m + c->a3 * (8.5 - m) * (8.5 - m) - (b1 + b2 * m) * log(s->rrup + 10) +
           c->xi * log(fmin(s->vs30, 1200)) + c->gamma * s->rrup + c->phi * frv;
}

/* Total sigma, eq. 4: 1.18 + 0.035 ln T - 0.06 M with T in [0.05, 3] s (PGA as 0.05 s) and M in
 * [5, 7.5]. */
static double sigma(double period, double mag) {
    const double t = fmin(fmax(period, 0.05), 3), m = fmin(fmax(mag, 5), 7.5);
    return 1.18 + 0.035 * log(t) - 0.06 * m;
}

int gmpe_i14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err) {
    if (!(period >= 0 && period <= 10))
        return cs_error_input(err, "GMPE I14", "period", NULL,
                              "%g s is outside the model's 0 (PGA) to 10 s", period);
    if (!(s->mag > 0) || !(s->rrup >= 0) || !(s->vs30 > 0) || !isfinite(s->rake))
        return cs_error_set(err, CS_ERR_INPUT, "I14: M %g, Rrup %g km, rake %g, Vs30 %g m/s",
                            s->mag, s->rrup, s->rake, s->vs30);
    out->sigma = sigma(period, s->mag);
    if (period == 0) {
        out->ln_median = ln_median(&i14[0], s);
        return 0;
    }
    const double p = fmax(period, 0.01);
    int i = 1;
    while (i < I14_NPER - 1 && i14[i + 1].period <= p)
        i++;
    const double a = ln_median(&i14[i], s);
    if (i14[i].period == p || i == I14_NPER - 1) {
        out->ln_median = a;
        return 0;
    }
    const double b = ln_median(&i14[i + 1], s);
    const double t = log(p / i14[i].period) / log(i14[i + 1].period / i14[i].period);
    out->ln_median = a + t * (b - a);
    return 0;
}
