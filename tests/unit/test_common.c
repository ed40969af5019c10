/* Unit tests of the shared code: errors, units, parameter files, CSV, SHA-256, atomic files. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "cs_csv.h"
#include "cs_error.h"
#include "cs_params.h"
#include "cs_progress.h"
#include "cs_sha256.h"
#include "cs_strutil.h"
#include "cs_units.h"
#include "cs_opt.h"
#include "tf.h"

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

TEST(error_input_names_place_field_value_rule) {
    cs_error e;
    cs_error_clear(&e);
    int rc = cs_error_input(&e, "sites.csv:4", "latitude", "95.2", "must lie in [%d, %d]", -90, 90);
    CHECK(rc == CS_ERR_INPUT);
    CHECK(e.status == CS_ERR_INPUT);
    CHECK(!strcmp(e.message, "sites.csv:4: latitude = '95.2': must lie in [-90, 90]"));
    CHECK(cs_exit_code(CS_ERR_INPUT) == 1 && cs_exit_code(CS_ERR_USAGE) == 2 &&
          cs_exit_code(CS_OK) == 0);
    cs_error_prefix(&e, "importing: ");
    CHECK(!strncmp(e.message, "importing: sites.csv:4", 22));
}

/* An operating-system failure reads "PATH: cannot ACTION: REASON", with "cannot" once even where
 * the action already says it. */
TEST(error_errno_says_cannot_once) {
    cs_error e;
    cs_error_clear(&e);
    errno = ENOENT;
    CHECK(cs_error_errno(&e, "a/b.part", "write the download") == CS_ERR_IO);
    CHECK(!strcmp(e.message, "a/b.part: cannot write the download: No such file or directory"));
    errno = ENOENT;
    cs_error_errno(&e, "a/b.part", "cannot write the download");
    CHECK(!strcmp(e.message, "a/b.part: cannot write the download: No such file or directory"));
}

/* Helpers for the error-trace tests: a raise, two levels of CS_CALL, one CS_CALL_GOTO. */
static int trace_leaf(cs_error *err, int fail) {
    if (fail) return cs_error_input(err, "leaf.csv:3", "depth", "-1", "must be >= 0");
    return 0;
}

static int trace_middle(cs_error *err, int fail) {
    CS_CALL(err, trace_leaf(err, fail));
    return 0;
}

static int trace_top(cs_error *err, int fail) {
    CS_CALL(err, trace_middle(err, fail));
    return 0;
}

static int trace_cleanup(cs_error *err, int fail, int *cleaned, int *after) {
    int rc = 0;
    char *buf = malloc(16);
    CS_CALL_GOTO(rc, err, trace_leaf(err, fail), done);
    *after = 1;
done:
    free(buf);
    *cleaned = 1;
    return rc;
}

static int trace_deep(cs_error *err, int depth) {
    if (depth == 0) return cs_error_set(err, CS_ERR_INTERNAL, "bottom reached");
    CS_CALL(err, trace_deep(err, depth - 1));
    return 0;
}

TEST(error_trace_records_frames_in_order_message_unchanged) {
    cs_error e;
    cs_error_clear(&e);
    CHECK(trace_top(&e, 0) == 0 && e.status == CS_OK && e.trace[0] == '\0');
    CHECK(trace_top(&e, 1) == CS_ERR_INPUT);
    CHECK(e.status == CS_ERR_INPUT);
    CHECK(!strcmp(e.message, "leaf.csv:3: depth = '-1': must be >= 0"));
    CHECK(e.trace_frames == 3 && !e.trace_truncated);
    const char *leaf = strstr(e.trace, "trace_leaf (");
    const char *mid = strstr(e.trace, "trace_middle (");
    const char *top = strstr(e.trace, "trace_top (");
    CHECK_MSG(leaf && mid && top && leaf == e.trace && leaf < mid && mid < top, "trace: %s",
              e.trace);
    CHECK(strstr(e.trace, "test_common.c:") != NULL);
    /* A fresh error starts a fresh trace; clear empties it. */
    cs_error_set(&e, CS_ERR_IO, "disk full");
    CHECK(e.trace_frames == 1 && !strchr(e.trace, '\n') && !strncmp(e.trace, "error_trace", 11));
    cs_error_clear(&e);
    CHECK(e.status == CS_OK && e.message[0] == '\0' && e.trace[0] == '\0' && e.trace_frames == 0);
    /* NULL errors are tolerated. */
    CHECK(trace_top(NULL, 1) == CS_ERR_INPUT);
}

