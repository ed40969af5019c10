/* The NGA-West2 models I14, CB14 and ASK14 against OpenQuake's verification tables
 * (tests/data/gmpe, NOTES.md there: which tables, from where, which rows), and their terms
 * that the tables leave unexercised worked by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gmpe.h"
#include "gmpe_oq_table.h"
#include "tf.h"

/* I14: both tables whole (200 rows each: M 4.5 to 7.5, strike-slip and reverse, Rrup 1 to
 * 100 km, Vs30 450 to 1500 m/s, PGA and ten periods 0.02 to 10 s). The tables carry nine
 * significant digits and the model is closed-form: 1e-6 relative leaves room for the
 * coefficients' rounding only. */
TEST(gmpe_i14_matches_the_verification_tables) {
    int n;
    double worst_m, worst_s;
    oq_table_check("i14_mean.csv", gmpe_i14, 1e-6, &n, &worst_m);
    if (tf_failed()) return;
    CHECK(n == 200);
    oq_table_check("i14_total_std.csv", gmpe_i14, 1e-6, &n, &worst_s);
    if (tf_failed()) return;
    CHECK(n == 200);
    printf("     I14: 200 median and 200 sigma rows x 11 periods, worst relative %.1e (median), "
           "%.1e (sigma)\n",
           worst_m, worst_s);
}

/* What the I14 tables leave out: M above 7.5 (sigma held at M 7.5), the coefficient switch at
 * M 6.75, periods between the tabulated ones, and bad inputs. */
TEST(gmpe_i14_by_hand) {
    gmpe_scenario s = {.mag = 8, .rake = 0, .rrup = 10, .vs30 = 760, .z1_m = NAN};
    gmpe_value g;
    cs_error err;
    CHECK_OK(gmpe_i14(1.0, &s, &g, &err), &err);
    CHECK_NEAR(g.sigma, 1.18 - 0.06 * 7.5, 1e-12);
    /* PGA, M 6.75 on the lower set: 7.0887 + 0.2058 M + 0.0589 (8.5 - M)^2
     * - (2.9935 - 0.2287 M) ln(Rrup + 10) - 0.854 ln(760) - 0.0027 Rrup */
    s.mag = 6.75;
    CHECK_OK(gmpe_i14(0, &s, &g, &err), &err);
    const double m = 6.75;
    CHECK_NEAR(g.ln_median,
               7.0887 + 0.2058 * m + 0.0589 * (8.5 - m) * (8.5 - m) -
                   (2.9935 - 0.2287 * m) * log(20.0) - 0.854 * log(760.0) - 0.0027 * 10,
               1e-12);
    /* 2.5 s: halfway in ln T between 2 and 3 s is sqrt(6) */
    gmpe_value a, b;
    CHECK_OK(gmpe_i14(2, &s, &a, &err), &err);
    CHECK_OK(gmpe_i14(3, &s, &b, &err), &err);
    CHECK_OK(gmpe_i14(sqrt(6.0), &s, &g, &err), &err);
    CHECK_NEAR(g.ln_median, 0.5 * (a.ln_median + b.ln_median), 1e-12);
    CHECK(gmpe_i14(11, &s, &g, &err) != 0 && strstr(err.message, "10 s"));
    s.rrup = -1;
    CHECK(gmpe_i14(1, &s, &g, &err) != 0 && strstr(err.message, "Rrup -1"));
}
