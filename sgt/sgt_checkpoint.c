#include "sgt_checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "cs_hdf5.h"
#include "cs_log.h"
#include "cs_strutil.h"
#include "cs_version.h"
#include "sgt_checkpoint_regrid.h"

static MPI_Comm comm_of(const sgt_state *s) {
    return s->comm ? s->comm->comm : MPI_COMM_NULL;
}
static int rank_of(const sgt_state *s) {
    return s->comm ? s->comm->rank : 0;
}
static int size_of(const sgt_state *s) {
    return s->comm ? s->comm->size : 1;
}

void sgt_checkpoint_fingerprint(const sgt_config *c, const sgt_state *s, const sgt_run_result *res,
                                char out[17]) {
    /* The resolved configuration, less what does not change the numbers (names of outputs and
     * of input files whose contents are hashed below, thread counts, checkpoint settings). */
    sgt_config *k = malloc(sizeof *k);
    uint64_t h = CS_FNV_START;
    if (k) {
        memcpy(k, c, sizeof *k);
        k->threads = 0;
        k->ranks_x = k->ranks_y = 0;
        k->checkpoint_every = 0;
        k->restart = 0;
        memset(k->output, 0, sizeof k->output);
        memset(k->checkpoint_dir, 0, sizeof k->checkpoint_dir);
        memset(k->params_path, 0, sizeof k->params_path);
        memset(k->point_file, 0, sizeof k->point_file);
        memset(k->save_points, 0, sizeof k->save_points);
        memset(k->receivers, 0, sizeof k->receivers);
        k->point_lines = k->rec_lines = k->pts = k->recs = NULL;
        k->point_geo = NULL;
        h = cs_fnv1a(h, k, sizeof *k);
        free(k);
    }
    h = cs_fnv1a(h, CS_VERSION, strlen(CS_VERSION));
    if (c->pts) h = cs_fnv1a(h, c->pts, (size_t)c->npoints * 3 * sizeof(int));
    if (c->recs) h = cs_fnv1a(h, c->recs, (size_t)c->nrec * 3 * sizeof(int));
    if (s->stf) h = cs_fnv1a(h, s->stf, (size_t)c->nt * sizeof(float));
    if (c->nmsrc) {
        h = cs_fnv1a(h, c->msrc_node, (size_t)c->nmsrc * 3 * sizeof(int));
        h = cs_fnv1a(h, c->msrc_m, (size_t)c->nmsrc * 6 * sizeof(double));
        h = cs_fnv1a(h, c->msrc_rate, (size_t)c->nmsrc * (size_t)c->nt * sizeof(float));
    }
    h = cs_fnv1a(h, res->material_sha, strlen(res->material_sha));
    struct stat st;
    if (c->model_file[0] && stat(c->model_file, &st) == 0) {
        long long id[2] = {(long long)st.st_size, (long long)st.st_mtime};
        h = cs_fnv1a(h, id, sizeof id);
    }
    /* Not the decomposition: a checkpoint resumes on any (sgt_checkpoint_regrid.h). */
    snprintf(out, 17, "%016" PRIx64, h);
}

static void manifest_file(const sgt_config *c, char *path, size_t size) {
    snprintf(path, size, "%s/checkpoint", c->checkpoint_dir);
}

/* Removes this rank's checkpoint files other than the one of step `keep` (-1: all), and the
 * temporary files of checkpoints a killed run did not finish. rank < 0: the files of ranks
 * -rank and above (left by a run on more ranks), of any step. */
static void remove_rank_files(const sgt_config *c, int rank, int keep) {
    DIR *d = opendir(c->checkpoint_dir);
    if (!d) return;
    struct dirent *e;
    char path[4400];
    while ((e = readdir(d))) {
        int steps, r;
        char tail[8];
        const int tmp = e->d_name[0] == '.';
        const char *name = e->d_name + tmp;
        if (sscanf(name, "step%d.rank%d.%7s", &steps, &r, tail) != 3 || strncmp(tail, "h5", 2))
            continue;
        if (rank >= 0 ? r != rank || (!tmp && steps == keep) : r < -rank) continue;
        snprintf(path, sizeof path, "%s/%s", c->checkpoint_dir, e->d_name);
        remove(path);
    }
    closedir(d);
}

