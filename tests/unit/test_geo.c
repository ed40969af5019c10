/* Geodesy through PROJ: round trips, rotation, axes, and rejection of bad input. */
#include <string.h>

#include "cs_geo.h"
#include "tf.h"

TEST(geo_round_trip_within_1mm_at_500km) {
    cs_geo_frame *f;
    cs_error e;
    CHECK_OK(cs_geo_frame_create(-118.2437, 34.0522, -55.0, &f, &e), &e);
    double worst = 0;
    /* Points 500 km from the origin in 16 directions, and along the box axes. */
    for (int k = 0; k < 16; k++) {
        double ang = k * M_PI / 8;
        double x = 5e5 * cos(ang), y = 5e5 * sin(ang);
        double lon, lat, x2, y2;
        CHECK_OK(cs_geo_to_geographic(f, x, y, &lon, &lat, &e), &e);
        CHECK_OK(cs_geo_to_local(f, lon, lat, &x2, &y2, &e), &e);
        double d = hypot(x2 - x, y2 - y);
        if (d > worst) worst = d;
    }
    CHECK_MSG(worst < 1e-3, "worst round-trip error %.3g m", worst);
    /* And the other way round, from geographic points 500 km away. */
    double lon1 = -118.2437 + 5e5 / (111320.0 * cos(34.0522 * M_PI / 180)), lat1 = 34.0522;
    double x, y, lon2, lat2;
    CHECK_OK(cs_geo_to_local(f, lon1, lat1, &x, &y, &e), &e);
    CHECK_OK(cs_geo_to_geographic(f, x, y, &lon2, &lat2, &e), &e);
    CHECK(cs_geo_distance(lon1, lat1, lon2, lat2) < 1e-3);
    cs_geo_frame_free(f);
}

TEST(geo_central_meridian_distance_matches_geodesic) {
    /* Transverse Mercator keeps scale 1 on its central meridian: a point due north at 300 km
     * must sit at x = geodesic distance (independent: Karney's geodesic) and y = 0. */
    cs_geo_frame *f;
    cs_error e;
    CHECK_OK(cs_geo_frame_create(-118.0, 34.0, 0.0, &f, &e), &e);
    double x, y;
    CHECK_OK(cs_geo_to_local(f, -118.0, 36.7, &x, &y, &e), &e);
    CHECK_NEAR(x, cs_geo_distance(-118.0, 34.0, -118.0, 36.7), 1e-3);
    CHECK_NEAR(y, 0.0, 1e-6);
    /* Due east: y > 0 (x north, y east), and the distance agrees to the projection's scale
     * error, (d/R)^2 / 2 = 1e-4 at 90 km; we allow 2e-4 relative. */
    CHECK_OK(cs_geo_to_local(f, -117.0, 34.0, &x, &y, &e), &e);
    double d = cs_geo_distance(-118.0, 34.0, -117.0, 34.0);
    CHECK(y > 0);
    CHECK_NEAR(hypot(x, y), d, 2e-4 * d);
    cs_geo_frame_free(f);
}

TEST(geo_rotation_points_x_along_the_azimuth) {
    cs_geo_frame *f;
    cs_error e;
    CHECK_OK(cs_geo_frame_create(-118.0, 34.0, -55.0, &f, &e), &e);
    /* A point 50 km from the origin at azimuth -55 (305) lies on the +x axis... */
    double x, y;
    double lon, lat;
    CHECK_OK(cs_geo_to_geographic(f, 5e4, 0, &lon, &lat, &e), &e);
    double az = cs_geo_azimuth(-118.0, 34.0, lon, lat);
    CHECK_NEAR(az, -55.0, 0.05);
    /* ... and one at azimuth 35 on the +y axis. */
    CHECK_OK(cs_geo_to_geographic(f, 0, 5e4, &lon, &lat, &e), &e);
    CHECK_NEAR(cs_geo_azimuth(-118.0, 34.0, lon, lat), 35.0, 0.05);
    CHECK_OK(cs_geo_to_local(f, lon, lat, &x, &y, &e), &e);
    CHECK_NEAR(x, 0, 1e-3);
    CHECK_NEAR(y, 5e4, 1e-3);
    cs_geo_frame_free(f);
}

