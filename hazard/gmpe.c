#include "gmpe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
    if (!strcmp(name, "sadigh97"))
        return gmpe_sadigh97_rock(period, s->mag, s->rrup, s->rake, out, err);
    out->tau = out->phi = NAN;
    if (!strcmp(name, "bssa14")) return gmpe_bssa14(period, s, out, err);
    if (!strcmp(name, "cy14")) return gmpe_cy14(period, s, out, err);
    if (!strcmp(name, "i14")) return gmpe_i14(period, s, out, err);
    if (!strcmp(name, "cb14")) return gmpe_cb14(period, s, out, err);
    if (!strcmp(name, "ask14")) return gmpe_ask14(period, s, out, err);
    return cs_error_input(err, "--gmpe", NULL, name, "models: " GMPE_NAMES);
}

int gmpe_set_parse(const char *text, const char *place, gmpe_set *set, cs_error *err) {
    memset(set, 0, sizeof *set);
    char buf[512];
    if (!text || !*text) return cs_error_input(err, place, NULL, text, "names no model");
    if (strlen(text) >= sizeof buf)
        return cs_error_input(err, place, NULL, text, "is longer than %zu characters",
                              sizeof buf - 1);
    memcpy(buf, text, strlen(text) + 1);
    int nw = 0;
    double sum = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ')
            t++;
        char *colon = strchr(t, ':');
        if (colon) *colon = 0;
        if (set->n == GMPE_MAX_MODELS)
            return cs_error_input(err, place, NULL, text, "at most " GMPE_MAX_MODELS_STR " models");
        if (!gmpe_label(t)) return cs_error_input(err, place, NULL, t, "models: " GMPE_NAMES);
        for (int k = 0; k < set->n; k++)
            if (!strcmp(set->name[k], t))
                return cs_error_input(err, place, NULL, t, "is listed twice");
        snprintf(set->name[set->n], sizeof set->name[0], "%s", t);
        if (colon) {
            char *end;
            const double w = strtod(colon + 1, &end);
            if (end == colon + 1 || *end || !(w > 0 && w <= 1))
                return cs_error_input(err, place, NULL, colon + 1,
                                      "the weight of %s must be a number in (0, 1]", t);
            set->weight[set->n] = w;
            sum += w;
            nw++;
        }
        set->n++;
    }
    if (set->n == 0) return cs_error_input(err, place, NULL, text, "names no model");
    if (nw && nw != set->n)
        return cs_error_input(err, place, NULL, text,
                              "weights are given for every model (NAME:WEIGHT) or for none");
    set->weighted = nw > 0;
    if (set->weighted && !(fabs(sum - 1) <= GMPE_WEIGHT_SUM_TOL))
        return cs_error_input(err, place, NULL, text,
                              "the weights sum to %.10g, not 1: a weighted mean needs weights "
                              "that sum to 1",
                              sum);
    return 0;
}

void gmpe_set_mean(const gmpe_set *set, const double *const *curves, int nlev, double *out) {
    for (int i = 0; i < nlev; i++) {
        double m = 0;
        for (int k = 0; k < set->n; k++)
            m += set->weight[k] * curves[k][i];
        out[i] = m;
    }
}

void gmpe_set_describe(const gmpe_set *set, char *out, size_t size) {
    size_t len = 0;
    out[0] = 0;
    for (int k = 0; k < set->n && len < size; k++) {
        int w = snprintf(out + len, size - len, "%s%g %s", k ? " + " : "", set->weight[k],
                         gmpe_label(set->name[k]));
        if (w < 0) break;
        len += (size_t)w;
    }
}

void gmpe_site_text(double vs30, double z1_m, double z2p5_km, char *out, size_t size) {
    char z1[32] = "unknown", z25[32] = "unknown";
    if (!isnan(z1_m)) snprintf(z1, sizeof z1, "%.6g m", z1_m);
    if (!isnan(z2p5_km)) snprintf(z25, sizeof z25, "%.6g km", z2p5_km);
    snprintf(out, size, "Vs30 %g m/s, Z1.0 %s, Z2.5 %s", vs30, z1, z25);
}
