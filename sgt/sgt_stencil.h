/* The point-wise formulas of the solver, shared by the CPU (C, OpenMP) and GPU (CUDA) back ends
 * so that both compute the same thing: staggered differences, the nine velocity derivatives with
 * the free-surface rules, the stress and memory-variable update of one index, the PML
 * corrections of one cell, the strain rate and velocity read at a node, and the weights that put
 * sources at nodes, and the strain at save points. Each function works on flat arrays with strides
 * sx, sy (z contiguous) and an absolute index p; k is the node's depth index (0 at the surface). */
#ifndef SGT_STENCIL_H
#define SGT_STENCIL_H

#ifdef __CUDACC__
#define SGT_HD static __host__ __device__ __forceinline__
#else
#define SGT_HD static inline __attribute__((always_inline))
#endif
/* Loops the GPU must unroll to keep their arrays in registers (the host compilers do it
 * anyway). */
#ifdef __CUDA_ARCH__
#define SGT_UNROLL _Pragma("unroll")
#else
#define SGT_UNROLL
#endif

#define SGT_S_C1 1.125f          /* 9/8 */
#define SGT_S_C2 (-0.041666668f) /* -1/24 */

/* A point force on the free surface is a traction there: the surface's value of sigma_xz
 * (sigma_yz) or sigma_zz in the adjusted differences of the velocity updates beside it
 * (sgt_free_surface_image). It enters vx (vy) at z = 0 and z = h with these weights, and vz at
 * z = h/2 and 3h/2 (the scheme's own difference reaches the surface there) with those, in units
 * of F / (rho h^3). */
#define SGT_FS_FH_W0 3.3523810f      /* 352/105 */
#define SGT_FS_FH_W1 (-0.15238096f)  /* -16/105 */
#define SGT_FS_FZ_W0 0.9166667f      /* 11/12 */
#define SGT_FS_FZ_W1 (-0.041666668f) /* -1/24 */

/* 4th-order staggered difference (times h) from four values at consecutive points x0..x3: the
 * derivative midway between x1 and x2. Every difference of both back ends goes through this one
 * expression, so the GPU's tiled kernels, which gather their values from shared memory, round
 * exactly as the kernels that read the arrays. */
SGT_HD float sgt_diff4(float x0, float x1, float x2, float x3) {
    return SGT_S_C1 * (x2 - x1) + SGT_S_C2 * (x3 - x0);
}

/* Along stride st at index p: forward gives the derivative half a node ahead of p, backward half
 * a node behind. */
SGT_HD float sgt_fwd(const float *f, long p, long st) {
    return sgt_diff4(f[p - st], f[p], f[p + st], f[p + 2 * st]);
}
SGT_HD float sgt_bwd(const float *f, long p, long st) {
    return sgt_diff4(f[p - 2 * st], f[p - st], f[p], f[p + st]);
}

/* 4th-order half-node-to-node interpolation weight a of 4 (values at i-3/2 .. i+3/2, stored at
 * indices i-2 .. i+1). */
SGT_HD float sgt_w4(int a) {
    return (a == 0 || a == 3) ? -0.0625f : 0.5625f;
}

/* Vertical interpolation weights at depth k: 4 points from k-2, or within two nodes of the free
 * surface 2 points from k-1. Returns the count; *first is the first offset. */
SGT_HD int sgt_wz(int fs, int k, int *first, float w[4]) {
    if (fs && k < 2) {
        *first = -1;
        w[0] = w[1] = 0.5f;
        return 2;
    }
    *first = -2;
    for (int a = 0; a < 4; a++)
        w[a] = sgt_w4(a);
    return 4;
}

/* a / b for the material factors of the updates: the moduli averaged at the shear points, the
 * buoyancy at the velocity points, the free surface's lam / (lam + 2 mu). Exact on the CPU. On
 * the GPU, the hardware's approximate division (a times an approximate reciprocal of b, within
 * 2 units in the last place: CUDA's __fdividef), because the exact division's instruction
 * sequence, 18 per node and step, cost the elastic update 4% under the H200's power cap
 * (docs/performance.md). Both give inf for b = 0 and 0 for b = inf, so a zero modulus still
 * gives a zero mean; b stays far below 2^126, where __fdividef would return 0. GPU and CPU runs
 * agree to 3.5e-6 in the stored strain with it (1.6e-6 without; bound 1e-5). */
