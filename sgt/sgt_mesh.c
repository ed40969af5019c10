#include "sgt_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_hdf5.h"
#include "cs_log.h"
#include "cs_version.h"
#include "sgt_effective.h"

void sgt_mesh_stats_init(sgt_mesh_stats *st) {
    memset(st, 0, sizeof *st);
    st->vs_min_seen = INFINITY;
}

/* Ties go to the lowest node (i, then j, then k), so that the node reported, and a material
 * file's attributes, do not depend on the order threads finish in. */
static int lower_node(const int a[3], const int b[3]) {
    return a[0] != b[0] ? a[0] < b[0] : a[1] != b[1] ? a[1] < b[1] : a[2] < b[2];
}

static void take_vp_max(sgt_mesh_stats *st, double vp, const int at[3]) {
    if (vp > st->vp_max || (vp == st->vp_max && lower_node(at, st->vp_max_at))) {
        st->vp_max = vp;
        memcpy(st->vp_max_at, at, sizeof st->vp_max_at);
    }
}

static void take_vs_min(sgt_mesh_stats *st, double vs, const int at[3]) {
    if (vs < st->vs_min_seen || (vs == st->vs_min_seen && lower_node(at, st->vs_min_at))) {
        st->vs_min_seen = vs;
        memcpy(st->vs_min_at, at, sizeof st->vs_min_at);
    }
}

void sgt_mesh_stats_extremes(sgt_mesh_stats *into, const sgt_mesh_stats *from) {
    take_vp_max(into, from->vp_max, from->vp_max_at);
    take_vs_min(into, from->vs_min_seen, from->vs_min_at);
    if (from->vs_max > into->vs_max) into->vs_max = from->vs_max;
}

void sgt_mesh_stats_merge(sgt_mesh_stats *into, const sgt_mesh_stats *from) {
    into->nodes += from->nodes;
    into->clamped_vs += from->clamped_vs;
    into->clamped_vp += from->clamped_vp;
    into->clamped_rho += from->clamped_rho;
    into->q_from_vs += from->q_from_vs;
    sgt_mesh_stats_extremes(into, from);
}

/* The model's extremes, for the stability and resolution checks: those of every sample the
 * mesh takes (with the node it belongs to), not of the effective media, whose vs at a node cut
 * by an interface can lie below both sides' and is no wave speed of the model. */
static void extremes(sgt_mesh_stats *st, const sgt_material *m, int gi, int gj, int k) {
    const int at[3] = {gi, gj, k};
    take_vp_max(st, m->vp, at);
    take_vs_min(st, m->vs, at);
    if (m->vs > st->vs_max) st->vs_max = m->vs;
}

int sgt_mesh_node(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                  sgt_material *out, sgt_mesh_stats *st, cs_error *err) {
    return sgt_mesh_point(m, r, r->x0 + gi * r->h, r->y0 + gj * r->h, k * r->h, gi, gj, k, out, st,
                          err);
}

int sgt_mesh_point(const sgt_model *m, const sgt_mesh_rules *r, double x, double y, double z,
                   int gi, int gj, int k, sgt_material *out, sgt_mesh_stats *st, cs_error *err) {
    sgt_material a;
    CS_CALL(err, sgt_model_query(m, x, y, z, gi, gj, k, &a, err));
    if (a.vs < r->vs_min) {
        a.vs = r->vs_min;
        if (st) st->clamped_vs++;
    }
    double vp_floor = fmax(r->vp_min, r->vpvs_min * a.vs);
    if (a.vp < vp_floor) {
        a.vp = vp_floor;
        if (st) st->clamped_vp++;
    }
    if (a.rho < r->rho_min) {
        a.rho = r->rho_min;
        if (st) st->clamped_rho++;
    }
    if (st) extremes(st, &a, gi, gj, k);
    int derive = r->q_source == SGT_QSRC_VS || isnan(a.qs) || isnan(a.qp);
    if (r->q_source == SGT_QSRC_MODEL && (isnan(a.qs) || isnan(a.qp)))
        return cs_error_input(err, m->name, "q_source", "model",
                              "the model has no Q; use "
                              "q_source = auto or vs");
    if (derive) {
        a.qs = 50.0 * a.vs / 1000.0;
        a.qp = 2.0 * a.qs;
        if (st) st->q_from_vs++;
    }
    *out = a;
    return 0;
}

