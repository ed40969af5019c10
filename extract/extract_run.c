#include "extract_run.h"

#include <limits.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cs_log.h"
#include "cs_progress.h"
#include "cs_strutil.h"
#include "extract_rupture.h"
#include "extract_study.h"
#include "extract_batch_rule.h"
#include "extract_message.h"
#include "cs_mpi_agree.h"

enum { TAG_TASK = 11, TAG_RESULT = 12, TAG_STOP = 13 };

/* ------------------------------------------------------------------------- every rank: work */

typedef struct {
    sgt_set sgt;
    synth_ctx synth;
    extract_worker w;
    int nim;
} worker_state;

/* The rank's GPU, by its rank among the node's `ranks` GPU ranks (several may share a device,
 * so that the host's work, making the variations and their measures, spreads over more ranks);
 * the spectra get the rank's share of the device once the load and batch buffers are set
 * aside. */
static int open_gpu(worker_state *ws, int local, int ranks, cs_error *err) {
    synth_gpu_shape shape = {
        ws->synth.nf,       ws->synth.L,
        ws->synth.up,       ws->synth.nt,
        ws->synth.nt_sgt,   ws->synth.dt_sgt,
        ws->sgt.time_shift, {ws->sgt.impulse[0], ws->sgt.impulse[1], ws->sgt.impulse[2]}};
    long block = 128;
    int batch = 0; /* extract_batch_rule.h's below */
    /* settings for tuning, and for tests that take the chunked and multi-batch paths on a
     * small site: variations per batch, points of spectra the device keeps at most (and
     * CYBERSHAKE_GPU_SUM_RUNS below) */
    long v;
    const char *e = getenv("CYBERSHAKE_GPU_BATCH");
    if (e && !cs_parse_long(e, &v) && v >= 1 && v <= 4096) batch = (int)v;
    long most = 0;
    e = getenv("CYBERSHAKE_GPU_POINTS");
    if (e && !cs_parse_long(e, &v) && v >= 1) most = v;
    /* the node's cores shared by its GPU ranks, unless OMP_NUM_THREADS says otherwise */
    if (ranks > 1 && !getenv("OMP_NUM_THREADS")) {
        int per = omp_get_num_procs() / ranks;
        omp_set_num_threads(per < 1 ? 1 : per);
    }
    double fr = synth_gpu_free_bytes(local, ranks);
    if (fr < 0) return synth_gpu_available(err) ? -1 : cs_error_set(err, CS_ERR_RESOURCE, "no GPU");
    /* the records' measures on the device (most of the host's time otherwise), unless
     * CYBERSHAKE_GPU_MEASURES=0 (for comparisons); their buffers set aside first. The band's
     * broadband measures (fmax <= 0: none given) stay on the host. */
    e = getenv("CYBERSHAKE_GPU_MEASURES");
    const im_config *ims = ws->w.ims;
    int want_fas[IM_MAX_PERIODS], want_dur[IM_MAX_PERIODS];
    im_band_periods(ims, want_fas, want_dur);
    synth_gpu_measures meas = {ims->nperiods, ims->periods, want_fas,  want_dur,
                               ims->damping,  ws->synth.dt, ims->ko_b, ims->vertical ? 3 : 2};
    int on_device = !(e && !strcmp(e, "0"));
    if (!batch) batch = extract_batch_for(&shape, block, on_device ? &meas : NULL, fr);
    double meas_bytes = on_device ? synth_gpu_measures_bytes(&shape, batch, &meas) : 0;
    double rest = 0.85 * fr - synth_gpu_bytes(&shape, block, batch, 0) - meas_bytes;
    long points = (long)(rest / synth_gpu_bytes(&shape, 0, 0, 1));
    if (most > 0 && points > most) points = most;
    if (points < 1)
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "the GPU has %.2f GB free, too little for the extractor's buffers "
                            "(%.2f GB)",
                            fr / 1e9, synth_gpu_bytes(&shape, block, batch, 1) / 1e9);
    CS_CALL(err, synth_gpu_open(&ws->w.gpu, local, &shape, block, batch, points, err));
    /* generated variations' rupture times on the device, unless CYBERSHAKE_GPU_TIMES=0 (for
     * comparisons: the host's Dijkstra, the same times bit for bit) */
    e = getenv("CYBERSHAKE_GPU_TIMES");
    ws->w.gpu_times = !(e && !strcmp(e, "0"));
    /* for tests: the device's sums cut into this many runs a variation */
    e = getenv("CYBERSHAKE_GPU_SUM_RUNS");
    if (e && !cs_parse_long(e, &v) && v >= 1 && v <= 64) synth_gpu_set_sum_runs(ws->w.gpu, (int)v);
    if (on_device) {
        CS_CALL(err, synth_gpu_set_measures(ws->w.gpu, &meas, err));
        ws->w.gpu_measures = 1;
    }
    /* the rank's threads open its ruptures, each locating points through a frame of its own */
    CS_CALL(err, sgt_set_frames(&ws->sgt, omp_get_max_threads(), err));
    /* the spectra kept across ruptures: rows for twice the site's save points at most (a point
     * on two faults has two tensors), or none when CYBERSHAKE_GPU_KEEP=0 (for comparisons) */
    e = getenv("CYBERSHAKE_GPU_KEEP");
    long rows = synth_gpu_rows(ws->w.gpu, 3), most_rows = 2 * ws->sgt.npoints + 1024;
    if (!(e && !strcmp(e, "0"))) {
        if (!(ws->w.cache = malloc(sizeof *ws->w.cache)))
            return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        CS_CALL(err,
                synth_spectra_cache_init(ws->w.cache, rows < most_rows ? rows : most_rows, err));
    }
    /* the host makes the variations and takes the measures with the rank's threads: a rank
     * that mpirun bound to one core does all of it on that core */
    cpu_set_t cpus;
    if (!sched_getaffinity(0, sizeof cpus, &cpus) && CPU_COUNT(&cpus) < 2)
        cs_warn("this GPU rank may use one core only (mpirun binds ranks to cores): the "
                "variations and measures the host makes for the GPU run on one thread; start "
                "it with mpirun --bind-to none (or --map-by node:PE=N)");
    cs_log(CS_LOG_INFO,
           "extraction on %s: spectra of up to %ld points (%ld combined), %d "
           "variations a batch",
           synth_gpu_device_name(ws->w.gpu), points, synth_gpu_rows(ws->w.gpu, 3), batch);
    return 0;
}