SGT_HD float sgt_mdiv(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fdividef(a, b);
#else
    return a / b;
#endif
}

/* Harmonic mean of four moduli from their reciprocals (the GPU's stress update shares the
 * reciprocals of the seven moduli between its three means); sgt_harm4 from the moduli. A zero
 * modulus gives zero (1/0 = inf, 4/inf = 0). */
SGT_HD float sgt_harm4_recip(float ia, float ib, float ic, float id) {
    return sgt_mdiv(4.0f, ia + ib + ic + id);
}
SGT_HD float sgt_harm4(float a, float b, float c, float d) {
    return sgt_harm4_recip(sgt_mdiv(1.0f, a), sgt_mdiv(1.0f, b), sgt_mdiv(1.0f, c),
                           sgt_mdiv(1.0f, d));
}

/* The shear modulus at an xz or yz point from the compliances (1/mu) of the two vertical
 * staggered positions beside it (sgt_state's cz): their harmonic mean. An infinite compliance
 * (no rigidity) gives zero. */
SGT_HD float sgt_harm2_compliance(float c0, float c1) {
    return sgt_mdiv(2.0f, c0 + c1);
}

/* Buoyancy at the velocity point between two densities. */
SGT_HD float sgt_buoyancy(float r0, float r1) {
    return sgt_mdiv(2.0f, r0 + r1);
}

/* The free-surface rules of the derivatives at depth k < 2 (see sgt_derivs), from the node's
 * moduli and the velocities of its column (p the node's index): where the 4th-order difference
 * would reach above the surface, the one-sided 4-point difference (3rd order) over the
 * velocities below takes its place. */
SGT_HD float sgt_diff_onesided(float f0, float f1, float f2, float f3) {
    return -0.9583333f * f0 + 0.875f * f1 + 0.125f * f2 - 0.041666668f * f3;
}
SGT_HD void sgt_derivs_surface(float d[9], int k, float lam, float mu, float ih, const float *vx,
                               const float *vy, const float *vz, long p) {
    if (k == 0) {
        d[2] = sgt_mdiv(-lam, lam + 2.0f * mu) * (d[0] + d[1]);
        d[5] = ih * sgt_diff_onesided(vx[p], vx[p + 1], vx[p + 2], vx[p + 3]);
        d[7] = ih * sgt_diff_onesided(vy[p], vy[p + 1], vy[p + 2], vy[p + 3]);
    } else {
        d[2] = ih * sgt_diff_onesided(vz[p - 1], vz[p], vz[p + 1], vz[p + 2]);
    }
}

/* The nine derivatives the stress update uses at index p: dvx/dx, dvy/dy, dvz/dz (node),
 * dvx/dy, dvy/dx (xy point), dvx/dz, dvz/dx (xz point), dvy/dz, dvz/dy (yz point). With a free
 * surface: at k = 0, sigma_zz = 0 gives dvz/dz from the horizontal divergence and the xz, yz
 * points (z = h/2) take 2nd-order vertical differences; at k = 1 dvz/dz is 2nd order. */
SGT_HD void sgt_derivs(const float *vx, const float *vy, const float *vz, const float *lam,
                       const float *mu, long p, long sx, long sy, int k, int fs, float ih,
                       float d[9]) {
    d[0] = ih * sgt_bwd(vx, p, sx);
    d[1] = ih * sgt_bwd(vy, p, sy);
    d[2] = ih * sgt_bwd(vz, p, 1);
    d[3] = ih * sgt_fwd(vx, p, sy);
    d[4] = ih * sgt_fwd(vy, p, sx);
    d[5] = ih * sgt_fwd(vx, p, 1);
    d[6] = ih * sgt_fwd(vz, p, sx);
    d[7] = ih * sgt_fwd(vy, p, 1);
    d[8] = ih * sgt_fwd(vz, p, sy);
    if (fs && k < 2) sgt_derivs_surface(d, k, lam[p], mu[p], ih, vx, vy, vz, p);
}