static void put(sgt_state *s, long p, const sgt_material *a, double mu_xy) {
    s->muxy[p] = (float)mu_xy;
    s->lam[p] = (float)a->vp;
    s->mu[p] = (float)a->vs;
    s->rho[p] = (float)a->rho;
    if (s->visco) {
        s->qpw[p] = (float)a->qp;
        s->qsw[p] = (float)a->qs;
    }
}

/* Unrelaxed-modulus factors of the last Q seen (models repeat their values). */
typedef struct {
    double q, f;
} q_cache;

static double unrelaxed(const sgt_state *s, double qs, q_cache *qc) {
    if (!s->visco) return 1.0;
    if (qs != qc->q) qc->q = qs, qc->f = sgt_q_unrelaxed_factor(&s->q, qs);
    return qc->f;
}

/* The vertical staggered position's buoyancy and unrelaxed compliance (sgt_state's bz, cz) from
 * its effective density, shear modulus at the reference frequency and Qs. */
static void below_values(const sgt_state *s, double rho, double mu, double qs, q_cache *qc,
                         float *bz, float *cz) {
    *bz = (float)(1.0 / rho);
    *cz = mu > 0 ? (float)(1.0 / (mu * unrelaxed(s, qs, qc))) : INFINITY;
}

static void below_of(const sgt_state *s, const sgt_material *a, q_cache *qc, float *bz, float *cz) {
    /* through float, as a material file stores them, so both paths give the same bits */
    below_values(s, (float)a->rho, (float)(a->rho * a->vs * a->vs), (float)a->qs, qc, bz, cz);
}

/* The one column of a model that depends on depth alone, ghost nodes included: its materials,
 * horizontal values and staggered positions below; the grid's nodes counted in one. */
static int depth_column(const sgt_state *s, const sgt_model *m, const sgt_mesh_rules *r,
                        sgt_material *col, float *colz, double *colxy, sgt_mesh_stats *one,
                        cs_error *err) {
    const sgt_layout *L = &s->L;
    q_cache qc = {-1, 1};
    for (int k = -L->gz; k < L->nz + L->gz; k++) {
        int ck = k < 0 ? 0 : k >= L->nz ? L->nz - 1 : k;
        int ckz = k < 0 ? 0 : k >= L->nz - 1 ? L->nz - 2 : k;
        sgt_material az;
        CS_CALL(err, sgt_mesh_cell(m, r, L->i0, L->j0, ck, &col[k + L->gz], &colxy[2 * (k + L->gz)],
                                   &colxy[2 * (k + L->gz) + 1], ck == k ? one : NULL, err));
        CS_CALL(err, sgt_mesh_cell_below(m, r, L->i0, L->j0, ckz, &az, err));
        if (ck == k) one->nodes++;
        below_of(s, &az, &qc, &colz[2 * (k + L->gz)], &colz[2 * (k + L->gz) + 1]);
    }
    return 0;
}

