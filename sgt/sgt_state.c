#include "sgt_state.h"

#include <stdlib.h>
#include <string.h>

#include "sgt_stencil.h"

static float *zalloc(long n) {
    /* 64-byte alignment for vector loads; calloc-like zeroing. */
    void *p = NULL;
    size_t bytes = (size_t)n * sizeof(float);
    bytes = (bytes + 63) & ~(size_t)63;
    if (posix_memalign(&p, 64, bytes ? bytes : 64)) return NULL;
    memset(p, 0, bytes);
    return p;
}

int sgt_state_row_floats(const sgt_state *s) {
    /* The contiguous axis is padded so rows start aligned: to 8 floats (32 bytes, one vector)
     * on the CPU; to 32 floats (128 bytes, one cache line) on the GPU, whose kernels place each
     * warp on a whole line: measured on an H200, +30% for both updates against rows padded to 8
     * (docs/performance.md). */
    const int pad = s->device_fields ? 32 : 8;
    return (s->L.nz + 2 * s->L.gz + pad - 1) / pad * pad;
}

int sgt_state_alloc(sgt_state *s, cs_error *err) {
    sgt_layout *L = &s->L;
    L->sy = sgt_state_row_floats(s);
    L->sx = (long)(L->lny + 2 * L->halo) * L->sy;
    L->ncell = (long)(L->lnx + 2 * L->halo) * L->sx;
    float **all[32];
    int n = 0;
    /* The wavefield starts at zero: a GPU run creates it on the device, not here. */
    for (int c = 0; c < 3 && !s->device_fields; c++)
        all[n++] = &s->v[c];
    for (int c = 0; c < 6 && !s->device_fields; c++)
        all[n++] = &s->s[c];
    all[n++] = &s->rho;
    all[n++] = &s->lam;
    all[n++] = &s->mu;
    all[n++] = &s->bz;
    all[n++] = &s->cz;
    all[n++] = &s->muxy;
    if (s->visco) {
        for (int c = 0; c < 6 && !s->device_fields; c++)
            all[n++] = &s->r[c];
        all[n++] = &s->qpw;
        all[n++] = &s->qsw;
    }
    for (int a = 0; a < n; a++) {
        *all[a] = zalloc(L->ncell);
        if (!*all[a]) {
            sgt_state_free(s);
            return cs_error_set(err, CS_ERR_RESOURCE,
                                "out of memory allocating the wavefield (%ld cells per array, %d "
                                "arrays, %.2f GB); use a smaller grid or more ranks",
                                L->ncell, n, (double)L->ncell * 4 * n / 1e9);
        }
    }
    s->ti = zalloc(L->nz + 2 * L->gz);
    if (!s->ti) {
        sgt_state_free(s);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    return 0;
}

void sgt_state_free(sgt_state *s) {
    for (int c = 0; c < 3; c++)
        free(s->v[c]);
    for (int c = 0; c < 6; c++) {
        free(s->s[c]);
        free(s->r[c]);
    }
    free(s->rho);
    free(s->lam);
    free(s->mu);
    free(s->bz);
    free(s->cz);
    free(s->muxy);
    free(s->ti);
    free(s->qpw);
    free(s->qsw);
    for (int a = 0; a < 3; a++) {
        free(s->mus[a]);
        s->mus[a] = NULL;
        free(s->damp[a]);
        free(s->pml.a_node[a]);
        free(s->pml.b_node[a]);
        free(s->pml.a_half[a]);
        free(s->pml.b_half[a]);
    }
    for (int k = 0; k < s->pml.nslabs; k++)
        for (int c = 0; c < 6; c++)
            free(s->pml.slab[k].psi[c]);
    free(s->stf);
    free(s->pts);
    free(s->pt_row);
    free(s->pt_mat);
    free(s->msrc_mu);
    s->msrc_mu = NULL;
    free(s->out);
    free(s->out_spare);
    free(s->rec);
    free(s->rec_row);
    free(s->rec_prev);
    free(s->rec_out);
    void *keep = s->backend;
    memset(s->v, 0, sizeof s->v);
    memset(s->s, 0, sizeof s->s);
    memset(s->r, 0, sizeof s->r);
    s->rho = s->lam = s->mu = s->qpw = s->qsw = s->bz = s->cz = s->muxy = s->ti = NULL;
    memset(s->damp, 0, sizeof s->damp);
    memset(&s->pml, 0, sizeof s->pml);
    s->stf = NULL;
    s->pts = NULL;
    s->pt_row = NULL;
    s->pt_mat = NULL;
    s->out = s->out_spare = NULL;
    s->rec = NULL;
    s->rec_row = NULL;
    s->rec_prev = s->rec_out = NULL;
    s->backend = keep;
}

double sgt_state_bytes(const sgt_state *s) {
    const sgt_layout *L = &s->L;
    double cells =
        (double)(L->lnx + 2 * L->halo) * (L->lny + 2 * L->halo) * sgt_state_row_floats(s);
    double arrays = s->device_fields ? 6 + (s->visco ? 2 : 0) : 18 + (s->visco ? 8 : 0);
    double b = cells * 4 * arrays;
    if (s->absorb == SGT_ABSORB_PML) {
        double w = s->absorb_width;
        b += 4.0 * 6 * 2 * w *
             ((double)L->lny * L->nz + (double)L->lnx * L->nz + (double)L->lnx * L->lny);
    }
    /* two strain windows: the one being filled and the one being written */
    b += (double)s->npoints * (6 * 8 + 2 * 6 * 4.0 * s->out_window + 12);
    b += (double)s->nrec * 3 * 4.0 * (s->nt + 2);
    return b;
}

void sgt_layout_set_regions(sgt_layout *L) {
    L->own = (sgt_region){0, L->lnx, 0, L->lny};
    L->stress = L->own;
    if (L->nbr[0][0]) L->stress.ib -= SGT_OVERLAP;
    if (L->nbr[0][1]) L->stress.ie += SGT_OVERLAP;
    if (L->nbr[1][0]) L->stress.jb -= SGT_OVERLAP;
    if (L->nbr[1][1]) L->stress.je += SGT_OVERLAP;
}

int sgt_state_shear_moduli(sgt_state *s, cs_error *err) {
    const sgt_layout *L = &s->L;
    for (int c = 0; c < 3; c++) {
        if (!s->mus[c]) s->mus[c] = zalloc(L->ncell);
        if (!s->mus[c]) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (shear moduli)");
    }
    /* The last cell of each axis has no neighbour beyond it; it only feeds ghost updates. */
    for (long p = 0; p + L->sx + L->sy < L->ncell; p++) {
        float m0 = s->muxy[p], m1 = s->muxy[p + L->sx], m2 = s->muxy[p + L->sy],
              m3 = s->muxy[p + L->sx + L->sy];
        s->mus[0][p] = (m0 > 0 && m1 > 0 && m2 > 0 && m3 > 0)
                           ? 4.0f / (1.0f / m0 + 1.0f / m1 + 1.0f / m2 + 1.0f / m3)
                           : 0.0f;
        s->mus[1][p] = sgt_harm2_compliance(s->cz[p], s->cz[p + L->sx]);
        s->mus[2][p] = sgt_harm2_compliance(s->cz[p], s->cz[p + L->sy]);
    }
    return 0;
}

void sgt_state_set_q_constants(sgt_state *s) {
    for (int l = 0; l < SGT_Q_NMECH; l++) {
        double t = s->q.tau[l] / s->dt;
        s->q_a[l] = (float)((t - 0.5) / (t + 0.5));
        s->q_b[l] = (float)(1.0 / (t + 0.5));
        s->q_tau[l] = (float)s->q.tau[l];
    }
}
