#include "sgt_output.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_atomic.h"
#include "cs_hdf5.h"
#include "cs_version.h"
#include "sgt_file.h"
#include "sgt_comm.h"

/* How the file is written: by every rank through MPI-IO (parallel HDF5), or by rank 0 alone
 * with the other ranks sending it their rows (serial HDF5). */
typedef struct {
    MPI_Comm comm;
    int rank, size;
    int parallel;
    hid_t xfer; /* collective transfer (parallel) or H5P_DEFAULT */
} out_ctx;

/* Selects the rows rows[0..n) (ascending) of a dataset's space, whole rows, or of a 3-D one
 * the samples t0 .. t0 + tn of each (tn 0: all). */
static void select_rows(hid_t space, const long *rows, long n, long t0, long tn) {
    hsize_t dims[3] = {0, 1, 1};
    H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sselect_none(space);
    for (long q = 0; q < n;) {
        long e = q + 1;
        while (e < n && rows[e] == rows[e - 1] + 1)
            e++;
        hsize_t start[3] = {(hsize_t)rows[q], 0, (hsize_t)t0};
        hsize_t count[3] = {(hsize_t)(e - q), dims[1], tn ? (hsize_t)tn : dims[2]};
        H5Sselect_hyperslab(space, H5S_SELECT_OR, start, NULL, count, NULL);
        q = e;
    }
}

/* Where in a dataset's rows a write goes: samples t0 .. t0 + tn of each (tn 0: whole rows). */
typedef struct {
    long t0, tn;
} row_span;

static int write_selected(const out_ctx *o, hid_t ds, hid_t mtype, const long *rows, long n,
                          long row_elems, row_span sp, const void *data) {
    hid_t fs = H5Dget_space(ds);
    select_rows(fs, rows, n, sp.t0, sp.tn);
    hsize_t m = (hsize_t)(n * row_elems > 0 ? n * row_elems : 1);
    hid_t ms = H5Screate_simple(1, &m, NULL);
    if (n == 0) H5Sselect_none(ms);
    herr_t r = H5Dwrite(ds, mtype, ms, fs, o->xfer, data);
    H5Sclose(ms);
    H5Sclose(fs);
    return r < 0;
}

/* Writes every rank's rows of a dataset whose first axis is the row: data[n][row_elems] (this
 * rank's) at rows[] (ascending). Blocks of about 64 MB keep MPI messages and MPI-IO requests
 * under 2 GB. */
