/* The frequency path of the reciprocity synthesis (synth.h) on a GPU: the same sums, band and
 * upsampling, in batches of variations (docs/extract.md, "On GPUs").
 *
 *  - load: a block of points' strain goes to the device, is combined with each point's moment
 *    tensor (or weighted per component), transformed by cuFFT (double precision, the CPU's FFT
 *    length) and kept below the band edge, shift removed, as float spectra: 3 (or 18) series
 *    per point, for a chunk of the rupture's points, kept for every variation of the rupture;
 *  - accumulate: the staged subfaults of up to `batch` variations: each subfault's slip-rate
 *    spectrum made on the device as on the CPU (the centred phasor sum on a grid 64 hw times
 *    finer than 1/(2 hw), 4-point Lagrange interpolation, the exact phase of its start and the
 *    triangle factor), times mu A, multiplied into the point's spectra and summed per variation
 *    (each term in single precision, summed in float over runs of 32 terms and the runs' sums
 *    in double; phases reduced in double, turned by single-precision sincospi; slip rates sent
 *    as floats: ~1e-7 relative, the float spectra's own precision);
 *  - records: one inverse cuFFT per component at the record's sampling.
 * Only plain C types cross this interface (the .cu side is C++). cuFFT is opened at run time
 * (dlopen), so builds with nvcc run on machines without it until the GPU path is asked for. */
#ifndef SYNTH_GPU_H
#define SYNTH_GPU_H

#include <stddef.h>

#include "cs_error.h"
#include "rupgen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int nf, L, up, nt, nt_sgt;
    double dt_sgt, time_shift, impulse[3];
} synth_gpu_shape;

typedef struct {
    long row; /* the point's row among the loaded spectra */
    long pt;  /* the point's index in the rupture (its device rupture time, tinit NaN) */
    double tinit, dt_s, scale;
    int nsr;
    const double *sr;
    double m[6]; /* read when the spectra are full (18 per point) */
} synth_gpu_subfault;

typedef struct synth_gpu synth_gpu;

/* Whether this build has the CUDA extractor and a device can be opened (message when not). */
int synth_gpu_available(cs_error *err);
/* device: index among the visible GPUs (taken modulo their count). block: points of strain per
 * load call; batch: variations accumulated together; points: rows of spectra kept. */
int synth_gpu_open(synth_gpu **g, int device, const synth_gpu_shape *shape, long block, int batch,
                   long points, cs_error *err);
void synth_gpu_close(synth_gpu *g);
/* Device memory (bytes) a configuration takes, for planning. */
double synth_gpu_bytes(const synth_gpu_shape *shape, long block, int batch, long points);
/* Device memory (bytes) this rank may take, or < 0 when none can be read: what is free now, at
 * most the device's share of `ranks` GPU ranks on the node (they share the node's devices round
 * robin and open them at once, so each counts on its share of the total, not on what it sees
 * free). */
double synth_gpu_free_bytes(int device, int ranks);
const char *synth_gpu_device_name(const synth_gpu *g);
/* Point rows the spectra hold with `series` series per point (3 or 18). */
long synth_gpu_rows(const synth_gpu *g, int series);
/* Points per load call. */
long synth_gpu_block(const synth_gpu *g);
/* Variations per batch. */
int synth_gpu_batch(const synth_gpu *g);

/* Loads nq (<= block) points' spectra: strain nq x 3 x 6 x nt_sgt (as sgt_set_read gives it),
 * 3 series per point combined with m6 (nq x 6), or 18 (m6 NULL), into rows[0 .. nq) of that
 * layout. Every row loaded since the last synth_gpu_forget has the same layout (an error
 * otherwise); rows loaded before stay as they are (a rank keeps its points' spectra across
 * ruptures: synth_spectra_cache.h). */
int synth_gpu_load_rows(synth_gpu *g, const long *rows, long nq, const float *strain,
                        const double *m6, cs_error *err);
/* The same into rows row0 .. row0 + nq - 1; row0 == 0 starts a new layout (forgets the rows). */
int synth_gpu_load(synth_gpu *g, long row0, long nq, const float *strain, const double *m6,
                   cs_error *err);
/* The rows loaded so far may be written over in another layout. */
void synth_gpu_forget(synth_gpu *g);
/* Zeroes the accumulators of nb variations. */
int synth_gpu_begin(synth_gpu *g, int nb, cs_error *err);
/* Stages variation b's subfaults (every one on a loaded row). Threads may stage different
 * variations at once; one variation is staged once per accumulate. */
