/* Absorbing boundaries on the faces of the box (all six, or five under a free surface).
 *
 * sponge: Cerjan et al. (1985) as AWP-ODC does it: every field is multiplied each step by
 *   exp(-(alpha (w - n))^2) at n nodes from the inner edge of a w-node layer, with alpha set by
 *   the factor at the outermost node (CyberShake: 80 nodes, 0.92).
 * pml: a convolutional PML (Komatitsch & Martin 2007; kappa = 1, frequency-shifted by alpha):
 *   the interior kernels update every node as usual, and a correction pass over each boundary
 *   slab adds the memory-variable terms of the stretched derivatives along its axis. */
#ifndef SGT_ABSORB_H
#define SGT_ABSORB_H

#include "sgt_state.h"

typedef struct {
    int kind;           /* SGT_ABSORB_SPONGE or SGT_ABSORB_PML */
    int width;          /* nodes */
    double sponge_edge; /* sponge factor at the outermost node */
    double pml_r;       /* PML nominal reflection coefficient */
    double pml_vmax;    /* fastest P velocity (m/s), for the PML damping */
    double pml_f0;      /* frequency (Hz) of the frequency shift alpha = pi f0 */
} sgt_absorb_config;

int sgt_absorb_setup(sgt_state *s, const sgt_absorb_config *c, cs_error *err);
/* Applied to a region after its velocity update (and the force), and after its stress update
 * (and the moment source), before the values above the free surface are set. */
void sgt_absorb_velocity(sgt_state *s, const sgt_region *r);
void sgt_absorb_stress(sgt_state *s, const sgt_region *r);

/* The PML corrections themselves (sgt_pml.c). */
void sgt_pml_velocity(sgt_state *s, const sgt_region *r);
void sgt_pml_stress(sgt_state *s, const sgt_region *r);

#endif
