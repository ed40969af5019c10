/* BSSA14 and CY14 against OpenQuake's verification tables (tests/data/gmpe, NOTES.md there:
 * which tables, from where, which rows), with the basin terms on Z1.0 the tables exercise; and
 * the terms worked by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmpe.h"
#include "gmpe_oq_table.h"
#include "tf.h"

static int bssa14_japan(double period, const gmpe_scenario *s, gmpe_value *out, cs_error *err) {
    gmpe_scenario j = *s;
    j.region = GMPE_REGION_JAPAN;
    return gmpe_bssa14(period, &j, out, err);
}

/* PREFIX_mean/total/inter/intra.csv against the model; tol relative for the medians, tol_sd for
 * the deviations. */
static void four_tables(const char *prefix, oq_model model, double tol, double tol_sd,
                        int want_rows, double worst[4]) {
    static const char *kind[4] = {"mean", "total", "inter", "intra"};
    for (int k = 0; k < 4; k++) {
        char name[4200];
        int n;
        snprintf(name, sizeof name, "%s_%s.csv", prefix, kind[k]);
        oq_table_check(name, model, k ? tol_sd : tol, &n, &worst[k]);
        if (tf_failed()) return;
        CHECK_MSG(want_rows < 0 || n == want_rows, "%s: %d rows, want %d", name, n, want_rows);
    }
}

/* BSSA14 with the California and the Japan basin models: 57 of the 990 rows and 55 of the 720
 * (NOTES.md: every magnitude 3 to 8, mechanism, Rjb 0 to 100 km and site (Vs30 200 to 1600 m/s
 * with its Z1.0, 0 to 1000 m: dz1 below and above f7 / f6) in pairs), every period of the table
 * (PGA and 0.01 to 10 s; PGV skipped); medians, total, between- and within-event sigmas. The
 * tables come from Boore's Fortran with six significant digits (rounding up to 5e-6 relative):
 * 1e-5 relative. */
TEST(gmpe_bssa14_matches_the_verification_tables) {
    double c[4], j[4];
    four_tables("bssa14_cal", gmpe_bssa14, 1e-5, 2.5e-4, 57, c);
    if (tf_failed()) return;
    four_tables("bssa14_jpn", bssa14_japan, 1e-5, 2.5e-4, 55, j);
    if (tf_failed()) return;
    printf("     BSSA14 California basin: 57 rows x 37 periods in 4 tables, worst relative %.1e "
           "(median), %.1e (sigma), %.1e (tau), %.1e (phi)\n",
           c[0], c[1], c[2], c[3]);
    printf("     BSSA14 Japan basin: 55 rows x 37 periods in 4 tables, worst relative %.1e "
           "(median), %.1e (sigma), %.1e (tau), %.1e (phi)\n",
           j[0], j[1], j[2], j[3]);
}

/* The whole tables when CS_OQ_TABLES names a folder holding OpenQuake's BSSA2014/ files (not
 * kept in the repository: NOTES.md); skipped otherwise. */
TEST(gmpe_bssa14_whole_tables) {
    const char *dir = getenv("CS_OQ_TABLES");
    if (!dir) {
        tf_skip("CS_OQ_TABLES unset (the whole OpenQuake tables are not in the repository)");
        return;
    }
    static const char *kind[4] = {"MEAN", "TOTAL_STD", "INTER_STD", "INTRA_STD"};
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 4; k++) {
            char name[4200];
            int n;
            double w;
            snprintf(name, sizeof name, "%s/BSSA_2014_%s_%s.csv", dir, r ? "JAPAN" : "CALIFORNIA",
                     kind[k]);
            oq_table_check(name, r ? bssa14_japan : gmpe_bssa14, k ? 2.5e-4 : 1e-5, &n, &w);
            if (tf_failed()) return;
            printf("     %s: %d rows, worst relative %.1e\n", strrchr(name, '/') + 1, n, w);
        }
}

/* The table without a basin term (Z1.0 unknown): rows of BSSA_2014_MEAN.csv, every period. */
TEST(gmpe_bssa14_without_basin_matches_the_table) {
    int n;
    double w;
    oq_table_check("bssa14_mean_subset.csv", gmpe_bssa14, 1e-5, &n, &w);
    if (tf_failed()) return;
    CHECK(n == 8);
    printf("     BSSA14 without basin: 8 rows x 37 periods, worst relative %.1e\n", w);
}

/* The basin term by hand: none below 0.65 s or with Z1.0 unknown; f6 dz1, then f7 (3 s: f6
 * 1.1348, f7 0.51585 of the published table); the Japan mu_z1; a period between two tabulated
 * ones; a bad input. */