/* The layered cell's horizontal normal stresses (sgt_state's ti): a node whose cell an interface
 * cuts is transversely isotropic about the vertical, sigma_xx = C11 e_xx + C12 e_yy + C13 e_zz
 * with C11 = lam + 2 mu + ex (Backus) and C12 = C11 - 2 C66 (C66 the node's muxy), so it adds
 * ex (e_xx + e_yy) + gx e_yy to the isotropic pair's rate, gx = 2 (mu - C66) (sgt_layered_gx).
 * Both are 0 in a cell of one material, where the update is the isotropic one to the bit. The
 * memory variables keep the isotropic pair's relaxation: the excess is elastic. */
SGT_HD void sgt_layered_terms(float rate[], float ex, float gx, float d0, float d1) {
    const float sum = ex * (d0 + d1);
    rate[0] += sum + gx * d1;
    rate[1] += sum + gx * d0;
}
/* gx for a node of excess ex, normal-stress mu and xy modulus m66: nonzero only where the cell
 * is layered (ex != 0), so that rounding between mu and m66 never touches a uniform cell. */
SGT_HD float sgt_layered_gx(float ex, float mu, float m66) {
    return ex != 0.0f ? 2.0f * (mu - m66) : 0.0f;
}

/* The stress (and memory-variable) update of index p from its derivatives. mxy, mxz, myz are
 * the shear moduli at its three shear points; ex, gx the layered cell's terms
 * (sgt_layered_terms); r is NULL for an elastic run, otherwise the six memory variables with the
 * node's weights wp, ws and its mechanism's constants a, b. */
SGT_HD void sgt_stress_point(float *const *s, float *const *r, long p, float lam, float mu,
                             float mxy, float mxz, float myz, float ex, float gx, float wp,
                             float ws, float a, float b, const float d[9], float dt) {
    const float th = d[0] + d[1] + d[2];
    float rate[6] = {lam * th + 2 * mu * d[0], lam * th + 2 * mu * d[1], lam * th + 2 * mu * d[2],
                     mxy * (d[3] + d[4]),      mxz * (d[5] + d[6]),      myz * (d[7] + d[8])};
    sgt_layered_terms(rate, ex, gx, d[0], d[1]);
    /* Every value read before anything is written: the arrays may alias as far as the compiler
     * knows, so a read after a write would have to wait for it (on the GPU, a memory round trip
     * per component instead of one for all). */
    float ro[6] = {0, 0, 0, 0, 0, 0}, so[6];
    SGT_UNROLL
    for (int c = 0; c < 6; c++)
        so[c] = s[c][p];
    if (r) {
        SGT_UNROLL
        for (int c = 0; c < 6; c++)
            ro[c] = r[c][p];
        const float pm = lam + 2 * mu;
        const float x[6] = {wp * pm * th - 2 * ws * mu * (th - d[0]),
                            wp * pm * th - 2 * ws * mu * (th - d[1]),
                            wp * pm * th - 2 * ws * mu * (th - d[2]),
                            ws * rate[3],
                            ws * rate[4],
                            ws * rate[5]};
        SGT_UNROLL
        for (int c = 0; c < 6; c++) {
            const float rn = a * ro[c] + b * x[c];
            r[c][p] = rn;
            rate[c] -= 0.5f * (rn + ro[c]);
        }
    }
    SGT_UNROLL
    for (int c = 0; c < 6; c++)
        s[c][p] = so[c] + dt * rate[c];
}

/* Velocity at node p, read with the weights the force source uses (below the surface the force
 * is the exact adjoint of this reading). At the free surface the vertical velocity is the
 * shallowest vz (h/2 down) extrapolated up by h/2 with the traction-free condition,
 * dvz/dz = -lam / (lam + 2 mu) (dvx/dx + dvy/dy). */