static int put_rows(const out_ctx *o, hid_t ds, hid_t mtype, MPI_Datatype mpitype, size_t esize,
                    const long *rows, long n, long row_elems, row_span sp, const void *data) {
    long per = (long)(64L * 1024 * 1024 / ((size_t)row_elems * esize));
    if (per < 1) per = 1;
    const char *bytes = data;
    int bad = 0;
    if (o->size == 1) {
        for (long q = 0; q < n; q += per)
            bad |= write_selected(o, ds, mtype, rows + q, n - q < per ? n - q : per, row_elems, sp,
                                  bytes + (size_t)q * row_elems * esize);
        return bad;
    }
    if (o->parallel) {
        long mine = (n + per - 1) / per, blocks = mine;
        MPI_Allreduce(&mine, &blocks, 1, MPI_LONG, MPI_MAX, o->comm);
        for (long b = 0; b < blocks; b++) {
            long q = b * per, cnt = q < n ? (n - q < per ? n - q : per) : 0;
            bad |= write_selected(o, ds, mtype, rows + (cnt ? q : 0), cnt, row_elems, sp,
                                  cnt ? bytes + (size_t)q * row_elems * esize : bytes);
        }
        return bad;
    }
    /* Gather to rank 0, one rank and one block at a time (memory: one block). */
    enum { TAG_N = 101, TAG_ROWS, TAG_DATA };
    if (o->rank != 0) {
        for (long q = 0; q < n; q += per) {
            long cnt = n - q < per ? n - q : per;
            MPI_Send(&cnt, 1, MPI_LONG, 0, TAG_N, o->comm);
            MPI_Send(rows + q, (int)cnt, MPI_LONG, 0, TAG_ROWS, o->comm);
            MPI_Send(bytes + (size_t)q * row_elems * esize, (int)(cnt * row_elems), mpitype, 0,
                     TAG_DATA, o->comm);
        }
        long zero = 0;
        MPI_Send(&zero, 1, MPI_LONG, 0, TAG_N, o->comm);
        return 0;
    }
    for (long q = 0; q < n; q += per)
        bad |= write_selected(o, ds, mtype, rows + q, n - q < per ? n - q : per, row_elems, sp,
                              bytes + (size_t)q * row_elems * esize);
    long *rbuf = malloc((size_t)per * sizeof(long));
    char *dbuf = malloc((size_t)per * row_elems * esize);
    if (!rbuf || !dbuf) bad = 1;
    for (int r = 1; r < o->size; r++)
        for (;;) {
            long cnt;
            MPI_Recv(&cnt, 1, MPI_LONG, r, TAG_N, o->comm, MPI_STATUS_IGNORE);
            if (!cnt) break;
            /* A sender never sends more than `per` rows per block (same formula). */
            MPI_Recv(rbuf, (int)cnt, MPI_LONG, r, TAG_ROWS, o->comm, MPI_STATUS_IGNORE);
            MPI_Recv(dbuf, (int)(cnt * row_elems), mpitype, r, TAG_DATA, o->comm,
                     MPI_STATUS_IGNORE);
            if (rbuf && dbuf) bad |= write_selected(o, ds, mtype, rbuf, cnt, row_elems, sp, dbuf);
        }
    free(rbuf);
    free(dbuf);
    return bad;
}

/* A dataset the config holds whole (every rank has it): rank 0 writes it. */
static int put_whole(const out_ctx *o, hid_t ds, hid_t mtype, const void *data) {
    if (o->rank == 0 && !o->parallel)
        return H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, o->xfer, data) < 0;
    if (!o->parallel) return 0;
    hid_t fs = H5Dget_space(ds), ms = H5Scopy(fs);
    if (o->rank != 0) H5Sselect_none(fs), H5Sselect_none(ms);
    herr_t r = H5Dwrite(ds, mtype, ms, fs, o->xfer, data);
    H5Sclose(ms);
    H5Sclose(fs);
    return r < 0;
}

/* Creates a dataset on the writers (-1 elsewhere). */
static hid_t make(const out_ctx *o, hid_t loc, const char *name, hid_t ftype, int rank,
                  const hsize_t *dims, const hsize_t *chunk) {
    if (loc < 0) return -1;
    return cs_h5_dataset(loc, name, ftype, rank, dims, chunk);
}
static int done(hid_t ds, int bad) {
    if (ds >= 0) H5Dclose(ds);
    return bad;
}
static int writer(const out_ctx *o) {
    return o->parallel || o->rank == 0;
}

