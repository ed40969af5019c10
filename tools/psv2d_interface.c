/* A 2D P-SV study of how a staggered grid holds a layer interface on a node (docs/sgt.md,
 * "Material on the grid"): the solver's vertical scheme (4th-order staggered differences, the
 * free surface's adjusted one-sided differences and images, the surface receiver), LOH.1's layer
 * over half space, a line moment Mxx at 2 km depth with a Gaussian moment rate (sigma 0.06 s at
 * 0.36 s), radial and vertical velocity at the surface 10 km away, every step, to a text file.
 * A sponge (2 km, physical width) absorbs at the sides and bottom. Not part of the toolkit: a
 * check of the rule, written apart from the solver so that it shares no code with it.
 *
 *   cc -O3 -fopenmp -o psv2d tools/psv2d_interface.c -lm
 *   ./psv2d H RULE ORDER2 SECONDS OUT     RULE 0: the cut node's isotropic pair (C11 = C33),
 *                                         1: the layered cell (Backus C11); ORDER2 1: 2nd-order
 *                                         vertical differences where a stencil spans the interface
 *   ./psv2d 6.230529595 0 0 7 ref.txt     the reference: interface half-way between nodes
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C1 1.125f
#define C2 (-0.041666668f)
static const double interface_m = 1000.0;

static void material(double z, double *rho, double *m, double *lam, double *mu) {
    const double vp = z < interface_m ? 4000 : 6000, vs = z < interface_m ? 2000 : 3464;
    *rho = z < interface_m ? 2600 : 2700;
    *m = *rho * vp * vp;
    *mu = *rho * vs * vs;
    *lam = *m - 2 * *mu;
}

/* Means over [a, b] of a 1D model with one interface, exactly (piecewise constant). */
typedef struct {
    double w, rho, inv_m, lam_m, m_lam2, inv_mu;
} sums;
static sums cell(double a, double b) {
    sums s = {0};
    double cut[3] = {a, b, b};
    int n = 1;
    if (interface_m > a && interface_m < b) cut[n++] = interface_m;
    cut[n] = b;
    for (int i = 0; i < n; i++) {
        const double w = cut[i + 1] - cut[i], z = 0.5 * (cut[i] + cut[i + 1]);
        double r, m, l, mu;
        material(z, &r, &m, &l, &mu);
        s.w += w, s.rho += w * r, s.inv_m += w / m, s.lam_m += w * l / m;
        s.m_lam2 += w * (m - l * l / m), s.inv_mu += w / mu;
    }
    return s;
}

static int spans(int o2, double lo, double hi) {
    return o2 && interface_m > lo + 1e-6 && interface_m < hi - 1e-6;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: psv2d H RULE ORDER2 SECONDS OUT [COURANT]\n");
        return 2;
    }
    const double h = atof(argv[1]), T = atof(argv[4]);
    const int layered = atoi(argv[2]), o2 = atoi(argv[3]);
    const double courant = argc > 6 ? atof(argv[6]) : 0.45;
    const double x0 = -4000, x1 = 14000, zmax = 6000, sponge = 2000;
    const int nx = (int)lround((x1 - x0) / h) + 1, nz = (int)lround(zmax / h) + 1, pad = 2;
    const long NZ = nz + 2 * pad, N = (long)(nx + 2 * pad) * NZ;
