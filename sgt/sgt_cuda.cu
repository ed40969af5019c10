/* CUDA back end of the solver: the same time step as the CPU back end (sgt_cpu.c), with the
 * formulas of sgt_stencil.h, on one GPU. Fields live on the device for the whole run; the strain
 * at save points is accumulated on the device and gathered into a device buffer that is flushed
 * to the host output in batches of saved samples.
 *
 * Kernels. The velocity and stress updates, which move nearly all the bytes, march along x:
 * a thread block covers a tile of 32 nodes along z (contiguous, coalesced) by 8 along y and walks
 * through a run of 64 x planes, so the planes i-2..i+2 that the x differences need are reused
 * from L1/L2 while the block is on them rather than fetched again from DRAM. The material of
 * the staggered positions comes from the effective-medium arrays (sgt_effective.h): the
 * buoyancies bx, by and the xy shear modulus as means of node values computed on the fly, bz and
 * the xz, yz shear moduli from the vertical staggered arrays bz and cz. Each warp sits on one whole
 * 128-byte line of every array it streams: z rows are padded to 32 floats on the GPU and the
 * warps start where a line begins, on the row's first ghost node or, where that saves a warp
 * per row, on depth 0 with the arrays shifted to put it there (sgt_gpu_rows.h): a warp's load is
 * one request, not two (+30%), and a row of 384 nodes takes 12 warps, not 13 (+3%). Every value a
 * thread reads is read before it writes any: the arrays may alias as far as the compiler knows, so
 * a load after a store waits for it (+20-24%; docs/performance.md). Register queues along x and
 * shared-memory tiles of the y-z plane (sgt_cuda_tiled.cuh) were measured slower and are not the
 * default. The other passes (free surface, PML slabs, sources, save points, receivers) touch a
 * small part of the grid and use one thread per cell.
 *
 * Every pass works on a region of columns (sgt_step): with neighbours, the boundary strips run
 * on one stream and the interior on another, and the halo travels while the interior computes,
 * through device buffers when the MPI library is CUDA-aware and pinned host buffers otherwise. */
#define OMPI_SKIP_MPICXX  1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "cs_cuda_check.h"
#include "cs_log.h"
#include "cs_progress.h"
#include "sgt_cuda_bench.h"
#include "sgt_run.h"
}
#include "sgt_gpu_rows.h"
#include "sgt_stencil.h"

/* Kernel parameters, passed by value. The solver updates one wavefield (set 0); the benchmark
 * also times SGT_NF_MAX wavefields sharing one material load (three force components in one
 * pass). */
#define SGT_NF_MAX 3
struct kparams {
    float *v[SGT_NF_MAX][3], *s[SGT_NF_MAX][6], *r[SGT_NF_MAX][6];
    const float *rho, *lam, *mu, *qpw, *qsw;
    const float *bz, *cz; /* the vertical staggered positions' buoyancy and compliance */
    const float *muxy;    /* the xy points' nodal shear moduli */
    const float *ti;      /* per depth (index k + gz): the layered cells' C11 excess */
    long sx, sy;
    int lnx, lny, nz, i0, j0, halo, gz;
    int fs, visco;
    int zshift;   /* thread x of block 0 sits at depth -zshift (sgt_gpu_rows.h) */
    int occ_full; /* see launch_plain_velocity */
    float ih, dt, h;
    float qa[SGT_Q_NMECH], qb[SGT_Q_NMECH], qtau[SGT_Q_NMECH];
};

struct dev_slab {
    int axis, side, box[6]; /* [i0, i1) x [j0, j1) x [k0, k1), local */
    float *psi[6];
};

/* The PML slabs and profiles, passed by value to the updates of the boundary shells. */
struct pml_set {
    int n;
    dev_slab slab[6];
    const float *an[3], *bn[3], *ah[3], *bh[3];
};

/* Halo buffers of one axis: what goes to and comes from each side, 3 components each. */
struct halo_buf {
    long count;                 /* floats per component */
    float *dsend[2], *drecv[2]; /* device, the 3 components packed one after another */
    float *hsend[2], *hrecv[2]; /* pinned host copies (without CUDA-aware MPI) */
    /* Peer copies (CUDA IPC): the neighbour's drecv, which holds two messages in turn
     * (`parity`), so that a message may land while the neighbour still unpacks the last. */
    float *rrecv[2];
    int parity;
};

struct dev_state {
    kparams kp;
    float *an[3], *bn[3], *ah[3], *bh[3], *damp[3];
    dev_slab slab[6];
    int nslabs;
    pml_set pml; /* the slabs again, for the boundary shells' updates */
    int *pts;
    float *batch; /* [nb][npoints][6] */
    int nb, filled, first_m;
    float *host_batch;
    /* Saving overlaps the time loop: two device batches take turns; a full one is copied to
     * the host on a stream of its own and transposed into the output by a host thread while
     * the next steps run (flush_start); finish and checkpoints wait for it (flush_wait). */
    float *batch2;
    float *slotf; /* slot_factor_kernel's table */
    int cur;
    cudaStream_t sc;
    cudaEvent_t ev_saved, ev_copied[2];
    pthread_t worker;
    int worker_running, worker_rc;
    int job_m0, job_count, job_buf;
    sgt_state *job_state;
    char worker_msg[256];
    int *rec;
    float *rec_prev, *rec_out;
    int planes_per_block;
    int zshell;       /* the z slabs' PML terms in the updates' shells too (update_with_pml) */
    int field_shift;  /* floats between a grid array's allocation and its start (sgt_gpu_rows.h) */
    int kernel_tj;    /* blocks of 32 x kernel_tj threads */
    int kernel_tiled; /* the shared-memory kernels of sgt_cuda_tiled.cuh */
    /* decomposed runs: boundary and interior streams, the halo */
    int split;
    cudaStream_t sb, si;
    cudaEvent_t ev_vb, ev_b, ev_i;
    int cuda_aware;
    /* HALO_HOST: through pinned host buffers (or device buffers with CUDA-aware MPI);
     * HALO_PEER: the strips copied straight into the neighbour's device buffer, a 1-int
     * message saying they landed; HALO_NONE: no exchange (benchmarks of the overlap only) */
    int transport;
    halo_buf halo[2];
    /* Host time blocked in the exchanges: waiting for the strips to reach the send buffers, and
     * for the messages (reported at the end of the run). */
    double wait_strips_s, wait_msgs_s;
    long exchanges;
};

#define TK 32
#define TJ 8

enum { HALO_HOST = 0, HALO_PEER, HALO_NONE };

/* A box of nodes [i0, i1) x [j0, j1) x [k0, k1), passed by value; kl is the depth of the first
 * thread of a block, at or above k0 where a 128-byte line of the rows begins (see kbox). */
struct kreg {
    int i0, i1, j0, j1, k0, k1, kl;
};

/* This thread's depth kk and row j (blocks of 32 x tj threads, the first at depth r.kl) and
 * its block's run of x planes [ia, ib); false when it falls outside the box. */
__device__ __forceinline__ bool thread_cell(const kparams &k, int planes, const kreg &r, int tj,
                                            int *kk, int *j, int *ia, int *ib) {
    *kk = r.kl + blockIdx.x * TK + threadIdx.x;
    *j = r.j0 + blockIdx.y * tj + threadIdx.y;
    *ia = r.i0 + blockIdx.z * planes;
    *ib = min(*ia + planes, r.i1);
    return *kk >= r.k0 && *kk < r.k1 && *j < r.j1;
}

/* A box with its first thread's depth: thread 0 of a block sits where a 128-byte line of the
 * rows begins (at depth -zshift plus a multiple of 32; sgt_gpu_rows.h). */
static kreg kbox(const kparams &k, int i0, int i1, int j0, int j1, int k0, int k1) {
    return kreg{i0, i1, j0, j1, k0, k1, sgt_gpu_line_start(k0, k.zshift)};
}

/* The PML terms of slab sl at node (i, j, kk), index p, added after its update: the same
 * per-cell formulas as the CPU's pass over the slabs. an..bh: the slab axis's profiles. */
__device__ __forceinline__ void pml_cell(const kparams &k, const dev_slab &sl, const float *an,
                                         const float *bn, const float *ah, const float *bh, long p,
                                         int i, int j, int kk, bool stress) {
    const int nk = sl.box[5] - sl.box[4], a = sl.axis;
    const long cell =
        ((long)(i - sl.box[0]) * (sl.box[3] - sl.box[2]) + (j - sl.box[2])) * nk + (kk - sl.box[4]);
    const int g = a == 0 ? i + k.i0 : a == 1 ? j + k.j0 : kk;
    if (!stress) {
        sgt_pml_velocity_cell(k.v[0], k.s[0], k.rho, k.bz, p, k.sx, k.sy, a, an[g], bn[g], ah[g],
                              bh[g], sl.psi, cell, k.ih, k.dt);
        return;
    }
    /* the shear points that pair axis a with the other two (0 xy, 1 xz, 2 yz) */
    const int cb = (a + 1) % 3, cc = (a + 2) % 3;
    const int q1 = cb + a == 1   ? 0
                   : cb + a == 2 ? 1
                                 : 2,
              q2 = cc + a == 1   ? 0
                   : cc + a == 2 ? 1
                                 : 2;
    const float m1 = sgt_shear_modulus(k.muxy, k.cz, p, k.sx, k.sy, q1);
    const float m2 = sgt_shear_modulus(k.muxy, k.cz, p, k.sx, k.sy, q2);
    const int mech = ((i + k.i0) & 1) | (((j + k.j0) & 1) << 1) | ((kk & 1) << 2);
    sgt_pml_stress_cell(k.s[0], k.visco ? k.r[0] : NULL, k.v[0], p, k.sx, k.sy, a, kk, k.fs,
                        k.lam[p], k.mu[p], m1, m2, k.ti[kk + k.gz],
                        sgt_layered_gx(k.ti[kk + k.gz], k.mu[p], k.muxy[p]),
                        k.visco ? k.qpw[p] : 0.0f, k.visco ? k.qsw[p] : 0.0f, k.qb[mech], an[g],
                        bn[g], ah[g], bh[g], sl.psi, cell, k.ih, k.dt);
}

/* The PML terms of node (i, j, kk) after its update, slab by slab in order: those of every x
 * and y slab that holds it (two at a vertical edge). */
__device__ __forceinline__ void pml_point(const kparams &k, const pml_set &ps, long p, int i, int j,
                                          int kk, bool stress) {
    for (int q = 0; q < ps.n; q++) {
        const dev_slab &sl = ps.slab[q];
        if (i < sl.box[0] || i >= sl.box[1] || j < sl.box[2] || j >= sl.box[3] || kk < sl.box[4] ||
            kk >= sl.box[5])
            continue;
        const int a = sl.axis;
        pml_cell(k, sl, ps.an[a], ps.bn[a], ps.ah[a], ps.bh[a], p, i, j, kk, stress);
    }
}

/* PML: the instance for the boundary shells, which adds the PML terms of each node right after
 * its update (one wavefield); the interior's instance has no code for them. */