static int write_common_attrs(const out_ctx *o, hid_t f, const sgt_config *c, const sgt_state *s,
                              const sgt_output_meta *m) {
    int bad = 0;
    int grid[3] = {c->nx, c->ny, c->nz};
    double box[5] = {c->origin_lon, c->origin_lat, c->rotation, c->x0, c->y0};
    bad |= cs_h5_attr_int(f, SGT_FILE_ATTR_GRID, grid, 3);
    bad |= cs_h5_attr_double(f, SGT_FILE_ATTR_H, &c->h, 1);
    bad |= cs_h5_attr_double(f, "solver_dt", &c->dt, 1);
    bad |= cs_h5_attr_int(f, "solver_nt", &c->nt, 1);
    if (c->have_geo)
        bad |= cs_h5_attr_double(f, "box_origin_lon_lat_rotation_x0_y0", box, 5);
    else
        bad |= cs_h5_attr_double(f, "box_x0_y0", box + 3, 2);
    bad |= cs_h5_attr_string(f, "frame",
                             "box: x at azimuth 'rotation' clockwise from north, y 90 "
                             "degrees clockwise from x, z down, z = 0 the surface");
    bad |= cs_h5_attr_int(f, "free_surface", &c->free_surface, 1);
    bad |= cs_h5_attr_int(f, "attenuation", &c->visco, 1);
    if (c->visco) {
        double qb[3] = {c->q_low, c->q_high, c->q_ref};
        bad |= cs_h5_attr_double(f, "q_band_low_high_reference_hz", qb, 3);
    }
    bad |= cs_h5_attr_string(f, "absorbing", c->absorb.kind == SGT_ABSORB_PML ? "pml" : "sponge");
    bad |= cs_h5_attr_int(f, "absorbing_width", &c->absorb.width, 1);
    bad |= cs_h5_attr_string(f, "model", m->model_name ? m->model_name : "");
    bad |= cs_h5_attr_string(f, "material_sha256", m->material_sha ? m->material_sha : "");
    bad |= cs_h5_attr_string(f, "code_version", CS_VERSION);
    bad |= cs_h5_attr_int(f, SGT_FILE_ATTR_SOURCE_NODE, c->src, 3);
    bad |= cs_h5_attr_double(f, SGT_FILE_ATTR_FMAX, &c->fmax, 1);
    bad |= cs_h5_attr_double(f, SGT_FILE_ATTR_TIME_SHIFT, &m->time_shift, 1);
    bad |= cs_h5_attr_string(f, "source_filter", m->stf_description);
    if (m->have_axes) bad |= cs_h5_attr_double(f, "box_axes_enu_at_source", &m->axes_enu[0][0], 9);
    /* The time function actually applied. */
    hid_t g = cs_h5_group(f, "source");
    hsize_t d = (hsize_t)c->nt;
    hid_t ds = cs_h5_dataset(g, "stf", H5T_IEEE_F32LE, 1, &d, NULL);
    bad |= done(ds, ds < 0 || put_whole(o, ds, H5T_NATIVE_FLOAT, s->stf));
    bad |= cs_h5_attr_double(g, "dt", &c->dt, 1);
    bad |= cs_h5_attr_double(g, "sample_offset", &m->stf_sample_offset, 1);
    bad |= cs_h5_attr_string(g, "units",
                             "1/s; sample n is at (n + sample_offset) dt; the source "
                             "is amplitude x stf(t)");
    H5Gclose(g);
    return bad;
}

/* The SGT file less the strain's values: the points, their material, the strain dataset (its
 * chunks span min(64, npoints) points and one window of samples, so a window's write covers
 * whole chunks) and the attributes. */
