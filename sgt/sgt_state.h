/* The state of one wave simulation on one rank: grid layout, fields, material, absorbing
 * boundaries, sources, save points and receivers. Host arrays live here; a GPU back end keeps
 * device copies of its own and fills the host output buffers.
 *
 * Staggering (docs/conventions.md): normal stresses and material at node (i, j, k); vx at
 * (i+1/2, j, k), vy at (i, j+1/2, k), vz at (i, j, k+1/2); sxy at (i+1/2, j+1/2, k), sxz at
 * (i+1/2, j, k+1/2), syz at (i, j+1/2, k+1/2). Each staggered value is stored at the index of
 * the node it follows. z = 0 (k = 0) is the free surface when there is one. */
#ifndef SGT_STATE_H
#define SGT_STATE_H

#include <stddef.h>

#include "cs_error.h"
#include "sgt_q.h"

/* 4th-order staggered coefficients (AWP-ODC). */
#define SGT_C1 (9.0f / 8.0f)
#define SGT_C2 (-1.0f / 24.0f)

enum { SGT_XX = 0, SGT_YY, SGT_ZZ, SGT_XY, SGT_XZ, SGT_YZ };
enum { SGT_ABSORB_SPONGE = 0, SGT_ABSORB_PML = 1 };
enum { SGT_SOURCE_NONE = 0, SGT_SOURCE_FORCE, SGT_SOURCE_MOMENT };

/* Ghost width in x and y. A rank's neighbours send it 4 layers of velocity each step; it then
 * updates the stress on its own nodes and on SGT_OVERLAP layers beyond them (redundantly, as its
 * neighbour does), so that the stress never has to travel (the AWP-ODC GPU scheme). */
#define SGT_HALO    4
#define SGT_OVERLAP 2

/* A box of local (i, j) node columns, [ib, ie) x [jb, je), the whole z column in each. */
typedef struct {
    int ib, ie, jb, je;
} sgt_region;

typedef struct {
    int nx, ny, nz; /* global nodes */
    int i0, j0;     /* global index of the local node (0, 0) */
    int lnx, lny;   /* local nodes (the whole z column is always local) */
    int halo;       /* ghost width in x and y */
    int gz;         /* ghost width in z (above the surface and below the bottom) */
    long sx, sy;    /* strides; z is contiguous */
    long ncell;     /* floats per field array */
    /* 1 where another rank lies across the face: [axis][0 low, 1 high] */
    int nbr[2][2];
    sgt_region own;    /* the nodes this rank owns: velocity is updated there */
    sgt_region stress; /* own, grown by SGT_OVERLAP on faces with a neighbour */
} sgt_layout;

static inline long sgt_idx(const sgt_layout *L, int i, int j, int k) {
    return (long)(i + L->halo) * L->sx + (long)(j + L->halo) * L->sy + (k + L->gz);
}

/* A convolutional PML on one side of one axis: memory variables for the three derivatives
 * along that axis that the velocity update uses and the three the stress update uses. */
typedef struct {
    int axis;      /* 0 x, 1 y, 2 z */
    int side;      /* 0 low, 1 high */
    int box[6];    /* local node ranges [i0, i1) x [j0, j1) x [k0, k1) of the memory variables */
    long count;    /* cells in the slab */
    float *psi[6]; /* velocity terms: d(sxx|sxy|sxz)/dx for vx, vy, vz (axis-dependent), then
                      stress terms: d(vx|vy|vz) along the axis */
} sgt_pml_slab;

typedef struct {
    int nslabs;
    sgt_pml_slab slab[6];
    /* profiles along each axis, at nodes and at half nodes, indexed by global node */
    float *a_node[3], *b_node[3], *a_half[3], *b_half[3];
} sgt_pml;