template <int NF, int TJV, bool PML = false>
__global__ void velocity_kernel(kparams k, int planes, kreg r, pml_set ps) {
    int kk, j, ia, ib;
    if (!thread_cell(k, planes, r, TJV, &kk, &j, &ia, &ib)) return;
    const float c = k.dt * k.ih;
    for (int i = ia; i < ib; i++) {
        const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
        const float r0 = __ldg(k.rho + p);
        const float bx = sgt_buoyancy(r0, __ldg(k.rho + p + k.sx)),
                    by = sgt_buoyancy(r0, __ldg(k.rho + p + k.sy)), bz = __ldg(k.bz + p);
#pragma unroll
        for (int f = 0; f < NF; f++) {
            /* all reads before the writes (the arrays may alias as far as the compiler knows) */
            float *const *sg = k.s[f];
            const float a0 =
                sgt_fwd(sg[0], p, k.sx) + sgt_bwd(sg[3], p, k.sy) + sgt_bwd(sg[4], p, 1);
            const float a1 =
                sgt_bwd(sg[3], p, k.sx) + sgt_fwd(sg[1], p, k.sy) + sgt_bwd(sg[5], p, 1);
            const float a2 =
                sgt_bwd(sg[4], p, k.sx) + sgt_bwd(sg[5], p, k.sy) + sgt_fwd(sg[2], p, 1);
            const float v0 = k.v[f][0][p], v1 = k.v[f][1][p], v2 = k.v[f][2][p];
            k.v[f][0][p] = v0 + c * a0 * bx;
            k.v[f][1][p] = v1 + c * a1 * by;
            k.v[f][2][p] = v2 + c * a2 * bz;
        }
        if (PML) pml_point(k, ps, p, i, j, kk, false);
    }
}

/* SGT_STRESS_THREADS (a build option for measurements): threads per SM the stress kernel's
 * registers must allow. */
#ifdef SGT_STRESS_THREADS
#define STRESS_BOUNDS(TJV) __launch_bounds__(TK *(TJV), SGT_STRESS_THREADS / (TK * (TJV)))
#else
#define STRESS_BOUNDS(TJV)
#endif
/* The shear moduli at the three shear points of index p, as sgt_shear_modulus computes them,
 * through the read-only cache: xy the harmonic mean of the four nodes' muxy; xz, yz of the two
 * vertical staggered compliances beside them. */
__device__ __forceinline__ void shear_point_moduli(const kparams &k, long p, float *mxy, float *mxz,
                                                   float *myz) {
    const float *mh = k.muxy;
    *mxy = sgt_harm4(__ldg(mh + p), __ldg(mh + p + k.sx), __ldg(mh + p + k.sy),
                     __ldg(mh + p + k.sx + k.sy));
    const float cz0 = __ldg(k.cz + p);
    *mxz = sgt_harm2_compliance(cz0, __ldg(k.cz + p + k.sx));
    *myz = sgt_harm2_compliance(cz0, __ldg(k.cz + p + k.sy));
}

/* VISCO as a template argument: the elastic kernel then needs no registers for the memory
 * variables' path. */
template <int NF, int TJV, bool VISCO, bool PML = false>
__global__ void STRESS_BOUNDS(TJV) stress_kernel(kparams k, int planes, kreg r, pml_set ps) {
    int kk, j, ia, ib;
    if (!thread_cell(k, planes, r, TJV, &kk, &j, &ia, &ib)) return;
    for (int i = ia; i < ib; i++) {
        const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
        const float *mu = k.mu;
        const float m0 = __ldg(mu + p), l0 = __ldg(k.lam + p);
        float mxy, mxz, myz;
        shear_point_moduli(k, p, &mxy, &mxz, &myz);
        const float ex = __ldg(k.ti + kk + k.gz), gx = sgt_layered_gx(ex, m0, __ldg(k.muxy + p));
        const int mech = ((i + k.i0) & 1) | (((j + k.j0) & 1) << 1) | ((kk & 1) << 2);
        const float wp = VISCO ? __ldg(k.qpw + p) : 0.0f, ws = VISCO ? __ldg(k.qsw + p) : 0.0f;
#pragma unroll
        for (int f = 0; f < NF; f++) {
            float d[9];
            sgt_derivs(k.v[f][0], k.v[f][1], k.v[f][2], k.lam, k.mu, p, k.sx, k.sy, kk, k.fs, k.ih,
                       d);
            sgt_stress_point(k.s[f], VISCO ? k.r[f] : NULL, p, l0, m0, mxy, mxz, myz, ex, gx, wp,
                             ws, k.qa[mech], k.qb[mech], d, k.dt);
            if (k.fs && kk == 0) k.s[f][2][p] = 0.0f;
        }
        if (PML) pml_point(k, ps, p, i, j, kk, true);
    }
}

/* Launch helpers for the kernels with blocks of 32 x tj threads. */
static dim3 grid_of(const kparams &k, const kreg &r, int planes, int tj) {
    return dim3((r.k1 - r.kl + TK - 1) / TK, (r.j1 - r.j0 + tj - 1) / tj,
                (r.i1 - r.i0 + planes - 1) / planes);
}
/* No __launch_bounds__: the default register cap (set for 1024-thread blocks) leaves both
 * kernels at 40 registers, 6 blocks of 256 threads per SM. Measured on an H200: capping them at
 * 32 for full occupancy spills, and letting them take 54 and 64 registers (bounds of 256
 * threads) costs occupancy; both were 13-17% slower (docs/performance.md). */
static const pml_set no_pml = {};
template <int NF>
static void launch_plain_velocity(const kparams &k, int planes, int tj, kreg r, cudaStream_t st) {
    dim3 g = grid_of(k, r, planes, tj);
    if (tj == 4) velocity_kernel<NF, 4><<<g, dim3(TK, 4), 0, st>>>(k, planes, r, no_pml);
    if (tj == 8) velocity_kernel<NF, 8><<<g, dim3(TK, 8), 0, st>>>(k, planes, r, no_pml);
    if (tj == 16) velocity_kernel<NF, 16><<<g, dim3(TK, 16), 0, st>>>(k, planes, r, no_pml);
}
template <int NF>
static void launch_plain_stress(const kparams &k, int planes, int tj, kreg r, cudaStream_t st) {
    dim3 g = grid_of(k, r, planes, tj);
    const pml_set &z = no_pml;
    if (k.visco) {
        if (tj == 4) stress_kernel<NF, 4, true><<<g, dim3(TK, 4), 0, st>>>(k, planes, r, z);
        if (tj == 8) stress_kernel<NF, 8, true><<<g, dim3(TK, 8), 0, st>>>(k, planes, r, z);
        if (tj == 16) stress_kernel<NF, 16, true><<<g, dim3(TK, 16), 0, st>>>(k, planes, r, z);
    } else {
        if (tj == 4) stress_kernel<NF, 4, false><<<g, dim3(TK, 4), 0, st>>>(k, planes, r, z);
        if (tj == 8) stress_kernel<NF, 8, false><<<g, dim3(TK, 8), 0, st>>>(k, planes, r, z);
        if (tj == 16) stress_kernel<NF, 16, false><<<g, dim3(TK, 16), 0, st>>>(k, planes, r, z);
    }
}
/* The boundary shells' instances (blocks of 32 x 8, one wavefield). */
static void launch_pml_update(const kparams &k, const pml_set &ps, int planes, kreg r, int stress,
                              cudaStream_t st) {
    dim3 g = grid_of(k, r, planes, TJ);
    if (!stress)
        velocity_kernel<1, TJ, true><<<g, dim3(TK, TJ), 0, st>>>(k, planes, r, ps);
    else if (k.visco)
        stress_kernel<1, TJ, true, true><<<g, dim3(TK, TJ), 0, st>>>(k, planes, r, ps);
    else
        stress_kernel<1, TJ, false, true><<<g, dim3(TK, TJ), 0, st>>>(k, planes, r, ps);
}
#include "sgt_cuda_tiled.cuh"

/* The velocity or stress update of a region with the kernel the state chose: plain (tj 4, 8,
 * 16) or tiled (ty 8, 16). */
static void launch_update(const kparams &k, int tiled, int planes, int tj, kreg r, int stress,
                          cudaStream_t st) {
    if (tiled && tj == 16)
        launch_tiled<16>(k, planes, r, stress, st);
    else if (tiled)
        launch_tiled<8>(k, planes, r, stress, st);
    else if (stress)
        launch_plain_stress<1>(k, planes, tj, r, st);
    else
        launch_plain_velocity<1>(k, planes, tj, r, st);
}

__global__ void free_surface_kernel(kparams k, kreg r) {
    const int j = r.j0 + blockIdx.x * blockDim.x + threadIdx.x, i = r.i0 + blockIdx.y;
    if (j >= r.j1) return;
    const long b = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + k.gz;
    sgt_free_surface_image(k.s[0][2] + b, k.s[0][4] + b, k.s[0][5] + b);
}

/* The cells of slab sl inside region r (part: their intersection); memory variables are
 * indexed over the whole slab. */
__global__ void pml_kernel(kparams k, dev_slab sl, kreg part, const float *an, const float *bn,
                           const float *ah, const float *bh, int stress) {
    const int nk = sl.box[5] - sl.box[4], nj = part.j1 - part.j0;
    const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long total = (long)(part.i1 - part.i0) * nj * nk;
    if (t >= total) return;
    const int kk = sl.box[4] + (int)(t % nk), j = part.j0 + (int)((t / nk) % nj),
              i = part.i0 + (int)(t / ((long)nk * nj));
    const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
    pml_cell(k, sl, an, bn, ah, bh, p, i, j, kk, stress);
}

__global__ void sponge_kernel(kparams k, kreg r, const float *dx, const float *dy, const float *dz,
                              int stress) {
    const int kk = blockIdx.x * TK + threadIdx.x, j = r.j0 + blockIdx.y * TJ + threadIdx.y,
              i = r.i0 + blockIdx.z;
    if (kk >= k.nz || j >= r.j1) return;
    const float d = dx[i + k.i0] * dy[j + k.j0] * dz[kk];
    if (d >= 1.0f) return;
    const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
    if (stress)
        for (int c = 0; c < 6; c++)
            k.s[0][c][p] *= d;
    else
        for (int c = 0; c < 3; c++)
            k.v[0][c][p] *= d;
}

__global__ void force_kernel(kparams k, kreg r, int si, int sj, int sk, int plane, double amp,
                             double fx, double fy, double fz) {
    int li = si - k.i0, lj = sj - k.j0;
    if (plane) {
        li = r.i0 + blockIdx.x * blockDim.x + threadIdx.x;
        lj = r.j0 + blockIdx.y;
        if (li >= r.i1) return;
    } else if (threadIdx.x || blockIdx.x || blockIdx.y) {
        return;
    }
    const double f[3] = {fx, fy, fz};
    const long p = (long)(li + k.halo) * k.sx + (long)(lj + k.halo) * k.sy + (sk + k.gz);
    sgt_force_apply(k.v[0], k.rho, k.bz, k.lam, k.mu, p, k.sx, k.sy, li, lj, sk, r.i0, r.i1, r.j0,
                    r.j1, k.fs, amp, f);
}

__global__ void moment_kernel(kparams k, kreg r, int si, int sj, int sk, double amp, double m0,
                              double m1, double m2, double m3, double m4, double m5) {
    const double m[6] = {m0, m1, m2, m3, m4, m5};
    const int li = si - k.i0, lj = sj - k.j0;
    const long p = (long)(li + k.halo) * k.sx + (long)(lj + k.halo) * k.sy + (sk + k.gz);
    sgt_moment_apply(k.s[0], p, k.sx, k.sy, li, lj, sk, r.i0, r.i1, r.j0, r.j1, k.fs, amp, m);
}

