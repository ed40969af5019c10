#include "seis_file.h"

#include <errno.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "cs_hdf5.h"

void seis_parts_dir(const char *final_path, char *dir, size_t size) {
    snprintf(dir, size, "%s.parts", final_path);
}

static int write_attrs(hid_t f, const seis_meta *m) {
    int bad = 0;
    double ll[2] = {m->site_lon, m->site_lat}, zero = 0;
    int run = (int)m->run_id;
    bad |= cs_h5_attr_double(f, "dt", &m->dt, 1);
    bad |= cs_h5_attr_int(f, "nt", &m->nt, 1);
    bad |= cs_h5_attr_double(f, "start_time", &zero, 1);
    bad |=
        cs_h5_attr_string(f, "components", m->vertical ? SEIS_COMPONENTS_ENZ : SEIS_COMPONENTS_EN);
    bad |=
        cs_h5_attr_string(f, "units", "velocity: m/s; dt, start_time: s (0 = rupture origin time)");
    bad |= cs_h5_attr_double(f, "site_lon_lat", ll, 2);
    bad |= cs_h5_attr_int(f, "run_id", &run, 1);
    if (m->site[0]) bad |= cs_h5_attr_string(f, "site", m->site);
    if (m->fmax > 0) bad |= cs_h5_attr_double(f, "fmax", &m->fmax, 1);
    return bad;
}

/* Writes a whole file (index and records) to path atomically. */
static int write_file(const char *path, const int64_t *index, long n, const seis_meta *m,
                      const float *seis, char sha[CS_SHA256_HEX], cs_error *err) {
    char tmp[4200];
    CS_CALL(err, cs_atomic_reserve(path, tmp, sizeof tmp, err));
    hid_t f = cs_h5_create(tmp);
    if (f < 0) {
        unlink(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: cannot create an HDF5 file", tmp);
    }
    hsize_t di[2] = {(hsize_t)n, 3}, dv[3] = {(hsize_t)n, 3, (hsize_t)m->nt};
    hsize_t cv[3] = {1, 3, (hsize_t)m->nt};
    int bad = write_attrs(f, m);
    bad |= cs_h5_write(f, "index", H5T_STD_I64LE, H5T_NATIVE_INT64, 2, di, NULL, index);
    bad |= cs_h5_write(f, "velocity", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 3, dv, n ? cv : NULL, seis);
    bad |= H5Fclose(f) < 0;
    if (bad) {
        unlink(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: writing the seismograms failed", path);
    }
    return cs_atomic_publish(tmp, path, sha, err);
}

int seis_write_part(const char *dir, long long source, long long rupture, int nvar,
                    const seis_meta *m, const float *seis, cs_error *err) {
    if (mkdir(dir, 0777) && errno != EEXIST) return cs_error_errno(err, dir, "create the folder");
    char path[4300];
    snprintf(path, sizeof path, "%s/%lld_%lld.h5", dir, source, rupture);
    int64_t *index = malloc(sizeof(int64_t) * 3 * (size_t)(nvar ? nvar : 1));
    if (!index) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (int v = 0; v < nvar; v++) {
        index[3 * v] = source;
        index[3 * v + 1] = rupture;
        index[3 * v + 2] = v;
    }
    int rc = write_file(path, index, nvar, m, seis, NULL, err);
    free(index);
    return rc;
}

static int read_part(const char *path, int nt, int64_t **index, float **seis, long *n,
                     cs_error *err) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return cs_error_input(err, path, NULL, NULL, "missing or unreadable part file");
    hsize_t d[3];
    int rc;
    CS_CALL_GOTO(rc, err, cs_h5_dims(f, path, "velocity", 3, d, err), done);
    if ((int)d[2] != nt) {
        rc = cs_error_input(err, path, "dataset", "velocity", "has %llu samples, expected %d",
                            (unsigned long long)d[2], nt);
        goto done;
    }
    *n = (long)d[0];
    *index = malloc(sizeof(int64_t) * 3 * (size_t)(*n ? *n : 1));
    *seis = malloc(sizeof(float) * 3 * (size_t)nt * (size_t)(*n ? *n : 1));
    if (!*index || !*seis) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory reading %s", path);
        goto done;
    }
    CS_CALL_GOTO(rc, err, cs_h5_read(f, path, "index", H5T_NATIVE_INT64, *index, err), done);
    CS_CALL_GOTO(rc, err, cs_h5_read(f, path, "velocity", H5T_NATIVE_FLOAT, *seis, err), done);
done:
    H5Fclose(f);
    return rc;
}

