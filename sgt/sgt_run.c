#include "sgt_run.h"

#include <math.h>
#include <signal.h>
#include <omp.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cs_fault.h"
#include "cs_log.h"
#include "cs_progress.h"
#include "sgt_absorb.h"
#include "sgt_checkpoint.h"
#include "sgt_cpu.h"
#include "sgt_mesh.h"
#include "sgt_model.h"
#include "sgt_output.h"
#include "sgt_points.h"
#include "sgt_source.h"
#include "sgt_stencil.h"
#include "sgt_strain_writer.h"

/* ---- CPU back end ---- */

typedef struct {
    MPI_Datatype ystrip; /* 4 j-layers of every column of a row of x, halo included */
} cpu_private;

static int cpu_setup(sgt_state *s, cs_error *err) {
#if defined(__x86_64__) || defined(__i386__)
    /* Waves decaying in the absorbing layers and ahead of the first arrivals produce subnormal
     * floats, which x86 processes a hundred times slower: flush them to zero on every thread
     * (FTZ and DAZ). The GPU does the same by default. */
#pragma omp parallel
    _mm_setcsr(_mm_getcsr() | 0x8040);
#endif
    cpu_private *pv = calloc(1, sizeof *pv);
    if (!pv) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    pv->ystrip = MPI_DATATYPE_NULL;
    s->backend = pv;
    if (s->comm && s->comm->comm != MPI_COMM_NULL) {
        const sgt_layout *L = &s->L;
        MPI_Type_vector(L->lnx + 2 * L->halo, SGT_HALO * (int)L->sy, (int)L->sx, MPI_FLOAT,
                        &pv->ystrip);
        MPI_Type_commit(&pv->ystrip);
    }
    return 0;
}
static int cpu_velocity(sgt_state *s, int n, const sgt_region *r, int boundary, cs_error *err) {
    sgt_cpu_velocity_region(s, n, r);
    return 0;
}
static int cpu_stress(sgt_state *s, int n, const sgt_region *r, int boundary, cs_error *err) {
    sgt_cpu_stress_region(s, n, r);
    return 0;
}
/* Along x the 4 planes to send and the 4 to receive are contiguous (whole planes, halo columns
 * included: those are overwritten by the y exchange that follows); along y a vector type picks
 * 4 columns of every x row, halo rows included, so the corners travel with it. */
static int cpu_halo_post(sgt_state *s, int axis, cs_error *err) {
    const sgt_layout *L = &s->L;
    const cpu_private *pv = s->backend;
    const int H = SGT_HALO;
    void *snd[2][3], *rcv[2][3];
    for (int c = 0; c < 3; c++) {
        float *v = s->v[c];
        if (axis == 0) {
            snd[0][c] = v + sgt_idx(L, 0, -L->halo, -L->gz);
            snd[1][c] = v + sgt_idx(L, L->lnx - H, -L->halo, -L->gz);
            rcv[0][c] = v + sgt_idx(L, -H, -L->halo, -L->gz);
            rcv[1][c] = v + sgt_idx(L, L->lnx, -L->halo, -L->gz);
        } else {
            snd[0][c] = v + sgt_idx(L, -L->halo, 0, -L->gz);
            snd[1][c] = v + sgt_idx(L, -L->halo, L->lny - H, -L->gz);
            rcv[0][c] = v + sgt_idx(L, -L->halo, -H, -L->gz);
            rcv[1][c] = v + sgt_idx(L, -L->halo, L->lny, -L->gz);
        }
    }
    if (axis == 0) return sgt_comm_post(s->comm, 0, 3, snd, rcv, H * (int)L->sx, MPI_FLOAT, err);
    return sgt_comm_post(s->comm, 1, 3, snd, rcv, 1, pv->ystrip, err);
}
static int cpu_halo_wait(sgt_state *s, int axis, cs_error *err) {
    return sgt_comm_wait(s->comm, err);
}
static int cpu_end_step(sgt_state *s, int n, cs_error *err) {
    sgt_receivers_record(s, n);
    return 0;
}
static int cpu_save(sgt_state *s, int m, cs_error *err) {
    sgt_points_save(s, m);
    return 0;
}
static int cpu_finish(sgt_state *s, cs_error *err) {
    return 0;
}
static void cpu_teardown(sgt_state *s) {
    cpu_private *pv = s->backend;
    if (!pv) return;
    if (pv->ystrip != MPI_DATATYPE_NULL) MPI_Type_free(&pv->ystrip);
    free(pv);
    s->backend = NULL;
}