#define I(i, k) ((long)((i) + pad) * NZ + (k) + pad)
    float *vx = calloc(N, 4), *vz = calloc(N, 4), *sxx = calloc(N, 4), *szz = calloc(N, 4),
          *sxz = calloc(N, 4), *damp = malloc(N * 4);
    double *rho_n = calloc(nz, 8), *rho_h = calloc(nz, 8), *c11 = calloc(nz, 8),
           *c13 = calloc(nz, 8), *c33 = calloc(nz, 8), *c44 = calloc(nz, 8);
    int *o2_n = calloc(nz, 4), *o2_h = calloc(nz, 4);
    if (!vx || !vz || !sxx || !szz || !sxz || !damp || !rho_n || !rho_h || !c11 || !c13 || !c33 ||
        !c44 || !o2_n || !o2_h) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int k = 0; k < nz; k++) {
        const double z = k * h;
        sums s = cell(fmax(0, z - h / 2), z + h / 2); /* the node's cell, clipped at the surface */
        rho_n[k] = s.rho / s.w;
        c33[k] = s.w / s.inv_m;
        c13[k] = s.lam_m / s.w * c33[k];
        c11[k] = layered ? s.m_lam2 / s.w + c13[k] * c13[k] / c33[k] : c33[k];
        s = cell(z, z + h); /* between nodes k and k + 1 */
        rho_h[k] = s.rho / s.w;
        c44[k] = s.w / s.inv_mu;
        o2_n[k] = spans(o2, (k - 1.5) * h, (k + 1.5) * h);
        o2_h[k] = spans(o2, (k - 1) * h, (k + 2) * h);
    }
    const double dt = courant * h / 6000.0;
    const int nt = (int)ceil(T / dt);
    for (int i = 0; i < nx + 2 * pad; i++)
        for (int k = 0; k < NZ; k++) {
            const double x = x0 + (i - pad) * h, z = (k - pad) * h;
            const double d = fmin(fmin(x - x0, x1 - x), zmax - z);
            const double a = d < sponge ? (sponge - d) / sponge : 0;
            damp[(long)i * NZ + k] = (float)exp(-dt * 60.0 * a * a);
        }
    const int is = (int)lround(-x0 / h), ks = (int)lround(2000 / h),
              ir = (int)lround((10000 - x0) / h);
    fprintf(stderr, "h %.4f m, %d x %d nodes, %d steps of %.6f s\n", h, nx, nz, nt, dt);
    FILE *fo = fopen(argv[5], "w");
    if (!fo) {
        perror(argv[5]);
        return 1;
    }
    const float ih = (float)(1.0 / h);
    for (int n = 0; n < nt; n++) {
        /* the stresses above the surface (the solver's sgt_free_surface_image) */
        for (int i = 0; i < nx; i++) {
            float *zz = szz + I(i, 0), *s = sxz + I(i, 0);
            zz[0] = 0.0f;
            const float dz =
                0.7083333f * zz[1] + 0.375f * zz[2] - 0.20833333f * zz[3] + 0.041666668f * zz[4];
            zz[-1] = zz[2] - (dz - C1 * zz[1]) / C2;
            zz[-2] = -zz[2];
            const float d0 = 4.375f * s[0] - 1.4583334f * s[1] + 0.525f * s[2] - 0.08928572f * s[3];
            const float d1 =
                -1.2916666f * s[0] + 1.2083334f * s[1] - 0.075f * s[2] + 0.005952381f * s[3];
            const float g1 = s[2] - (d1 - C1 * (s[1] - s[0])) / C2;
            s[-2] = s[1] - (d0 - C1 * (s[0] - g1)) / C2;
            s[-1] = g1;
        }
#pragma omp parallel for
        for (int i = 1; i < nx - 2; i++)
            for (int k = 0; k < nz - 2; k++) {
                const long p = I(i, k);
                const float dxx =
                    C1 * (sxx[p + NZ] - sxx[p]) + C2 * (sxx[p + 2 * NZ] - sxx[p - NZ]);
                const float dxz = o2_n[k]
                                      ? sxz[p] - sxz[p - 1]
                                      : C1 * (sxz[p] - sxz[p - 1]) + C2 * (sxz[p + 1] - sxz[p - 2]);
                vx[p] += (float)(dt / rho_n[k]) * ih * (dxx + dxz);
                const float dzx =
                    C1 * (sxz[p] - sxz[p - NZ]) + C2 * (sxz[p + NZ] - sxz[p - 2 * NZ]);
                const float dzz = o2_h[k]
                                      ? szz[p + 1] - szz[p]
                                      : C1 * (szz[p + 1] - szz[p]) + C2 * (szz[p + 2] - szz[p - 1]);
                vz[p] += (float)(dt / rho_h[k]) * ih * (dzx + dzz);
            }
#pragma omp parallel for
        for (int i = 2; i < nx - 2; i++)
            for (int k = 0; k < nz - 2; k++) {
                const long p = I(i, k);
                const float exx =
                    ih * (C1 * (vx[p] - vx[p - NZ]) + C2 * (vx[p + NZ] - vx[p - 2 * NZ]));
                float ezz;
                if (k == 0)
                    ezz = (float)(-c13[k] / c33[k]) * exx;
                else if (k == 1)
                    ezz = ih * (-0.9583333f * vz[p - 1] + 0.875f * vz[p] + 0.125f * vz[p + 1] -
                                0.041666668f * vz[p + 2]);
                else if (o2_n[k])
                    ezz = ih * (vz[p] - vz[p - 1]);
                else
                    ezz = ih * (C1 * (vz[p] - vz[p - 1]) + C2 * (vz[p + 1] - vz[p - 2]));
                sxx[p] += (float)dt * (float)(c11[k] * exx + c13[k] * ezz);
                if (k > 0) szz[p] += (float)dt * (float)(c13[k] * exx + c33[k] * ezz);
                float dvxz;
                if (k == 0)
                    dvxz = -0.9583333f * vx[p] + 0.875f * vx[p + 1] + 0.125f * vx[p + 2] -
                           0.041666668f * vx[p + 3];
                else if (o2_h[k])
                    dvxz = vx[p + 1] - vx[p];
                else
                    dvxz = C1 * (vx[p + 1] - vx[p]) + C2 * (vx[p + 2] - vx[p - 1]);
                const float dvzx = C1 * (vz[p + NZ] - vz[p]) + C2 * (vz[p + 2 * NZ] - vz[p - NZ]);
                sxz[p] += (float)(dt * c44[k]) * ih * (dvxz + dvzx);
            }
        const double t = (n + 0.5) * dt, sig = 0.06;
        const double rate = 1e18 * exp(-0.5 * pow((t - 0.36) / sig, 2)) / (sqrt(2 * M_PI) * sig);
        sxx[I(is, ks)] -= (float)(dt * rate / (h * h));
#pragma omp parallel for
        for (long q = 0; q < N; q++)
            if (damp[q] < 1.0f) {
                const float d = damp[q];
                vx[q] *= d, vz[q] *= d, sxx[q] *= d, szz[q] *= d, sxz[q] *= d;
            }
        const long p = I(ir, 0);
        const double ux = 0.5625 * (vx[p] + vx[p - NZ]) - 0.0625 * (vx[p + NZ] + vx[p - 2 * NZ]);
        const double div = ih * (C1 * (vx[p] - vx[p - NZ]) + C2 * (vx[p + NZ] - vx[p - 2 * NZ]));
        const double uz = vz[p] + 0.5 * h * c13[0] / c33[0] * div; /* extrapolated to z = 0 */
        fprintf(fo, "%.6f %.8e %.8e\n", (n + 1) * dt, ux, -uz);
    }
    fclose(fo);
    return 0;
}
