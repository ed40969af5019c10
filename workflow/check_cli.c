/* `cybershake check`: the step between the SGT runs and the extraction. The files (forces E, N
 * and Z, or E and N for a horizontal-only study) must belong together (sgt_set_open's checks:
 * points, material, sampling, grid, one force each), every stored strain value must be finite, and
 * with --study/--run their SHA-256 are recorded as the run's SGTs, which the extractor verifies
 * before it reads them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_cli.h"
#include "wf_cli.h"
#include "cs_fault.h"
#include "cs_opt.h"
#include "cs_db.h"
#include "cs_progress.h"
#include "cs_sha256.h"
#include "cs_strutil.h"
#include "sgt_set.h"

/* Scans every point's strain; counts non-finite values and finds the largest magnitude. */
static int scan(const sgt_set *s, long *bad, double *peak, long *bad_point, cs_error *err) {
    const long block = 64;
    size_t per = (size_t)3 * 6 * (size_t)s->nt;
    float *buf = malloc(sizeof(float) * per * (size_t)block);
    long *pts = malloc(sizeof(long) * (size_t)block);
    if (!buf || !pts) {
        free(buf);
        free(pts);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %ld points", block);
    }
    *bad = 0;
    *peak = 0;
    *bad_point = -1;
    cs_progress prog;
    cs_progress_begin(&prog, "check", s->npoints, "points");
    int rc = 0;
    for (long p0 = 0; p0 < s->npoints && !rc; p0 += block) {
        long n = s->npoints - p0 < block ? s->npoints - p0 : block;
        for (long i = 0; i < n; i++)
            pts[i] = p0 + i;
        cs_fault_point("check-block");
        rc = sgt_set_read(s, pts, n, buf, err);
        for (size_t k = 0; !rc && k < per * (size_t)n; k++) {
            double v = buf[k];
            if (!isfinite(v)) {
                if (*bad_point < 0) *bad_point = p0 + (long)(k / per);
                (*bad)++;
            } else if (fabs(v) > *peak) {
                *peak = fabs(v);
            }
        }
        cs_progress_update(&prog, p0 + n);
    }
    cs_progress_end(&prog);
    free(buf);
    free(pts);
    return rc;
}

/* Each file against the checksum written with it (a damaged file may still hold finite values
 * that belong together; verified[q]: it had one), then every value finite and some not zero. */
static int check_values(const sgt_set *s, char sha[3][CS_SHA256_HEX], int verified[3], double *peak,
                        cs_error *err) {
    for (int q = 0; q < 3; q++)
        if (s->has_force[q]) {
            verified[q] = cs_sha256_sidecar_verify(s->path[q], sha[q], err);
            if (verified[q] < 0) {
                CS_TRACE(err);
                return err->status ? (int)err->status : CS_ERR_INTERNAL;
            }
        }
    long bad = 0, bad_point = -1;
    CS_CALL(err, scan(s, &bad, peak, &bad_point, err));
    if (bad)
        return cs_error_input(err, s->path[0], "/strain", NULL,
                              "%ld stored strain values are not finite (the first at save point "
                              "%ld): the run went unstable or was cut short",
                              bad, bad_point);
    if (!(*peak > 0))
        return cs_error_input(err, s->path[0], "/strain", NULL,
                              "every stored strain value is zero: the force never reached a save "
                              "point");
    return 0;
}

/* The files into the study's Files (kinds sgt-E, sgt-N, sgt-Z) for the run, in one
 * transaction, each line printed as it is recorded. */
static int record_files(const char *study, long run, const sgt_set *s, char sha[3][CS_SHA256_HEX],
                        cs_error *err) {
    static const char *kinds[3] = {"sgt-E", "sgt-N", "sgt-Z"};
    cs_db *db;
    CS_CALL(err, cs_db_open_current(study, &db, err));
    int rc;
    CS_CALL_GOTO(rc, err, cs_db_begin(db, err), done);
    for (int q = 0; q < 3; q++) {
        if (!s->has_force[q]) continue;
        if (!sha[q][0]) CS_CALL_GOTO(rc, err, cs_sha256_file(s->path[q], sha[q], err), rollback);
        char *abs = realpath(s->path[q], NULL);
        rc = cs_db_record_file(db, abs ? abs : s->path[q], sha[q], cs_file_size(s->path[q]),
                               kinds[q], run, err);
        free(abs);
        if (rc) {
            CS_TRACE(err);
            goto rollback;
        }
        printf("  %s %s\n", kinds[q], sha[q]);
    }
    CS_CALL_GOTO(rc, err, cs_db_commit(db, err), done);
    goto done;
rollback:
    cs_db_rollback(db);
done:
    cs_db_close(db);
    return rc;
}

int cs_check_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake check SGT_E.h5 SGT_N.h5 [SGT_Z.h5] [--study STUDY --run RUN_ID]\n\n"
        "Checks a site's SGT files (forces E, N and Z, or E and N for a horizontal-only\n"
        "study) before extraction: that they belong together (save\n"
        "points, material, dt and nt, grid, box, one force each) and that every stored strain\n"
        "value is finite; and each file against the checksum written beside it (FILE.sha256,\n"
        "sha256sum's format). With --study and --run, records their SHA-256 as the run's SGTs\n"
        "(Files, kinds sgt-E, sgt-N, sgt-Z), which 'cybershake extract' verifies.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *study = NULL;
    long run = 0;
    const cs_opt opts[] = {CS_OPT_STR("study", &study),
                           CS_OPT_INT("run", &run, 1, 9.2e18, "needs a Run_ID")};
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, 2, 2, 3, "expects two or three SGT files",
                           &first, &npos);
    if (prc) return prc;
    if ((study != NULL) != (run > 0)) return cs_cli_usage(argv[0], "--study and --run go together");
    cs_error err;
    cs_error_clear(&err);
    sgt_set s;
    if (sgt_set_open(&s, (const char *const *)argv + first, npos, &err))
        return cs_cli_fail(argv[0], &err);
    char sha[3][CS_SHA256_HEX] = {"", "", ""};
    int verified[3] = {0, 0, 0}, rc;
    double peak = 0;
    CS_CALL_GOTO(rc, &err, check_values(&s, sha, verified, &peak, &err), done);
    printf("SGTs consistent: %ld save points, %d steps of %g s, all values finite, peak "
           "|strain| %.3g%s\n",
           s.npoints, s.nt, s.dt, peak, s.has_force[2] ? "" : "; forces E and N (horizontal-only)");
    for (int q = 0; q < 3; q++) {
        if (!s.has_force[q]) continue;
        if (verified[q])
            printf("  %s: SHA-256 matches the checksum written with it\n", s.path[q]);
        else
            printf("  %s: no checksum file beside it (.sha256): its bytes are not verified\n",
                   s.path[q]);
    }
    if (study) CS_CALL_GOTO(rc, &err, record_files(study, run, &s, sha, &err), done);
done:
    sgt_set_close(&s);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
