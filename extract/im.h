/* Intensity measures of a three-component velocity record (E, N, Z in m/s, sample m at m dt).
 *
 *  - acceleration: 4th-order central differences of the velocity (2nd order at the two ends),
 *    relative error (omega dt)^4 / 30: 0.16% at 1.5 fmax with the extractor's dt <= 1/(20 fmax),
 *    local, so the record's truncated end adds nothing to it;
 *  - pseudo-spectral acceleration, 5% damping: omega^2 max|u| of a single-degree-of-freedom
 *    oscillator driven by the ground acceleration, by the exact recursion for piecewise-linear
 *    excitation (Nigam and Jennings 1969), stepped at least 64 times per period;
 *  - RotD50 and RotD100 (Boore 2010): the median and the largest, over rotation angles 0..179
 *    degrees in 1-degree steps, of the peak of the two horizontal responses combined at that
 *    angle; the geometric mean of the E and N values;
 *  - PGA (g) and PGV (m/s) of each component (Z only where the record has one: vertical) and
 *    as RotD50 of the horizontals;
 *  - Arias intensity pi/(2g) int a^2 dt (m/s), cumulative absolute velocity int |a| dt (m/s),
 *    and the significant durations D5-75 and D5-95 (s) from the normalised Arias (Husid) curve,
 *    of each horizontal component; integrals exact for the piecewise-linear acceleration;
 *  - SA of the vertical (component Z) at each period, where the record has one;
 *  - FAS at each period T (frequency 1/T): the Fourier amplitude spectrum of the acceleration,
 *    dt |sum_m a_m exp(-2 pi i k m / N)| (m/s), the record zero-padded to N (the power of two
 *    >= 2 nt and >= 100 T_max / dt, T_max the longest period), smoothed with the Konno-Ohmachi
 *    window of bandwidth b (im_ko_window) over the bins k = 1..N/2 and evaluated at 1/T only;
 *    components E, N, Z and EAS, the effective amplitude spectrum
 *    sqrt((|A_E|^2 + |A_N|^2) / 2), smoothed after the combination (Goulet et al. 2018);
 *  - period-dependent significant durations D5-75 and D5-95 at each period T (s) of E, N (and
 *    Z): those of the acceleration band-passed around 1/T by the zero-phase filter
 *    H(f) = [1 + (f1/f)^8]^-1/2 [1 + (f/f2)^8]^-1/2, f1 = 1/(sqrt2 T), f2 = sqrt2/T (the
 *    magnitudes of 4th-order Butterworth high- and low-passes, one octave around 1/T),
 *    applied to the spectrum zero-padded to N_D (the power of two >= 2 nt); the first nt
 *    samples of its inverse, their Husid curve as for the broadband durations.
 * Spectral and peak accelerations are in g (g = 9.80665 m/s^2).
 *
 * A configuration carries the simulation's band (fmax): measures the band does not resolve
 * (formats/im_band.h: SA and FAS at T < 1/fmax, durations at T < sqrt(2)/fmax, PGA, Arias,
 * CAV, the broadband durations) are neither listed by
 * im_types nor returned by im_compute, so they are never stored or printed as results. */
#ifndef IM_H
#define IM_H

#include "cs_error.h"

#define IM_G           9.80665
#define IM_MAX_PERIODS 64
/* measures per period: SA RotD50, RotD100, geometric mean, Z; FAS E, N, Z, EAS; D5-75 and
 * D5-95 of E, N, Z */
#define IM_PER_PERIOD 14
/* im_types' count at most */
#define IM_MAX_TYPES (IM_PER_PERIOD * IM_MAX_PERIODS + 16)
/* Konno-Ohmachi bandwidth b of the FAS smoothing by default */
#define IM_KO_BANDWIDTH 40.0

typedef struct {
    char measure[16];   /* SA, PGA, PGV, Arias, CAV, D5-75, D5-95, FAS */
    double period;      /* s for SA, FAS (frequency 1/period) and period-dependent durations;
                           0 otherwise (the broadband durations) */
    char component[16]; /* RotD50, RotD100, geometric mean, E, N, Z, EAS */
    char units[16];
} im_type;

typedef struct {
    int nperiods;
    double periods[IM_MAX_PERIODS];
    double damping; /* 0.05 */
    int vertical;   /* 1: the record has a Z component (PGA and PGV of Z are measured) */
    double fmax;    /* Hz, the simulated band; <= 0: not known, every measure is given */
    double ko_b;    /* Konno-Ohmachi bandwidth of the FAS (IM_KO_BANDWIDTH; <= 0 takes it) */
} im_config;

/* CyberShake's periods (s) that the band resolves: those of 1, 1.5, 2, 3, 4, 5, 7.5, 10 at or
 * above 1/fmax (fmax <= 0 keeps them all); c->fmax = fmax. */
void im_config_default(im_config *c, double fmax);
/* The configuration of a simulation up to fmax: with no periods (nperiods 0) CyberShake's in
 * the band; periods asked outside the band are refused, the error naming the first, the band
 * and the rule (formats/im_band.h). Sets c->fmax. */
