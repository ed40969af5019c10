/* The extraction of one site run (docs/architecture.md, "extract"): every rupture variation of
 * every rupture within the site's cutoff, synthesised from the site's three SGT files by
 * reciprocity, its intensity measures into PeakAmplitudes and, when asked, its seismogram into one
 * HDF5 file per run.
 *
 * Ranks: rank 0 keeps the study database and the output files and hands ruptures, largest
 * first, to the other ranks as each finishes one (dynamic load balancing); with one rank it does
 * the work itself. Every worker reads from the SGT files only the save points of the rupture in
 * hand, so no process holds more SGT than one rupture's, whatever the site's size.
 *
 * Restart: each rupture's rows (PeakAmplitudes, its Rupture_Variations, and a row in
 * Extraction_Ruptures) go into the study in one transaction, after its seismograms are in
 * place, so a killed run resumed with the same command skips the finished ruptures and never
 * writes a row twice. The SGT files' SHA-256 are recorded with the run and checked before they
 * are used again. */
#ifndef EXTRACT_RUN_H
#define EXTRACT_RUN_H

#include <mpi.h>

#include "cs_error.h"
#include "im.h"
#include "rupgen.h"

typedef struct {
    char study[4096];
    long long run_id; /* 0: a new run of site/erf/scenario with the SGT files below */
    char site[64];
    char erf[128];
    char scenario[128]; /* "" : the generator's scenario for gen (created if new) */
    char sgt[3][4096];
    char seismograms[4096]; /* HDF5 file of every record, "" for none */
    im_config ims;
    int method; /* SYNTH_FREQUENCY or SYNTH_TIME */
    rupgen_params gen;
    double max_memory_gb; /* per rank for one rupture; <= 0: the default (4) */
    int backend;          /* EXTRACT_CPU or EXTRACT_CUDA */
} extract_options;

enum { EXTRACT_CPU = 0, EXTRACT_CUDA = 1 };

typedef struct {
    long long run_id;
    long ruptures_total, ruptures_done_before, ruptures_done_now;
    long variations_now;
    double seconds;
    double peak_rss;       /* bytes: the largest resident set of a worker (getrusage) */
    double peak_rss_rank0; /* bytes: rank 0's (the study, and the work with one rank) */
} extract_result;

/* Every rank calls it; errors are agreed so every rank returns the same status (the message is
 * complete on rank 0). */
int extract_run(MPI_Comm comm, const extract_options *o, extract_result *r, cs_error *err);

#endif