const sgt_backend sgt_backend_cpu = {
    "cpu",        0,        cpu_setup,  cpu_velocity, cpu_stress,   cpu_halo_post, cpu_halo_wait,
    cpu_end_step, cpu_save, cpu_finish, NULL,         cpu_teardown, NULL};

static int sample_stf(const sgt_config *c, sgt_state *s, sgt_run_result *meta, cs_error *err) {
    char *desc = meta->stf_description;
    size_t dsize = sizeof meta->stf_description;
    s->stf = malloc((size_t)c->nt * sizeof(float));
    if (!s->stf) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    /* Forces enter the velocity update at t_n, moments the stress update at t_{n+1/2}. */
    double off = c->source_kind == SGT_SOURCE_MOMENT ? 0.5 : 0.0;
    meta->stf_sample_offset = off;
    if (c->stf_from_file) {
        sgt_stf_table tab;
        CS_CALL(err, sgt_stf_table_read(&tab, c->stf_file, err));
        for (int n = 0; n < c->nt; n++)
            s->stf[n] = (float)sgt_stf_table_eval(&tab, (n + off) * c->dt);
        sgt_stf_table_free(&tab);
        meta->stf_time_shift = c->stf_time_shift;
        snprintf(desc, dsize, "time function from %s, linearly interpolated", c->stf_file);
    } else {
        sgt_impulse imp;
        CS_CALL(err, sgt_impulse_init(&imp, c->fmax, err));
        for (int n = 0; n < c->nt; n++)
            s->stf[n] = (float)sgt_impulse_eval(&imp, (n + off) * c->dt);
        meta->stf_time_shift = imp.time_shift;
        snprintf(desc, dsize,
                 "band-limited impulse: Kaiser-windowed sinc (beta %.3f, cut-off %g Hz, length "
                 "%g s), flat to 0.1%% below fmax = %g Hz, -60 dB above %g Hz, unit area, centred "
                 "at time_shift",
                 imp.beta, imp.fc, 2 * imp.half_width, c->fmax, 1.5 * c->fmax);
        if (c->nt * c->dt < 2 * imp.time_shift)
            cs_warn("the run lasts %g s, shorter than the source impulse (%g s)", c->nt * c->dt,
                    2 * imp.time_shift);
    }
    return 0;
}

/* The strain at save points is read through the cells' relaxed moduli M_U (1 - W); a weight W
 * near 1 (Q below about 12) would make that division ill conditioned. */
static int check_relaxed_moduli(const sgt_config *c, const sgt_state *s, cs_error *err) {
    if (!s->visco) return 0;
    const sgt_layout *L = &s->L;
    for (long q = 0; q < s->npoints; q++) {
        int li, lj, k = s->pts[3 * q + 2];
        if (!sgt_local(s, s->pts[3 * q], s->pts[3 * q + 1], &li, &lj)) continue;
        long p = sgt_idx(L, li, lj, k);
        for (int m = 0; m < SGT_PT_SLOTS; m++) {
            int comp, di, dj, dk;
            float w;
            long cell =
                sgt_point_slot(m, p, L->sx, L->sy, k, s->free_surface, &comp, &w, &di, &dj, &dk);
            if (cell < 0) continue;
            if (1.0f - s->qsw[cell] < 0.1f || 1.0f - s->qpw[cell] < 0.1f) {
                char place[4400], v[64];
                if (c->point_lines)
                    snprintf(place, sizeof place, "%s:%d", c->point_file,
                             c->point_lines[s->pt_row[q]]);
                else
                    snprintf(place, sizeof place, "save point %ld", s->pt_row[q]);
                snprintf(v, sizeof v, "%d %d %d", s->pts[3 * q], s->pts[3 * q + 1], k);
                return cs_error_input(err, place, "save point", v,
                                      "Q around it is too low for the strain to be read from the "
                                      "stresses (a memory-variable weight of %.2f); raise Q or Vs "
                                      "(Q >= 15 is safe)",
                                      s->qsw[cell] > s->qpw[cell] ? s->qsw[cell] : s->qpw[cell]);
            }
        }
    }
    return 0;
}

