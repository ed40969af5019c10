#include "sgt_absorb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int global_n(const sgt_state *s, int axis) {
    return axis == 0 ? s->L.nx : axis == 1 ? s->L.ny : s->L.nz;
}

/* Distance (in nodes) into the absorbing layer of position p (node units, may be x.5) along an
 * axis of n nodes; the bottom face is the only z face when the free surface is on. */
static double depth_into(const sgt_state *s, int axis, double p, int w) {
    int n = global_n(s, axis);
    double lo = (axis == 2 && s->free_surface) ? 0.0 : (double)w - p;
    double hi = p - (double)(n - 1 - w);
    double d = lo > hi ? lo : hi;
    return d > 0 ? d : 0;
}

static int setup_sponge(sgt_state *s, const sgt_absorb_config *c, cs_error *err) {
    double alpha = sqrt(-log(c->sponge_edge)) / c->width;
    for (int a = 0; a < 3; a++) {
        int n = global_n(s, a);
        s->damp[a] = malloc((size_t)n * sizeof(float));
        if (!s->damp[a]) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (sponge)");
        for (int g = 0; g < n; g++) {
            double d = depth_into(s, a, g, c->width);
            s->damp[a][g] = (float)exp(-(alpha * d) * (alpha * d));
        }
    }
    return 0;
}

static int setup_pml(sgt_state *s, const sgt_absorb_config *c, cs_error *err) {
    double L = c->width * s->h;
    double d0 = -3.0 * c->pml_vmax * log(c->pml_r) / (2.0 * L); /* polynomial order 2 */
    double amax = M_PI * c->pml_f0;
    sgt_pml *P = &s->pml;
    for (int a = 0; a < 3; a++) {
        int n = global_n(s, a);
        float **arr[4] = {&P->a_node[a], &P->b_node[a], &P->a_half[a], &P->b_half[a]};
        for (int q = 0; q < 4; q++) {
            *arr[q] = calloc((size_t)n + 1, sizeof(float));
            if (!*arr[q]) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (PML)");
        }
        for (int g = 0; g < n; g++)
            for (int half = 0; half < 2; half++) {
                double dep = depth_into(s, a, g + 0.5 * half, c->width) * s->h;
                double r = dep / L;
                if (r > 1) r = 1;
                double d = d0 * r * r, al = amax * (1 - r);
                double bb = exp(-(d + al) * s->dt);
                double aa = d > 0 ? d / (d + al) * (bb - 1.0) : 0.0;
                (half ? P->b_half : P->b_node)[a][g] = (float)bb;
                (half ? P->a_half : P->a_node)[a][g] = (float)aa;
            }
    }
    /* Slabs: along x and y on the faces this rank touches, along z at the bottom (and the top
     * without a free surface), over the columns whose stress this rank updates (its own and the
     * overlap). Ranges are local; the high side starts one node early so that its half-node
     * positions are all covered. */
    const sgt_layout *Ly = &s->L;
    const sgt_region *S = &Ly->stress;
    int w = c->width;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            if (a == 2 && side == 0 && s->free_surface) continue;
            int n = global_n(s, a);
            int glo = side == 0 ? 0 : n - w - 1, ghi = side == 0 ? w : n;
            int off = a == 0 ? Ly->i0 : a == 1 ? Ly->j0 : 0;
            int lo = glo - off, hi = ghi - off;
            int lmin = a == 0 ? S->ib : a == 1 ? S->jb : 0;
            int lmax = a == 0 ? S->ie : a == 1 ? S->je : Ly->nz;
            if (lo < lmin) lo = lmin;
            if (hi > lmax) hi = lmax;
            if (lo >= hi) continue;
            sgt_pml_slab *sl = &P->slab[P->nslabs++];
            memset(sl, 0, sizeof *sl);
            sl->axis = a;
            sl->side = side;
            sl->box[0] = a == 0 ? lo : S->ib;
            sl->box[1] = a == 0 ? hi : S->ie;
            sl->box[2] = a == 1 ? lo : S->jb;
            sl->box[3] = a == 1 ? hi : S->je;
            sl->box[4] = a == 2 ? lo : 0;
            sl->box[5] = a == 2 ? hi : Ly->nz;
            sl->count = (long)(sl->box[1] - sl->box[0]) * (sl->box[3] - sl->box[2]) *
                        (sl->box[5] - sl->box[4]);
            for (int q = 0; q < 6; q++) {
                sl->psi[q] = calloc((size_t)sl->count, sizeof(float));
                if (!sl->psi[q]) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (PML)");
            }
        }
    return 0;
}

int sgt_absorb_setup(sgt_state *s, const sgt_absorb_config *c, cs_error *err) {
    s->absorb = c->kind;
    s->absorb_width = c->width;
    if (c->width < 1) return cs_error_input(err, "absorbing_width", NULL, NULL, "must be >= 1");
    if (c->kind == SGT_ABSORB_SPONGE) {
        if (!(c->sponge_edge > 0 && c->sponge_edge < 1))
            return cs_error_input(err, "sponge_edge_factor", NULL, NULL, "must lie in (0, 1)");
        return setup_sponge(s, c, err);
    }
    if (!(c->pml_r > 0 && c->pml_r < 1))
        return cs_error_input(err, "pml_reflection", NULL, NULL, "must lie in (0, 1)");
    return setup_pml(s, c, err);
}

/* ---- sponge ---- */

static void sponge_apply(sgt_state *s, float **f, int nf, const sgt_region *r) {
    const sgt_layout *L = &s->L;
    const float *dx = s->damp[0], *dy = s->damp[1], *dz = s->damp[2];
    int w = s->absorb_width;
#pragma omp parallel for collapse(2) schedule(static)
    for (int i = r->ib; i < r->ie; i++)
        for (int j = r->jb; j < r->je; j++) {
            float fxy = dx[i + L->i0] * dy[j + L->j0];
            long b = sgt_idx(L, i, j, 0);
            /* Interior columns: only the bottom layer (and the top one without a free surface)
             * is damped. */
            int k0 = fxy < 1.0f || !s->free_surface ? 0 : L->nz - w - 1;
            for (int k = k0; k < L->nz; k++) {
                float d = fxy * dz[k];
                if (d < 1.0f)
                    for (int c = 0; c < nf; c++)
                        f[c][b + k] *= d;
            }
        }
}

void sgt_absorb_velocity(sgt_state *s, const sgt_region *r) {
    if (s->absorb == SGT_ABSORB_SPONGE)
        sponge_apply(s, s->v, 3, r);
    else
        sgt_pml_velocity(s, r);
}

void sgt_absorb_stress(sgt_state *s, const sgt_region *r) {
    if (s->absorb == SGT_ABSORB_SPONGE)
        sponge_apply(s, s->s, 6, r);
    else
        sgt_pml_stress(s, r);
}
