/* One rupture's work in the extractor: every variation's seismogram and intensity measures.
 * Variations are generated in memory (rupgen, with the rigidity and density of the SGT's
 * material at each point, so the moment the synthesis uses is the magnitude's exactly) or read
 * from SRF files. */
#ifndef EXTRACT_RUPTURE_H
#define EXTRACT_RUPTURE_H

#include "erf_rupture.h"
#include "im.h"
#include "rupgen.h"
#include "synth_spectra_cache.h"
#include "synth.h"
#include "synth_gpu.h"
#include "variation_source.h"

/* The phases of a rupture's extraction, timed on each worker. */
enum {
    EXTRACT_OPEN,    /* its points located, tensors and slip realisations made */
    EXTRACT_READ,    /* its points' SGT rows read */
    EXTRACT_SPECTRA, /* their spectra (the device's, or the CPU's cache) */
    EXTRACT_MAKE,    /* the variations' subfaults made and staged */
    EXTRACT_SUM,     /* waiting for the device's records (GPU) or summing (CPU) */
    EXTRACT_MEASURE, /* the records' measures */
    EXTRACT_NPHASES
};

typedef struct {
    const sgt_set *sgt;
    synth_ctx *synth;
    const im_config *ims;
    int nim;
    int method; /* SYNTH_FREQUENCY or SYNTH_TIME */
    const rupgen_params *gen;
    int want_seis;
    double max_memory; /* bytes a rank may hold for one rupture (<= 0: the default, 4 GB) */
    synth_gpu *gpu;    /* the CUDA extractor of this rank, or NULL: the CPU */
    int gpu_measures;  /* the device gives the records' measures (im.h's given layout) */
    int gpu_times;     /* the device makes generated variations' rupture times */
    /* which of the device's rows of spectra hold which points, kept across ruptures (GPU; NULL
     * when the rank loads each rupture's points anew) */
    synth_spectra_cache *cache;
    /* the measures' workspaces, one per OpenMP thread (made as each thread first needs one;
     * extract_worker_free_workspaces frees them) */
    im_workspace **imws;
    int nimws;
    /* where the rank's time went (wall seconds per phase), for its closing line */
    double phase[EXTRACT_NPHASES];
    long ruptures, variations;
    double points_made, points_kept; /* points' spectra made, and found kept (GPU) */
    long together;                   /* ruptures whose variations shared batches (GPU) */
} extract_worker;

/* What a worker counts besides its phases, in the order extract_worker_report takes them. */
enum {
    EXTRACT_RUPTURES,
    EXTRACT_VARIATIONS,
    EXTRACT_POINTS_MADE,
    EXTRACT_POINTS_KEPT,
    EXTRACT_TOGETHER,
    EXTRACT_NCOUNTS
};

/* The log line of where the workers' time went: seconds per phase (phase[EXTRACT_NPHASES]) and
 * the counts (count[EXTRACT_NCOUNTS]), summed over nranks workers. */
void extract_worker_report(const double *phase, const double *count, int nranks, int gpu);

/* Room for a workspace per thread the rank may run (none made yet). */
int extract_worker_workspaces(extract_worker *w, cs_error *err);
void extract_worker_free_workspaces(extract_worker *w);

typedef struct {
    int nvar, nim, nt;
    double *ims;  /* nvar x nim */
    double *hypo; /* nvar x 4: lat, lon, depth (km), slip realisation */
    float *seis;  /* nvar x 3 x nt (E, N, Z; m/s; Z NaN for a horizontal-only set), or NULL */
} rupture_result;

/* The back ends' answer for a rupture that needs every component's spectra (a subfault's
 * tensor is not its point's combination: SRFs with other rakes or a second slip direction):
 * extract_rupture starts it again with full = 1. Not a status (synth.h, SYNTH_AGAIN_FULL). */
enum { EXTRACT_AGAIN_FULL = SYNTH_AGAIN_FULL };
/* The CUDA extractor's answer for ruptures that cannot share batches: take each alone. Not a
 * status either. */
enum { EXTRACT_ALONE = SYNTH_AGAIN_FULL + 1 };

/* The status of a failure reported as -1 with err set (variation_source_produce, whose answer
 * VARIATION_OTHER_POINTS is 2), traced from the caller's frame by the caller. */
static inline int extract_failure(const cs_error *err) {
    return err->status ? (int)err->status : CS_ERR_INTERNAL;
}

/* lfns: nvar SRF paths, or NULL to generate variations 0..nvar-1. */
int extract_rupture(extract_worker *w, const erf_rupture *r, int nvar, char *const *lfns,
                    rupture_result *out, cs_error *err);
void extract_rupture_result_free(rupture_result *res);
/* Generated ruptures r[0 .. nr) (no SRF files), rupture k's result into out[k] and its status
 * into rc[k] (err[k] its message): on a GPU rank their variations share the device's batches
 * where they can, else each is taken alone (extract_rupture), with the same results either
 * way. */
void extract_ruptures(extract_worker *w, const erf_rupture *r, const int *nvar, int nr,
                      rupture_result *out, int *rc, cs_error *err);

/* For the back ends: a finished record's IMs (and seismogram when kept) into out at v, and the
 * variation's name put before an error's message. */
int extract_take_record(extract_worker *w, const double *vel, rupture_result *out, int v,
                        cs_error *err);
/* The same with the record's measures given (the device's, im_compute_in_given's layout), or
 * NULL. */
int extract_take_record_given(extract_worker *w, const double *vel, const double *given,
                              rupture_result *out, int v, cs_error *err);
void extract_name_variation(const variation_source *src, int v, cs_error *err);

#endif