typedef struct sgt_state {
    sgt_layout L;
    double h, dt;
    int nt; /* steps */
    int free_surface;
    int visco;
    int device_fields; /* the wavefield lives on a device: no host copies of v, s, r */
    /* fields */
    float *v[3];
    float *s[6];
    float *r[6]; /* memory variables (visco only) */
    /* material at nodes: unrelaxed moduli */
    float *rho, *lam, *mu;
    /* visco only: the coarse-grained weight of the node's own mechanism, 8 y_l(Q), for the P
     * modulus (Qp) and the shear modulus (Qs) */
    float *qpw, *qsw;
    /* material of the vertical staggered positions (i, j, k+1/2), from the effective medium of
     * the cell between nodes k and k+1 (sgt_mesh_cell_below): bz the buoyancy 1/rho at vz, cz
     * the compliance 1/mu (unrelaxed; inf where mu = 0) whose two-point harmonic means in x and
     * y give the shear moduli at the xz and yz points. Taken from the model rather than from the
     * two nodes, so that an interface on a node is not smeared over two cells. */
    float *bz, *cz;
    /* at nodes: the shear modulus the xy points take (the harmonic mean of their four nodes'
     * values), the cell's arithmetic mean of mu (unrelaxed); the normal stresses use lam, mu */
    float *muxy;
    /* per depth level (index k + gz, nz + 2 gz values): the layered cell's horizontal P modulus
     * above the isotropic pair's, C11 - (lam + 2 mu) (unrelaxed; 0 in a cell of one material;
     * sgt_layered_terms). Only 1D models have layered cells (docs/sgt.md), so one value a depth
     * serves every column: no array of the grid's size, whose 4 bytes a node (5.8 GB at the
     * production size) one H200 has no room for. */
    float *ti;
    /* shear moduli at the xy, xz, yz points (xy: harmonic mean of the four muxy around it; xz,
     * yz: of the two cz beside it; a zero anywhere gives zero), precomputed for the CPU kernels */
    float *mus[3];
    sgt_q_model q;
    float q_a[SGT_Q_NMECH], q_b[SGT_Q_NMECH]; /* memory-variable update constants */
    float q_tau[SGT_Q_NMECH];                 /* relaxation times (s) */
    /* absorbing boundary */
    int absorb;
    int absorb_width;
    float *damp[3]; /* sponge factors per global node along x, y, z */
    sgt_pml pml;
    /* source: node (global), box-frame force vector or moment tensor, time function */
    int source_kind;
    int plane_source; /* force on every node of the plane k = src_k */
    int src_i, src_j, src_k;
    double force[3];
    double moment[6]; /* xx yy zz xy xz yz, N*m */
    double amplitude; /* impulse (N*s) for a force, M0 scale for a moment */
    float *stf;       /* s(t_n) for n = 0..nt (1/s), sampled at dt */
    /* a finite source (source = srf): the config's point sources and mu at each local one */
    long nmsrc;
    const int *msrc_node;
    const double *msrc_m;
    const float *msrc_rate;
    double *msrc_mu; /* Pa at the reference frequency; 0 where the node is another rank's */
    double stf_time_shift;
    /* save points (SGT) owned by this rank: global node indices, output */
    long npoints;
    int *pts;      /* 3 per point, global */
    long *pt_row;  /* the point's row in the run's point list (and the output) */
    float *pt_mat; /* lambda, mu, rho at the reference frequency, 3 per point */

    int decimation;
    int nt_out;
    /* The strain not yet handed to the file (sgt_strain_writer.h): a window of out_window
     * samples from sample out_m0, npoints x 6 x out_window, sample m of series (q, c) at
     * (q * 6 + c) * out_window + m - out_m0. */
    float *out;
    float *out_spare; /* the other window, being written while `out` fills */
    int out_window, out_m0;
    /* receivers (forward mode) owned by this rank: velocity at nodes */
    int nrec;
    int *rec;        /* 3 per receiver, global */
    long *rec_row;   /* the receiver's row in the run's list */
    float *rec_prev; /* 3 per receiver: velocity at the previous half step */
    float *rec_out;  /* nrec x 3 x (nt + 1), sampled at t_n */
    /* ranks (sgt_comm.h); NULL in a run of one process without MPI */
    struct sgt_comm *comm;
    /* back end private data */
    void *backend;
} sgt_state;

/* Allocates fields, material and memory variables for a layout; everything zeroed. */
int sgt_state_alloc(sgt_state *s, cs_error *err);
/* Floats per z row (nz and its ghost layers, padded for alignment): the layout's sy. */
int sgt_state_row_floats(const sgt_state *s);
void sgt_state_free(sgt_state *s);
/* Bytes the state needs for its arrays (fields, material, memory variables, PML, outputs). */
double sgt_state_bytes(const sgt_state *s);
/* Sets own and stress regions from the local extent and the neighbour flags. */
void sgt_layout_set_regions(sgt_layout *L);
/* Computes mus[] from mu (after the material, ghosts included, is in place). */
int sgt_state_shear_moduli(sgt_state *s, cs_error *err);
/* Sets the memory-variable update constants for dt and the Q model. */
void sgt_state_set_q_constants(sgt_state *s);

/* Loop blocking of the CPU kernels: threads take blocks of SGT_JBLOCK columns along y and march
 * along x through them, so the rows at i-2..i+2 a stencil needs are still in cache when the
 * march reaches them (column-by-column scheduling evicted them on grids of 20M points and ran
 * 4 times slower). The block shrinks when there are too few blocks for the threads. */
static inline int sgt_jblock(int nj, int nthreads) {
    int b = 16;
    while (b > 2 && (nj + b - 1) / b < 2 * nthreads)
        b /= 2;
    return b;
}

static inline int sgt_region_empty(const sgt_region *r) {
    return r->ib >= r->ie || r->jb >= r->je;
}
static inline sgt_region sgt_region_meet(sgt_region a, sgt_region b) {
    sgt_region r = {a.ib > b.ib ? a.ib : b.ib, a.ie < b.ie ? a.ie : b.ie, a.jb > b.jb ? a.jb : b.jb,
                    a.je < b.je ? a.je : b.je};
    return r;
}

/* Is the global node inside this rank's subdomain? Local indices out. */
static inline int sgt_local(const sgt_state *s, int gi, int gj, int *li, int *lj) {
    *li = gi - s->L.i0;
    *lj = gj - s->L.j0;
    return *li >= 0 && *li < s->L.lnx && *lj >= 0 && *lj < s->L.lny;
}

#endif
