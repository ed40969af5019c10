/* GPU benchmark of the SGT solver's kernels (the velocity and stress updates of sgt_cuda.cu) on
 * a grid of at least `--gb` gigabytes, beside the device's copy bandwidth measured in the same
 * process. Reports grid-point updates per second (LUPS) and the effective bandwidth under
 * the byte counts of docs/performance.md (120 bytes per update elastic, 184 viscoelastic), for the
 * plain and the tiled (shared-memory) kernels, block shapes and numbers of x planes per thread
 * block, and the same kernels updating three wavefields that share one material load (three force
 * components in one pass) against one. Before timing, the tiled kernels are checked against the
 * plain ones on small odd-sized grids (they must agree to 1e-6; the benchmark stops otherwise).
 * Usage: sgt_gpu_bench [--gb 20] [--steps 20] [--nz 384] [--check-only 1]
 *        sgt_gpu_bench --only elastic|viscoelastic [--planes 16] [--variant 8 (block height)]
 *                      [--tiled 0|1] [--align 0|1|2, -1 automatic (sgt_gpu_rows.h)] [--pad 32] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_error.h"
#include "sgt_cuda_bench.h"

/* Tiled against plain on grids whose sizes are no multiple of the block or of the planes per
 * block, over the whole grid and over a region with margins (blocks overhanging it). Both use
 * the same formula functions, so they should agree to float round-off at most; 1e-6 leaves room
 * for the compiler contracting one expression differently in the two kernels. */
static int check_tiled(void) {
    const int margins[2][4] = {{0, 0, 0, 0}, {3, 2, 5, 1}};
    int bad = 0;
    for (int visco = 0; visco < 2; visco++)
        for (int tj = 8; tj <= 16; tj += 8)
            for (int m = 0; m < 2; m++) {
                double worst;
                cs_error e;
                cs_error_clear(&e);
                if (sgt_cuda_kernel_check(101, 75, 70, visco, 12, 16, tj, 1, margins[m], &worst,
                                          &e)) {
                    fprintf(stderr, "sgt_gpu_bench: %s\n", e.message);
                    return 1;
                }
                const int ok = worst <= 1e-6;
                printf("gpu-check tiled vs plain %s block=32x%d grid=101x75x70 12 steps "
                       "region=%s worst_relative_L2=%.3g %s\n",
                       visco ? "viscoelastic" : "elastic", tj, m ? "inner" : "whole", worst,
                       ok ? "ok" : "FAILED (bound 1e-6)");
                bad += !ok;
            }
    return bad != 0;
}

/* The GPU's approximate division of the material factors against the host's exact one: within
 * 8 units in the last place (1e-6 relative: up to 2 for each approximate reciprocal and the
 * final division, and the sums rounded differently), and a zero modulus giving a zero mean as on
 * the host. */
static int check_mdiv(void) {
    double worst;
    int zero_ok;
    cs_error e;
    cs_error_clear(&e);
    if (sgt_cuda_mdiv_check(&worst, &zero_ok, &e)) {
        fprintf(stderr, "sgt_gpu_bench: %s\n", e.message);
        return 1;
    }
    const int ok = worst <= 1e-6 && zero_ok;
    printf("gpu-check material division (approximate on the GPU) vs host worst_relative=%.3g "
           "zero_modulus_gives_zero=%s %s\n",
           worst, zero_ok ? "yes" : "NO", ok ? "ok" : "FAILED (bound 1e-6)");
    return !ok;
}

/* The side in x and y of a square grid nz deep whose arrays for one wavefield (material,
 * velocities, stresses, and for visco the Q weights and memory variables) take at least gb GB. */
static int grid_side(double gb, int visco, int nz) {
    const double arrays = 3 + (visco ? 2 : 0) + 9 + (visco ? 6 : 0);
    return (int)ceil(sqrt(gb * 1e9 / (arrays * 4.0 * (nz + 4)))) + 4;
}

static int fail(const cs_error *e) {
    fprintf(stderr, "sgt_gpu_bench: %s\n", e->message);
    return 1;
}

