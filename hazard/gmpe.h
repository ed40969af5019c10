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

#include "cs_error.h"

typedef struct {
    double ln_median; /* ln of the median (g) */
    double sigma;     /* ln standard deviation */
} gmpe_value;

int gmpe_sadigh97_rock(double period, double mag, double rrup_km, double rake, gmpe_value *out,
                       cs_error *err);

/* Boore, Stewart, Seyhan and Atkinson (2014), NGA-West2, global (Dc3 = 0), without the basin
 * term (z1 unknown): ln y (g) = F_E(M, mechanism) + F_P(Rjb, M) + F_S(Vs30, Rjb, M), with the
 * nonlinear site term driven by the rock (760 m/s) PGA; sigma = sqrt(phi^2 + tau^2) with phi
 * depending on M, Rjb and Vs30. Mechanism from rake: normal for -150 < rake < -30, reverse for
 * 30 < rake < 150, strike-slip otherwise. Coefficients of PGA and of the CyberShake periods 1,
 * 1.5, 2, 3, 4, 5, 7.5 and 10 s from the published table; between them ln y and sigma are
 * interpolated linearly in ln T (PGA taken at 0.01 s for that). */
int gmpe_bssa14(double period, double mag, double rjb_km, double rake, double vs30, gmpe_value *out,
                cs_error *err);

#endif