/* The shear slots' factors of every save point (sgt_point_slot_factor), once: the material does
 * not change, and reading them saves each save four moduli and a Q weight per slot. Slot m of
 * point q at fac[(m - 3) * np + q]. */
__global__ void slot_factor_kernel(kparams k, const int *pts, long np, float *fac) {
    const long q = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= np) return;
    const int li = pts[3 * q] - k.i0, lj = pts[3 * q + 1] - k.j0, kk = pts[3 * q + 2];
    if (li < 0 || li >= k.lnx || lj < 0 || lj >= k.lny) return;
    const long p = (long)(li + k.halo) * k.sx + (long)(lj + k.halo) * k.sy + (kk + k.gz);
    for (int m = 3; m < SGT_PT_SLOTS; m++)
        fac[(m - 3) * np + q] = (float)sgt_point_slot_factor(
            m, k.muxy, k.cz, k.visco ? k.qsw : NULL, p, k.sx, k.sy, kk, k.fs);
}

__global__ void save_kernel(kparams k, const int *pts, long np, const float *fac, float *slot) {
    const long q = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= np) return;
    const int li = pts[3 * q] - k.i0, lj = pts[3 * q + 1] - k.j0, kk = pts[3 * q + 2];
    if (li < 0 || li >= k.lnx || lj < 0 || lj >= k.lny) return;
    const long p = (long)(li + k.halo) * k.sx + (long)(lj + k.halo) * k.sy + (kk + k.gz);
    double e[6];
    sgt_point_strain(k.s[0], k.visco ? k.r[0] : NULL, k.lam, k.mu, k.muxy, k.ti[kk + k.gz], k.cz,
                     k.qpw, k.qsw, k.qtau, pts[3 * q], pts[3 * q + 1], p, k.sx, k.sy, kk, k.fs,
                     fac + q, np, e);
    for (int c = 0; c < 6; c++)
        slot[6 * q + c] = (float)e[c];
}

__global__ void receivers_kernel(kparams k, const int *rec, int nrec, float *prev, float *out,
                                 int nt, int n) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrec) return;
    const int li = rec[3 * r] - k.i0, lj = rec[3 * r + 1] - k.j0, kk = rec[3 * r + 2];
    if (li < 0 || li >= k.lnx || lj < 0 || lj >= k.lny) return;
    const long p = (long)(li + k.halo) * k.sx + (long)(lj + k.halo) * k.sy + (kk + k.gz);
    double v[3];
    sgt_node_velocity_at(k.v[0][0], k.v[0][1], k.v[0][2], k.lam, k.mu, p, k.sx, k.sy, kk, k.fs, k.h,
                         v);
    for (int c = 0; c < 3; c++) {
        out[((long)r * 3 + c) * nt + n] = 0.5f * (prev[3 * r + c] + (float)v[c]);
        prev[3 * r + c] = (float)v[c];
    }
}

static int check_launch(cs_error *err, const char *what) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return cs_error_set(err, CS_ERR_INTERNAL, "CUDA kernel %s: %s", what,
                            cudaGetErrorString(e));
    return 0;
}

/* n floats on the device, from src or zeros. A grid array is allocated `shift` floats further
 * on (sgt_gpu_rows.h), so that depth 0 of its rows begins a 128-byte line; free it with
 * free_shifted. */
static int upload_shifted(float **dst, const float *src, long n, int shift, cs_error *err) {
    float *base;
    CS_CUDA_CHECK(cudaMalloc((void **)&base, (size_t)(n + shift) * sizeof(float)));
    *dst = base + shift;
    if (src)
        CS_CUDA_CHECK(cudaMemcpy(*dst, src, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    else
        CS_CUDA_CHECK(cudaMemset(*dst, 0, (size_t)n * sizeof(float)));
    return 0;
}

static int upload(float **dst, const float *src, long n, cs_error *err) {
    return upload_shifted(dst, src, n, 0, err);
}

static void free_shifted(const float *p, int shift) {
    if (p) cudaFree((void *)(p - shift));
}

/* One GPU per rank: CYBERSHAKE_GPU when set, otherwise the rank's index among the ranks on its
 * node. */
static int choose_device(cs_error *err) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0)
        return cs_error_input(err, "backend", NULL, "cuda",
                              "no CUDA device found (%s); use backend = cpu on this machine",
                              cs_cuda_no_device_reason(e));
    int dev = 0, inited = 0;
    const char *env = getenv("CYBERSHAKE_GPU");
    MPI_Initialized(&inited);
    if (env) {
        dev = atoi(env) % n;
    } else if (inited) {
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        int local, nlocal;
        MPI_Comm_rank(node, &local);
        MPI_Comm_size(node, &nlocal);
        MPI_Comm_free(&node);
        if (nlocal > n)
            cs_warn("%d ranks share this node's %d GPUs; ranks will share devices", nlocal, n);
        dev = local % n;
    }
    CS_CUDA_CHECK(cudaSetDevice(dev));
    return 0;
}

static int setup_halo(sgt_state *s, dev_state *d, cs_error *err);

/* An integer setting from the environment: `dflt` when unset, otherwise a whole integer from lo
 * to hi, or an error naming the variable (a typo must not silently pick another layout). */
static int env_setting(const char *name, int lo, int hi, int dflt, int *out, cs_error *err) {
    const char *v = getenv(name);
    *out = dflt;
    if (!v) return 0;
    char *end;
    const long x = strtol(v, &end, 10);
    if (end == v || *end || x < lo || x > hi)
        return cs_error_input(err, name, NULL, v, "must be an integer from %d to %d", lo, hi);
    *out = (int)x;
    return 0;
}

static int cuda_setup(sgt_state *s, cs_error *err) {
    /* the layout settings first, so that a bad one is named even where there is no device */
    int align, zshell;
    CS_CALL(err, env_setting("CYBERSHAKE_GPU_ALIGN", 0, 2, -1, &align, err));
    CS_CALL(err, env_setting("CYBERSHAKE_GPU_ZSHELL", 0, 1, 1, &zshell, err));
    CS_CALL(err, choose_device(err));
    dev_state *d = (dev_state *)calloc(1, sizeof(dev_state));
    if (!d) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    s->backend = d;
    const sgt_layout *L = &s->L;
    /* Memory needed on the device against memory free there. */
    double need = (double)L->ncell * 4 * (15 + (s->visco ? 8 : 0)) +
                  (double)s->npoints * (24.0 * 16 + 4.0 * (SGT_PT_SLOTS - 3)) +
                  (double)s->nrec * 12.0 * s->nt;
    size_t free_b = 0, total_b = 0;
    CS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (need > (double)free_b)
        return cs_error_input(err, "memory", "GPU", NULL,
                              "the run needs %.2f GB on the device but %.2f GB are free; use a "
                              "smaller grid or more GPUs",
                              need / 1e9, (double)free_b / 1e9);
    cs_info("device arrays: %.2f GB of the %.2f GB free", need / 1e9, (double)free_b / 1e9);
    kparams &k = d->kp;
    {
        align = sgt_gpu_row_alignment(align, L->nz, L->gz, &k.zshift, &d->field_shift);
        const int warps = sgt_gpu_row_warps(L->nz, k.zshift);
        cs_info("GPU rows: %d nodes in %d warps (alignment %d)%s", L->nz, warps, align,
                L->nz % TK == TK - 2 * L->gz
                    ? ""
                    : "; depths with nz % 32 = 28 fill whole 128-byte lines and run fastest "
                      "(docs/performance.md)");
    }
    const int sh = d->field_shift;
    for (int c = 0; c < 3; c++)
        CS_CALL(err, upload_shifted(&k.v[0][c], s->v[c], L->ncell, sh, err));
    for (int c = 0; c < 6; c++)
        CS_CALL(err, upload_shifted(&k.s[0][c], s->s[c], L->ncell, sh, err));
    float *rho, *lam, *mu, *bz, *cz, *muxy, *ti, *qpw = NULL, *qsw = NULL;
    CS_CALL(err, upload_shifted(&rho, s->rho, L->ncell, sh, err));
    CS_CALL(err, upload_shifted(&bz, s->bz, L->ncell, sh, err));
    CS_CALL(err, upload_shifted(&cz, s->cz, L->ncell, sh, err));
    CS_CALL(err, upload_shifted(&muxy, s->muxy, L->ncell, sh, err));
    CS_CALL(err, upload(&ti, s->ti, L->nz + 2 * L->gz, err));
    CS_CALL(err, upload_shifted(&lam, s->lam, L->ncell, sh, err));
    CS_CALL(err, upload_shifted(&mu, s->mu, L->ncell, sh, err));
    if (s->visco) {
        for (int c = 0; c < 6; c++)
            CS_CALL(err, upload_shifted(&k.r[0][c], s->r[c], L->ncell, sh, err));
        CS_CALL(err, upload_shifted(&qpw, s->qpw, L->ncell, sh, err));
        CS_CALL(err, upload_shifted(&qsw, s->qsw, L->ncell, sh, err));
    }
    k.rho = rho, k.lam = lam, k.mu = mu, k.qpw = qpw, k.qsw = qsw, k.bz = bz, k.cz = cz;
    k.muxy = muxy, k.ti = ti;
    k.sx = L->sx, k.sy = L->sy;
    k.lnx = L->lnx, k.lny = L->lny, k.nz = L->nz, k.i0 = L->i0, k.j0 = L->j0;
    k.halo = L->halo, k.gz = L->gz;
    k.fs = s->free_surface, k.visco = s->visco;
    k.ih = (float)(1.0 / s->h), k.dt = (float)s->dt, k.h = (float)s->h;
    for (int l = 0; l < SGT_Q_NMECH; l++)
        k.qa[l] = s->q_a[l], k.qb[l] = s->q_b[l], k.qtau[l] = s->q_tau[l];
    /* Absorbing boundaries. */
    int n3[3] = {L->nx, L->ny, L->nz};
    for (int a = 0; a < 3; a++) {
        if (s->absorb == SGT_ABSORB_SPONGE) {
            CS_CALL(err, upload(&d->damp[a], s->damp[a], n3[a], err));
        } else {
            CS_CALL(err, upload(&d->an[a], s->pml.a_node[a], n3[a] + 1, err));
            CS_CALL(err, upload(&d->bn[a], s->pml.b_node[a], n3[a] + 1, err));
            CS_CALL(err, upload(&d->ah[a], s->pml.a_half[a], n3[a] + 1, err));
            CS_CALL(err, upload(&d->bh[a], s->pml.b_half[a], n3[a] + 1, err));
        }
    }
    d->nslabs = s->pml.nslabs;
    for (int q = 0; q < s->pml.nslabs; q++) {
        const sgt_pml_slab *sl = &s->pml.slab[q];
        dev_slab *ds = &d->slab[q];
        ds->axis = sl->axis, ds->side = sl->side;
        memcpy(ds->box, sl->box, sizeof ds->box);
        for (int c = 0; c < 6; c++)
            CS_CALL(err, upload(&ds->psi[c], NULL, sl->count, err));
    }
    /* The x and y slabs come first (sgt_absorb.c), the z ones after them: the order in which
     * the boundary shells add a node's terms, as the CPU's passes do. The z slabs join them
     * unless CYBERSHAKE_GPU_ZSHELL=0 (then they keep passes of their own). */
    d->zshell = zshell;
    d->pml.n = 0;
    for (int q = 0; q < d->nslabs; q++)
        if (d->slab[q].axis < 2 || d->zshell) d->pml.slab[d->pml.n++] = d->slab[q];
    for (int a = 0; a < 3; a++)
        d->pml.an[a] = d->an[a], d->pml.bn[a] = d->bn[a], d->pml.ah[a] = d->ah[a],
        d->pml.bh[a] = d->bh[a];
    /* Save points: accumulators and the batch buffer (a few hundred MB at most). */
    if (s->npoints) {
        CS_CUDA_CHECK(cudaMalloc((void **)&d->pts, (size_t)s->npoints * 3 * sizeof(int)));
        CS_CUDA_CHECK(cudaMemcpy(d->pts, s->pts, (size_t)s->npoints * 3 * sizeof(int),
                                 cudaMemcpyHostToDevice));
        long per = s->npoints * 6 * (long)sizeof(float);
        d->nb = (int)(128L * 1024 * 1024 / per);
        if (d->nb < 1) d->nb = 1;
        /* A batch never straddles two windows of the host's strain (sgt_strain_writer.h):
         * the largest batch that divides the window, so a window ends with a full batch. */
        if (d->nb > s->out_window) d->nb = s->out_window;
        while (s->out_window % d->nb)
            d->nb--;
        const char *bs = getenv("CYBERSHAKE_GPU_BATCH_SAMPLES"); /* for tests */
        if (bs && atoi(bs) > 0 && atoi(bs) < d->nb) d->nb = atoi(bs);
        CS_CUDA_CHECK(cudaMalloc((void **)&d->batch, (size_t)per * d->nb));
        CS_CUDA_CHECK(cudaMalloc((void **)&d->batch2, (size_t)per * d->nb));
        CS_CUDA_CHECK(cudaMalloc((void **)&d->slotf,
                                 (size_t)s->npoints * (SGT_PT_SLOTS - 3) * sizeof(float)));
        slot_factor_kernel<<<(unsigned)((s->npoints + 127) / 128), 128>>>(d->kp, d->pts, s->npoints,
                                                                          d->slotf);
        CS_CALL(err, check_launch(err, "save point factors"));
        CS_CUDA_CHECK(cudaMallocHost((void **)&d->host_batch, (size_t)per * d->nb));
        /* not blocking: the legacy stream's kernels must not wait for these copies */
        CS_CUDA_CHECK(cudaStreamCreateWithFlags(&d->sc, cudaStreamNonBlocking));
        CS_CUDA_CHECK(cudaEventCreateWithFlags(&d->ev_saved, cudaEventDisableTiming));
        CS_CUDA_CHECK(cudaEventCreateWithFlags(&d->ev_copied[0], cudaEventDisableTiming));
        CS_CUDA_CHECK(cudaEventCreateWithFlags(&d->ev_copied[1], cudaEventDisableTiming));
        d->first_m = 1;
    }
    if (s->nrec) {
        CS_CUDA_CHECK(cudaMalloc((void **)&d->rec, (size_t)s->nrec * 3 * sizeof(int)));
        CS_CUDA_CHECK(
            cudaMemcpy(d->rec, s->rec, (size_t)s->nrec * 3 * sizeof(int), cudaMemcpyHostToDevice));
        CS_CALL(err, upload(&d->rec_prev, NULL, (long)s->nrec * 3, err));
        CS_CALL(err, upload(&d->rec_out, NULL, (long)s->nrec * 3 * s->nt, err));
    }
    /* The host copies of the fields and material are no longer needed (outputs come from the
     * device): free them, so a run needs host memory for its outputs only. */
    float **host[] = {&s->v[0], &s->v[1],   &s->v[2],   &s->s[0],   &s->s[1], &s->s[2], &s->s[3],
                      &s->s[4], &s->s[5],   &s->r[0],   &s->r[1],   &s->r[2], &s->r[3], &s->r[4],
                      &s->r[5], &s->mus[0], &s->mus[1], &s->mus[2], &s->rho,  &s->lam,  &s->mu,
                      &s->qpw,  &s->qsw,    &s->bz,     &s->cz,     &s->muxy};
    for (size_t q = 0; q < sizeof host / sizeof *host; q++) {
        free(*host[q]);
        *host[q] = NULL;
    }
    /* Block shape (32 x kernel_tj) and x planes per block: measured on an H200
     * (docs/performance.md); overridable for experiments. */
    const char *kv = getenv("CYBERSHAKE_GPU_BLOCK_Y");
    d->kernel_tj = kv ? atoi(kv) : 8;
    if (d->kernel_tj != 4 && d->kernel_tj != 8 && d->kernel_tj != 16) d->kernel_tj = 8;
    const char *kn = getenv("CYBERSHAKE_GPU_KERNEL");
    d->kernel_tiled = kn && !strcmp(kn, "tiled");
    if (d->kernel_tiled && d->kernel_tj == 4) d->kernel_tj = 8;
    const char *ppb = getenv("CYBERSHAKE_GPU_PLANES");
    d->planes_per_block = ppb ? atoi(ppb) : 64;
    if (d->planes_per_block < 1) d->planes_per_block = 1;
    d->sb = d->si = 0;
    d->split = L->nbr[0][0] || L->nbr[0][1] || L->nbr[1][0] || L->nbr[1][1];
    if (d->split) CS_CALL(err, setup_halo(s, d, err));
    /* The memsets above run asynchronously: the time loop must not start before they end. */
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}

