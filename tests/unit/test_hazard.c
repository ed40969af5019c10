/* The hazard integral against hand-worked values; the exceedance rule; probabilities per year;
 * reading a level off a curve; the IM names the command line takes. */
#include <stdlib.h>
#include <string.h>

#include "hazard_curve.h"
#include "hazard_db.h"
#include "tf.h"

TEST(hazard_exceedance_is_the_fraction_strictly_above) {
    double v[5] = {0.1, 0.2, 0.2, 0.4, 0.8};
    hazard_rupture r = {.prob = 0.01, .nvalues = 5, .values = v};
    CHECK_NEAR(hazard_exceedance(&r, 0.05), 1.0, 0);
    CHECK_NEAR(hazard_exceedance(&r, 0.2), 0.4, 0); /* equal is not above */
    CHECK_NEAR(hazard_exceedance(&r, 0.3), 0.4, 0);
    CHECK_NEAR(hazard_exceedance(&r, 0.8), 0.0, 0);
}

TEST(hazard_curve_of_two_ruptures_by_hand) {
    /* rupture A: P 0.1, values 1, 2, 3, 4; rupture B: P 0.02, values 2.5, 5.
     * at x = 2.2: f_A = 0.5, f_B = 1 -> 1 - 0.9^0.5 * 0.98 = 0.070274...
     * at x = 4.5: f_A = 0, f_B = 0.5 -> 1 - 0.98^0.5 = 0.010050... */
    double a[4] = {4, 2, 3, 1}, b[2] = {5, 2.5};
    hazard_rupture r[2] = {{.prob = 0.1, .nvalues = 4, .values = a},
                           {.prob = 0.02, .nvalues = 2, .values = b}};
    hazard_sort_values(&r[0]);
    hazard_sort_values(&r[1]);
    double levels[3] = {2.2, 4.5, 6}, poe[3];
    cs_error err;
    CHECK_OK(hazard_curve(r, 2, levels, 3, poe, &err), &err);
    CHECK_NEAR(poe[0], 1 - sqrt(0.9) * 0.98, 1e-15);
    CHECK_NEAR(poe[1], 1 - sqrt(0.98), 1e-15);
    CHECK_NEAR(poe[2], 0, 0);
    double bad[2] = {1, 1};
    CHECK(hazard_curve(r, 2, bad, 2, poe, &err) != 0 && strstr(err.message, "increasing"));
}

TEST(hazard_probabilities_per_year_and_levels) {
    CHECK_NEAR(hazard_annual(0.02, 50), 4.0397e-4, 1e-8);
    CHECK_NEAR(hazard_annual(0.10, 50), 2.1050e-3, 1e-7);
    CHECK_NEAR(hazard_annual(0.3, 1), 0.3, 1e-15);
    double lev[3] = {0.01, 0.1, 1}, ann[3] = {1e-2, 1e-3, 1e-5};
    /* log-log between (0.1, 1e-3) and (1, 1e-5): 1e-4 at 10^-0.5 */
    CHECK_NEAR(hazard_level_at(lev, ann, 3, 1e-4), pow(10, -0.5), 1e-12);
    CHECK(isnan(hazard_level_at(lev, ann, 3, 1e-6)));
    double d[51];
    int n;
    hazard_default_levels(d, &n);
    CHECK(n == 51);
    CHECK_NEAR(d[0], 1e-4, 1e-18);
    CHECK_NEAR(d[50], 10, 1e-12);
}

TEST(hazard_im_names) {
    hazard_im im;
    cs_error err;
    CHECK_OK(hazard_im_parse("RotD50 3.0", &im, &err), &err);
    CHECK(!strcmp(im.measure, "SA") && im.period == 3 && !strcmp(im.component, "RotD50"));
    CHECK_OK(hazard_im_parse("geometric mean 5", &im, &err), &err);
    CHECK(!strcmp(im.component, "geometric mean") && im.period == 5);
    CHECK_OK(hazard_im_parse("SA 10 RotD100", &im, &err), &err);
    CHECK(!strcmp(im.component, "RotD100") && im.period == 10);
    CHECK_OK(hazard_im_parse("PGV E", &im, &err), &err);
    CHECK(!strcmp(im.measure, "PGV") && im.period == 0);
    CHECK(hazard_im_parse("RotD50", &im, &err) != 0 && strstr(err.message, "--im"));
    CHECK(hazard_im_parse("RotD50 -3", &im, &err) != 0);
    CHECK(hazard_im_parse("PGA sideways", &im, &err) != 0);
}

#include "gmpe.h"

/* Sadigh et al. (1997) rock at points worked out by hand from the published table (Python,
 * independently of this code): PGA M 6.5 at 10 km (M <= 6.5 branch), M 7.0 at 20 km (M > 6.5
 * branch), SA 1 s M 6 at 15 km (with the (8.5 - M)^2.5 term), the reverse-faulting factor, sigma
 * and its constant above M 7.21. */
TEST(gmpe_sadigh97_rock_by_hand) {
    gmpe_value g;
    cs_error err;
    CHECK_OK(gmpe_sadigh97_rock(0, 6.5, 10, 0, &g, &err), &err);
    CHECK_NEAR(g.ln_median, -1.163871839631966, 1e-12);
    CHECK_NEAR(g.sigma, 0.48, 1e-12);
    CHECK_OK(gmpe_sadigh97_rock(0, 7.0, 20, 0, &g, &err), &err);
    CHECK_NEAR(g.ln_median, -1.5270328084633524, 1e-12);
    CHECK_OK(gmpe_sadigh97_rock(0, 7.0, 20, 90, &g, &err), &err);
    CHECK_NEAR(g.ln_median, -1.5270328084633524 + log(1.2), 1e-12);
    CHECK_OK(gmpe_sadigh97_rock(1.0, 6.0, 15, -10, &g, &err), &err);
    CHECK_NEAR(g.ln_median, -2.452026865158677, 1e-12);
    CHECK_NEAR(g.sigma, 0.69, 1e-12);
    CHECK_OK(gmpe_sadigh97_rock(0, 7.5, 20, 0, &g, &err), &err);
    CHECK_NEAR(g.sigma, 0.38, 1e-12);
    CHECK(gmpe_sadigh97_rock(5.0, 6, 10, 0, &g, &err) != 0 && strstr(err.message, "4 s"));
}

/* The lognormal path of the integrator: untruncated, truncated two-sided and upper-only. */
TEST(hazard_lognormal_exceedance) {
    double lnm[1] = {log(0.2)};
    hazard_rupture r = {.prob = 0.1, .nvalues = 1, .values = lnm, .lognormal = 1, .sigma = 0.5};
    /* at the median: one half; one sigma above: 1 - Phi(1) = 0.158655... */
    CHECK_NEAR(hazard_exceedance(&r, 0.2), 0.5, 1e-15);
    CHECK_NEAR(hazard_exceedance(&r, 0.2 * exp(0.5)), 0.15865525393145705, 1e-14);
    r.trunc = 2;
    r.upper_only = 1;
    /* (Phi(2) - Phi(1)) / Phi(2) */
    CHECK_NEAR(hazard_exceedance(&r, 0.2 * exp(0.5)),
               (0.9772498680518208 - 0.8413447460685429) / 0.9772498680518208, 1e-12);
    CHECK_NEAR(hazard_exceedance(&r, 0.2 * exp(1.0)), 0, 0);
    r.upper_only = 0;
    CHECK_NEAR(hazard_exceedance(&r, 0.2 * exp(-1.5)), 1, 0);
    CHECK_NEAR(hazard_exceedance(&r, 0.2), 0.5, 1e-15);
}
