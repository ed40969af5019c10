/* Velocity models: what the medium is at a point, before it is put on a grid.
 *
 * Formats: a homogeneous medium; 1D layered models in the Broadband Platform's fk1d format, in a
 * depth table with units in its header, or as UCVM's "1d" depth/Vp table with its density and
 * Vs rules; 3D gridded models in HDF5 (any regular grid in the box frame) or the AWP raw float32
 * (vp, vs, rho) mesh on the simulation grid itself. Queries return SI values; Q is NAN where
 * the model has none (the mesh stage then derives it from Vs). */
#ifndef SGT_MODEL_H
#define SGT_MODEL_H

#include <stddef.h>

#include "cs_error.h"

typedef struct {
    double vp, vs, rho; /* m/s, m/s, kg/m^3 */
    double qp, qs;      /* quality factors, NAN when the model has none */
} sgt_material;

typedef enum {
    SGT_MODEL_HOMOGENEOUS,
    SGT_MODEL_LAYERED, /* fk1d, depth-table: constant within each layer */
    SGT_MODEL_LINEAR,  /* ucvm1d: piecewise linear in depth */
    SGT_MODEL_GRID3D,  /* HDF5 regular grid, trilinear */
    SGT_MODEL_AWP      /* AWP raw mesh on the simulation grid */
} sgt_model_kind;

typedef struct {
    sgt_model_kind kind;
    char name[256]; /* identity recorded in outputs: format and file */
    sgt_material homogeneous;
    /* 1D: n entries, top depths ascending (m) */
    int n;
    double *top;
    sgt_material *layer;
    /* 3D grids, values [k][j][i] (x fastest) */
    int gnx, gny, gnz;
    double gx0, gy0, gz0, gdx, gdy, gdz; /* box-frame origin and spacing (m) */
    float *gvp, *gvs, *grho, *gqp, *gqs; /* gqp/gqs may be NULL */
} sgt_model;

/* Readers; each names file:line (or dataset) and the rule when the input is malformed. */
int sgt_model_homogeneous(sgt_model *m, double vp, double vs, double rho, double qp, double qs,
                          cs_error *err);
int sgt_model_read_fk1d(sgt_model *m, const char *path, cs_error *err);
int sgt_model_read_depth_table(sgt_model *m, const char *path, cs_error *err);
int sgt_model_read_ucvm1d(sgt_model *m, const char *path, cs_error *err);
int sgt_model_read_hdf5(sgt_model *m, const char *path, cs_error *err);
/* The AWP mesh must match the simulation grid: nx, ny, nz nodes, x fastest, surface first. */
int sgt_model_read_awp(sgt_model *m, const char *path, int nx, int ny, int nz, cs_error *err);
/* Reads by format name: homogeneous is not a file format. */
int sgt_model_read(sgt_model *m, const char *format, const char *path, int nx, int ny, int nz,
                   cs_error *err);
void sgt_model_free(sgt_model *m);

/* Material at box-frame point (x, y, z) (m, z down) for node (i, j, k) of the simulation grid
 * (used by the AWP format, whose values are per node). */
int sgt_model_query(const sgt_model *m, double x, double y, double z, int i, int j, int k,
                    sgt_material *out, cs_error *err);

/* Writes a 3D model in this toolkit's HDF5 layout (for tests and for users converting models). */
int sgt_model_write_hdf5(const char *path, int nx, int ny, int nz, double x0, double y0, double z0,
                         double dx, double dy, double dz, const float *vp, const float *vs,
                         const float *rho, const float *qp, const float *qs, cs_error *err);

#endif