static kreg kr(const kparams &k, const sgt_region *r) {
    return kbox(k, r->ib, r->ie, r->jb, r->je, 0, k.nz);
}

/* Whether the PML terms are added by the updates themselves (the plain kernels) rather than by
 * passes of their own after them (the tiled kernels, and the sponge, keep the passes; so do the
 * z slabs with CYBERSHAKE_GPU_ZSHELL=0). */
static int fused_pml(const sgt_state *s, const dev_state *d) {
    return !d->kernel_tiled && s->absorb == SGT_ABSORB_PML && d->pml.n > 0;
}

/* The update of region r with the slabs' PML terms in it: the core, which no slab reaches, with
 * the interior's kernels; the shells around it (x sides, then the y sides between them, then
 * below and above the core) with the instances that add each node's PML terms right after its
 * update, so that a PML node's fields are read and written once instead of once more by a pass
 * over its slab. Measured on an H200 (docs/performance.md): the x and y shells are whole
 * columns; the z shells are whole 128-byte lines of the rows (the core's depths stop at a line
 * start), 5% faster than the z slabs' passes at nz = 384, where the 20-node bottom slab lies in
 * one line (alignment 2, sgt_gpu_rows.h), 0.6% at nz = 200, where it straddles two (9% and 7% with
 * PML on top as well). */
static void update_with_pml(dev_state *d, const sgt_region *r, int stress, cudaStream_t st) {
    const kparams &k = d->kp;
    const int lo[2] = {r->ib, r->jb}, hi[2] = {r->ie, r->je};
    int c0[2] = {lo[0], lo[1]}, c1[2] = {hi[0], hi[1]};
    for (int q = 0; q < d->pml.n; q++) {
        const dev_slab &sl = d->pml.slab[q];
        const int a = sl.axis;
        if (a == 2) continue; /* the z slabs: below */
        if (sl.side == 0)
            c0[a] = std::max(c0[a], sl.box[2 * a + 1]);
        else
            c1[a] = std::min(c1[a], sl.box[2 * a]);
    }
    for (int a = 0; a < 2; a++) {
        c0[a] = std::min(std::max(c0[a], lo[a]), hi[a]);
        c1[a] = std::min(std::max(c1[a], c0[a]), hi[a]);
    }
    const int planes = d->planes_per_block;
    /* The shells are 20 nodes thin: runs of 8 planes give them enough blocks to fill the
     * device. */
    const int shell_planes = std::min(planes, 8);
    /* With the z slabs in the shells, the core's depths stop at the 128-byte lines that hold
     * a z slab's first (bottom) or last (top) node, so that the z shells are whole lines: at
     * nz = 384 with warps from depth 0 (alignment 2, sgt_gpu_rows.h), the 20-node bottom slab lies
     * in one line of each row. */
    int k0 = 0, k1 = k.nz;
    for (int q = 0; q < d->pml.n; q++) {
        const dev_slab &sl = d->pml.slab[q];
        if (sl.axis != 2) continue;
        if (sl.side == 0)
            k0 = std::max(k0, sgt_gpu_line_start(sl.box[5] + TK - 1, k.zshift));
        else
            k1 = std::min(k1, sgt_gpu_line_start(sl.box[4], k.zshift));
    }
    k0 = std::min(std::max(k0, 0), k.nz);
    k1 = std::min(std::max(k1, k0), k.nz);
    const kreg core = kbox(k, c0[0], c1[0], c0[1], c1[1], k0, k1);
    const kreg shell[6] = {kbox(k, lo[0], c0[0], lo[1], hi[1], 0, k.nz),
                           kbox(k, c1[0], hi[0], lo[1], hi[1], 0, k.nz),
                           kbox(k, c0[0], c1[0], lo[1], c0[1], 0, k.nz),
                           kbox(k, c0[0], c1[0], c1[1], hi[1], 0, k.nz),
                           kbox(k, c0[0], c1[0], c0[1], c1[1], 0, k0),
                           kbox(k, c0[0], c1[0], c0[1], c1[1], k1, k.nz)};
    auto nonempty = [](const kreg &b) { return b.i1 > b.i0 && b.j1 > b.j0 && b.k1 > b.k0; };
    if (nonempty(core)) launch_update(k, 0, planes, d->kernel_tj, core, stress, st);
    for (int b = 0; b < 6; b++)
        if (nonempty(shell[b])) launch_pml_update(k, d->pml, shell_planes, shell[b], stress, st);
}

/* The absorbing boundary's pass over region r: the sponge, or the PML terms of the slabs along
 * the axes from first_axis on (0: all; 2: the z slabs, when the updates added the others; 3:
 * none, when they added all). */
static void absorb_region(sgt_state *s, dev_state *d, const sgt_region *r, int stress,
                          int first_axis, cudaStream_t st) {
    const kparams &k = d->kp;
    if (s->absorb == SGT_ABSORB_SPONGE) {
        dim3 g((k.nz + TK - 1) / TK, (r->je - r->jb + TJ - 1) / TJ, r->ie - r->ib);
        sponge_kernel<<<g, dim3(TK, TJ), 0, st>>>(k, kr(k, r), d->damp[0], d->damp[1], d->damp[2],
                                                  stress);
        return;
    }
    for (int q = 0; q < d->nslabs; q++) {
        const dev_slab &sl = d->slab[q];
        if (sl.axis < first_axis) continue;
        sgt_region part =
            sgt_region_meet(*r, sgt_region{sl.box[0], sl.box[1], sl.box[2], sl.box[3]});
        if (sgt_region_empty(&part)) continue;
        long total = (long)(part.ie - part.ib) * (part.je - part.jb) * (sl.box[5] - sl.box[4]);
        int a = sl.axis;
        pml_kernel<<<(unsigned)((total + 255) / 256), 256, 0, st>>>(
            k, sl, kr(k, &part), d->an[a], d->bn[a], d->ah[a], d->bh[a], stress);
    }
}

