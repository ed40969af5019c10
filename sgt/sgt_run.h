/* One solver run: build the state, check it, step it, write the output. */
#ifndef SGT_RUN_H
#define SGT_RUN_H

#include "sgt_config.h"
#include "sgt_state.h"

typedef struct {
    int steps;
    double seconds; /* time loop only */
    double lups;    /* grid-point updates per second */
    double output_bytes;
    char output_sha[65];
    sgt_mesh_stats mesh;
    char model_name[256];
    char material_sha[65];
    /* the source time function as applied */
    char stf_description[512];
    double stf_time_shift, stf_sample_offset;
} sgt_run_result;

/* A back end: the CPU one always, the CUDA one when built with nvcc. */
typedef struct {
    const char *name;
    int (*setup)(sgt_state *s, cs_error *err);
    int (*step)(sgt_state *s, int n, cs_error *err);
    /* Fills s->out sample m from the device (called every decimation steps). */
    int (*save)(sgt_state *s, int m, cs_error *err);
    /* Copies receivers and anything else left on the device into the host buffers. */
    int (*finish)(sgt_state *s, cs_error *err);
    void (*teardown)(sgt_state *s);
} sgt_backend;

extern const sgt_backend sgt_backend_cpu;
/* NULL when this build has no CUDA. */
const sgt_backend *sgt_backend_cuda(void);

/* Preflight checks; each failure names the cell or point, the value and what to change. */
int sgt_check_stability(const sgt_config *c, const sgt_mesh_stats *st, cs_error *err);
int sgt_check_points(const sgt_config *c, cs_error *err);
int sgt_check_memory(double bytes_needed, const char *what, cs_error *err);
/* Largest stable dt for a grid spacing and P velocity. */
double sgt_cfl_limit(double h, double vp_max);

/* Builds the state for the config (single rank), fills material and sources, checks. */
int sgt_prepare(const sgt_config *c, sgt_state *s, sgt_run_result *res, cs_error *err);
int sgt_run(const sgt_config *c, sgt_run_result *res, cs_error *err);

#endif
