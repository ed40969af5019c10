/* CPU back end: OpenMP kernels over local index ranges, so that boundary strips and the
 * interior can be updated separately (MPI overlap). */
#ifndef SGT_CPU_H
#define SGT_CPU_H

#include "sgt_state.h"

/* Velocity update v^{n+1/2} = v^{n-1/2} + dt/rho div(sigma^n) on local nodes [ib,ie) x [jb,je),
 * every k. */
void sgt_cpu_velocity(sgt_state *s, int ib, int ie, int jb, int je);
/* Stress (and memory-variable) update on [ib,ie) x [jb,je), every k, including the special
 * treatment of the two top layers when the free surface is on. */
void sgt_cpu_stress(sgt_state *s, int ib, int ie, int jb, int je);
/* Stress imaging above the free surface (Gottschaemmer & Olsen 2001): sigma_zz = 0 at k = 0,
 * sigma_zz, sigma_xz, sigma_yz antisymmetric about the surface. */
void sgt_cpu_free_surface(sgt_state *s, int ib, int ie, int jb, int je);

/* The nine velocity derivatives used by the stress update at index (i, j, k) (local), in the
 * order dvx/dx, dvy/dy, dvz/dz (at the node), dvx/dy, dvy/dx (at the xy point), dvx/dz, dvz/dx
 * (xz point), dvy/dz, dvz/dy (yz point), with the free-surface rules of the top layers. Used by
 * the top-layer update and by the strain at save points, so both see the same numbers. */
void sgt_cpu_derivatives(const sgt_state *s, int i, int j, int k, float d[9]);
/* Tensor strain rate at the node (i, j, k) (local): six components xx yy zz xy xz yz, the shear
 * ones interpolated from the surrounding 4 x 4 shear points (4th order; 2nd order vertically
 * within two nodes of the free surface). */
void sgt_cpu_node_strain_rate(const sgt_state *s, int i, int j, int k, double e[6]);

/* 4th-order half-node-to-node interpolation weights, and the vertical weights at depth k (first
 * offset and count: 4 points from k-2, or 2 points from k-1 next to the free surface). The
 * sources use the same weights, so a source and a receiver at one node are adjoint. */
extern const float sgt_interp4[4];
int sgt_cpu_vertical_weights(const sgt_state *s, int k, int *first, float w[4]);

/* Whole CPU time step n (v to n+1/2, sigma to n+1), sources, absorbing boundaries, strain
 * accumulation and receivers. */
void sgt_cpu_step(sgt_state *s, int n);

#endif
