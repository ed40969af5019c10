#include "sgt_model.h"

#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_lines.h"
#include "cs_strutil.h"

static int bad_material(const char *place, const sgt_material *m, cs_error *err) {
    char v[160];
    snprintf(v, sizeof v, "vp %.6g, vs %.6g, rho %.6g", m->vp, m->vs, m->rho);
    if (!(m->vp > 0) || !(m->rho > 0) || !(m->vs >= 0))
        return cs_error_input(err, place, "material", v,
                              "vp and rho must be positive and vs not negative");
    /* the solver's own ranges (sgt_config.c): anything beyond is a typo or a unit slip, and
     * would reach the mesh as inf */
    if (!(m->vp <= 2e4) || !(m->vs <= 2e4) || !(m->rho <= 2e4))
        return cs_error_input(err, place, "material", v,
                              "vp and vs must be at most 20,000 m/s and rho 20,000 kg/m^3 (the "
                              "units: m/s and kg/m^3, or km/s and g/cm^3 where the format says)");
    if (!isnan(m->qp) && !(m->qp > 0))
        return cs_error_input(err, place, "qp", NULL, "must be positive");
    if (!isnan(m->qs) && !(m->qs > 0))
        return cs_error_input(err, place, "qs", NULL, "must be positive");
    return 0;
}

int sgt_model_homogeneous(sgt_model *m, double vp, double vs, double rho, double qp, double qs,
                          cs_error *err) {
    memset(m, 0, sizeof *m);
    m->kind = SGT_MODEL_HOMOGENEOUS;
    m->homogeneous = (sgt_material){vp, vs, rho, qp, qs};
    snprintf(m->name, sizeof m->name, "homogeneous vp=%g vs=%g rho=%g qp=%g qs=%g", vp, vs, rho, qp,
             qs);
    return bad_material("homogeneous model", &m->homogeneous, err);
}

/* 0, or -1 when the layers cannot grow (the callers report it as out of memory). */
static int push_layer(sgt_model *m, int *cap, double top, sgt_material mat) {
    if (m->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        double *nt = realloc(m->top, (size_t)*cap * sizeof *nt);
        if (!nt) return -1;
        m->top = nt;
        sgt_material *nl = realloc(m->layer, (size_t)*cap * sizeof *nl);
        if (!nl) return -1;
        m->layer = nl;
    }
    m->top[m->n] = top;
    m->layer[m->n] = mat;
    m->n++;
    return 0;
}

int sgt_model_read_fk1d(sgt_model *m, const char *path, cs_error *err) {
    memset(m, 0, sizeof *m);
    m->kind = SGT_MODEL_LAYERED;
    snprintf(m->name, sizeof m->name, "fk1d %s", path);
    cs_lines r;
    CS_CALL(err, cs_lines_open(&r, path, "velocity model", err));
    int nlayers = -1, lcap = 0, rc = 0;
    double depth = 0;
    char *line;
    while (!rc && (line = cs_lines_next(&r))) {
        double v[8];
        int n = cs_parse_numbers(line, v, 7);
        if (nlayers < 0) {
            if (n != 1 || v[0] < 1 || v[0] != floor(v[0]) || v[0] > 10000)
                rc = cs_error_input(err, r.place, "layer count", r.copy,
                                    "the first line of an fk1d model is the number of layers");
            else
                nlayers = (int)v[0];
            continue;
        }
        if (n != 6) {
            rc = cs_error_input(err, r.place, NULL, r.copy,
                                "expected 6 numbers: thickness(km) vp(km/s) vs(km/s) "
                                "rho(g/cm3) qp qs");
        } else if (m->n == nlayers) {
            rc = cs_error_input(err, r.place, NULL, r.copy, "more layers than the %d announced",
                                nlayers);
        } else {
            sgt_material mat = {v[1] * 1e3, v[2] * 1e3, v[3] * 1e3, v[4], v[5]};
            if (!(rc = bad_material(r.place, &mat, err))) {
                if (!(v[0] > 0) && m->n < nlayers - 1)
                    rc = cs_error_input(err, r.place, "thickness", r.copy, "must be positive (km)");
                else if (push_layer(m, &lcap, depth, mat))
                    rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                depth += v[0] * 1e3;
            }
        }
    }
    cs_lines_close(&r);
    if (!rc && nlayers < 0) rc = cs_error_input(err, path, NULL, NULL, "empty velocity model");
    if (!rc && m->n != nlayers)
        rc = cs_error_input(err, path, NULL, NULL, "announces %d layers but holds %d", nlayers,
                            m->n);
    if (rc) sgt_model_free(m);
    return rc;
}

