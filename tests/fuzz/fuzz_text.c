/* Harnesses of the text inputs: parameter files, run configurations, CSV tables, geometry
 * files, SRF, 1D velocity models, save points, time functions. */
#include <stdlib.h>
#include <string.h>

#include "cs_params.h"
#include "cs_sites.h"
#include "erf_area.h"
#include "erf_faults.h"
#include "erf_geometry.h"
#include "fuzz.h"
#include "sgt_config.h"
#include "sgt_model.h"
#include "sgt_points.h"
#include "sgt_source.h"
#include "srf.h"
#include "wf_config.h"

/* The SGT solver's parameter file, then the configuration the solver derives from it. */
int fuzz_params(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    cs_params *p = NULL;
    int rc = cs_params_read(fuzz_file("run.par", data, size), sgt_param_specs,
                            (size_t)sgt_param_nspecs, &p, &err);
    fuzz_check_error("params", rc, &err);
    if (rc) return 0;
    sgt_config c;
    memset(&c, 0, sizeof c);
    rc = sgt_config_from_params(p, &c, &err);
    fuzz_check_error("params", rc, &err);
    if (!rc) sgt_config_free(&c);
    cs_params_free(p);
    return 0;
}

int fuzz_wf_config(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    wf_config c;
    int rc = wf_config_read(fuzz_file("site.run", data, size), NULL, 0, &c, &err);
    fuzz_check_error("wf_config", rc, &err);
    if (!rc) wf_config_free(&c);
    return 0;
}

int fuzz_sites(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    cs_site *sites = NULL;
    int *lines = NULL, n = 0;
    int rc = cs_sites_read(fuzz_file("sites.csv", data, size), &sites, &lines, &n, &err);
    fuzz_check_error("sites", rc, &err);
    free(sites);
    free(lines);
    return 0;
}

/* faults.csv mutated, with the traces of its seed's sources. */
int fuzz_faults(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    erf_fault_set set;
    int rc = erf_faults_read(fuzz_file("faults.csv", data, size),
                             fuzz_repo_path("tests/fuzz/corpus/traces/demo_head.csv"), &set, &err);
    fuzz_check_error("faults", rc, &err);
    if (!rc) erf_faults_free(&set);
    return 0;
}

/* traces.csv mutated, for the faults of its seed. */
int fuzz_traces(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    erf_fault_set set;
    int rc = erf_faults_read(fuzz_repo_path("tests/fuzz/corpus/faults/demo_head.csv"),
                             fuzz_file("traces.csv", data, size), &set, &err);
    fuzz_check_error("traces", rc, &err);
    if (!rc) erf_faults_free(&set);
    return 0;
}

int fuzz_geometry(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    erf_rupture r;
    int rc = erf_geometry_read(fuzz_file("12_3.txt", data, size), 12, 3, &r, &err);
    fuzz_check_error("geometry", rc, &err);
    if (!rc) erf_rupture_free(&r);
    return 0;
}

/* The file name itself (up to a NUL): the ids it gives. */
int fuzz_geometry_name(const uint8_t *data, size_t size) {
    char name[512];
    size_t n = size < sizeof name - 1 ? size : sizeof name - 1;
    memcpy(name, data, n);
    name[n] = '\0';
    cs_error err;
    cs_error_clear(&err);
    long long s, r;
    int rc = erf_geometry_ids_from_path(name, &s, &r, &err);
    fuzz_check_error("geometry_name", rc, &err);
    if (!rc && (s < 0 || r < 0)) abort(); /* ids are never negative */
    return 0;
}

int fuzz_area(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    erf_area_source a;
    memset(&a, 0, sizeof a);
    int rc = erf_area_read_polygon(fuzz_file("polygon.csv", data, size), &a, &err);
    fuzz_check_error("area", rc, &err);
    if (!rc) erf_area_default_origin(&a);
    free(a.poly);
    return 0;
}

int fuzz_srf(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    srf_file s;
    int rc = srf_read(fuzz_file("rupture.srf", data, size), &s, &err);
    fuzz_check_error("srf", rc, &err);
    if (!rc) {
        srf_moment(&s, NULL, NULL);
        srf_free(&s);
    }
    return 0;
}

/* A 1D model, then queried from above its top to below its last layer. */
static int model(const char *name, int (*read)(sgt_model *, const char *, cs_error *),
                 const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    sgt_model m;
    int rc = read(&m, fuzz_file("model.txt", data, size), &err);
    fuzz_check_error(name, rc, &err);
    if (rc) return 0;
    static const double depths[] = {-10, 0, 1, 500, 999.5, 1e4, 1e5, 1e7};
    for (size_t i = 0; i < sizeof depths / sizeof *depths; i++) {
        sgt_material a;
        cs_error_clear(&err);
        rc = sgt_model_query(&m, 0, 0, depths[i], 0, 0, (int)i, &a, &err);
        fuzz_check_error(name, rc, &err);
    }
    sgt_model_free(&m);
    return 0;
}

int fuzz_fk1d(const uint8_t *data, size_t size) {
    return model("fk1d", sgt_model_read_fk1d, data, size);
}
int fuzz_depth_table(const uint8_t *data, size_t size) {
    return model("depth_table", sgt_model_read_depth_table, data, size);
}
int fuzz_ucvm1d(const uint8_t *data, size_t size) {
    return model("ucvm1d", sgt_model_read_ucvm1d, data, size);
}

int fuzz_points(const uint8_t *data, size_t size) {
    const char *path = fuzz_file("points.txt", data, size);
    for (int want = SGT_POINTS_INDEX; want <= SGT_POINTS_GEOGRAPHIC; want++) {
        cs_error err;
        cs_error_clear(&err);
        double *vals = NULL;
        int *lines = NULL;
        long n = 0;
        int rc = sgt_points_read(path, want, &vals, &lines, &n, &err);
        fuzz_check_error("points", rc, &err);
        free(vals);
        free(lines);
    }
    cs_error err;
    cs_error_clear(&err);
    int *pts = NULL, *lines = NULL;
    long n = 0;
    int rc = sgt_points_read_index(path, &pts, &lines, &n, &err);
    fuzz_check_error("points", rc, &err);
    free(pts);
    free(lines);
    return 0;
}

int fuzz_stf(const uint8_t *data, size_t size) {
    cs_error err;
    cs_error_clear(&err);
    sgt_stf_table t;
    memset(&t, 0, sizeof t);
    int rc = sgt_stf_table_read(&t, fuzz_file("stf.txt", data, size), &err);
    fuzz_check_error("stf", rc, &err);
    if (!rc) {
        static const double times[] = {-1, 0, 0.05, 0.25, 1e9};
        for (size_t i = 0; i < sizeof times / sizeof *times; i++)
            sgt_stf_table_eval(&t, times[i]);
        sgt_stf_table_free(&t);
    }
    return 0;
}
