/* The study database at production size: a site's ~20 M PeakAmplitudes rows recorded through
 * the extractor's own recording path (extract_study_take_result: each rupture's variations and
 * rows in one transaction, as rank 0 records a worker's result), timed, with the peak memory.
 *
 *   study_rows_bench STUDY [--ruptures 13000] [--variations 48] [--nt N --seismograms FILE]
 *
 * STUDY must exist with site 1 (cybershake db init, db import-sites). The bench adds a forecast
 * of synthetic ruptures near the site (2 x 2 points, Mw 6-8), the site's rupture list, a
 * scenario and run 1, then records every rupture's variations with the horizontal measures of
 * a two-force 0.5 Hz study (32 IM types): lognormal values that fall with distance and grow with
 * magnitude, so hazard curves and disaggregations over them behave as real ones do.
 * bench/study_rows_production.sh times the hazard queries over the result. With --nt, each
 * result carries its variations' records of N samples as well (E, N; Z NaN, as a two-force run's),
 * written to FILE's part files as rank 0 writes them (the production-shaped site's rank 0 spent 79
 * s of its 130 s of extraction storing results with their seismograms). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cs_db.h"
#include "cs_progress.h"
#include "cs_rng.h"
#include "erf_db.h"
#include "extract_study.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The forecast, the site's ruptures, the scenario and the run. */
static int setup(cs_db *db, int nrup, cs_error *err) {
    CS_CALL(err, cs_db_begin(db, err));
    erf_db_writer w = {0};
    sqlite3_stmt *site = NULL;
    int rc;
    CS_CALL_GOTO(rc, err,
                 cs_db_exec(db,
                            "INSERT INTO ERF_IDs (ERF_ID, ERF_Name) VALUES (1, 'bench');"
                            "INSERT INTO Rupture_Variation_Scenario_IDs (Rup_Var_Scenario_ID, "
                            "ERF_ID, Rup_Var_Scenario_Name) VALUES (1, 1, 'bench');"
                            "INSERT INTO CyberShake_Runs (Run_ID, Site_ID, ERF_ID, "
                            "Rup_Var_Scenario_ID, Status) VALUES (1, 1, 1, 1, 'PP Started');",
                            err),
                 done);
    CS_CALL_GOTO(rc, err, erf_db_writer_open(db, 1, &w, err), done);
    CS_CALL_GOTO(rc, err,
                 cs_db_prepare(db,
                               "INSERT INTO CyberShake_Site_Ruptures (CS_Site_ID, ERF_ID, "
                               "Source_ID, Rupture_ID, Site_Rupture_Dist) VALUES (1, 1, ?, ?, ?)",
                               &site, err),
                 done);
    cs_rng g;
    cs_rng_init(&g, 20261124);
    for (int q = 0; q < nrup && !rc; q++) {
        erf_rupture r;
        if ((rc = erf_rupture_alloc(&r, 2, 2, err))) break;
        r.source_id = q / 10;
        r.rupture_id = q % 10;
        snprintf(r.source_name, sizeof r.source_name, "bench source %d", q / 10);
        snprintf(r.source_type, sizeof r.source_type, "bench");
        r.magnitude = 6 + 2 * cs_rng_uniform(&g);
        r.prob = 1e-6 + 1e-3 * cs_rng_uniform(&g);
        r.spacing_km = 1;
        double lat = 34.05 + 3 * (cs_rng_uniform(&g) - 0.5),
               lon = -118.24 + 3 * (cs_rng_uniform(&g) - 0.5);
        for (int p = 0; p < 4; p++) {
            r.lat[p] = lat + 0.01 * (p % 2);
            r.lon[p] = lon;
            r.dep[p] = 1 + 4 * (p / 2);
            r.rake[p] = 90, r.dip[p] = 45, r.stk[p] = 0;
        }
        rc = erf_db_writer_add(&w, &r, NAN, NULL, err);
        double d = 111.0 * hypot(lat - 34.05, (lon + 118.24) * cos(34.05 * M_PI / 180));
        sqlite3_reset(site);
        sqlite3_bind_int64(site, 1, r.source_id);
        sqlite3_bind_int64(site, 2, r.rupture_id);
        sqlite3_bind_double(site, 3, d);
        if (!rc && sqlite3_step(site) != SQLITE_DONE)
            rc = cs_db_fail(db, "adding a site rupture", err);
        erf_rupture_free(&r);
    }
done:
    sqlite3_finalize(site);
    erf_db_writer_close(&w);
    if (rc) {
        cs_db_rollback(db);
        return rc;
    }
    return cs_db_commit(db, err);
}