TEST(error_trace_truncates_safely) {
    cs_error e;
    cs_error_clear(&e);
    memset(e.trace, 'x', sizeof e.trace); /* garbage past the terminator must not matter */
    e.trace[0] = '\0';
    CHECK(trace_deep(&e, 500) == CS_ERR_INTERNAL);
    CHECK(!strcmp(e.message, "bottom reached"));
    size_t n = strnlen(e.trace, sizeof e.trace);
    CHECK(n < sizeof e.trace);
    CHECK(e.trace_truncated > 0 && e.trace_frames > 1 && e.trace_frames < 500);
    CHECK(e.trace_frames + e.trace_truncated == 501);
    CHECK(n >= 4 && !strcmp(e.trace + n - 4, "\n..."));
    /* Very long names are cut inside one frame, never past the buffer. */
    char name[4000];
    memset(name, 'f', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    cs_error_clear(&e);
    for (int i = 0; i < 20; i++)
        cs_error_trace(&e, name, name, i);
    CHECK(strnlen(e.trace, sizeof e.trace) < sizeof e.trace && e.trace_truncated > 0);
}

TEST(error_call_goto_runs_cleanup) {
    cs_error e;
    cs_error_clear(&e);
    int cleaned = 0, after = 0;
    CHECK(trace_cleanup(&e, 1, &cleaned, &after) == CS_ERR_INPUT);
    CHECK(cleaned == 1 && after == 0);
    CHECK(!strcmp(e.message, "leaf.csv:3: depth = '-1': must be >= 0"));
    CHECK(e.trace_frames == 2 && strstr(e.trace, "\ntrace_cleanup (") != NULL);
    cleaned = after = 0;
    cs_error_clear(&e);
    CHECK(trace_cleanup(&e, 0, &cleaned, &after) == 0);
    CHECK(cleaned == 1 && after == 1 && e.trace[0] == '\0');
}

TEST(units_convert_to_si) {
    double v;
    CHECK(cs_unit_parse("200 m", CS_DIM_LENGTH, &v) == 0 && v == 200.0);
    CHECK(cs_unit_parse("0.2 km", CS_DIM_LENGTH, &v) == 0 && fabs(v - 200.0) < 1e-12);
    CHECK(cs_unit_parse("200m", CS_DIM_LENGTH, &v) == 0 && v == 200.0);
    CHECK(cs_unit_parse("3.5 km/s", CS_DIM_VELOCITY, &v) == 0 && v == 3500.0);
    CHECK(cs_unit_parse("2.7 g/cm3", CS_DIM_DENSITY, &v) == 0 && fabs(v - 2700.0) < 1e-9);
    CHECK(cs_unit_parse("1e15 N*s", CS_DIM_IMPULSE, &v) == 0 && v == 1e15);
    CHECK(cs_unit_parse("1e22 dyne*cm", CS_DIM_MOMENT, &v) == 0 && fabs(v - 1e15) < 1);
    CHECK(cs_unit_parse("0.5 Hz", CS_DIM_FREQUENCY, &v) == 0 && v == 0.5);
    CHECK(cs_unit_parse("-55 deg", CS_DIM_ANGLE, &v) == 0 && v == -55.0);
    CHECK(cs_unit_parse("7", CS_DIM_NONE, &v) == 0 && v == 7.0);
}

TEST(units_reject_missing_wrong_and_malformed) {
    double v;
    CHECK(cs_unit_parse("200", CS_DIM_LENGTH, &v) == -2);
    CHECK(cs_unit_parse("200 s", CS_DIM_LENGTH, &v) == -3);
    CHECK(cs_unit_parse("200 furlongs", CS_DIM_LENGTH, &v) == -3);
    CHECK(cs_unit_parse("abc m", CS_DIM_LENGTH, &v) == -1);
    CHECK(cs_unit_parse("7 m", CS_DIM_NONE, &v) == -3);
}

static const cs_param_spec specs[] = {
    {"h", CS_PT_REAL, CS_DIM_LENGTH, 1, NULL, NULL, 1e-3, 1e5, "grid spacing"},
    {"fmax", CS_PT_REAL, CS_DIM_FREQUENCY, 0, "0.5 Hz", NULL, 1e-3, 100, "maximum frequency"},
    {"nx", CS_PT_INT, CS_DIM_NONE, 1, NULL, NULL, 8, 100000, "nodes along x"},
    {"backend", CS_PT_CHOICE, CS_DIM_NONE, 0, "cpu", "cpu|cuda", 1, 0, "compute back end"},
    {"free_surface", CS_PT_BOOL, CS_DIM_NONE, 0, "true", NULL, 1, 0, "free surface on top"},
    {"model", CS_PT_STRING, CS_DIM_NONE, 0, NULL, NULL, 1, 0, "velocity model file"},
};
#define NSPECS (sizeof specs / sizeof specs[0])

TEST(params_read_valid_file_with_units_comments_defaults) {
    const char *p = tf_path("ok.par");
    write_text(p, "# a comment line\n\nh = 0.2 km   # spacing\nnx=128\nbackend = cuda\n"
                  "model = \"velocity#1.txt\"\nfree_surface = no\n");
    cs_params *par;
    cs_error e;
    CHECK_OK(cs_params_read(p, specs, NSPECS, &par, &e), &e);
    CHECK(cs_params_real(par, "h") == 200.0);
    CHECK(cs_params_real(par, "fmax") == 0.5);
    CHECK(!cs_params_given(par, "fmax") && cs_params_has(par, "fmax"));
    CHECK(cs_params_int(par, "nx") == 128);
    CHECK(!strcmp(cs_params_string(par, "backend"), "cuda"));
    CHECK(!strcmp(cs_params_string(par, "model"), "velocity#1.txt"));
    CHECK(cs_params_bool(par, "free_surface") == 0);
    CHECK_CONTAINS(cs_params_where(par, "nx"), "ok.par:4");
    CHECK_OK(cs_params_set(par, "nx", "256", "command line", &e), &e);
    CHECK(cs_params_int(par, "nx") == 256);
    cs_params_free(par);
}

static void expect_param_error(const char *text, const char *needle1, const char *needle2) {
    cs_params *par = NULL;
    cs_error e;
    cs_error_clear(&e);
    int rc = cs_params_parse("run.par", text, specs, NSPECS, &par, &e);
    CHECK_MSG(rc == CS_ERR_INPUT, "accepted bad input: %s", text);
    CHECK(par == NULL);
    CHECK_CONTAINS(e.message, needle1);
    CHECK_CONTAINS(e.message, needle2);
}

TEST(params_unknown_key_names_line_and_suggests) {
    expect_param_error("h = 200 m\nnx = 10\nfmaxx = 1 Hz\n", "run.par:3", "did you mean 'fmax'");
}
TEST(params_missing_required_key_is_named) {
    expect_param_error("h = 200 m\n", "run.par", "nx");
}
TEST(params_value_without_unit_is_rejected) {
    expect_param_error("nx = 10\nh = 200\n", "run.par:2", "needs a unit");
}
TEST(params_wrong_unit_is_rejected) {
    expect_param_error("nx = 10\nh = 2 s\n", "run.par:2", "unit must be one of");
}
TEST(params_out_of_range_is_rejected) {
    expect_param_error("nx = 4\nh = 2 m\n", "run.par:1", "must lie in [8, 100000]");
}
TEST(params_duplicate_key_is_rejected) {
    expect_param_error("nx = 10\nh = 2 m\nnx = 11\n", "run.par:3",
                       "given twice (first at run.par:1)");
}
TEST(params_bad_choice_bool_int_and_syntax) {
    expect_param_error("nx = 10\nh = 2 m\nbackend = gpu\n", "run.par:3", "cpu|cuda");
    expect_param_error("nx = 10.5\nh = 2 m\n", "run.par:1", "whole number");
    expect_param_error("nx = 10\nh = 2 m\nfree_surface = maybe\n", "run.par:3", "true or false");
    expect_param_error("nx = 10\nh 2 m\n", "run.par:2", "expected 'key = value'");
    expect_param_error("nx = 10\nh = \n", "run.par:2", "missing value");
}

TEST(csv_quotes_comments_and_line_numbers) {
    const char *p = tf_path("a.csv");
    write_text(p,
               "a,b,c\r\n# comment\n\n1,\"x, y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\", 3 \n4,5,6");
    cs_csv *c;
    cs_error e;
    CHECK_OK(cs_csv_open(p, &c, &e), &e);
    CHECK(cs_csv_next(c, &e) == 1 && cs_csv_nfields(c) == 3 && cs_csv_line(c) == 1);
    CHECK(cs_csv_next(c, &e) == 1 && cs_csv_line(c) == 4);
    CHECK(!strcmp(cs_csv_field(c, 1), "x, y") && !strcmp(cs_csv_field(c, 2), "say \"hi\""));
    CHECK(cs_csv_next(c, &e) == 1 && cs_csv_line(c) == 5);
    CHECK(!strcmp(cs_csv_field(c, 1), "two\nlines") && !strcmp(cs_csv_field(c, 2), "3"));
    CHECK(cs_csv_next(c, &e) == 1 && cs_csv_line(c) == 7 && !strcmp(cs_csv_field(c, 2), "6"));
    CHECK(cs_csv_next(c, &e) == 0);
    cs_csv_close(c);
}

TEST(csv_unclosed_quote_is_an_error_with_line) {
    const char *p = tf_path("b.csv");
    write_text(p, "a,b\n1,\"open\n");
    cs_csv *c;
    cs_error e;
    CHECK_OK(cs_csv_open(p, &c, &e), &e);
    CHECK(cs_csv_next(c, &e) == 1);
    CHECK(cs_csv_next(c, &e) < 0);
    CHECK_CONTAINS(e.message, "b.csv:2");
    cs_csv_close(c);
}

/* A NUL byte would end the field's C string early and the rest of the field would vanish
 * unseen ("AB\0CD" imported as "AB"): refused with its line and column. */
TEST(csv_nul_byte_is_an_error_with_line_and_column) {
    const char *p = tf_path("nul.csv");
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL);
    fwrite("a,b\n1,AB\0CD\n", 1, 14, f);
    fclose(f);
    cs_csv *c;
    cs_error e;
    CHECK_OK(cs_csv_open(p, &c, &e), &e);
    CHECK(cs_csv_next(c, &e) == 1);
    CHECK(cs_csv_next(c, &e) < 0);
    CHECK_CONTAINS(e.message, "nul.csv:2");
    CHECK_CONTAINS(e.message, "column 5");
    CHECK_CONTAINS(e.message, "NUL");
    cs_csv_close(c);
}

