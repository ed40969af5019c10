/* Seismograms by reciprocity (docs/extract.md, docs/conventions.md): the velocity at the site along
 * force direction n from a kinematic rupture is
 *
 *     v_n(t) = sum_subfaults mu A [ sum_ij m_ij H^n_ij(x, .) ] * sdot(. - t_init) (t)
 *
 * with m the unit moment tensor of the subfault (strike, dip, rake, box frame), mu the shear
 * modulus of the SGT's material at its save point, A its area, sdot its slip rate, t_init its
 * rupture time, and H^n the tensor strain there from a unit impulsive force along n at the site:
 * the SGT file's strain divided by its impulse and advanced by its time shift (off-diagonal
 * components count twice).
 *
 * The slip rate is the piecewise-linear function of its samples (sample j at t_init + j dt_s).
 *
 * Two paths compute the same sum:
 *  - frequency: the SGT of each point is transformed once per rupture (every variation of a
 *    rupture shares its points), kept only below the band edge fcut = 1.5 fmax, where the
 *    SGT's impulse is 60 dB down, and combined once with the point's moment tensor; a
 *    variation costs, per subfault, the slip rate's spectrum at those frequencies (exact for
 *    the piecewise-linear function) and three complex multiply-adds per frequency; one
 *    inverse FFT per component gives the record.
 *  - time: the plain direct convolution of every subfault's SGT combination with its slip
 *    rate sampled at the SGT's dt (kept as the reference the fast path is measured against).
 * Records start at the rupture's origin time (t = 0), end where the SGT advanced by its time
 * shift ends, and are sampled `up` times finer than the SGT (dt <= 1/(20 fmax)) by band-limited
 * interpolation: exact in the frequency path (its spectrum is evaluated at the finer sampling),
 * an FFT interpolation of the record in the time path. */
#ifndef SYNTH_H
#define SYNTH_H

#include <complex.h>
#include <fftw3.h>

#include "cs_error.h"
#include "sgt_set.h"
#include "srf.h"

typedef struct {
    int slot;     /* the subfault's save point in the cache */
    double m[6];  /* unit moment tensor, box frame: xx yy zz xy xz yz */
    double scale; /* mu A (N/m): moment = scale x slip (m) */
    double tinit; /* s */
    double dt_s;  /* slip-rate sampling (s) */
    int nsr;
    const double *sr; /* slip rate (m/s), nsr samples */
} synth_subfault;

typedef struct {
    const sgt_set *sgt;
    int nt;        /* samples of the record (at dt) */
    double dt;     /* s: the record's sampling, the SGT's dt / up */
    int up;        /* upsampling factor: dt <= 1 / (20 fmax), so peaks are sampled finely */
    int nt_rec;    /* the record at the SGT's dt: the SGT's samples less its time shift (after
                    * that the SGT is incomplete once advanced by the shift) */
    int nt_sgt;    /* samples of the SGT */
    double dt_sgt; /* s */
    int L;         /* FFT length */
    int nf;        /* frequencies kept: f_k = k / (L dt_sgt), k < nf */
    double fcut;   /* Hz */
    double max_sr_duration; /* s: longest slip-rate function accepted */
    double *rbuf;
    fftw_complex *cbuf;
    double *rec;         /* 3 x nt_rec: the time path's record before upsampling */
    fftw_plan r2c, c2r;  /* r2c of length L, c2r of length L up */
    double complex *acc; /* 3 x nf accumulators */
    double *work;        /* scratch */
    double last_dts;     /* the slip-rate dt of the cached sinc^2 factor */
    double *sinc2;
} synth_ctx;

int synth_init(synth_ctx *c, const sgt_set *s, cs_error *err);
void synth_free(synth_ctx *c);

/* The SGT of a set of save points, read once and shared by every variation that uses them. */
typedef struct {
    long n;
    long first, total; /* rows are the rupture's points first .. first + n - 1 of total: a chunk
                        * when the rupture's spectra would not fit the memory allowed */
    long *points;
    float *strain;           /* n x 3 x 6 x nt_sgt, when kept (time path) */
    float complex *spectra;  /* n x 3 x 6 x nf: weighted (1,1,1,2,2,2) / impulse, shift removed */
    float complex *combined; /* n x 3 x nf: sum_c m_c spectra for the moment tensor below */
    double *combined_m;      /* n x 6: the tensor each point's combination was made for */
} synth_cache;

enum { SYNTH_FREQUENCY = 1, SYNTH_TIME = 2 };

/* m6 (n x 6, may be NULL): the moment tensor of each point when every subfault on it will have
 * that one (generated variations): the frequency path then keeps only the combination (three
 * transforms per point, not eighteen). */