int sgt_mesh_fill_state(sgt_state *s, const sgt_model *m, const sgt_mesh_rules *rules,
                        sgt_mesh_stats *st, cs_error *err) {
    const sgt_layout *L = &s->L;
    sgt_mesh_stats_init(st);
    char note[sizeof st->sampling];
    sgt_mesh_rules chosen = *rules;
    sgt_mesh_choose_sampling(m, &chosen, L->nz, note, sizeof note);
    const sgt_mesh_rules *r = &chosen;
    memcpy(st->sampling, note, sizeof note);
    const int nk = L->nz + 2 * L->gz;
    /* Ghost nodes take the material of the nearest grid node (clamped global index); only nodes
     * of the grid owned here are counted. The vertical staggered positions below the last node
     * (in the absorbing layer) repeat the one above them. */
    if (m->kind == SGT_MODEL_HOMOGENEOUS || m->kind == SGT_MODEL_LAYERED ||
        m->kind == SGT_MODEL_LINEAR) {
        /* The model depends on depth alone: one column, copied to every column. */
        sgt_material *col = malloc((size_t)nk * sizeof *col);
        float *colz = malloc((size_t)nk * 2 * sizeof *colz);
        double *colxy = malloc((size_t)nk * 2 * sizeof *colxy); /* mu_xy, c11x */
        if (!col || !colz || !colxy) {
            free(col);
            free(colz);
            free(colxy);
            return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        }
        sgt_mesh_stats one;
        sgt_mesh_stats_init(&one);
        int rc = depth_column(s, m, r, col, colz, colxy, &one, err);
        if (rc) {
            CS_TRACE(err);
            free(col);
            free(colz);
            free(colxy);
            return rc;
        }
#pragma omp parallel for collapse(2) schedule(static)
        for (int i = -L->halo; i < L->lnx + L->halo; i++)
            for (int j = -L->halo; j < L->lny + L->halo; j++)
                for (int k = -L->gz; k < L->nz + L->gz; k++) {
                    long p = sgt_idx(L, i, j, k);
                    put(s, p, &col[k + L->gz], colxy[2 * (k + L->gz)]);
                    s->bz[p] = colz[2 * (k + L->gz)];
                    s->cz[p] = colz[2 * (k + L->gz) + 1];
                }
        for (int k = 0; k < nk; k++)
            s->ti[k] = (float)colxy[2 * k + 1];
        free(col);
        free(colz);
        free(colxy);
        long ncol = (long)L->lnx * L->lny;
        *st = one;
        memcpy(st->sampling, note, sizeof note);
        st->nodes *= ncol, st->clamped_vs *= ncol, st->clamped_vp *= ncol;
        st->clamped_rho *= ncol, st->q_from_vs *= ncol;
        return sgt_mesh_to_moduli(s, err);
    }
    int rc = 0;
#pragma omp parallel
    {
        sgt_mesh_stats mine;
        sgt_mesh_stats_init(&mine);
        q_cache qc = {-1, 1};
        cs_error e2;
        cs_error_clear(&e2);
        int bad = 0;
#pragma omp for schedule(dynamic, 1)
        for (int i = -L->halo; i < L->lnx + L->halo; i++) {
            for (int j = -L->halo; j < L->lny + L->halo && !bad; j++)
                for (int k = -L->gz; k < L->nz + L->gz && !bad; k++) {
                    int gi = i + L->i0, gj = j + L->j0;
                    int ci = gi < 0 ? 0 : gi >= L->nx ? L->nx - 1 : gi;
                    int cj = gj < 0 ? 0 : gj >= L->ny ? L->ny - 1 : gj;
                    int ck = k < 0 ? 0 : k >= L->nz ? L->nz - 1 : k;
                    int ckz = k < 0 ? 0 : k >= L->nz - 1 ? L->nz - 2 : k;
                    int inside = ci == gi && cj == gj && ck == k && i >= 0 && i < L->lnx &&
                                 j >= 0 && j < L->lny;
                    sgt_material a = {0}, az = {0};
                    double mxy = 0;
                    /* a 3D model's cells keep the isotropic pair (sgt_state's ti) */
                    if (sgt_mesh_cell(m, r, ci, cj, ck, &a, &mxy, NULL, inside ? &mine : NULL,
                                      &e2) ||
                        sgt_mesh_cell_below(m, r, ci, cj, ckz, &az, &e2)) {
                        bad = 1;
                        break;
                    }
                    if (inside) mine.nodes++;
                    long p = sgt_idx(L, i, j, k);
                    put(s, p, &a, mxy);
                    below_of(s, &az, &qc, &s->bz[p], &s->cz[p]);
                }
        }
#pragma omp critical
        {
            sgt_mesh_stats_merge(st, &mine);
            if (bad && !rc) {
                rc = e2.status;
                *err = e2;
            }
        }
    }
    if (rc) return rc;
    CS_CALL(err, sgt_mesh_to_moduli(s, err));
    return 0;
}

