/* The band an intensity measure is valid in: which measures a deterministic simulation
 * resolved up to its maximum frequency fmax gives, and why the others are not given. One rule
 * for the extractor (what goes into PeakAmplitudes, what `cybershake seismogram` and `synth`
 * print), the hazard commands (what they integrate) and the workflow (what a run's
 * configuration may ask for); docs/extract.md, "The band", gives its justification.
 *
 *  - SA at period T: valid for T >= 1/fmax (T fmax >= 1 - 1e-9). A 5%-damped oscillator of
 *    period T responds to motion near 1/T; shorter periods respond to frequencies the grid and
 *    the SGT's source filter do not carry, so their values are too low by an unknown amount.
 *  - PGV: valid as a band-limited measure (the peak of the record low-passed at fmax): velocity
 *    peaks are carried by long periods, and CyberShake reports it so. It is not a broadband
 *    PGV (a GMPE's PGV includes higher frequencies).
 *  - FAS at period T (frequency 1/T): valid for T >= 1/fmax (1/T <= fmax).
 *  - D5-75, D5-95 at a period T > 0 (the durations of the record band-passed one octave around
 *    1/T, extract/im.h): valid for T >= sqrt(2)/fmax, where the band-pass's upper corner
 *    sqrt(2)/T lies within the band.
 *  - PGA, Arias, CAV, D5-75, D5-95 (period 0, broadband): not valid. Acceleration weights each
 * frequency by f (and Arias and the durations by f^2), so these measures are carried by frequencies
 * far above fmax (PGA by periods near 0.1-0.3 s); from a deterministic low-frequency simulation
 * their values say nothing of the ground motion. fmax <= 0 means the band is not known (a run or
 * file that does not record it): every measure is then taken as it is. */
#ifndef IM_BAND_H
#define IM_BAND_H

#include <stddef.h>

/* 1 if the measure (SA, FAS, PGA, PGV, Arias, CAV, D5-75, D5-95; period in s for SA, FAS and the
 * period-dependent durations, else 0) is
 * valid from a simulation up to fmax (Hz), else 0 with the rule it breaks written into why
 * (may be NULL): "SA is valid for periods T >= 1/fmax = 2.94 s", "PGA is a broadband measure
 * ...". */
int im_band_valid(const char *measure, double period, double fmax, char *why, size_t size);

/* "up to 0.34 Hz (SA at T >= 2.94 s, PGV band-limited; docs/extract.md, \"The band\")" */
void im_band_describe(double fmax, char *out, size_t size);

#endif