static int create_sgt(const out_ctx *o, hid_t f, const sgt_config *c, const sgt_state *s,
                      hid_t *strain) {
    int bad = 0;
    long np = c->npoints;
    hid_t g = writer(o) ? cs_h5_group(f, SGT_FILE_POINTS) : -1;
    hsize_t d2[2] = {(hsize_t)np, 3};
    hid_t ds = make(o, g, SGT_FILE_INDEX, H5T_STD_I32LE, 2, d2, NULL);
    bad |= done(ds, writer(o) && (ds < 0 || put_whole(o, ds, H5T_NATIVE_INT, c->pts)));
    if (c->point_geo) {
        ds = make(o, g, SGT_FILE_GEOGRAPHIC, H5T_IEEE_F64LE, 2, d2, NULL);
        bad |= done(ds, writer(o) && (ds < 0 || put_whole(o, ds, H5T_NATIVE_DOUBLE, c->point_geo)));
        if (writer(o))
            bad |= cs_h5_attr_string(g, "geographic_units", "lon (deg), lat (deg), depth (m)");
    }
    ds = make(o, g, SGT_FILE_MATERIAL, H5T_IEEE_F32LE, 2, d2, NULL);
    bad |= done(ds, put_rows(o, ds, H5T_NATIVE_FLOAT, MPI_FLOAT, sizeof(float), s->pt_row,
                             s->npoints, 3, (row_span){0, 0}, s->pt_mat));
    if (writer(o)) {
        bad |= cs_h5_attr_string(g, "material_units",
                                 "lambda (Pa), mu (Pa), rho (kg/m^3), at the reference frequency");
        H5Gclose(g);
    }
    hsize_t d3[3] = {(hsize_t)np, 6, (hsize_t)s->nt_out};
    hsize_t ch[3] = {(hsize_t)(np < 64 ? np : 64), 6, (hsize_t)s->out_window};
    *strain = make(o, f, SGT_FILE_STRAIN, H5T_IEEE_F32LE, 3, d3, ch);
    if (writer(o) && *strain < 0) bad = 1;
    if (!writer(o)) return bad;
    double dto = c->dt * c->decimation;
    bad |= cs_h5_attr_double(f, SGT_FILE_ATTR_DT, &dto, 1);
    bad |= cs_h5_attr_int(f, SGT_FILE_ATTR_NT, &s->nt_out, 1);
    bad |= cs_h5_attr_int(f, "decimation", &c->decimation, 1);
    bad |= cs_h5_attr_string(f, SGT_FILE_ATTR_FORCE_COMPONENT, c->force_component);
    bad |= cs_h5_attr_double(f, "force_vector", c->force, 3);
    bad |= cs_h5_attr_double(f, "impulse", &c->impulse, 1);
    bad |= cs_h5_attr_string(f, SGT_FILE_ATTR_STRAIN_CONVENTION, SGT_FILE_STRAIN_CONVENTION);
    bad |= cs_h5_attr_string(f, SGT_FILE_ATTR_UNITS, SGT_FILE_UNITS);
    return bad;
}

static int write_forward(const out_ctx *o, hid_t f, const sgt_config *c, const sgt_state *s) {
    int bad = 0;
    hid_t g = writer(o) ? cs_h5_group(f, "receivers") : -1;
    hsize_t d2[2] = {(hsize_t)c->nrec, 3};
    hid_t ds = make(o, g, "index", H5T_STD_I32LE, 2, d2, NULL);
    bad |= done(ds, writer(o) && (ds < 0 || put_whole(o, ds, H5T_NATIVE_INT, c->recs)));
    hsize_t d3[3] = {(hsize_t)c->nrec, 3, (hsize_t)s->nt};
    ds = make(o, g, "velocity", H5T_IEEE_F32LE, 3, d3, NULL);
    bad |= done(ds, put_rows(o, ds, H5T_NATIVE_FLOAT, MPI_FLOAT, sizeof(float), s->rec_row, s->nrec,
                             3L * s->nt, (row_span){0, 0}, s->rec_out));
    if (!writer(o)) return bad;
    bad |= cs_h5_attr_string(g, "units", "m/s, box frame vx vy vz; sample n at t = n dt");
    H5Gclose(g);
    bad |= cs_h5_attr_double(f, "dt", &c->dt, 1);
    bad |= cs_h5_attr_int(f, "nt", &s->nt, 1);
    bad |= cs_h5_attr_string(f, "source_kind",
                             c->source_kind == SGT_SOURCE_FORCE ? "force"
                             : c->srf                           ? "srf"
                                                                : "moment");
    if (c->srf) {
        long n = c->nmsrc;
        bad |= cs_h5_attr_string(f, "srf_file", c->srf_file);
        bad |= cs_h5_attr_int(f, "srf_point_sources", (int[]){(int)n}, 1);
    } else if (c->source_kind == SGT_SOURCE_FORCE) {
        bad |= cs_h5_attr_double(f, "force_vector", c->force, 3);
        bad |= cs_h5_attr_double(f, "impulse", &c->impulse, 1);
    } else {
        bad |= cs_h5_attr_double(f, "moment_box_xx_yy_zz_xy_xz_yz", c->moment, 6);
    }
    return bad;
}