/* Records in a part file, from its shape. */
static int part_count(const char *path, int nt, long *n, cs_error *err) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return cs_error_input(err, path, NULL, NULL, "missing or unreadable part file");
    hsize_t d[3];
    int rc = cs_h5_dims(f, path, "velocity", 3, d, err);
    if (!rc && (int)d[2] != nt)
        rc = cs_error_input(err, path, "dataset", "velocity", "has %llu samples, expected %d",
                            (unsigned long long)d[2], nt);
    H5Fclose(f);
    *n = rc ? 0 : (long)d[0];
    return rc;
}

/* Writes rows [at, at + n) of a dataset whose rows are `row` values long. */
static int put_rows(hid_t ds, hid_t mtype, long at, long n, int rank, const void *data) {
    if (n == 0) return 0;
    hid_t fs = H5Dget_space(ds);
    hsize_t dims[3];
    H5Sget_simple_extent_dims(fs, dims, NULL);
    hsize_t start[3] = {(hsize_t)at, 0, 0},
            count[3] = {(hsize_t)n, dims[1], rank == 3 ? dims[2] : 1};
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    hid_t ms = H5Screate_simple(rank, count, NULL);
    herr_t r = H5Dwrite(ds, mtype, ms, fs, H5P_DEFAULT, data);
    H5Sclose(ms);
    H5Sclose(fs);
    return r < 0;
}

/* The run's file from its parts, one part in memory at a time: the records are counted first,
 * the file is laid out for all of them, then each part's rows are copied into place. */
