#include "cs_hdf5.h"

#include <string.h>

void cs_h5_quiet(void) {
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

hid_t cs_h5_group(hid_t loc, const char *name) {
    hid_t pl = H5Pcreate(H5P_GROUP_CREATE);
    H5Pset_obj_track_times(pl, 0);
    hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, pl, H5P_DEFAULT);
    H5Pclose(pl);
    return g;
}

hid_t cs_h5_create(const char *path) {
    /* No modification times in object headers: the same inputs give the same bytes, so
     * checksums compare runs (a restarted run against an uninterrupted one). */
    hid_t pl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_obj_track_times(pl, 0);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, pl, H5P_DEFAULT);
    H5Pclose(pl);
    return f;
}

static int write_attr(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v, int n) {
    hsize_t d = (hsize_t)n;
    hid_t sp = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &d, NULL);
    if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
    hid_t a = H5Acreate2(obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    herr_t r = a < 0 ? -1 : H5Awrite(a, mtype, v);
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    return r < 0 ? -1 : 0;
}

int cs_h5_attr_double(hid_t obj, const char *name, const double *v, int n) {
    return write_attr(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v, n);
}
int cs_h5_attr_int(hid_t obj, const char *name, const int *v, int n) {
    return write_attr(obj, name, H5T_STD_I32LE, H5T_NATIVE_INT, v, n);
}
int cs_h5_attr_string(hid_t obj, const char *name, const char *v) {
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(v) + 1);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    hid_t sp = H5Screate(H5S_SCALAR);
    if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
    hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    herr_t r = a < 0 ? -1 : H5Awrite(a, t, v);
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    return r < 0 ? -1 : 0;
}

static int read_attr(hid_t obj, const char *file, const char *name, hid_t mtype, void *v, int n,
                     cs_error *err) {
    if (H5Aexists(obj, name) <= 0) return cs_error_input(err, file, "attribute", name, "missing");
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t sp = H5Aget_space(a);
    hssize_t np = H5Sget_simple_extent_npoints(sp);
    H5Sclose(sp);
    int rc = 0;
    if (np != n)
        rc = cs_error_input(err, file, "attribute", name, "holds %lld values, expected %d",
                            (long long)np, n);
    else if (H5Aread(a, mtype, v) < 0)
        rc = cs_error_input(err, file, "attribute", name, "cannot be read as a number");
    H5Aclose(a);
    return rc;
}

int cs_h5_read_attr_double(hid_t obj, const char *file, const char *name, double *v, int n,
                           cs_error *err) {
    return read_attr(obj, file, name, H5T_NATIVE_DOUBLE, v, n, err);
}
int cs_h5_read_attr_int(hid_t obj, const char *file, const char *name, int *v, int n,
                        cs_error *err) {
    return read_attr(obj, file, name, H5T_NATIVE_INT, v, n, err);
}

int cs_h5_read_attr_string(hid_t obj, const char *file, const char *name, char *v, size_t size,
                           cs_error *err) {
    if (H5Aexists(obj, name) <= 0) return cs_error_input(err, file, "attribute", name, "missing");
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t ft = H5Aget_type(a);
    int rc = 0;
    if (H5Tget_class(ft) != H5T_STRING || H5Tis_variable_str(ft) > 0 || H5Tget_size(ft) >= size) {
        rc = cs_error_input(err, file, "attribute", name, "is not a short fixed-length string");
    } else {
        hid_t t = H5Tcopy(H5T_C_S1);
        H5Tset_size(t, H5Tget_size(ft) + 1);
        memset(v, 0, size);
        if (H5Aread(a, t, v) < 0) rc = cs_error_input(err, file, "attribute", name, "unreadable");
        H5Tclose(t);
    }
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}

int cs_h5_write(hid_t loc, const char *name, hid_t file_type, hid_t mem_type, int rank,
                const hsize_t *dims, const hsize_t *chunk, const void *data) {
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunk) H5Pset_chunk(pl, rank, chunk);
    H5Pset_obj_track_times(pl, 0);
    hid_t ds = H5Dcreate2(loc, name, file_type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    herr_t r =
        ds < 0 ? -1 : (data ? H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : 0);
    if (ds >= 0) H5Dclose(ds);
    H5Pclose(pl);
    H5Sclose(sp);
    return r < 0 ? -1 : 0;
}

hid_t cs_h5_dataset(hid_t loc, const char *name, hid_t file_type, int rank, const hsize_t *dims,
                    const hsize_t *chunk) {
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunk) H5Pset_chunk(pl, rank, chunk);
    H5Pset_obj_track_times(pl, 0);
    H5Pset_alloc_time(pl, H5D_ALLOC_TIME_EARLY);
    H5Pset_fill_time(pl, H5D_FILL_TIME_NEVER);
    hid_t ds = H5Dcreate2(loc, name, file_type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    H5Pclose(pl);
    H5Sclose(sp);
    return ds;
}

int cs_h5_dims(hid_t loc, const char *file, const char *name, int rank, hsize_t *dims,
               cs_error *err) {
    if (H5Lexists(loc, name, H5P_DEFAULT) <= 0)
        return cs_error_input(err, file, "dataset", name, "missing");
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t sp = H5Dget_space(ds);
    int r = H5Sget_simple_extent_ndims(sp);
    int rc = 0;
    if (r != rank)
        rc = cs_error_input(err, file, "dataset", name, "has rank %d, expected %d", r, rank);
    else
        H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    H5Dclose(ds);
    return rc;
}

int cs_h5_read(hid_t loc, const char *file, const char *name, hid_t mem_type, void *data,
               cs_error *err) {
    if (H5Lexists(loc, name, H5P_DEFAULT) <= 0)
        return cs_error_input(err, file, "dataset", name, "missing");
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    herr_t r = H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds);
    if (r < 0) return cs_error_input(err, file, "dataset", name, "cannot be read");
    return 0;
}