static hid_t file_access(const out_ctx *o) {
#ifdef H5_HAVE_PARALLEL
    if (o->parallel) {
        hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
        H5Pset_fapl_mpio(fapl, o->comm, MPI_INFO_NULL);
        return fapl;
    }
#endif
    return H5P_DEFAULT;
}

static hid_t create_file(const out_ctx *o, const char *path) {
#ifdef H5_HAVE_PARALLEL
    if (o->parallel) {
        hid_t fapl = file_access(o), fcpl = H5Pcreate(H5P_FILE_CREATE);
        H5Pset_obj_track_times(fcpl, 0);
        hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
        H5Pclose(fapl);
        H5Pclose(fcpl);
        return f;
    }
#endif
    return o->rank == 0 ? cs_h5_create(path) : -1;
}

static hid_t reopen_file(const out_ctx *o, const char *path) {
    if (!writer(o)) return -1; /* no file on the ranks that do not write (HDF5's invalid id) */
    hid_t fapl = file_access(o);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, fapl);
    if (fapl != H5P_DEFAULT) H5Pclose(fapl);
    return f;
}

/* How this run's ranks write: through MPI-IO when HDF5 is parallel, so one rank and many give
 * the same bytes. `dup`: on a communicator of its own, for a writer on another thread. */
static void ctx_init(out_ctx *o, const sgt_state *s, int dup) {
    *o = (out_ctx){MPI_COMM_NULL, 0, 1, 0, H5P_DEFAULT};
    if (!s->comm || s->comm->comm == MPI_COMM_NULL) return;
    o->rank = s->comm->rank;
    o->size = s->comm->size;
    if (dup)
        MPI_Comm_dup(s->comm->comm, &o->comm);
    else
        o->comm = s->comm->comm;
#ifdef H5_HAVE_PARALLEL
    o->parallel = 1;
    o->xfer = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(o->xfer, H5FD_MPIO_COLLECTIVE);
#endif
}
static void ctx_free(out_ctx *o, int dup) {
    if (o->xfer != H5P_DEFAULT) H5Pclose(o->xfer);
    if (dup && o->comm != MPI_COMM_NULL) MPI_Comm_free(&o->comm);
    o->xfer = H5P_DEFAULT;
}

static int write_head(const out_ctx *o, hid_t f, const sgt_config *c, const sgt_state *s,
                      const sgt_output_meta *meta) {
    if (!writer(o)) return 0;
    int bad =
        cs_h5_attr_string(f, SGT_FILE_ATTR_FORMAT,
                          c->mode == SGT_MODE_SGT ? SGT_FILE_FORMAT : SGT_FILE_FORMAT_FORWARD);
    bad |= cs_h5_attr_int(f, SGT_FILE_ATTR_VERSION, (int[]){SGT_FILE_VERSION}, 1);
    bad |= write_common_attrs(o, f, c, s, meta);
    return bad;
}

/* Rank 0 reserves a temporary name next to the output; everyone learns it. */
static int reserve(const out_ctx *o, const char *output, char *tmp, size_t size, cs_error *err) {
    int rc = 0;
    if (o->rank == 0) rc = cs_atomic_reserve(output, tmp, size, err);
    CS_CALL(err, cs_mpi_agree(o->comm, rc, err));
    if (o->comm != MPI_COMM_NULL) MPI_Bcast(tmp, (int)size, MPI_CHAR, 0, o->comm);
    return 0;
}

/* Closes a written file and, when every rank wrote its part, checksums it and renames it to
 * `output` (collective). The temporary file is removed on failure unless `keep`. */