/* The header of a depth table: columns named with their units. Returns the column count and
 * each column's factor to SI. */
static int depth_table_header(char *line, const cs_lines *r, double scale[6], cs_error *err) {
    static const char *names[6] = {"depth", "vp", "vs", "rho", "qp", "qs"};
    int ncols = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        if (ncols == 6)
            return -cs_error_input(err, r->place, "header", r->copy, "at most 6 columns");
        char *br = strchr(tok, '[');
        size_t nl = br ? (size_t)(br - tok) : strlen(tok);
        if (strlen(names[ncols]) != nl || strncmp(tok, names[ncols], nl))
            return -cs_error_input(err, r->place, "header", r->copy,
                                   "columns must be depth[unit] vp[unit] vs[unit] rho[unit] and "
                                   "optionally qp qs, in that order");
        char u[32];
        snprintf(u, sizeof u, "%s", br ? br + 1 : "");
        char *close = strchr(u, ']');
        if (close) *close = '\0';
        double f = 0;
        if (ncols == 0)
            f = !strcmp(u, "km") ? 1e3 : !strcmp(u, "m") ? 1.0 : 0;
        else if (ncols <= 2)
            f = !strcmp(u, "km/s") ? 1e3 : !strcmp(u, "m/s") ? 1.0 : 0;
        else if (ncols == 3)
            f = !strcmp(u, "g/cm3") ? 1e3 : !strcmp(u, "kg/m3") ? 1.0 : 0;
        else
            f = 1.0;
        if (f == 0)
            return -cs_error_input(err, r->place, names[ncols], u,
                                   "unknown unit in the header (depth: m or km; speeds: m/s or "
                                   "km/s; density: kg/m3 or g/cm3)");
        scale[ncols++] = f;
    }
    if (ncols != 4 && ncols != 6)
        return -cs_error_input(err, r->place, "header", r->copy,
                               "needs 4 columns (depth vp vs rho) or 6 (with qp qs)");
    return ncols;
}

/* Depth table: a header line naming the columns with their units, e.g.
 *   depth[km] vp[km/s] vs[km/s] rho[g/cm3] qp qs
 * then one line per layer top. qp and qs are optional columns. */
