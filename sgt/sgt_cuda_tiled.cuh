/* Tiled velocity and stress kernels (included by sgt_cuda.cu, after kparams and kreg).
 *
 * Why: the plain kernels move the minimal DRAM bytes but issue 36 (velocity) and 58 (stress)
 * loads per point, nearly half of which miss L1; the L2 request rate, not DRAM, limits them
 * (docs/performance.md). Here a block of 32 (z) x TY (y) threads marching along x keeps, for each
 * array whose neighbours it needs, a ring of x planes in shared memory: each plane's tile (with
 * the y and z halo that array's differences need) is read from global memory once, the loads of
 * the plane needed next are issued into registers before the current plane is computed (so their
 * latency hides behind the arithmetic) and stored into the ring slot that just fell out of use,
 * and one barrier per plane makes it visible. Values used at one point only (stresses, memory
 * variables, lam, Q weights) are read straight from global memory.
 *
 * The differences go through sgt_diff4 and sgt_derivs_surface like the plain kernels, so both
 * give the same numbers. */

#define TILE_W (TK + 4) /* tile row: z from -2 to TK + 1 around the block's first z */

/* The part of a plane that one array needs: y from -YLO to TY - 1 + YHI and z from -ZLO to
 * TK - 1 + ZHI around the block's corner, fetched into R registers per thread. */
template <int TY, int YLO, int YHI, int ZLO, int ZHI> struct tile_part {
    static constexpr int NY = TY + YLO + YHI, NZ = TK + ZLO + ZHI, N = NY * NZ;
    static constexpr int R = (N + TK * TY - 1) / (TK * TY);
    static constexpr int SIZE = TILE_W * (TY + 4);
    float reg[R];

    /* Issues the loads of plane i (local index) of array a; values outside the array's memory
     * (past the ghost layers of a block that overhangs the grid) are never used and read 0. */
    __device__ __forceinline__ void fetch(const float *__restrict__ a, const kparams &k, int i,
                                          int jb, int kb, int tid) {
        const long base = (long)(i + k.halo) * k.sx + (long)k.halo * k.sy + k.gz;
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int t = tid + q * TK * TY;
            const int yy = t / NZ, zz = t - yy * NZ;
            const int j = jb + yy - YLO, kk = kb + zz - ZLO;
            reg[q] = (t < N && j < k.lny + 2 && kk < k.nz + 2)
                         ? __ldg(a + base + (long)j * k.sy + kk)
                         : 0.0f;
        }
    }
    /* Stores the fetched values into a ring slot (tile indices offset by 2 in y and z). */
    __device__ __forceinline__ void store(float *slot, int tid) const {
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int t = tid + q * TK * TY;
            const int yy = t / NZ, zz = t - yy * NZ;
            if (t < N) slot[(yy - YLO + 2) * TILE_W + (zz - ZLO + 2)] = reg[q];
        }
    }
};

/* A ring of S plane tiles; plane i (>= -2) sits in slot (i + 2) % S. */
template <int S> __device__ __forceinline__ float *ring_slot(float *ring, int size, int i) {
    return ring + ((i + 2) % S) * size;
}

/* The value at (y, z) of a tile, (0, 0) being the thread's own node. */
#define AT(slot, y, z) (slot)[(ty + 2 + (y)) * TILE_W + (tz + 2 + (z))]

/* Shared memory of the two kernels, in floats: the velocity kernel keeps rings of 5 planes for
 * sxx, sxy, sxz (x differences), 2 for syy, szz, syz (current plane only) and 3 for rho (i, i+1);
 * the stress kernel 5 for vx, vy, vz and 3 for mu. */
template <int TY> constexpr int velocity_tiled_smem() {
    return (3 * 5 + 3 * 2 + 3) * TILE_W * (TY + 4) * (int)sizeof(float);
}
template <int TY> constexpr int stress_tiled_smem() {
    return (3 * 5 + 3) * TILE_W * (TY + 4) * (int)sizeof(float);
}

