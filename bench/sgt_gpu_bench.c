/* GPU benchmark of the SGT solver's kernels (the velocity and stress updates of sgt_cuda.cu) on
 * a grid of at least `--gb` gigabytes, beside the device's copy bandwidth measured in the same
 * process. Reports grid-point updates per second (LUPS) and the effective bandwidth under
 * DESIGN.md §6's byte counts (120 bytes per update elastic, 184 viscoelastic), for several
 * numbers of x planes per thread block, and the same kernels updating three wavefields that
 * share one material load (three force components in one pass) against one.
 * Usage: sgt_gpu_bench [--gb 20] [--steps 20] [--nz 384] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_error.h"

int sgt_cuda_copy_bench(double gbytes, double *gbps, cs_error *err);
int sgt_cuda_kernel_bench(int nx, int ny, int nz, int visco, int nf, int steps, int planes,
                          int variant, double *sec_per_step, double *gbytes, cs_error *err);

static int fail(const cs_error *e) {
    fprintf(stderr, "sgt_gpu_bench: %s\n", e->message);
    return 1;
}

int main(int argc, char **argv) {
    double gb = 20;
    int steps = 20, nz = 384, only = -1, only_planes = 0, variant = 8;
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
    }
    if (only >= 0) {
        /* One case only, for profilers. */
        double arrays = 3 + (only ? 2 : 0) + 9 + (only ? 6 : 0), sec, g;
        int nxy = (int)ceil(sqrt(gb * 1e9 / (arrays * 4.0 * (nz + 4)))) + 4;
        cs_error e1;
        if (sgt_cuda_kernel_bench(nxy, nxy, nz, only, 1, steps, only_planes ? only_planes : 16,
                                  variant, &sec, &g, &e1))
            return fail(&e1);
        printf("%s grid=%dx%dx%d LUPS=%.2fG\n", only ? "viscoelastic" : "elastic", nxy, nxy, nz,
               (double)nxy * nxy * nz / sec / 1e9);
        return 0;
    }
    cs_error e;
    cs_error_clear(&e);
    double copy;
    if (sgt_cuda_copy_bench(16, &copy, &e)) return fail(&e);
    printf("gpu-copy buffers=2x8GB bandwidth=%.0fGB/s (read+write)\n", copy);
    const int planes[4] = {1, 4, 16, 64};
    for (int visco = 0; visco < 2; visco++) {
        /* Square in x, y, at least gb gigabytes of arrays for one wavefield. */
        double arrays = 3 + (visco ? 2 : 0) + 9 + (visco ? 6 : 0);
        int nxy = (int)ceil(sqrt(gb * 1e9 / (arrays * 4.0 * (nz + 4)))) + 4;
        double bytes = visco ? 184 : 120;
        double best_lups = 0, best_any = 0;
        int best_p = 0, best_name = 0, best_any_p = 0;
        /* Block shapes 32 x 8, 4, 16, and runs of x planes per block. */
        const int variants[3] = {8, 4, 16};
        for (int vq = 0; vq < 3; vq++)
            for (int q = 0; q < 4; q++) {
                double sec, g;
                if (sgt_cuda_kernel_bench(nxy, nxy, nz, visco, 1, steps, planes[q], variants[vq],
                                          &sec, &g, &e))
                    return fail(&e);
                double lups = (double)nxy * nxy * nz / sec;
                printf(
                    "gpu-%s block=32x%d grid=%dx%dx%d arrays=%.1fGB planes_per_block=%d "
                    "time_per_step=%.2fms LUPS=%.2fG effective_bandwidth=%.0fGB/s (%.0f B/update) "
                    "fraction_of_copy=%.0f%%\n",
                    visco ? "viscoelastic" : "elastic", variants[vq], nxy, nxy, nz, g, planes[q],
                    sec * 1e3, lups / 1e9, lups * bytes / 1e9, bytes,
                    100 * lups * bytes / 1e9 / copy);
                if (variants[vq] == 8 && lups > best_lups) best_lups = lups, best_p = planes[q];
                if (lups > best_any)
                    best_any = lups, best_name = variants[vq], best_any_p = planes[q];
            }
        printf("gpu-%s best block=32x%d planes_per_block=%d LUPS=%.2fG fraction_of_copy=%.0f%%\n",
               visco ? "viscoelastic" : "elastic", best_name, best_any_p, best_any / 1e9,
               100 * best_any * bytes / 1e9 / copy);
        /* Three wavefields sharing the material, on the same grid. */
        double sec3, g3;
        if (sgt_cuda_kernel_bench(nxy, nxy, nz, visco, 3, steps, best_p, 8, &sec3, &g3, &e))
            return fail(&e);
        double lups3 = 3.0 * nxy * nxy * nz / sec3;
        printf("gpu-%s-3forces grid=%dx%dx%d arrays=%.1fGB planes_per_block=%d "
               "LUPS_per_wavefield=%.2fG vs one wavefield %.2fG (blocks 32 x 8 both): one pass "
               "for three forces is %.1f%% %s\n",
               visco ? "viscoelastic" : "elastic", nxy, nxy, nz, g3, best_p, lups3 / 1e9,
               best_lups / 1e9, 100 * fabs(lups3 / best_lups - 1),
               lups3 > best_lups ? "faster" : "slower");
    }
    return 0;
}
