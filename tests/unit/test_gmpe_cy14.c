/* Chiou and Youngs (2014): the hanging-wall term worked by hand (the verification tables are
 * checked in test_gmpe_bssa14.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmpe.h"
#include "tf.h"

TEST(gmpe_cy14_hanging_wall_by_hand) {
    /* PGA, M 6.5 reverse, dip 45, Ztor 2 km: the site 8 km over the hanging wall against the
     * same distances on the footwall (Rx < 0: no term). The table's PGA row: c9 0.9228,
     * c9a 0.1202, c9b 6.8607. */
    gmpe_scenario hw = {.mag = 6.5,
                        .rake = 90,
                        .dip = 45,
                        .ztor = 2,
                        .rrup = 6.0,
                        .rjb = 0,
                        .rx = 8,
                        .vs30 = 760,
                        .z1_m = NAN};
    gmpe_scenario fw = hw;
    fw.rx = -8;
    gmpe_value a, b;
    cs_error err;
    CHECK_OK(gmpe_cy14(0, &hw, &a, &err), &err);
    CHECK_OK(gmpe_cy14(0, &fw, &b, &err), &err);
    /* the nonlinear site term sees y_ref, which the hanging wall raises: at Vs30 760 it is small
     * but not zero, so compare on reference rock (Vs30 1130: no site terms) */
    hw.vs30 = fw.vs30 = 1130;
    CHECK_OK(gmpe_cy14(0, &hw, &a, &err), &err);
    CHECK_OK(gmpe_cy14(0, &fw, &b, &err), &err);
    const double want = 0.9228 * cos(M_PI / 4) * (0.1202 + (1 - 0.1202) * tanh(8 / 6.8607)) *
                        (1 - sqrt(0 + 4.0) / (6.0 + 1));
    CHECK_NEAR(a.ln_median - b.ln_median, want, 1e-12);
    /* a vertical fault has no hanging-wall term */
    hw.dip = fw.dip = 90;
    CHECK_OK(gmpe_cy14(0, &hw, &a, &err), &err);
    CHECK_OK(gmpe_cy14(0, &fw, &b, &err), &err);
    CHECK_NEAR(a.ln_median - b.ln_median, 0, 1e-12);
    /* a bad input names the values */
    hw.dip = 0;
    CHECK(gmpe_cy14(0, &hw, &a, &err) != 0 && strstr(err.message, "dip 0"));
}