template <int TY>
__global__ void __launch_bounds__(TK *TY, 1024 / (TK * TY))
    velocity_tiled(kparams k, int planes, kreg r) {
    extern __shared__ float sm[];
    constexpr int SZ = TILE_W * (TY + 4);
    float *rxx = sm, *rxy = rxx + 5 * SZ, *rxz = rxy + 5 * SZ, *ryy = rxz + 5 * SZ,
          *rzz = ryy + 2 * SZ, *ryz = rzz + 2 * SZ, *rrho = ryz + 2 * SZ;
    const int tz = threadIdx.x, ty = threadIdx.y, tid = ty * TK + tz;
    const int kb = blockIdx.x * TK, jb = r.j0 + blockIdx.y * TY;
    const int kk = kb + tz, j = jb + ty;
    const int ia = r.i0 + blockIdx.z * planes, ib = min(ia + planes, r.i1);
    const bool active = kk < k.nz && j < r.j1;
    float *const *sg = k.s[0];
    /* x differences: sxx forward (planes i-1..i+2), sxy, sxz backward (i-2..i+1); y: sxy
     * backward, syy forward; z: sxz, syz backward, szz forward; rho at i, i+1 and +1 in y, z. */
    tile_part<TY, 0, 0, 0, 0> fxx;
    tile_part<TY, 2, 1, 0, 0> fxy;
    tile_part<TY, 0, 0, 2, 1> fxz;
    tile_part<TY, 1, 2, 0, 0> fyy;
    tile_part<TY, 0, 0, 1, 2> fzz;
    tile_part<TY, 2, 1, 2, 1> fyz;
    tile_part<TY, 0, 1, 0, 1> frho;
    /* The rings before the first plane. */
    for (int i = ia - 2; i <= ia + 2; i++) {
        if (i >= ia - 1)
            fxx.fetch(sg[0], k, i, jb, kb, tid), fxx.store(ring_slot<5>(rxx, SZ, i), tid);
        if (i <= ia + 1) {
            fxy.fetch(sg[3], k, i, jb, kb, tid), fxy.store(ring_slot<5>(rxy, SZ, i), tid);
            fxz.fetch(sg[4], k, i, jb, kb, tid), fxz.store(ring_slot<5>(rxz, SZ, i), tid);
        }
        if (i == ia) {
            fyy.fetch(sg[1], k, i, jb, kb, tid), fyy.store(ring_slot<2>(ryy, SZ, i), tid);
            fzz.fetch(sg[2], k, i, jb, kb, tid), fzz.store(ring_slot<2>(rzz, SZ, i), tid);
            fyz.fetch(sg[5], k, i, jb, kb, tid), fyz.store(ring_slot<2>(ryz, SZ, i), tid);
        }
        if (i == ia || i == ia + 1)
            frho.fetch(k.rho, k, i, jb, kb, tid), frho.store(ring_slot<3>(rrho, SZ, i), tid);
    }
    __syncthreads();
    const float c = k.dt * k.ih;
    for (int i = ia; i < ib; i++) {
        const bool more = i + 1 < ib;
        if (more) {
            fxx.fetch(sg[0], k, i + 3, jb, kb, tid);
            fxy.fetch(sg[3], k, i + 2, jb, kb, tid);
            fxz.fetch(sg[4], k, i + 2, jb, kb, tid);
            fyy.fetch(sg[1], k, i + 1, jb, kb, tid);
            fzz.fetch(sg[2], k, i + 1, jb, kb, tid);
            fyz.fetch(sg[5], k, i + 1, jb, kb, tid);
            frho.fetch(k.rho, k, i + 2, jb, kb, tid);
        }
        if (active) {
            const float *xx[4] = {ring_slot<5>(rxx, SZ, i - 1), ring_slot<5>(rxx, SZ, i),
                                  ring_slot<5>(rxx, SZ, i + 1), ring_slot<5>(rxx, SZ, i + 2)};
            const float *xy[4] = {ring_slot<5>(rxy, SZ, i - 2), ring_slot<5>(rxy, SZ, i - 1),
                                  ring_slot<5>(rxy, SZ, i), ring_slot<5>(rxy, SZ, i + 1)};
            const float *xz[4] = {ring_slot<5>(rxz, SZ, i - 2), ring_slot<5>(rxz, SZ, i - 1),
                                  ring_slot<5>(rxz, SZ, i), ring_slot<5>(rxz, SZ, i + 1)};
            const float *yy = ring_slot<2>(ryy, SZ, i), *zz = ring_slot<2>(rzz, SZ, i),
                        *yz = ring_slot<2>(ryz, SZ, i), *ro = ring_slot<3>(rrho, SZ, i),
                        *ro1 = ring_slot<3>(rrho, SZ, i + 1);
            const float r0 = AT(ro, 0, 0);
            const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
            const float bx = sgt_buoyancy(r0, AT(ro1, 0, 0)), by = sgt_buoyancy(r0, AT(ro, 1, 0)),
                        bz = __ldg(k.bz + p);
            k.v[0][0][p] +=
                c *
                (sgt_diff4(AT(xx[0], 0, 0), AT(xx[1], 0, 0), AT(xx[2], 0, 0), AT(xx[3], 0, 0)) +
                 sgt_diff4(AT(xy[2], -2, 0), AT(xy[2], -1, 0), AT(xy[2], 0, 0), AT(xy[2], 1, 0)) +
                 sgt_diff4(AT(xz[2], 0, -2), AT(xz[2], 0, -1), AT(xz[2], 0, 0), AT(xz[2], 0, 1))) *
                bx;
            k.v[0][1][p] +=
                c *
                (sgt_diff4(AT(xy[0], 0, 0), AT(xy[1], 0, 0), AT(xy[2], 0, 0), AT(xy[3], 0, 0)) +
                 sgt_diff4(AT(yy, -1, 0), AT(yy, 0, 0), AT(yy, 1, 0), AT(yy, 2, 0)) +
                 sgt_diff4(AT(yz, 0, -2), AT(yz, 0, -1), AT(yz, 0, 0), AT(yz, 0, 1))) *
                by;
            k.v[0][2][p] +=
                c *
                (sgt_diff4(AT(xz[0], 0, 0), AT(xz[1], 0, 0), AT(xz[2], 0, 0), AT(xz[3], 0, 0)) +
                 sgt_diff4(AT(yz, -2, 0), AT(yz, -1, 0), AT(yz, 0, 0), AT(yz, 1, 0)) +
                 sgt_diff4(AT(zz, 0, -1), AT(zz, 0, 0), AT(zz, 0, 1), AT(zz, 0, 2))) *
                bz;
        }
        if (more) {
            /* Each goes to the slot of a plane no longer needed, so no barrier before. */
            fxx.store(ring_slot<5>(rxx, SZ, i + 3), tid);
            fxy.store(ring_slot<5>(rxy, SZ, i + 2), tid);
            fxz.store(ring_slot<5>(rxz, SZ, i + 2), tid);
            fyy.store(ring_slot<2>(ryy, SZ, i + 1), tid);
            fzz.store(ring_slot<2>(rzz, SZ, i + 1), tid);
            fyz.store(ring_slot<2>(ryz, SZ, i + 1), tid);
            frho.store(ring_slot<3>(rrho, SZ, i + 2), tid);
        }
        __syncthreads();
    }
}

