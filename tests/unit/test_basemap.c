/* The basemap's pieces by hand: the thin-plate spline (exact at its points; a plane through
 * three points, a line through two, a constant for one; a fourth point bends it), the taper of
 * the difference, and the Vs30 raster's reader (values by cell, errors with file, line, value
 * and rule). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "basemap.h"
#include "tps.h"
#include "tf.h"
#include "vs30_grid.h"

TEST(hazard_tps_plane_line_point_and_bend) {
    cs_error err;
    hazard_tps t;
    /* three points: the plane z = 1 + 2x - y, exactly, everywhere */
    double x3[3] = {0, 10, 0}, y3[3] = {0, 0, 5}, z3[3] = {1, 21, -4};
    CHECK_OK(hazard_tps_fit(3, x3, y3, z3, &t, &err), &err);
    CHECK(t.npoly == 3);
    CHECK_NEAR(hazard_tps_eval(&t, 7, -3), 1 + 14 + 3, 1e-9);
    CHECK_NEAR(hazard_tps_eval(&t, -40, 25), 1 - 80 - 25, 1e-9);
    hazard_tps_free(&t);
    /* two points: linear along their line, constant across it */
    double x2[2] = {0, 3}, y2[2] = {0, 4}, z2[2] = {2, 7};
    CHECK_OK(hazard_tps_fit(2, x2, y2, z2, &t, &err), &err);
    CHECK(t.npoly == 2);
    CHECK_NEAR(hazard_tps_eval(&t, 1.5, 2), 4.5, 1e-9);
    CHECK_NEAR(hazard_tps_eval(&t, 1.5 + 4, 2 - 3), 4.5, 1e-9); /* across: same */
    hazard_tps_free(&t);
    /* one point: a constant */
    CHECK_OK(hazard_tps_fit(1, x2, y2, z2, &t, &err), &err);
    CHECK_NEAR(hazard_tps_eval(&t, 100, -50), 2, 1e-12);
    hazard_tps_free(&t);
    /* a fourth point off the plane: through all four, and symmetric about the square's axis */
    double x4[4] = {-1, 1, 1, -1}, y4[4] = {-1, -1, 1, 1}, z4[4] = {0, 0, 0, 1};
    CHECK_OK(hazard_tps_fit(4, x4, y4, z4, &t, &err), &err);
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(hazard_tps_eval(&t, x4[i], y4[i]), z4[i], 1e-12);
    CHECK_NEAR(hazard_tps_eval(&t, 0.3, 0.7), hazard_tps_eval(&t, -0.7, -0.3), 1e-12);
    CHECK_NEAR(hazard_tps_eval(&t, 0, 0), 0.25, 1e-12); /* the centre: the mean, by symmetry */
    hazard_tps_free(&t);
    double xd[2] = {1, 1}, yd[2] = {2, 2};
    CHECK(hazard_tps_fit(2, xd, yd, z2, &t, &err) != 0 && strstr(err.message, "same place"));
}

TEST(hazard_basemap_taper_by_hand) {
    CHECK_NEAR(hazard_basemap_taper(0, 20), 1, 0);
    CHECK_NEAR(hazard_basemap_taper(10, 20), 1, 0);
    CHECK_NEAR(hazard_basemap_taper(15, 20), 0.5, 1e-15);
    CHECK_NEAR(hazard_basemap_taper(20, 20), 0, 0);
    CHECK_NEAR(hazard_basemap_taper(35, 20), 0, 0);
}

TEST(hazard_vs30_grid_cells_and_errors) {
    const char *path = "vs30_unit.asc";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("NCOLS 3\nnrows 2\nxllcenter -118.05\nyllcenter 34.05\ncellsize 0.1\n"
          "NODATA_value -1\n300 400\n500\n-1 700 800\n",
          f);
    fclose(f);
    hazard_vs30_grid g;
    cs_error err;
    double v;
    CHECK_OK(hazard_vs30_grid_read(path, &g, &err), &err);
    CHECK_NEAR(g.west, -118.1, 1e-12);
    CHECK_NEAR(g.south, 34.0, 1e-12);
    CHECK(hazard_vs30_grid_at(&g, -118.05, 34.15, &v) == 0 && v == 300); /* north-west */
    CHECK(hazard_vs30_grid_at(&g, -117.85, 34.15, &v) == 0 && v == 500);
    CHECK(hazard_vs30_grid_at(&g, -117.95, 34.05, &v) == 0 && v == 700);
    CHECK(hazard_vs30_grid_at(&g, -118.05, 34.05, &v) == 0 && isnan(v)); /* NODATA */
    CHECK(hazard_vs30_grid_at(&g, -117.8, 34.2, &v) == 0 && v == 500);   /* the north-east edge */
    CHECK(hazard_vs30_grid_at(&g, -118.2, 34.1, &v) == 1);               /* outside */
    hazard_vs30_grid_free(&g);
    f = fopen(path, "w");
    fputs("ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n300 abc\n", f);
    fclose(f);
    CHECK(hazard_vs30_grid_read(path, &g, &err) != 0 && strstr(err.message, "vs30_unit.asc:6") &&
          strstr(err.message, "'abc'") && strstr(err.message, "not a number"));
    f = fopen(path, "w");
    fputs("ncols 2\nnrows 1\nxllcorner 0\ncellsize 1\n300 400\n", f);
    fclose(f);
    CHECK(hazard_vs30_grid_read(path, &g, &err) != 0 && strstr(err.message, "yllcorner") &&
          strstr(err.message, "missing"));
    remove(path);
}