static int publish(const out_ctx *o, hid_t f, int bad, const char *tmp, const char *output,
                   int keep, char sha[65], double *bytes, cs_error *err) {
    if (f >= 0 && H5Fclose(f) < 0) bad = 1;
    int rc = bad ? cs_error_set(err, CS_ERR_IO, "%s: writing the HDF5 output failed (disk full?)",
                                output)
                 : 0;
    if ((rc = cs_mpi_agree(o->comm, rc, err))) {
        if (o->rank == 0 && !keep) remove(tmp);
        return rc;
    }
    if (o->rank == 0) {
        /* the old file's checksum must not stay beside the new file */
        cs_sha256_sidecar_remove(output);
        rc = cs_atomic_publish(tmp, output, sha, err);
        if (rc && err->status == CS_ERR_RESOURCE) {
            /* No SHA-256 in this build: publish without one. */
            sha[0] = '\0';
            rc = cs_atomic_publish(tmp, output, NULL, err);
        }
        if (rc && !keep) remove(tmp);
        /* the file's own checksum, for `cybershake check` wherever the file goes */
        if (!rc && sha[0]) rc = cs_sha256_sidecar_write(output, sha, err);
    }
    CS_CALL(err, cs_mpi_agree(o->comm, rc, err));
    if (o->comm != MPI_COMM_NULL) MPI_Bcast(sha, 65, MPI_CHAR, 0, o->comm);
    struct stat st;
    *bytes = stat(output, &st) == 0 ? (double)st.st_size : 0;
    return 0;
}

int sgt_output_write(const sgt_config *c, const sgt_state *s, const sgt_output_meta *meta,
                     char sha[65], double *bytes, cs_error *err) {
    out_ctx o;
    ctx_init(&o, s, 0);
    char tmp[4200] = "";
    int rc = reserve(&o, c->output, tmp, sizeof tmp, err);
    if (rc) goto out;
    cs_h5_quiet();
    hid_t f = create_file(&o, tmp);
    int bad = writer(&o) && f < 0;
    if ((rc = cs_mpi_agree(
             o.comm, bad ? cs_error_set(err, CS_ERR_IO, "%s: cannot create HDF5 file", tmp) : 0,
             err))) {
        if (f >= 0) H5Fclose(f);
        if (o.rank == 0) remove(tmp);
        goto out;
    }
    bad |= write_head(&o, f, c, s, meta);
    bad |= write_forward(&o, f, c, s);
    rc = publish(&o, f, bad, tmp, c->output, 0, sha, bytes, err);
out:
    ctx_free(&o, 0);
    return rc;
}

/* ---- the SGT file, its strain written window by window ---- */

struct sgt_output {
    out_ctx o;
    hid_t f, strain;
    char tmp[4200];
    char output[4096];
    int keep; /* a named partial file that a resumed run continues: never removed */
};

/* Checks that a partial file holds this run's strain dataset, same shape and chunks. */
static int check_partial(hid_t ds, const sgt_state *s, long np) {
    hid_t sp = H5Dget_space(ds), pl = H5Dget_create_plist(ds);
    hsize_t d[3] = {0, 0, 0}, ch[3] = {0, 0, 0};
    int ok = H5Sget_simple_extent_ndims(sp) == 3 && H5Sget_simple_extent_dims(sp, d, NULL) == 3 &&
             H5Pget_chunk(pl, 3, ch) == 3;
    ok = ok && d[0] == (hsize_t)np && d[1] == 6 && d[2] == (hsize_t)s->nt_out &&
         ch[2] == (hsize_t)s->out_window;
    H5Pclose(pl);
    H5Sclose(sp);
    return ok;
}

