/* Sets of ground-motion models as --gmpe takes them, with the NSHM weighting: parsing, the
 * checks on the weights, and the weighted mean of the curves. */
#include <math.h>
#include <string.h>

#include "gmpe.h"
#include "tf.h"

TEST(gmpe_set_parses_names_and_weights) {
    gmpe_set s;
    cs_error err;
    CHECK_OK(gmpe_set_parse("bssa14,cy14", "--gmpe", &s, &err), &err);
    CHECK(s.n == 2 && !s.weighted && !strcmp(s.name[1], "cy14"));
    /* the NSHM 2014/2018 western-US weights */
    CHECK_OK(
        gmpe_set_parse("ask14:0.22,bssa14:0.22,cb14:0.22,cy14:0.22,i14:0.12", "--gmpe", &s, &err),
        &err);
    CHECK(s.n == 5 && s.weighted && s.weight[4] == 0.12 && !strcmp(s.name[4], "i14"));
    char d[256];
    gmpe_set_describe(&s, d, sizeof d);
    CHECK(!strcmp(d, "0.22 ASK14 + 0.22 BSSA14 + 0.22 CB14 + 0.22 CY14 + 0.12 I14"));
    CHECK_OK(gmpe_set_parse("cy14:1", "--gmpe", &s, &err), &err);
    CHECK(s.n == 1 && s.weighted);
}

TEST(gmpe_set_refuses_bad_weights) {
    gmpe_set s;
    cs_error err;
    CHECK(gmpe_set_parse("ask14:0.5,bssa14:0.4", "--gmpe", &s, &err) == CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "the weights sum to 0.9, not 1");
    CHECK_CONTAINS(err.message, "--gmpe");
    CHECK(gmpe_set_parse("ask14:0.6,bssa14:0.6", "gmpe_weights", &s, &err) == CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "the weights sum to 1.2, not 1");
    CHECK(gmpe_set_parse("ask14:0.5,bssa14", "--gmpe", &s, &err) == CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "weights are given for every model (NAME:WEIGHT) or for none");
    CHECK(gmpe_set_parse("ask14:x,bssa14:1", "--gmpe", &s, &err) == CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "the weight of ask14 must be a number in (0, 1]");
    CHECK(gmpe_set_parse("ask14:0,bssa14:1", "--gmpe", &s, &err) == CS_ERR_INPUT);
    CHECK(gmpe_set_parse("ask14:0.5,ask14:0.5", "--gmpe", &s, &err) == CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "listed twice");
    CHECK(gmpe_set_parse("nga99", "--gmpe", &s, &err) == CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "models: " GMPE_NAMES);
    CHECK(gmpe_set_parse("ask14,bssa14,cb14,cy14,i14,sadigh97", "--gmpe", &s, &err) ==
          CS_ERR_INPUT);
    CHECK_CONTAINS(err.message, "at most 5 models");
    /* the sum within GMPE_WEIGHT_SUM_TOL is accepted (thirds written to six digits are not) */
    CHECK_OK(gmpe_set_parse("ask14:0.3333333,bssa14:0.3333333,cy14:0.3333334", "--gmpe", &s, &err),
             &err);
    CHECK(gmpe_set_parse("ask14:0.333333,bssa14:0.333333,cy14:0.333333", "--gmpe", &s, &err) ==
          CS_ERR_INPUT);
}

TEST(gmpe_set_mean_is_the_weighted_sum) {
    gmpe_set s;
    cs_error err;
    CHECK_OK(
        gmpe_set_parse("ask14:0.22,bssa14:0.22,cb14:0.22,cy14:0.22,i14:0.12", "--gmpe", &s, &err),
        &err);
    const double a[3] = {0.5, 0.1, 0}, b[3] = {0.4, 0.2, 1e-9}, c[3] = {0.3, 0.05, 0},
                 d[3] = {0.9, 0.3, 2e-9}, e[3] = {0.2, 0.01, 0};
    const double *curves[5] = {a, b, c, d, e};
    double m[3];
    gmpe_set_mean(&s, curves, 3, m);
    for (int i = 0; i < 3; i++)
        CHECK_NEAR(m[i], 0.22 * (a[i] + b[i] + c[i] + d[i]) + 0.12 * e[i], 1e-15);
}
