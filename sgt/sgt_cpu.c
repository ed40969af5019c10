#include "sgt_cpu.h"

#include <math.h>
#include <omp.h>

#include "sgt_absorb.h"
#include "sgt_points.h"
#include "sgt_source.h"

#define C1 SGT_C1
#define C2 SGT_C2

void sgt_cpu_velocity(sgt_state *s, int ib, int ie, int jb, int je) {
    const sgt_layout *L = &s->L;
    const long sx = L->sx, sy = L->sy;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const int nz = L->nz;
    const int jbs = sgt_jblock(je - jb, omp_get_max_threads()), nb = (je - jb + jbs - 1) / jbs;
#pragma omp parallel for schedule(static)
    for (int blk = 0; blk < nb; blk++)
        for (int i = ib; i < ie; i++)
            for (int j = jb + blk * jbs; j < je && j < jb + (blk + 1) * jbs; j++) {
                long b = sgt_idx(L, i, j, 0);
                float *restrict vx = s->v[0] + b, *restrict vy = s->v[1] + b,
                                *restrict vz = s->v[2] + b;
                const float *restrict xx = s->s[SGT_XX] + b, *restrict yy = s->s[SGT_YY] + b,
                                      *restrict zz = s->s[SGT_ZZ] + b,
                                      *restrict xy = s->s[SGT_XY] + b,
                                      *restrict xz = s->s[SGT_XZ] + b,
                                      *restrict yz = s->s[SGT_YZ] + b, *restrict rho = s->rho + b;
#pragma omp simd
                for (int k = 0; k < nz; k++) {
                    float dxx = C1 * (xx[k + sx] - xx[k]) + C2 * (xx[k + 2 * sx] - xx[k - sx]);
                    float dxy = C1 * (xy[k] - xy[k - sy]) + C2 * (xy[k + sy] - xy[k - 2 * sy]);
                    float dxz = C1 * (xz[k] - xz[k - 1]) + C2 * (xz[k + 1] - xz[k - 2]);
                    vx[k] += dt * ih * (dxx + dxy + dxz) * 2.0f / (rho[k] + rho[k + sx]);
                    float dyx = C1 * (xy[k] - xy[k - sx]) + C2 * (xy[k + sx] - xy[k - 2 * sx]);
                    float dyy = C1 * (yy[k + sy] - yy[k]) + C2 * (yy[k + 2 * sy] - yy[k - sy]);
                    float dyz = C1 * (yz[k] - yz[k - 1]) + C2 * (yz[k + 1] - yz[k - 2]);
                    vy[k] += dt * ih * (dyx + dyy + dyz) * 2.0f / (rho[k] + rho[k + sy]);
                    float dzx = C1 * (xz[k] - xz[k - sx]) + C2 * (xz[k + sx] - xz[k - 2 * sx]);
                    float dzy = C1 * (yz[k] - yz[k - sy]) + C2 * (yz[k + sy] - yz[k - 2 * sy]);
                    float dzz = C1 * (zz[k + 1] - zz[k]) + C2 * (zz[k + 2] - zz[k - 1]);
                    vz[k] += dt * ih * (dzx + dzy + dzz) * 2.0f / (rho[k] + rho[k + 1]);
                }
            }
}

/* Interior derivatives, 4th order everywhere; z index k is relative to the column pointer. */
static inline __attribute__((always_inline)) void
interior_derivatives(const float *vx, const float *vy, const float *vz, long sx, long sy, int k,
                     float ih, float d[9]) {
    d[0] = ih * (C1 * (vx[k] - vx[k - sx]) + C2 * (vx[k + sx] - vx[k - 2 * sx]));
    d[1] = ih * (C1 * (vy[k] - vy[k - sy]) + C2 * (vy[k + sy] - vy[k - 2 * sy]));
    d[2] = ih * (C1 * (vz[k] - vz[k - 1]) + C2 * (vz[k + 1] - vz[k - 2]));
    d[3] = ih * (C1 * (vx[k + sy] - vx[k]) + C2 * (vx[k + 2 * sy] - vx[k - sy]));
    d[4] = ih * (C1 * (vy[k + sx] - vy[k]) + C2 * (vy[k + 2 * sx] - vy[k - sx]));
    d[5] = ih * (C1 * (vx[k + 1] - vx[k]) + C2 * (vx[k + 2] - vx[k - 1]));
    d[6] = ih * (C1 * (vz[k + sx] - vz[k]) + C2 * (vz[k + 2 * sx] - vz[k - sx]));
    d[7] = ih * (C1 * (vy[k + 1] - vy[k]) + C2 * (vy[k + 2] - vy[k - 1]));
    d[8] = ih * (C1 * (vz[k + sy] - vz[k]) + C2 * (vz[k + 2 * sy] - vz[k - sy]));
}

