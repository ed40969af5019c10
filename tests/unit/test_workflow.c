/* The workflow's pure parts: the quoting of commands (what a batch script runs must be what
 * the step runs: checked by running the quoted line through /bin/sh), file names made safe,
 * and which configuration keys make a run a different run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_db.h"
#include "cs_strutil.h"
#include "tf.h"
#include "wf_config.h"
#include "wf_db.h"
#include "wf_exec.h"
#include "wf_plan.h"

TEST(quoted_commands_reach_the_program_unchanged) {
    char *argv[] = {"printf",     "[%s]\\n", "RotD50 3", "2% in 50 yr", "it's", "a\"b$HOME",
                    "x;rm -rf y", "`id`",    "",         NULL};
    char line[2048], script[2100];
    wf_quote_argv(argv, line, sizeof line);
    snprintf(script, sizeof script, "%s", line);
    char *sh[] = {"sh", "-c", script, NULL};
    char out[1024];
    int status;
    cs_error err;
    cs_error_clear(&err);
    CHECK(wf_capture(sh, out, sizeof out, &status, &err) == 0 && status == 0);
    CHECK_MSG(
        !strcmp(out, "[RotD50 3]\n[2% in 50 yr]\n[it's]\n[a\"b$HOME]\n[x;rm -rf y]\n[`id`]\n[]\n"),
        "the shell saw: %s (from: %s)", out, line);
}

TEST(safe_names_keep_only_portable_characters) {
    char s[64];
    cs_safe_name("RotD50 3", s, sizeof s);
    CHECK(!strcmp(s, "RotD50_3"));
    cs_safe_name("2% in 50 yr", s, sizeof s);
    CHECK(!strcmp(s, "2pct_in_50_yr"));
    cs_safe_name("../../etc/passwd", s, sizeof s);
    CHECK_MSG(!strchr(s, '/') && s[0] != '.', "%s", s);
    cs_safe_name("///", s, sizeof s);
    CHECK(!strcmp(s, "file"));
}

static int config_sha(const char *extra, char sha[CS_SHA256_HEX]) {
    char path[4200];
    snprintf(path, sizeof path, "%s", tf_path("run.cfg"));
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "erf = demo\nfmax = 0.5 Hz\nmodel_file = /m.fk1d\n%s\n", extra);
    fclose(f);
    wf_config c;
    cs_error err;
    cs_error_clear(&err);
    int rc = wf_config_read(path, NULL, 0, &c, &err);
    if (!rc) memcpy(sha, c.sha256, CS_SHA256_HEX);
    wf_config_free(&c);
    return rc;
}

TEST(what_steps_compute_identifies_a_run_how_they_run_does_not) {
    char a[CS_SHA256_HEX], b[CS_SHA256_HEX], c[CS_SHA256_HEX], d[CS_SHA256_HEX];
    CHECK(config_sha("", a) == 0);
    CHECK(config_sha("executor = slurm\nretries = 7\nmpirun = srun", b) == 0);
    CHECK(config_sha("vs_min = 600 m/s", c) == 0);
    CHECK(config_sha("vs_min = 500 m/s", d) == 0); /* the default, given */
    CHECK(!strcmp(a, b));
    CHECK(strcmp(a, c));
    CHECK(!strcmp(a, d));
}

TEST(a_url_input_needs_its_checksum) {
    FILE *f = fopen(tf_path("u.cfg"), "w");
    CHECK(f);
    fprintf(f, "erf = demo\nfmax = 0.5 Hz\nmodel_file = https://example.org/m.fk1d\n");
    fclose(f);
    wf_config c;
    cs_error err;
    cs_error_clear(&err);
    CHECK(wf_config_read(tf_path("u.cfg"), NULL, 0, &c, &err) != 0);
    wf_config_free(&c);
    CHECK_MSG(strstr(err.message, "model_sha256"), "%s", err.message);
}

/* What goes into a batch script: no control character in any value, Slurm's characters only in
 * the account, partition and time. */
