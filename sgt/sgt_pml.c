/* Convolutional PML corrections (Komatitsch & Martin 2007, kappa = 1).
 *
 * The interior kernels have already applied the ordinary update everywhere. In a slab normal to
 * axis a, each derivative d/da is stretched to d/da + psi, with psi^n = b psi^{n-1} + a_c d/da;
 * this pass adds the psi terms. Each slab is a box [ib,ie) x [jb,je) x [kb,ke) of local nodes
 * whose memory variables are stored with k fastest, so every inner loop runs down a contiguous
 * column and vectorises; the profile depends on the position along the slab's axis only (a
 * constant per column for x and y slabs, a function of k for z slabs). */
#include <omp.h>

#include "sgt_absorb.h"

#define C1 SGT_C1
#define C2 SGT_C2

static void slab_box(const sgt_state *s, const sgt_pml_slab *sl, int *ib, int *ie, int *jb, int *je,
                     int *kb, int *ke) {
    *ib = 0, *ie = s->L.lnx, *jb = 0, *je = s->L.lny, *kb = 0, *ke = s->L.nz;
    if (sl->axis == 0) *ib = sl->lo, *ie = sl->hi;
    if (sl->axis == 1) *jb = sl->lo, *je = sl->hi;
    if (sl->axis == 2) *kb = sl->lo, *ke = sl->hi;
}

/* 4th-order differences along stride st at index k: forward gives the derivative half a node
 * ahead of k, backward half a node behind. */
static inline __attribute__((always_inline)) float fwd(const float *f, long k, long st) {
    return C1 * (f[k + st] - f[k]) + C2 * (f[k + 2 * st] - f[k - st]);
}
static inline __attribute__((always_inline)) float bwd(const float *f, long k, long st) {
    return C1 * (f[k] - f[k - st]) + C2 * (f[k + st] - f[k - 2 * st]);
}

void sgt_pml_velocity(sgt_state *s) {
    const sgt_layout *L = &s->L;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const long sx = L->sx, sy = L->sy;
    for (int q = 0; q < s->pml.nslabs; q++) {
        sgt_pml_slab *sl = &s->pml.slab[q];
        const int a = sl->axis;
        int ib, ie, jb, je, kb, ke;
        slab_box(s, sl, &ib, &ie, &jb, &je, &kb, &ke);
        const long st = a == 0 ? sx : a == 1 ? sy : 1;
        const float *an = s->pml.a_node[a], *bn = s->pml.b_node[a];
        const float *ah = s->pml.a_half[a], *bh = s->pml.b_half[a];
        /* sigma_{c a} for velocity component c: the one along the axis is a normal stress at
         * nodes (forward difference to its half node), the others shear stresses at half nodes
         * (backward difference to the velocity's node). */
        static const int comp[3][3] = {
            {SGT_XX, SGT_XY, SGT_XZ}, {SGT_XY, SGT_YY, SGT_YZ}, {SGT_XZ, SGT_YZ, SGT_ZZ}};
        const float *sg0 = s->s[comp[a][0]], *sg1 = s->s[comp[a][1]], *sg2 = s->s[comp[a][2]];
        const int nj = je - jb, nk = ke - kb;
        const int jbs = sgt_jblock(je - jb, omp_get_max_threads()), nb = (je - jb + jbs - 1) / jbs;
#pragma omp parallel for schedule(static)
        for (int blk = 0; blk < nb; blk++)
            for (int i = ib; i < ie; i++)
                for (int j = jb + blk * jbs; j < je && j < jb + (blk + 1) * jbs; j++) {
                    const long p0 = sgt_idx(L, i, j, 0);
                    const long c0 = ((long)(i - ib) * nj + (j - jb)) * nk - kb;
                    const int g = a == 0 ? i + L->i0 : j + L->j0;
                    float *restrict vx = s->v[0] + p0, *restrict vy = s->v[1] + p0,
                                    *restrict vz = s->v[2] + p0;
                    const float *restrict rho = s->rho + p0;
                    const float *restrict s0 = sg0 + p0, *restrict s1 = sg1 + p0,
                                          *restrict s2 = sg2 + p0;
                    float *restrict y0 = sl->psi[0] + c0, *restrict y1 = sl->psi[1] + c0,
                                    *restrict y2 = sl->psi[2] + c0;
#pragma omp simd
                    for (int k = kb; k < ke; k++) {
                        const int gp = a == 2 ? k : g;
                        float d0 = a == 0 ? fwd(s0, k, st) : bwd(s0, k, st);
                        float d1 = a == 1 ? fwd(s1, k, st) : bwd(s1, k, st);
                        float d2 = a == 2 ? fwd(s2, k, st) : bwd(s2, k, st);
                        float p0v = (a == 0 ? bh[gp] : bn[gp]) * y0[k] +
                                    (a == 0 ? ah[gp] : an[gp]) * ih * d0;
                        float p1v = (a == 1 ? bh[gp] : bn[gp]) * y1[k] +
                                    (a == 1 ? ah[gp] : an[gp]) * ih * d1;
                        float p2v = (a == 2 ? bh[gp] : bn[gp]) * y2[k] +
                                    (a == 2 ? ah[gp] : an[gp]) * ih * d2;
                        y0[k] = p0v, y1[k] = p1v, y2[k] = p2v;
                        vx[k] += dt * p0v * 2.0f / (rho[k] + rho[k + sx]);
                        vy[k] += dt * p1v * 2.0f / (rho[k] + rho[k + sy]);
                        vz[k] += dt * p2v * 2.0f / (rho[k] + rho[k + 1]);
                    }
                }
    }
}

