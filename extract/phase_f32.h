/* Phases and interpolation nodes of the device's sums (synth_gpu.cu, accumulate_kernel) in
 * single-precision arithmetic only. A term's phase k (df t) and coarse node k (df / dfc) were
 * taken in double and turned to float: on Hopper a conversion issues at an eighth of a float
 * operation's rate, and the kernel made about ten a term (the double products, their roundings
 * and sincospif's own reduction). Here the per-subfault constant c (df t reduced to a fraction of
 * a cycle, or df / dfc) is held as two floats, hi + lo, and k c is formed exactly enough in
 * float: k hi is split into its rounded product and the product's error by one fma, so the
 * fraction keeps the double path's absolute precision (about 3e-8 of a cycle). Rounding to an
 * integer adds and subtracts 1.5 x 2^23, so no conversion is needed either. Plain C, compiled
 * for both the device and the host, so the unit tests check these against double precision
 * without a GPU (tests/unit/test_phase_f32.c). */
#ifndef PHASE_F32_H
#define PHASE_F32_H

#include <math.h>
#include <string.h>

#ifdef __CUDACC__
#define PHASE_F32_HD static __host__ __device__ __forceinline__
#else
#define PHASE_F32_HD static inline
#endif

/* 1.5 x 2^23: a float in [2^23, 2^24) has a unit step, so adding this rounds x to an integer
 * (to nearest, ties to even) for |x| < 2^22, and the sum's low bits are that integer. */
#define PHASE_F32_MAGIC 12582912.0f

/* v as hi + lo, hi = (float)v, lo = (float)(v - hi): about 48 bits of v. */
PHASE_F32_HD void phase_f32_split(double v, float *hi, float *lo) {
    float h = (float)v;
    *hi = h;
    *lo = (float)(v - (double)h);
}

/* The integer nearest x (|x| < 2^22), as a float, and as an int in *n. */
PHASE_F32_HD float phase_f32_round(float x, int *n) {
    float t = x + PHASE_F32_MAGIC;
    int bits, base;
    float magic = PHASE_F32_MAGIC;
    memcpy(&bits, &t, sizeof bits);
    memcpy(&base, &magic, sizeof base);
    *n = bits - base;
    return t - PHASE_F32_MAGIC;
}

/* k (hi + lo) less an integer, a fraction of a cycle to within 3e-8, for an integer k (|k| <
 * 2^20, exact in float) and |hi| <= 1/2. The integer is the one nearest k hi + k lo rounded to
 * float, so the fraction may pass +-1/2 by up to half a float step of k hi (6e-5 at 2,048): the
 * same phase, which phase_f32_sincos_turns takes as well. */
PHASE_F32_HD float phase_f32_turns(float k, float hi, float lo) {
    float p = k * hi;
    float small = fmaf(k, lo, fmaf(k, hi, -p)); /* k lo + (k hi - p), the latter exact */
    int n;
    float whole = phase_f32_round(p + small, &n);
    return (p - whole) + small; /* p - whole is exact */
}

/* A node m near x = k (hi + lo) (0 <= x < 2^21), and x - m to within 1.2e-7 as returned: m is
 * floor(x), or where x is within half a float step of x (6e-5 at 2,048) of an integer, that
 * integer, so x - m may pass 0 or 1 by as much (a cubic through m - 1 .. m + 2 is as good a
 * fit there). */
PHASE_F32_HD float phase_f32_node(float k, float hi, float lo, int *m) {
    float p = k * hi;
    float small = fmaf(k, lo, fmaf(k, hi, -p));
    float x = p + small;
    int n;
    float whole = phase_f32_round(x, &n);
    if (whole > x) {
        whole -= 1;
        n -= 1;
    }
    *m = n;
    return (p - whole) + small;
}

/* sin(2 pi p) and cos(2 pi p) for |p| < 2^20 (within 1.2e-7 for |p| <= 1/2 + 1e-4, as the
 * phases above are): p less its nearest quarter r,
 * |r| <= 1/8, into the Taylor series of sin and cos of 2 pi r (|2 pi r| <= pi/4; the first
 * term left out is under 2e-9), and the quarter's turn. */
PHASE_F32_HD void phase_f32_sincos_turns(float p, float *s, float *c) {
    int q;
    float quarters = phase_f32_round(4 * p, &q);
    float r = fmaf(-0.25f, quarters, p); /* exact: a multiple of 1/4 from p */
    float r2 = r * r;
    /* (2 pi)^n / n!, alternating */
    float S = fmaf(r2, 4.205869394e+1f, -7.670585975e+1f); /* r^9, r^7 */
    S = fmaf(r2, S, 8.160524928e+1f);                      /* r^5 */
    S = fmaf(r2, S, -4.134170224e+1f);                     /* r^3 */
    S = fmaf(r2, S, 6.283185307e+0f);                      /* r */
    S *= r;
    float C = fmaf(r2, -2.642625678e+1f, 6.024464137e+1f); /* r^10, r^8 */
    C = fmaf(r2, C, -8.545681721e+1f);                     /* r^6 */
    C = fmaf(r2, C, 6.493939402e+1f);                      /* r^4 */
    C = fmaf(r2, C, -1.973920880e+1f);                     /* r^2 */
    C = fmaf(r2, C, 1.0f);
    /* the quarter turn by selections, not a switch: neighbouring frequencies of a warp are in
     * different quarters, and branches would diverge */
    float a = (q & 1) ? C : S, b = (q & 1) ? S : C;
    *s = (q & 2) ? -a : a;
    *c = ((q + 1) & 2) ? -b : b;
}

#endif