/* This rank's share of a list of global nodes (save points or receivers): the entries whose
 * column it owns, with their rows in the list. */
static int pick_local(const sgt_state *s, const int *all, long n, int **mine, long **rows,
                      long *nmine, cs_error *err) {
    long m = 0;
    int li, lj;
    for (long q = 0; q < n; q++)
        m += sgt_local(s, all[3 * q], all[3 * q + 1], &li, &lj);
    *mine = malloc((size_t)(m ? m : 1) * 3 * sizeof(int));
    *rows = malloc((size_t)(m ? m : 1) * sizeof(long));
    if (!*mine || !*rows) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    m = 0;
    for (long q = 0; q < n; q++)
        if (sgt_local(s, all[3 * q], all[3 * q + 1], &li, &lj)) {
            memcpy(*mine + 3 * m, all + 3 * q, 3 * sizeof(int));
            (*rows)[m++] = q;
        }
    *nmine = m;
    return 0;
}

int sgt_prepare(const sgt_config *c, sgt_comm *comm, sgt_state *s, sgt_run_result *res,
                cs_error *err) {
    memset(s, 0, sizeof *s);
    memset(res, 0, sizeof *res);
    sgt_layout *L = &s->L;
    L->nx = c->nx, L->ny = c->ny, L->nz = c->nz;
    L->halo = SGT_HALO, L->gz = 2;
    s->comm = comm;
    if (comm) {
        sgt_comm_layout(comm, L);
    } else {
        L->lnx = c->nx, L->lny = c->ny;
        sgt_layout_set_regions(L);
    }
    s->h = c->h;
    s->dt = c->dt;
    s->nt = c->nt;
    s->free_surface = c->free_surface;
    s->visco = c->visco;
    s->device_fields = c->backend == SGT_BACKEND_CUDA;
    s->absorb = c->absorb.kind;
    s->absorb_width = c->absorb.width;
    s->decimation = c->decimation;
    s->nt_out = c->nt / c->decimation + 1;
    if (c->threads > 0) omp_set_num_threads(c->threads);
    int agreed = 0;
    int rc = 0;
    CS_CALL_GOTO(rc, err, sgt_check_points(c, err), fail);
    /* Save points and receivers first (the material stage records the points' material). */
    long nrec = 0;
    if (c->mode == SGT_MODE_SGT)
        CS_CALL_GOTO(rc, err,
                     pick_local(s, c->pts, c->npoints, &s->pts, &s->pt_row, &s->npoints, err),
                     fail);
    if (c->mode == SGT_MODE_FORWARD)
        CS_CALL_GOTO(rc, err, pick_local(s, c->recs, c->nrec, &s->rec, &s->rec_row, &nrec, err),
                     fail);
    s->nrec = (int)nrec;
    /* the finite source before the material stage, which records mu at its nodes */
    s->nmsrc = c->nmsrc;
    s->msrc_node = c->msrc_node;
    s->msrc_m = c->msrc_m;
    s->msrc_rate = c->msrc_rate;
    L->sy = sgt_state_row_floats(s);
    s->out_window = sgt_strain_window(c, s->nt_out);
    CS_CALL_GOTO(rc, err, sgt_check_memory(sgt_state_bytes(s), "the wavefield and outputs", err),
                 fail);
    if (s->visco) {
        CS_CALL_GOTO(rc, err, sgt_q_fit(&s->q, c->q_low, c->q_high, c->q_ref, err), fail);
        sgt_state_set_q_constants(s);
    }
    CS_CALL_GOTO(rc, err, sgt_state_alloc(s, err), fail);
    /* Material. */
    if (c->mesh_file[0]) {
        rc = sgt_mesh_load_state(s, c->mesh_file, res->material_sha, &res->mesh, err);
        snprintf(res->model_name, sizeof res->model_name, "material file %s", c->mesh_file);
    } else {
        sgt_model m;
        if (!strcmp(c->model_format, "homogeneous"))
            rc = sgt_model_homogeneous(&m, c->vp, c->vs, c->rho, c->qp, c->qs, err);
        else
            rc = sgt_model_read(&m, c->model_format, c->model_file, c->nx, c->ny, c->nz, err);
        if (!rc) {
            rc = sgt_mesh_fill_state(s, &m, &c->mesh, &res->mesh, err);
            snprintf(res->model_name, sizeof res->model_name, "%s", m.name);
            sgt_model_free(&m);
        }
    }
    /* The checks below see the whole grid: every rank must get here. */
    agreed = 1;
    if (comm) CS_CALL_GOTO(rc, err, cs_mpi_agree(comm->comm, rc, err), fail);
    if (comm) sgt_comm_reduce_stats(comm, &res->mesh);
    if (res->mesh.sampling[0]) cs_info("mesh: %s", res->mesh.sampling);
    if (c->visco && c->mesh.sampling == SGT_SAMPLE_BANDLIMITED && !c->mesh_file[0])
        cs_warn("material_sampling = bandlimited with attenuation: a site's run of 7,560 steps "
                "grew without bound with it (docs/sgt.md); auto or effective is safe");
    if (res->mesh.clamped_vs || res->mesh.clamped_vp || res->mesh.clamped_rho)
        cs_info("mesh: floors raised vs at %ld, vp at %ld, rho at %ld of %ld nodes",
                res->mesh.clamped_vs, res->mesh.clamped_vp, res->mesh.clamped_rho, res->mesh.nodes);
    CS_CALL_GOTO(rc, err, sgt_check_stability(c, &res->mesh, err), fail);
    CS_CALL_GOTO(rc, err, check_relaxed_moduli(c, s, err), fail);
    /* Precomputed shear moduli serve the CPU kernels; the GPU computes them on the fly. */
    if (c->backend == SGT_BACKEND_CPU) CS_CALL_GOTO(rc, err, sgt_state_shear_moduli(s, err), fail);
    sgt_absorb_config ac = c->absorb;
    ac.pml_vmax = res->mesh.vp_max;
    CS_CALL_GOTO(rc, err, sgt_absorb_setup(s, &ac, err), fail);
    /* Source. */
    s->source_kind = c->source_kind;
    s->plane_source = c->plane_source;
    s->src_i = c->src[0], s->src_j = c->src[1], s->src_k = c->src[2];
    memcpy(s->force, c->force, sizeof s->force);
    memcpy(s->moment, c->moment, sizeof s->moment);
    s->amplitude = c->source_kind == SGT_SOURCE_FORCE ? c->impulse : 1.0;
    CS_CALL_GOTO(rc, err, sample_stf(c, s, res, err), fail);
    s->stf_time_shift = res->stf_time_shift;
    CS_CALL_GOTO(rc, err, sgt_points_alloc(s, err), fail);
    CS_CALL_GOTO(rc, err, sgt_receivers_alloc(s, err), fail);
    return 0;
fail:
    /* Ranks that stop before the agreement above still take part in it. */
    if (comm && !agreed) cs_mpi_agree(comm->comm, rc, err);
    sgt_state_free(s);
    return rc;
}

