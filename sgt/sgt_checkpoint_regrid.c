#include "sgt_checkpoint_regrid.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_hdf5.h"
#include "cs_log.h"

enum { LAYOUT_N = 17 };

void sgt_checkpoint_rank_file(const sgt_config *c, int steps, int rank, char *path, size_t size) {
    snprintf(path, size, "%s/step%09d.rank%05d.h5", c->checkpoint_dir, steps, rank);
}

/* The rank's place in the grid as LAYOUT_N integers: 0, or -1 when the strides exceed an int
 * (the layout cannot be recorded; sgt_checkpoint_layout_write's -1). */
static int layout_of(const sgt_state *s, int v[LAYOUT_N]) {
    const sgt_layout *L = &s->L;
    if (L->sx > INT_MAX || L->sy > INT_MAX) return -1;
    const int a[LAYOUT_N] = {L->i0,        L->j0,       L->lnx,     L->lny,       L->nz,
                             L->halo,      L->gz,       (int)L->sx, (int)L->sy,   L->own.ib,
                             L->own.ie,    L->own.jb,   L->own.je,  L->nbr[0][0], L->nbr[0][1],
                             L->nbr[1][0], L->nbr[1][1]};
    memcpy(v, a, sizeof a);
    return 0;
}

/* [nslabs, (axis, side, box[6]) per slab, nrec] */
static int slabs_of(const sgt_state *s, int *v) {
    int n = 0;
    v[n++] = s->pml.nslabs;
    for (int q = 0; q < s->pml.nslabs; q++) {
        const sgt_pml_slab *sl = &s->pml.slab[q];
        v[n++] = sl->axis;
        v[n++] = sl->side;
        for (int b = 0; b < 6; b++)
            v[n++] = sl->box[b];
    }
    v[n++] = s->nrec;
    return n;
}

int sgt_checkpoint_layout_write(hid_t f, const sgt_state *s) {
    int lay[LAYOUT_N], sl[2 + 6 * 8];
    if (layout_of(s, lay)) return -1;
    int bad = cs_h5_attr_int(f, "layout", lay, LAYOUT_N);
    bad |= cs_h5_attr_int(f, "slabs", sl, slabs_of(s, sl));
    if (s->nrec) {
        hsize_t d = (hsize_t)s->nrec;
        bad |= cs_h5_write(f, "rec_row", H5T_STD_I64LE, H5T_NATIVE_LONG, 1, &d, NULL, s->rec_row);
    }
    return bad ? -1 : 0;
}

/* An old rank's file: its layout, slabs and receiver rows. */
typedef struct {
    hid_t f;
    char path[4400];
    int lay[LAYOUT_N];
    int sl[2 + 6 * 8];
    long *rec_row;
} old_rank;

static int read_old(hid_t f, const char *path, old_rank *o, cs_error *err) {
    o->f = f;
    snprintf(o->path, sizeof o->path, "%s", path);
    CS_CALL(err, cs_h5_read_attr_int(f, path, "layout", o->lay, LAYOUT_N, err));
    hid_t a = H5Aexists(f, "slabs") > 0 ? H5Aopen(f, "slabs", H5P_DEFAULT) : -1;
    hssize_t n = -1;
    if (a >= 0) {
        hid_t sp = H5Aget_space(a);
        n = H5Sget_simple_extent_npoints(sp);
        H5Sclose(sp);
        H5Aclose(a);
    }
    if (n < 2 || n > (hssize_t)(sizeof o->sl / sizeof o->sl[0]))
        return cs_error_input(err, path, "attribute", "slabs", "missing or malformed");
    CS_CALL(err, cs_h5_read_attr_int(f, path, "slabs", o->sl, (int)n, err));
    const int nslabs = o->sl[0], nrec = o->sl[n - 1];
    if (nslabs < 0 || nslabs > 6 || n != 2 + 8 * nslabs || nrec < 0)
        return cs_error_input(err, path, "attribute", "slabs", "malformed (%d slabs)", nslabs);
    o->rec_row = NULL;
    if (nrec) {
        o->rec_row = malloc((size_t)nrec * sizeof(long));
        if (!o->rec_row) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
        hsize_t d;
        CS_CALL(err, cs_h5_dims(f, path, "rec_row", 1, &d, err));
        if ((long)d != nrec)
            return cs_error_input(err, path, "dataset", "rec_row", "holds %llu rows, expected %d",
                                  (unsigned long long)d, nrec);
        CS_CALL(err, cs_h5_read(f, path, "rec_row", H5T_NATIVE_LONG, o->rec_row, err));
    }
    return 0;
}

