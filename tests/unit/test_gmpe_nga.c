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

/* CB14: one table per result, NAME_mean/total/inter/intra.csv; tol relative, the same for all. */
static void cb14_tables(const char *prefix, double tol, int want_rows, double worst[4]) {
    static const char *kind[4] = {"mean", "total", "inter", "intra"};
    for (int k = 0; k < 4; k++) {
        char name[128];
        int n;
        snprintf(name, sizeof name, "%s_%s.csv", prefix, kind[k]);
        oq_table_check(name, gmpe_cb14, tol, &n, &worst[k]);
        if (tf_failed()) return;
        CHECK_MSG(n == want_rows, "%s: %d rows, want %d", name, n, want_rows);
    }
}

/* CB14: 39 of the 8855 rows of each table (NOTES.md: chosen to cover every magnitude, mechanism,
 * dip, Ztor, Vs30 and Z2.5, footwall and both hanging-wall segments, Rrup 0, below and beyond 80
 * km, shallow and deep hypocentres, in pairs), all 17 periods (PGV skipped); medians, total,
 * between- and within-event sigmas. The tables carry seven significant digits (rounding up to
 * 5e-7 relative): 1e-6 relative. The whole tables (not kept) agreed to 4.9e-7. */
TEST(gmpe_cb14_matches_the_verification_tables) {
    double w[4];
    cb14_tables("cb14", 1e-6, 39, w);
    if (tf_failed()) return;
    printf("     CB14: 39 rows x 17 periods in 4 tables, worst relative %.1e (median), %.1e "
           "(sigma), %.1e (tau), %.1e (phi)\n",
           w[0], w[1], w[2], w[3]);
}

/* What the CB14 tables always give and a CyberShake rupture may not: Z2.5 from Vs30 (eq. 33),
 * the width (eq. 39) and hypocentre depth (eqs. 35-37) estimated, each the same as passing the
 * estimate worked by hand; a period between the tabulated ones; a bad input. */
TEST(gmpe_cb14_defaults_by_hand) {
    gmpe_scenario s = {.mag = 6.5,
                       .rake = 90,
                       .dip = 30,
                       .ztor = 2,
                       .rrup = 8,
                       .rjb = 3,
                       .rx = 12,
                       .vs30 = 400,
                       .z1_m = NAN,
                       .width = NAN,
                       .zhyp = NAN,
                       .z2p5_km = NAN,
                       .ry0 = NAN};
    gmpe_scenario e = s;
    e.z2p5_km = exp(7.089 - 1.144 * log(400.0));
    /* sqrt(10^((6.5 - 4.07) / 0.98)) = 17.3 km, under (15 - 2) / sin 30 = 26 km */
    e.width = fmin(sqrt(pow(10, (6.5 - 4.07) / 0.98)), 13 / 0.5);
    /* ln dZ = min(-4.317 + 0.984 * 6.5 + 0.0445 * (30 - 40), ln(0.9 W sin 30)) */
    e.zhyp = 2 + exp(fmin(-4.317 + 0.984 * 6.5 - 0.445, log(0.9 * e.width * 0.5)));
    gmpe_value a, b;
    cs_error err;
    for (double t = 0; t <= 10; t += 2.5) {
        CHECK_OK(gmpe_cb14(t, &s, &a, &err), &err);
        CHECK_OK(gmpe_cb14(t, &e, &b, &err), &err);
        CHECK_NEAR(a.ln_median, b.ln_median, 1e-12);
        CHECK_NEAR(a.sigma, b.sigma, 1e-12);
    }
    /* the estimates matter here: a deeper hypocentre changes the median */
    e.zhyp += 5;
    CHECK_OK(gmpe_cb14(1, &e, &b, &err), &err);
    CHECK_OK(gmpe_cb14(1, &s, &a, &err), &err);
    CHECK(fabs(a.ln_median - b.ln_median) > 1e-3);
    /* 2.5 s: halfway in ln T between 2 and 3 s is sqrt(6) */
    gmpe_value lo, hi;
    CHECK_OK(gmpe_cb14(2, &s, &lo, &err), &err);
    CHECK_OK(gmpe_cb14(3, &s, &hi, &err), &err);
    CHECK_OK(gmpe_cb14(sqrt(6.0), &s, &a, &err), &err);
    CHECK_NEAR(a.ln_median, 0.5 * (lo.ln_median + hi.ln_median), 1e-12);
    CHECK_NEAR(a.tau, 0.5 * (lo.tau + hi.tau), 1e-12);
    s.dip = 0;
    CHECK(gmpe_cb14(1, &s, &a, &err) != 0 && strstr(err.message, "dip 0"));
}