int im_config_band(im_config *c, double fmax, cs_error *err);
/* Every measure of c without regard to the band (fmax ignored): *types malloc'ed; (*valid)[i]
 * is 1 for those the band gives, 0 for the others (for saying which were left out and why). */
int im_types_all(const im_config *c, im_type **types, int **valid, int *n, cs_error *err);
/* Periods from a comma-separated list ("2,3,5,10"); errors name the item. */
int im_config_parse(im_config *c, const char *list, cs_error *err);

/* Which periods of c the band gives a FAS (want_fas[p] = 1) and period-dependent durations
 * (want_dur[p] = 1), formats/im_band.h's rule; arrays of c->nperiods. */
void im_band_periods(const im_config *c, int *want_fas, int *want_dur);

/* The measures in the order im_compute fills them, those of the band only; *types is
 * malloc'ed. */
int im_types(const im_config *c, im_type **types, int *n, cs_error *err);

/* ag = acceleration (m/s^2) of a velocity record v (m/s), nt samples at dt. */
int im_acceleration(const double *v, int nt, double dt, double *ag, cs_error *err);

/* Substeps per sample so the response is seen at least 64 times per period (a peak between
 * samples is then missed by at most (pi/64)^2/2 = 0.12%). */
int im_substeps(double dt, double period);
/* Displacement response of the oscillator to ground acceleration ag (m/s^2), linear between
 * samples, at `sub` points per sample: writes u ((nt - 1) sub + 1 values; may be NULL) and
 * returns max |u|. */
double im_oscillator(const double *ag, int nt, double dt, double period, double damping, int sub,
                     double *u);

/* The Konno-Ohmachi (1998) smoothing window at frequency f around fc, bandwidth b:
 * [sin(b log10(f/fc)) / (b log10(f/fc))]^4; 1 at f = fc, 0 at f <= 0 and where
 * b log10(f/fc) is a nonzero multiple of pi (f = fc 10^(k pi/b)). */
double im_ko_window(double f, double fc, double b);
/* The smoothed spectrum at fc: sum_k W(f_k) amp_k / sum_k W(f_k) over the n bins f_k = k df,
 * k = 1..n (amp[k - 1] the amplitude at f_k): the weighted mean, what ObsPy's
 * konno_ohmachi_smoothing takes with normalize=True (its window divided by its sum). */
double im_ko_smooth(const double *amp, int n, double df, double fc, double b);

/* RotD of two horizontal time series: rot50 and rot100 of peaks over 180 angles. */
void im_rotd(const double *x, const double *y, int nt, double *rot50, double *rot100);

/* Every measure of im_types for a record: vel 3 x nt (E, N, Z; Z unread unless c->vertical).
 * values has im_types' count. */
int im_compute(const im_config *c, const double *vel, int nt, double dt, double *values,
               cs_error *err);

/* What im_compute_in keeps from record to record: the arrays of a record's spectra and
 * responses, the Konno-Ohmachi bins and the durations' filters. One per thread; it grows to
 * the longest record it has measured. Allocating these for every record cost a fifth of the
 * measures' time in page faults, and more with many threads. */
typedef struct im_workspace im_workspace;
im_workspace *im_workspace_new(void); /* NULL: out of memory */
void im_workspace_free(im_workspace *ws);
/* im_compute with a workspace of the caller's: the same values, bit for bit. */
int im_compute_in(im_workspace *ws, const im_config *c, const double *vel, int nt, double dt,
                  double *values, cs_error *err);
/* The measures a device gives for a record (synth_gpu.h), in the layout im_compute_in_given
 * reads: IM_GIVEN_VALUES(np) values for np periods, NaN where a measure is not made (no Z
 * component; a period outside the measure's band):
 *   [4 p .. 4 p + 3]                    SA RotD50, RotD100, geometric mean, Z (g) at period p;
 *   [IM_GIVEN_PGV(np) .. + 3]           PGV RotD50, E, N, Z (m/s);
 *   [IM_GIVEN_FAS(np) + 4 p .. + 3]     FAS E, N, Z, EAS (m/s) at period p;
 *   [IM_GIVEN_DUR(np) + 6 p .. + 5]     D5-75 of E, N, Z, then D5-95 of E, N, Z (s) at p. */
#define IM_GIVEN_PGV(np)    (4 * (np))
#define IM_GIVEN_FAS(np)    (4 * (np) + 4)
#define IM_GIVEN_DUR(np)    (8 * (np) + 4)
#define IM_GIVEN_VALUES(np) (14 * (np) + 4)

/* The same with the measures of the band given in that layout (the device's): the record is
 * then read only for the broadband measures, which a configuration with a band never makes;
 * NULL makes them all. */
int im_compute_in_given(im_workspace *ws, const im_config *c, const double *vel, int nt, double dt,
                        const double *given, double *values, cs_error *err);

#endif