static int cuda_velocity(sgt_state *s, int n, const sgt_region *r, int boundary, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    if (sgt_region_empty(r)) return 0;
    const kparams &k = d->kp;
    cudaStream_t st = boundary ? d->sb : d->si;
    const int fused = fused_pml(s, d);
    if (fused)
        update_with_pml(d, r, 0, st);
    else
        launch_update(k, d->kernel_tiled, d->planes_per_block, d->kernel_tj, kr(k, r), 0, st);
    if (s->source_kind == SGT_SOURCE_FORCE) {
        const double amp = s->dt * s->amplitude * s->stf[n] / (s->h * s->h * s->h);
        if (s->plane_source)
            force_kernel<<<dim3((r->ie - r->ib + 127) / 128, r->je - r->jb), 128, 0, st>>>(
                k, kr(k, r), 0, 0, s->src_k, 1, amp, s->force[0], s->force[1], s->force[2]);
        else
            force_kernel<<<1, 1, 0, st>>>(k, kr(k, r), s->src_i, s->src_j, s->src_k, 0, amp,
                                          s->force[0], s->force[1], s->force[2]);
    }
    absorb_region(s, d, r, 0, fused ? (d->zshell ? 3 : 2) : 0, st);
    if (boundary) cudaEventRecord(d->ev_vb, d->sb);
    return check_launch(err, "velocity");
}

static int cuda_stress(sgt_state *s, int n, const sgt_region *r, int boundary, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    if (sgt_region_empty(r)) return 0;
    const kparams &k = d->kp;
    cudaStream_t st = boundary ? d->sb : d->si;
    /* The interior stress reads the boundary strips' velocities. */
    if (d->split && !boundary) cudaStreamWaitEvent(d->si, d->ev_vb, 0);
    const int fused = fused_pml(s, d);
    if (fused)
        update_with_pml(d, r, 1, st);
    else
        launch_update(k, d->kernel_tiled, d->planes_per_block, d->kernel_tj, kr(k, r), 1, st);
    for (long q = 0; q < s->nmsrc; q++) {
        /* a finite source: one launch per subfault of this rank that acts at this step */
        const int *g = s->msrc_node + 3 * q;
        const double *m = s->msrc_m + 6 * q;
        int li = g[0] - s->L.i0, lj = g[1] - s->L.j0;
        double amp =
            s->dt * s->msrc_mu[q] * s->msrc_rate[(size_t)q * s->nt + n] / (s->h * s->h * s->h);
        if (amp == 0 || li < r->ib - 2 || li > r->ie + 1 || lj < r->jb - 2 || lj > r->je + 1)
            continue;
        moment_kernel<<<1, 1, 0, st>>>(k, kr(k, r), g[0], g[1], g[2], amp, m[0], m[1], m[2], m[3],
                                       m[4], m[5]);
    }
    if (s->source_kind == SGT_SOURCE_MOMENT && !s->nmsrc)
        moment_kernel<<<1, 1, 0, st>>>(k, kr(k, r), s->src_i, s->src_j, s->src_k,
                                       s->dt * s->amplitude * s->stf[n] / (s->h * s->h * s->h),
                                       s->moment[0], s->moment[1], s->moment[2], s->moment[3],
                                       s->moment[4], s->moment[5]);
    absorb_region(s, d, r, 1, fused ? (d->zshell ? 3 : 2) : 0, st);
    if (s->free_surface)
        free_surface_kernel<<<dim3((r->je - r->jb + 127) / 128, r->ie - r->ib), 128, 0, st>>>(
            k, kr(k, r));
    return check_launch(err, "stress");
}

/* ---- halo exchange ---- */

/* The strips of one side along an axis as 2D copies: `rows` rows of `width` floats, `pitch`
 * floats apart. Along x the 4 planes are one contiguous block; along y each x row holds 4
 * contiguous columns. */
struct strip {
    long offset, width, pitch;
    int rows;
};
static strip strip_of(const sgt_layout *L, int axis, int side, int recv) {
    const int H = SGT_HALO;
    strip t;
    if (axis == 0) {
        int i = recv ? (side ? L->lnx : -H) : (side ? L->lnx - H : 0);
        t.offset = sgt_idx(L, i, -L->halo, -L->gz);
        t.width = H * L->sx, t.pitch = t.width, t.rows = 1;
    } else {
        int j = recv ? (side ? L->lny : -H) : (side ? L->lny - H : 0);
        t.offset = sgt_idx(L, -L->halo, j, -L->gz);
        t.width = H * L->sy, t.pitch = L->sx, t.rows = L->lnx + 2 * L->halo;
    }
    return t;
}

/* Which way the halo travels: CYBERSHAKE_HALO = host | peer | none, else peer copies where every
 * rank runs on this node (bench/sgt_gpu_scaling.sh measured them faster than host staging). */
static int choose_transport(const sgt_state *s, cs_error *err) {
    const char *env = getenv("CYBERSHAKE_HALO");
    if (env && !strcmp(env, "host")) return HALO_HOST;
    if (env && !strcmp(env, "none")) return HALO_NONE;
    if (env && strcmp(env, "peer") && strcmp(env, "auto"))
        return cs_error_input(err, "CYBERSHAKE_HALO", NULL, env,
                              "must be host, peer, none or auto");
    MPI_Comm node;
    int n = 0;
    MPI_Comm_split_type(s->comm->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    if (n != s->comm->size) {
        if (env && !strcmp(env, "peer"))
            cs_warn("CYBERSHAKE_HALO=peer: the ranks span several nodes; the halo goes through the "
                    "host");
        return HALO_HOST;
    }
    return HALO_PEER;
}

/* Opens each neighbour's receive buffer (CUDA IPC handles traded over MPI). Every rank takes
 * part; if any cannot open its neighbours' buffers, all fall back to host staging. */
static int setup_peer(sgt_state *s, dev_state *d, cs_error *err) {
    sgt_comm *c = s->comm;
    cudaIpcMemHandle_t mine[2][2], theirs[2][2];
    MPI_Request rq[8];
    int nrq = 0, ok = 1;
    memset(mine, 0, sizeof mine);
    for (int a = 0; a < 2; a++)
        for (int side = 0; side < 2; side++) {
            const int peer = c->nbr[a][side];
            if (peer == MPI_PROC_NULL) continue;
            if (cudaIpcGetMemHandle(&mine[a][side], d->halo[a].drecv[side]) != cudaSuccess) ok = 0;
            MPI_Irecv(&theirs[a][side], sizeof theirs[a][side], MPI_BYTE, peer,
                      100 + a * 2 + (1 - side), c->comm, &rq[nrq++]);
            MPI_Isend(&mine[a][side], sizeof mine[a][side], MPI_BYTE, peer, 100 + a * 2 + side,
                      c->comm, &rq[nrq++]);
        }
    MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
    for (int a = 0; a < 2 && ok; a++)
        for (int side = 0; side < 2 && ok; side++) {
            if (c->nbr[a][side] == MPI_PROC_NULL) continue;
            void *p = NULL;
            cudaError_t e =
                cudaIpcOpenMemHandle(&p, theirs[a][side], cudaIpcMemLazyEnablePeerAccess);
            if (e != cudaSuccess) {
                cs_warn("rank %d: cannot open the halo buffer of rank %d (%s)", c->rank,
                        c->nbr[a][side], cudaGetErrorString(e));
                cudaGetLastError();
                ok = 0;
            }
            d->halo[a].rrecv[side] = (float *)p;
        }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, c->comm);
    if (ok) return 0;
    for (int a = 0; a < 2; a++)
        for (int side = 0; side < 2; side++)
            if (d->halo[a].rrecv[side]) cudaIpcCloseMemHandle(d->halo[a].rrecv[side]);
    memset(d->halo[0].rrecv, 0, sizeof d->halo[0].rrecv);
    memset(d->halo[1].rrecv, 0, sizeof d->halo[1].rrecv);
    d->transport = HALO_HOST;
    (void)err;
    return 0;
}

static int setup_halo(sgt_state *s, dev_state *d, cs_error *err) {
    /* Blocking streams: anything on the legacy default stream (copies, memsets of the setup)
     * orders against them. */
    CS_CUDA_CHECK(cudaStreamCreate(&d->sb));
    CS_CUDA_CHECK(cudaStreamCreate(&d->si));
    CS_CUDA_CHECK(cudaEventCreateWithFlags(&d->ev_vb, cudaEventDisableTiming));
    CS_CUDA_CHECK(cudaEventCreateWithFlags(&d->ev_b, cudaEventDisableTiming));
    CS_CUDA_CHECK(cudaEventCreateWithFlags(&d->ev_i, cudaEventDisableTiming));
    d->cuda_aware = 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    d->cuda_aware = MPIX_Query_cuda_support();
#endif
    const char *env = getenv("CYBERSHAKE_CUDA_AWARE_MPI");
    if (env) d->cuda_aware = d->cuda_aware && atoi(env);
    int tr = choose_transport(s, err);
    if (tr < 0) return tr;
    d->transport = tr;
    const sgt_layout *L = &s->L;
    for (int a = 0; a < 2; a++) {
        halo_buf &hb = d->halo[a];
        strip t = strip_of(L, a, 0, 0);
        hb.count = t.width * t.rows;
        const size_t b = (size_t)hb.count * 3 * sizeof(float);
        for (int side = 0; side < 2; side++) {
            if (!L->nbr[a][side]) continue;
            CS_CUDA_CHECK(cudaMalloc((void **)&hb.dsend[side], b));
            CS_CUDA_CHECK(cudaMalloc((void **)&hb.drecv[side], 2 * b));
            if (!d->cuda_aware) {
                CS_CUDA_CHECK(cudaMallocHost((void **)&hb.hsend[side], b));
                CS_CUDA_CHECK(cudaMallocHost((void **)&hb.hrecv[side], b));
            }
        }
    }
    if (d->transport == HALO_PEER) CS_CALL(err, setup_peer(s, d, err));
    if (d->transport == HALO_NONE)
        cs_warn("CYBERSHAKE_HALO=none: no halo exchange; the results are wrong (a benchmark of "
                "the exchange's cost only)");
    cs_info("halo exchange %s", d->transport == HALO_PEER
                                    ? "by peer copies between devices (CUDA IPC)"
                                : d->transport == HALO_NONE ? "skipped"
                                : d->cuda_aware             ? "from device buffers (CUDA-aware MPI)"
                                                            : "through pinned host buffers");
    return 0;
}

/* Packs the strips to send along an axis into one contiguous device buffer per side (copies on
 * the device, fast even for the strided y strips), then one copy of each to the host, or
 * straight into the neighbour's device buffer. All on the boundary stream, after the strips'
 * updates. */
static int cuda_halo_post(sgt_state *s, int axis, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    if (d->transport == HALO_NONE) return 0;
    const sgt_layout *L = &s->L;
    halo_buf &hb = d->halo[axis];
    const size_t bytes = (size_t)hb.count * 3 * sizeof(float);
    for (int side = 0; side < 2; side++) {
        if (!L->nbr[axis][side]) continue;
        strip t = strip_of(L, axis, side, 0);
        for (int c = 0; c < 3; c++)
            CS_CUDA_CHECK(cudaMemcpy2DAsync(hb.dsend[side] + c * hb.count, t.width * sizeof(float),
                                            d->kp.v[0][c] + t.offset, t.pitch * sizeof(float),
                                            t.width * sizeof(float), t.rows,
                                            cudaMemcpyDeviceToDevice, d->sb));
        if (d->transport == HALO_PEER)
            CS_CUDA_CHECK(cudaMemcpyAsync(hb.rrecv[side] + hb.parity * 3 * hb.count, hb.dsend[side],
                                          bytes, cudaMemcpyDefault, d->sb));
        else if (!d->cuda_aware)
            CS_CUDA_CHECK(cudaMemcpyAsync(hb.hsend[side], hb.dsend[side], bytes,
                                          cudaMemcpyDeviceToHost, d->sb));
    }
    return 0;
}

