/* The pieces of the spectral acceleration that the CPU's measures (im.c) and the GPU's
 * (synth_gpu.cu) both take: the record's acceleration, and the exact recursion of a damped
 * oscillator driven by an excitation linear between samples (Nigam and Jennings 1969), stepped
 * `sub` times per sample. One description, compiled for both (as sgt_stencil.h is for the SGT
 * solver). */
#ifndef IM_OSC_H
#define IM_OSC_H

#include <math.h>

#ifdef __CUDACC__
#define IM_HD static __host__ __device__ __forceinline__
#else
#define IM_HD static inline
#endif

/* Acceleration sample t of a velocity record v (nt >= 5 samples at dt): 4th-order central
 * differences, 2nd order at the two ends. */
IM_HD double im_osc_acc(const double *v, int t, int nt, double dt) {
    if (t >= 2 && t < nt - 2)
        return (-v[t + 2] + 8 * v[t + 1] - 8 * v[t - 1] + v[t - 2]) / (12 * dt);
    if (t == 0) return (-3 * v[0] + 4 * v[1] - v[2]) / (2 * dt);
    if (t == 1) return (v[2] - v[0]) / (2 * dt);
    if (t == nt - 2) return (v[nt - 1] - v[nt - 3]) / (2 * dt);
    return (3 * v[nt - 1] - 4 * v[nt - 2] + v[nt - 3]) / (2 * dt);
}

/* The device's oscillators run a record's nt - 1 sample intervals in `chunks` chunks of
 * im_osc_span intervals each (measures_gpu.cu), and keep the E and N responses for RotD in the
 * order they are made: after the first sample, substep t of chunk j at im_osc_slot, so that
 * consecutive chunks store contiguous bytes; slots past the record's end hold zeros. RotD's
 * maxima do not depend on the order, and zeros raise no maximum of absolute values. */
IM_HD int im_osc_span(int nt, int chunks) {
    return nt > 1 ? (nt - 1 + chunks - 1) / chunks : 0;
}

IM_HD long long im_osc_slot(int chunk, long long t, int chunks) {
    return 1 + t * chunks + chunk;
}

/* Substeps per sample: the response seen at least 64 times per period. */
IM_HD int im_osc_substeps(double dt, double period) {
    int m = (int)ceil(64 * dt / period - 1e-9);
    return m < 1 ? 1 : m;
}

/* The recursion's coefficients for one oscillator (period, damping z) and substep dt_in/sub:
 * x' = a11 x + a12 v + b11 a0 + b12 a1, v' = a21 x + a22 v + b21 a0 + b22 a1, a0 and a1 the
 * excitation at the substep's start and end. */
typedef struct {
    double a11, a12, a21, a22, b11, b12, b21, b22;
} im_osc_coef;

IM_HD im_osc_coef im_osc_coefficients(double dt_in, double period, double z, int sub) {
    double dt = dt_in / sub;
    double w = 2 * M_PI / period, sq = sqrt(1 - z * z), wd = w * sq;
    double e = exp(-z * w * dt), s = sin(wd * dt), c = cos(wd * dt), z1 = z / sq;
    im_osc_coef k;
    k.a11 = e * (z1 * s + c), k.a12 = e * s / wd;
    k.a21 = -w / sq * e * s, k.a22 = e * (c - z1 * s);
    double t1 = (2 * z * z - 1) / (w * w * dt), t2 = 2 * z / (w * w * w * dt);
    k.b11 = e * ((t1 + z / w) * s / wd + (t2 + 1 / (w * w)) * c) - t2;
    k.b12 = -e * (t1 * s / wd + t2 * c) - 1 / (w * w) + t2;
    k.b21 = e * ((t1 + z / w) * (c - z1 * s) - (t2 + 1 / (w * w)) * (wd * s + z * w * c)) +
            1 / (w * w * dt);
    k.b22 = -e * (t1 * (c - z1 * s) - t2 * (wd * s + z * w * c)) - 1 / (w * w * dt);
    return k;
}

/* The excitation at the end of substep q (0-based) of sample i's interval: ag[i] + (ag[i + 1]
 * - ag[i]) (q + 1) / sub; its value at the end of one substep starts the next. */
IM_HD double im_osc_excitation(double ag0, double ag1, int q, int sub) {
    return ag0 + (ag1 - ag0) * (q + 1) / sub;
}

/* One substep of the oscillator (x, v) from excitation a0 to a1. */
IM_HD void im_osc_step(const im_osc_coef *k, double *x, double *v, double a0, double a1) {
    double xn = k->a11 * *x + k->a12 * *v + k->b11 * a0 + k->b12 * a1;
    double vn = k->a21 * *x + k->a22 * *v + k->b21 * a0 + k->b22 * a1;
    *x = xn;
    *v = vn;
}

#endif