static int write_rank(const sgt_config *c, const sgt_backend *be, sgt_state *s, int steps,
                      const char *fp, cs_error *err) {
    char path[4400], tmp[4600];
    sgt_checkpoint_rank_file(c, steps, rank_of(s), path, sizeof path);
    int rc = 0;
    CS_CALL(err, cs_atomic_reserve(path, tmp, sizeof tmp, err));
    hid_t f = cs_h5_create(tmp);
    if (f < 0) {
        remove(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: cannot create the checkpoint", tmp);
    }
    int ids[4] = {steps, rank_of(s), size_of(s), s->decimation};
    int bad = cs_h5_attr_string(f, "fingerprint", fp);
    bad |= cs_h5_attr_int(f, "steps_rank_ranks_decimation", ids, 4);
    bad |= sgt_checkpoint_layout_write(f, s);
    sgt_field fl[SGT_MAX_FIELDS];
    int nf = sgt_state_fields(s, fl);
    float *buf = be->field ? malloc((size_t)sgt_fields_max_count(fl, nf) * sizeof(float)) : NULL;
    if (be->field && !buf) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
    for (int q = 0; q < nf && !rc && !bad; q++) {
        const float *src = fl[q].host;
        if (be->field) {
            rc = be->field(s, &fl[q], buf, 0, err);
            src = buf;
        }
        hsize_t d = (hsize_t)fl[q].count;
        if (!rc)
            bad |= cs_h5_write(f, fl[q].name, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 1, &d, NULL, src);
    }
    free(buf);
    if (H5Fclose(f) < 0) bad = 1;
    if (!rc && bad) rc = cs_error_set(err, CS_ERR_IO, "%s: writing the checkpoint failed", tmp);
    if (rc) goto fail;
    CS_CALL_GOTO(rc, err, cs_atomic_publish(tmp, path, NULL, err), fail);
    return 0;
fail:
    remove(tmp);
    return rc;
}

int sgt_checkpoint_write(const sgt_config *c, const sgt_backend *be, sgt_state *s, int steps,
                         const char *fp, cs_error *err) {
    MPI_Comm comm = comm_of(s);
    int rc = 0;
    if (mkdir(c->checkpoint_dir, 0755) && errno != EEXIST) {
        rc = cs_error_errno(err, c->checkpoint_dir, "create the checkpoint folder");
        goto agree;
    }
    CS_CALL_GOTO(rc, err, be->finish(s, err), agree);
    CS_CALL_GOTO(rc, err, write_rank(c, be, s, steps, fp, err), agree);
agree:
    /* Only once every rank's file is in place does the manifest move on. */
    CS_CALL(err, cs_mpi_agree(comm, rc, err));
    if (rank_of(s) == 0) {
        char path[4400], text[256];
        manifest_file(c, path, sizeof path);
        int n = snprintf(text, sizeof text, "fingerprint %s\nsteps %d\nranks %d\n", fp, steps,
                         size_of(s));
        rc = cs_atomic_write_file(path, text, (size_t)n, NULL, err);
    }
    CS_CALL(err, cs_mpi_agree(comm, rc, err));
    remove_rank_files(c, rank_of(s), steps);
    if (rank_of(s) == 0) remove_rank_files(c, -size_of(s), -1);
    cs_info("checkpoint after step %d in %s", steps, c->checkpoint_dir);
    return 0;
}

/* Rank 0 reads the manifest; everyone gets (found, steps, ranks, fingerprint). */
static void read_manifest(const sgt_config *c, const sgt_state *s, int info[3], char fp[17]) {
    info[0] = info[1] = info[2] = 0;
    memset(fp, 0, 17);
    if (rank_of(s) == 0) {
        char path[4400];
        manifest_file(c, path, sizeof path);
        FILE *f = fopen(path, "r");
        if (f) {
            info[0] = fscanf(f, "fingerprint %16s steps %d ranks %d", fp, &info[1], &info[2]) == 3;
            fclose(f);
        }
    }
    MPI_Comm comm = comm_of(s);
    if (comm != MPI_COMM_NULL) {
        MPI_Bcast(info, 3, MPI_INT, 0, comm);
        MPI_Bcast(fp, 17, MPI_CHAR, 0, comm);
    }
}

/* read_rank's answer that the file was written on another decomposition (the caller reads
 * across the files): not a status, and no cs_status has its value. */
enum { READ_OTHER_LAYOUT = 100 };

static int read_rank(const sgt_config *c, const sgt_backend *be, sgt_state *s, int steps,
                     const char *fp, cs_error *err) {
    char path[4400];
    sgt_checkpoint_rank_file(c, steps, rank_of(s), path, sizeof path);
    cs_h5_quiet();
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return cs_error_input(err, path, NULL, NULL,
                              "missing or unreadable, though the manifest names step %d; delete "
                              "%s or set restart = false",
                              steps, c->checkpoint_dir);
    char got[64];
    int ids[4];
    float *buf = NULL;
    int rc;
    CS_CALL_GOTO(rc, err, cs_h5_read_attr_string(f, path, "fingerprint", got, sizeof got, err),
                 done);
    CS_CALL_GOTO(rc, err, cs_h5_read_attr_int(f, path, "steps_rank_ranks_decimation", ids, 4, err),
                 done);
    if (strcmp(got, fp) || ids[0] != steps || ids[1] != rank_of(s)) {
        rc = cs_error_input(err, path, "fingerprint", got,
                            "belongs to another run or rank; delete %s or set restart = false",
                            c->checkpoint_dir);
        goto done;
    }
    if (!sgt_checkpoint_layout_same(f, s)) {
        rc = READ_OTHER_LAYOUT;
        goto done;
    }
    sgt_field fl[SGT_MAX_FIELDS];
    int nf = sgt_state_fields(s, fl);
    if (be->field && !(buf = malloc((size_t)sgt_fields_max_count(fl, nf) * sizeof(float)))) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
        goto done;
    }
    for (int q = 0; q < nf; q++) {
        hsize_t d;
        CS_CALL_GOTO(rc, err, cs_h5_dims(f, path, fl[q].name, 1, &d, err), done);
        if ((long)d != fl[q].count) {
            rc = cs_error_input(err, path, "dataset", fl[q].name, "holds %llu values, expected %ld",
                                (unsigned long long)d, fl[q].count);
            goto done;
        }
        CS_CALL_GOTO(
            rc, err,
            cs_h5_read(f, path, fl[q].name, H5T_NATIVE_FLOAT, be->field ? buf : fl[q].host, err),
            done);
        if (be->field) CS_CALL_GOTO(rc, err, be->field(s, &fl[q], buf, 1, err), done);
    }
done:
    free(buf);
    H5Fclose(f);
    return rc;
}