void sgt_cpu_derivatives(const sgt_state *s, int i, int j, int k, float d[9]) {
    const sgt_layout *L = &s->L;
    long b = sgt_idx(L, i, j, 0);
    const float *vx = s->v[0] + b, *vy = s->v[1] + b, *vz = s->v[2] + b;
    const float ih = (float)(1.0 / s->h);
    interior_derivatives(vx, vy, vz, L->sx, L->sy, k, ih, d);
    if (!s->free_surface) return;
    if (k == 0) {
        /* Traction-free surface: sigma_zz = 0 gives dvz/dz from the horizontal divergence;
         * the xz and yz points (z = h/2) take a 2nd-order vertical derivative, as the 4th-order
         * one would reach above the surface. */
        float lam = s->lam[b], mu = s->mu[b];
        d[2] = -lam / (lam + 2.0f * mu) * (d[0] + d[1]);
        d[5] = ih * (vx[1] - vx[0]);
        d[7] = ih * (vy[1] - vy[0]);
    } else if (k == 1) {
        d[2] = ih * (vz[1] - vz[0]);
    }
}

/* Updates the six stresses of one index from its nine derivatives (elastic and anelastic). */
static inline __attribute__((always_inline)) void stress_point(sgt_state *s, long p, int mech,
                                                               const float d[9], float dt) {
    const float lam = s->lam[p], mu = s->mu[p];
    const float mxy = s->mus[0][p], mxz = s->mus[1][p], myz = s->mus[2][p];
    const float th = d[0] + d[1] + d[2];
    float rate[6] = {lam * th + 2 * mu * d[0], lam * th + 2 * mu * d[1], lam * th + 2 * mu * d[2],
                     mxy * (d[3] + d[4]),      mxz * (d[5] + d[6]),      myz * (d[7] + d[8])};
    if (s->visco) {
        const float wp = s->qpw[p], ws = s->qsw[p];
        const float a = s->q_a[mech], bq = s->q_b[mech];
        const float pm = lam + 2 * mu;
        float x[6] = {wp * pm * th - 2 * ws * mu * (th - d[0]),
                      wp * pm * th - 2 * ws * mu * (th - d[1]),
                      wp * pm * th - 2 * ws * mu * (th - d[2]),
                      ws * rate[3],
                      ws * rate[4],
                      ws * rate[5]};
        for (int c = 0; c < 6; c++) {
            float ro = s->r[c][p];
            float rn = a * ro + bq * x[c];
            s->r[c][p] = rn;
            rate[c] -= 0.5f * (rn + ro);
        }
    }
    for (int c = 0; c < 6; c++)
        s->s[c][p] += dt * rate[c];
}