static int worker_open(worker_state *ws, const run_config *cfg, cs_error *err) {
    memset(ws, 0, sizeof *ws);
    CS_CALL(err, sgt_set_open_list(&ws->sgt, cfg->sgt, err));
    int rc;
    CS_CALL_GOTO(rc, err, synth_init(&ws->synth, &ws->sgt, err), close_sgt);
    im_type *types;
    CS_CALL_GOTO(rc, err, im_types(&cfg->ims, &types, &ws->nim, err), free_synth);
    free(types);
    ws->w = (extract_worker){.sgt = &ws->sgt,
                             .synth = &ws->synth,
                             .ims = &cfg->ims,
                             .nim = ws->nim,
                             .method = cfg->method,
                             .gen = &cfg->gen,
                             .want_seis = cfg->want_seis,
                             .max_memory = cfg->max_memory};
    CS_CALL_GOTO(rc, err, extract_worker_workspaces(&ws->w, err), free_synth);
    return 0;
free_synth:
    synth_free(&ws->synth);
close_sgt:
    sgt_set_close(&ws->sgt);
    return rc;
}

static void worker_close(worker_state *ws) {
    extract_worker_free_workspaces(&ws->w);
    if (ws->w.cache) synth_spectra_cache_free(ws->w.cache);
    free(ws->w.cache);
    synth_gpu_close(ws->w.gpu);
    synth_free(&ws->synth);
    sgt_set_close(&ws->sgt);
}