int sgt_checkpoint_restore(const sgt_config *c, const sgt_backend *be, sgt_state *s, const char *fp,
                           int *steps_done, cs_error *err) {
    *steps_done = 0;
    if (!c->restart) return 0;
    int info[3];
    char mfp[17];
    read_manifest(c, s, info, mfp);
    if (!info[0]) return 0;
    int rc = 0;
    if (strcmp(mfp, fp))
        rc = cs_error_input(err, c->checkpoint_dir, "checkpoint", mfp,
                            "is of another run (the inputs or the code changed); delete the "
                            "folder or set restart = false to start over");
    else if (info[1] <= 0 || info[1] >= c->nt || info[2] <= 0)
        rc = cs_error_input(err, c->checkpoint_dir, "checkpoint", NULL,
                            "names step %d of %d ranks, outside the run's 1..%d", info[1], info[2],
                            c->nt - 1);
    else {
        /* The same decomposition reads its own file whole; another one (which each rank
         * finds from its own file's layout) reads its part of every rank's file. */
        int other = 1;
        if (info[2] == size_of(s)) {
            rc = read_rank(c, be, s, info[1], fp, err);
            other = rc == READ_OTHER_LAYOUT;
            if (other) rc = 0;
        }
        if (!rc && other) {
            if (rank_of(s) == 0)
                cs_info("the checkpoint of step %d was written on %d ranks; reading it across "
                        "the decomposition of this run (%d ranks)",
                        info[1], info[2], size_of(s));
            rc = sgt_checkpoint_read_regrid(c, be, s, info[1], info[2], fp, err);
        }
    }
    CS_CALL(err, cs_mpi_agree(comm_of(s), rc, err));
    *steps_done = info[1];
    return 0;
}

/* Removes the temporary files of manifests a killed run did not finish writing. */
static void remove_manifest_temps(const sgt_config *c) {
    DIR *d = opendir(c->checkpoint_dir);
    if (!d) return;
    struct dirent *e;
    char path[4400];
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, ".checkpoint.tmp.", 16)) continue;
        snprintf(path, sizeof path, "%s/%s", c->checkpoint_dir, e->d_name);
        remove(path);
    }
    closedir(d);
}

void sgt_checkpoint_remove(const sgt_config *c, const sgt_state *s) {
    remove_rank_files(c, rank_of(s), -1);
    MPI_Comm comm = comm_of(s);
    if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
    if (rank_of(s) == 0) {
        char path[4400];
        manifest_file(c, path, sizeof path);
        remove(path);
        remove_manifest_temps(c);
        remove_rank_files(c, -size_of(s), -1);
        rmdir(c->checkpoint_dir);
    }
}
