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
    /* the vertical SA, the FAS (at 1/PERIOD Hz) and the period-dependent durations */
    CHECK_OK(hazard_im_parse("SA 3 Z", &im, &err), &err);
    CHECK(!strcmp(im.measure, "SA") && im.period == 3 && !strcmp(im.component, "Z"));
    CHECK_OK(hazard_im_parse("FAS 5 EAS", &im, &err), &err);
    CHECK(!strcmp(im.measure, "FAS") && im.period == 5 && !strcmp(im.component, "EAS"));
    CHECK_OK(hazard_im_parse("D5-95 10 E", &im, &err), &err);
    CHECK(!strcmp(im.measure, "D5-95") && im.period == 10 && !strcmp(im.component, "E"));
    CHECK_OK(hazard_im_parse("D5-95 E", &im, &err), &err);
    CHECK(!strcmp(im.measure, "D5-95") && im.period == 0);
    char name[64];
    hazard_im_name(&(hazard_im){"FAS", 5, "EAS"}, name, sizeof name);
    CHECK(!strcmp(name, "FAS(5) EAS"));
    CHECK(hazard_im_parse("FAS 5", &im, &err) != 0 && strstr(err.message, "'FAS 5 EAS'"));
    CHECK(hazard_im_parse("EAS 5", &im, &err) != 0);
    CHECK(hazard_im_parse("FAS -5 E", &im, &err) != 0);
    CHECK(hazard_im_parse("PGV 3 E", &im, &err) != 0);
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

#include "disagg.h"

/* Two ruptures by hand: A (P 0.1, M 6.0, 10 km, values 1..4), B (P 0.02, M 7.0, 30 km, values
 * 2.5, 5). At x = 2.2: lambda_A f_A = -ln(0.9) 0.5, lambda_B f_B = -ln(0.98) 1 (A 72%); the shares
 * are those over their sum; the mean magnitude their weighted mean; the level found for the curve's
 * own probability at x is x (bisection on the step curve lands in [2, 2.5)). */
TEST(disagg_two_ruptures_by_hand) {
    double a[4] = {1, 2, 3, 4}, b[2] = {2.5, 5}, mag[2] = {6.0, 7.0}, rr[2] = {10, 30};
    hazard_rupture r[2] = {{.prob = 0.1, .nvalues = 4, .values = a},
                           {.prob = 0.02, .nvalues = 2, .values = b}};
    disagg_bins bins;
    disagg_default_bins(&bins);
    disagg_result d;
    cs_error err;
    CHECK_OK(disagg_compute(r, mag, rr, 2, 2.2, &bins, &d, &err), &err);
    double ca = -log(0.9) * 0.5, cb = -log(0.98);
    CHECK_NEAR(d.contribution[0], ca / (ca + cb), 1e-14);
    CHECK_NEAR(d.contribution[1], cb / (ca + cb), 1e-14);
    CHECK_NEAR(d.mean_m, (6 * ca + 7 * cb) / (ca + cb), 1e-12);
    CHECK_NEAR(d.mean_r, (10 * ca + 30 * cb) / (ca + cb), 1e-12);
    double sum = 0;
    for (int i = 0; i < bins.nm * bins.nr * bins.ne; i++)
        sum += d.bins[i];
    CHECK_NEAR(sum, 1, 1e-14);
    /* epsilon of A at 2.2: (ln 2.2 - mean ln a) / sd ln a (population) */
    double m = (log(1) + log(2) + log(3) + log(4)) / 4, v = 0;
    for (int i = 0; i < 4; i++)
        v += (log(a[i]) - m) * (log(a[i]) - m) / 4;
    CHECK_NEAR(d.eps[0], (log(2.2) - m) / sqrt(v), 1e-12);
    /* the modal bin: A's (M 6.0-6.1, Rrup 0-20), its share 0.72 */
    CHECK_NEAR(d.mode_m, 6.05, 1e-12);
    CHECK_NEAR(d.mode_r, 10, 1e-12);
    disagg_free(&d);
    double poe, level;
    CHECK_OK(hazard_curve(r, 2, (double[]){2.2}, 1, &poe, &err), &err);
    CHECK_OK(disagg_level_for(r, 2, 1.0, hazard_annual(poe, 1.0), &level, &err), &err);
    CHECK(level >= 2.0 && level < 2.5);
    CHECK(disagg_compute(r, mag, rr, 2, 6.0, &bins, &d, &err) != 0 &&
          strstr(err.message, "above the curve"));
    double pa;
    CHECK_OK(disagg_parse_poe("2% in 50 yr", &pa, &err), &err);
    CHECK_NEAR(pa, hazard_annual(0.02, 50), 1e-15);
    CHECK_OK(disagg_parse_poe("0.001", &pa, &err), &err);
    CHECK_NEAR(pa, 0.001, 0);
    CHECK(disagg_parse_poe("lots", &pa, &err) != 0);
}

#include "cs_geo.h"
#include "rupture_rrup.h"

/* Rrup against the geodesic at every point: random ruptures, and two points whose order the
 * sphere and the ellipsoid disagree on (east of the site 50.1 km, north of it 50.0 km: on the
 * sphere the eastern one is nearer by 0.13 km), so that a bound too tight picks the wrong one. */
TEST(hazard_rrup_is_the_least_geodesic_distance) {
    const double site_lon = -118.2, site_lat = 34.0;
    double lon[2], lat[2], depth[2] = {0, 0}, scratch[2];
    cs_geo_destination(site_lon, site_lat, 90, 50.1e3, &lon[0], &lat[0]);
    cs_geo_destination(site_lon, site_lat, 0, 50.0e3, &lon[1], &lat[1]);
    CHECK(cs_geo_distance_sphere(site_lon, site_lat, lon[0], lat[0]) <
          cs_geo_distance_sphere(site_lon, site_lat, lon[1], lat[1]));
    CHECK_NEAR(hazard_rrup_km(site_lon, site_lat, lon, lat, depth, 2, scratch), 50.0, 1e-9);
    enum { N = 500 };
    static double plon[N], plat[N], pz[N], ps[N];
    unsigned long long st = 99;
    for (int trial = 0; trial < 40; trial++) {
        double best = INFINITY;
        for (int q = 0; q < N; q++) {
            double u[3];
            for (int k = 0; k < 3; k++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                u[k] = (double)(st >> 11) / 9007199254740992.0;
            }
            /* a cloud 5-250 km away in every direction, 0-20 km deep */
            cs_geo_destination(site_lon, site_lat, 360 * u[0], 5e3 + 245e3 * u[1], &plon[q],
                               &plat[q]);
            pz[q] = 20 * u[2];
            double d = cs_geo_distance(site_lon, site_lat, plon[q], plat[q]) * 1e-3;
            best = fmin(best, sqrt(d * d + pz[q] * pz[q]));
        }
        CHECK(hazard_rrup_km(site_lon, site_lat, plon, plat, pz, N, ps) == best);
    }
    CHECK(hazard_rrup_km(site_lon, site_lat, plon, plat, pz, 0, ps) == 0);
}