/* A task's rupture (and its SRF paths, pointing into the task, when it has files). */
static int parse_task(const char *task, task_header *h, erf_rupture *r, char ***lfns,
                      cs_error *err) {
    memcpy(h, task, sizeof *h);
    *lfns = NULL;
    CS_CALL(err, erf_rupture_alloc(r, h->nrows, h->ncols, err));
    long n = (long)h->nrows * h->ncols;
    const char *p = task + sizeof *h;
    double *cols[6] = {r->lat, r->lon, r->dep, r->rake, r->dip, r->stk};
    for (int c = 0; c < 6; c++) {
        memcpy(cols[c], p, sizeof(double) * (size_t)n);
        p += sizeof(double) * (size_t)n;
    }
    r->source_id = h->source;
    r->rupture_id = h->rupture;
    r->magnitude = h->magnitude;
    r->spacing_km = h->spacing_km;
    r->prob = h->prob;
    if (!h->from_files) return 0;
    *lfns = malloc(sizeof(char *) * (size_t)h->nvar);
    if (!*lfns) {
        erf_rupture_free(r);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    for (int v = 0; v < h->nvar; v++) {
        (*lfns)[v] = (char *)p;
        p += strlen(p) + 1;
    }
    return 0;
}

/* The result message of a task's rupture (header + hypocentres + IMs + seismograms; the failure
 * alone when rc is one), out freed. *res_size < 0: *res is static (nothing could be packed but
 * the failure). */
/* slot: the result's place in its reply (0 .. EXTRACT_MESSAGE_MOST - 1): where memory runs
 * out, each failed result has a header of its own until the reply is packed. */
static void pack_result(const worker_state *ws, const task_header *h, int rc, const cs_error *err,
                        rupture_result *out, int slot, char **res, long *res_size) {
    result_header rh = {h->source, h->rupture, h->nvar, ws->nim, ws->synth.nt, 0, 0, ""};
    if (rc) {
        rh.status = err->status ? (int)err->status : CS_ERR_INTERNAL;
        cs_copy(rh.message, sizeof rh.message, err->message);
        rh.nvar = 0;
    }
    rh.has_seis = !rc && out->seis != NULL;
    size_t nh = sizeof(double) * 4 * (size_t)rh.nvar,
           ni = sizeof(double) * (size_t)rh.nvar * rh.nim;
    size_t ns = rh.has_seis ? sizeof(float) * 3 * (size_t)rh.nt * (size_t)rh.nvar : 0;
    *res_size = (long)(sizeof rh + nh + ni + ns);
    *res = malloc((size_t)*res_size);
    if (!*res) {
        /* nothing can be sent back but the failure itself */
        static result_header oom[EXTRACT_MESSAGE_MOST];
        result_header *o = &oom[slot];
        *o = rh;
        o->status = CS_ERR_RESOURCE;
        o->nvar = 0;
        o->has_seis = 0;
        snprintf(o->message, sizeof o->message, "out of memory packing a result");
        *res = (char *)o;
        *res_size = -(long)sizeof *o;
        extract_rupture_result_free(out);
        return;
    }
    char *p = *res;
    memcpy(p, &rh, sizeof rh);
    p += sizeof rh;
    if (nh) memcpy(p, out->hypo, nh);
    p += nh;
    if (ni) memcpy(p, out->ims, ni);
    p += ni;
    if (ns) memcpy(p, out->seis, ns);
    extract_rupture_result_free(out);
}

/* Runs one task; fills the result. */
static void run_task(worker_state *ws, const char *task, char **res, long *res_size) {
    task_header h;
    cs_error err;
    cs_error_clear(&err);
    erf_rupture r;
    rupture_result out = {0};
    char **lfns = NULL;
    int rc = parse_task(task, &h, &r, &lfns, &err);
    /* a chain, not CS_CALL: failed or not, a result goes back to rank 0, which waits for it */
    if (!rc) {
        rc = extract_rupture(&ws->w, &r, h.nvar, lfns, &out, &err);
        erf_rupture_free(&r);
    }
    free(lfns);
    pack_result(ws, &h, rc, &err, &out, 0, res, res_size);
}

/* Runs the tasks of a message of several (generated ruptures, whose variations share a GPU's
 * batches): each one's result into res[k]. */
static void run_together(worker_state *ws, const char *const *task, int count, char **res,
                         long *res_size) {
    /* static: a message's errors alone are 3 KB a part (0.8 MB for EXTRACT_MESSAGE_MOST), and
     * the worker's loop calls this from one thread */
    static task_header h[EXTRACT_MESSAGE_MOST];
    static erf_rupture r[EXTRACT_MESSAGE_MOST];
    static rupture_result out[EXTRACT_MESSAGE_MOST];
    static cs_error err[EXTRACT_MESSAGE_MOST];
    static int rc[EXTRACT_MESSAGE_MOST], nvar[EXTRACT_MESSAGE_MOST];
    int parsed = 0;
    memset(out, 0, sizeof out);
    cs_error_clear(&err[0]);
    for (; parsed < count; parsed++) {
        char **lfns = NULL;
        if (parse_task(task[parsed], &h[parsed], &r[parsed], &lfns, &err[0])) break;
        int files = lfns != NULL; /* rank 0 groups no ruptures with files */
        free(lfns);
        nvar[parsed] = h[parsed].nvar;
        if (files) {
            cs_error_set(&err[0], CS_ERR_INTERNAL, "a rupture with SRF files in a group of %d",
                         count);
            erf_rupture_free(&r[parsed]);
            break;
        }
    }
    if (parsed == count) {
        extract_ruptures(&ws->w, r, nvar, count, out, rc, err);
    } else {
        for (int k = 0; k < count; k++) {
            memcpy(&h[k], task[k], sizeof h[k]);
            rc[k] = CS_ERR_INTERNAL;
            err[k] = err[0];
        }
    }
    for (int k = 0; k < parsed; k++)
        erf_rupture_free(&r[k]);
    for (int k = 0; k < count; k++)
        pack_result(ws, &h[k], rc[k], &err[k], &out[k], k, &res[k], &res_size[k]);
}

static void free_result(char *res, long size) {
    if (size >= 0) free(res);
}

/* The variations rank 0 puts in one message of small ruptures: EXTRACT_GROUP_BATCHES of the GPU
 * ranks' smallest batch (0 on the CPU: a rupture a message), or CYBERSHAKE_GROUP_VARIATIONS
 * (tests take the group path on the CPU with it; 0 turns it off). Every rank calls it. A
 * message's batches go through the pipeline of extract_gpu.c, the host making batch i + 1 while
 * the device sums batch i; only its first batch's making and its last batch's measures wait for
 * each other, so several batches a message (extract_batch_rule.h). */
static int tasks_grouped(MPI_Comm comm, const worker_state *ws, int backend) {
    int mine = ws->w.gpu ? synth_gpu_batch(ws->w.gpu) : INT_MAX, least = INT_MAX;
    MPI_Allreduce(&mine, &least, 1, MPI_INT, MPI_MIN, comm);
    long v;
    const char *e = getenv("CYBERSHAKE_GROUP_VARIATIONS");
    if (e && !cs_parse_long(e, &v) && v >= 0 && v <= 1000000) return (int)v;
    return backend == EXTRACT_CUDA && least < INT_MAX ? EXTRACT_GROUP_BATCHES * least : 0;
}

/* A result message of one failure in static memory (*size < 0): what goes back when nothing
 * else can be packed. */
static void failure_message(const result_header *rh, char **out, long *size) {
    static char buf[sizeof(long) * 2 + sizeof(result_header)];
    long head[2] = {1, (long)sizeof *rh};
    memcpy(buf, head, sizeof head);
    memcpy(buf + sizeof head, rh, sizeof *rh);
    *out = buf;
    *size = -(long)sizeof buf;
}

/* Runs a task message (one task or several, extract_message.h); its results as one message (*size
 * < 0: *out is static, the failure to pack them). */
static void run_message(worker_state *ws, const char *msg, long msg_size, char **out, long *size) {
    const char *task[EXTRACT_MESSAGE_MOST];
    long tsize[EXTRACT_MESSAGE_MOST], rsize[EXTRACT_MESSAGE_MOST];
    char *res[EXTRACT_MESSAGE_MOST];
    int count = 0;
    cs_error err;
    cs_error_clear(&err);
    if (extract_message_parts(msg, msg_size, &count, task, tsize, &err)) {
        /* a malformed message: rank 0 stops the run on this failure */
        result_header rh = {0, 0, 0, 0, 0, (int)err.status, 0, ""};
        cs_copy(rh.message, sizeof rh.message, err.message);
        failure_message(&rh, out, size);
        return;
    }
    if (count == 1)
        run_task(ws, task[0], &res[0], &rsize[0]);
    else
        run_together(ws, task, count, res, rsize);
    long abs_size[EXTRACT_MESSAGE_MOST];
    for (int k = 0; k < count; k++)
        abs_size[k] = rsize[k] < 0 ? -rsize[k] : rsize[k];
    if (extract_message_pack(res, abs_size, count, out, size, &err)) {
        result_header rh;
        memcpy(&rh, res[0], sizeof rh);
        rh.status = CS_ERR_RESOURCE;
        rh.nvar = rh.has_seis = 0;
        cs_copy(rh.message, sizeof rh.message, err.message);
        failure_message(&rh, out, size);
    }
    for (int k = 0; k < count; k++)
        free_result(res[k], rsize[k]);
}

/* Records every result of a result message, the reply to `tasks` tasks; *nvar += their
 * variations, *done += their ruptures. A failure's result is the run's error, and so is a reply
 * that holds another number of results (a rupture would go unrecorded). */
static int take_results(master *m, const char *msg, long size, int tasks, long *nvar, long *done,
                        cs_error *err) {
    const char *res[EXTRACT_MESSAGE_MOST];
    long rsize[EXTRACT_MESSAGE_MOST];
    int count;
    CS_CALL(err, extract_message_parts(msg, size, &count, res, rsize, err));
    if (count != tasks) {
        /* a failure's reply holds that failure alone */
        result_header h;
        memcpy(&h, res[0], sizeof h);
        if (!h.status)
            return cs_error_set(err, CS_ERR_INTERNAL,
                                "a worker's reply holds %d results for %d tasks (source %lld "
                                "rupture %lld first)",
                                count, tasks, h.source, h.rupture);
    }
    for (int k = 0; k < count; k++) {
        long nv = 0;
        CS_CALL(err, extract_study_take_result(m, res[k], m->scen_has_files, &nv, err));
        *nvar += nv;
        ++*done;
    }
    return 0;
}

/* Whether every result of a result message succeeded. */
static int all_succeeded(const char *msg, long size) {
    const char *res[EXTRACT_MESSAGE_MOST];
    long rsize[EXTRACT_MESSAGE_MOST];
    int count;
    cs_error err;
    if (extract_message_parts(msg, size, &count, res, rsize, &err)) return 0;
    for (int k = 0; k < count; k++) {
        result_header h;
        if (rsize[k] < (long)sizeof h) return 0;
        memcpy(&h, res[k], sizeof h);
        if (h.status) return 0;
    }
    return 1;
}

/* MPI counts bytes in an int: a message over 2 GiB cannot go as one. */
static int fits_one_message(long size) {
    return size <= INT_MAX;
}

static int recv_any(MPI_Comm comm, int tag, int src, char **buf, long *size, int *from) {
    MPI_Status st;
    int count;
    MPI_Probe(src, tag, comm, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    *size = count;
    *buf = malloc((size_t)count + 1);
    if (!*buf) return -1;
    MPI_Recv(*buf, count, MPI_BYTE, st.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
    *from = st.MPI_SOURCE;
    return 0;
}

/* Rank 0's side of a worker: each worker holds TASKS_AHEAD tasks, the one it works on and the
 * next, so that it goes on while rank 0 stores its last result (storing was 79 of the 130 s of
 * a production-shaped site's extraction, and every worker waited through its own). The tasks
 * go without blocking (a task larger than the eager limit would otherwise wait for a worker
 * that is itself sending a result): slot k's buffer lives until its send completes. */
enum { TASKS_AHEAD = 2 };
typedef struct {
    MPI_Request req[TASKS_AHEAD];
    char *task[TASKS_AHEAD];
    int tasks[TASKS_AHEAD]; /* the ruptures of each slot's message */
    int slot, stopped;
} worker_link;

static void link_init(worker_link *l) {
    memset(l, 0, sizeof *l);
    for (int k = 0; k < TASKS_AHEAD; k++)
        l->req[k] = MPI_REQUEST_NULL;
}

/* The sends done and their buffers freed. */
static void link_drain(worker_link *l) {
    for (int k = 0; k < TASKS_AHEAD; k++) {
        MPI_Wait(&l->req[k], MPI_STATUS_IGNORE);
        free(l->task[k]);
        l->task[k] = NULL;
    }
}

/* Gives worker w the next rupture, or tells it (once) to stop; returns 1 when it got work. The
 * slot reused is the one of the task whose result just came (a worker answers its tasks in
 * order), so its send is done. */
static int hand_out(master *m, const run_config *cfg, task_queue *q, worker_link *l, int w,
                    MPI_Comm comm, int *rc, cs_error *err) {
    const int k = l->slot;
    l->slot = (k + 1) % TASKS_AHEAD;
    MPI_Wait(&l->req[k], MPI_STATUS_IGNORE);
    free(l->task[k]);
    l->task[k] = NULL;
    if (!*rc && !l->stopped) {
        char *task = NULL;
        long tsize = 0;
        int count = 0;
        *rc = extract_study_next_task(m, cfg, q, &task, &tsize, &count, err);
        if (!*rc && task && !fits_one_message(tsize)) {
            task_header h;
            memcpy(&h, task + sizeof(long) * (1 + count), sizeof h);
            *rc = cs_error_set(err, CS_ERR_RESOURCE,
                               "the task of source %lld rupture %lld is %ld bytes, more than one "
                               "MPI message carries (2 GiB)",
                               h.source, h.rupture, tsize);
        }
        if (!*rc && task) {
            MPI_Isend(task, (int)tsize, MPI_BYTE, w, TAG_TASK, comm, &l->req[k]);
            l->task[k] = task;
            l->tasks[k] = count;
            return 1;
        }
        free(task);
    }
    /* without blocking too: the worker may be sending a result before it takes this (a
     * synchronous send of it would then wait for a worker that waits for rank 0) */
    if (!l->stopped) MPI_Isend(NULL, 0, MPI_BYTE, w, TAG_STOP, comm, &l->req[k]);
    l->stopped = 1;
    return 0;
}

/* A worker's results, or when they are too big for one message, the failure that says so. */
static void send_result(const char *out, long size, MPI_Comm comm) {
    if (fits_one_message(size)) {
        MPI_Send(out, (int)size, MPI_BYTE, 0, TAG_RESULT, comm);
        return;
    }
    long count;
    memcpy(&count, out, sizeof count);
    result_header fail;
    memcpy(&fail, out + sizeof(long) * (1 + count), sizeof fail);
    snprintf(fail.message, sizeof fail.message,
             "the result of source %lld rupture %lld%s is %ld bytes, more than one MPI message "
             "carries (2 GiB); run it on one rank or without --seismograms",
             fail.source, fail.rupture, count > 1 ? " and the ruptures with it" : "", size);
    fail.status = CS_ERR_RESOURCE;
    fail.nvar = 0;
    fail.has_seis = 0;
    char *msg;
    long msg_size;
    failure_message(&fail, &msg, &msg_size);
    MPI_Send(msg, (int)-msg_size, MPI_BYTE, 0, TAG_RESULT, comm);
}

int extract_run(MPI_Comm comm, const extract_options *o, extract_result *res, cs_error *err) {
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    memset(res, 0, sizeof *res);
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    master m;
    memset(&m, 0, sizeof m);
    int rc = 0;
    if (rank == 0) rc = extract_study_prepare(&m, o, &cfg, err);
    rc = cs_mpi_agree(comm, rc, err);
    if (!rc) MPI_Bcast(&cfg, (int)sizeof cfg, MPI_BYTE, 0, comm);
    worker_state ws;
    /* a chain, not CS_CALL: every rank reaches the agreement below */
    if (!rc) rc = worker_open(&ws, &cfg, err);
    rc = cs_mpi_agree(comm, rc, err);
    /* with several ranks rank 0 only keeps the study: the workers take the GPUs, by their rank
     * among the node's ranks (every rank takes part in the split) */
    int local = 0, with0 = 0, on_node = 1;
    if (!rc && cfg.backend == EXTRACT_CUDA) {
        MPI_Comm node;
        MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &local);
        MPI_Comm_size(node, &on_node);
        int is0 = rank == 0 && size > 1;
        MPI_Allreduce(&is0, &with0, 1, MPI_INT, MPI_MAX, node);
        MPI_Comm_free(&node);
    }
    /* rank 0, first of its node, takes no GPU: the node's workers count from its next rank */
    if (!rc && cfg.backend == EXTRACT_CUDA && (size == 1 || rank > 0))
        rc = open_gpu(&ws, local - with0, on_node - with0, err);
    if (!rc && cfg.backend == EXTRACT_CUDA && cfg.method != SYNTH_FREQUENCY)
        rc = cs_error_set(err, CS_ERR_INPUT, "the CUDA extractor takes the frequency path only");
    rc = cs_mpi_agree(comm, rc, err);
    if (rc) {
        if (rank == 0) extract_study_close(&m);
        return rc;
    }
    int group_variations = tasks_grouped(comm, &ws, cfg.backend);
    double t0 = cs_now();
    if (rank == 0) {
        m.meta = (seis_meta){
            ws.synth.dt,         ws.synth.nt, ws.sgt.site_lon, ws.sgt.site_lat, m.run_id,
            ws.sgt.has_force[2], "",          ws.sgt.fmax};
        cs_copy(m.meta.site, sizeof m.meta.site, m.site_name);
        res->run_id = m.run_id;
        res->ruptures_total = m.ntotal;
        res->ruptures_done_before = m.ndone_before;
        cs_progress prog;
        cs_progress_begin(&prog, "extraction", m.ntodo, "ruptures");
        long done = 0;
        task_queue q = {0, NULL, 0, group_variations, 0};
        if (size == 1) {
            while (!rc) {
                char *task, *out;
                long tsize, osize, nvar = 0;
                int count;
                if ((rc = extract_study_next_task(&m, &cfg, &q, &task, &tsize, &count, err)) ||
                    !task)
                    break;
                run_message(&ws, task, tsize, &out, &osize);
                free(task);
                rc = take_results(&m, out, osize < 0 ? -osize : osize, count, &nvar, &done, err);
                free_result(out, osize);
                res->variations_now += nvar;
                cs_progress_update(&prog, done);
            }
        } else {
            int busy = 0;
            worker_link *links = malloc(sizeof *links * (size_t)size);
            if (!links) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d workers", size - 1);
                MPI_Abort(comm, 1);
            }
            for (int w = 0; w < size; w++)
                link_init(&links[w]);
            /* where rank 0's time goes: tasks built and sent, results stored, waiting */
            double t_task = 0, t_store = 0, t_wait = 0, ta = cs_now();
            for (int ahead = 0; ahead < TASKS_AHEAD; ahead++)
                for (int w = 1; w < size; w++)
                    busy += hand_out(&m, &cfg, &q, &links[w], w, comm, &rc, err);
            t_task += cs_now() - ta;
            while (busy > 0) {
                char *out = NULL;
                int from = 0;
                long nvar = 0, osize = 0;
                ta = cs_now();
                if (recv_any(comm, TAG_RESULT, MPI_ANY_SOURCE, &out, &osize, &from)) {
                    rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory receiving a result");
                    MPI_Abort(comm, 1);
                }
                double tb = cs_now();
                busy--;
                /* a worker answers its messages in order: this one's slot is the link's next */
                const int tasks = links[from].tasks[links[from].slot];
                /* the worker's next but one task first, so it works on while this is stored;
                 * after a failed result, not: the run stops (hand_out below sends the stop) */
                int ahead = !rc && all_succeeded(out, osize);
                if (ahead) busy += hand_out(&m, &cfg, &q, &links[from], from, comm, &rc, err);
                double tc = cs_now();
                /* a chain: rank 0 goes on receiving, every worker goes on to its tasks */
                if (!rc) rc = take_results(&m, out, osize, tasks, &nvar, &done, err);
                free(out);
                res->variations_now += nvar;
                if (!rc) cs_progress_update(&prog, done);
                double td = cs_now();
                if (!ahead) busy += hand_out(&m, &cfg, &q, &links[from], from, comm, &rc, err);
                t_wait += tb - ta;
                t_task += tc - tb + cs_now() - td;
                t_store += td - tc;
            }
            for (int w = 1; w < size; w++)
                link_drain(&links[w]);
            free(links);
            cs_log(CS_LOG_INFO,
                   "extraction, rank 0: building and sending tasks %.1f s, storing results %.1f "
                   "s, waiting for the workers %.1f s",
                   t_task, t_store, t_wait);
        }
        extract_study_queue_free(&q);
        cs_progress_end(&prog);
        if (group_variations > 0)
            cs_log(CS_LOG_INFO,
                   "extraction: small ruptures up to %d variations together: %ld ruptures in %ld "
                   "messages",
                   group_variations, q.next, q.messages);
        res->ruptures_done_now = done;
        /* a chain: the study is closed and the ranks agree below, failed or not */
        if (!rc) rc = extract_study_finish_run(&m, err);
        extract_study_close(&m);
    } else {
        for (;;) {
            MPI_Status st;
            MPI_Probe(0, MPI_ANY_TAG, comm, &st);
            if (st.MPI_TAG == TAG_STOP) {
                MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, comm, MPI_STATUS_IGNORE);
                break;
            }
            char *task, *out;
            int from = 0;
            long tsize, osize;
            if (recv_any(comm, TAG_TASK, 0, &task, &tsize, &from)) MPI_Abort(comm, 1);
            run_message(&ws, task, tsize, &out, &osize);
            free(task);
            send_result(out, osize < 0 ? -osize : osize, comm);
            free_result(out, osize);
        }
    }
    /* where the workers' time went, summed on rank 0 (rank 0 works only when it is alone) */
    enum { N = EXTRACT_NPHASES + EXTRACT_NCOUNTS };
    double mine[N], sum[N], *count = mine + EXTRACT_NPHASES;
    memcpy(mine, ws.w.phase, sizeof ws.w.phase);
    count[EXTRACT_RUPTURES] = (double)ws.w.ruptures;
    count[EXTRACT_VARIATIONS] = (double)ws.w.variations;
    count[EXTRACT_POINTS_MADE] = ws.w.points_made;
    count[EXTRACT_POINTS_KEPT] = ws.w.points_kept;
    count[EXTRACT_TOGETHER] = (double)ws.w.together;
    MPI_Reduce(mine, sum, N, MPI_DOUBLE, MPI_SUM, 0, comm);
    if (rank == 0 && sum[EXTRACT_NPHASES + EXTRACT_RUPTURES] > 0)
        extract_worker_report(sum, sum + EXTRACT_NPHASES, size > 1 ? size - 1 : 1,
                              cfg.backend == EXTRACT_CUDA);
    worker_close(&ws);
    res->seconds = cs_now() - t0;
    /* what --max-memory bounds, as the system saw it: the workers' peak (rank 0's alone when it
     * did the work), and rank 0's, which keeps the study */
    struct rusage ru;
    double rss = getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss * 1024.0;
    double worker = size == 1 || rank > 0 ? rss : 0;
    MPI_Allreduce(&worker, &res->peak_rss, 1, MPI_DOUBLE, MPI_MAX, comm);
    res->peak_rss_rank0 = rss;
    MPI_Bcast(&res->peak_rss_rank0, 1, MPI_DOUBLE, 0, comm);
    return cs_mpi_agree(comm, rc, err);
}
