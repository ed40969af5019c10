/* Anelastic attenuation by coarse-grained memory variables (Day 1998; Day & Bradley 2001).
 *
 * Eight relaxation times, log-spaced over the Q band, one per cell of each 2x2x2 block; each
 * cell's single memory variable carries 8 times the weight y_l of its mechanism. Averaged
 * arithmetically over the block this is the full standard linear solid
 * M(w) = M_U (1 - sum_l y_l / (1 + i w tau_l)); but a wave travelling along a grid axis sees its
 * cells in series along the path, a different average, and at low Q the two differ by tens of
 * percent in Q (measured with plane waves, docs/sgt.md). The weights for each Q are therefore
 * fitted (nonlinear least squares, y >= 0) so that both limits keep Q within about 10% at
 * Q = 20, 5% at Q = 50 and 3% at Q = 100 over the band; they are tabulated against 1/Q once and
 * interpolated. The unrelaxed moduli are set so that the phase velocity at the reference
 * frequency equals the model's velocity. */
#ifndef SGT_Q_H
#define SGT_Q_H

#include "cs_error.h"

#define SGT_Q_NMECH 8
#define SGT_Q_TABLE 65
#define SGT_Q_MIN   5.0 /* smallest Q the fit is good for (Q(f) within -2.5%..+6% of Q) */

typedef struct {
    double f_low, f_high, f_ref; /* Hz */
    double tau[SGT_Q_NMECH];     /* relaxation times (s) */
    double table[SGT_Q_TABLE]
                [SGT_Q_NMECH]; /* weights y_l at 1/Q = i / (SGT_Q_TABLE - 1) / SGT_Q_MIN */
} sgt_q_model;

int sgt_q_fit(sgt_q_model *q, double f_low, double f_high, double f_ref, cs_error *err);
/* Weights y_l for quality factor Q >= SGT_Q_MIN (Q = INFINITY gives zeros). */
void sgt_q_weights(const sgt_q_model *q, double Q, double y[SGT_Q_NMECH]);
/* Q^-1(f) of the coarse-grained medium with quality factor Q: the mean of its two limits, and
 * the limits themselves (mixed: waves crossing cells in every direction; aligned: a wave along
 * a grid axis). */
double sgt_q_inverse(const sgt_q_model *q, double Q, double f);
double sgt_q_inverse_limits(const sgt_q_model *q, double Q, double f, double *mixed,
                            double *aligned);
/* M_U / (rho c(f_ref)^2): multiply rho v^2 by it to get the unrelaxed modulus. */
double sgt_q_unrelaxed_factor(const sgt_q_model *q, double Q);
/* Relaxation mechanism of node (i, j, k) (global indices): its position in the 2x2x2 block. */
static inline int sgt_q_mechanism(int i, int j, int k) {
    return (i & 1) | ((j & 1) << 1) | ((k & 1) << 2);
}

#endif