int main(int argc, char **argv) {
    double gb = 20;
    int steps = 20, nz = 384, only = -1, only_planes = 0, variant = 8, tiled = 0, check_only = 0;
    int row_align = -1, row_pad = 32;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--gb"))
            gb = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--steps"))
            steps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--nz"))
            nz = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--only"))
            only = !strcmp(argv[a + 1], "viscoelastic");
        else if (!strcmp(argv[a], "--planes"))
            only_planes = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--variant"))
            variant = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--tiled"))
            tiled = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--align"))
            row_align = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--pad"))
            row_pad = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--check-only"))
            check_only = atoi(argv[a + 1]);
    }
    if (only < 0 && (check_tiled() || check_mdiv())) return 1;
    if (check_only) return 0;
    if (only >= 0) {
        /* One case only, for profilers and layout experiments. */
        sgt_cuda_bench_layout(row_align, row_pad, 0);
        double sec, sk[2], g;
        const int nxy = grid_side(gb, only, nz);
        cs_error e1;
        if (sgt_cuda_kernel_bench(nxy, nxy, nz, only, 1, steps, only_planes ? only_planes : 16,
                                  variant, tiled, &sec, sk, &g, &e1))
            return fail(&e1);
        printf("%s %s block=32x%d grid=%dx%dx%d time_per_step=%.2fms (velocity %.2f, stress "
               "%.2f) LUPS=%.2fG\n",
               only ? "viscoelastic" : "elastic", tiled ? "tiled" : "plain", variant, nxy, nxy, nz,
               sec * 1e3, sk[0] * 1e3, sk[1] * 1e3, (double)nxy * nxy * nz / sec / 1e9);
        return 0;
    }
    cs_error e;
    cs_error_clear(&e);
    double copy;
    if (sgt_cuda_copy_bench(16, &copy, &e)) return fail(&e);
    printf("gpu-copy buffers=2x8GB bandwidth=%.0fGB/s (read+write)\n", copy);
    const int nss[4] = {1, 4, 8, 16};
    for (int q = 0; q < 4; q++) {
        double bw;
        if (sgt_cuda_copy_streams_bench(16, nss[q], &bw, &e)) return fail(&e);
        printf("gpu-copy-streams streams=%d (%d read, %d written) bandwidth=%.0fGB/s "
               "fraction_of_copy=%.0f%%\n",
               2 * nss[q], nss[q], nss[q], bw, 100 * bw / copy);
    }
    const int planes[4] = {1, 4, 16, 64};
    for (int visco = 0; visco < 2; visco++) {
        const int nxy = grid_side(gb, visco, nz);
        double bytes = visco ? 184 : 120;
        double best_lups = 0, best_any = 0;
        int best_p = 0, best_name = 0, best_any_p = 0, best_tiled = 0;
        /* Plain kernels in blocks 32 x 8, 4, 16, tiled in 32 x 8, 16, the streaming ceiling;
         * runs of x planes. */
        const int variants[6] = {8, 4, 16, 8, 16, 8}, is_tiled[6] = {0, 0, 0, 1, 1, -1};
        const char *names[3] = {"stream-ceiling", "plain", "tiled"};
        for (int vq = 0; vq < 6; vq++)
            for (int q = 0; q < 4; q++) {
                double sec, sk[2], g;
                if (is_tiled[vq] && planes[q] < 16) continue; /* the rings need a run to pay */
                if (sgt_cuda_kernel_bench(nxy, nxy, nz, visco, 1, steps, planes[q], variants[vq],
                                          is_tiled[vq], &sec, sk, &g, &e))
                    return fail(&e);
                double lups = (double)nxy * nxy * nz / sec;
                printf(
                    "gpu-%s kernel=%s block=32x%d grid=%dx%dx%d arrays=%.1fGB planes_per_block=%d "
                    "time_per_step=%.2fms (velocity %.2f, stress %.2f) LUPS=%.2fG "
                    "effective_bandwidth=%.0fGB/s (%.0f B/update) fraction_of_copy=%.0f%%\n",
                    visco ? "viscoelastic" : "elastic", names[is_tiled[vq] + 1], variants[vq], nxy,
                    nxy, nz, g, planes[q], sec * 1e3, sk[0] * 1e3, sk[1] * 1e3, lups / 1e9,
                    lups * bytes / 1e9, bytes, 100 * lups * bytes / 1e9 / copy);
                if (is_tiled[vq] < 0) continue;
                if (!is_tiled[vq] && variants[vq] == 8 && lups > best_lups)
                    best_lups = lups, best_p = planes[q];
                if (lups > best_any)
                    best_any = lups, best_name = variants[vq], best_any_p = planes[q],
                    best_tiled = is_tiled[vq];
            }
        if (visco) {
            /* The same bytes in an interleaved layout: 3 streams per update. */
            double sec;
            const long npts = (long)nxy * nxy * nz;
            if (sgt_cuda_interleaved_bench(npts, steps, &sec, &e)) return fail(&e);
            printf("gpu-viscoelastic kernel=interleaved-stream-ceiling points=%ld "
                   "time_per_step=%.2fms LUPS=%.2fG effective_bandwidth=%.0fGB/s "
                   "fraction_of_copy=%.0f%%\n",
                   npts, sec * 1e3, npts / sec / 1e9, npts / sec * bytes / 1e9,
                   100 * npts / sec * bytes / 1e9 / copy);
        }
        /* Where the warps of a row start (0: depth 0, two nodes into a line; 1: the row's
         * first ghost node, on a line; 2: depth 0, on a line, what the solver picks where it
         * saves a warp per row, as at nz = 384), rows padded
         * to 8 or 32 floats; then the arrays interleaved by rows. */
        const int lay_align[6] = {0, 1, 0, 1, 2, 2}, lay_pad[6] = {8, 8, 32, 32, 32, 32};
        for (int lay = 0; lay < 6; lay++) {
            const int align = lay_align[lay], pad = lay_pad[lay], inter = lay == 5;
            for (int ceiling = 0; ceiling < 2; ceiling++) {
                double sec, sk[2], g;
                sgt_cuda_bench_layout(align, pad, inter);
                if (sgt_cuda_kernel_bench(nxy, nxy, nz, visco, 1, steps, 64, 8, ceiling ? -1 : 0,
                                          &sec, sk, &g, &e))
                    return fail(&e);
                double lups = (double)nxy * nxy * nz / sec;
                printf("gpu-%s-layout kernel=%s warps_aligned=%d row_pad=%d interleaved_rows=%d "
                       "time_per_step=%.2fms (velocity %.2f, stress %.2f) LUPS=%.2fG "
                       "fraction_of_copy=%.0f%%\n",
                       visco ? "viscoelastic" : "elastic", ceiling ? "stream-ceiling" : "plain",
                       align, pad, inter, sec * 1e3, sk[0] * 1e3, sk[1] * 1e3, lups / 1e9,
                       100 * lups * bytes / 1e9 / copy);
            }
        }
        sgt_cuda_bench_layout(-1, 32, 0);
        printf("gpu-%s best kernel=%s block=32x%d planes_per_block=%d LUPS=%.2fG "
               "fraction_of_copy=%.0f%%\n",
               visco ? "viscoelastic" : "elastic", best_tiled ? "tiled" : "plain", best_name,
               best_any_p, best_any / 1e9, 100 * best_any * bytes / 1e9 / copy);
        /* Sustained: the best configuration of blocks 32 x 8 for about 30 s. The runs above
         * last a quarter of a second each; over longer runs the H200 holds its 700 W power cap by
         * lowering its clocks (1500-1650 MHz against 1980), and the kernels, which are bound by
         * the L2 fabric's clock-paced throughput more than by DRAM, slow by 1-3%. */
        {
            const double npts = (double)nxy * nxy * nz;
            const int nsus = (int)ceil(30.0 * best_lups / npts);
            double sec, gsus;
            if (sgt_cuda_kernel_bench(nxy, nxy, nz, visco, 1, nsus, best_p, 8, 0, &sec, NULL, &gsus,
                                      &e))
                return fail(&e);
            printf("gpu-%s sustained kernel=plain block=32x8 planes_per_block=%d steps=%d "
                   "seconds=%.1f LUPS=%.2fG fraction_of_copy=%.0f%% (short runs %.2fG)\n",
                   visco ? "viscoelastic" : "elastic", best_p, nsus, sec * nsus, npts / sec / 1e9,
                   100 * npts / sec * bytes / 1e9 / copy, best_lups / 1e9);
        }
        /* Three wavefields sharing the material, on the same grid. */
        double sec3, g3;
        double sk3[2];
        if (sgt_cuda_kernel_bench(nxy, nxy, nz, visco, 3, steps, best_p, 8, 0, &sec3, sk3, &g3, &e))
            return fail(&e);
        double lups3 = 3.0 * nxy * nxy * nz / sec3;
        printf("gpu-%s-3forces grid=%dx%dx%d arrays=%.1fGB planes_per_block=%d "
               "LUPS_per_wavefield=%.2fG vs one wavefield %.2fG (blocks 32 x 8 both): one pass "
               "for three forces is %.1f%% %s\n",
               visco ? "viscoelastic" : "elastic", nxy, nxy, nz, g3, best_p, lups3 / 1e9,
               best_lups / 1e9, 100 * fabs(lups3 / best_lups - 1),
               lups3 > best_lups ? "faster" : "slower");
    }
    /* The grid's depth against the rows' 128-byte lines (sgt_gpu_rows.h): a row of nz nodes and
     * 2 ghost nodes at each end fills whole lines when nz % 32 is 28. Each depth with the
     * automatic alignment and, where that is 2, with alignment 1 beside it; blocks 32 x 8, 16
     * planes. */
    const int depths[6] = {380, 384, 352, 364, 508, 512};
    for (int visco = 0; visco < 2; visco++)
        for (int q = 0; q < 6; q++)
            for (int al = -1; al <= 1; al += 2) {
                const int dz = depths[q];
                if (al == 1 && dz % 32 != 0) continue; /* automatic is 1 there */
                double sec, sk[2], g;
                const int nxy = grid_side(gb, visco, dz);
                sgt_cuda_bench_layout(al, 32, 0);
                if (sgt_cuda_kernel_bench(nxy, nxy, dz, visco, 1, steps, 16, 8, 0, &sec, sk, &g,
                                          &e))
                    return fail(&e);
                double lups = (double)nxy * nxy * dz / sec, bytes = visco ? 184 : 120;
                printf("gpu-%s-depth nz=%d grid=%dx%dx%d alignment=%s LUPS=%.2fG "
                       "fraction_of_copy=%.0f%%\n",
                       visco ? "viscoelastic" : "elastic", dz, nxy, nxy, dz,
                       al < 0 ? (dz % 32 == 0 || dz % 32 == 31 ? "auto(2)" : "auto(1)") : "1",
                       lups / 1e9, 100 * lups * bytes / 1e9 / copy);
            }
    sgt_cuda_bench_layout(-1, 32, 0);
    return 0;
}
