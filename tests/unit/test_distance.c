/* Rupture distances (erf_distance.h): Rx by GC2 against plane geometry worked by hand (one
 * segment, its extension, a symmetric bend, continuity across the bend's bisector), and against
 * sites placed at known geodesic offsets from a gridded dipping fault; Rrup, Rjb, Ztor of the
 * grid; the point-source rules; area sources left out of the ruptures to simulate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_db.h"
#include "cs_geo.h"
#include "erf_db.h"
#include "erf_distance.h"
#include "tf.h"

TEST(gc2_one_segment_is_the_signed_perpendicular_distance) {
    /* trace from (0, -10) to (0, 10) km, striking north: the right side is east (x > 0) */
    double x[2], y[2];
    const double sx[4] = {7, -7, 3, -2}, sy[4] = {0, 4, 25, -30}; /* sites */
    for (int s = 0; s < 4; s++) {
        x[0] = 0 - sx[s], y[0] = -10 - sy[s], x[1] = 0 - sx[s], y[1] = 10 - sy[s];
        CHECK_NEAR(erf_gc2_t(x, y, 2), sx[s], 1e-12); /* beside it and beyond its ends */
    }
    /* on the segment and on its extension */
    x[0] = 0, y[0] = -10, x[1] = 0, y[1] = 10;
    CHECK_NEAR(erf_gc2_t(x, y, 2), 0, 0);
    y[0] = 5, y[1] = 20;
    CHECK_NEAR(erf_gc2_t(x, y, 2), 0, 1e-12);
}

TEST(gc2_symmetric_bend_and_continuity) {
    /* A -> B striking 45 degrees, B -> C striking 135 (a roof), 20 km each, B at the origin
     * shifted so the site is D km due south of B: both segments see t = D / sqrt(2), equal
     * weights by symmetry, so T = D / sqrt(2); north of B, T = -D / sqrt(2). */
    const double L = 20, c = L / sqrt(2.0);
    for (int side = -1; side <= 1; side += 2) {
        const double D = 6.0, by = side * D; /* B relative to the site */
        double x[3] = {-c, 0, c}, y[3] = {by - c, by, by - c};
        CHECK_NEAR(erf_gc2_t(x, y, 3), side * D / sqrt(2.0), 1e-9);
    }
    /* T is continuous across the bisector (the nearest-segment distance is not, off the
     * bend's inner side): sites just east and west of it. */
    double x[3] = {-c, 0, c}, y[3] = {-c - 6, -6, -c - 6};
    double xe[3], xw[3];
    for (int k = 0; k < 3; k++)
        xe[k] = x[k] - 1e-6, xw[k] = x[k] + 1e-6;
    CHECK_NEAR(erf_gc2_t(xe, y, 3), erf_gc2_t(xw, y, 3), 1e-6);
}

/* A fault 30 km long striking north from (lon0, lat0), 4 rows dipping 45 degrees east with 1 km
 * spacing along dip, its top at 2 km depth. */
#define NC 31
#define NR 4
static void dipping_fault(double lat[NR * NC], double lon[NR * NC], double dep[NR * NC]) {
    const double lon0 = -118.0, lat0 = 34.0, s = sqrt(0.5);
    for (int r = 0; r < NR; r++)
        for (int c = 0; c < NC; c++) {
            double la, lo;
            cs_geo_destination(lon0, lat0, 0, c * 1000.0, &lo, &la);
            cs_geo_destination(lo, la, 90, r * s * 1000.0, &lo, &la);
            lat[r * NC + c] = la, lon[r * NC + c] = lo, dep[r * NC + c] = 2 + r * s;
        }
}