TEST(geo_box_axes_in_east_north_up) {
    cs_geo_frame *f;
    cs_error e;
    double ax[3][3];
    CHECK_OK(cs_geo_frame_create(-118.0, 34.0, 0.0, &f, &e), &e);
    CHECK_OK(cs_geo_box_axes_enu(f, -118.0, 34.0, ax, &e), &e);
    /* azimuth 0: x = north, y = east, z = down. */
    CHECK_NEAR(ax[0][0], 0, 1e-6);
    CHECK_NEAR(ax[0][1], 1, 1e-6);
    CHECK_NEAR(ax[1][0], 1, 1e-6);
    CHECK_NEAR(ax[1][1], 0, 1e-6);
    CHECK(ax[2][2] == -1.0);
    cs_geo_frame_free(f);
    CHECK_OK(cs_geo_frame_create(-118.0, 34.0, 90.0, &f, &e), &e);
    CHECK_OK(cs_geo_box_axes_enu(f, -118.0, 34.0, ax, &e), &e);
    /* azimuth 90: x = east, y = south. */
    CHECK_NEAR(ax[0][0], 1, 1e-6);
    CHECK_NEAR(ax[1][1], -1, 1e-6);
    cs_geo_frame_free(f);
    CHECK_OK(cs_geo_frame_create(-118.0, 34.0, -55.0, &f, &e), &e);
    /* Away from the central meridian the meridian convergence turns the axes (about
     * 1.5 sin(34) = 0.84 degrees at 1.5 degrees east). Independent check: the geodesic azimuth
     * between two points 10 m apart along the box x axis there. */
    double xa, ya, lon_b, lat_b;
    CHECK_OK(cs_geo_box_axes_enu(f, -116.5, 34.0, ax, &e), &e);
    CHECK_OK(cs_geo_to_local(f, -116.5, 34.0, &xa, &ya, &e), &e);
    CHECK_OK(cs_geo_to_geographic(f, xa + 10.0, ya, &lon_b, &lat_b, &e), &e);
    double az_true = cs_geo_azimuth(-116.5, 34.0, lon_b, lat_b);
    double azx = atan2(ax[0][0], ax[0][1]) * 180 / M_PI;
    CHECK_NEAR(hypot(ax[0][0], ax[0][1]), 1.0, 1e-9);
    CHECK_NEAR(azx, az_true, 1e-3);
    CHECK_MSG(fabs(azx + 55.0) > 0.5, "convergence missing: %.4f", azx);
    /* y is x turned 90 degrees clockwise. */
    CHECK_NEAR(atan2(ax[1][0], ax[1][1]) * 180 / M_PI, azx + 90.0, 1e-6);
    cs_geo_frame_free(f);
}

TEST(geo_rejects_bad_input_with_the_value) {
    cs_geo_frame *f;
    cs_error e;
    CHECK(cs_geo_frame_create(-118.0, 95.0, 0, &f, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "latitude = '95'");
    CHECK(cs_geo_frame_create(200.0, 34.0, 0, &f, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "longitude = '200'");
    CHECK(cs_geo_frame_create(-118.0, 34.0, NAN, &f, &e) == CS_ERR_INPUT);
    CHECK_OK(cs_geo_frame_create(-118.0, 34.0, 0, &f, &e), &e);
    double x, y, lon, lat;
    CHECK(cs_geo_to_local(f, -118.0, -91.0, &x, &y, &e) == CS_ERR_INPUT);
    CHECK(cs_geo_to_local(f, NAN, 34.0, &x, &y, &e) == CS_ERR_INPUT);
    CHECK(cs_geo_to_local(f, 30.0, 34.0, &x, &y, &e) == CS_ERR_INPUT); /* other side of Earth */
    CHECK_CONTAINS(e.message, "km from the frame origin");
    CHECK(cs_geo_to_geographic(f, 5e6, 0, &lon, &lat, &e) == CS_ERR_INPUT);
    cs_geo_frame_free(f);
}

/* The sphere's distance bounds the ellipsoid's within CS_GEO_SPHERE_ERROR, which the plan's
 * rupture distances and the frame's range check rely on to skip exact geodesics: points in
 * every direction up to 2,000 km from sites at several latitudes. */
TEST(geo_sphere_distance_bounds_the_ellipsoid) {
    const double lats[] = {-60, -20, 0, 34, 70}, e = CS_GEO_SPHERE_ERROR;
    double worst = 0;
    for (int a = 0; a < 5; a++)
        for (int az = 0; az < 360; az += 15)
            for (double d = 1e3; d <= 2e6; d *= 3) {
                double lon2, lat2;
                cs_geo_destination(-118, lats[a], az, d, &lon2, &lat2);
                double g = cs_geo_distance(-118, lats[a], lon2, lat2);
                double s = cs_geo_distance_sphere(-118, lats[a], lon2, lat2);
                double rel = fabs(s / g - 1);
                if (rel > worst) worst = rel;
                CHECK(rel < e);
            }
    CHECK(worst > 1e-4); /* the test sees the flattening */
}
