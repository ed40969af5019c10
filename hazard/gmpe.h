/* Ground-motion models for classical PSHA curves beside the simulated ones.
 *
 * Sadigh, Chang, Egan, Makdisi and Youngs (1997), rock sites (Vs30 > 750 m/s): for the PEER PSHA
 * verification cases and as a comparison model. ln y (g) = C1 + C2 M + C3 (8.5 - M)^2.5
 * + C4 ln(Rrup + exp(C5 + C6 M)) + C7 ln(Rrup + 2), coefficients for M <= 6.5 and M > 6.5,
 * times 1.2 for reverse faulting (rake 45..135); sigma (ln) = 1.39 - 0.14 M at PGA, and the
 * period's own values elsewhere, constant above M 7.21. Periods 0 (PGA) to 4 s; between
 * tabulated periods ln y and sigma are interpolated linearly in ln T. */
#ifndef GMPE_H
#define GMPE_H

#include <stddef.h>

#include "cs_error.h"

typedef struct {
    double ln_median; /* ln of the median (g) */
    double sigma;     /* ln standard deviation */
    /* its between-event (tau) and within-event (phi) parts, sigma^2 = tau^2 + phi^2: filled by
     * the NGA-West2 models but I14 (tau the event term's with the site nonlinearity, (1 + NL0)
     * tau in CY14); gmpe_eval sets them NAN for the models that give only sigma */
    double tau, phi;
} gmpe_value;

int gmpe_sadigh97_rock(double period, double mag, double rrup_km, double rake, gmpe_value *out,
                       cs_error *err);

/* Chiou and Youngs (2014), NGA-West2, California/global: the median on reference rock from
 * magnitude, style of faulting (rake), Ztor centred on its magnitude-dependent mean, dip,
 * Rrup, and the hanging-wall term (Rx >= 0: c9 cos(dip) (c9a + (1 - c9a) tanh(Rx / c9b))
 * (1 - sqrt(Rjb^2 + Ztor^2) / (Rrup + 1))); linear and nonlinear site terms on Vs30 and the
 * basin term on Z1.0 against its Vs30-dependent mean (no term when Z1.0 is unknown, NAN);
 * no directivity (centred DPP 0). Sigma from tau and phi with the nonlinear term's NL0, phi by
 * whether Vs30 was measured; tau ((1 + NL0) tau) and phi kept. SA at T <= 0.3 s is not allowed
 * below PGA (the paper's rule). Periods 0 (PGA) and 0.01 to 10 s, interpolated linearly in ln T
 * between the 24 tabulated. */
typedef struct {
    double mag, rake, dip;      /* degrees */
    double ztor, rrup, rjb, rx; /* km */
    double vs30;                /* m/s */
    int vs30_measured;
    double z1_m; /* depth to Vs 1 km/s (m); NAN: unknown */
    /* for CB14 and ASK14; NAN: unknown, each model's own estimate (below) */
    double width;   /* down-dip width of the rupture (km) */
    double zhyp;    /* hypocentre depth (km) */
    double z2p5_km; /* depth to Vs 2.5 km/s (km) */
    double ry0;     /* distance off the ends of the rupture along strike (km) */
    int region;     /* BSSA14's basin model: GMPE_REGION_CALIFORNIA (0) or GMPE_REGION_JAPAN */
} gmpe_scenario;

enum { GMPE_REGION_CALIFORNIA = 0, GMPE_REGION_JAPAN = 1 };

/* Boore, Stewart, Seyhan and Atkinson (2014), NGA-West2, global (Dc3 = 0): ln y (g) = F_E(M,
 * mechanism) + F_P(Rjb, M) + F_S(Vs30, Rjb, M) + F_dz1, with the nonlinear site term driven by
 * the rock (760 m/s) PGA, and the basin-depth term F_dz1 = f6 dz1 (dz1 <= f7 / f6), f7 beyond,
 * for T >= 0.65 s, dz1 = Z1.0 - mu_z1(Vs30) by the California (eq. 11) or Japan (eq. 12) model
 * (s->region); no basin term when Z1.0 is unknown (NAN), as OpenQuake's BooreEtAl2014
 * CaliforniaBasin / JapanBasin. Sigma = sqrt(phi^2 + tau^2) with phi on M, Rjb and Vs30; tau
 * and phi kept. Mechanism from rake: strike-slip within 30 degrees of horizontal, reverse for
 * 30 < rake < 150, normal otherwise. Uses M, rake, Rjb, Vs30, Z1.0. Periods 0 (PGA) and 0.01 to
 * 10 s, ln y and the deviations interpolated linearly in ln T between the 105 tabulated. */
int gmpe_bssa14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err);
/* mu_z1 (km) for the Vs30 (m/s), region GMPE_REGION_CALIFORNIA or GMPE_REGION_JAPAN */
double gmpe_bssa14_mu_z1_km(double vs30, int region);

int gmpe_cy14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err);

/* Idriss (2014), NGA-West2: ln y = a1 + a2 M + a3 (8.5 - M)^2 - (b1 + b2 M) ln(Rrup + 10)
 * + xi ln(min(Vs30, 1200)) + gamma Rrup + phi F_RV, coefficients for M <= 6.75 and M > 6.75,
 * reverse for 30 < rake < 150. The model is defined for Vs30 >= 450 m/s; softer sites are
 * evaluated by the same formula (an extrapolation). Total sigma only: 1.18 + 0.035 ln T - 0.06 M,
 * T limited to 0.05..3 s (PGA as 0.05 s), M to 5..7.5. Uses M, rake, Rrup and Vs30. Periods 0
 * (PGA) and 0.01 to 10 s, ln y interpolated linearly in ln T between the 21 tabulated. */