TEST(batch_script_values_are_checked) {
    cs_error e;
    cs_error_clear(&e);
    CHECK(wf_config_check_value("command line", "slurm_account", "a\ntouch x", &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "command line: slurm_account = 'a\\ntouch x'");
    CHECK_CONTAINS(e.message, "control characters");
    CHECK(wf_config_check_value("run.cfg:3", "work_dir", "/a\rb", &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "'/a\\x0db'");
    CHECK(wf_config_check_value("x", "slurm_partition", "p;q", &e) == CS_ERR_INPUT);
    CHECK(wf_config_check_value("x", "slurm_account", "a b", &e) == CS_ERR_INPUT);
    CHECK(wf_config_check_value("x", "slurm_time", "1:00 x", &e) == CS_ERR_INPUT);
    CHECK(wf_config_check_value("x", "slurm_time", "", &e) == CS_ERR_INPUT);
    CHECK_OK(wf_config_check_value("x", "slurm_time", "1-12:00:00", &e), &e);
    CHECK_OK(wf_config_check_value("x", "slurm_time", "UNLIMITED", &e), &e);
    CHECK_OK(wf_config_check_value("x", "slurm_partition", "gpu,cpu-long", &e), &e);
    CHECK_OK(wf_config_check_value("x", "slurm_account", "geo_123.x-y", &e), &e);
    CHECK_OK(wf_config_check_value("x", "work_dir", "/scratch/my runs #1", &e), &e);
}

/* The GMPE comparison with the NSHM weighting: gmpe_weights, one weight a model of gmpe, makes
 * the hazard step's --gmpe list NAME:WEIGHT; weights that do not sum to 1, a count that differs
 * from the models', or weights without models are refused when the configuration is read;
 * without gmpe_weights a configuration keeps its checksum. */
static int gmpe_config(const char *extra, wf_config *c, cs_error *err) {
    FILE *f = fopen(tf_path("g.cfg"), "w");
    if (!f) return -1;
    fprintf(f, "erf = demo\nfmax = 0.5 Hz\nmodel_file = /m.fk1d\n%s\n", extra);
    fclose(f);
    cs_error_clear(err);
    return wf_config_read(tf_path("g.cfg"), NULL, 0, c, err);
}

TEST(gmpe_weights_make_the_weighted_list) {
    wf_config c;
    cs_error err;
    CHECK_OK(gmpe_config("gmpe = ask14,bssa14,cb14,cy14,i14\n"
                         "gmpe_weights = 0.22, 0.22, 0.22, 0.22, 0.12",
                         &c, &err),
             &err);
    CHECK_MSG(!strcmp(c.gmpe, "ask14:0.22,bssa14:0.22,cb14:0.22,cy14:0.22,i14:0.12"), "%s", c.gmpe);
    wf_config_free(&c);
    CHECK_OK(gmpe_config("gmpe = bssa14,cy14", &c, &err), &err);
    CHECK(!strcmp(c.gmpe, "bssa14,cy14"));
    wf_config_free(&c);
    CHECK(gmpe_config("gmpe = ask14,bssa14\ngmpe_weights = 0.5,0.4", &c, &err) == CS_ERR_INPUT);
    wf_config_free(&c);
    CHECK_CONTAINS(err.message, "the weights sum to 0.9, not 1");
    CHECK(gmpe_config("gmpe = ask14,bssa14\ngmpe_weights = 1", &c, &err) == CS_ERR_INPUT);
    wf_config_free(&c);
    CHECK_CONTAINS(err.message, "needs one weight for each of the 2 models of gmpe");
    CHECK(gmpe_config("gmpe_weights = 1", &c, &err) == CS_ERR_INPUT);
    wf_config_free(&c);
    CHECK_CONTAINS(err.message, "weighs the models of gmpe, which is not given");
    CHECK(gmpe_config("gmpe = ask14:1", &c, &err) == CS_ERR_INPUT);
    wf_config_free(&c);
    CHECK_CONTAINS(err.message, "their weights go in gmpe_weights");
    /* weights make another run (another checksum); without them the key is left out of it */
    char a[CS_SHA256_HEX], b[CS_SHA256_HEX];
    CHECK(config_sha("gmpe = bssa14", a) == 0);
    CHECK(config_sha("gmpe = bssa14\ngmpe_weights = 1", b) == 0);
    CHECK(strcmp(a, b));
}

static int interrupt_always(void *ctx) {
    (void)ctx;
    return 1;
}

/* A failure while the step's records are read is an error, not "every output unchanged" (the
 * last sqlite3_step result was once ignored, so an interrupted read said the step was done). */
TEST(a_step_whose_records_cannot_be_read_is_not_verified) {
    const char *p = tf_path("s.sqlite");
    cs_error e;
    CHECK_OK(cs_db_init(p, 0, &e), &e);
    cs_db *db;
    CHECK_OK(cs_db_open_current(p, &db, &e), &e);
    char why[256] = "";
    CHECK(wf_db_verify_step(db, 1, "sgt", why, sizeof why, &e) == 0); /* no outputs recorded */
    sqlite3_progress_handler(cs_db_handle(db), 1, interrupt_always, NULL);
    cs_error_clear(&e);
    int v = wf_db_verify_step(db, 1, "sgt", why, sizeof why, &e);
    sqlite3_progress_handler(cs_db_handle(db), 0, NULL, NULL);
    cs_db_close(db);
    CHECK_MSG(v == -1, "verify gave %d (%s)", v, e.message);
    CHECK(e.status == CS_ERR_IO);
    CHECK_MSG(strstr(e.message, "reading the outputs recorded for step sgt of run 1"), "%s",
              e.message);
}
