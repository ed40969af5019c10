/* SRF reader and writer: the public Broadband Platform files read, written and read again with
 * every number unchanged; their moments against the magnitudes they were generated for; and
 * malformed files rejected at the right line. */
#include <stdlib.h>
#include <string.h>

#include "sgt_model.h"
#include "srf.h"
#include "tf.h"

static const char *data(const char *name) {
    static char buf[4][4096];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, 4096, "%s/tests/data/%s", tf_repo(), name);
    return b;
}

/* Every number of a text file, in order, parsed independently of the SRF reader ('#' lines and
 * keywords skipped). */
static double *numbers_of(const char *path, long *n) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    long cap = 1 << 16;
    double *v = malloc((size_t)cap * sizeof *v);
    *n = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (line[strspn(line, " \t")] == '#') continue;
        char *save = NULL;
        for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            char *end;
            double d = strtod(t, &end);
            if (*end) continue; /* PLANE, POINTS */
            if (*n == cap) v = realloc(v, (size_t)(cap *= 2) * sizeof *v);
            v[(*n)++] = d;
        }
    }
    fclose(f);
    return v;
}

static void round_trip(const char *name, int version, long npoints) {
    cs_error e;
    srf_file s, t;
    CHECK_OK(srf_read(data(name), &s, &e), &e);
    CHECK(s.version == version);
    CHECK(s.npoints == npoints);
    const char *out = tf_path("copy.srf");
    char sha[65];
    CHECK_OK(srf_write(out, &s, sha, &e), &e);
    CHECK(strlen(sha) == 64);
    CHECK_OK(srf_read(out, &t, &e), &e);
    CHECK(t.ncomments == s.ncomments);
    for (int i = 0; i < s.ncomments; i++)
        CHECK(strcmp(s.comments[i], t.comments[i]) == 0);
    long na, nb;
    double *a = numbers_of(data(name), &na), *b = numbers_of(out, &nb);
    CHECK(a && b);
    CHECK_MSG(na == nb, "%s has %ld numbers, its copy %ld", name, na, nb);
    long diff = 0;
    for (long i = 0; i < na; i++)
        diff += a[i] != b[i];
    CHECK_MSG(diff == 0, "%ld of %ld numbers changed in the round trip", diff, na);
    CHECK(na > 10000);
    free(a);
    free(b);
    srf_free(&s);
    srf_free(&t);
}

TEST(srf_gp_2_0_round_trips_every_number) {
    round_trip("bbp_gp_m5.89-0.20x0.20_s2379646.srf", 2, 2500);
}

TEST(srf_ucsb_1_0_round_trips_every_number) {
    round_trip("bbp_ucsb_test.srf", 1, 841);
}

/* The GP file states its magnitude in its command line (mag=5.89) and carries vs and density
 * per point; genslip scales slip to M0 = 10^(1.5 (Mw + 10.73)) dyne-cm. Slips are printed with
 * 5-6 significant digits, so the sum over 2,500 points agrees to ~1e-4 relative at worst; the
 * Hanks-Kanamori constant (10.7) would be 11% off and a unit slip (x10) a factor 10. */
TEST(srf_gp_moment_matches_header_magnitude) {
    cs_error e;
    srf_file s;
    CHECK_OK(srf_read(data("bbp_gp_m5.89-0.20x0.20_s2379646.srf"), &s, &e), &e);
    CHECK(s.ncomments >= 1 && strstr(s.comments[0], "mag=5.89"));
    double m0 = srf_moment(&s, NULL, NULL);
    CHECK_NEAR(m0 / srf_gp_moment_of_magnitude(5.89), 1.0, 1e-3);
    CHECK_NEAR(srf_moment_of_magnitude(5.89) / srf_gp_moment_of_magnitude(5.89), 0.9016, 1e-3);
    srf_free(&s);
}

static double mu_from_model(double depth_km, void *ctx) {
    sgt_material m;
    cs_error e;
    if (sgt_model_query(ctx, 0, 0, depth_km * 1e3, 0, 0, 0, &m, &e)) return NAN;
    return m.rho * m.vs * m.vs;
}

/* SRF 1.0 has no vs or density: the moment needs the velocity model the rupture was made for
 * (the Broadband Platform's nr02-vs500 fk1d, as the GP file's velfile says). The UCSB file has
 * no header magnitude; it describes the same plane as the GP file (10 x 10 km, strike 280, dip
 * 30, top 11.8 km) for the same M5.89 scenario. With this model's rigidity (3.56e10 Pa at
 * 12-17 km) its slips sum to Mw 5.870 (Hanks-Kanamori): the UCSB generator's own rigidity is
 * not in the file, so 0.03 units is the bound (a wrong unit would be off by 0.67). */