TEST(distances_of_a_dipping_fault_at_known_offsets) {
    double lat[NR * NC], lon[NR * NC], dep[NR * NC];
    dipping_fault(lat, lon, dep);
    cs_error err;
    erf_distances d;
    /* 10 km east (hanging wall) and west (footwall) of the trace's middle point */
    const int mid = NC / 2;
    for (int side = -1; side <= 1; side += 2) {
        double lo, la;
        cs_geo_destination(lon[mid], lat[mid], side > 0 ? 90 : 270, 10000, &lo, &la);
        CHECK_OK(erf_distances_at(lat, lon, dep, NR, NC, lo, la, &d, &err), &err);
        /* geodesics in the site's azimuthal equidistant frame: a few metres over 15 km */
        CHECK_NEAR(d.rx, side * 10.0, 0.01);
        CHECK_NEAR(d.ztor, 2.0, 1e-12);
        /* east: the nearest grid column is the bottom row, 10 - 3 sqrt(0.5) km away */
        CHECK_NEAR(d.rjb, side > 0 ? 10 - 3 * sqrt(0.5) : 10, 0.01);
    }
    /* right above a grid point of the third row: Rjb 0, Rrup at most that point's depth */
    const int q = 2 * NC + 7;
    CHECK_OK(erf_distances_at(lat, lon, dep, NR, NC, lon[q], lat[q], &d, &err), &err);
    CHECK_NEAR(d.rjb, 0, 1e-9);
    CHECK(d.rrup <= dep[q] + 1e-9 && d.rrup > 2.0);
    /* 5 km east of the line 12 km past the northern end: Rx measures from the extended trace */
    double lo, la;
    cs_geo_destination(lon[NC - 1], lat[NC - 1], 0, 12000, &lo, &la);
    cs_geo_destination(lo, la, 90, 5000, &lo, &la);
    CHECK_OK(erf_distances_at(lat, lon, dep, NR, NC, lo, la, &d, &err), &err);
    CHECK_NEAR(d.rx, 5.0, 0.01);
}

TEST(point_source_distances) {
    double lat = 34.0, lon = -118.0, dep = 8.0, lo, la;
    cs_geo_destination(lon, lat, 30, 6000, &lo, &la);
    cs_error err;
    erf_distances d;
    CHECK_OK(erf_distances_at(&lat, &lon, &dep, 1, 1, lo, la, &d, &err), &err);
    CHECK_NEAR(d.rjb, 6.0, 1e-9);
    CHECK_NEAR(d.rrup, 10.0, 1e-9); /* hypocentral: 6, 8, 10 */
    CHECK_NEAR(d.rx, -6.0, 1e-9);   /* no hanging wall */
    CHECK_NEAR(d.ztor, 8.0, 0);
}

TEST(area_sources_are_not_ruptures_to_simulate) {
    cs_db *db;
    cs_error err;
    const char *path = tf_path("study.sqlite");
    CHECK_OK(cs_db_init(path, 0, &err), &err);
    CHECK_OK(cs_db_open_current(path, &db, &err), &err);
    long long erf;
    CHECK_OK(erf_db_create(db, "f", "test", 1, "", &erf, &err), &err);
    erf_db_writer w;
    CHECK_OK(erf_db_writer_open(db, erf, &w, &err), &err);
    erf_rupture r;
    memset(&r, 0, sizeof r);
    CHECK_OK(erf_rupture_alloc(&r, 1, 2, &err), &err);
    for (int k = 0; k < 2; k++)
        r.lat[k] = 34 + 0.01 * k, r.lon[k] = -118, r.dep[k] = 5, r.dip[k] = 90;
    r.magnitude = 6, r.prob = 1e-3, r.spacing_km = 1;
    strcpy(r.source_type, "fault");
    CHECK_OK(erf_db_writer_add(&w, &r, NAN, NULL, &err), &err);
    r.source_id = 1;
    strcpy(r.source_type, "area");
    CHECK_OK(erf_db_writer_add(&w, &r, NAN, NULL, &err), &err);
    erf_db_writer_close(&w);
    erf_rupture_key *keys;
    long n;
    CHECK_OK(erf_db_rupture_keys(db, erf, &keys, &n, &err), &err);
    CHECK(n == 1 && keys[0].source_id == 0);
    free(keys);
    erf_rupture_free(&r);
    cs_db_close(db);
}