SGT_HD void sgt_node_velocity_at(const float *vx, const float *vy, const float *vz,
                                 const float *lam, const float *mu, long p, long sx, long sy, int k,
                                 int fs, float h, double v[3]) {
    v[0] = v[1] = v[2] = 0;
    for (int a = 0; a < 4; a++) {
        v[0] += (double)sgt_w4(a) * vx[p + (a - 2) * sx];
        v[1] += (double)sgt_w4(a) * vy[p + (a - 2) * sy];
    }
    if (fs && k == 0) {
        const float ih = 1.0f / h;
        const double div = ih * (sgt_bwd(vx, p, sx) + sgt_bwd(vy, p, sy));
        v[2] = vz[p] + 0.5 * h * lam[p] / (lam[p] + 2 * mu[p]) * div;
    } else {
        int first;
        float w[4];
        int nw = sgt_wz(fs, k, &first, w);
        for (int a = 0; a < nw; a++)
            v[2] += (double)w[a] * vz[p + first + a];
    }
}

/* A point force at the node of local indices (li, lj, k), index p: each component c of the
 * force vector f (times amp = dt F / h^3) is spread over the four staggered velocities around
 * the node along its axis with the interpolation weights, so it acts at the node and is, below
 * the surface, the exact adjoint of sgt_node_velocity_at (weight w on a velocity becomes
 * w F / (rho V), V its cell volume). At the free surface the force is a traction (SGT_FS_*): a
 * horizontal one on the surface's vx (vy) and the next ones down, a vertical one on the two
 * shallowest vz, plus what it adds to the surface's normal stresses (sigma_xx = sigma_yy = lam /
 * (lam + 2 mu) sigma_zz, from the boundary condition), which acts as a horizontal-divergence
 * pattern on the surface vx, vy. Only velocities of the columns [ib, ie) x [jb, je) are touched:
 * the time step updates its regions one after another, and each applies the part of the force that
 * falls in it, so every velocity gets it once, right after its own update. */
SGT_HD void sgt_force_apply(float *const *v, const float *rho, const float *bz, const float *lam,
                            const float *mu, long p, long sx, long sy, int li, int lj, int k,
                            int ib, int ie, int jb, int je, int fs, double amp, const double f[3]) {
    const int surface = fs && k == 0;
    for (int c = 0; c < 3; c++) {
        const double fc = amp * f[c];
        if (fc == 0) continue;
        const long st = c == 0 ? sx : c == 1 ? sy : 1;
        int first, n;
        float w[4];
        if (c < 2) {
            first = -2, n = 4;
            for (int a = 0; a < 4; a++)
                w[a] = sgt_w4(a) * (surface ? SGT_FS_FH_W0 : 1.0f);
            if (surface) /* the traction's share of the velocities one node down */
                for (int a = 0; a < 4; a++) {
                    const int oi = li + (c == 0 ? a - 2 : 0), oj = lj + (c == 1 ? a - 2 : 0);
                    if (oi < ib || oi >= ie || oj < jb || oj >= je) continue;
                    const long q = p + (a - 2) * st + 1;
                    v[c][q] +=
                        (float)(sgt_w4(a) * SGT_FS_FH_W1 * fc / (0.5 * (rho[q] + rho[q + st])));
                }
        } else if (surface) {
            first = 0, n = 2, w[0] = SGT_FS_FZ_W0, w[1] = SGT_FS_FZ_W1;
            const double cc = lam[p] / (lam[p] + 2.0 * mu[p]);
            for (int hc = 0; hc < 2; hc++) {
                const long sh = hc == 0 ? sx : sy;
                for (int a = 0; a < 4; a++) {
                    const int oi = li + (hc == 0 ? a - 2 : 0), oj = lj + (hc == 1 ? a - 2 : 0);
                    if (oi < ib || oi >= ie || oj < jb || oj >= je) continue;
                    const long q = p + (a - 2) * sh;
                    /* the difference of the normal stress cc F / h^2 at the node, read by the
                     * velocities around it: C1 (v[i] - v[i-1]) + C2 (v[i+1] - v[i-2]) */
                    const double wa = a == 0   ? -SGT_S_C2
                                      : a == 1 ? -SGT_S_C1
                                      : a == 2 ? SGT_S_C1
                                               : SGT_S_C2;
                    v[hc][q] += (float)(cc * wa * fc / (0.5 * (rho[q] + rho[q + sh])));
                }
            }
        } else {
            n = sgt_wz(fs, k, &first, w);
        }
        for (int a = 0; a < n; a++) {
            const int oi = li + (c == 0 ? first + a : 0), oj = lj + (c == 1 ? first + a : 0);
            if (oi < ib || oi >= ie || oj < jb || oj >= je) continue;
            const long q = p + (first + a) * st;
            /* the buoyancy the velocity update uses there */
            const double b = c == 2 ? (double)bz[q] : 1.0 / (0.5 * (rho[q] + rho[q + st]));
            v[c][q] += (float)(w[a] * fc * b);
        }
    }
}