TEST(gmpe_bssa14_basin_by_hand) {
    gmpe_scenario s = {.mag = 6.5,
                       .rake = 0,
                       .rjb = 20,
                       .vs30 = 400,
                       .z1_m = NAN,
                       .width = NAN,
                       .zhyp = NAN,
                       .z2p5_km = NAN,
                       .ry0 = NAN};
    gmpe_scenario b = s;
    const double mu =
        exp(-7.15 / 4 * log((pow(400, 4) + pow(570.94, 4)) / (pow(1360, 4) + pow(570.94, 4)))) /
        1000;
    CHECK_NEAR(gmpe_bssa14_mu_z1_km(400, GMPE_REGION_CALIFORNIA), mu, 1e-15);
    CHECK_NEAR(
        gmpe_bssa14_mu_z1_km(400, GMPE_REGION_JAPAN),
        exp(-5.23 / 2 * log((400.0 * 400 + 412.39 * 412.39) / (1360.0 * 1360 + 412.39 * 412.39))) /
            1000,
        1e-15);
    gmpe_value a, g;
    cs_error err;
    /* 0.5 s: no term whatever Z1.0 */
    b.z1_m = 800;
    CHECK_OK(gmpe_bssa14(0.5, &s, &a, &err), &err);
    CHECK_OK(gmpe_bssa14(0.5, &b, &g, &err), &err);
    CHECK_NEAR(g.ln_median, a.ln_median, 1e-15);
    /* 3 s: dz1 = 0.3 km below f7 / f6 = 0.455: f6 dz1; 1.5 km beyond: f7 */
    CHECK_OK(gmpe_bssa14(3, &s, &a, &err), &err);
    b.z1_m = (mu + 0.3) * 1000;
    CHECK_OK(gmpe_bssa14(3, &b, &g, &err), &err);
    CHECK_NEAR(g.ln_median - a.ln_median, 1.1348 * 0.3, 1e-12);
    b.z1_m = (mu + 1.5) * 1000;
    CHECK_OK(gmpe_bssa14(3, &b, &g, &err), &err);
    CHECK_NEAR(g.ln_median - a.ln_median, 0.51585, 1e-12);
    /* Z1.0 at its mean: no term */
    b.z1_m = mu * 1000;
    CHECK_OK(gmpe_bssa14(3, &b, &g, &err), &err);
    CHECK_NEAR(g.ln_median, a.ln_median, 1e-12);
    /* 3.1 s lies between 3 and 3.2 s: linear in ln T */
    gmpe_value lo, hi;
    CHECK_OK(gmpe_bssa14(3, &s, &lo, &err), &err);
    CHECK_OK(gmpe_bssa14(3.2, &s, &hi, &err), &err);
    CHECK_OK(gmpe_bssa14(3.1, &s, &g, &err), &err);
    const double t = log(3.1 / 3) / log(3.2 / 3);
    CHECK_NEAR(g.ln_median, lo.ln_median + t * (hi.ln_median - lo.ln_median), 1e-12);
    CHECK_NEAR(g.phi, lo.phi + t * (hi.phi - lo.phi), 1e-12);
    b.z1_m = -5;
    CHECK(gmpe_bssa14(3, &b, &g, &err) != 0 && strstr(err.message, "Z1.0 -5"));
    CHECK(gmpe_bssa14(12, &s, &g, &err) != 0 && strstr(err.message, "10 s"));
}

/* A CY14 median table against the model, every row and period, the table floored as the paper
 * asks (SA at T <= 0.3 s not below PGA, p. 1144; the tables predate that rule in OpenQuake's
 * implementation): the table's value at T <= 0.3 s is taken as at least its 0.01 s value, which
 * is PGA (the same coefficients). Rows and the worst relative difference come back. */
static void cy14_median_table(const char *name, double tol, int *rows, double *worst) {
    oq_table t;
    oq_row r;
    *rows = 0;
    *worst = 0;
    int rc = oq_table_open(&t, name) ? -1 : 1;
    while (rc == 1 && (rc = oq_table_next(&t, &r)) == 1) {
        double pga = NAN;
        for (int k = 0; k < r.n; k++)
            if (r.period[k] == 0.01) pga = r.value[k];
        CHECK_MSG(!strcmp(r.kind, "MEAN") && isfinite(pga), "%s row %d: no MEAN at 0.01 s", name,
                  *rows + 1);
        for (int k = 0; k < r.n; k++) {
            gmpe_value g;
            cs_error err;
            CHECK_OK(gmpe_cy14(r.period[k], &r.s, &g, &err), &err);
            const double want = r.period[k] <= 0.3 ? fmax(r.value[k], pga) : r.value[k];
            const double rel = fabs(exp(g.ln_median) / want - 1);
            CHECK_MSG(rel <= tol,
                      "%s row %d (M %g rake %g dip %g Ztor %g Rrup %g Rjb %g Rx %g Vs30 %g Z1 %g) "
                      "T %g: %.7g, table %.7g (%.1e)",
                      name, *rows + 1, r.s.mag, r.s.rake, r.s.dip, r.s.ztor, r.s.rrup, r.s.rjb,
                      r.s.rx, r.s.vs30, r.s.z1_m, r.period[k], exp(g.ln_median), want, rel);
            *worst = fmax(*worst, rel);
        }
        ++*rows;
    }
    oq_table_close(&t);
    CHECK_MSG(rc == 0, "%s: %s", name, t.error);
}