int seis_merge(const char *final_path, const seis_rupture *rups, long nrups, const seis_meta *m,
               char sha[CS_SHA256_HEX], long *nrecords, cs_error *err) {
    char dir[4200], path[4400];
    seis_parts_dir(final_path, dir, sizeof dir);
    cs_h5_quiet();
    long total = 0;
    for (long i = 0; i < nrups; i++) {
        long n;
        snprintf(path, sizeof path, "%s/%lld_%lld.h5", dir, rups[i].source, rups[i].rupture);
        CS_CALL(err, part_count(path, m->nt, &n, err));
        total += n;
    }
    char tmp[4200];
    CS_CALL(err, cs_atomic_reserve(final_path, tmp, sizeof tmp, err));
    hid_t f = cs_h5_create(tmp);
    if (f < 0) {
        unlink(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: cannot create an HDF5 file", tmp);
    }
    hsize_t di[2] = {(hsize_t)total, 3}, dv[3] = {(hsize_t)total, 3, (hsize_t)m->nt};
    hsize_t cv[3] = {1, 3, (hsize_t)m->nt};
    int bad = write_attrs(f, m);
    hid_t dsi = cs_h5_dataset(f, "index", H5T_STD_I64LE, 2, di, NULL);
    hid_t dsv = cs_h5_dataset(f, "velocity", H5T_IEEE_F32LE, 3, dv, total ? cv : NULL);
    bad |= dsi < 0 || dsv < 0;
    int rc = 0;
    long at = 0;
    for (long i = 0; i < nrups && !rc && !bad; i++) {
        snprintf(path, sizeof path, "%s/%lld_%lld.h5", dir, rups[i].source, rups[i].rupture);
        int64_t *pi = NULL;
        float *ps = NULL;
        long n = 0;
        rc = read_part(path, m->nt, &pi, &ps, &n, err);
        if (!rc && at + n > total)
            rc = cs_error_input(err, path, "dataset", "velocity", "grew while it was merged");
        if (!rc) {
            bad |= put_rows(dsi, H5T_NATIVE_INT64, at, n, 2, pi);
            bad |= put_rows(dsv, H5T_NATIVE_FLOAT, at, n, 3, ps);
            at += n;
        }
        free(pi);
        free(ps);
    }
    if (dsi >= 0) H5Dclose(dsi);
    if (dsv >= 0) H5Dclose(dsv);
    bad |= H5Fclose(f) < 0;
    if (!rc && bad)
        rc = cs_error_set(err, CS_ERR_IO, "%s: writing the seismograms failed", final_path);
    if (rc) goto failed;
    CS_CALL_GOTO(rc, err, cs_atomic_publish(tmp, final_path, sha, err), failed);
    *nrecords = total;
    return 0;
failed:
    unlink(tmp);
    return rc;
}

void seis_remove_parts(const char *final_path, const seis_rupture *rups, long nrups) {
    char dir[4096], path[4300];
    seis_parts_dir(final_path, dir, sizeof dir);
    for (long i = 0; i < nrups; i++) {
        snprintf(path, sizeof path, "%s/%lld_%lld.h5", dir, rups[i].source, rups[i].rupture);
        unlink(path);
    }
    rmdir(dir);
}

int seis_read_record(const char *path, long long source, long long rupture, long long variation,
                     float **vel, seis_meta *m, cs_error *err) {
    cs_h5_quiet();
    struct stat st;
    if (stat(path, &st) != 0) {
        /* The run is under way (or stopped and not yet resumed): its finished ruptures are in
         * the part files. */
        char dir[4200], part[4400];
        seis_parts_dir(path, dir, sizeof dir);
        snprintf(part, sizeof part, "%s/%lld_%lld.h5", dir, source, rupture);
        if (stat(part, &st) == 0)
            return seis_read_record(part, source, rupture, variation, vel, m, err);
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return cs_error_input(err, path, NULL, NULL, "cannot be opened as an HDF5 file");
    hsize_t d[3], di[2];
    int64_t *index = NULL;
    int rc;
    CS_CALL_GOTO(rc, err, cs_h5_read_attr_double(f, path, "dt", &m->dt, 1, err), done);
    CS_CALL_GOTO(rc, err, cs_h5_read_attr_int(f, path, "nt", &m->nt, 1, err), done);
    CS_CALL_GOTO(rc, err, cs_h5_dims(f, path, "velocity", 3, d, err), done);
    CS_CALL_GOTO(rc, err, cs_h5_dims(f, path, "index", 2, di, err), done);
    /* the site's place, name, band and components, where the file keeps them */
    double ll[2] = {0, 0};
    int run = 0;
    if (!cs_h5_read_attr_double(f, path, "site_lon_lat", ll, 2, err) &&
        !cs_h5_read_attr_int(f, path, "run_id", &run, 1, err)) {
        m->site_lon = ll[0];
        m->site_lat = ll[1];
        m->run_id = run;
    }
    m->site[0] = 0;
    if (H5Aexists(f, "site") > 0)
        CS_CALL_GOTO(rc, err, cs_h5_read_attr_string(f, path, "site", m->site, sizeof m->site, err),
                     done);
    m->fmax = 0;
    if (H5Aexists(f, "fmax") > 0)
        CS_CALL_GOTO(rc, err, cs_h5_read_attr_double(f, path, "fmax", &m->fmax, 1, err), done);
    char comps[64] = "";
    m->vertical = 1;
    if (!cs_h5_read_attr_string(f, path, "components", comps, sizeof comps, err))
        m->vertical = strcmp(comps, SEIS_COMPONENTS_EN) != 0;
    index = malloc(sizeof(int64_t) * 3 * (size_t)(di[0] ? di[0] : 1));
    if (!index) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    CS_CALL_GOTO(rc, err, cs_h5_read(f, path, "index", H5T_NATIVE_INT64, index, err), done);
    /* the index is sorted: binary search */
    long row = -1, lo = 0, hi = (long)di[0] - 1;
    int64_t key[3] = {source, rupture, variation};
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        int c = 0;
        for (int q = 0; q < 3 && !c; q++)
            c = (index[3 * mid + q] > key[q]) - (index[3 * mid + q] < key[q]);
        if (!c) {
            row = mid;
            break;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    if (row < 0) {
        rc = cs_error_input(err, path, "record", NULL,
                            "no record of source %lld rupture %lld variation %lld", source, rupture,
                            variation);
        goto done;
    }
    *vel = malloc(sizeof(float) * 3 * (size_t)m->nt);
    if (!*vel) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    hid_t ds = H5Dopen2(f, "velocity", H5P_DEFAULT);
    hid_t fs = H5Dget_space(ds);
    hsize_t start[3] = {(hsize_t)row, 0, 0}, count[3] = {1, 3, (hsize_t)m->nt};
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    hsize_t mn = 3 * (hsize_t)m->nt;
    hid_t ms = H5Screate_simple(1, &mn, NULL);
    if (H5Dread(ds, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, *vel) < 0)
        rc = cs_error_input(err, path, "dataset", "velocity", "cannot be read");
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(ds);
    if (rc) {
        free(*vel);
        *vel = NULL;
    }
done:
    free(index);
    H5Fclose(f);
    return rc;
}
