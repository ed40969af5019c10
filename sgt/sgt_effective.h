/* Effective media: the material a node of the staggered grid stands for.
 *
 * Every staggered position takes the model averaged over its own cell (the box of side h
 * centred on it, clipped at the free surface z >= 0), as the staggered-grid literature prescribes
 * (Moczo et al. 2002, BSSA 92, 3042; Graves 1996, BSSA 86, 1091), with the averages that are exact
 * for a stack of layers (Backus 1962, JGR 67, 4427), the case of a model's interfaces:
 *  - density: arithmetic, at the velocity points (bx, by from the two nodes' cell means; bz from
 *    the cell between the two nodes);
 *  - the xz, yz shear points: the harmonic mean of mu (C44 = <1/mu>^-1) over the cell between
 *    two nodes (sgt_state's cz), then across the two columns;
 *  - the xy shear points: the arithmetic mean of mu (C66 = <mu>) over each node's cell, then
 *    the harmonic mean of the four nodes (sgt_state's muxy);
 *  - the normal stresses at a node: the layered cell, transversely isotropic about the
 *    vertical: the P modulus normal to the layers C33 = <1/M>^-1 (M = lambda + 2 mu), the
 *    coupling C13 = <lambda/M> C33 (stored as lambda = C13, mu = (C33 - C13) / 2; the free
 *    surface's lambda / (lambda + 2 mu) is then C13 / C33, as for the layered medium), the
 *    horizontal C11 = <M - lambda^2/M> + C13^2 / C33 (its excess over C33 in sgt_state's ti,
 *    one value a depth, 1D models only) and C12 = C11 - 2 C66;
 *  - 1/Q weighted by compliance (springs in series) or by stiffness (in parallel) as the
 *    modulus it goes with.
 * Measured on LOH.1 with the interface on a node (docs/sgt.md): cell means with harmonic moduli
 * everywhere (Moczo et al.'s isotropic rule) left the node's horizontal shear too soft (C66 26%
 * low) and misfit the transverse component 3 times more than this; one isotropic pair for the
 * normal stresses (C11 = C33) converged at first order and depended on azimuth. 3D gridded
 * models keep that pair: a value per node would not fit one GPU at the production size.
 *
 * 1D models are integrated exactly (Gauss-Legendre on each piece between the model's depths);
 * 3D gridded models are sampled at n x n x n points inside the cell (midpoint rule); the AWP
 * mesh and homogeneous models are per node already. The floors apply to every sample before it
 * is averaged, so they shape the model, not the average. */
#ifndef SGT_EFFECTIVE_H
#define SGT_EFFECTIVE_H

#include "sgt_mesh.h"

/* Half-width of the band-limited kernel (material_sampling = bandlimited), in cells. */
#define SGT_BANDLIMIT_CELLS 5
/* material_sampling = auto takes the band-limited kernel for a 1D model when its overshoot
 * moves the grid's fastest P and slowest S speeds by at most this fraction of the cell
 * averages' (so a planned step, 0.9 of the stability limit, stays stable), every mean is
 * positive, every layered cell stable, and the run's dt (where known) stable with it;
 * otherwise the cell averages. LOH.1 at h = 50 m: +5.7% and -6.6%. */
#define SGT_AUTO_OVERSHOOT 0.10

/* Resolves r->sampling == SGT_SAMPLE_AUTO for model m on a grid of nz nodes in depth (to
 * SGT_SAMPLE_BANDLIMITED or SGT_SAMPLE_EFFECTIVE by the rule above; 3D models take the cell
 * averages) and writes the choice and its reason into note (may be NULL). Any other rule is
 * left alone, and note emptied. */
void sgt_mesh_choose_sampling(const sgt_model *m, sgt_mesh_rules *r, int nz, char *note, size_t n);

/* The effective material of global node (gi, gj, k)'s cell for the normal stresses (vp from
 * C33, vs from (C33 - C13) / 2, rho, qp, qs) and, in *mu_xy (may be NULL), the cell's
 * arithmetic mean of mu at the reference frequency (Pa) for the xy points, and in *c11x (may be
 * NULL) the layered cell's C11 - C33 (sgt_effective_node, with the cell's weights or the
 * band-limited kernel's; 0 for point sampling and 3D models, whose normal stresses keep the
 * isotropic pair). With r->sampling ==
 * SGT_SAMPLE_POINT, the model at the node itself (sgt_mesh_node). A node counts once in each of
 * st's clamp and Q counters when any of its samples did. */
int sgt_mesh_cell(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                  sgt_material *out, double *mu_xy, double *c11x, sgt_mesh_stats *st,
                  cs_error *err);

/* The effective material between nodes k and k + 1 of column (gi, gj): the box
 * [x +- h/2] x [y +- h/2] x [kh, (k+1)h], where vz, sigma_xz and sigma_yz live: rho
 * arithmetic, vs from the harmonic mean of mu, qs compliance-weighted. k < 0 (above the surface)
 * takes k = 0's. With point sampling: the two nodes' means (density arithmetic, mu harmonic), as
 * the older rule had it. */
int sgt_mesh_cell_below(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                        sgt_material *out, cs_error *err);

/* Accumulates materials with weights (which should sum to 1). */
typedef struct {
    double w, rho, mu, inv_m, inv_mu, inv_m_q, inv_mu_q, mu_q, lam_over_m, inv_qs, m_lam2;
} sgt_effective_sum;

void sgt_effective_add(sgt_effective_sum *acc, const sgt_material *a, double w);
/* The node's normal-stress medium, the arithmetic mean of mu (C66) in *mu_xy, and in *c11x the
 * layered cell's horizontal P modulus above the medium's lambda + 2 mu: Backus's
 * C11 = <M - lambda^2/M> + C13^2/C33, less C33 (0 in a cell of one material). Either may be
 * NULL. */
sgt_material sgt_effective_node(const sgt_effective_sum *acc, double *mu_xy, double *c11x);
/* The medium of a vertical staggered position (C44: mu harmonic). */
sgt_material sgt_effective_below(const sgt_effective_sum *acc);

#endif
