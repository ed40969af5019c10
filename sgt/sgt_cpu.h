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
/* The stresses above the free surface (sgt_free_surface_image): sigma_zz = 0 at k = 0, and the
 * values above it that make the velocity update's differences the adjusted one-sided ones. */
void sgt_cpu_free_surface(sgt_state *s, int ib, int ie, int jb, int je);

/* The nine velocity derivatives used by the stress update at index (i, j, k) (local), in the
 * order dvx/dx, dvy/dy, dvz/dz (at the node), dvx/dy, dvy/dx (at the xy point), dvx/dz, dvz/dx
 * (xz point), dvy/dz, dvz/dy (yz point), with the free-surface rules of the top layers. */
void sgt_cpu_derivatives(const sgt_state *s, int i, int j, int k, float d[9]);

/* Everything that happens to the velocities of a region in step n: update, force, absorbing
 * boundary. */
void sgt_cpu_velocity_region(sgt_state *s, int n, const sgt_region *r);
/* Everything that happens to the stresses of a region: update, moment source, absorbing
 * boundary, the stresses above the free surface. */
void sgt_cpu_stress_region(sgt_state *s, int n, const sgt_region *r);

#endif
