/* Convolutional PML corrections (Komatitsch & Martin 2007, kappa = 1), CPU loops.
 *
 * The interior kernels have already applied the ordinary update everywhere; this pass adds, in
 * each slab normal to an axis, the memory-variable terms of the stretched derivative along it
 * (sgt_pml_*_cell in sgt_stencil.h, shared with the CUDA back end). Each slab is a box of local
 * nodes whose memory variables are stored with k fastest; the profile depends on the position
 * along the slab's axis only. */
#include <omp.h>

#include "sgt_absorb.h"
#include "sgt_stencil.h"

static void pml_pass(sgt_state *s, const sgt_region *r, int stress) {
    const sgt_layout *L = &s->L;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const long sx = L->sx, sy = L->sy;
    float *const *rr = s->visco ? s->r : NULL;
    for (int q = 0; q < s->pml.nslabs; q++) {
        sgt_pml_slab *sl = &s->pml.slab[q];
        const int a = sl->axis;
        /* The slab's part in the region; memory variables are indexed over the whole slab. */
        const sgt_region part =
            sgt_region_meet(*r, (sgt_region){sl->box[0], sl->box[1], sl->box[2], sl->box[3]});
        if (sgt_region_empty(&part)) continue;
        const int ib = part.ib, ie = part.ie, jb = part.jb, je = part.je;
        const int kb = sl->box[4], ke = sl->box[5];
        const int nj = sl->box[3] - sl->box[2], nk = ke - kb;
        const float *an = s->pml.a_node[a], *bn = s->pml.b_node[a];
        const float *ah = s->pml.a_half[a], *bh = s->pml.b_half[a];
        /* Shear moduli (precomputed harmonic means) of the two shear stresses the slab adds to. */
        const int cb = (a + 1) % 3, cc = (a + 2) % 3;
        const float *m1 = s->mus[cb + a == 1 ? 0 : cb + a == 2 ? 1 : 2];
        const float *m2 = s->mus[cc + a == 1 ? 0 : cc + a == 2 ? 1 : 2];
        const int jbs = sgt_jblock(je - jb, omp_get_max_threads()), nb = (je - jb + jbs - 1) / jbs;
#pragma omp parallel for schedule(static)
        for (int blk = 0; blk < nb; blk++)
            for (int i = ib; i < ie; i++)
                for (int j = jb + blk * jbs; j < je && j < jb + (blk + 1) * jbs; j++) {
                    const long p0 = sgt_idx(L, i, j, 0);
                    const long c0 = ((long)(i - sl->box[0]) * nj + (j - sl->box[2])) * nk - kb;
                    const int g = a == 0 ? i + L->i0 : j + L->j0;
                    const int mij = ((i + L->i0) & 1) | (((j + L->j0) & 1) << 1);
                    for (int k = kb; k < ke; k++) {
                        const int gp = a == 2 ? k : g;
                        const long p = p0 + k;
                        if (!stress) {
                            sgt_pml_velocity_cell(s->v, s->s, s->rho, s->bz, p, sx, sy, a, an[gp],
                                                  bn[gp], ah[gp], bh[gp], sl->psi, c0 + k, ih, dt);
                        } else {
                            const int mech = mij | ((k & 1) << 2);
                            sgt_pml_stress_cell(
                                s->s, rr, s->v, p, sx, sy, a, k, s->free_surface, s->lam[p],
                                s->mu[p], m1[p], m2[p], s->ti[k + L->gz],
                                sgt_layered_gx(s->ti[k + L->gz], s->mu[p], s->muxy[p]),
                                rr ? s->qpw[p] : 0, rr ? s->qsw[p] : 0, s->q_b[mech], an[gp],
                                bn[gp], ah[gp], bh[gp], sl->psi, c0 + k, ih, dt);
                        }
                    }
                }
    }
}

void sgt_pml_velocity(sgt_state *s, const sgt_region *r) {
    pml_pass(s, r, 0);
}
void sgt_pml_stress(sgt_state *s, const sgt_region *r) {
    pml_pass(s, r, 1);
}
