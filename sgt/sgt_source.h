/* Sources: time functions, point forces, moment tensors.
 *
 * The SGT source is a point force with a band-limited impulse: a Kaiser-windowed sinc whose
 * spectrum is flat (to 0.1%) up to fmax and down by 60 dB from 1.5 fmax, normalised to unit
 * area, centred at time_shift = half its length so it starts at t = 0. Any other time function
 * can be read from a two-column text file (time in s, value in 1/s), linearly interpolated. The
 * samples actually applied are kept and written into every output. */
#ifndef SGT_SOURCE_H
#define SGT_SOURCE_H

#include "cs_error.h"
#include "sgt_state.h"

typedef struct {
    double fmax;       /* Hz */
    double time_shift; /* s: centre of the impulse */
    double half_width; /* s: half length of the window */
    double fc;         /* Hz: sinc cut-off */
    double beta;       /* Kaiser parameter */
    double norm;       /* 1 / area */
} sgt_impulse;

int sgt_impulse_init(sgt_impulse *p, double fmax, cs_error *err);
/* Value of the band-limited impulse at time t (1/s). */
double sgt_impulse_eval(const sgt_impulse *p, double t);

/* A tabulated time function from a two-column text file. */
typedef struct {
    int n;
    double *t, *v;
} sgt_stf_table;
int sgt_stf_table_read(sgt_stf_table *tab, const char *path, cs_error *err);
double sgt_stf_table_eval(const sgt_stf_table *tab, double t);
void sgt_stf_table_free(sgt_stf_table *tab);

/* Adds the force of step n to the velocities of a region (after their update). */
void sgt_source_force(sgt_state *s, int n, const sgt_region *r);
/* Adds the moment-rate of step n+1/2 to the stresses of a region (after their update). */
void sgt_source_moment(sgt_state *s, int n, const sgt_region *r);

#endif