/* A blown-up run is worthless: refuse to write NaN or Inf (the strain is checked window by
 * window as it is written). */
static int check_receivers_finite(const sgt_state *s, cs_error *err) {
    long nrec = (long)s->nrec * 3 * s->nt;
    for (long q = 0; q < nrec; q++)
        if (!isfinite(s->rec_out[q]))
            return cs_error_set(err, CS_ERR_INPUT,
                                "receiver %ld recorded a non-finite value; the run went unstable",
                                s->rec_row[q / (3 * s->nt)]);
    return 0;
}

static const sgt_backend *pick_backend(const sgt_config *c, cs_error *err) {
    if (c->backend == SGT_BACKEND_CPU) return &sgt_backend_cpu;
    const sgt_backend *be = sgt_backend_cuda();
    if (!be)
        cs_error_input(err, "backend", NULL, "cuda",
                       "this build has no CUDA back end (built without nvcc); use backend = cpu "
                       "or rebuild where nvcc is installed");
    return be;
}

/* The time loop from step `first`, with saves (streamed to the file through w, NULL in forward
 * runs) and checkpoints; every rank learns of a failure on any rank at the end of the step. */
static int time_loop(const sgt_config *c, const sgt_backend *be, sgt_state *s, int first,
                     sgt_strain_writer *w, const char *fingerprint, cs_error *err) {
    MPI_Comm comm = s->comm ? s->comm->comm : MPI_COMM_NULL;
    cs_progress pr;
    cs_progress_begin(&pr, "sgt", c->nt - first, "steps");
    /* Fault injection for tests: the process kills itself after this step, as a node failure
     * would. */
    const char *fk = getenv("CYBERSHAKE_FAULT_KILL_AFTER_STEP");
    const int kill_after = fk ? atoi(fk) : -1;
    int rc = 0;
    for (int n = first; n < c->nt && !rc; n++) {
        rc = sgt_step(be, s, n, err);
        cs_fault_point("sgt-step");
        if ((n + 1) % c->decimation == 0) {
            int m = (n + 1) / c->decimation;
            if (!rc) rc = be->save(s, m, err); /* a chain: the commit below is collective */
            /* collective: every rank reaches it at the same sample, failed or not */
            if (w && sgt_strain_window_ends(s, m)) rc = sgt_strain_writer_commit(w, be, s, rc, err);
        }
        if (comm != MPI_COMM_NULL) rc = cs_mpi_agree(comm, rc, err);
        if (!rc && c->checkpoint_every > 0 && (n + 1) % c->checkpoint_every == 0 && n + 1 < c->nt) {
            if (w) rc = sgt_strain_writer_sync(w, be, s, n + 1, err);
            /* a chain: a checkpoint is written by every rank together (it agrees inside) */
            if (!rc) rc = sgt_checkpoint_write(c, be, s, n + 1, fingerprint, err);
        }
        cs_progress_update(&pr, n + 1 - first);
        if (n + 1 == kill_after && (!s->comm || s->comm->rank == 0)) raise(SIGKILL);
    }
    cs_progress_end(&pr);
    return rc;
}

