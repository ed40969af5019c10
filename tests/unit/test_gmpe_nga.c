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

/* ASK14: one table per result, NAME_mean/total/intra.csv; tol relative, the same for all. */
static void ask14_tables(const char *prefix, double tol, int want_rows, double worst[3]) {
    static const char *kind[3] = {"mean", "total", "intra"};
    for (int k = 0; k < 3; k++) {
        char name[128];
        int n;
        snprintf(name, sizeof name, "%s_%s.csv", prefix, kind[k]);
        oq_table_check(name, gmpe_ask14, tol, &n, &worst[k]);
        if (tf_failed()) return;
        CHECK_MSG(n == want_rows, "%s: %d rows, want %d", name, n, want_rows);
    }
}

/* ASK14: 28 of the 5184 rows of each California table (NOTES.md: chosen to cover every
 * magnitude (5 to 8.4, both sides of M1), mechanism, Rrup, Rx (footwall and hanging wall, inside
 * and beyond R1), Ry0 (the hanging-wall taper on and off), Vs30 (151 to 810 m/s) and Z1.0, in
 * pairs), all 22 periods (PGV skipped); medians, total and within-event sigmas (between-event
 * follows). Seven significant digits: 1e-6 relative. The whole tables (not kept) agreed to
 * 4.9e-7. */
TEST(gmpe_ask14_matches_the_verification_tables) {
    double w[3];
    ask14_tables("ask14", 1e-6, 28, w);
    if (tf_failed()) return;
    printf("     ASK14: 28 rows x 22 periods in 3 tables, worst relative %.1e (median), %.1e "
           "(sigma), %.1e (phi)\n",
           w[0], w[1], w[2]);
}

/* What the ASK14 tables leave fixed (dip 45, Ztor 1 km, width 10 km, Vs30 measured, Ry0 and
 * Z1.0 given): the within-event sigma of an inferred Vs30 at PGA (s1e 0.754, s2e 0.52 against
 * s1m 0.741, s2m 0.501; on rock above Vlin there is no nonlinear part, so phi is exactly the
 * table's), the hanging-wall taper on Rjb where Ry0 is unknown, no soil-depth term where Z1.0 is
 * unknown, the width estimate, and bad input. */
TEST(gmpe_ask14_by_hand) {
    gmpe_scenario s = {.mag = 5,
                       .rake = 0,
                       .dip = 45,
                       .ztor = 1,
                       .rrup = 10,
                       .rjb = 9,
                       .rx = 5,
                       .vs30 = 760,
                       .z1_m = NAN,
                       .width = 10,
                       .zhyp = NAN,
                       .z2p5_km = NAN,
                       .ry0 = NAN};
    gmpe_value g, h;
    cs_error err;
    CHECK_OK(gmpe_ask14(0, &s, &g, &err), &err);
    CHECK_NEAR(g.phi, 0.754 + (0.52 - 0.754) / 2 * (5 - 4), 1e-12);
    CHECK_NEAR(g.tau, 0.47, 1e-12);
    s.vs30_measured = 1;
    s.mag = 6.5;
    CHECK_OK(gmpe_ask14(0, &s, &g, &err), &err);
    CHECK_NEAR(g.phi, 0.501, 1e-12);
    /* hanging wall at PGA, M 6.5 (T2 = 1), dip 45 (T1 = 1), Rx 5 < R1 = 10 cos 45 (T3), Ztor 1
     * (T4 = 0.99), Rjb 9 (T5 = 1 - 9 / 30): a13 0.6 times these, against the footwall */
    CHECK_OK(gmpe_ask14(0, &s, &g, &err), &err);
    gmpe_scenario fw = s;
    fw.rx = -5;
    CHECK_OK(gmpe_ask14(0, &fw, &h, &err), &err);
    const double x = 5 / (10 * cos(M_PI / 4));
    /* on rock above Vlin (760 >= 660 m/s at PGA) the site term is linear: the difference is the
     * hanging-wall term alone */
    CHECK_NEAR(g.ln_median - h.ln_median,
               0.6 * (0.25 + 1.5 * x - 0.75 * x * x) * (1 - 1 / 100.0) * (1 - 9 / 30.0), 1e-12);
    /* Z1.0 at its reference for the Vs30: the same as unknown */
    gmpe_scenario z = s;
    z.z1_m = exp(-7.67 / 4 * log((pow(760, 4) + pow(610, 4)) / (pow(1360, 4) + pow(610, 4))));
    CHECK_OK(gmpe_ask14(3, &s, &g, &err), &err);
    CHECK_OK(gmpe_ask14(3, &z, &h, &err), &err);
    CHECK_NEAR(g.ln_median, h.ln_median, 1e-9);
    /* the width unknown: min(18 / sin 45, 10^(-1.75 + 0.45 * 6.5)) */
    z = s;
    z.width = NAN;
    s.width = fmin(18 / sin(M_PI / 4), pow(10, -1.75 + 0.45 * 6.5));
    CHECK_OK(gmpe_ask14(1, &s, &g, &err), &err);
    CHECK_OK(gmpe_ask14(1, &z, &h, &err), &err);
    CHECK_NEAR(g.ln_median, h.ln_median, 1e-12);
    s.ry0 = -1;
    CHECK(gmpe_ask14(1, &s, &g, &err) != 0 && strstr(err.message, "Ry0 -1"));
}