/* A moment tensor m (xx yy zz xy xz yz, times amp = dt / h^3) at the node: normal components at
 * the node, shear components over the 4 x 4 shear points around it with the weights that
 * interpolate the shear strain to the node (the adjoint of the SGT's strain reading). Stresses of
 * the columns [ib, ie) x [jb, je) only, as for forces. */
SGT_HD void sgt_moment_apply(float *const *s, long p, long sx, long sy, int li, int lj, int k,
                             int ib, int ie, int jb, int je, int fs, double amp,
                             const double m[6]) {
    if (li >= ib && li < ie && lj >= jb && lj < je)
        for (int c = 0; c < 3; c++)
            s[c][p] -= (float)(amp * m[c]);
    int kz;
    float wz[4];
    const int nz = sgt_wz(fs, k, &kz, wz);
    for (int c = 3; c < 6; c++) {
        const double mc = amp * m[c];
        if (mc == 0) continue;
        const int nb = c == 3 ? 4 : nz;
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < nb; b++) {
                const int ob = c == 3 ? b - 2 : kz + b;
                int oi = li, oj = lj;
                long q = p;
                if (c == 3) oi += a - 2, oj += ob, q += (a - 2) * sx + ob * sy;
                if (c == 4) oi += a - 2, q += (a - 2) * sx + ob;
                if (c == 5) oj += a - 2, q += (a - 2) * sy + ob;
                if (oi < ib || oi >= ie || oj < jb || oj >= je) continue;
                const float w = sgt_w4(a) * (c == 3 ? sgt_w4(b) : wz[b]);
                s[c][q] -= (float)(w * mc);
            }
    }
}

/* Convolutional PML (kappa = 1), one cell of a slab normal to axis a (0 x, 1 y, 2 z): the
 * stretched derivative d/da + psi, psi^n = b psi^{n-1} + a_c d/da, adds the psi terms to what
 * the interior update already did. an, bn are the profile at the cell's node position along a,
 * ah, bh at the half position after it; psi[0..2] are the slab's memory variables, cell the
 * cell's index in them. Velocity c uses sigma_{ca} along a: forward difference for the component
 * along a (it sits at a half node), backward for the two others. */
SGT_HD void sgt_pml_velocity_cell(float *const *v, float *const *s, const float *rho,
                                  const float *bz, long p, long sx, long sy, int a, float an,
                                  float bn, float ah, float bh, float *const *psi, long cell,
                                  float ih, float dt) {
    const long st = a == 0 ? sx : a == 1 ? sy : 1;
    for (int c = 0; c < 3; c++) {
        /* sigma_{ca}: normal c when c == a, else xy (c + a = 1), xz (2) or yz (3) */
        const int comp = c == a ? c : c + a == 1 ? 3 : c + a == 2 ? 4 : 5;
        const float d = c == a ? sgt_fwd(s[comp], p, st) : sgt_bwd(s[comp], p, st);
        const float ps = (c == a ? bh : bn) * psi[c][cell] + (c == a ? ah : an) * ih * d;
        psi[c][cell] = ps;
        const long sc = c == 0 ? sx : sy;
        v[c][p] += dt * ps * (c == 2 ? bz[p] : 2.0f / (rho[p] + rho[p + sc]));
    }
}

/* The stress side of the same cell (memory variables psi[3..5]). The velocity along a feeds the
 * normal stresses (at the free surface with dvz/dz = -lam/(lam+2mu) (dvx/dx + dvy/dy), so
 * sigma_zz stays 0); the two others, differentiated along a, feed the shear stresses they share
 * with a, whose moduli are m1 (for component (a+1)%3) and m2 ((a+2)%3). In a viscoelastic run
 * the stretched derivatives also feed the memory variables (r not NULL; their update is linear,
 * so their share is added here): without it the PML's elastic terms and the relaxed interior
 * disagree and Q ~ 20 grows unstable. */