static void output_meta(const sgt_config *c, const sgt_run_result *res, sgt_output_meta *meta) {
    memset(meta, 0, sizeof *meta);
    meta->model_name = res->model_name;
    meta->material_sha = res->material_sha;
    meta->stf_description = res->stf_description;
    meta->time_shift = res->stf_time_shift;
    meta->stf_sample_offset = res->stf_sample_offset;
    memcpy(meta->axes_enu, c->axes_enu, sizeof meta->axes_enu);
    meta->have_axes = c->have_axes;
}

/* The time loop and the output: SGT runs stream the strain into their file as they go, forward
 * runs write theirs at the end. */
static int simulate(const sgt_config *c, const sgt_backend *be, sgt_state *s, int first,
                    const char *fingerprint, sgt_run_result *res, cs_error *err) {
    MPI_Comm comm = s->comm ? s->comm->comm : MPI_COMM_NULL;
    sgt_output_meta meta;
    output_meta(c, res, &meta);
    sgt_strain_writer sw, *w = NULL;
    if (c->mode == SGT_MODE_SGT) {
        CS_CALL(err, sgt_strain_writer_open(&sw, c, s, &meta, fingerprint, first, err));
        w = &sw;
    }
    double t0 = cs_now();
    int rc = time_loop(c, be, s, first, w, fingerprint, err);
    /* a chain, not CS_CALL: every rank reaches the agreement below, failed or not */
    if (!rc) rc = be->finish(s, err);
    res->seconds = cs_now() - t0;
    if (!rc) rc = check_receivers_finite(s, err);
    rc = cs_mpi_agree(comm, rc, err);
    if (!rc) {
        res->steps = c->nt - first;
        res->lups = (double)c->nx * c->ny * c->nz * res->steps / res->seconds;
        if (w) {
            rc = sgt_strain_writer_close(w, be, s, res->output_sha, &res->output_bytes, err);
            w = NULL;
        } else {
            rc = sgt_output_write(c, s, &meta, res->output_sha, &res->output_bytes, err);
        }
    }
    if (w) sgt_strain_writer_abandon(w);
    return rc;
}