int gmpe_i14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err);

/* Campbell and Bozorgnia (2014), NGA-West2, California/global (no Japan or regional terms):
 * magnitude, geometric attenuation on Rrup, style of faulting (rake), the hanging-wall term
 * (Rx, Rrup, Rjb, M, Ztor, dip and the rupture's width), hypocentre depth, dip and anelastic
 * terms; the shallow site response on Vs30, nonlinear below k1 and driven by A1100 (the PGA on
 * rock of 1100 m/s), and the basin term on Z2.5. Unknown (NAN) values are the paper's
 * estimates: Z2.5 (km) = exp(7.089 - 1.144 ln Vs30) (California); width = min(sqrt(10^((M -
 * 4.07) / 0.98)), (15 km - Ztor) / sin(dip)); Zhyp = Ztor + exp(min(min(-4.317 + 0.984 M, 2.325)
 * + min(0.0445 (dip - 40), 0), ln(0.9 width sin(dip)))). Sigma from tau and phi by magnitude
 * with the site response's dependence on A1100 (alpha), tau and phi kept. SA at T <= 0.25 s
 * is not allowed below PGA. Periods 0 (PGA) and 0.01 to 10 s, interpolated linearly in ln T
 * between the 21 tabulated. */
int gmpe_cb14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err);

/* Abrahamson, Silva and Kamai (2014), NGA-West2, California (no regional terms; no aftershock
 * term): the base form on M and Rrup with the large-distance term, style of faulting (rake), the
 * hanging-wall term (Rx > 0, dip < 90: dip, M, Rx against the width, Ztor, and the taper on Ry0,
 * or where Ry0 is unknown (NAN) the paper's taper on Rjb), the Ztor term, the site response on
 * Vs30 (nonlinear below Vlin, driven by Sa1180, the same period's value on rock of 1180 m/s)
 * and the soil-depth term on Z1.0 (m) against its California reference for the Vs30 (no term
 * when Z1.0 is unknown, NAN). Width unknown: min(18 / sin(dip), 10^(-1.75 + 0.45 M)) km (the
 * NGA-West2 spreadsheet's). Sigma from phi (by whether Vs30 was measured) and tau by magnitude,
 * with the site response's derivative; tau and phi kept. Periods 0 (PGA) and 0.01 to 10 s,
 * interpolated linearly in ln T between the 22 tabulated. */
int gmpe_ask14(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err);

/* The models by the names the command line takes: "bssa14" (M, rake, Rjb, Vs30, Z1.0), "sadigh97"
 * (rock: M, rake, Rrup), "cy14" (M, rake, dip, Ztor, Rrup, Rjb, Rx, Vs30, Z1.0), "i14" (M, rake,
 * Rrup, Vs30), "cb14" (M, rake, dip, Ztor, width, Zhyp, Rrup, Rjb, Rx, Vs30, Z2.5), "ask14" (M,
 * rake, dip, Ztor, width, Rrup, Rjb, Rx, Ry0, Vs30, Z1.0); the label plots and datasets use,
 * NULL for an unknown name. gmpe_eval sets tau and phi NAN before the model fills them. */
const char *gmpe_label(const char *name);
int gmpe_eval(const char *name, double period, const gmpe_scenario *s, gmpe_value *out,
              cs_error *err);
#define GMPE_NAMES "bssa14, sadigh97, cy14, i14, cb14, ask14"
/* Models one command compares at most (the five NGA-West2 models at once) */
#define GMPE_MAX_MODELS     5
#define GMPE_MAX_MODELS_STR "5"

/* A set of models as --gmpe takes it: "NAME[,NAME...]" or, weighted, "NAME:W[,NAME:W...]" (every
 * model weighted, or none), e.g. the NSHM 2014/2018 western-US weights "ask14:0.22,bssa14:0.22,
 * cb14:0.22,cy14:0.22,i14:0.12". Each name once, at most GMPE_MAX_MODELS; weights in (0, 1]
 * summing to 1 within GMPE_WEIGHT_SUM_TOL, else an input error naming the sum and the weights
 * (place: where the text came from, "--gmpe" or a configuration key). */
typedef struct {
    int n;
    char name[GMPE_MAX_MODELS][16]; /* the command-line names */
    double weight[GMPE_MAX_MODELS]; /* 0 when unweighted */
    int weighted;
} gmpe_set;
#define GMPE_WEIGHT_SUM_TOL 1e-6
int gmpe_set_parse(const char *text, const char *place, gmpe_set *set, cs_error *err);
/* The weighted mean of the models' curves of exceedance probability, point by point:
 * out[i] = sum_k weight[k] poe[k][i] (a weighted set; curves[k] is model k's). */
void gmpe_set_mean(const gmpe_set *set, const double *const *curves, int nlev, double *out);
/* "Vs30 400 m/s, Z1.0 350 m, Z2.5 unknown": the site's values as datasets and reports name them. */
void gmpe_site_text(double vs30, double z1_m, double z2p5_km, char *out, size_t size);
/* "0.22 ASK14 + 0.22 BSSA14 + ..." (weights as given) into out. */
void gmpe_set_describe(const gmpe_set *set, char *out, size_t size);

#endif
