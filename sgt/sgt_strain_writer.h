/* The strain of the save points streamed into the SGT file while the run goes on.
 *
 * The host holds two windows of `out_window` samples of every local point (sgt_state.out and
 * out_spare): the solver fills one while the other is written, on a thread of its own where
 * that is safe (one rank, or parallel HDF5 with MPI_THREAD_MULTIPLE), on the main thread
 * otherwise (ranks sending their rows to rank 0 through serial HDF5). Host memory is therefore
 * independent of the number of steps, and bounded by `strain_buffer_mb` for any number of save
 * points: the window shrinks as points are added, down to one sample. Windows are aligned to
 * multiples of out_window (the file's chunk length in time), so each write covers whole chunks.
 *
 * A checkpoint first writes everything saved so far and flushes the file (sgt_strain_writer_sync);
 * the checkpoint then holds the fields and the step only, never strain. With checkpoints the
 * file being written has a name derived from the run's fingerprint next to the output
 * (".NAME.tmp.FINGERPRINT"), which a resumed run reopens and continues from the checkpoint's
 * sample; the samples written after the checkpoint are written again, with the same values.
 *
 * Every call is collective over the run's ranks. */
#ifndef SGT_STRAIN_WRITER_H
#define SGT_STRAIN_WRITER_H

#include <pthread.h>

#include "sgt_output.h"
#include "sgt_run.h"

typedef struct {
    sgt_output *file;
    int background; /* windows written on a thread of their own */
    pthread_t thread;
    int running;
    /* the window the thread writes */
    const sgt_state *job_state;
    const float *job;
    int job_m0, job_len, job_rc;
    cs_error job_err;
} sgt_strain_writer;

/* Samples per window for a run's save points and `strain_buffer_mb` (the same on every rank,
 * as the file's chunks are): at most nt_out, at least 1, a multiple of 8 above 8 (so the GPU's
 * batches of samples divide it). */
int sgt_strain_window(const sgt_config *c, int nt_out);
/* Samples of the strain complete after `steps` steps: 0 .. steps / decimation. */
int sgt_strain_samples_done(const sgt_state *s, int steps);

/* Opens the SGT file; `steps_done` > 0 continues a checkpointed run's file from
 * sgt_strain_samples_done(steps_done). */
int sgt_strain_writer_open(sgt_strain_writer *w, const sgt_config *c, sgt_state *s,
                           const sgt_output_meta *meta, const char *fingerprint, int steps_done,
                           cs_error *err);
/* Is sample m the last of the current window? The same answer on every rank. */
int sgt_strain_window_ends(const sgt_state *s, int m);
/* Hands the current window, complete through the last sample saved, to the file and starts the
 * next one. `rc`: this rank's status so far (agreed first, so a failure anywhere stops every
 * rank before any collective write). */
int sgt_strain_writer_commit(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, int rc,
                             cs_error *err);
/* Everything saved in `steps` steps written and flushed: the file a checkpoint can name. */
int sgt_strain_writer_sync(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, int steps,
                           cs_error *err);
/* Writes the last window, closes, checksums and renames the file into place. */
int sgt_strain_writer_close(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, char sha[65],
                            double *bytes, cs_error *err);
/* After a failure: waits for the thread, closes the file (kept when a checkpoint can resume
 * it). */
void sgt_strain_writer_abandon(sgt_strain_writer *w);

#endif