void sgt_cpu_stress(sgt_state *s, int ib, int ie, int jb, int je) {
    const sgt_layout *L = &s->L;
    const long sx = L->sx, sy = L->sy;
    const float ih = (float)(1.0 / s->h), dt = (float)s->dt;
    const int nz = L->nz;
    const int ktop = s->free_surface ? 2 : 0;
    const int jbs = sgt_jblock(je - jb, omp_get_max_threads()), nb = (je - jb + jbs - 1) / jbs;
#pragma omp parallel for schedule(static)
    for (int blk = 0; blk < nb; blk++)
        for (int i = ib; i < ie; i++)
            for (int j = jb + blk * jbs; j < je && j < jb + (blk + 1) * jbs; j++) {
                long b = sgt_idx(L, i, j, 0);
                const float *vx = s->v[0] + b, *vy = s->v[1] + b, *vz = s->v[2] + b;
                int mij = ((i + L->i0) & 1) | (((j + L->j0) & 1) << 1);
                for (int k = 0; k < ktop; k++) {
                    float d[9];
                    sgt_cpu_derivatives(s, i, j, k, d);
                    stress_point(s, b + k, mij | ((k & 1) << 2), d, dt);
                }
                if (!s->visco) {
                    float *restrict xx = s->s[SGT_XX] + b, *restrict yy = s->s[SGT_YY] + b,
                                    *restrict zz = s->s[SGT_ZZ] + b,
                                    *restrict xy = s->s[SGT_XY] + b,
                                    *restrict xz = s->s[SGT_XZ] + b,
                                    *restrict yz = s->s[SGT_YZ] + b;
                    const float *restrict lm = s->lam + b, *restrict mu = s->mu + b;
                    const float *restrict mxy = s->mus[0] + b, *restrict mxz = s->mus[1] + b,
                                          *restrict myz = s->mus[2] + b;
#pragma omp simd
                    for (int k = ktop; k < nz; k++) {
                        float d[9];
                        interior_derivatives(vx, vy, vz, sx, sy, k, ih, d);
                        float th = d[0] + d[1] + d[2];
                        float l = lm[k], m = mu[k];
                        xx[k] += dt * (l * th + 2 * m * d[0]);
                        yy[k] += dt * (l * th + 2 * m * d[1]);
                        zz[k] += dt * (l * th + 2 * m * d[2]);
                        xy[k] += dt * mxy[k] * (d[3] + d[4]);
                        xz[k] += dt * mxz[k] * (d[5] + d[6]);
                        yz[k] += dt * myz[k] * (d[7] + d[8]);
                    }
                } else {
                    /* The relaxation mechanism alternates with k; choosing between the two by
                     * parity (not by indexing the tables) keeps the loop vectorisable. */
                    const float a0 = s->q_a[mij], a1 = s->q_a[mij | 4];
                    const float b0 = s->q_b[mij], b1 = s->q_b[mij | 4];
                    float *restrict sg[6], *restrict rr[6];
                    for (int c = 0; c < 6; c++)
                        sg[c] = s->s[c] + b, rr[c] = s->r[c] + b;
                    const float *restrict lm = s->lam + b, *restrict mu = s->mu + b;
                    const float *restrict mxy = s->mus[0] + b, *restrict mxz = s->mus[1] + b,
                                          *restrict myz = s->mus[2] + b;
                    const float *restrict qp = s->qpw + b, *restrict qs = s->qsw + b;
#pragma omp simd
                    for (int k = ktop; k < nz; k++) {
                        float d[9];
                        interior_derivatives(vx, vy, vz, sx, sy, k, ih, d);
                        const int odd = k & 1;
                        const float aq = odd ? a1 : a0, bq = odd ? b1 : b0;
                        const float l = lm[k], m = mu[k], pm = l + 2 * m;
                        const float th = d[0] + d[1] + d[2];
                        const float wp = qp[k], ws = qs[k];
                        const float rate[6] = {l * th + 2 * m * d[0],  l * th + 2 * m * d[1],
                                               l * th + 2 * m * d[2],  mxy[k] * (d[3] + d[4]),
                                               mxz[k] * (d[5] + d[6]), myz[k] * (d[7] + d[8])};
                        const float x[6] = {wp * pm * th - 2 * ws * m * (th - d[0]),
                                            wp * pm * th - 2 * ws * m * (th - d[1]),
                                            wp * pm * th - 2 * ws * m * (th - d[2]),
                                            ws * rate[3],
                                            ws * rate[4],
                                            ws * rate[5]};
                        for (int c = 0; c < 6; c++) {
                            const float ro = rr[c][k];
                            const float rn = aq * ro + bq * x[c];
                            rr[c][k] = rn;
                            sg[c][k] += dt * (rate[c] - 0.5f * (rn + ro));
                        }
                    }
                }
                if (s->free_surface) s->s[SGT_ZZ][b] = 0.0f;
            }
}