int synth_gpu_stage(synth_gpu *g, int b, const synth_gpu_subfault *sf, long n, cs_error *err);
/* One rupture whose variations' rupture times the device makes: its n points (nx columns) and
 * its nreal realisations (their edge times, n RUPGEN_EDGES each). */
typedef struct {
    const rupgen_realisation *real;
    int nreal;
    long n;
    int nx;
} synth_gpu_times_rupture;
/* The rupture times made on the device for the variations staged with synth_gpu_stage_times:
 * the nr ruptures of the batches to come (a batch may hold variations of several: rupture k is
 * r[k]), and the time past which a subfault is dropped (synth_window_end). nr 0: none (an SRF
 * rupture's times are its files'). Between batches. Where the device has no room for the edges
 * the times stay off and the host makes them (synth_gpu_times_on). */
int synth_gpu_set_times(synth_gpu *g, const synth_gpu_times_rupture *r, int nr, double window_end,
                        cs_error *err);
/* Whether synth_gpu_set_times gave the ruptures' edges. */
int synth_gpu_times_on(const synth_gpu *g);
/* Variation b of the batch takes its rupture times from rupture `rupture`'s realisation `real`
 * and the hypocentre's point, made on the device; its subfaults are staged with tinit NaN and
 * their point. The same times bit for bit as rupgen_times (erf/rupgen_relax.h). */
int synth_gpu_stage_times(synth_gpu *g, int b, int rupture, int real, int hypo_point,
                          cs_error *err);
/* Adds the staged subfaults into their variations' accumulators and clears the stage. */
int synth_gpu_accumulate(synth_gpu *g, cs_error *err);
/* Each variation's sum cut into `runs` runs (within the partial sums' room; 0: the rule of
 * accumulate_split.h), for tests of that path on a small site. */
void synth_gpu_set_sum_runs(synth_gpu *g, int runs);
/* The measures the device makes of each batch's records (im.h's "given" layout, which
 * im_compute_in_given takes): spectral accelerations (im_osc.h's recursion, the oscillators'
 * damping) at every period; PGV; the FAS of each period where want_fas[p] and its
 * period-dependent durations where want_dur[p] (im_spec.h; NULL: none); of components E, N
 * (ncomp 2) or E, N, Z (3), the records sampled at dt; the FAS smoothed with Konno-Ohmachi
 * bandwidth ko_b (<= 0: IM_KO_BANDWIDTH). */
typedef struct {
    int nperiods;
    const double *periods;
    const int *want_fas, *want_dur;
    double damping, dt, ko_b;
    int ncomp;
} synth_gpu_measures;

/* Sets the measures (NULL: none; the host makes them from the records). */
int synth_gpu_set_measures(synth_gpu *g, const synth_gpu_measures *m, cs_error *err);
/* Device memory (bytes) synth_gpu_set_measures takes with these settings, for planning. */
double synth_gpu_measures_bytes(const synth_gpu_shape *shape, int batch,
                                const synth_gpu_measures *m);
/* The nb records: vel nb x 3 x nt (E, N, Z; m/s). slot -1: copied before this returns, no
 * measures. Slot 0 or 1: copied while the call returns (so the next batch's sums can be
 * started at once; vel should be synth_gpu_host_alloc's memory for the copy to overlap) and,
 * with measures set, their measures started, most of them on a stream of their own; neither
 * may be read before synth_gpu_wait on the slot. */
int synth_gpu_records(synth_gpu *g, int nb, double *vel, int slot, cs_error *err);
/* Waits for slot `slot`'s nb records and, with measures set, copies their measures into values
 * (nb x IM_GIVEN_VALUES(nperiods)). */
int synth_gpu_wait(synth_gpu *g, int slot, int nb, double *values, cs_error *err);
/* Page-locked host memory for the records of both slots, 2 x batch x 3 x nt doubles (slot i at
 * i x batch x 3 x nt), made once for the context and freed with it: pinning memory for every
 * rupture cost milliseconds each (and a free waits for the device). NULL when none can be had. */
double *synth_gpu_record_buffer(synth_gpu *g);
/* Page-locked host memory for records (the device copies into it while the host works), or
 * NULL when none can be had (then plain memory does, copied synchronously). */
void *synth_gpu_host_alloc(size_t bytes);
void synth_gpu_host_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