int sgt_model_read_depth_table(sgt_model *m, const char *path, cs_error *err) {
    memset(m, 0, sizeof *m);
    m->kind = SGT_MODEL_LAYERED;
    snprintf(m->name, sizeof m->name, "depth-table %s", path);
    cs_lines r;
    CS_CALL(err, cs_lines_open(&r, path, "velocity model", err));
    int lcap = 0, rc = 0, ncols = 0;
    double scale[6] = {0};
    char *line;
    while (!rc && (line = cs_lines_next(&r))) {
        if (ncols == 0) {
            ncols = depth_table_header(line, &r, scale, err);
            if (ncols < 0) rc = -ncols;
            continue;
        }
        double v[7];
        if (cs_parse_numbers(line, v, 6) != ncols) {
            rc = cs_error_input(err, r.place, NULL, r.copy,
                                "expected %d numbers as the header says", ncols);
            break;
        }
        sgt_material mat = {v[1] * scale[1], v[2] * scale[2], v[3] * scale[3],
                            ncols == 6 ? v[4] : NAN, ncols == 6 ? v[5] : NAN};
        double top = v[0] * scale[0];
        if ((rc = bad_material(r.place, &mat, err))) break;
        if (m->n == 0 && top != 0)
            rc = cs_error_input(err, r.place, "depth", r.copy,
                                "the first layer must start at depth 0");
        else if (m->n > 0 && !(top > m->top[m->n - 1]))
            rc = cs_error_input(err, r.place, "depth", r.copy,
                                "layer tops must increase with depth");
        else if (push_layer(m, &lcap, top, mat))
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    cs_lines_close(&r);
    if (!rc && m->n == 0) rc = cs_error_input(err, path, NULL, NULL, "no layers");
    if (rc) sgt_model_free(m);
    return rc;
}

/* UCVM's 1D model: depth (km) and Vp (km/s) pairs, linear in between; density and Vs from Vp by
 * the rules written in the file's header (Brocher-like, as UCVM defines them). */
static sgt_material ucvm1d_material(double vp) {
    double rho = 1865.0 + 0.1579 * vp;
    double nu = rho < 2060.0 ? 0.40 : rho > 2500.0 ? 0.25 : 0.40 - 0.15 * (rho - 2060.0) / 440.0;
    double vs = vp * sqrt((0.5 - nu) / (1.0 - nu));
    return (sgt_material){vp, vs, rho, NAN, NAN};
}

int sgt_model_read_ucvm1d(sgt_model *m, const char *path, cs_error *err) {
    memset(m, 0, sizeof *m);
    m->kind = SGT_MODEL_LINEAR;
    snprintf(m->name, sizeof m->name, "ucvm1d %s", path);
    cs_lines r;
    CS_CALL(err, cs_lines_open(&r, path, "velocity model", err));
    int lcap = 0, rc = 0;
    char *line;
    while (!rc && (line = cs_lines_next(&r))) {
        double v[3];
        if (cs_parse_numbers(line, v, 2) != 2)
            rc = cs_error_input(err, r.place, NULL, r.copy, "expected: depth_km vp_km_s");
        else if (m->n > 0 && !(v[0] * 1e3 > m->top[m->n - 1]))
            rc = cs_error_input(err, r.place, "depth", r.copy, "depths must increase");
        else if (!(v[1] > 0) || !(v[1] <= 20))
            rc = cs_error_input(err, r.place, "vp", r.copy, "must be positive and at most 20 km/s");
        else if (push_layer(m, &lcap, v[0] * 1e3, ucvm1d_material(v[1] * 1e3)))
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    cs_lines_close(&r);
    if (!rc && m->n == 0) rc = cs_error_input(err, path, NULL, NULL, "no depth/vp rows");
    if (rc) sgt_model_free(m);
    return rc;
}

static int read_dataset(hid_t file, const char *path, const char *name, float **out, int *dims,
                        int required, cs_error *err) {
    *out = NULL;
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0) {
        if (required)
            return cs_error_input(err, path, "dataset", name, "missing from the 3D model");
        return 0;
    }
    hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t sp = H5Dget_space(ds);
    hsize_t d[3];
    int nd = H5Sget_simple_extent_ndims(sp);
    int rc = 0;
    if (nd != 3) {
        rc = cs_error_input(err, path, "dataset", name, "must be 3D [nz][ny][nx]");
    } else {
        H5Sget_simple_extent_dims(sp, d, NULL);
        /* the shape is kept in ints, and its count in bytes must not wrap */
        if (d[0] > INT_MAX || d[1] > INT_MAX || d[2] > INT_MAX ||
            (d[0] && d[1] && d[2] && d[0] * d[1] > SIZE_MAX / sizeof(float) / d[2])) {
            char v[96];
            snprintf(v, sizeof v, "%llu x %llu x %llu", (unsigned long long)d[0],
                     (unsigned long long)d[1], (unsigned long long)d[2]);
            rc = cs_error_input(err, path, name, v, "too many points for a 3D model");
        } else if (dims[0] == 0) {
            dims[0] = (int)d[0];
            dims[1] = (int)d[1];
            dims[2] = (int)d[2];
        } else if ((int)d[0] != dims[0] || (int)d[1] != dims[1] || (int)d[2] != dims[2]) {
            rc = cs_error_input(err, path, "dataset", name, "shape differs from vp's");
        }
        if (!rc) {
            size_t n = (size_t)d[0] * d[1] * d[2];
            *out = malloc(n * sizeof(float));
            if (!*out)
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %s", name);
            else if (H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) < 0)
                rc = cs_error_input(err, path, "dataset", name, "cannot be read as float");
            if (!rc)
                for (size_t i = 0; i < n; i++)
                    if (!isfinite((*out)[i])) {
                        rc = cs_error_input(err, path, "dataset", name,
                                            "holds a NaN or infinite value at flat index %zu", i);
                        break;
                    }
        }
    }
    H5Sclose(sp);
    H5Dclose(ds);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

static int read_attr(hid_t file, const char *path, const char *name, double *v, cs_error *err) {
    if (H5Aexists(file, name) <= 0)
        return cs_error_input(err, path, "attribute", name, "missing from the 3D model");
    hid_t a = H5Aopen(file, name, H5P_DEFAULT);
    /* one number: H5Aread writes every element of the attribute into v */
    hid_t sp = H5Aget_space(a), t = H5Aget_type(a);
    H5T_class_t cls = H5Tget_class(t);
    herr_t r = H5Sget_simple_extent_npoints(sp) == 1 && (cls == H5T_FLOAT || cls == H5T_INTEGER)
                   ? H5Aread(a, H5T_NATIVE_DOUBLE, v)
                   : -1;
    H5Tclose(t);
    H5Sclose(sp);
    H5Aclose(a);
    if (r < 0) return cs_error_input(err, path, "attribute", name, "must be one number");
    return 0;
}

int sgt_model_read_hdf5(sgt_model *m, const char *path, cs_error *err) {
    memset(m, 0, sizeof *m);
    m->kind = SGT_MODEL_GRID3D;
    snprintf(m->name, sizeof m->name, "hdf5 %s", path);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return cs_error_input(err, path, NULL, NULL, "cannot open as HDF5");
    int dims[3] = {0, 0, 0};
    int rc;
    CS_CALL_GOTO(rc, err, read_dataset(f, path, "vp", &m->gvp, dims, 1, err), close);
    CS_CALL_GOTO(rc, err, read_dataset(f, path, "vs", &m->gvs, dims, 1, err), close);
    CS_CALL_GOTO(rc, err, read_dataset(f, path, "rho", &m->grho, dims, 1, err), close);
    CS_CALL_GOTO(rc, err, read_dataset(f, path, "qp", &m->gqp, dims, 0, err), close);
    CS_CALL_GOTO(rc, err, read_dataset(f, path, "qs", &m->gqs, dims, 0, err), close);
    if ((!m->gqp) != (!m->gqs)) {
        rc = cs_error_input(err, path, "dataset", "qp/qs", "give both or neither");
        goto close;
    }
    const char *an[6] = {"x0", "y0", "z0", "dx", "dy", "dz"};
    double *av[6] = {&m->gx0, &m->gy0, &m->gz0, &m->gdx, &m->gdy, &m->gdz};
    for (int i = 0; i < 6; i++)
        CS_CALL_GOTO(rc, err, read_attr(f, path, an[i], av[i], err), close);
close:
    H5Fclose(f);
    if (!rc) {
        m->gnz = dims[0];
        m->gny = dims[1];
        m->gnx = dims[2];
        if (!(m->gdx > 0 && m->gdy > 0 && m->gdz > 0))
            rc = cs_error_input(err, path, "attribute", "dx/dy/dz", "spacings must be positive");
        for (int i = 0; i < 6 && !rc; i++)
            if (!isfinite(*av[i]))
                rc = cs_error_input(err, path, "attribute", an[i], "must be a finite number");
        if (!rc && (m->gnx < 2 || m->gny < 2 || m->gnz < 2))
            rc = cs_error_input(err, path, "dataset", "vp", "needs at least 2 points per axis");
        /* the ranges every other model format keeps: a finite float can still be 1e30 m/s */
        size_t n = (size_t)m->gnx * m->gny * m->gnz;
        for (size_t q = 0; q < n && !rc; q++) {
            sgt_material mat = {m->gvp[q], m->gvs[q], m->grho[q], m->gqp ? m->gqp[q] : NAN,
                                m->gqs ? m->gqs[q] : NAN};
            cs_error probe; /* the node's place is written only for a bad node */
            if (!bad_material(path, &mat, &probe)) continue;
            char place[4200];
            snprintf(place, sizeof place, "%s: node %zu (x %zu, y %zu, z %zu)", path, q,
                     q % (size_t)m->gnx, (q / (size_t)m->gnx) % (size_t)m->gny,
                     q / ((size_t)m->gnx * m->gny));
            rc = bad_material(place, &mat, err);
        }
    }
    if (rc) sgt_model_free(m);
    return rc;
}

int sgt_model_read_awp(sgt_model *m, const char *path, int nx, int ny, int nz, cs_error *err) {
    memset(m, 0, sizeof *m);
    m->kind = SGT_MODEL_AWP;
    snprintf(m->name, sizeof m->name, "awp %s", path);
    FILE *f = fopen(path, "rb");
    if (!f) return cs_error_errno(err, path, "open AWP mesh");
    size_t n = (size_t)nx * ny * nz;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    if (size < 0 || (size_t)size != n * 3 * sizeof(float)) {
        fclose(f);
        return cs_error_input(err, path, "size", NULL,
                              "%ld bytes, but an AWP mesh for %d x %d x %d nodes holds %zu "
                              "(three float32 per node: vp, vs, rho)",
                              size, nx, ny, nz, n * 3 * sizeof(float));
    }
    float *raw = malloc(n * 3 * sizeof(float));
    m->gvp = malloc(n * sizeof(float));
    m->gvs = malloc(n * sizeof(float));
    m->grho = malloc(n * sizeof(float));
    if (!raw || !m->gvp || !m->gvs || !m->grho) {
        free(raw);
        fclose(f);
        sgt_model_free(m);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory reading %s", path);
    }
    size_t got = fread(raw, sizeof(float), n * 3, f);
    fclose(f);
    int rc = 0;
    if (got != n * 3) rc = cs_error_errno(err, path, "read AWP mesh");
    for (size_t p = 0; p < n && !rc; p++) {
        m->gvp[p] = raw[3 * p];
        m->gvs[p] = raw[3 * p + 1];
        m->grho[p] = raw[3 * p + 2];
        sgt_material mat = {raw[3 * p], raw[3 * p + 1], raw[3 * p + 2], NAN, NAN};
        char place[4200];
        snprintf(place, sizeof place, "%s: node %zu (x %zu, y %zu, z %zu)", path, p, p % (size_t)nx,
                 (p / (size_t)nx) % (size_t)ny, p / ((size_t)nx * ny));
        rc = bad_material(place, &mat, err);
    }
    free(raw);
    m->gnx = nx;
    m->gny = ny;
    m->gnz = nz;
    if (rc) sgt_model_free(m);
    return rc;
}

int sgt_model_read(sgt_model *m, const char *format, const char *path, int nx, int ny, int nz,
                   cs_error *err) {
    if (!strcmp(format, "fk1d")) return sgt_model_read_fk1d(m, path, err);
    if (!strcmp(format, "depth-table")) return sgt_model_read_depth_table(m, path, err);
    if (!strcmp(format, "ucvm1d")) return sgt_model_read_ucvm1d(m, path, err);
    if (!strcmp(format, "hdf5")) return sgt_model_read_hdf5(m, path, err);
    if (!strcmp(format, "awp")) return sgt_model_read_awp(m, path, nx, ny, nz, err);
    return cs_error_input(err, "model_format", NULL, format,
                          "must be one of homogeneous, fk1d, depth-table, ucvm1d, hdf5, awp");
}

void sgt_model_free(sgt_model *m) {
    free(m->top);
    free(m->layer);
    free(m->gvp);
    free(m->gvs);
    free(m->grho);
    free(m->gqp);
    free(m->gqs);
    memset(m, 0, sizeof *m);
}

static double lerp(double a, double b, double t) {
    return a + (b - a) * t;
}

int sgt_model_query(const sgt_model *m, double x, double y, double z, int i, int j, int k,
                    sgt_material *out, cs_error *err) {
    switch (m->kind) {
    case SGT_MODEL_HOMOGENEOUS:
        *out = m->homogeneous;
        return 0;
    case SGT_MODEL_LAYERED: {
        /* The layer whose top is at or above z: a node on an interface takes the layer below. */
        int l = 0;
        while (l + 1 < m->n && m->top[l + 1] <= z)
            l++;
        *out = m->layer[l];
        return 0;
    }
    case SGT_MODEL_LINEAR: {
        if (z <= m->top[0]) {
            *out = m->layer[0];
            return 0;
        }
        int l = 0;
        while (l + 1 < m->n && m->top[l + 1] <= z)
            l++;
        if (l + 1 == m->n) {
            *out = m->layer[l];
            return 0;
        }
        double t = (z - m->top[l]) / (m->top[l + 1] - m->top[l]);
        *out = ucvm1d_material(lerp(m->layer[l].vp, m->layer[l + 1].vp, t));
        return 0;
    }
    case SGT_MODEL_AWP: {
        if (i < 0 || j < 0 || k < 0 || i >= m->gnx || j >= m->gny || k >= m->gnz)
            return cs_error_input(err, m->name, "node", NULL,
                                  "(%d, %d, %d) lies outside the AWP mesh of %d x %d x %d", i, j, k,
                                  m->gnx, m->gny, m->gnz);
        size_t p = ((size_t)k * m->gny + j) * m->gnx + i;
        *out = (sgt_material){m->gvp[p], m->gvs[p], m->grho[p], NAN, NAN};
        return 0;
    }
    case SGT_MODEL_GRID3D: {
        double fx = (x - m->gx0) / m->gdx, fy = (y - m->gy0) / m->gdy, fz = (z - m->gz0) / m->gdz;
        const double eps = 1e-6;
        if (fx < -eps || fy < -eps || fz < -eps || fx > m->gnx - 1 + eps || fy > m->gny - 1 + eps ||
            fz > m->gnz - 1 + eps) {
            char v[128];
            snprintf(v, sizeof v, "%.1f, %.1f, %.1f", x, y, z);
            return cs_error_input(err, m->name, "point x, y, z (m)", v,
                                  "lies outside the 3D model ([%.1f, %.1f] x [%.1f, %.1f] x "
                                  "[%.1f, %.1f]); extend the model or shrink the box",
                                  m->gx0, m->gx0 + (m->gnx - 1) * m->gdx, m->gy0,
                                  m->gy0 + (m->gny - 1) * m->gdy, m->gz0,
                                  m->gz0 + (m->gnz - 1) * m->gdz);
        }
        int i0 = (int)floor(fx), j0 = (int)floor(fy), k0 = (int)floor(fz);
        if (i0 > m->gnx - 2) i0 = m->gnx - 2;
        if (j0 > m->gny - 2) j0 = m->gny - 2;
        if (k0 > m->gnz - 2) k0 = m->gnz - 2;
        if (i0 < 0) i0 = 0;
        if (j0 < 0) j0 = 0;
        if (k0 < 0) k0 = 0;
        double tx = fx - i0, ty = fy - j0, tz = fz - k0;
        const float *arr[5] = {m->gvp, m->gvs, m->grho, m->gqp, m->gqs};
        double val[5] = {NAN, NAN, NAN, NAN, NAN};
        for (int a = 0; a < 5; a++) {
            if (!arr[a]) continue;
            double s = 0;
            for (int c = 0; c < 8; c++) {
                int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
                double w = (di ? tx : 1 - tx) * (dj ? ty : 1 - ty) * (dk ? tz : 1 - tz);
                size_t p = ((size_t)(k0 + dk) * m->gny + (j0 + dj)) * m->gnx + (i0 + di);
                s += w * arr[a][p];
            }
            val[a] = s;
        }
        *out = (sgt_material){val[0], val[1], val[2], val[3], val[4]};
        return 0;
    }
    }
    return cs_error_set(err, CS_ERR_INTERNAL, "unknown model kind");
}

static int write_3d(hid_t f, const char *name, int nx, int ny, int nz, const float *data) {
    hsize_t d[3] = {(hsize_t)nz, (hsize_t)ny, (hsize_t)nx};
    hid_t sp = H5Screate_simple(3, d, NULL);
    hid_t ds = H5Dcreate2(f, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t r = H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds);
    H5Sclose(sp);
    return r < 0 ? -1 : 0;
}

int sgt_model_write_hdf5(const char *path, int nx, int ny, int nz, double x0, double y0, double z0,
                         double dx, double dy, double dz, const float *vp, const float *vs,
                         const float *rho, const float *qp, const float *qs, cs_error *err) {
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) return cs_error_set(err, CS_ERR_IO, "%s: cannot create HDF5 file", path);
    int bad = write_3d(f, "vp", nx, ny, nz, vp) || write_3d(f, "vs", nx, ny, nz, vs) ||
              write_3d(f, "rho", nx, ny, nz, rho);
    if (qp && qs)
        bad = bad || write_3d(f, "qp", nx, ny, nz, qp) || write_3d(f, "qs", nx, ny, nz, qs);
    const char *an[6] = {"x0", "y0", "z0", "dx", "dy", "dz"};
    double av[6] = {x0, y0, z0, dx, dy, dz};
    hid_t sp = H5Screate(H5S_SCALAR);
    for (int i = 0; i < 6; i++) {
        hid_t a = H5Acreate2(f, an[i], H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        if (H5Awrite(a, H5T_NATIVE_DOUBLE, &av[i]) < 0) bad = 1;
        H5Aclose(a);
    }
    H5Sclose(sp);
    H5Fclose(f);
    if (bad) return cs_error_set(err, CS_ERR_IO, "%s: cannot write 3D model", path);
    return 0;
}
