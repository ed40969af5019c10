/* The pieces of the spectral measures (FAS and period-dependent durations, im.h) that the CPU's
 * measures (im.c) and the GPU's (measures_gpu.cu) both take: transform lengths, the durations'
 * band-pass, the Konno-Ohmachi window's terms. One description, compiled for both (as im_osc.h
 * is for the spectral accelerations). */
#ifndef IM_SPEC_H
#define IM_SPEC_H

#include <math.h>

#ifdef __CUDACC__
#define IM_SPEC_HD static __host__ __device__ __forceinline__
#else
#define IM_SPEC_HD static inline
#endif

/* The smallest power of two >= n (n <= 2^30). */
IM_SPEC_HD long im_spec_pow2_at_least(double n) {
    long m = 1;
    while ((double)m < n && m < (1L << 30))
        m *= 2;
    return m;
}

/* The period-dependent durations' transform length: the power of two >= 2 nt. */
IM_SPEC_HD long im_spec_duration_length(int nt) {
    return im_spec_pow2_at_least(2.0 * nt);
}

/* The FAS's transform length: the power of two >= 2 nt and >= 100 tmax / dt (tmax the longest
 * period of the configuration), so that the smoothing window of the longest period spans many
 * bins. */
IM_SPEC_HD long im_spec_fas_length(int nt, double dt, double tmax) {
    return im_spec_pow2_at_least(fmax(2.0 * nt, 100 * tmax / dt));
}

/* The zero-phase band-pass of the period-dependent durations at 1/T: the magnitudes of
 * 4th-order Butterworth high- and low-passes at f1 = 1/(sqrt2 T) and f2 = sqrt2/T. */
IM_SPEC_HD double im_spec_duration_filter(double f, double T) {
    if (!(f > 0)) return 0;
    double f1 = 1 / (M_SQRT2 * T), f2 = M_SQRT2 / T;
    double h = f1 / f, l = f / f2;
    h *= h, h *= h, l *= l, l *= l; /* ^4 */
    return 1 / sqrt((1 + h * h) * (1 + l * l));
}

/* sin(x)/x given s = sin(x), to the last bits near 0. */
IM_SPEC_HD double im_spec_sinc_ratio(double s, double x) {
    if (fabs(x) < 1e-3) return 1 - x * x / 6 * (1 - x * x / 20);
    return s / x;
}

/* The Konno-Ohmachi window at a bin whose b log10(f) is l (sine sl, cosine cl) around a centre
 * whose b log10(fc) is c (sine sc, cosine cc): [sin(l - c) / (l - c)]^4, the sine of the
 * difference from the sines and cosines (no sine per bin and centre; |l - c| stays below a few
 * hundred: rounding ~1e-14 absolute). */
IM_SPEC_HD double im_spec_ko_weight(double l, double sl, double cl, double c, double sc,
                                    double cc) {
    double r = im_spec_sinc_ratio(sl * cc - cl * sc, l - c);
    return (r * r) * (r * r);
}

#endif