/* One rupture's result message as a worker sends it: header, hypocentres, measures. */
static void fill_result(char *buf, long long s, long long r, int nvar, int nim, double mag,
                        double dist_km, int nt, cs_rng *g) {
    result_header h;
    memset(&h, 0, sizeof h);
    h.source = s, h.rupture = r, h.nvar = nvar, h.nim = nim, h.has_seis = nt > 0;
    memcpy(buf, &h, sizeof h);
    double *hypo = (double *)(buf + sizeof h), *ims = hypo + 4 * (size_t)nvar;
    for (int v = 0; v < nvar; v++) {
        hypo[4 * v] = 34.05, hypo[4 * v + 1] = -118.24, hypo[4 * v + 2] = 8,
                 hypo[4 * v + 3] = v % 2;
        double eps = 0.6 * cs_rng_normal(g);
        for (int i = 0; i < nim; i++)
            ims[(size_t)v * nim + i] =
                exp(-1.5 + 0.8 * (mag - 6.5) - 1.1 * log(dist_km + 10) + eps - 0.05 * i);
    }
    /* E, N and Z (NaN: a two-force run's) of each variation */
    float *seis = (float *)(ims + (size_t)nvar * nim);
    for (size_t i = 0; i < (size_t)nvar * 3 * (size_t)nt; i++)
        seis[i] = i / nt % 3 == 2 ? NAN : (float)(1e-3 * cs_rng_normal(g));
}

int main(int argc, char **argv) {
    int nrup = 13000, nvar = 48, nt = 0;
    const char *seis_path = NULL;
    if (argc < 2) {
        fprintf(stderr, "usage: study_rows_bench STUDY [--ruptures N] [--variations N] [--nt N "
                        "--seismograms FILE]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--ruptures"))
            nrup = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--variations"))
            nvar = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--nt"))
            nt = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seismograms"))
            seis_path = argv[i + 1];
        else
            return fprintf(stderr, "unknown option %s\n", argv[i]), 2;
    }
    cs_error err;
    cs_error_clear(&err);
    master m;
    memset(&m, 0, sizeof m);
    if (cs_db_open_current(argv[1], &m.db, &err)) return fprintf(stderr, "%s\n", err.message), 1;
    double t0 = now_s();
    if (setup(m.db, nrup, &err)) return fprintf(stderr, "setup: %s\n", err.message), 1;
    printf("setup: %d ruptures and the run in %.1f s\n", nrup, now_s() - t0);
    m.run_id = 1, m.site_id = 1, m.erf_id = 1, m.scen_id = 1;
    im_config ims;
    im_config_default(&ims, 0.5);
    ims.vertical = 0;
    /* every measure of the periods, band or not (32 IM types, as measured in docs/scale.md):
     * more rows a variation than an extraction now stores (21 at 0.5 Hz), the heavier case */
    ims.fmax = 0;
    if (extract_study_recorder(&m, &ims, &err)) return fprintf(stderr, "%s\n", err.message), 1;
    if (nt > 0 && !seis_path) return fprintf(stderr, "--nt needs --seismograms FILE\n"), 2;
    if (nt > 0) {
        m.meta = (seis_meta){0.1, nt, -118.24, 34.05, m.run_id, 0, "USC", 0.5};
        snprintf(m.seis_path, sizeof m.seis_path, "%s", seis_path);
    }
    size_t size = sizeof(result_header) + sizeof(double) * (4 + (size_t)m.nim) * (size_t)nvar +
                  sizeof(float) * 3 * (size_t)nt * (size_t)nvar;
    char *buf = malloc(size);
    sqlite3_stmt *st;
    if (!buf || cs_db_prepare(m.db,
                              "SELECT r.Source_ID, r.Rupture_ID, r.Magnitude, s.Site_Rupture_Dist "
                              "FROM Ruptures r JOIN CyberShake_Site_Ruptures s USING (ERF_ID, "
                              "Source_ID, Rupture_ID) ORDER BY r.Source_ID, r.Rupture_ID",
                              &st, &err))
        return fprintf(stderr, "%s\n", err.message), 1;
    /* the ruptures first: the recorder writes while the list is read otherwise */
    long long(*keys)[2] = malloc(sizeof *keys * (size_t)nrup);
    double(*md)[2] = malloc(sizeof *md * (size_t)nrup);
    int n = 0;
    while (n < nrup && sqlite3_step(st) == SQLITE_ROW) {
        keys[n][0] = sqlite3_column_int64(st, 0), keys[n][1] = sqlite3_column_int64(st, 1);
        md[n][0] = sqlite3_column_double(st, 2), md[n][1] = sqlite3_column_double(st, 3);
        n++;
    }
    sqlite3_finalize(st);
    cs_rng g;
    cs_rng_init(&g, 7);
    cs_progress pr;
    cs_progress_begin(&pr, "recording", n, "ruptures");
    t0 = now_s();
    long rows = 0;
    for (int q = 0; q < n; q++) {
        fill_result(buf, keys[q][0], keys[q][1], nvar, m.nim, md[q][0], md[q][1], nt, &g);
        long got;
        if (extract_study_take_result(&m, buf, 0, &got, &err))
            return fprintf(stderr, "%s\n", err.message), 1;
        rows += got * m.nim;
        cs_progress_update(&pr, q + 1);
    }
    cs_progress_end(&pr);
    if (extract_study_flush(&m, &err)) return fprintf(stderr, "%s\n", err.message), 1;
    double dt = now_s() - t0;
    cs_db_exec(m.db, "UPDATE CyberShake_Runs SET Status = 'PP Generated' WHERE Run_ID = 1", &err);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf(
        "recorded %ld PeakAmplitudes rows (%d ruptures x %d variations x %d IM types) in %.1f s: "
        "%.0f rows/s; peak memory %.1f MB\n",
        rows, n, nvar, m.nim, dt, rows / dt, ru.ru_maxrss / 1024.0);
    free(buf), free(keys), free(md);
    extract_study_close(&m);
    return 0;
}
