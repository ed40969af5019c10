#include "sgt_cpu.h"

#include <math.h>
#include <omp.h>

#include "sgt_absorb.h"
#include "sgt_points.h"
#include "sgt_source.h"
#include "sgt_stencil.h"

/* The loops below take blocks of columns along y and march along x (sgt_jblock); the innermost
 * loop runs down a contiguous column and vectorises. The formulas are those of sgt_stencil.h,
 * shared with the CUDA back end. */
// clang-format off
#define FOR_COLUMNS(ib, ie, jb, je)                                                          \
    const int jbs_ = sgt_jblock((je) - (jb), omp_get_max_threads());                         \
    const int nb_ = ((je) - (jb) + jbs_ - 1) / jbs_;                                         \
    _Pragma("omp parallel for schedule(static)")                                             \
    for (int blk = 0; blk < nb_; blk++)                                                      \
        for (int i = (ib); i < (ie); i++)                                                    \
            for (int j = (jb) + blk * jbs_; j < (je) && j < (jb) + (blk + 1) * jbs_; j++)
// clang-format on

void sgt_cpu_velocity(sgt_state *s, int ib, int ie, int jb, int je) {
    const sgt_layout *L = &s->L;
    const long sx = L->sx, sy = L->sy;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const int nz = L->nz;
    FOR_COLUMNS(ib, ie, jb, je) {
        const long b = sgt_idx(L, i, j, 0);
        float *restrict vx = s->v[0] + b, *restrict vy = s->v[1] + b, *restrict vz = s->v[2] + b;
        const float *restrict xx = s->s[SGT_XX] + b, *restrict yy = s->s[SGT_YY] + b,
                              *restrict zz = s->s[SGT_ZZ] + b, *restrict xy = s->s[SGT_XY] + b,
                              *restrict xz = s->s[SGT_XZ] + b, *restrict yz = s->s[SGT_YZ] + b,
                              *restrict rho = s->rho + b, *restrict bz = s->bz + b;
#pragma omp simd
        for (int k = 0; k < nz; k++) {
            vx[k] += dt * ih * (sgt_fwd(xx, k, sx) + sgt_bwd(xy, k, sy) + sgt_bwd(xz, k, 1)) *
                     2.0f / (rho[k] + rho[k + sx]);
            vy[k] += dt * ih * (sgt_bwd(xy, k, sx) + sgt_fwd(yy, k, sy) + sgt_bwd(yz, k, 1)) *
                     2.0f / (rho[k] + rho[k + sy]);
            vz[k] +=
                dt * ih * (sgt_bwd(xz, k, sx) + sgt_bwd(yz, k, sy) + sgt_fwd(zz, k, 1)) * bz[k];
        }
    }
}

void sgt_cpu_derivatives(const sgt_state *s, int i, int j, int k, float d[9]) {
    sgt_derivs(s->v[0], s->v[1], s->v[2], s->lam, s->mu, sgt_idx(&s->L, i, j, k), s->L.sx, s->L.sy,
               k, s->free_surface, (float)(1.0 / s->h), d);
}

void sgt_cpu_stress(sgt_state *s, int ib, int ie, int jb, int je) {
    const sgt_layout *L = &s->L;
    const long sx = L->sx, sy = L->sy;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const int nz = L->nz, fs = s->free_surface;
    const int ktop = fs ? 2 : 0;
    float *const *sg = s->s;
    float *const *rr = s->visco ? s->r : NULL;
    FOR_COLUMNS(ib, ie, jb, je) {
        const long b = sgt_idx(L, i, j, 0);
        const int mij = ((i + L->i0) & 1) | (((j + L->j0) & 1) << 1);
        /* The relaxation mechanism alternates with k; choosing between the two by parity (not
         * by indexing the tables) keeps the loop vectorisable. */
        const float a0 = s->q_a[mij], a1 = s->q_a[mij | 4];
        const float b0 = s->q_b[mij], b1 = s->q_b[mij | 4];
        const float *restrict lm = s->lam, *restrict mu = s->mu;
        const float *restrict ti = s->ti + L->gz, *restrict m66 = s->muxy; /* ti per depth */
        const float *restrict mxy = s->mus[0], *restrict mxz = s->mus[1], *restrict myz = s->mus[2];
        const float *restrict qp = s->qpw, *restrict qs = s->qsw;
        /* The two top layers under a free surface take the special derivatives. */
        for (int k = 0; k < ktop; k++) {
            float d[9];
            const long p = b + k;
            sgt_derivs(s->v[0], s->v[1], s->v[2], lm, mu, p, sx, sy, k, fs, ih, d);
            sgt_stress_point(sg, rr, p, lm[p], mu[p], mxy[p], mxz[p], myz[p], ti[k],
                             sgt_layered_gx(ti[k], mu[p], m66[p]), rr ? qp[p] : 0, rr ? qs[p] : 0,
                             k & 1 ? a1 : a0, k & 1 ? b1 : b0, d, dt);
        }
#pragma omp simd
        for (int k = ktop; k < nz; k++) {
            float d[9];
            const long p = b + k;
            sgt_derivs(s->v[0], s->v[1], s->v[2], lm, mu, p, sx, sy, k, 0, ih, d);
            sgt_stress_point(sg, rr, p, lm[p], mu[p], mxy[p], mxz[p], myz[p], ti[k],
                             sgt_layered_gx(ti[k], mu[p], m66[p]), rr ? qp[p] : 0, rr ? qs[p] : 0,
                             k & 1 ? a1 : a0, k & 1 ? b1 : b0, d, dt);
        }
        if (fs) s->s[SGT_ZZ][b] = 0.0f;
    }
}

void sgt_cpu_free_surface(sgt_state *s, int ib, int ie, int jb, int je) {
    if (!s->free_surface) return;
    const sgt_layout *L = &s->L;
    FOR_COLUMNS(ib, ie, jb, je) {
        const long b = sgt_idx(L, i, j, 0);
        sgt_free_surface_image(s->s[SGT_ZZ] + b, s->s[SGT_XZ] + b, s->s[SGT_YZ] + b);
    }
}

void sgt_cpu_velocity_region(sgt_state *s, int n, const sgt_region *r) {
    if (sgt_region_empty(r)) return;
    sgt_cpu_velocity(s, r->ib, r->ie, r->jb, r->je);
    sgt_source_force(s, n, r);
    sgt_absorb_velocity(s, r);
}

void sgt_cpu_stress_region(sgt_state *s, int n, const sgt_region *r) {
    if (sgt_region_empty(r)) return;
    sgt_cpu_stress(s, r->ib, r->ie, r->jb, r->je);
    sgt_source_moment(s, n, r);
    sgt_absorb_stress(s, r);
    sgt_cpu_free_surface(s, r->ib, r->ie, r->jb, r->je);
}
