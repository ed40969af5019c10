/* Harnesses of the HDF5 inputs: the gridded velocity model, the material file and the SGT files.
 * Each writes a valid file once with the toolkit's own writer, and every input edits a copy of it
 * (fuzz_h5_edit) before the reader sees it. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_hdf5.h"
#include "fuzz.h"
#include "sgt_mesh.h"
#include "sgt_model.h"
#include "sgt_q.h"
#include "sgt_set.h"
#include "sgt_state.h"

/* ---- the editor ---- */

static const double extremes[] = {
    0,      -0.0, 1,      -1,           NAN,           INFINITY, -INFINITY, 1e308,
    -1e308, 1e30, 1e-320, 2147483648.0, -2147483649.0, 3e9,      1e5,       20000.5,
    0.5,    4,    2,      65536};
#define NEXTREMES (sizeof extremes / sizeof *extremes)

#define MAX_OBJECTS 64
typedef struct {
    int ndatasets, nattrs;
    char datasets[MAX_OBJECTS][256];
    char attr_owner[MAX_OBJECTS][256], attr_name[MAX_OBJECTS][256];
} objects;

static herr_t add_attr(hid_t loc, const char *name, const H5A_info_t *info, void *ctx_) {
    (void)info;
    objects *o = ctx_;
    char owner[256] = "/";
    ssize_t n = H5Iget_name(loc, owner, sizeof owner);
    if (n <= 0) snprintf(owner, sizeof owner, "/");
    if (o->nattrs < MAX_OBJECTS) {
        snprintf(o->attr_owner[o->nattrs], 256, "%s", owner);
        snprintf(o->attr_name[o->nattrs], 256, "%s", name);
        o->nattrs++;
    }
    return 0;
}

static herr_t add_object(hid_t root, const char *name, const H5O_info_t *info, void *ctx_) {
    objects *o = ctx_;
    if (info->type == H5O_TYPE_DATASET && o->ndatasets < MAX_OBJECTS)
        snprintf(o->datasets[o->ndatasets++], 256, "/%s", name);
    hid_t obj = H5Oopen(root, name, H5P_DEFAULT);
    if (obj >= 0) {
        H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, NULL, add_attr, o);
        H5Oclose(obj);
    }
    return 0;
}

static void list_objects(hid_t f, objects *o) {
    memset(o, 0, sizeof *o);
    H5Ovisit(f, H5_INDEX_NAME, H5_ITER_INC, add_object, o);
}

/* A new attribute or dataset of rank `rank` (0: scalar), of type kind (0 float, 1 int, 2
 * double, 3 string), every element `value`. */
static hid_t type_of(int kind) {
    if (kind == 0) return H5Tcopy(H5T_IEEE_F32LE);
    if (kind == 1) return H5Tcopy(H5T_STD_I32LE);
    if (kind == 2) return H5Tcopy(H5T_IEEE_F64LE);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 8);
    return t;
}

static hid_t space_of(int rank, const hsize_t *dims) {
    return rank ? H5Screate_simple(rank, dims, NULL) : H5Screate(H5S_SCALAR);
}

static void fill_write(hid_t obj, int is_attr, int kind, hssize_t n, double value) {
    if (n <= 0 || n > 4096) return;
    if (kind == 3) {
        char *s = calloc((size_t)n, 8);
        for (hssize_t i = 0; i < n; i++)
            memcpy(s + 8 * i, "1e308x", 6);
        hid_t t = type_of(3);
        if (is_attr)
            H5Awrite(obj, t, s);
        else
            H5Dwrite(obj, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, s);
        H5Tclose(t);
        free(s);
        return;
    }
    double *v = malloc((size_t)n * sizeof *v);
    for (hssize_t i = 0; i < n; i++)
        v[i] = value;
    if (is_attr)
        H5Awrite(obj, H5T_NATIVE_DOUBLE, v);
    else
        H5Dwrite(obj, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    free(v);
}

static void replace_attr(hid_t f, const char *owner, const char *name, int rank,
                         const hsize_t *dims, int kind, double value) {
    hid_t obj = H5Oopen(f, owner, H5P_DEFAULT);
    if (obj < 0) return;
    H5Adelete(obj, name);
    hid_t t = type_of(kind), sp = space_of(rank, dims);
    hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        fill_write(a, 1, kind, H5Sget_simple_extent_npoints(sp), value);
        H5Aclose(a);
    }
    H5Sclose(sp);
    H5Tclose(t);
    H5Oclose(obj);
}