int sgt_checkpoint_layout_same(hid_t f, const sgt_state *s) {
    cs_error ignored;
    old_rank o;
    if (read_old(f, "", &o, &ignored)) {
        free(o.rec_row);
        return 0;
    }
    int lay[LAYOUT_N], sl[2 + 6 * 8];
    int same = !layout_of(s, lay) && !memcmp(lay, o.lay, sizeof lay);
    const int n = slabs_of(s, sl);
    same = same && !memcmp(sl, o.sl, (size_t)n * sizeof(int));
    for (int r = 0; same && r < s->nrec; r++)
        same = o.rec_row[r] == s->rec_row[r];
    free(o.rec_row);
    return same;
}

/* The columns whose values rank `o` holds with authority, in global indices [i0, i1) x [j0, j1):
 * the ones it owns, and the ghosts beyond the grid's edge on the sides it touches (nobody owns
 * those; their values are whatever the rank at the edge left there). */
static void authority(const int *lay, int box[4]) {
    const int i0 = lay[0], j0 = lay[1], lnx = lay[2], lny = lay[3], halo = lay[5];
    box[0] = i0 + (lay[13] ? lay[9] : -halo);
    box[1] = i0 + (lay[14] ? lay[10] : lnx + halo);
    box[2] = j0 + (lay[15] ? lay[11] : -halo);
    box[3] = j0 + (lay[16] ? lay[12] : lny + halo);
}

static int meet(int a0, int a1, int b0, int b1, int *c0, int *c1) {
    *c0 = a0 > b0 ? a0 : b0;
    *c1 = a1 < b1 ? a1 : b1;
    return *c0 < *c1;
}

/* Reads `count` blocks of `block` floats, `stride` apart from `start`, of a 1D dataset. */
static int read_blocks(const old_rank *o, const char *name, hsize_t start, hsize_t stride,
                       hsize_t count, hsize_t block, float *out, cs_error *err) {
    if (H5Lexists(o->f, name, H5P_DEFAULT) <= 0)
        return cs_error_input(err, o->path, "dataset", name, "missing");
    hid_t ds = H5Dopen2(o->f, name, H5P_DEFAULT);
    hid_t fs = H5Dget_space(ds);
    hsize_t total = count * block;
    hid_t ms = H5Screate_simple(1, &total, NULL);
    if (count == 1) stride = block;
    herr_t r = H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, &stride, &count, &block);
    if (r >= 0) r = H5Dread(ds, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, out);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(ds);
    if (r < 0)
        return cs_error_input(err, o->path, "dataset", name,
                              "cannot be read (blocks of %llu from %llu)",
                              (unsigned long long)block, (unsigned long long)start);
    return 0;
}

/* A field over the whole local array (velocity, stress, memory variables): the columns of this
 * rank's extent, ghosts included, that rank `o` holds. Returns the owned columns filled. */
static int copy_columns(const old_rank *o, const char *name, const sgt_layout *L, float *dst,
                        long *owned, cs_error *err) {
    const int *ol = o->lay;
    const int oi0 = ol[0], oj0 = ol[1], ohalo = ol[5];
    const long osx = ol[7], osy = ol[8];
    int auth[4], a0, a1, b0, b1;
    authority(ol, auth);
    if (!meet(auth[0], auth[1], L->i0 - L->halo, L->i0 + L->lnx + L->halo, &a0, &a1) ||
        !meet(auth[2], auth[3], L->j0 - L->halo, L->j0 + L->lny + L->halo, &b0, &b1))
        return 0;
    if (ol[4] != L->nz || ol[6] != L->gz)
        return cs_error_input(err, o->path, "layout", NULL,
                              "has %d nodes and %d ghosts in depth, this run %d and %d", ol[4],
                              ol[6], L->nz, L->gz);
    const long ni = a1 - a0, nj = b1 - b0, block = nj * osy, col = L->nz + 2L * L->gz;
    float *tmp = malloc((size_t)(ni * block) * sizeof(float));
    if (!tmp) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
    const long start = (long)(a0 - oi0 + ohalo) * osx + (long)(b0 - oj0 + ohalo) * osy;
    int rc =
        read_blocks(o, name, (hsize_t)start, (hsize_t)osx, (hsize_t)ni, (hsize_t)block, tmp, err);
    for (long i = 0; i < ni && !rc; i++)
        for (long j = 0; j < nj; j++) {
            const int li = (int)(a0 + i - L->i0), lj = (int)(b0 + j - L->j0);
            memcpy(dst + sgt_idx(L, li, lj, -L->gz), tmp + i * block + j * osy,
                   (size_t)col * sizeof(float));
            if (li >= L->own.ib && li < L->own.ie && lj >= L->own.jb && lj < L->own.je) (*owned)++;
        }
    free(tmp);
    return rc;
}

