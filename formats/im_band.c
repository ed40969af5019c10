#include "im_band.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int im_band_valid(const char *measure, double period, double fmax, char *why, size_t size) {
    if (why && size) why[0] = '\0';
    if (!(fmax > 0)) return 1; /* band unknown */
    if (!strcmp(measure, "SA")) {
        if (period * fmax >= 1 - 1e-9) return 1;
        if (why)
            snprintf(
                why, size,
                "SA is given for periods T >= 1/fmax = %.3g s only (the oscillator of a shorter "
                "period responds to frequencies above the simulated band)",
                1 / fmax);
        return 0;
    }
    if (!strcmp(measure, "FAS")) {
        if (period * fmax >= 1 - 1e-9) return 1;
        if (why)
            snprintf(why, size,
                     "FAS is given at frequencies 1/T <= fmax only (periods T >= %.3g s): the "
                     "record carries nothing above the simulated band",
                     1 / fmax);
        return 0;
    }
    const int duration = !strcmp(measure, "D5-75") || !strcmp(measure, "D5-95");
    if (duration && period > 0) {
        if (period * fmax >= M_SQRT2 * (1 - 1e-9)) return 1;
        if (why)
            snprintf(why, size,
                     "%s at a period is given for T >= sqrt(2)/fmax = %.3g s only (its "
                     "band-pass, one octave around 1/T, reaches sqrt(2)/T, which must lie in "
                     "the simulated band)",
                     measure, M_SQRT2 / fmax);
        return 0;
    }
    if (!strcmp(measure, "PGV")) return 1; /* the band-limited peak velocity */
    if (!why) return 0;
    const int squared = strcmp(measure, "PGA") && strcmp(measure, "CAV");
    snprintf(why, size,
             "%s is a broadband measure, carried by frequencies far above fmax (%s): a "
             "deterministic simulation up to %.3g Hz does not give it",
             measure,
             squared ? "the squared acceleration weights each frequency by f^2"
                     : "acceleration weights each frequency by f",
             fmax);
    return 0;
}

void im_band_describe(double fmax, char *out, size_t size) {
    if (fmax > 0)
        snprintf(out, size,
                 "up to %.3g Hz (SA and FAS at T >= %.3g s, durations at T >= %.3g s and "
                 "band-limited PGV only; docs/extract.md, \"The band\")",
                 fmax, 1 / fmax, M_SQRT2 / fmax);
    else
        snprintf(out, size, "not recorded (every measure taken as it is)");
}