static void replace_dataset(hid_t f, const char *path, int rank, const hsize_t *dims, int kind,
                            double value) {
    H5Ldelete(f, path, H5P_DEFAULT);
    hid_t t = type_of(kind), sp = space_of(rank, dims);
    hid_t d = H5Dcreate2(f, path, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d >= 0) {
        fill_write(d, 0, kind, H5Sget_simple_extent_npoints(sp), value);
        H5Dclose(d);
    }
    H5Sclose(sp);
    H5Tclose(t);
}

/* One element of a dataset or attribute set to value (read, changed, written back whole). */
static void set_element(hid_t obj, int is_attr, size_t at, double value) {
    hid_t sp = is_attr ? H5Aget_space(obj) : H5Dget_space(obj);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    H5Sclose(sp);
    if (n <= 0 || n > (1 << 20)) return;
    hid_t t = is_attr ? H5Aget_type(obj) : H5Dget_type(obj);
    int numeric = H5Tget_class(t) == H5T_FLOAT || H5Tget_class(t) == H5T_INTEGER;
    H5Tclose(t);
    if (!numeric) return;
    double *v = malloc((size_t)n * sizeof *v);
    herr_t r = is_attr ? H5Aread(obj, H5T_NATIVE_DOUBLE, v)
                       : H5Dread(obj, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    if (r >= 0) {
        v[at % (size_t)n] = value;
        if (is_attr)
            H5Awrite(obj, H5T_NATIVE_DOUBLE, v);
        else
            H5Dwrite(obj, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    }
    free(v);
}

int fuzz_h5_edit(const char *path, const uint8_t *data, size_t size) {
    cs_h5_quiet();
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) return -1;
    objects o;
    for (size_t at = 0; at + 6 <= size; at += 6) {
        const uint8_t *op = data + at;
        list_objects(f, &o);
        double value = extremes[op[2] % NEXTREMES];
        hsize_t dims[4];
        int rank = op[3] % 5;
        for (int k = 0; k < 4; k++)
            dims[k] = (hsize_t)((op[4] >> (2 * k)) & 3) + (op[5] & 1 ? 0 : 1);
        int kind = (op[5] >> 1) % 4;
        switch (op[0] % 9) {
        case 0: /* an attribute's element set to an extreme */
        case 1:
            if (o.nattrs) {
                int i = op[1] % o.nattrs;
                hid_t a =
                    H5Aopen_by_name(f, o.attr_owner[i], o.attr_name[i], H5P_DEFAULT, H5P_DEFAULT);
                if (a >= 0) {
                    set_element(a, 1, op[4], value);
                    H5Aclose(a);
                }
            }
            break;
        case 2: /* an attribute removed */
            if (o.nattrs) {
                int i = op[1] % o.nattrs;
                H5Adelete_by_name(f, o.attr_owner[i], o.attr_name[i], H5P_DEFAULT);
            }
            break;
        case 3: /* an attribute re-made with another shape or type */
            if (o.nattrs) {
                int i = op[1] % o.nattrs;
                replace_attr(f, o.attr_owner[i], o.attr_name[i], rank, dims, kind, value);
            }
            break;
        case 4: /* a dataset's element set to an extreme */
        case 5:
            if (o.ndatasets) {
                hid_t d = H5Dopen2(f, o.datasets[op[1] % o.ndatasets], H5P_DEFAULT);
                if (d >= 0) {
                    set_element(d, 0, (size_t)op[3] << 8 | op[4], value);
                    H5Dclose(d);
                }
            }
            break;
        case 6: /* a dataset removed */
            if (o.ndatasets) H5Ldelete(f, o.datasets[op[1] % o.ndatasets], H5P_DEFAULT);
            break;
        case 7: /* a dataset re-made with another shape or type */
            if (o.ndatasets)
                replace_dataset(f, o.datasets[op[1] % o.ndatasets], rank, dims, kind, value);
            break;
        case 8: /* a dataset replaced by a group of the same name */
            if (o.ndatasets) {
                const char *p = o.datasets[op[1] % o.ndatasets];
                H5Ldelete(f, p, H5P_DEFAULT);
                hid_t g = H5Gcreate2(f, p, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
                if (g >= 0) H5Gclose(g);
            }
            break;
        }
    }
    H5Fclose(f);
    return 0;
}

/* ---- harnesses ---- */

static int copy_file(const char *from, const char *to) {
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int rc = !a || !b;
    char buf[65536];
    size_t n;
    while (!rc && (n = fread(buf, 1, sizeof buf, a)) > 0)
        rc = fwrite(buf, 1, n, b) != n;
    if (a) fclose(a);
    if (b) fclose(b);
    return rc;
}

/* The base file at NAME in the scratch folder, written by make() once per process. */
static const char *base_file(const char *name, int (*make)(const char *path)) {
    static char paths[4][4200];
    static const char *names[4];
    for (int i = 0; i < 4; i++) {
        if (names[i] && !strcmp(names[i], name)) return paths[i];
        if (!names[i]) {
            snprintf(paths[i], sizeof paths[i], "%s/%s", fuzz_scratch(), name);
            if (make(paths[i])) {
                fprintf(stderr, "fuzz: cannot write the base file %s\n", paths[i]);
                abort();
            }
            names[i] = name;
            return paths[i];
        }
    }
    abort();
}

enum { MX = 4, MY = 3, MZ = 3, MN = MX * MY * MZ };

static int make_model(const char *path) {
    float vp[MN], vs[MN], rho[MN], qp[MN], qs[MN];
    for (int p = 0; p < MN; p++)
        vp[p] = 3000 + 10.0f * p, vs[p] = 1500 + 5.0f * p, rho[p] = 2500, qp[p] = 100, qs[p] = 50;
    cs_error err;
    return sgt_model_write_hdf5(path, MX, MY, MZ, -100, -50, 0, 100, 100, 100, vp, vs, rho, qp, qs,
                                &err);
}

int fuzz_model_hdf5(const uint8_t *data, size_t size) {
    const char *base = base_file("model_base.h5", make_model);
    char path[4200];
    snprintf(path, sizeof path, "%s/model.h5", fuzz_scratch());
    if (copy_file(base, path) || fuzz_h5_edit(path, data, size)) return 0;
    cs_error err;
    cs_error_clear(&err);
    sgt_model m;
    int rc = sgt_model_read_hdf5(&m, path, &err);
    fuzz_check_error("model_hdf5", rc, &err);
    if (rc) return 0;
    static const double at[][3] = {{0, 0, 0}, {-100, -50, 0}, {150, 50, 150}, {1e6, 0, 0}};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        sgt_material a;
        cs_error_clear(&err);
        rc = sgt_model_query(&m, at[i][0], at[i][1], at[i][2], 0, 0, 0, &a, &err);
        fuzz_check_error("model_hdf5", rc, &err);
    }
    sgt_model_free(&m);
    return 0;
}

enum { GX = 8, GY = 7, GZ = 6 };

static int make_material(const char *path) {
    sgt_model m;
    cs_error err;
    if (sgt_model_homogeneous(&m, 4000, 2000, 2500, 200, 100, &err)) return -1;
    sgt_mesh_rules r = {0, 0, 0, 0, SGT_QSRC_AUTO, 0, 0, 100, SGT_SAMPLE_POINT, 1, 0, 0};
    sgt_mesh_stats st;
    char sha[65];
    int rc = sgt_mesh_write(path, &m, &r, GX, GY, GZ, sha, &st, &err);
    sgt_model_free(&m);
    return rc;
}

/* The material file loaded into a state of its grid; the first byte picks an elastic or a
 * viscoelastic run (the latter also reads qs_z). */
int fuzz_material(const uint8_t *data, size_t size) {
    const char *base = base_file("material_base.h5", make_material);
    char path[4200];
    snprintf(path, sizeof path, "%s/material.h5", fuzz_scratch());
    int visco = size > 0 && (data[0] & 1);
    if (copy_file(base, path) || fuzz_h5_edit(path, size ? data + 1 : data, size ? size - 1 : 0))
        return 0;
    cs_error err;
    cs_error_clear(&err);
    sgt_state s;
    memset(&s, 0, sizeof s);
    s.L.nx = GX, s.L.ny = GY, s.L.nz = GZ;
    s.L.lnx = GX, s.L.lny = GY, s.L.halo = 2, s.L.gz = 2;
    sgt_layout_set_regions(&s.L);
    s.h = 100, s.dt = 0.01, s.nt = 10, s.visco = visco;
    if (visco) {
        /* the fit takes 0.7 s, 18 s under the sanitizers, and never changes: made once, its
         * time not counted against the input's */
        static sgt_q_model q;
        static int fitted;
        if (!fitted) {
            fuzz_stop_clock();
            if (sgt_q_fit(&q, 0.01, 25, 1, &err)) abort();
            fitted = 1;
            fuzz_restart_clock();
        }
        s.q = q;
        sgt_state_set_q_constants(&s);
    }
    if (sgt_state_alloc(&s, &err)) abort();
    sgt_mesh_stats st;
    char sha[65];
    int rc = sgt_mesh_load_state(&s, path, sha, &st, &err);
    fuzz_check_error("material", rc, &err);
    sgt_state_free(&s);
    return 0;
}

/* A site's SGT set: three files the solver wrote (tests/fuzz/sgt_base: the workflow test site's
 * 182 save points, 40 steps, 5 samples). The first byte picks the file the edits apply to; the
 * set is opened with its checks and three of its points are read. */
int fuzz_sgt_set(const uint8_t *data, size_t size) {
    static const char force[3] = {'E', 'N', 'Z'};
    char paths[3][4200], base[64];
    const char *list[3];
    for (int q = 0; q < 3; q++) {
        snprintf(base, sizeof base, "tests/fuzz/sgt_base/sgt_%c.h5", force[q]);
        snprintf(paths[q], sizeof paths[q], "%s/sgt_%c.h5", fuzz_scratch(), force[q]);
        if (copy_file(fuzz_repo_path(base), paths[q])) return 0;
        list[q] = paths[q];
    }
    int which = size > 0 ? data[0] % 3 : 0;
    if (fuzz_h5_edit(paths[which], size ? data + 1 : data, size ? size - 1 : 0)) return 0;
    cs_error err;
    cs_error_clear(&err);
    sgt_set s;
    int rc = sgt_set_open(&s, list, 3, &err);
    fuzz_check_error("sgt_set", rc, &err);
    if (rc) return 0;
    long pts[3] = {0, s.npoints / 2, s.npoints - 1};
    float *buf = malloc(sizeof(float) * 3 * 3 * 6 * (size_t)s.nt);
    if (buf) {
        cs_error_clear(&err);
        rc = sgt_set_read(&s, pts, 3, buf, &err);
        fuzz_check_error("sgt_set", rc, &err);
        free(buf);
    }
    sgt_set_close(&s);
    return 0;
}