static int run_on(const sgt_config *c, sgt_comm *comm, sgt_run_result *res, cs_error *err) {
    sgt_state s;
    int rc = sgt_prepare(c, comm, &s, res, err);
    if ((rc = cs_mpi_agree(comm->comm, rc, err))) {
        sgt_state_free(&s);
        return rc;
    }
    const sgt_backend *be = pick_backend(c, err);
    rc = be ? be->setup(&s, err) : (int)err->status;
    rc = cs_mpi_agree(comm->comm, rc, err);
    char fingerprint[17];
    int first = 0;
    if (!rc) {
        sgt_checkpoint_fingerprint(c, &s, res, fingerprint);
        rc = sgt_checkpoint_restore(c, be, &s, fingerprint, &first, err);
    }
    if (!rc) {
        cs_info("%s: %s run on %d x %d x %d nodes, %d steps of %g s, back end %s, %d rank%s "
                "(%d x %d), %d threads each%s",
                c->output, c->mode == SGT_MODE_SGT ? "SGT" : "forward", c->nx, c->ny, c->nz, c->nt,
                c->dt, be->name, comm->size, comm->size > 1 ? "s" : "", comm->px, comm->py,
                omp_get_max_threads(), first ? "; resuming" : "");
        if (first)
            cs_info("%s: resuming after step %d from %s", c->output, first, c->checkpoint_dir);
        rc = simulate(c, be, &s, first, fingerprint, res, err);
        if (!rc) sgt_checkpoint_remove(c, &s);
    }
    if (be) be->teardown(&s);
    sgt_state_free(&s);
    if (!rc) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        cs_info("%s: %d steps in %.2f s, %.3g G LUPS; wrote %.3g MB, sha256 %s; peak host memory "
                "%.1f MB",
                c->output, res->steps, res->seconds, res->lups / 1e9, res->output_bytes / 1e6,
                res->output_sha[0] ? res->output_sha : "(not computed in this build)",
                ru.ru_maxrss / 1024.0);
    }
    return rc;
}

int sgt_run(const sgt_config *c, sgt_run_result *res, cs_error *err) {
    sgt_comm comm;
    int rc = sgt_comm_init(&comm, c->nx, c->ny, c->ranks_x, c->ranks_y, err);
    int inited = 0;
    MPI_Initialized(&inited);
    if (inited) rc = cs_mpi_agree(MPI_COMM_WORLD, rc, err);
    /* a chain: rc is every rank's (agreed above), so all ranks run or none; the comm is freed */
    if (!rc) rc = run_on(c, &comm, res, err);
    sgt_comm_free(&comm);
    return rc;
}