/* PML memory variables of slab `sl` (local box) from rank `o`'s slab of the same face. */
static int copy_slab(const old_rank *o, const sgt_layout *L, const sgt_pml_slab *sl, int comp,
                     float *dst, cs_error *err) {
    int auth[4];
    authority(o->lay, auth);
    const int oi0 = o->lay[0], oj0 = o->lay[1];
    for (int q = 0; q < o->sl[0]; q++) {
        const int *os = &o->sl[1 + 8 * q], *ob = os + 2;
        if (os[0] != sl->axis || os[1] != sl->side) continue;
        if (ob[4] != sl->box[4] || ob[5] != sl->box[5])
            return cs_error_input(err, o->path, "slabs", NULL,
                                  "a PML slab spans depths %d..%d, this run's %d..%d", ob[4], ob[5],
                                  sl->box[4], sl->box[5]);
        int a0, a1, b0, b1, c0, c1, d0, d1;
        if (!meet(auth[0], auth[1], oi0 + ob[0], oi0 + ob[1], &c0, &c1) ||
            !meet(c0, c1, L->i0 + sl->box[0], L->i0 + sl->box[1], &a0, &a1) ||
            !meet(auth[2], auth[3], oj0 + ob[2], oj0 + ob[3], &d0, &d1) ||
            !meet(d0, d1, L->j0 + sl->box[2], L->j0 + sl->box[3], &b0, &b1))
            continue;
        const long nk = sl->box[5] - sl->box[4], onj = ob[3] - ob[2], nnj = sl->box[3] - sl->box[2];
        const long ni = a1 - a0, nj = b1 - b0;
        float *tmp = malloc((size_t)(ni * nj * nk) * sizeof(float));
        if (!tmp) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
        char name[32];
        snprintf(name, sizeof name, "psi%d_%d", q, comp);
        const long start = ((long)(a0 - oi0 - ob[0]) * onj + (b0 - oj0 - ob[2])) * nk;
        int rc = read_blocks(o, name, (hsize_t)start, (hsize_t)(onj * nk), (hsize_t)ni,
                             (hsize_t)(nj * nk), tmp, err);
        for (long i = 0; i < ni && !rc; i++) {
            const long d = ((a0 + i - L->i0 - sl->box[0]) * nnj + (b0 - L->j0 - sl->box[2])) * nk;
            memcpy(dst + d, tmp + i * nj * nk, (size_t)(nj * nk) * sizeof(float));
        }
        free(tmp);
        if (rc) return rc;
    }
    return 0;
}

/* Receiver state: each of this rank's receivers from the rank that had its row. */
static int copy_receivers(const old_rank *old, int nold, const sgt_state *s, const sgt_field *fl,
                          float *dst, cs_error *err) {
    const long per = fl->count / s->nrec;
    long found = 0;
    for (int o = 0; o < nold; o++) {
        const int nrec = old[o].sl[2 + 8 * old[o].sl[0] - 1];
        int mine = 0;
        for (int r = 0; r < s->nrec; r++)
            for (int q = 0; q < nrec; q++)
                mine += old[o].rec_row[q] == s->rec_row[r];
        if (!mine) continue;
        float *tmp = malloc((size_t)(per * nrec) * sizeof(float));
        if (!tmp) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
        int rc = read_blocks(&old[o], fl->name, 0, 1, 1, (hsize_t)(per * nrec), tmp, err);
        for (int r = 0; r < s->nrec && !rc; r++)
            for (int q = 0; q < nrec; q++)
                if (old[o].rec_row[q] == s->rec_row[r]) {
                    memcpy(dst + r * per, tmp + q * per, (size_t)per * sizeof(float));
                    found++;
                }
        free(tmp);
        if (rc) return rc;
    }
    if (found != s->nrec)
        return cs_error_input(err, old[0].path, "rec_row", NULL,
                              "the checkpoint holds %ld of this rank's %d receivers", found,
                              s->nrec);
    return 0;
}