/* The shear stress holding velocity components a and c (and its index among the precomputed
 * shear moduli: xy 0, xz 1, yz 2). */
static int shear_of(int a, int c) {
    int lo = a < c ? a : c, hi = a < c ? c : a;
    return lo == 0 && hi == 1 ? 0 : lo == 0 ? 1 : 2;
}

void sgt_pml_stress(sgt_state *s) {
    const sgt_layout *L = &s->L;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const long sx = L->sx, sy = L->sy;
    for (int q = 0; q < s->pml.nslabs; q++) {
        sgt_pml_slab *sl = &s->pml.slab[q];
        const int a = sl->axis;
        int ib, ie, jb, je, kb, ke;
        slab_box(s, sl, &ib, &ie, &jb, &je, &kb, &ke);
        const long st = a == 0 ? sx : a == 1 ? sy : 1;
        const float *an = s->pml.a_node[a], *bn = s->pml.b_node[a];
        const float *ah = s->pml.a_half[a], *bh = s->pml.b_half[a];
        const int cb = (a + 1) % 3, cc = (a + 2) % 3;
        const int q1 = shear_of(a, cb), q2 = shear_of(a, cc);
        const int sh1 = SGT_XY + q1, sh2 = SGT_XY + q2;
        const int nj = je - jb, nk = ke - kb;
        const int fs = s->free_surface, visco = s->visco;
        const int jbs = sgt_jblock(je - jb, omp_get_max_threads()), nb = (je - jb + jbs - 1) / jbs;
#pragma omp parallel for schedule(static)
        for (int blk = 0; blk < nb; blk++)
            for (int i = ib; i < ie; i++)
                for (int j = jb + blk * jbs; j < je && j < jb + (blk + 1) * jbs; j++) {
                    const long p0 = sgt_idx(L, i, j, 0);
                    const long c0 = ((long)(i - ib) * nj + (j - jb)) * nk - kb;
                    const int g = a == 0 ? i + L->i0 : j + L->j0;
                    const float *restrict va = s->v[a] + p0, *restrict vb = s->v[cb] + p0,
                                          *restrict vc = s->v[cc] + p0;
                    const float *restrict lm = s->lam + p0, *restrict mu = s->mu + p0;
                    const float *restrict mu1 = s->mus[q1] + p0, *restrict mu2 = s->mus[q2] + p0;
                    const int mij = ((i + L->i0) & 1) | (((j + L->j0) & 1) << 1);
                    const float a0 = s->q_a[mij], a1 = s->q_a[mij | 4];
                    const float b0 = s->q_b[mij], b1 = s->q_b[mij | 4];
                    const float *restrict qpw = visco ? s->qpw + p0 : NULL, *restrict qsw =
                                                                                visco ? s->qsw + p0
                                                                                      : NULL;
                    float *restrict rr[5] = {NULL, NULL, NULL, NULL, NULL};
                    if (visco) {
                        rr[0] = s->r[SGT_XX] + p0, rr[1] = s->r[SGT_YY] + p0,
                        rr[2] = s->r[SGT_ZZ] + p0;
                        rr[3] = s->r[sh1] + p0, rr[4] = s->r[sh2] + p0;
                    }
                    float *restrict xx = s->s[SGT_XX] + p0, *restrict yy = s->s[SGT_YY] + p0,
                                    *restrict zz = s->s[SGT_ZZ] + p0;
                    float *restrict t1 = s->s[sh1] + p0, *restrict t2 = s->s[sh2] + p0;
                    float *restrict y3 = sl->psi[3] + c0, *restrict y4 = sl->psi[4] + c0,
                                    *restrict y5 = sl->psi[5] + c0;
#pragma omp simd
                    for (int k = kb; k < ke; k++) {
                        const int gp = a == 2 ? k : g;
                        float p3 = bn[gp] * y3[k] + an[gp] * ih * bwd(va, k, st);
                        float p4 = bh[gp] * y4[k] + ah[gp] * ih * fwd(vb, k, st);
                        float p5 = bh[gp] * y5[k] + ah[gp] * ih * fwd(vc, k, st);
                        y3[k] = p3, y4[k] = p4, y5[k] = p5;
                        float l = lm[k], m = mu[k], pm = l + 2 * m;
                        /* The stretched part of d(v_a)/da as the three normal derivatives; at the
                         * free surface dvz/dz = -lam/(lam+2mu) (dvx/dx + dvy/dy) goes with it. */
                        const int top = fs && k == 0;
                        float dn3[3] = {a == 0 ? p3 : 0.0f, a == 1 ? p3 : 0.0f, a == 2 ? p3 : 0.0f};
                        if (top) dn3[2] = -l / pm * (dn3[0] + dn3[1]);
                        const float th = dn3[0] + dn3[1] + dn3[2];
                        float rate[5] = {l * th + 2 * m * dn3[0], l * th + 2 * m * dn3[1],
                                         l * th + 2 * m * dn3[2], mu1[k] * p4, mu2[k] * p5};
                        if (visco) {
                            /* The memory variables see the stretched derivative too (their update
                             * is linear, so its share is added here): without it the PML's elastic
                             * terms and the relaxed interior disagree and strong attenuation
                             * (Q ~ 20) grows unstable. */
                            const int odd = k & 1;
                            const float aq = odd ? a1 : a0, bq = odd ? b1 : b0;
                            (void)aq;
                            const float wp = qpw[k], ws = qsw[k];
                            const float x[5] = {wp * pm * th - 2 * ws * m * (th - dn3[0]),
                                                wp * pm * th - 2 * ws * m * (th - dn3[1]),
                                                wp * pm * th - 2 * ws * m * (th - dn3[2]),
                                                ws * rate[3], ws * rate[4]};
                            for (int c = 0; c < 5; c++) {
                                const float dr = bq * x[c];
                                rr[c][k] += dr;
                                rate[c] -= 0.5f * dr;
                            }
                        }
                        xx[k] += dt * rate[0];
                        yy[k] += dt * rate[1];
                        zz[k] += dt * (top ? 0.0f : rate[2]);
                        t1[k] += dt * rate[3];
                        t2[k] += dt * rate[4];
                    }
                }
    }
}
