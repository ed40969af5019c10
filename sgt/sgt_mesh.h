/* The mesh stage: the velocity model sampled onto the simulation grid, with the floors applied
 * (Vs and Vp floors, Vp/Vs >= 1.45 by default, a density floor) and Q derived from Vs where the
 * model has none (Qs = 50 Vs[km/s], Qp = 2 Qs, the CyberShake habit). The result is either put
 * straight into a solver state or written once as a material file (HDF5) that the three force
 * runs of a site share. Every clamp is counted and reported, never silent. */
#ifndef SGT_MESH_H
#define SGT_MESH_H

#include "cs_error.h"
#include "sgt_model.h"
#include "sgt_state.h"

enum { SGT_QSRC_AUTO = 0, SGT_QSRC_MODEL, SGT_QSRC_VS };
/* How a node takes the model: its cell's effective medium (sgt_effective.h), the model at the
 * node alone (the older rule, which puts a node on an interface in the layer below), or, for 1D
 * models, the same averages taken with a band-limited kernel instead of the cell (Mittet 2017;
 * sgt_effective.h). */
/* SGT_SAMPLE_AUTO (the default) stands for one of the first three, chosen per model by
 * sgt_mesh_choose_sampling before any node is sampled. */
enum { SGT_SAMPLE_EFFECTIVE = 0, SGT_SAMPLE_POINT, SGT_SAMPLE_BANDLIMITED, SGT_SAMPLE_AUTO };
/* The rule named by material_sampling ("auto", "effective", "point", "bandlimited"; the
 * parameter's declaration refuses any other). */
int sgt_mesh_sampling_parse(const char *name);
#define SGT_SUBSAMPLES_DEFAULT 3

typedef struct {
    double vs_min, vp_min, rho_min, vpvs_min;
    int q_source;
    double x0, y0; /* box-frame position of node (0, 0, 0), m */
    double h;
    int sampling;     /* SGT_SAMPLE_* */
    int subsamples;   /* 3D models: samples per axis in a cell (0: SGT_SUBSAMPLES_DEFAULT) */
    double dt;        /* the run's time step (s), which auto's choice must keep stable; 0: none */
    int viscoelastic; /* the run attenuates: auto takes the cell averages */
} sgt_mesh_rules;

typedef struct {
    long nodes;
    long clamped_vs, clamped_vp, clamped_rho, q_from_vs;
    double vp_max, vs_min_seen, vs_max;
    int vp_max_at[3], vs_min_at[3]; /* global node */
    char sampling[320]; /* material_sampling = auto: the rule taken and why ("" otherwise) */
} sgt_mesh_stats;

void sgt_mesh_stats_init(sgt_mesh_stats *st);
void sgt_mesh_stats_merge(sgt_mesh_stats *into, const sgt_mesh_stats *from);
/* Only the extremes (vp max, vs min with their nodes, ties to the lowest node; vs max). */
void sgt_mesh_stats_extremes(sgt_mesh_stats *into, const sgt_mesh_stats *from);

/* The model at box-frame point (x, y, z) after the rules (floors, Q from Vs); (i, j, k) is the
 * node it belongs to (the AWP format's values are per node). */
int sgt_mesh_point(const sgt_model *m, const sgt_mesh_rules *r, double x, double y, double z, int i,
                   int j, int k, sgt_material *out, sgt_mesh_stats *st, cs_error *err);
/* The material (vp, vs, rho, qp, qs) at global node (gi, gj, k) itself, after the rules. The
 * solver takes the cell's effective medium instead (sgt_mesh_cell, sgt_effective.h). */
int sgt_mesh_node(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                  sgt_material *out, sgt_mesh_stats *st, cs_error *err);

/* Puts the model's effective media (sgt_mesh_cell) into a state's material arrays (ghosts
 * included), then converts to unrelaxed moduli with the state's Q model. */
int sgt_mesh_fill_state(sgt_state *s, const sgt_model *m, const sgt_mesh_rules *r,
                        sgt_mesh_stats *st, cs_error *err);
/* Loads a material file written by sgt_mesh_write into a state (ghosts by replication at the
 * grid's edges, by the neighbour's values inside it). */
int sgt_mesh_load_state(sgt_state *s, const char *path, char sha[65], sgt_mesh_stats *st,
                        cs_error *err);
/* After the arrays hold vp (in lam), vs (in mu), rho, qp (in qpw), qs (in qsw): records the save
 * points' material, then converts to unrelaxed lambda, mu and each node's memory-variable
 * weights. */
int sgt_mesh_to_moduli(sgt_state *s, cs_error *err);

/* How the rules put the model on the grid, in words (recorded in outputs). */
const char *sgt_mesh_sampling_name(const sgt_mesh_rules *r);

/* Writes the whole grid's material to `path` atomically, sampling one x plane at a time. */
int sgt_mesh_write(const char *path, const sgt_model *m, const sgt_mesh_rules *r, int nx, int ny,
                   int nz, char sha[65], sgt_mesh_stats *st, cs_error *err);

#endif