/* CY14: the whole tables (NOTES.md): the medians of CY14_MEDIAN_MS_HW_NM/RV/SS (162 rows each:
 * M 3.5 to 8.5, normal, reverse and strike-slip, Ztor, Rrup 0 to 300 km on the hanging wall,
 * Vs30 180 to 1500 m/s, Z1.0 5, 10 and 23.5 m against its mean: the delta Z1.0 term) and the
 * sigmas of CY14_TOTAL/INTER/INTRA_EVENT_SIGMA (486 rows each, Vs30 measured and inferred), all
 * 24 periods. The medians carry five significant digits (rounding up to 5e-5 relative): 1e-4
 * relative; the sigmas five decimals (up to 5e-6 absolute, tau down to 0.1 where the site is
 * nonlinear): 1e-4 relative. */
TEST(gmpe_cy14_matches_the_verification_tables) {
    static const char *med[3] = {"cy14_median_ms_hw_nm.csv", "cy14_median_ms_hw_rv.csv",
                                 "cy14_median_ms_hw_ss.csv"};
    static const char *sig[3] = {"cy14_total_event_sigma.csv", "cy14_inter_event_sigma.csv",
                                 "cy14_intra_event_sigma.csv"};
    double wm[3], ws[3];
    for (int k = 0; k < 3; k++) {
        int n;
        cy14_median_table(med[k], 1e-4, &n, &wm[k]);
        if (tf_failed()) return;
        CHECK_MSG(n == 162, "%s: %d rows", med[k], n);
    }
    for (int k = 0; k < 3; k++) {
        int n;
        oq_table_check(sig[k], gmpe_cy14, 1e-4, &n, &ws[k]);
        if (tf_failed()) return;
        CHECK_MSG(n == 486, "%s: %d rows", sig[k], n);
    }
    printf("     CY14: 3 x 162 median rows and 3 x 486 sigma rows x 24 periods, worst relative "
           "%.1e / %.1e / %.1e (median NM / RV / SS), %.1e (sigma), %.1e (tau), %.1e (phi)\n",
           wm[0], wm[1], wm[2], ws[0], ws[1], ws[2]);
}

/* CY14's delta Z1.0 term by hand at 3 s on reference rock (Vs30 1130: no nonlinear term):
 * phi5 (1 - exp(-dz1 / phi6)), phi5 0.277, phi6 300 m, dz1 against the California mean
 * exp(-7.15 / 4 ln((Vs30^4 + 570.94^4) / (1360^4 + 570.94^4))); none when Z1.0 is unknown. */
TEST(gmpe_cy14_basin_by_hand) {
    gmpe_scenario s = {.mag = 7,
                       .rake = 0,
                       .dip = 90,
                       .ztor = 0,
                       .rrup = 30,
                       .rjb = 30,
                       .rx = 30,
                       .vs30 = 1130,
                       .z1_m = NAN,
                       .width = NAN,
                       .zhyp = NAN,
                       .z2p5_km = NAN,
                       .ry0 = NAN};
    gmpe_scenario b = s;
    const double mean =
        exp(-7.15 / 4 * log((pow(1130, 4) + pow(570.94, 4)) / (pow(1360, 4) + pow(570.94, 4))));
    b.z1_m = mean + 400;
    gmpe_value a, g;
    cs_error err;
    CHECK_OK(gmpe_cy14(3, &s, &a, &err), &err);
    CHECK_OK(gmpe_cy14(3, &b, &g, &err), &err);
    CHECK_NEAR(g.ln_median - a.ln_median, 0.277 * (1 - exp(-400.0 / 300)), 1e-12);
    b.z1_m = mean;
    CHECK_OK(gmpe_cy14(3, &b, &g, &err), &err);
    CHECK_NEAR(g.ln_median, a.ln_median, 1e-12);
}