static int cuda_halo_wait(sgt_state *s, int axis, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    if (d->transport == HALO_NONE) return 0;
    const sgt_layout *L = &s->L;
    halo_buf &hb = d->halo[axis];
    /* The strips are in the buffers (or the neighbour's) once the boundary stream gets here; the
     * interior keeps the GPU busy while the messages travel. */
    const double t0 = cs_now();
    CS_CUDA_CHECK(cudaStreamSynchronize(d->sb));
    const double t1 = cs_now();
    const int peer = d->transport == HALO_PEER;
    void *snd[2][3], *rcv[2][3];
    int landed[2] = {1, 1}, heard[2];
    for (int side = 0; side < 2; side++) {
        snd[side][0] = peer            ? (void *)&landed[side]
                       : d->cuda_aware ? hb.dsend[side]
                                       : hb.hsend[side];
        rcv[side][0] = peer            ? (void *)&heard[side]
                       : d->cuda_aware ? hb.drecv[side]
                                       : hb.hrecv[side];
    }
    CS_CALL(err, sgt_comm_post(s->comm, axis, 1, snd, rcv, peer ? 1 : (int)(3 * hb.count),
                               peer ? MPI_INT : MPI_FLOAT, err));
    CS_CALL(err, sgt_comm_wait(s->comm, err));
    d->wait_strips_s += t1 - t0, d->wait_msgs_s += cs_now() - t1, d->exchanges++;
    const float *from[2] = {hb.drecv[0], hb.drecv[1]};
    for (int side = 0; side < 2; side++) {
        if (!L->nbr[axis][side]) continue;
        if (peer)
            from[side] += hb.parity * 3 * hb.count;
        else if (!d->cuda_aware)
            CS_CUDA_CHECK(cudaMemcpyAsync(hb.drecv[side], hb.hrecv[side],
                                          hb.count * 3 * sizeof(float), cudaMemcpyHostToDevice,
                                          d->sb));
        strip t = strip_of(L, axis, side, 1);
        for (int c = 0; c < 3; c++)
            CS_CUDA_CHECK(cudaMemcpy2DAsync(d->kp.v[0][c] + t.offset, t.pitch * sizeof(float),
                                            from[side] + c * hb.count, t.width * sizeof(float),
                                            t.width * sizeof(float), t.rows,
                                            cudaMemcpyDeviceToDevice, d->sb));
    }
    hb.parity ^= 1;
    return 0;
}

/* The boundary stream waits for everything on the interior stream so far: the next step's
 * strips overwrite what the interior's kernels (stresses, receivers, save points) still read. */
static void boundary_waits_for_interior(dev_state *d) {
    if (!d->split) return;
    cudaEventRecord(d->ev_i, d->si);
    cudaStreamWaitEvent(d->sb, d->ev_i, 0);
}

static int cuda_end_step(sgt_state *s, int n, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    if (d->split) {
        /* The interior stream sees the rims and the halo before the receivers read them. */
        cudaEventRecord(d->ev_b, d->sb);
        cudaStreamWaitEvent(d->si, d->ev_b, 0);
    }
    if (s->nrec)
        receivers_kernel<<<(s->nrec + 127) / 128, 128, 0, d->si>>>(
            d->kp, d->rec, s->nrec, d->rec_prev, d->rec_out, s->nt, n);
    boundary_waits_for_interior(d);
    return check_launch(err, "end of step");
}

/* The device array behind a time-dependent field. */
static float *device_field(dev_state *d, const sgt_field *f) {
    switch (f->kind) {
    case SGT_FIELD_V:
        return d->kp.v[0][f->comp];
    case SGT_FIELD_S:
        return d->kp.s[0][f->comp];
    case SGT_FIELD_R:
        return d->kp.r[0][f->comp];
    case SGT_FIELD_PSI:
        return d->slab[f->slab].psi[f->comp];
    case SGT_FIELD_REC_PREV:
        return d->rec_prev;
    case SGT_FIELD_REC_OUT:
        return d->rec_out;
    }
    return NULL;
}

static int cuda_field(sgt_state *s, const sgt_field *f, float *buf, int to_backend, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    float *dp = device_field(d, f);
    if (!dp) return cs_error_set(err, CS_ERR_INTERNAL, "no device array for field %s", f->name);
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    if (to_backend)
        CS_CUDA_CHECK(
            cudaMemcpy(dp, buf, (size_t)f->count * sizeof(float), cudaMemcpyHostToDevice));
    else
        CS_CUDA_CHECK(
            cudaMemcpy(buf, dp, (size_t)f->count * sizeof(float), cudaMemcpyDeviceToHost));
    return 0;
}

/* The batch is [sample][point][6]; the output wants time fastest. Each thread takes whole
 * series, so its writes are contiguous runs of `count` samples. */
static void transpose_batch(sgt_state *s, const float *hb, int m0, int count) {
    const long per = s->npoints * 6;
    const int w = s->out_window, t0 = m0 - s->out_m0;
    float *out = s->out;
#pragma omp parallel for schedule(static)
    for (long q = 0; q < per; q++)
        for (int b = 0; b < count; b++)
            out[q * w + t0 + b] = hb[(long)b * per + q];
}

static float *batch_buffer(dev_state *d, int which) {
    return which ? d->batch2 : d->batch;
}

static void *flush_worker(void *arg) {
    dev_state *d = (dev_state *)arg;
    cudaError_t e = cudaEventSynchronize(d->ev_copied[d->job_buf]);
    if (e != cudaSuccess) {
        snprintf(d->worker_msg, sizeof d->worker_msg, "copying saved strain to the host: %s",
                 cudaGetErrorString(e));
        d->worker_rc = -1;
        return NULL;
    }
    transpose_batch(d->job_state, d->host_batch, d->job_m0, d->job_count);
    return NULL;
}

/* Waits for the flush in flight, if any. */
static int flush_wait(dev_state *d, cs_error *err) {
    if (!d->worker_running) return 0;
    pthread_join(d->worker, NULL);
    d->worker_running = 0;
    if (d->worker_rc) return cs_error_set(err, CS_ERR_RESOURCE, "%s", d->worker_msg);
    return 0;
}

/* Starts copying the full batch to the host (after the save kernels that filled it) and its
 * transpose; the saves go on into the other batch once its own copy has left it. */
static int flush_start(sgt_state *s, dev_state *d, cs_error *err) {
    CS_CALL(err, flush_wait(d, err)); /* the host buffer is free again */
    const long per = s->npoints * 6;
    CS_CUDA_CHECK(cudaEventRecord(d->ev_saved, d->si));
    CS_CUDA_CHECK(cudaStreamWaitEvent(d->sc, d->ev_saved, 0));
    CS_CUDA_CHECK(cudaMemcpyAsync(d->host_batch, batch_buffer(d, d->cur),
                                  (size_t)per * d->filled * sizeof(float), cudaMemcpyDeviceToHost,
                                  d->sc));
    CS_CUDA_CHECK(cudaEventRecord(d->ev_copied[d->cur], d->sc));
    d->job_state = s, d->job_m0 = d->first_m, d->job_count = d->filled, d->job_buf = d->cur;
    d->worker_rc = 0;
    if (pthread_create(&d->worker, NULL, flush_worker, d))
        return cs_error_set(err, CS_ERR_RESOURCE, "cannot start the thread that saves strain");
    d->worker_running = 1;
    d->first_m += d->filled;
    d->filled = 0;
    d->cur ^= 1;
    CS_CUDA_CHECK(cudaStreamWaitEvent(d->si, d->ev_copied[d->cur], 0));
    return 0;
}

/* Everything saved so far in the output: the flush in flight, then what the current batch
 * holds (synchronously). */
static int flush_all(sgt_state *s, dev_state *d, cs_error *err) {
    int rc = flush_wait(d, err);
    if (rc || !d->filled) return rc;
    const long per = s->npoints * 6;
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    CS_CUDA_CHECK(cudaMemcpy(d->host_batch, batch_buffer(d, d->cur),
                             (size_t)per * d->filled * sizeof(float), cudaMemcpyDeviceToHost));
    transpose_batch(s, d->host_batch, d->first_m, d->filled);
    d->first_m += d->filled;
    d->filled = 0;
    return 0;
}

static int cuda_save(sgt_state *s, int m, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    if (!s->npoints || m >= s->nt_out) return 0;
    long n6 = s->npoints * 6;
    if (d->filled == 0) d->first_m = m;
    save_kernel<<<(unsigned)((s->npoints + 127) / 128), 128, 0, d->si>>>(
        d->kp, d->pts, s->npoints, d->slotf, batch_buffer(d, d->cur) + (long)d->filled * n6);
    boundary_waits_for_interior(d);
    CS_CALL(err, check_launch(err, "save"));
    d->filled++;
    if (d->filled == d->nb) return flush_start(s, d, err);
    return 0;
}

static int cuda_drain(sgt_state *s, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    return flush_all(s, d, err);
}

static int cuda_finish(sgt_state *s, cs_error *err) {
    dev_state *d = (dev_state *)s->backend;
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    CS_CALL(err, flush_all(s, d, err));
    if (d->exchanges)
        cs_info("halo exchanges: %ld, the host waited %.3f s for the strips, %.3f s for the "
                "messages",
                d->exchanges, d->wait_strips_s, d->wait_msgs_s);
    if (s->nrec)
        CS_CUDA_CHECK(cudaMemcpy(s->rec_out, d->rec_out,
                                 (size_t)s->nrec * 3 * s->nt * sizeof(float),
                                 cudaMemcpyDeviceToHost));
    return 0;
}

static void cuda_teardown(sgt_state *s) {
    dev_state *d = (dev_state *)s->backend;
    if (!d) return;
    cs_error ignored;
    flush_wait(d, &ignored);
    if (d->sc) {
        cudaStreamDestroy(d->sc);
        cudaEventDestroy(d->ev_saved);
        cudaEventDestroy(d->ev_copied[0]), cudaEventDestroy(d->ev_copied[1]);
    }
    kparams &k = d->kp;
    const int sh = d->field_shift;
    for (int c = 0; c < 3; c++)
        free_shifted(k.v[0][c], sh);
    for (int c = 0; c < 6; c++)
        free_shifted(k.s[0][c], sh), free_shifted(k.r[0][c], sh);
    free_shifted(k.rho, sh), free_shifted(k.lam, sh), free_shifted(k.mu, sh);
    free_shifted(k.bz, sh), free_shifted(k.cz, sh), free_shifted(k.muxy, sh);
    cudaFree((void *)k.ti);
    free_shifted(k.qpw, sh), free_shifted(k.qsw, sh);
    for (int a = 0; a < 3; a++)
        cudaFree(d->an[a]), cudaFree(d->bn[a]), cudaFree(d->ah[a]), cudaFree(d->bh[a]),
            cudaFree(d->damp[a]);
    for (int q = 0; q < d->nslabs; q++)
        for (int c = 0; c < 6; c++)
            cudaFree(d->slab[q].psi[c]);
    cudaFree(d->pts), cudaFree(d->batch), cudaFree(d->batch2), cudaFree(d->slotf),
        cudaFreeHost(d->host_batch);
    cudaFree(d->rec), cudaFree(d->rec_prev), cudaFree(d->rec_out);
    for (int a = 0; a < 2; a++)
        for (int side = 0; side < 2; side++) {
            halo_buf &hb = d->halo[a];
            if (hb.rrecv[side]) cudaIpcCloseMemHandle(hb.rrecv[side]);
            cudaFree(hb.dsend[side]), cudaFree(hb.drecv[side]);
            if (hb.hsend[side]) cudaFreeHost(hb.hsend[side]);
            if (hb.hrecv[side]) cudaFreeHost(hb.hrecv[side]);
        }
    if (d->split) {
        cudaStreamDestroy(d->sb), cudaStreamDestroy(d->si);
        cudaEventDestroy(d->ev_vb), cudaEventDestroy(d->ev_b), cudaEventDestroy(d->ev_i);
    }
    free(d);
    s->backend = NULL;
}