int sgt_mesh_to_moduli(sgt_state *s, cs_error *err) {
    const sgt_layout *L = &s->L;
    /* The save points keep their material at the reference frequency (the extractor needs mu
     * there for the moment), before the moduli become unrelaxed. */
    if (s->npoints && !s->pt_mat) {
        s->pt_mat = malloc((size_t)s->npoints * 3 * sizeof(float));
        if (!s->pt_mat) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    /* the finite source's rigidity, at the same frequency, so M0 = mu A slip as the extractor
     * computes it from an SGT's material */
    if (s->nmsrc && !s->msrc_mu) {
        s->msrc_mu = calloc((size_t)s->nmsrc, sizeof(double));
        if (!s->msrc_mu) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    for (long q = 0; q < s->nmsrc; q++) {
        int li, lj;
        const int *g = s->msrc_node + 3 * q;
        if (!sgt_local(s, g[0], g[1], &li, &lj)) continue;
        long p = sgt_idx(L, li, lj, g[2]);
        s->msrc_mu[q] = (double)s->rho[p] * s->mu[p] * s->mu[p];
    }
    for (long q = 0; q < s->npoints; q++) {
        int li, lj;
        if (!sgt_local(s, s->pts[3 * q], s->pts[3 * q + 1], &li, &lj)) continue;
        long p = sgt_idx(L, li, lj, s->pts[3 * q + 2]);
        double vp = s->lam[p], vs = s->mu[p], rho = s->rho[p];
        s->pt_mat[3 * q] = (float)(rho * (vp * vp - 2 * vs * vs));
        s->pt_mat[3 * q + 1] = (float)(rho * vs * vs);
        s->pt_mat[3 * q + 2] = (float)rho;
    }
    int bad = 0;
    long bad_at[3] = {0, 0, 0};
    double bad_q = 0;
#pragma omp parallel
    {
        double cache_q[2] = {-1, -1}, cache_f[2] = {1, 1}, cache_y[2][SGT_Q_NMECH];
#pragma omp for collapse(2) schedule(static)
        for (int i = -L->halo; i < L->lnx + L->halo; i++)
            for (int j = -L->halo; j < L->lny + L->halo; j++)
                for (int k = -L->gz; k < L->nz + L->gz; k++) {
                    long p = sgt_idx(L, i, j, k);
                    double vp = s->lam[p], vs = s->mu[p], rho = s->rho[p];
                    double fp = 1, fs = 1;
                    if (s->visco) {
                        double qp = s->qpw[p], qs = s->qsw[p];
                        if (!(qp >= SGT_Q_MIN) || !(qs >= SGT_Q_MIN)) {
#pragma omp critical
                            {
                                bad = 1;
                                bad_at[0] = i + L->i0, bad_at[1] = j + L->j0, bad_at[2] = k;
                                bad_q = qp < qs ? qp : qs;
                            }
                            continue;
                        }
                        /* Models repeat Q values (layers, Q from a floored Vs): keep the last two.
                         */
                        if (qp != cache_q[0]) {
                            cache_q[0] = qp;
                            cache_f[0] = sgt_q_unrelaxed_factor(&s->q, qp);
                            sgt_q_weights(&s->q, qp, cache_y[0]);
                        }
                        if (qs != cache_q[1]) {
                            cache_q[1] = qs;
                            cache_f[1] = sgt_q_unrelaxed_factor(&s->q, qs);
                            sgt_q_weights(&s->q, qs, cache_y[1]);
                        }
                        fp = cache_f[0];
                        fs = cache_f[1];
                        int mech = sgt_q_mechanism(i + L->i0, j + L->j0, k);
                        s->qpw[p] = (float)(SGT_Q_NMECH * cache_y[0][mech]);
                        s->qsw[p] = (float)(SGT_Q_NMECH * cache_y[1][mech]);
                    }
                    double mu = rho * vs * vs * fs;
                    double pm = rho * vp * vp * fp;
                    s->muxy[p] = (float)(s->muxy[p] * fs);
                    if (i == -L->halo && j == -L->halo) /* ti is one column's (1D models) */
                        s->ti[k + L->gz] = (float)(s->ti[k + L->gz] * fp);
                    s->mu[p] = (float)mu;
                    s->lam[p] = (float)(pm - 2 * mu);
                }
    }
    if (bad)
        return cs_error_input(err, "attenuation", "Q", NULL,
                              "%.3g at node (%ld, %ld, %ld) is below %g, the smallest Q the "
                              "memory variables represent; raise Q (or Vs, when Q comes from Vs)",
                              bad_q, bad_at[0], bad_at[1], bad_at[2], SGT_Q_MIN);
    return 0;
}

int sgt_mesh_sampling_parse(const char *name) {
    return !strcmp(name, "point")         ? SGT_SAMPLE_POINT
           : !strcmp(name, "bandlimited") ? SGT_SAMPLE_BANDLIMITED
           : !strcmp(name, "auto")        ? SGT_SAMPLE_AUTO
                                          : SGT_SAMPLE_EFFECTIVE;
}

const char *sgt_mesh_sampling_name(const sgt_mesh_rules *r) {
    if (r->sampling == SGT_SAMPLE_POINT) return "point: the model at each node";
    if (r->sampling == SGT_SAMPLE_BANDLIMITED)
        return "bandlimited: the effective averages of 1D models (layered cells included) taken "
               "with a windowed sinc of the grid's Nyquist wavenumber over +-5 cells (Mittet "
               "2017); 3D models as effective";
    return "effective: each node's cell averaged (rho arithmetic; lambda + 2 mu, mu harmonic; "
           "1D models' cells layered, Backus; 1/Q compliance-weighted), 1D models integrated "
           "exactly, 3D models sampled n x n x n (material_subsamples)";
}

/* The nodes' material for the normal stresses (sgt_effective.h), then that of the vertical
 * staggered positions below each node (between nodes k and k + 1; sgt_state's bz and cz):
 * density, shear modulus at the reference frequency and Qs; then the nodes' mean shear modulus
 * for the xy points (sgt_state's muxy). */
#define MESH_DATASETS 9
static const char *names[MESH_DATASETS] = {"vp",    "vs",   "rho",  "qp",   "qs",
                                           "rho_z", "mu_z", "qs_z", "mu_xy"};
/* one value per depth (sgt_state's ti), [nz] */
#define MESH_C11_DATASET "c11_excess"
/* 2: the vertical staggered positions' datasets; files of version 1 lack them. 3: the layered
 * cells' c11_excess. */
#define MESH_FORMAT_VERSION 3

/* The material file's values of node (i, j, k) (sgt_mesh_cell, sgt_mesh_cell_below): dataset
 * a's at out[a * stride + q]; the layered cell's excess in *c11x (may be NULL). */
static int node_values(const sgt_model *m, const sgt_mesh_rules *r, int i, int j, int k, int nz,
                       float *out, size_t stride, size_t q, double *c11x, sgt_mesh_stats *st,
                       cs_error *err) {
    sgt_material a = {0}, az = {0};
    double mxy = 0;
    CS_CALL(err, sgt_mesh_cell(m, r, i, j, k, &a, &mxy, c11x, st, err));
    CS_CALL(err, sgt_mesh_cell_below(m, r, i, j, k < nz - 1 ? k : nz - 2, &az, err));
    st->nodes++;
    const float v[MESH_DATASETS] = {(float)a.vp,
                                    (float)a.vs,
                                    (float)a.rho,
                                    (float)a.qp,
                                    (float)a.qs,
                                    (float)az.rho,
                                    (float)(az.rho * az.vs * az.vs),
                                    (float)az.qs,
                                    (float)mxy};
    for (int d = 0; d < MESH_DATASETS; d++)
        out[d * stride + q] = v[d];
    return 0;
}

int sgt_mesh_write(const char *path, const sgt_model *m, const sgt_mesh_rules *rules, int nx,
                   int ny, int nz, char sha[65], sgt_mesh_stats *st, cs_error *err) {
    char tmp[4200], note[sizeof st->sampling];
    sgt_mesh_rules chosen = *rules;
    sgt_mesh_choose_sampling(m, &chosen, nz, note, sizeof note);
    const sgt_mesh_rules *r = &chosen;
    int rc = 0;
    CS_CALL(err, cs_atomic_reserve(path, tmp, sizeof tmp, err));
    cs_h5_quiet();
    hid_t f = cs_h5_create(tmp);
    if (f < 0) {
        remove(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: cannot create HDF5 file", tmp);
    }
    hsize_t dims[3] = {(hsize_t)nx, (hsize_t)ny, (hsize_t)nz};
    hsize_t chunk[3] = {1, (hsize_t)ny, (hsize_t)nz};
    hid_t ds[MESH_DATASETS];
    for (int a = 0; a < MESH_DATASETS; a++) {
        hid_t sp = H5Screate_simple(3, dims, NULL);
        hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(pl, 3, chunk);
        H5Pset_obj_track_times(pl, 0);
        ds[a] = H5Dcreate2(f, names[a], H5T_IEEE_F32LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
        H5Pclose(pl);
        H5Sclose(sp);
    }
    size_t plane = (size_t)ny * nz;
    float *buf = malloc(plane * MESH_DATASETS * sizeof(float));
    float *c11 = calloc((size_t)nz, sizeof(float));
    if (!buf || !c11) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    sgt_mesh_stats_init(st);
    /* A 1D model's columns are all the same: one is sampled (the band-limited kernel takes
     * hundreds of samples a node) and repeated. */
    const int one_column = m->kind == SGT_MODEL_HOMOGENEOUS || m->kind == SGT_MODEL_LAYERED ||
                           m->kind == SGT_MODEL_LINEAR;
    float *col = NULL;
    if (!rc && one_column) {
        col = malloc((size_t)nz * MESH_DATASETS * sizeof(float));
        if (!col) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        for (int k = 0; k < nz && !rc; k++) {
            double c11x = 0;
            rc = node_values(m, r, 0, 0, k, nz, col, (size_t)nz, (size_t)k, &c11x, st, err);
            c11[k] = (float)c11x;
        }
        const long ncol = (long)nx * ny;
        st->nodes = ncol * nz, st->clamped_vs *= ncol, st->clamped_vp *= ncol;
        st->clamped_rho *= ncol, st->q_from_vs *= ncol;
    }
    memcpy(st->sampling, note, sizeof note);
    for (int i = 0; i < nx && !rc; i++) {
        if (col) {
            for (int j = 0; j < ny; j++)
                for (int a = 0; a < MESH_DATASETS; a++)
                    memcpy(buf + a * plane + (size_t)j * nz, col + (size_t)a * nz,
                           (size_t)nz * sizeof(float));
        } else {
            /* a plane's columns in parallel: a 3D model's effective media take 2 n^3 samples
             * per node */
#pragma omp parallel
            {
                sgt_mesh_stats mine;
                sgt_mesh_stats_init(&mine);
                cs_error e2;
                cs_error_clear(&e2);
                int bad = 0;
#pragma omp for schedule(dynamic, 4)
                for (int j = 0; j < ny; j++)
                    for (int k = 0; k < nz && !bad; k++)
                        bad = node_values(m, r, i, j, k, nz, buf, plane, (size_t)j * nz + k, NULL,
                                          &mine, &e2);
#pragma omp critical
                {
                    sgt_mesh_stats_merge(st, &mine);
                    if (bad && !rc) {
                        rc = e2.status;
                        *err = e2;
                    }
                }
            }
        }
        hsize_t start[3] = {(hsize_t)i, 0, 0}, count[3] = {1, (hsize_t)ny, (hsize_t)nz};
        for (int a = 0; a < MESH_DATASETS && !rc; a++) {
            hid_t fs = H5Dget_space(ds[a]);
            H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
            hid_t ms = H5Screate_simple(3, count, NULL);
            if (H5Dwrite(ds[a], H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, buf + a * plane) < 0)
                rc = cs_error_set(err, CS_ERR_IO, "%s: cannot write %s", tmp, names[a]);
            H5Sclose(ms);
            H5Sclose(fs);
        }
    }
    free(buf);
    free(col);
    for (int a = 0; a < MESH_DATASETS; a++)
        H5Dclose(ds[a]);
    const hsize_t nzd = (hsize_t)nz;
    if (!rc &&
        cs_h5_write(f, MESH_C11_DATASET, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 1, &nzd, NULL, c11))
        rc = cs_error_set(err, CS_ERR_IO, "%s: cannot write %s", tmp, MESH_C11_DATASET);
    free(c11);
    if (!rc) {
        int grid[3] = {nx, ny, nz};
        double geo[3] = {r->h, r->x0, r->y0};
        double floors[4] = {r->vs_min, r->vp_min, r->rho_min, r->vpvs_min};
        double vpx[4] = {st->vp_max, st->vp_max_at[0], st->vp_max_at[1], st->vp_max_at[2]};
        double vsn[5] = {st->vs_min_seen, st->vs_min_at[0], st->vs_min_at[1], st->vs_min_at[2],
                         st->vs_max};
        if (cs_h5_attr_string(f, "format", "cybershake-material") ||
            cs_h5_attr_int(f, "format_version", (int[]){MESH_FORMAT_VERSION}, 1) ||
            cs_h5_attr_int(f, "grid", grid, 3) || cs_h5_attr_double(f, "h_x0_y0", geo, 3) ||
            cs_h5_attr_double(f, "floors_vsmin_vpmin_rhomin_vpvsmin", floors, 4) ||
            cs_h5_attr_double(f, "model_vp_max_i_j_k", vpx, 4) ||
            cs_h5_attr_double(f, "model_vs_min_i_j_k_vs_max", vsn, 5) ||
            cs_h5_attr_string(f, "model", m->name) ||
            cs_h5_attr_string(f, "material_sampling", sgt_mesh_sampling_name(r)) ||
            cs_h5_attr_string(f, "units",
                              "vp, vs: m/s; rho, rho_z: kg/m^3; mu_z, mu_xy, c11_excess: Pa; qp, "
                              "qs, qs_z: dimensionless") ||
            cs_h5_attr_string(f, "layout",
                              "[x][y][z], z down from the free surface; rho_z, mu_z, qs_z at "
                              "[i][j][k] are those between nodes k and k + 1") ||
            cs_h5_attr_string(f, "code_version", CS_VERSION))
            rc = cs_error_set(err, CS_ERR_IO, "%s: cannot write attributes", tmp);
    }
    H5Fclose(f);
    if (rc) goto fail;
    CS_CALL_GOTO(rc, err, cs_atomic_publish(tmp, path, sha, err), fail);
    return 0;
fail:
    remove(tmp);
    return rc;
}

int sgt_mesh_load_state(sgt_state *s, const char *path, char sha[65], sgt_mesh_stats *st,
                        cs_error *err) {
    const sgt_layout *L = &s->L;
    sgt_mesh_stats_init(st);
    if (sha) {
        int rc = cs_sha256_file(path, sha, err);
        if (rc && err->status != CS_ERR_RESOURCE) return rc;
        if (rc) sha[0] = '\0'; /* no SHA-256 in this build */
    }
    cs_h5_quiet();
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return cs_error_input(err, path, NULL, NULL, "cannot open as HDF5 material file");
    int grid[3], version = 0;
    int rc = cs_h5_read_attr_int(f, path, "grid", grid, 3, err);
    if (!rc && (cs_h5_read_attr_int(f, path, "format_version", &version, 1, err) ||
                version != MESH_FORMAT_VERSION))
        rc = cs_error_input(err, path, "format_version", NULL,
                            "is %d, but this version reads material files of version %d (with "
                            "the vertical staggered positions' material and the layered cells' "
                            "c11_excess); remake it with cybershake mesh",
                            version, MESH_FORMAT_VERSION);
    if (!rc && (grid[0] != L->nx || grid[1] != L->ny || grid[2] != L->nz))
        rc = cs_error_input(err, path, "grid", NULL,
                            "is %d x %d x %d but the run's grid is %d x %d x %d; remake the mesh",
                            grid[0], grid[1], grid[2], L->nx, L->ny, L->nz);
    /* Read the local subdomain plus its halo, clipped to the grid. */
    int ia = L->i0 - L->halo, ib = L->i0 + L->lnx + L->halo;
    int ja = L->j0 - L->halo, jb = L->j0 + L->lny + L->halo;
    if (ia < 0) ia = 0;
    if (ja < 0) ja = 0;
    if (ib > L->nx) ib = L->nx;
    if (jb > L->ny) jb = L->ny;
    size_t cnt = (size_t)(ib - ia) * (jb - ja) * L->nz;
    float *buf = rc ? NULL : malloc(cnt * sizeof(float));
    if (!rc && !buf) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    /* rho_z and mu_z wait in bz and cz until qs_z (read last) turns them into a buoyancy and an
     * unrelaxed compliance; an elastic run needs no qs_z. */
    float *dest[MESH_DATASETS] = {s->lam, s->mu, s->rho, s->qpw, s->qsw,
                                  s->bz,  s->cz, NULL,   s->muxy};
    q_cache qc = {-1, 1};
    for (int a = 0; a < MESH_DATASETS && !rc; a++) {
        if (!dest[a] && !(a == 7 && s->visco)) continue;
        hid_t ds = H5Dopen2(f, names[a], H5P_DEFAULT);
        if (ds < 0) {
            rc = cs_error_input(err, path, "dataset", names[a], "missing");
            break;
        }
        hid_t fs = H5Dget_space(ds);
        hsize_t start[3] = {(hsize_t)ia, (hsize_t)ja, 0};
        hsize_t count[3] = {(hsize_t)(ib - ia), (hsize_t)(jb - ja), (hsize_t)L->nz};
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        hid_t ms = H5Screate_simple(3, count, NULL);
        if (H5Dread(ds, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, buf) < 0)
            rc = cs_error_input(err, path, "dataset", names[a], "cannot be read");
        H5Sclose(ms);
        H5Sclose(fs);
        H5Dclose(ds);
        for (int i = -L->halo; i < L->lnx + L->halo && !rc; i++)
            for (int j = -L->halo; j < L->lny + L->halo; j++)
                for (int k = -L->gz; k < L->nz + L->gz; k++) {
                    int gi = i + L->i0, gj = j + L->j0;
                    int ci = gi < ia ? ia : gi >= ib ? ib - 1 : gi;
                    int cj = gj < ja ? ja : gj >= jb ? jb - 1 : gj;
                    int ck = k < 0 ? 0 : k >= L->nz ? L->nz - 1 : k;
                    if (a >= 5 && a <= 7) ck = k < 0 ? 0 : k >= L->nz - 1 ? L->nz - 2 : k;
                    float v = buf[((size_t)(ci - ia) * (jb - ja) + (cj - ja)) * L->nz + ck];
                    int ok = a == 1 || a == 6 || a == 8 ? v >= 0 : v > 0;
                    if (!ok || !isfinite(v)) {
                        rc = cs_error_input(err, path, names[a], NULL,
                                            "node (%d, %d, %d) holds %g; material values must be "
                                            "positive (vs, mu_z, mu_xy not negative)",
                                            ci, cj, ck, v);
                        break;
                    }
                    long p = sgt_idx(L, i, j, k);
                    if (a == 7) { /* qs_z, after rho_z and mu_z */
                        below_values(s, s->bz[p], s->cz[p], v, &qc, &s->bz[p], &s->cz[p]);
                        continue;
                    }
                    dest[a][p] = v;
                }
    }
    if (!rc && !s->visco) /* no qs_z to wait for */
        for (long p = 0; p < L->ncell; p++)
            below_values(s, s->bz[p], s->cz[p], 1, &qc, &s->bz[p], &s->cz[p]);
    hsize_t nzd = 0;
    if (!rc) rc = cs_h5_dims(f, path, MESH_C11_DATASET, 1, &nzd, err);
    if (!rc && nzd != (hsize_t)L->nz)
        rc = cs_error_input(err, path, MESH_C11_DATASET, NULL,
                            "holds %llu depths but the grid has %d; remake the mesh",
                            (unsigned long long)nzd, L->nz);
    if (!rc) rc = cs_h5_read(f, path, MESH_C11_DATASET, H5T_NATIVE_FLOAT, buf, err);
    for (int k = 0; k < L->nz && !rc; k++)
        if (!isfinite(buf[k]))
            rc = cs_error_input(err, path, MESH_C11_DATASET, NULL,
                                "depth %d holds %g; it must be finite", k, buf[k]);
    if (!rc)
        for (int k = -L->gz; k < L->nz + L->gz; k++)
            s->ti[k + L->gz] = buf[k < 0 ? 0 : k >= L->nz ? L->nz - 1 : k];
    free(buf);
    /* the model's extremes over the whole grid, as the mesh found them */
    double vpx[4], vsn[5];
    if (!rc && (cs_h5_read_attr_double(f, path, "model_vp_max_i_j_k", vpx, 4, err) ||
                cs_h5_read_attr_double(f, path, "model_vs_min_i_j_k_vs_max", vsn, 5, err)))
        rc = err->status;
    /* the nodes of those extremes are grid indices: anything else would not fit an int */
    const int size[3] = {L->nx, L->ny, L->nz};
    for (int a = 0; a < 3 && !rc; a++)
        if (!(vpx[a + 1] >= 0 && vpx[a + 1] < size[a] && vsn[a + 1] >= 0 && vsn[a + 1] < size[a]))
            rc = cs_error_input(err, path, "model_vp_max_i_j_k, model_vs_min_i_j_k_vs_max", NULL,
                                "the extremes' nodes (%g, %g) must lie in the grid's 0 to %d "
                                "along axis %d; remake the mesh",
                                vpx[a + 1], vsn[a + 1], size[a] - 1, a);
    H5Fclose(f);
    if (rc) return rc;
    st->nodes = (long)L->lnx * L->lny * L->nz;
    st->vp_max = vpx[0], st->vs_min_seen = vsn[0], st->vs_max = vsn[4];
    for (int a = 0; a < 3; a++)
        st->vp_max_at[a] = (int)vpx[a + 1], st->vs_min_at[a] = (int)vsn[a + 1];
    return sgt_mesh_to_moduli(s, err);
}
