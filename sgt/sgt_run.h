/* One solver run: build the state, check it, step it, write the output. */
#ifndef SGT_RUN_H
#define SGT_RUN_H

#include "sgt_comm.h"
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

/* The time-dependent arrays of a state: what a checkpoint holds. */
enum {
    SGT_FIELD_V,
    SGT_FIELD_S,
    SGT_FIELD_R,
    SGT_FIELD_PSI,
    SGT_FIELD_REC_PREV,
    SGT_FIELD_REC_OUT
};
typedef struct {
    char name[24];
    int kind, comp, slab;
    float *host; /* the host array, where the back end keeps one */
    long count;
} sgt_field;
#define SGT_MAX_FIELDS 64
int sgt_state_fields(const sgt_state *s, sgt_field *f);
/* The largest count of the fields (at least 1): the size of a buffer any of them fits. */
long sgt_fields_max_count(const sgt_field *f, int n);

/* A back end: the CPU one always, the CUDA one when built with nvcc. A time step is a sequence
 * of region updates and halo exchanges (sgt_step): the back end may run the interior while
 * messages travel, as long as each region's updates happen in the order given. */
typedef struct {
    const char *name;
    /* 1 where a region update is only queued when the call returns (the GPU's streams): the
     * step then queues the interior's stress before it waits for a halo, which blocks the host. */
    int queued;
    int (*setup)(sgt_state *s, cs_error *err);
    /* Velocity of a region to step n+1/2: update, force, absorbing boundary. `boundary`: a
     * strip whose values a neighbour waits for. */
    int (*velocity)(sgt_state *s, int n, const sgt_region *r, int boundary, cs_error *err);
    /* Stress of a region to step n+1: update, moment source, absorbing boundary, free surface. */
    int (*stress)(sgt_state *s, int n, const sgt_region *r, int boundary, cs_error *err);
    /* Starts and completes the velocity halo exchange along an axis (0 x, 1 y). */
    int (*halo_post)(sgt_state *s, int axis, cs_error *err);
    int (*halo_wait)(sgt_state *s, int axis, cs_error *err);
    /* After the stresses: receivers. */
    int (*end_step)(sgt_state *s, int n, cs_error *err);
    /* Fills s->out sample m from the device (called every decimation steps). */
    int (*save)(sgt_state *s, int m, cs_error *err);
    /* Brings the outputs (s->out, s->rec_out) up to date on the host. */
    int (*finish)(sgt_state *s, cs_error *err);
    /* Copies one time-dependent array to (to_backend 0) or from (1) a host buffer; NULL when
     * the host arrays are the fields themselves. */
    int (*field)(sgt_state *s, const sgt_field *f, float *buf, int to_backend, cs_error *err);
    void (*teardown)(sgt_state *s);
    /* Brings the current strain window (s->out) up to date with every sample saved so far;
     * NULL when `save` writes there directly. */
    int (*drain)(sgt_state *s, cs_error *err);
} sgt_backend;

/* One time step n (v to n+1/2, sigma to n+1) through a back end's region updates: with
 * neighbours, the strips they wait for first, their exchange while the interior is updated,
 * then the stress of the interior while the other axis exchanges, then the rims. A queued back
 * end gets both interior updates before the first wait, so the device is never short of work
 * while the host waits for messages. */
int sgt_step(const sgt_backend *be, sgt_state *s, int n, cs_error *err);
/* The region lists of a step: boundary strips then the interior (velocity, last of the 5), the
 * interior then the rims (stress, first of the 5). */
void sgt_velocity_regions(const sgt_layout *L, sgt_region out[5], int *nstrips);
void sgt_stress_regions(const sgt_layout *L, sgt_region out[5], int *nrims);

extern const sgt_backend sgt_backend_cpu;
/* NULL when this build has no CUDA. */
const sgt_backend *sgt_backend_cuda(void);

/* Preflight checks; each failure names the cell or point, the value and what to change. */
int sgt_check_stability(const sgt_config *c, const sgt_mesh_stats *st, cs_error *err);
int sgt_check_points(const sgt_config *c, cs_error *err);
int sgt_check_memory(double bytes_needed, const char *what, cs_error *err);
/* Largest stable dt for a grid spacing and P velocity. */
double sgt_cfl_limit(double h, double vp_max);

/* Builds this rank's state for the config, fills material and sources, checks. comm may be NULL
 * (one process). */
int sgt_prepare(const sgt_config *c, sgt_comm *comm, sgt_state *s, sgt_run_result *res,
                cs_error *err);
int sgt_run(const sgt_config *c, sgt_run_result *res, cs_error *err);

#endif
