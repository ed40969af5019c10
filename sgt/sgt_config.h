/* Everything one run of the solver needs, read from a parameter file (docs/sgt.md lists every
 * key). Geographic inputs (site and source positions in lon/lat, force along E/N/Z, strike/dip/
 * rake, save points in lon/lat/depth) are converted by the command line into box-frame values
 * before the solver sees them, so the solver itself never needs geodesy. */
#ifndef SGT_CONFIG_H
#define SGT_CONFIG_H

#include "cs_params.h"
#include "sgt_absorb.h"
#include "sgt_mesh.h"

extern const cs_param_spec sgt_param_specs[];
extern const int sgt_param_nspecs;

enum { SGT_MODE_SGT = 0, SGT_MODE_FORWARD };
enum { SGT_BACKEND_CPU = 0, SGT_BACKEND_CUDA };

typedef struct {
    int mode, backend;
    int nx, ny, nz, nt;
    double h, dt;
    int have_geo; /* origin_lon/lat given */
    double origin_lon, origin_lat, rotation;
    double x0, y0;
    char model_format[32], model_file[4096], mesh_file[4096];
    sgt_mesh_rules mesh;
    double vp, vs, rho, qp, qs; /* homogeneous */
    int visco;
    double q_low, q_high, q_ref;
    double fmax, min_ppw;
    int free_surface;
    sgt_absorb_config absorb;
    int source_kind;
    int plane_source;
    int src[3];
    double force[3];
    char force_component[8];
    double impulse;
    double moment[6]; /* box frame, N*m */
    /* source = srf (forward runs): every SRF subfault a moment-tensor point source at its
     * nearest node, M0 = mu A slip with the mesh's mu there */
    int srf;
    char srf_file[4096];
    long nmsrc;
    int *msrc_node;   /* 3 per source: global i, j, k */
    double *msrc_m;   /* 6 per source: unit moment tensor, box frame */
    float *msrc_rate; /* nt per source: potency rate A sdot (m^3/s) at t_{n+1/2} */
    int stf_from_file;
    char stf_file[4096];
    double stf_time_shift;
    char save_points[4096];
    int decimation;
    int strain_buffer_mb; /* host memory for strain not yet in the file (two windows) */
    char output[4096];
    char receivers[4096];
    int threads;
    int ranks_x, ranks_y; /* 0: chosen */
    int checkpoint_every; /* steps; 0: never */
    char checkpoint_dir[4096];
    int restart;
    char params_path[4096];
    /* where each point came from, for messages: "file:line" */
    int *point_lines;
    char point_file[4096];
    double *point_geo; /* lon, lat, depth per save point when known */
    int *pts;
    long npoints;
    int *recs;
    int *rec_lines;
    int nrec;
    /* box axes in E, N, Up at the source (set when geodesy resolved the inputs) */
    double axes_enu[3][3];
    int have_axes;
    /* the plan's box-frame values for geographic inputs (formats/plan_keys.h): the E, N, Z
     * forces' box vectors and the axes at the source, used where there is no geodesy and
     * checked against it where there is */
    double plan_force[3][3];
    int have_plan_force[3];
    double plan_axes[3][3];
    int have_plan_axes;
} sgt_config;

/* Reads the keys that need no geodesy; positions given geographically are left for the command
 * line to convert (see sgt_cli.c). */
int sgt_config_from_params(const cs_params *p, sgt_config *c, cs_error *err);
void sgt_config_free(sgt_config *c);

#endif