int sgt_output_open(const sgt_config *c, const sgt_state *s, const sgt_output_meta *meta,
                    const char *partial, int resume, sgt_output **out, cs_error *err) {
    *out = NULL;
    sgt_output *w = calloc(1, sizeof *w);
    int rc = cs_mpi_agree(s->comm ? s->comm->comm : MPI_COMM_NULL,
                          w ? 0 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory"), err);
    if (rc) {
        free(w);
        return rc;
    }
    ctx_init(&w->o, s, 1);
    w->f = w->strain = -1;
    snprintf(w->output, sizeof w->output, "%s", c->output);
    cs_h5_quiet();
    if (partial) {
        snprintf(w->tmp, sizeof w->tmp, "%s", partial);
        w->keep = 1;
    } else if ((rc = reserve(&w->o, c->output, w->tmp, sizeof w->tmp, err))) {
        goto fail;
    }
    int bad = 0;
    if (resume) {
        w->f = reopen_file(&w->o, w->tmp);
        if (w->f >= 0) w->strain = H5Dopen2(w->f, SGT_FILE_STRAIN, H5P_DEFAULT);
        bad = writer(&w->o) && (w->strain < 0 || !check_partial(w->strain, s, c->npoints));
        rc = bad ? cs_error_input(err, w->tmp, "dataset", SGT_FILE_STRAIN,
                                  "the partial SGT file the checkpoint continues is missing or "
                                  "not of this run; delete %s to start over",
                                  c->checkpoint_dir)
                 : 0;
        CS_CALL_GOTO(rc, err, cs_mpi_agree(w->o.comm, rc, err), fail);
    } else {
        w->f = create_file(&w->o, w->tmp);
        rc = writer(&w->o) && w->f < 0
                 ? cs_error_set(err, CS_ERR_IO, "%s: cannot create HDF5 file", w->tmp)
                 : 0;
        CS_CALL_GOTO(rc, err, cs_mpi_agree(w->o.comm, rc, err), fail);
        bad |= write_head(&w->o, w->f, c, s, meta);
        bad |= create_sgt(&w->o, w->f, c, s, &w->strain);
        /* Everything but the strain's values is on disk before the first window: a killed run
         * leaves a file whose structure a resumed run can open. */
        if (w->f >= 0 && H5Fflush(w->f, H5F_SCOPE_GLOBAL) < 0) bad = 1;
        rc = bad ? cs_error_set(err, CS_ERR_IO, "%s: writing the HDF5 output failed (disk full?)",
                                w->tmp)
                 : 0;
        CS_CALL_GOTO(rc, err, cs_mpi_agree(w->o.comm, rc, err), fail);
    }
    *out = w;
    return 0;
fail:
    sgt_output_abandon(w);
    return rc;
}

int sgt_output_put_strain(sgt_output *w, const sgt_state *s, int m0, int len, const float *win,
                          cs_error *err) {
    int bad = put_rows(&w->o, w->strain, H5T_NATIVE_FLOAT, MPI_FLOAT, sizeof(float), s->pt_row,
                       s->npoints, 6L * len, (row_span){m0, len}, win);
    if (bad)
        return cs_error_set(err, CS_ERR_IO,
                            "%s: writing samples %d..%d of the strain failed (disk full?)", w->tmp,
                            m0, m0 + len - 1);
    return 0;
}

int sgt_output_flush(sgt_output *w, cs_error *err) {
    if (w->f >= 0 && H5Fflush(w->f, H5F_SCOPE_GLOBAL) < 0)
        return cs_error_set(err, CS_ERR_IO, "%s: flushing the SGT file failed (disk full?)",
                            w->tmp);
    return 0;
}

int sgt_output_close(sgt_output *w, char sha[65], double *bytes, cs_error *err) {
    int bad = w->strain >= 0 && H5Dclose(w->strain) < 0;
    w->strain = -1;
    hid_t f = w->f;
    w->f = -1;
    int rc = publish(&w->o, f, bad, w->tmp, w->output, w->keep, sha, bytes, err);
    ctx_free(&w->o, 1);
    free(w);
    return rc;
}

void sgt_output_abandon(sgt_output *w) {
    if (!w) return;
    if (w->strain >= 0) H5Dclose(w->strain);
    if (w->f >= 0) H5Fclose(w->f);
    if (w->o.rank == 0 && !w->keep && w->tmp[0]) remove(w->tmp);
    ctx_free(&w->o, 1);
    free(w);
}

const char *sgt_output_path(const sgt_output *w) {
    return w->tmp;
}