static int fill_field(const old_rank *old, int nold, const sgt_state *s, const sgt_field *fl,
                      float *dst, cs_error *err) {
    memset(dst, 0, (size_t)fl->count * sizeof(float));
    if (fl->kind == SGT_FIELD_REC_PREV || fl->kind == SGT_FIELD_REC_OUT)
        return copy_receivers(old, nold, s, fl, dst, err);
    if (fl->kind == SGT_FIELD_PSI) {
        for (int o = 0; o < nold; o++)
            CS_CALL(err, copy_slab(&old[o], &s->L, &s->pml.slab[fl->slab], fl->comp, dst, err));
        return 0;
    }
    long owned = 0;
    for (int o = 0; o < nold; o++)
        CS_CALL(err, copy_columns(&old[o], fl->name, &s->L, dst, &owned, err));
    const long want = (long)(s->L.own.ie - s->L.own.ib) * (s->L.own.je - s->L.own.jb);
    if (owned != want)
        return cs_error_input(err, old[0].path, "dataset", fl->name,
                              "the %d files of the checkpoint cover %ld of this rank's %ld "
                              "columns",
                              nold, owned, want);
    return 0;
}

/* Old rank k's file opened (o->f, for the caller to close; -1 when it could not be) and read,
 * its fingerprint this run's. */
static int open_old(const sgt_config *c, int steps, int old_ranks, int k, const char *fp,
                    old_rank *o, cs_error *err) {
    char path[4400], got[64];
    sgt_checkpoint_rank_file(c, steps, k, path, sizeof path);
    o->f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (o->f < 0)
        return cs_error_input(err, path, NULL, NULL,
                              "missing or unreadable, though the manifest names step %d of %d "
                              "ranks; delete %s or set restart = false",
                              steps, old_ranks, c->checkpoint_dir);
    CS_CALL(err, read_old(o->f, path, o, err));
    CS_CALL(err, cs_h5_read_attr_string(o->f, path, "fingerprint", got, sizeof got, err));
    if (strcmp(got, fp))
        return cs_error_input(err, path, "fingerprint", got,
                              "belongs to another run; delete %s or set restart = false",
                              c->checkpoint_dir);
    return 0;
}

int sgt_checkpoint_read_regrid(const sgt_config *c, const sgt_backend *be, sgt_state *s, int steps,
                               int old_ranks, const char *fp, cs_error *err) {
    old_rank *old = calloc((size_t)old_ranks, sizeof *old);
    if (!old) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
    cs_h5_quiet();
    int rc = 0, opened = 0;
    /* every file tried is closed below, the one that failed included */
    for (; opened < old_ranks && !rc; opened++)
        rc = open_old(c, steps, old_ranks, opened, fp, &old[opened], err);
    sgt_field fl[SGT_MAX_FIELDS];
    const int nf = sgt_state_fields(s, fl);
    float *buf =
        be->field && !rc ? malloc((size_t)sgt_fields_max_count(fl, nf) * sizeof(float)) : NULL;
    if (!rc && be->field && !buf)
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory (checkpoint)");
    for (int q = 0; q < nf && !rc; q++) {
        rc = fill_field(old, opened, s, &fl[q], be->field ? buf : fl[q].host, err);
        if (!rc && be->field) rc = be->field(s, &fl[q], buf, 1, err);
    }
    free(buf);
    for (int o = 0; o < opened; o++) {
        if (old[o].f >= 0) H5Fclose(old[o].f);
        free(old[o].rec_row);
    }
    free(old);
    return rc;
}