TEST(srf_ucsb_moment_with_model_rigidity) {
    cs_error e;
    srf_file s;
    sgt_model m;
    CHECK_OK(srf_read(data("bbp_ucsb_test.srf"), &s, &e), &e);
    CHECK_OK(sgt_model_read_fk1d(&m, data("bbp_nr02-vs500.fk1d"), &e), &e);
    CHECK(isnan(s.points[0].vs) && isnan(s.points[0].den));
    CHECK(s.nplanes == 1 && s.planes[0].nstk == 29 && s.planes[0].len == 10.0);
    double m0 = srf_moment(&s, mu_from_model, &m);
    CHECK_NEAR(srf_magnitude_of_moment(m0), 5.89, 0.03);
    sgt_model_free(&m);
    srf_free(&s);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void expect_error(const char *text, const char *where) {
    const char *p = tf_path("bad.srf");
    write_text(p, text);
    cs_error e;
    srf_file s;
    CHECK(srf_read(p, &s, &e) != 0);
    CHECK_MSG(strstr(e.message, where) != NULL, "message '%s' lacks '%s'", e.message, where);
}

#define GOOD_HEAD  "2.0\nPLANE 1\n -118 34 1 1 1 1\n 280 30 12 0 5\n"
#define GOOD_POINT "-118 34 12 280 30 1e10 0.5 0.1 3.5e5 2.7\n 90 10 2 0 0 0 0\n 0 100\n"

TEST(srf_malformed_files_name_the_line) {
    expect_error("3.0\n", "bad.srf:1");
    expect_error(GOOD_HEAD
                 "POINTS 1\n-118 34 12 280 30 1e10 0.5 0.1 3.5e5 2.7\n 90 10 2 0 0 0 0\n 0\n",
                 "bad.srf:9: slip-rate sample = '(end of file)'");
    expect_error(GOOD_HEAD "POINTS 1\n-118 34 12 280 30 1e10 0.5 x 3.5e5 2.7\n",
                 "bad.srf:6: DT = 'x'");
    expect_error(GOOD_HEAD "POINTS 1\n" GOOD_POINT "-118 34\n", "bad.srf:9");
    expect_error(
        "2.0\nPLANE 2\n -118 34 1 1 1 1\n 280 30 12 0 5\n -118 34 1 1 1 1\n 280 30 12 0 5\n"
        "POINTS 1\n" GOOD_POINT,
        "expected POINTS for block 2 of 2");
    expect_error(GOOD_HEAD
                 "POINTS 1\n-118 34 12 280 30 0 0.5 0.1 3.5e5 2.7\n 90 10 2 0 0 0 0\n 0 1\n",
                 "AREA");
    /* a token too long for the reader is refused, not read as the token before it */
    char digits[201], text[1024];
    memset(digits, '5', 200);
    digits[200] = 0;
    snprintf(text, sizeof text,
             GOOD_HEAD "POINTS 1\n-118 34 12 280 30 1e10 0.5 0.1 3.5e5 2.7\n 90 10 2 %s 0 0 0\n"
                       " 0 100\n",
             digits);
    expect_error(text, "bad.srf:7: '(long token)'");
}

/* Two segments, each PLANE with its own POINTS block, read back into the right blocks. */
TEST(srf_two_segments) {
    const char *p = tf_path("two.srf");
    write_text(p, "2.0\n# two planes\nPLANE 2\n -118 34 1 1 1 1\n 280 30 12 0 5\n"
                  " -117.9 34.1 1 1 2 1\n 300 60 0 0 5\n"
                  "POINTS 1\n" GOOD_POINT "POINTS 2\n" GOOD_POINT
                  "-117.9 34.1 3 300 60 1e10 1.5 0.1 3.5e5 2.7\n 0 20 3 5 1 0 0\n 0 100 50\n 7\n");
    cs_error e;
    srf_file s;
    CHECK_OK(srf_read(p, &s, &e), &e);
    CHECK(s.nplanes == 2 && s.npoints == 3 && s.block_start[1] == 1 && s.block_count[1] == 2);
    CHECK(s.planes[1].dip == 60 && s.planes[1].len == 2);
    CHECK(s.points[2].nt[0] == 3 && s.points[2].nt[1] == 1 && s.points[2].sr[0][2] == 50 &&
          s.points[2].sr[1][0] == 7);
    CHECK(strcmp(s.comments[0], "# two planes") == 0);
    srf_free(&s);
}