/* ---- Benchmark entry points (bench/sgt_gpu_bench.c): the solver's own kernels on a grid
 * allocated directly on the device. ---- */

__global__ void fill_kernel(float *a, long n, float base, float amp, unsigned seed) {
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < n;
         q += (long)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)q * 2654435761u + seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        a[q] = base + amp * ((x & 0xffffff) / 16777216.0f - 0.5f);
    }
}

__global__ void copy_kernel(const float4 *__restrict__ a, float4 *__restrict__ b, long n4) {
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < n4;
         q += (long)gridDim.x * blockDim.x)
        b[q] = a[q];
}

/* Copy through ns source and ns destination arrays at once (2 ns streams), float4 each. */
#define COPY_MAX_STREAMS 16
struct stream_set {
    const float4 *src[COPY_MAX_STREAMS];
    float4 *dst[COPY_MAX_STREAMS];
};
template <int NS> __global__ void copy_streams_kernel(stream_set a, long n4) {
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < n4;
         q += (long)gridDim.x * blockDim.x)
#pragma unroll
        for (int s = 0; s < NS; s++)
            a.dst[s][q] = a.src[s][q];
}

/* Copy bandwidth (read + write, GB/s) of `gbytes` moved as ns sources and ns destinations:
 * how the device's bandwidth falls as the number of concurrent streams grows, which is what
 * the updates do (20 to 31 arrays in one kernel). */
extern "C" int sgt_cuda_copy_streams_bench(double gbytes, int ns, double *gbps, cs_error *err) {
    if (ns != 1 && ns != 4 && ns != 8 && ns != 16)
        return cs_error_set(err, CS_ERR_USAGE, "streams must be 1, 4, 8 or 16");
    const long n4 = (long)(gbytes * 1e9 / 2 / 16 / ns);
    float4 *buf;
    CS_CUDA_CHECK(cudaMalloc((void **)&buf, (size_t)n4 * 16 * 2 * ns));
    fill_kernel<<<4096, 256>>>((float *)buf, 4 * n4 * 2 * ns, 1.0f, 0.5f, 7u);
    stream_set a;
    for (int s = 0; s < ns; s++)
        a.src[s] = buf + (long)s * n4, a.dst[s] = buf + (long)(ns + s) * n4;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    double best = 1e30;
    for (int r = 0; r < 8; r++) {
        cudaEventRecord(e0);
        if (ns == 1) copy_streams_kernel<1><<<132 * 16, 256>>>(a, n4);
        if (ns == 4) copy_streams_kernel<4><<<132 * 16, 256>>>(a, n4);
        if (ns == 8) copy_streams_kernel<8><<<132 * 16, 256>>>(a, n4);
        if (ns == 16) copy_streams_kernel<16><<<132 * 16, 256>>>(a, n4);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (r > 1 && ms < best) best = ms;
    }
    int rc = check_launch(err, "copy streams");
    cudaFree(buf);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    *gbps = 2.0 * ns * n4 * 16 / (best * 1e-3) / 1e9;
    return rc;
}

/* The streaming ceiling in an interleaved layout: each field stored in chunks of 32 points,
 * the chunks of a group of fields side by side (material: rho, lam, mu, qpw, qsw; velocities;
 * stresses and memory variables), so one update reads 3 streams instead of 20 to 31. The same
 * values read and written per point as the viscoelastic updates, no neighbours. */
__global__ void interleaved_velocity_kernel(const float *mat, const float *sr, float *v, long nc,
                                            float dt) {
    const int lane = threadIdx.x & 31;
    for (long c = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32; c < nc;
         c += (long)gridDim.x * blockDim.x / 32) {
        const float *m = mat + c * 5 * 32 + lane, *s = sr + c * 12 * 32 + lane;
        float *w = v + c * 3 * 32 + lane;
        const float b = 1.0f / __ldg(m);
        w[0] += dt * (s[0] + s[96]) * b;
        w[32] += dt * (s[32] + s[128]) * b;
        w[64] += dt * (s[64] + s[160]) * b;
    }
}
__global__ void interleaved_stress_kernel(const float *mat, float *sr, const float *v, long nc,
                                          float dt, float qa, float qb) {
    const int lane = threadIdx.x & 31;
    for (long c = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32; c < nc;
         c += (long)gridDim.x * blockDim.x / 32) {
        const float *m = mat + c * 5 * 32 + lane, *w = v + c * 3 * 32 + lane;
        float *b = sr + c * 12 * 32 + lane;
        float *s6[6] = {b, b + 32, b + 64, b + 96, b + 128, b + 160};
        float *r6[6] = {b + 192, b + 224, b + 256, b + 288, b + 320, b + 352};
        const float l = __ldg(m + 32), mu = __ldg(m + 64);
        const float d[9] = {w[0], w[32], w[64], w[0], w[32], w[64], w[0], w[32], w[64]};
        sgt_stress_point(s6, r6, 0, l, mu, mu, mu, mu, 0.0f, 0.0f, __ldg(m + 96), __ldg(m + 128),
                         qa, qb, d, dt);
    }
}

/* Seconds per step (both updates) of the interleaved ceiling over n points. */
extern "C" int sgt_cuda_interleaved_bench(long n, int steps, double *sec_per_step, cs_error *err) {
    const long nc = (n + 31) / 32;
    float *buf;
    CS_CUDA_CHECK(cudaMalloc((void **)&buf, (size_t)nc * 32 * 20 * sizeof(float)));
    float *mat = buf, *v = buf + nc * 32 * 5, *sr = v + nc * 32 * 3;
    fill_kernel<<<4096, 256>>>(mat, nc * 32 * 5, 2.0e4f, 1.0e3f, 1u);
    fill_kernel<<<4096, 256>>>(v, nc * 32 * 15, 0.0f, 1e-3f, 2u);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    for (int pass = 0; pass < 2; pass++) {
        cudaEventRecord(e0);
        for (int st = 0; st < (pass ? steps : 2); st++) {
            interleaved_velocity_kernel<<<132 * 8, 256>>>(mat, sr, v, nc, 0.004f);
            interleaved_stress_kernel<<<132 * 8, 256>>>(mat, sr, v, nc, 0.004f, 0.99f, 0.01f);
        }
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
    }
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    int rc = check_launch(err, "interleaved");
    cudaFree(buf);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    *sec_per_step = ms * 1e-3 / steps;
    return rc;
}

extern "C" int sgt_cuda_copy_bench(double gbytes, double *gbps, cs_error *err) {
    long n4 = (long)(gbytes * 1e9 / 2 / 16);
    float4 *a, *b;
    CS_CUDA_CHECK(cudaMalloc((void **)&a, (size_t)n4 * 16));
    CS_CUDA_CHECK(cudaMalloc((void **)&b, (size_t)n4 * 16));
    fill_kernel<<<4096, 256>>>((float *)a, 4 * n4, 1.0f, 0.5f, 7u);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    double best = 1e30;
    for (int r = 0; r < 12; r++) {
        cudaEventRecord(e0);
        copy_kernel<<<132 * 16, 256>>>(a, b, n4);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (r > 1 && ms < best) best = ms; /* the first two warm up */
    }
    int rc = check_launch(err, "copy");
    cudaFree(a), cudaFree(b);
    *gbps = 2.0 * n4 * 16 / (best * 1e-3) / 1e9;
    return rc;
}

/* The streaming ceiling of the updates: the same arrays read and written at each point as the
 * velocity and stress kernels (10 read, 3 written; 19 read, 12 written viscoelastic), with the
 * same launch shape, but no neighbours: what a stencil kernel in this layout could reach if its
 * neighbour reads cost nothing. */
__global__ void stream_velocity_kernel(kparams k, int planes, kreg r) {
    int kk, j, ia, ib;
    if (!thread_cell(k, planes, r, TJ, &kk, &j, &ia, &ib)) return;
    float *const *sg = k.s[0];
    for (int i = ia; i < ib; i++) {
        const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
        const float b = 1.0f / __ldg(k.rho + p);
        k.v[0][0][p] += k.dt * (sg[0][p] + sg[3][p]) * b;
        k.v[0][1][p] += k.dt * (sg[1][p] + sg[4][p]) * b;
        k.v[0][2][p] += k.dt * (sg[2][p] + sg[5][p]) * b;
    }
}
__global__ void stream_stress_kernel(kparams k, int planes, kreg r) {
    int kk, j, ia, ib;
    if (!thread_cell(k, planes, r, TJ, &kk, &j, &ia, &ib)) return;
    for (int i = ia; i < ib; i++) {
        const long p = (long)(i + k.halo) * k.sx + (long)(j + k.halo) * k.sy + (kk + k.gz);
        const float l = __ldg(k.lam + p), m = __ldg(k.mu + p);
        const float wp = k.visco ? __ldg(k.qpw + p) : 0.0f, ws = k.visco ? __ldg(k.qsw + p) : 0.0f;
        const float a = k.v[0][0][p], b = k.v[0][1][p], c = k.v[0][2][p];
        const float d[9] = {a, b, c, a, b, c, a, b, c};
        sgt_stress_point(k.s[0], k.visco ? k.r[0] : NULL, p, l, m, m, m, m, 0.0f, 0.0f, wp, ws,
                         k.qa[0], k.qb[0], d, k.dt);
    }
}

static int bench_align = -1, bench_pad = 32, bench_interleave = 0;
/* The layout of the benchmark grids: where the warps of a row start (sgt_gpu_rows.h), z rows padded
 * to a multiple of pad floats (the solver pads to 32 on the GPU), and the arrays apart or
 * interleaved by rows (every array's row (i, j) side by side: each array is then a strided
 * array whose y and x strides are narr times larger, so the kernels run unchanged). */
extern "C" void sgt_cuda_bench_layout(int align, int pad, int interleave) {
    bench_align = align, bench_pad = pad, bench_interleave = interleave;
}

/* Fills nrows rows of sy floats, `pitch` floats apart, with random values about base. */
__global__ void fill_rows_kernel(float *a, long nrows, long sy, long pitch, float base, float amp,
                                 unsigned seed) {
    const long n = nrows * sy;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < n;
         q += (long)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)q * 2654435761u + seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        a[(q / sy) * pitch + q % sy] = base + amp * ((x & 0xffffff) / 16777216.0f - 0.5f);
    }
}