SGT_HD void sgt_pml_stress_cell(float *const *s, float *const *r, float *const *v, long p, long sx,
                                long sy, int a, int k, int fs, float lam, float mu, float m1,
                                float m2, float ex, float gx, float wp, float ws, float bq,
                                float an, float bn, float ah, float bh, float *const *psi,
                                long cell, float ih, float dt) {
    const long st = a == 0 ? sx : a == 1 ? sy : 1;
    const int cb = (a + 1) % 3, cc = (a + 2) % 3;
    const int sh1 = cb + a == 1 ? 3 : cb + a == 2 ? 4 : 5;
    const int sh2 = cc + a == 1 ? 3 : cc + a == 2 ? 4 : 5;
    const float p3 = bn * psi[3][cell] + an * ih * sgt_bwd(v[a], p, st);
    const float p4 = bh * psi[4][cell] + ah * ih * sgt_fwd(v[cb], p, st);
    const float p5 = bh * psi[5][cell] + ah * ih * sgt_fwd(v[cc], p, st);
    psi[3][cell] = p3, psi[4][cell] = p4, psi[5][cell] = p5;
    const float pm = lam + 2 * mu;
    const int top = fs && k == 0;
    float dn[3] = {a == 0 ? p3 : 0.0f, a == 1 ? p3 : 0.0f, a == 2 ? p3 : 0.0f};
    if (top) dn[2] = -lam / pm * (dn[0] + dn[1]);
    const float th = dn[0] + dn[1] + dn[2];
    float rate[5] = {lam * th + 2 * mu * dn[0], lam * th + 2 * mu * dn[1],
                     lam * th + 2 * mu * dn[2], m1 * p4, m2 * p5};
    sgt_layered_terms(rate, ex, gx, dn[0], dn[1]);
    const int comp[5] = {0, 1, 2, sh1, sh2};
    if (r) {
        const float x[5] = {wp * pm * th - 2 * ws * mu * (th - dn[0]),
                            wp * pm * th - 2 * ws * mu * (th - dn[1]),
                            wp * pm * th - 2 * ws * mu * (th - dn[2]), ws * rate[3], ws * rate[4]};
        for (int c = 0; c < 5; c++) {
            const float dr = bq * x[c];
            r[comp[c]][p] += dr;
            rate[c] -= 0.5f * dr;
        }
    }
    if (top) rate[2] = 0.0f;
    for (int c = 0; c < 5; c++)
        s[comp[c]][p] += dt * rate[c];
}

/* Shear modulus at the shear point of index q, as the stress update uses it: component 0 xy
 * (the harmonic mean of its four nodes' muxy), 1 xz and 2 yz (of the two vertical staggered
 * compliances beside it). */
SGT_HD float sgt_shear_modulus(const float *muxy, const float *cz, long q, long sx, long sy,
                               int comp) {
    if (comp == 0) return sgt_harm4(muxy[q], muxy[q + sx], muxy[q + sy], muxy[q + sx + sy]);
    return sgt_harm2_compliance(cz[q], cz[q + (comp == 1 ? sx : sy)]);
}

/* ---- Strain at save points, from the stresses ----
 * The scheme updates sigma^{n+1} = sigma^n + dt (C_U eps_dot - (r^{n+1} + r^n)/2) with
 * r^{m+1} = a r^m + b X(d^{m+1/2}), X linear in the strain rate and 1 - a = b. Summed over the
 * steps this gives, exactly, sigma^n - tau r^n = (C_U - X)(eps^n) = C_R eps^n: in every cell the
 * stress less tau times its memory variable is the relaxed modulus (M_U (1 - W), W the cell's
 * weight) times the strain the scheme has integrated. So the strain at a save time is read from
 * the current stresses and memory variables at the node and at its 4 x 4 shear points, with no
 * work at the other steps. Slots: 0-2 the normal components at the node, 3-18 xy, 19-34 xz,
 * 35-50 yz at the shear points around it (fewer vertically next to the free surface). */
#define SGT_PT_SLOTS 51

/* Index, component and interpolation weight of slot m, and the offsets (di, dj, dk) of its cell
 * from the node; -1 when unused. */