TEST(sha256_known_vectors) {
    char hex[CS_SHA256_HEX];
    cs_error e;
    CHECK_OK(cs_sha256_bytes("abc", 3, hex, &e), &e);
    CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    CHECK_OK(cs_sha256_bytes("", 0, hex, &e), &e);
    CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    /* FIPS 180-2 two-block message. */
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    const char *p = tf_path("m.txt");
    write_text(p, m);
    CHECK_OK(cs_sha256_file(p, hex, &e), &e);
    CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    CHECK(cs_sha256_file(tf_path("missing"), hex, &e) == CS_ERR_IO);
    CHECK_CONTAINS(e.message, "missing");
}

TEST(atomic_commit_renames_with_checksum) {
    const char *p = tf_path("out.txt");
    cs_atomic_file a;
    cs_error e;
    CHECK_OK(cs_atomic_open(&a, p, &e), &e);
    CHECK(access(p, F_OK) != 0); /* nothing under the final name while writing */
    CHECK(strstr(a.tmp_path, "/.out.txt.tmp.") != NULL);
    fputs("abc", a.f);
    char sha[CS_SHA256_HEX];
    CHECK_OK(cs_atomic_commit(&a, sha, &e), &e);
    CHECK(!strcmp(sha, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    FILE *f = fopen(p, "r");
    char buf[8] = {0};
    CHECK(f && fread(buf, 1, 7, f) == 3 && !strcmp(buf, "abc"));
    fclose(f);
    struct stat st;
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0444)); /* readable, not left at mkstemp's 0600 */
}