/* A benchmark grid allocated on the device in one block: nf wavefields (velocities, stresses,
 * memory variables when visco) sharing one material, all filled with random values (never
 * zeros), the same values for the same arguments whatever the layout. */
static int bench_grid(int nx, int ny, int nz, int visco, int nf, kparams *kp, float **all,
                      double *gbytes, cs_error *err) {
    kparams &k = *kp;
    memset(&k, 0, sizeof k);
    k.halo = 2, k.gz = 2, k.lnx = nx, k.lny = ny, k.nz = nz;
    int shift;
    sgt_gpu_row_alignment(bench_align, nz, k.gz, &k.zshift, &shift);
    const long sy = ((nz + 4) + bench_pad - 1) / bench_pad * bench_pad;
    const long nrows = (long)(nx + 4) * (ny + 4), n = nrows * sy;
    const int narr = 6 + (visco ? 2 : 0) + nf * (9 + (visco ? 6 : 0));
    const long pitch = bench_interleave ? narr * sy : sy;
    k.sy = pitch;
    k.sx = (long)(ny + 4) * k.sy;
    k.ih = 1.0f / 100.0f, k.dt = 0.004f, k.h = 100.0f, k.fs = 1, k.visco = visco;
    for (int l = 0; l < SGT_Q_NMECH; l++)
        k.qa[l] = 0.99f - 0.01f * l, k.qb[l] = 0.01f + 0.01f * l;
    *gbytes = (double)narr * n * 4 / 1e9;
    CS_CUDA_CHECK(cudaMalloc((void **)all, (size_t)(narr * n + shift) * sizeof(float)));
    int idx = 0;
    /* array number idx, filled */
    auto field = [&](float base, float amp, unsigned seed) {
        float *f = *all + shift + (bench_interleave ? idx * sy : idx * n);
        idx++;
        fill_rows_kernel<<<4096, 256>>>(f, nrows, sy, pitch, base, amp, seed);
        return f;
    };
    k.rho = field(2700.0f, 200.0f, 1u);
    k.lam = field(3.0e10f, 1.0e9f, 2u);
    k.mu = field(3.0e10f, 1.0e9f, 3u);
    k.bz = field(3.7e-4f, 2.0e-5f, 6u);
    k.cz = field(3.3e-11f, 1.0e-12f, 7u);
    k.muxy = field(3.0e10f, 1.0e9f, 8u);
    /* no layered cells: what a run with a 1D model pays for reading them */
    float *ti = NULL;
    CS_CUDA_CHECK(cudaMalloc((void **)&ti, (size_t)(nz + 2 * k.gz) * sizeof(float)));
    CS_CUDA_CHECK(cudaMemset(ti, 0, (size_t)(nz + 2 * k.gz) * sizeof(float)));
    k.ti = ti;
    if (visco) {
        k.qpw = field(0.05f, 0.01f, 4u);
        k.qsw = field(0.08f, 0.01f, 5u);
    }
    for (int f = 0; f < nf; f++) {
        for (int c = 0; c < 3; c++)
            k.v[f][c] = field(0.0f, 1e-3f, 10u + f * 20 + c);
        for (int c = 0; c < 6; c++)
            k.s[f][c] = field(0.0f, 1e5f, 30u + f * 20 + c);
        if (visco)
            for (int c = 0; c < 6; c++)
                k.r[f][c] = field(0.0f, 1e2f, 50u + f * 20 + c);
    }
    return check_launch(err, "benchmark fill");
}

/* tj: the block height (blocks of 32 x tj threads); tiled: 1 for the shared-memory kernels, -1
 * for the streaming ceiling. Times per step: both kernels, and the
 * velocity and stress kernels alone (sec_kernel[0], [1]; nf 1; not timed when sec_kernel is
 * NULL). */
extern "C" int sgt_cuda_kernel_bench(int nx, int ny, int nz, int visco, int nf, int steps,
                                     int planes, int tj, int tiled, double *sec_per_step,
                                     double sec_kernel[2], double *gbytes, cs_error *err) {
    if (nf < 1 || nf > SGT_NF_MAX)
        return cs_error_set(err, CS_ERR_USAGE, "nf must be 1 to %d", SGT_NF_MAX);
    if (tiled && nf != 1)
        return cs_error_set(err, CS_ERR_USAGE, "the tiled kernels update one wavefield");
    int rc = 0;
    CS_CALL(err, choose_device(err));
    kparams k;
    float *all;
    CS_CALL(err, bench_grid(nx, ny, nz, visco, nf, &k, &all, gbytes, err));
    const kreg whole = kbox(k, 0, nx, 0, ny, 0, nz);
    for (int pass = 0; pass < (sec_kernel ? 4 : 2); pass++) {
        /* pass 0 warms up; 1 times both kernels; 2 the velocity kernel, 3 the stress kernel (when
         * sec_kernel is given) */
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0), cudaEventCreate(&e1);
        cudaEventRecord(e0);
        for (int st = 0; st < (pass ? steps : 2); st++)
            for (int which = 0; which < 2; which++) {
                if ((pass == 2 && which == 1) || (pass == 3 && which == 0)) continue;
                if (nf == 3 && which == 0) launch_plain_velocity<3>(k, planes, 8, whole, 0);
                if (nf == 3 && which == 1) launch_plain_stress<3>(k, planes, 8, whole, 0);
                if (nf == 3) continue;
                if (tiled < 0) {
                    dim3 g = grid_of(k, whole, planes, TJ);
                    if (which == 0) stream_velocity_kernel<<<g, dim3(TK, TJ)>>>(k, planes, whole);
                    if (which == 1) stream_stress_kernel<<<g, dim3(TK, TJ)>>>(k, planes, whole);
                } else {
                    launch_update(k, tiled, planes, tj, whole, which, 0);
                }
            }
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (pass == 1) *sec_per_step = ms * 1e-3 / steps;
        if (pass >= 2) sec_kernel[pass - 2] = ms * 1e-3 / steps;
        cudaEventDestroy(e0), cudaEventDestroy(e1);
        if (nf == 3 && pass == 1) break;
    }
    rc = check_launch(err, "benchmark kernels");
    cudaFree(all), cudaFree((void *)k.ti);
    return rc;
}

/* The GPU's approximate material division (sgt_mdiv) against the host's exact one: harmonic
 * means and buoyancies of n value sets spread over 1e9..1e11 and 1000..4000 (moduli and
 * densities), and a mean with a zero modulus, which must be exactly 0. */
__host__ __device__ static void mdiv_case(int q, float out[3]) {
    const float a = 1e9f + 1e11f * (q % 997) / 997.0f, b = 1e9f + 1e11f * (q % 991) / 991.0f;
    out[0] = sgt_harm4(a, b, a * 0.5f + b, b * 1.5f);
    out[1] = sgt_buoyancy(1000.0f + 3.0f * (q % 1000), 1500.0f + 2.0f * (q % 997));
    out[2] = sgt_harm4(a, 0.0f, b, a);
}
__global__ void mdiv_check_kernel(float *out, int n) {
    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < n; q += gridDim.x * blockDim.x)
        mdiv_case(q, out + 3 * q);
}
extern "C" int sgt_cuda_mdiv_check(double *worst_rel, int *zero_ok, cs_error *err) {
    int rc = 0;
    CS_CALL(err, choose_device(err));
    const int n = 100000;
    float *d, *h = (float *)malloc((size_t)n * 3 * sizeof(float));
    if (!h) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    CS_CUDA_CHECK(cudaMalloc((void **)&d, (size_t)n * 3 * sizeof(float)));
    mdiv_check_kernel<<<256, 256>>>(d, n);
    rc = check_launch(err, "mdiv check");
    if (!rc) CS_CUDA_CHECK(cudaMemcpy(h, d, (size_t)n * 3 * sizeof(float), cudaMemcpyDeviceToHost));
    cudaFree(d);
    *worst_rel = 0, *zero_ok = 1;
    for (int q = 0; q < n && !rc; q++) {
        float e[3]; /* the host's exact division */
        mdiv_case(q, e);
        for (int c = 0; c < 2; c++) {
            const double rel = fabs((double)h[3 * q + c] - e[c]) / fabs((double)e[c]);
            if (!(rel <= *worst_rel)) *worst_rel = rel;
        }
        if (h[3 * q + 2] != 0.0f) *zero_ok = 0;
    }
    free(h);
    return rc;
}

/* The tiled kernels against the plain ones: the same grid updated `steps` times by each, over
 * the region [i0, nx - i1) x [j0, ny - j1) (so blocks overhang it), then every field compared.
 * Returns the largest relative L2 difference over the fields in *worst. */
extern "C" int sgt_cuda_kernel_check(int nx, int ny, int nz, int visco, int steps, int planes,
                                     int tj, int tiled, const int margin[4], double *worst,
                                     cs_error *err) {
    int rc = 0;
    CS_CALL(err, choose_device(err));
    kparams a, b;
    float *all_a, *all_b;
    double g;
    CS_CALL(err, bench_grid(nx, ny, nz, visco, 1, &a, &all_a, &g, err));
    CS_CALL(err, bench_grid(nx, ny, nz, visco, 1, &b, &all_b, &g, err));
    const kreg reg = kbox(a, margin[0], nx - margin[1], margin[2], ny - margin[3], 0, nz);
    for (int st = 0; st < steps; st++) {
        launch_update(a, 0, planes, tj, reg, 0, 0), launch_update(a, 0, planes, tj, reg, 1, 0);
        launch_update(b, tiled, planes, tj, reg, 0, 0),
            launch_update(b, tiled, planes, tj, reg, 1, 0);
    }
    rc = check_launch(err, "kernel check");
    CS_CUDA_CHECK(cudaDeviceSynchronize());
    const long n = (long)(nx + 4) * a.sx;
    float *ha = (float *)malloc((size_t)n * sizeof(float)),
          *hb = (float *)malloc((size_t)n * sizeof(float));
    if (!ha || !hb) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    *worst = 0;
    const int nfld = visco ? 15 : 9;
    for (int f = 0; f < nfld && !rc; f++) {
        const float *pa = f < 3 ? a.v[0][f] : f < 9 ? a.s[0][f - 3] : a.r[0][f - 9];
        const float *pb = f < 3 ? b.v[0][f] : f < 9 ? b.s[0][f - 3] : b.r[0][f - 9];
        CS_CUDA_CHECK(cudaMemcpy(ha, pa, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
        CS_CUDA_CHECK(cudaMemcpy(hb, pb, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (long q = 0; q < n; q++) {
            const double dd = (double)ha[q] - hb[q];
            num += dd * dd, den += (double)ha[q] * ha[q];
        }
        const double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (!(rel <= *worst)) *worst = rel; /* NaN propagates */
    }
    free(ha), free(hb);
    cudaFree(all_a), cudaFree(all_b), cudaFree((void *)a.ti), cudaFree((void *)b.ti);
    return rc;
}

static const sgt_backend cuda_backend = {"cuda",         1,
                                         cuda_setup,     cuda_velocity,
                                         cuda_stress,    cuda_halo_post,
                                         cuda_halo_wait, cuda_end_step,
                                         cuda_save,      cuda_finish,
                                         cuda_field,     cuda_teardown,
                                         cuda_drain};

extern "C" const sgt_backend *sgt_backend_cuda(void) {
    return &cuda_backend;
}