SGT_HD long sgt_point_slot(int m, long p, long sx, long sy, int k, int fs, int *comp, float *w,
                           int *di, int *dj, int *dk) {
    *di = *dj = *dk = 0;
    if (m < 3) {
        *comp = m;
        *w = 1.0f;
        return p;
    }
    const int g = (m - 3) / 16, r = (m - 3) % 16, a = r / 4, c = r % 4;
    *comp = 3 + g;
    if (g == 0) {
        *w = sgt_w4(a) * sgt_w4(c);
        *di = a - 2, *dj = c - 2;
        return p + (a - 2) * sx + (c - 2) * sy;
    }
    if (fs && k == 0) return -1; /* xz, yz vanish at the surface */
    int k0;
    float wz[4];
    const int nw = sgt_wz(fs, k, &k0, wz);
    if (c >= nw) return -1; /* unused: the free surface's stencil is narrower */
    *w = sgt_w4(a) * wz[c];
    *dk = k0 + c;
    if (g == 1)
        *di = a - 2;
    else
        *dj = a - 2;
    return p + (a - 2) * (g == 1 ? sx : sy) + k0 + c;
}

/* Tensor strain at the node (global indices gi, gj, k; index p): normal components from the
 * node's stresses through its relaxed compliance (a layered cell's when ex, its depth's
 * sgt_state ti, is not 0; at the free surface sigma_zz = 0 and eps_zz = -lam'/(lam'+2mu')
 * (eps_xx + eps_yy)), shear components as (sigma - tau r) / (2 mu (1 - W_s)) at each shear
 * point, interpolated to the node with the 4th-order weights. r, qpw, qsw, tau are NULL in elastic
 * runs. */
/* The factor of shear slot m (>= 3) of a point: its weight over 2 mu (1 - W_s) at its shear
 * point, 0 for an unused slot. The material does not change, so a back end may compute these
 * once per point (sgt_point_strain's fac). */
SGT_HD double sgt_point_slot_factor(int m, const float *muxy, const float *cz, const float *qsw,
                                    long p, long sx, long sy, int k, int fs) {
    int comp, di, dj, dk;
    float w;
    const long q = sgt_point_slot(m, p, sx, sy, k, fs, &comp, &w, &di, &dj, &dk);
    if (q < 0) return 0;
    const double ws = qsw ? qsw[q] : 0;
    return w / (2.0 * sgt_shear_modulus(muxy, cz, q, sx, sy, comp - 3) * (1.0 - ws));
}

/* fac: NULL, or the shear slots' factors of this point (sgt_point_slot_factor), slot m at
 * fac[(m - 3) * fstride]. */