int synth_cache_load(synth_ctx *c, const long *points, long n, int paths, const double *m6,
                     synth_cache *cache, cs_error *err);
/* The same for points first .. first + n - 1 of a rupture of `total` (a chunk), the strain read
 * `block` points at a time (the frequency path alone then never holds more strain than that). */
int synth_cache_load_range(synth_ctx *c, const long *points, long first, long n, long total,
                           int paths, const double *m6, long block, synth_cache *cache,
                           cs_error *err);
/* Points whose strain fits in `bytes` (at least 1). */
long synth_strain_block(const synth_ctx *c, double bytes);
#define SYNTH_STRAIN_BLOCK_BYTES (256.0 * 1024 * 1024)
/* Bytes a cache keeps per point: combined (3 series) or full (18) spectra. */
double synth_cache_point_bytes(const synth_ctx *c, int combined);
void synth_cache_free(synth_cache *cache);
/* The same from strain already in memory (n x 3 x 6 x nt_sgt, as sgt_set_read gives it); the
 * cache takes ownership of `strain` (kept for the time path, freed otherwise). */
int synth_cache_from_strain(synth_ctx *c, const long *points, long n, float *strain, int paths,
                            const double *m6, synth_cache *cache, cs_error *err);

/* "Again with full spectra": not a status but an answer, that a subfault's moment tensor is
 * not the one its point's combined spectra were made for and the cache keeps no others, so the
 * caller reloads the cache with m6 = NULL and starts again. Its value is no cs_status's, so the
 * functions that give it return their failures as the status (and CS_CALL passes them on). */
enum { SYNTH_AGAIN_FULL = 100 };

/* The frequency path in two steps, so a rupture's points can be taken in chunks: acc (3 x nf)
 * gains the contributions of the subfaults whose points are in the cache (the others are left
 * for the chunks that hold them); synth_record turns acc into the record. synth_accumulate
 * returns 0, a status, or SYNTH_AGAIN_FULL (acc untouched from that subfault on). */
int synth_accumulate(synth_ctx *c, const synth_cache *cache, const synth_subfault *sf, long nsf,
                     double complex *acc, cs_error *err);
void synth_record(synth_ctx *c, const double complex *acc, double *vel);
/* The checks synth_accumulate makes of a subfault of a rupture of `total` points: -1 (with a
 * message) when it is refused, 0 when nothing of it reaches the record, 1 when it counts. */
int synth_subfault_usable(const synth_ctx *c, long total, const synth_subfault *s, cs_error *err);
/* The same without the window's test, for a subfault whose start time is not known yet (a GPU
 * makes it): 1 where it slips, 0 where not, -1 (err set) where it is refused. */
int synth_subfault_checked(const synth_ctx *c, long total, const synth_subfault *s, cs_error *err);
/* The time after which a subfault's slip reaches no sample of the record (s): a subfault that
 * starts at or after it is dropped. */
double synth_window_end(const synth_ctx *c);

/* vel: 3 x nt (E, N, Z; m/s), overwritten. */
int synth_frequency(synth_ctx *c, const synth_cache *cache, const synth_subfault *sf, long nsf,
                    double *vel, cs_error *err);
int synth_time(synth_ctx *c, const synth_cache *cache, const synth_subfault *sf, long nsf,
               double *vel, cs_error *err);

/* The unit moment tensor of strike/dip/rake at (lon, lat) in the SGT's box frame. */
int synth_moment_tensor(const sgt_set *s, double lon, double lat, double strike, double dip,
                        double rake, double m[6], cs_error *err);
/* The same from the box axes at the point (sgt_set_axes's, or sgt_set_locate_axes's). */
void synth_moment_tensor_in(const double axes[3][3], double strike, double dip, double rake,
                            double m[6]);

/* Subfaults of an SRF: every point located on the SGT grid (slots index `points`, which is
 * allocated here: one per subfault), its moment tensor, mu from the SGT's material, and slip
 * rates converted to SI (samples stored in *sr_si, allocated here). Slip along rake and
 * perpendicular to it (SLIP1, SLIP2) become two subfaults; opening (SLIP3) is refused. */
int synth_subfaults_from_srf(const sgt_set *s, const srf_file *srf, synth_subfault **sf, long *nsf,
                             long **points, long *npoints, double **sr_si, cs_error *err);

/* The record at the SGT set's site from one SRF file (`cybershake synth`), by the method's path
 * (SYNTH_FREQUENCY or SYNTH_TIME). */
typedef struct {
    double *vel; /* 3 x nt: E, N, Z (m/s); malloc'ed, the caller frees it */
    int nt;
    double dt;
    long nsubfaults;
} synth_seismogram;
int synth_srf_seismogram(const sgt_set *s, const char *srf_path, int method, synth_seismogram *out,
                         cs_error *err);

#endif