template <int TY>
__global__ void __launch_bounds__(TK *TY, 1024 / (TK * TY))
    stress_tiled(kparams k, int planes, kreg r) {
    extern __shared__ float sm[];
    constexpr int SZ = TILE_W * (TY + 4);
    float *rvx = sm, *rvy = rvx + 5 * SZ, *rvz = rvy + 5 * SZ, *rmu = rvz + 5 * SZ;
    const int tz = threadIdx.x, ty = threadIdx.y, tid = ty * TK + tz;
    const int kb = blockIdx.x * TK, jb = r.j0 + blockIdx.y * TY;
    const int kk = kb + tz, j = jb + ty;
    const int ia = r.i0 + blockIdx.z * planes, ib = min(ia + planes, r.i1);
    const bool active = kk < k.nz && j < r.j1;
    float *const *vg = k.v[0];
    /* vx: backward in x (planes i-2..i+1), forward in y and z; vy: forward in x and z, backward
     * in y; vz: forward in x and y, backward in z (i-1..i+2); mu at i, i+1 and +1 in y, z. */
    tile_part<TY, 1, 2, 1, 2> fvx;
    tile_part<TY, 2, 1, 1, 2> fvy;
    tile_part<TY, 1, 2, 2, 1> fvz;
    tile_part<TY, 0, 1, 0, 1> fmu;
    for (int i = ia - 2; i <= ia + 2; i++) {
        if (i <= ia + 1)
            fvx.fetch(vg[0], k, i, jb, kb, tid), fvx.store(ring_slot<5>(rvx, SZ, i), tid);
        if (i >= ia - 1) {
            fvy.fetch(vg[1], k, i, jb, kb, tid), fvy.store(ring_slot<5>(rvy, SZ, i), tid);
            fvz.fetch(vg[2], k, i, jb, kb, tid), fvz.store(ring_slot<5>(rvz, SZ, i), tid);
        }
        if (i == ia || i == ia + 1)
            fmu.fetch(k.mu, k, i, jb, kb, tid), fmu.store(ring_slot<3>(rmu, SZ, i), tid);
    }
    __syncthreads();
    for (int i = ia; i < ib; i++) {
        const bool more = i + 1 < ib;
        if (more) {
            fvx.fetch(vg[0], k, i + 2, jb, kb, tid);
            fvy.fetch(vg[1], k, i + 3, jb, kb, tid);
            fvz.fetch(vg[2], k, i + 3, jb, kb, tid);
            fmu.fetch(k.mu, k, i + 2, jb, kb, tid);
        }
        if (active) {
            const float *vx[4] = {ring_slot<5>(rvx, SZ, i - 2), ring_slot<5>(rvx, SZ, i - 1),
                                  ring_slot<5>(rvx, SZ, i), ring_slot<5>(rvx, SZ, i + 1)};
            const float *vy[4] = {ring_slot<5>(rvy, SZ, i - 1), ring_slot<5>(rvy, SZ, i),
                                  ring_slot<5>(rvy, SZ, i + 1), ring_slot<5>(rvy, SZ, i + 2)};
            const float *vz[4] = {ring_slot<5>(rvz, SZ, i - 1), ring_slot<5>(rvz, SZ, i),
                                  ring_slot<5>(rvz, SZ, i + 1), ring_slot<5>(rvz, SZ, i + 2)};
            const float *m = ring_slot<3>(rmu, SZ, i);
            const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
            const float m0 = AT(m, 0, 0), l0 = __ldg(k.lam + p);
            float mxy, mxz, myz;
            shear_point_moduli(k, p, &mxy, &mxz, &myz);
            const float ex = __ldg(k.ti + kk + k.gz),
                        gx = sgt_layered_gx(ex, m0, __ldg(k.muxy + p));
            const int mech = ((i + k.i0) & 1) | (((j + k.j0) & 1) << 1) | ((kk & 1) << 2);
            const float wp = k.visco ? __ldg(k.qpw + p) : 0.0f,
                        ws = k.visco ? __ldg(k.qsw + p) : 0.0f;
            const float *x1 = vx[2], *y1 = vy[1], *z1 = vz[1];
            float d[9];
            d[0] = k.ih *
                   sgt_diff4(AT(vx[0], 0, 0), AT(vx[1], 0, 0), AT(vx[2], 0, 0), AT(vx[3], 0, 0));
            d[1] = k.ih * sgt_diff4(AT(y1, -2, 0), AT(y1, -1, 0), AT(y1, 0, 0), AT(y1, 1, 0));
            d[2] = k.ih * sgt_diff4(AT(z1, 0, -2), AT(z1, 0, -1), AT(z1, 0, 0), AT(z1, 0, 1));
            d[3] = k.ih * sgt_diff4(AT(x1, -1, 0), AT(x1, 0, 0), AT(x1, 1, 0), AT(x1, 2, 0));
            d[4] = k.ih *
                   sgt_diff4(AT(vy[0], 0, 0), AT(vy[1], 0, 0), AT(vy[2], 0, 0), AT(vy[3], 0, 0));
            d[5] = k.ih * sgt_diff4(AT(x1, 0, -1), AT(x1, 0, 0), AT(x1, 0, 1), AT(x1, 0, 2));
            d[6] = k.ih *
                   sgt_diff4(AT(vz[0], 0, 0), AT(vz[1], 0, 0), AT(vz[2], 0, 0), AT(vz[3], 0, 0));
            d[7] = k.ih * sgt_diff4(AT(y1, 0, -1), AT(y1, 0, 0), AT(y1, 0, 1), AT(y1, 0, 2));
            d[8] = k.ih * sgt_diff4(AT(z1, -1, 0), AT(z1, 0, 0), AT(z1, 1, 0), AT(z1, 2, 0));
            if (k.fs && kk < 2) sgt_derivs_surface(d, kk, l0, m0, k.ih, vg[0], vg[1], vg[2], p);
            sgt_stress_point(k.s[0], k.visco ? k.r[0] : NULL, p, l0, m0, mxy, mxz, myz, ex, gx, wp,
                             ws, k.qa[mech], k.qb[mech], d, k.dt);
            if (k.fs && kk == 0) k.s[0][2][p] = 0.0f;
        }
        if (more) {
            fvx.store(ring_slot<5>(rvx, SZ, i + 2), tid);
            fvy.store(ring_slot<5>(rvy, SZ, i + 3), tid);
            fvz.store(ring_slot<5>(rvz, SZ, i + 3), tid);
            fmu.store(ring_slot<3>(rmu, SZ, i + 2), tid);
        }
        __syncthreads();
    }
}

#undef AT

/* Launcher: blocks of 32 x TY threads (8 or 16), registers for 1024 threads per SM (64 each;
 * some spilling in the velocity kernel; allowing 512 threads and no spills measured 15-20%
 * slower). Dynamic shared memory above 48 KB is allowed once per kernel. */
template <int TY>
static void launch_tiled(const kparams &k, int planes, kreg r, int stress, cudaStream_t st) {
    static bool ready = false;
    if (!ready) {
        cudaFuncSetAttribute(velocity_tiled<TY>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             velocity_tiled_smem<TY>());
        cudaFuncSetAttribute(stress_tiled<TY>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             stress_tiled_smem<TY>());
        ready = true;
    }
    dim3 g((k.nz + TK - 1) / TK, (r.j1 - r.j0 + TY - 1) / TY, (r.i1 - r.i0 + planes - 1) / planes);
    if (stress)
        stress_tiled<TY><<<g, dim3(TK, TY), stress_tiled_smem<TY>(), st>>>(k, planes, r);
    else
        velocity_tiled<TY><<<g, dim3(TK, TY), velocity_tiled_smem<TY>(), st>>>(k, planes, r);
}