SGT_HD void sgt_point_strain(float *const *s, float *const *r, const float *lam, const float *mu,
                             const float *muxy, float ex, const float *cz, const float *qpw,
                             const float *qsw, const float *tau, int gi, int gj, long p, long sx,
                             long sy, int k, int fs, const float *fac, long fstride, double e[6]) {
    double t[6] = {0, 0, 0, 0, 0, 0};
    for (int m = 0; m < SGT_PT_SLOTS; m++) {
        int comp, di, dj, dk;
        float w;
        const long q = sgt_point_slot(m, p, sx, sy, k, fs, &comp, &w, &di, &dj, &dk);
        if (q < 0) continue;
        double v = s[comp][q];
        double ws = 0;
        if (r) {
            const int mech = ((gi + di) & 1) | (((gj + dj) & 1) << 1) | (((k + dk) & 1) << 2);
            v -= (double)tau[mech] * r[comp][q];
            if (!fac) ws = qsw[q];
        }
        if (comp >= 3 && fac)
            v *= fac[(m - 3) * fstride];
        else if (comp >= 3) /* sgt_point_slot_factor's value, in the order the CPU has always
                               rounded it (w v first), so its outputs stay bit for bit */
            v = w * v / (2.0 * sgt_shear_modulus(muxy, cz, q, sx, sy, comp - 3) * (1.0 - ws));
        t[comp] += v;
    }
    /* Relaxed moduli of the node's cell. */
    double wp = r ? qpw[p] : 0, ws = r ? qsw[p] : 0;
    const double pm = ((double)lam[p] + 2.0 * mu[p]) * (1 - wp), m2 = 2.0 * mu[p] * (1 - ws);
    const double l = pm - m2;
    if (ex != 0.0f) {
        /* a layered cell (sgt_layered_terms): C11 = pm + ex, C12 = l + ex + gx, C13 = l,
         * C33 = pm; the excess terms are elastic in the update (no memory variable relaxes
         * them), so they enter as they are */
        const double c11 = pm + ex, c12 = l + ex + sgt_layered_gx(ex, mu[p], muxy[p]);
        double sum, ezz;
        if (fs && k == 0) {
            /* sigma_zz = 0: e_zz = -l/pm (e_xx + e_yy) */
            sum = (t[0] + t[1]) / (c11 + c12 - 2 * l * l / pm);
            ezz = -l / pm * sum;
        } else {
            const double det = (c11 + c12) * pm - 2 * l * l;
            sum = ((t[0] + t[1]) * pm - 2 * l * t[2]) / det;
            ezz = ((c11 + c12) * t[2] - l * (t[0] + t[1])) / det;
        }
        const double dif = (t[0] - t[1]) / (c11 - c12);
        e[0] = 0.5 * (sum + dif);
        e[1] = 0.5 * (sum - dif);
        e[2] = ezz;
    } else if (fs && k == 0) {
        const double A = pm - l * l / pm, B = l - l * l / pm, det = A * A - B * B;
        e[0] = (A * t[0] - B * t[1]) / det;
        e[1] = (A * t[1] - B * t[0]) / det;
        e[2] = -l / pm * (e[0] + e[1]);
    } else {
        const double tr = (t[0] + t[1] + t[2]) / (3 * l + m2);
        for (int c = 0; c < 3; c++)
            e[c] = (t[c] - l * tr) / m2;
    }
    e[3] = t[3];
    e[4] = t[4];
    e[5] = t[5];
}

/* The stresses above the free surface, for one column, the pointers at its k = 0. sigma_zz = 0
 * at the surface; sigma_xz and sigma_yz (at z = (k + 1/2) h) vanish there too. The values above
 * it are set so that the scheme's own 4th-order differences in the velocity update give the
 * adjusted one-sided differences of Kristek, Moczo & Archuleta (2002, AFDA), which use the
 * boundary value and the stresses below: d sigma_xz/dz at the surface's vx (z = 0) and at the
 * next one (z = h), d sigma_zz/dz at the shallowest vz (z = h/2). Plain antisymmetric imaging
 * (Gottschaemmer & Olsen 2001) gives these derivatives to first order only. */
SGT_HD void sgt_image_shear(float *s) {
    /* h d/dz at z = 0 and z = h from sigma(0) = 0 and sigma at h/2, 3h/2, 5h/2, 7h/2 */
    const float d0 = 4.375f * s[0] - 1.4583334f * s[1] + 0.525f * s[2] - 0.08928572f * s[3];
    const float d1 = -1.2916666f * s[0] + 1.2083334f * s[1] - 0.075f * s[2] + 0.005952381f * s[3];
    /* the scheme's differences there, C1 (s[1] - s[0]) + C2 (s[2] - s[-1]) at z = h and
     * C1 (s[0] - s[-1]) + C2 (s[1] - s[-2]) at z = 0, solved for the values above */
    const float g1 = s[2] - (d1 - SGT_S_C1 * (s[1] - s[0])) / SGT_S_C2;
    s[-2] = s[1] - (d0 - SGT_S_C1 * (s[0] - g1)) / SGT_S_C2;
    s[-1] = g1;
}
SGT_HD void sgt_free_surface_image(float *zz, float *xz, float *yz) {
    zz[0] = 0.0f;
    /* h d/dz at z = h/2 from sigma_zz at 0 (= 0), h, 2h, 3h, 4h */
    const float dz =
        0.7083333f * zz[1] + 0.375f * zz[2] - 0.20833333f * zz[3] + 0.041666668f * zz[4];
    zz[-1] = zz[2] - (dz - SGT_S_C1 * zz[1]) / SGT_S_C2;
    zz[-2] = -zz[2];
    sgt_image_shear(xz);
    sgt_image_shear(yz);
}

#endif