TEST(atomic_abort_and_killed_writer_leave_no_final_file) {
    const char *p = tf_path("never.txt");
    cs_atomic_file a;
    cs_error e;
    CHECK_OK(cs_atomic_open(&a, p, &e), &e);
    fputs("partial", a.f);
    cs_atomic_abort(&a);
    CHECK(access(p, F_OK) != 0);
    /* A child killed in the middle of writing. */
    const char *q = tf_path("killed.txt");
    pid_t pid = fork();
    if (pid == 0) {
        cs_atomic_file b;
        cs_error e2;
        if (cs_atomic_open(&b, q, &e2)) _exit(1);
        fputs("half of it", b.f);
        fflush(b.f);
        kill(getpid(), SIGKILL);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    CHECK(access(q, F_OK) != 0);
}

TEST(progress_formats_durations) {
    char b[32];
    cs_format_duration(12.34, b, sizeof b);
    CHECK(!strcmp(b, "12.3s"));
    cs_format_duration(185, b, sizeof b);
    CHECK(!strcmp(b, "3m05s"));
    cs_format_duration(3720, b, sizeof b);
    CHECK(!strcmp(b, "1h02m"));
}

/* The option table: values into their targets, positionals counted, bad values and counts
 * refused with the usage status. */
TEST(option_table_parses_and_refuses) {
    const char *name = NULL;
    double x = 0;
    long n = 0;
    int flag = 0;
    const cs_opt opts[] = {CS_OPT_STR("name", &name), CS_OPT_NUM("x", &x, 0, 10, "needs 0 to 10"),
                           CS_OPT_INT("n", &n, 1, 5, "needs 1 to 5"), CS_OPT_SET("flag", &flag)};
    char *ok[] = {"prog", "A", "--name", "z", "--x=2.5", "B", "--n", "3", "--flag", NULL};
    int first = -1, npos = -1;
    CHECK(cs_opt_parse("prog", 9, ok, opts, 4, 2, 2, "expects A and B", &first, &npos) == 0);
    CHECK(npos == 2 && !strcmp(ok[first], "A") && !strcmp(ok[first + 1], "B"));
    CHECK(!strcmp(name, "z") && x == 2.5 && n == 3 && flag == 1);
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    char *bad_x[] = {"prog", "--x", "11", "A", NULL};
    int rc_x = cs_opt_parse("prog", 4, bad_x, opts, 4, 1, 1, "expects A", &first, &npos);
    char *bad_n[] = {"prog", "--n", "two", "A", NULL};
    int rc_n = cs_opt_parse("prog", 4, bad_n, opts, 4, 1, 1, "expects A", &first, &npos);
    char *extra[] = {"prog", "A", "B", NULL};
    int rc_count = cs_opt_parse("prog", 3, extra, opts, 4, 1, 1, "expects A", &first, &npos);
    char *unknown[] = {"prog", "--nope", "A", NULL};
    int rc_unknown = cs_opt_parse("prog", 3, unknown, opts, 4, 1, 1, "expects A", &first, &npos);
    fclose(stderr);
    stderr = saved;
    CHECK(rc_x == 2 && rc_n == 2 && rc_count == 2 && rc_unknown == 2);
    CHECK(x == 2.5 && n == 3); /* a refused value leaves the target alone */
}

/* CS_OPT_POS: any number above 0, however small or large; 0, negatives and text refused. */
TEST(option_table_positive_numbers) {
    double v = 7;
    const cs_opt opts[] = {CS_OPT_POS("v", &v, "needs a positive number")};
    int first, npos;
    char *tiny[] = {"prog", "--v", "1e-320", NULL}, *big[] = {"prog", "--v", "1e300", NULL};
    CHECK(cs_opt_parse("prog", 3, tiny, opts, 1, 0, 0, NULL, &first, &npos) == 0 && v > 0);
    CHECK(cs_opt_parse("prog", 3, big, opts, 1, 0, 0, NULL, &first, &npos) == 0 && v == 1e300);
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    char *zero[] = {"prog", "--v", "0", NULL}, *neg[] = {"prog", "--v", "-1", NULL};
    int rc_zero = cs_opt_parse("prog", 3, zero, opts, 1, 0, 0, NULL, &first, &npos);
    int rc_neg = cs_opt_parse("prog", 3, neg, opts, 1, 0, 0, NULL, &first, &npos);
    fclose(stderr);
    stderr = saved;
    CHECK(rc_zero == 2 && rc_neg == 2 && v == 1e300);
}

/* A number is a number however small (strtod reports underflow with ERANGE, yet gives the
 * nearest double); overflow, text and trailing junk are refused. */
TEST(parse_double_takes_tiny_numbers_and_refuses_overflow) {
    double v = -1;
    CHECK(cs_parse_double("1e-320", &v) == 0 && v > 0 && v < 1e-300);
    CHECK(cs_parse_double("-1e-400", &v) == 0 && v == 0);
    CHECK(cs_parse_double("2.5 ", &v) == 0 && v == 2.5);
    CHECK(cs_parse_double("1e309", &v) != 0);
    CHECK(cs_parse_double("-1e400", &v) != 0);
    CHECK(cs_parse_double("nan", &v) != 0);
    CHECK(cs_parse_double("3x", &v) != 0);
}
