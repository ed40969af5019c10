#include "erf_medium.h"

#include <math.h>
#include <string.h>

int erf_medium_open(erf_medium *m, const char *format, const char *path, cs_error *err) {
    memset(m, 0, sizeof *m);
    if (strcmp(format, "fk1d") && strcmp(format, "depth-table") && strcmp(format, "ucvm1d"))
        return cs_error_input(err, "--model-format", NULL, format,
                              "the forecast stages take a 1D model: fk1d, depth-table or ucvm1d");
    return sgt_model_read(&m->model, format, path, 0, 0, 0, err);
}

void erf_medium_close(erf_medium *m) {
    sgt_model_free(&m->model);
}

int erf_medium_query(double lon, double lat, double depth_km, double *vs, double *rho, void *ctx,
                     cs_error *err) {
    erf_medium *m = ctx;
    sgt_material mat;
    CS_CALL(err, sgt_model_query(&m->model, 0, 0, depth_km * 1e3, 0, 0, 0, &mat, err));
    *vs = mat.vs;
    *rho = mat.rho;
    return 0;
}

int erf_medium_extremes(const erf_medium *m, double depth_km, double vs_floor, double *vs_min,
                        double *vp_max, cs_error *err) {
    *vs_min = INFINITY;
    *vp_max = 0;
    /* every layer top within the range, and samples every 10 m for the linear model */
    for (double z = 0; z <= depth_km * 1e3 + 1e-6; z += 10.0) {
        sgt_material mat;
        CS_CALL(err, sgt_model_query(&m->model, 0, 0, z, 0, 0, 0, &mat, err));
        double vs = fmax(mat.vs, vs_floor), vp = fmax(mat.vp, 1.45 * vs);
        if (vs < *vs_min) *vs_min = vs;
        if (vp > *vp_max) *vp_max = vp;
    }
    return 0;
}