void sgt_cpu_free_surface(sgt_state *s, int ib, int ie, int jb, int je) {
    if (!s->free_surface) return;
    const sgt_layout *L = &s->L;
#pragma omp parallel for collapse(2) schedule(static)
    for (int i = ib; i < ie; i++)
        for (int j = jb; j < je; j++) {
            long b = sgt_idx(L, i, j, 0);
            float *zz = s->s[SGT_ZZ] + b, *xz = s->s[SGT_XZ] + b, *yz = s->s[SGT_YZ] + b;
            zz[0] = 0.0f;
            zz[-1] = -zz[1];
            zz[-2] = -zz[2];
            /* xz and yz sit at z = (k + 1/2) h: index -1 is z = -h/2, mirror of index 0. */
            xz[-1] = -xz[0];
            xz[-2] = -xz[1];
            yz[-1] = -yz[0];
            yz[-2] = -yz[1];
        }
}

/* Half-node to node interpolation, 4th order: the values at i-3/2, i-1/2, i+1/2, i+3/2 (stored
 * at indices i-2 .. i+1) with weights -1/16, 9/16, 9/16, -1/16. Within two nodes of the free
 * surface the vertical direction falls back to the 2-point mean. */
const float sgt_interp4[4] = {-1.0f / 16, 9.0f / 16, 9.0f / 16, -1.0f / 16};

int sgt_cpu_vertical_weights(const sgt_state *s, int k, int *first, float w[4]) {
    if (s->free_surface && k < 2) {
        *first = -1;
        w[0] = w[1] = 0.5f;
        return 2;
    }
    *first = -2;
    for (int a = 0; a < 4; a++)
        w[a] = sgt_interp4[a];
    return 4;
}

void sgt_cpu_node_strain_rate(const sgt_state *s, int i, int j, int k, double e[6]) {
    float d[9];
    sgt_cpu_derivatives(s, i, j, k, d);
    e[0] = d[0];
    e[1] = d[1];
    e[2] = d[2];
    double exy = 0, exz = 0, eyz = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            float q[9];
            sgt_cpu_derivatives(s, i + a - 2, j + b - 2, k, q);
            exy += (double)sgt_interp4[a] * sgt_interp4[b] * 0.5 * (q[3] + q[4]);
        }
    if (!(s->free_surface && k == 0)) {
        int k0;
        float wz[4];
        int nzw = sgt_cpu_vertical_weights(s, k, &k0, wz);
        for (int a = 0; a < 4; a++)
            for (int c = 0; c < nzw; c++) {
                float q[9];
                sgt_cpu_derivatives(s, i + a - 2, j, k + k0 + c, q);
                exz += (double)sgt_interp4[a] * wz[c] * 0.5 * (q[5] + q[6]);
                sgt_cpu_derivatives(s, i, j + a - 2, k + k0 + c, q);
                eyz += (double)sgt_interp4[a] * wz[c] * 0.5 * (q[7] + q[8]);
            }
    }
    /* At the free surface the xz and yz strains vanish (traction free). */
    e[3] = exy;
    e[4] = exz;
    e[5] = eyz;
}

void sgt_cpu_step(sgt_state *s, int n) {
    const sgt_layout *L = &s->L;
    sgt_cpu_velocity(s, 0, L->lnx, 0, L->lny);
    sgt_source_force(s, n);
    sgt_absorb_velocity(s);
    sgt_cpu_stress(s, 0, L->lnx, 0, L->lny);
    sgt_source_moment(s, n);
    sgt_absorb_stress(s);
    sgt_cpu_free_surface(s, 0, L->lnx, 0, L->lny);
    sgt_points_accumulate(s);
    sgt_receivers_record(s, n);
}
