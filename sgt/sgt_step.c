/* The time step as a sequence of region updates and halo exchanges, the same for every back
 * end (sgt_run.h). Each velocity and stress value goes through the same operations in the same
 * order whatever the decomposition, so runs on 1 rank and on many agree bit for bit. */
#include <stdio.h>

#include "sgt_run.h"

void sgt_velocity_regions(const sgt_layout *L, sgt_region out[5], int *nstrips) {
    const int H = SGT_HALO;
    const int xa = L->nbr[0][0] ? H : 0, xb = L->nbr[0][1] ? L->lnx - H : L->lnx;
    const int ya = L->nbr[1][0] ? H : 0, yb = L->nbr[1][1] ? L->lny - H : L->lny;
    int n = 0;
    if (L->nbr[0][0]) out[n++] = (sgt_region){0, H, 0, L->lny};
    if (L->nbr[0][1]) out[n++] = (sgt_region){L->lnx - H, L->lnx, 0, L->lny};
    if (L->nbr[1][0]) out[n++] = (sgt_region){xa, xb, 0, H};
    if (L->nbr[1][1]) out[n++] = (sgt_region){xa, xb, L->lny - H, L->lny};
    *nstrips = n;
    out[n] = (sgt_region){xa, xb, ya, yb};
}

void sgt_stress_regions(const sgt_layout *L, sgt_region out[5], int *nrims) {
    /* The interior needs the velocities of owned nodes only (2 nodes around each stress). */
    const sgt_region *S = &L->stress;
    const int O = SGT_OVERLAP;
    const int xa = L->nbr[0][0] ? O : 0, xb = L->nbr[0][1] ? L->lnx - O : L->lnx;
    const int ya = L->nbr[1][0] ? O : 0, yb = L->nbr[1][1] ? L->lny - O : L->lny;
    int n = 0;
    out[n++] = (sgt_region){xa, xb, ya, yb};
    if (L->nbr[0][0]) out[n++] = (sgt_region){S->ib, xa, S->jb, S->je};
    if (L->nbr[0][1]) out[n++] = (sgt_region){xb, S->ie, S->jb, S->je};
    if (L->nbr[1][0]) out[n++] = (sgt_region){xa, xb, S->jb, ya};
    if (L->nbr[1][1]) out[n++] = (sgt_region){xa, xb, yb, S->je};
    *nrims = n - 1;
}

/* Keeps the first failure; later calls still run (a rank must take part in every exchange its
 * neighbours expect, even after it failed) but cannot overwrite the message. */
static int keep(int rc, int rc2, cs_error *err, const cs_error *scratch) {
    if (rc) return rc;
    if (rc2) *err = *scratch;
    return rc2;
}

int sgt_step(const sgt_backend *be, sgt_state *s, int n, cs_error *err) {
    const sgt_layout *L = &s->L;
    const int hx = L->nbr[0][0] || L->nbr[0][1], hy = L->nbr[1][0] || L->nbr[1][1];
    if (!hx && !hy) {
        CS_CALL(err, be->velocity(s, n, &L->own, 0, err));
        CS_CALL(err, be->stress(s, n, &L->stress, 0, err));
        CS_CALL(err, be->end_step(s, n, err));
        return 0;
    }
    sgt_region vr[5], sr[5];
    int nstrips, nrims;
    sgt_velocity_regions(L, vr, &nstrips);
    sgt_stress_regions(L, sr, &nrims);
    cs_error e2;
    /* chains, not CS_CALL: a rank posts and waits for every halo exchange its neighbours take
     * part in, failed or not (keep) */
    int rc = 0;
    for (int q = 0; q < nstrips && !rc; q++)
        rc = be->velocity(s, n, &vr[q], 1, err);
    if (hx) rc = keep(rc, be->halo_post(s, 0, &e2), err, &e2);
    if (!rc) rc = be->velocity(s, n, &vr[nstrips], 0, err);
    /* The interior's stress reads owned velocities only: nothing it needs travels. */
    if (be->queued && !rc) rc = be->stress(s, n, &sr[0], 0, err);
    if (hx) rc = keep(rc, be->halo_wait(s, 0, &e2), err, &e2);
    if (hy) rc = keep(rc, be->halo_post(s, 1, &e2), err, &e2);
    if (!be->queued && !rc) rc = be->stress(s, n, &sr[0], 0, err);
    if (hy) rc = keep(rc, be->halo_wait(s, 1, &e2), err, &e2);
    for (int q = 1; q <= nrims && !rc; q++)
        rc = be->stress(s, n, &sr[q], 1, err);
    if (!rc) rc = be->end_step(s, n, err);
    return rc;
}

long sgt_fields_max_count(const sgt_field *f, int n) {
    long m = 1;
    for (int q = 0; q < n; q++)
        if (f[q].count > m) m = f[q].count;
    return m;
}

int sgt_state_fields(const sgt_state *s, sgt_field *f) {
    int n = 0;
    const long nc = s->L.ncell;
    for (int c = 0; c < 3; c++, n++) {
        f[n] = (sgt_field){"", SGT_FIELD_V, c, 0, s->v[c], nc};
        snprintf(f[n].name, sizeof f[n].name, "v%d", c);
    }
    for (int c = 0; c < 6; c++, n++) {
        f[n] = (sgt_field){"", SGT_FIELD_S, c, 0, s->s[c], nc};
        snprintf(f[n].name, sizeof f[n].name, "s%d", c);
    }
    if (s->visco)
        for (int c = 0; c < 6; c++, n++) {
            f[n] = (sgt_field){"", SGT_FIELD_R, c, 0, s->r[c], nc};
            snprintf(f[n].name, sizeof f[n].name, "r%d", c);
        }
    for (int q = 0; q < s->pml.nslabs; q++)
        for (int c = 0; c < 6; c++, n++) {
            f[n] =
                (sgt_field){"", SGT_FIELD_PSI, c, q, s->pml.slab[q].psi[c], s->pml.slab[q].count};
            snprintf(f[n].name, sizeof f[n].name, "psi%d_%d", q, c);
        }
    if (s->nrec) {
        f[n++] = (sgt_field){"rec_prev", SGT_FIELD_REC_PREV, 0, 0, s->rec_prev, 3L * s->nrec};
        f[n++] = (sgt_field){"rec_out", SGT_FIELD_REC_OUT, 0, 0, s->rec_out, 3L * s->nrec * s->nt};
    }
    return n;
}
