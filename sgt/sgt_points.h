/* Save points (SGT) and receivers (forward runs).
 *
 * The strain at a save point is read, every `decimation` steps, from the stresses (and, in
 * viscoelastic runs, the memory variables) at its node and shear points through the cells'
 * relaxed moduli (sgt_stencil.h): exactly the strain the scheme integrates, with no work at the
 * other steps, into the current window of samples (sgt_state.out), point-major with time
 * fastest.
 * Receivers record the three velocities at a node at integer times t_n, as the mean of the two
 * half steps around it. */
#ifndef SGT_POINTS_H
#define SGT_POINTS_H

#include "sgt_state.h"

int sgt_points_alloc(sgt_state *s, cs_error *err);
/* Writes the strain of every local point into sample m of the current window (nothing when m
 * lies outside it). */
void sgt_points_save(sgt_state *s, int m);

int sgt_receivers_alloc(sgt_state *s, cs_error *err);
void sgt_receivers_record(sgt_state *s, int n);

/* Velocity at node (i, j, k) (local), as receivers and the force source see it. */
void sgt_node_velocity(const sgt_state *s, int i, int j, int k, double v[3]);

/* Reads a points file: three numbers per line ('#' comments), grid indices "i j k"
 * (SGT_POINTS_INDEX, whole numbers) or "lon lat depth_m" (SGT_POINTS_GEOGRAPHIC); with the line
 * of each point, for messages. */
enum { SGT_POINTS_INDEX = 0, SGT_POINTS_GEOGRAPHIC = 1 };
int sgt_points_read(const char *path, int want, double **vals, int **lines, long *n, cs_error *err);
int sgt_points_read_index(const char *path, int **pts, int **lines, long *n, cs_error *err);

#endif
