#include "sgt_strain_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_hdf5.h"
#include "cs_mpi_agree.h"
#include "sgt_comm.h"

int sgt_strain_window(const sgt_config *c, int nt_out) {
    double np = c->npoints > 0 ? (double)c->npoints : 1.0;
    /* two windows of 6 floats per point and sample */
    double w = (double)c->strain_buffer_mb * 1048576.0 / (2.0 * 24.0 * np);
    int W = w >= nt_out ? nt_out : (int)w;
    if (W > 8 && W < nt_out) W -= W % 8;
    return W < 1 ? 1 : W;
}

int sgt_strain_samples_done(const sgt_state *s, int steps) {
    int m = steps / s->decimation + 1;
    return m > s->nt_out ? s->nt_out : m;
}

static MPI_Comm comm_of(const sgt_state *s) {
    return s->comm ? s->comm->comm : MPI_COMM_NULL;
}

/* The end (exclusive) of the window that starts at s->out_m0: the next multiple of the window
 * length, so that after a resume at an odd sample the windows are aligned again. */
static int window_end(const sgt_state *s) {
    int e = (s->out_m0 / s->out_window + 1) * s->out_window;
    return e < s->nt_out ? e : s->nt_out;
}

int sgt_strain_window_ends(const sgt_state *s, int m) {
    return m + 1 == window_end(s);
}

/* A thread may write only where no other thread's MPI or HDF5 calls can meet its own: one
 * process, or parallel HDF5 (MPI-IO on the writer's own communicator) with MPI_THREAD_MULTIPLE.
 * CYBERSHAKE_SGT_WRITER=sync forces the main thread (tests compare both). */
static int background_allowed(const sgt_state *s) {
    const char *e = getenv("CYBERSHAKE_SGT_WRITER");
    if (e && !strcmp(e, "sync")) return 0;
    if (comm_of(s) == MPI_COMM_NULL) return 1;
#ifdef H5_HAVE_PARALLEL
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    return provided == MPI_THREAD_MULTIPLE;
#else
    return s->comm->size == 1;
#endif
}

/* The name of the file a checkpointed run writes: next to the output, hidden, and tied to the
 * run's fingerprint so that another run never continues it. */
static int partial_name(const sgt_config *c, const char *fingerprint, char *out, size_t size,
                        cs_error *err) {
    const char *slash = strrchr(c->output, '/');
    int dir = slash ? (int)(slash - c->output + 1) : 0;
    if (snprintf(out, size, "%.*s.%s.tmp.%s", dir, c->output, c->output + dir, fingerprint) >=
        (int)size)
        return cs_error_input(err, "parameters", "output", c->output, "path too long");
    return 0;
}

int sgt_strain_writer_open(sgt_strain_writer *w, const sgt_config *c, sgt_state *s,
                           const sgt_output_meta *meta, const char *fingerprint, int steps_done,
                           cs_error *err) {
    memset(w, 0, sizeof *w);
    w->background = background_allowed(s);
    char partial[4200];
    int named = c->checkpoint_every > 0;
    if (named) CS_CALL(err, partial_name(c, fingerprint, partial, sizeof partial, err));
    s->out_m0 = steps_done > 0 ? sgt_strain_samples_done(s, steps_done) : 0;
    return sgt_output_open(c, s, meta, named ? partial : NULL, steps_done > 0, &w->file, err);
}

static void *write_job(void *arg) {
    sgt_strain_writer *w = arg;
    w->job_rc =
        sgt_output_put_strain(w->file, w->job_state, w->job_m0, w->job_len, w->job, &w->job_err);
    return NULL;
}

/* Waits for the window in flight; its failure becomes this call's. */
static int join(sgt_strain_writer *w, cs_error *err) {
    if (!w->running) return 0;
    pthread_join(w->thread, NULL);
    w->running = 0;
    if (w->job_rc) {
        *err = w->job_err;
        return w->job_rc;
    }
    return 0;
}

/* The window's series were laid out out_window samples apart; the file wants len apart. */
static void compact(sgt_state *s, int len) {
    const long rows = s->npoints * 6;
    const int W = s->out_window;
    if (len == W) return;
    for (long r = 1; r < rows; r++)
        memmove(s->out + r * len, s->out + r * W, (size_t)len * sizeof(float));
}

/* A blown-up run is worthless: refuse to write NaN or Inf. */
static int check_finite(const sgt_state *s, int len, cs_error *err) {
    const long n = s->npoints * 6 * (long)len;
    for (long q = 0; q < n; q++)
        if (!isfinite(s->out[q]))
            return cs_error_set(err, CS_ERR_INPUT,
                                "the strain at save point %ld is not finite at sample %ld; the run "
                                "went unstable (check dt and the model)",
                                s->pt_row[q / (6L * len)], s->out_m0 + q % len);
    return 0;
}

static int commit_samples(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, int len,
                          int rc, cs_error *err) {
    if (!rc && len > 0 && be->drain) rc = be->drain(s, err);
    if (!rc && len > 0) {
        compact(s, len);
        rc = check_finite(s, len, err);
    }
    CS_CALL(err, cs_mpi_agree(comm_of(s), rc, err));
    CS_CALL(err, cs_mpi_agree(comm_of(s), join(w, err), err));
    if (len <= 0) return 0;
    if (w->background) {
        w->job_state = s;
        w->job = s->out;
        w->job_m0 = s->out_m0;
        w->job_len = len;
        w->job_rc = 0;
        rc = pthread_create(&w->thread, NULL, write_job, w)
                 ? cs_error_set(err, CS_ERR_RESOURCE, "cannot start the thread that writes strain")
                 : 0;
        w->running = !rc;
        float *t = s->out;
        s->out = s->out_spare;
        s->out_spare = t;
    } else {
        rc = sgt_output_put_strain(w->file, s, s->out_m0, len, s->out, err);
    }
    s->out_m0 += len;
    return cs_mpi_agree(comm_of(s), rc, err);
}

int sgt_strain_writer_commit(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, int rc,
                             cs_error *err) {
    return commit_samples(w, be, s, window_end(s) - s->out_m0, rc, err);
}

int sgt_strain_writer_sync(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, int steps,
                           cs_error *err) {
    CS_CALL(err, commit_samples(w, be, s, sgt_strain_samples_done(s, steps) - s->out_m0, 0, err));
    CS_CALL(err, cs_mpi_agree(comm_of(s), join(w, err), err));
    return cs_mpi_agree(comm_of(s), sgt_output_flush(w->file, err), err);
}

int sgt_strain_writer_close(sgt_strain_writer *w, const sgt_backend *be, sgt_state *s, char sha[65],
                            double *bytes, cs_error *err) {
    CS_CALL(err, commit_samples(w, be, s, s->nt_out - s->out_m0, 0, err));
    CS_CALL(err, cs_mpi_agree(comm_of(s), join(w, err), err));
    int rc = sgt_output_close(w->file, sha, bytes, err);
    w->file = NULL;
    return rc;
}

void sgt_strain_writer_abandon(sgt_strain_writer *w) {
    cs_error ignored;
    join(w, &ignored);
    sgt_output_abandon(w->file);
    w->file = NULL;
}
