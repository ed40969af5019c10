/* Forecast inputs (erf_geometry.h): the ids a rupture geometry file's name gives. */
#include <limits.h>
#include <string.h>

#include "erf_geometry.h"
#include "tf.h"

TEST(geometry_ids_are_plain_decimal_digits_within_range) {
    long long s = -1, r = -1;
    cs_error e;
    CHECK_OK(erf_geometry_ids_from_path("dir/128_1296.txt", &s, &r, &e), &e);
    CHECK(s == 128 && r == 1296);
    CHECK_OK(erf_geometry_ids_from_path("9223372036854775807_0.txt", &s, &r, &e), &e);
    CHECK(s == LLONG_MAX && r == 0);
    /* one past the largest id was clamped to it; a sign or space was taken as part of an id */
    const char *bad[] = {"9223372036854775808_0.txt",
                         "99999999999999999999_0.txt",
                         "1_+3.txt",
                         "-1_2.txt",
                         " 1_2.txt",
                         "1_ 2.txt",
                         "1_2.txt.txt",
                         "1_2",
                         "_2.txt",
                         "1_.txt",
                         "1__2.txt",
                         "12.txt",
                         "1_0x2.txt"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cs_error_clear(&e);
        CHECK_MSG(erf_geometry_ids_from_path(bad[i], &s, &r, &e) == CS_ERR_INPUT,
                  "%s was accepted as %lld_%lld", bad[i], s, r);
        CHECK_CONTAINS(e.message, bad[i]);
        CHECK_CONTAINS(e.message, "SOURCE_RUPTURE.txt");
    }
}
