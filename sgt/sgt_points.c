#include "sgt_points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "sgt_stencil.h"

int sgt_points_alloc(sgt_state *s, cs_error *err) {
    size_t np = (size_t)(s->npoints ? s->npoints : 1);
    s->out = calloc(np * 6 * (size_t)s->nt_out, sizeof(float));
    if (!s->out)
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "out of memory for the strain of %ld save points x %d samples "
                            "(%.2f GB); save fewer points, decimate more, or use more ranks",
                            s->npoints, s->nt_out, s->npoints * 24.0 * s->nt_out / 1e9);
    return 0;
}

void sgt_points_save(sgt_state *s, int m) {
    if (m < 0 || m >= s->nt_out) return;
    const sgt_layout *L = &s->L;
    const int v = s->visco;
#pragma omp parallel for schedule(static)
    for (long q = 0; q < s->npoints; q++) {
        int li, lj;
        if (!sgt_local(s, s->pts[3 * q], s->pts[3 * q + 1], &li, &lj)) continue;
        int k = s->pts[3 * q + 2];
        double e[6];
        sgt_point_strain(s->s, v ? s->r : NULL, s->lam, s->mu, v ? s->qpw : NULL,
                         v ? s->qsw : NULL, v ? s->q_tau : NULL, s->pts[3 * q], s->pts[3 * q + 1],
                         sgt_idx(L, li, lj, k), L->sx, L->sy, k, s->free_surface, e);
        for (int c = 0; c < 6; c++) s->out[(q * 6 + c) * s->nt_out + m] = (float)e[c];
    }
}

int sgt_receivers_alloc(sgt_state *s, cs_error *err) {
    s->rec_prev = calloc((size_t)(s->nrec ? s->nrec : 1) * 3, sizeof(float));
    s->rec_out = calloc((size_t)(s->nrec ? s->nrec : 1) * 3 * (size_t)s->nt, sizeof(float));
    if (!s->rec_prev || !s->rec_out)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d receivers", s->nrec);
    return 0;
}

void sgt_node_velocity(const sgt_state *s, int i, int j, int k, double v[3]) {
    sgt_node_velocity_at(s->v[0], s->v[1], s->v[2], s->lam, s->mu, sgt_idx(&s->L, i, j, k),
                         s->L.sx, s->L.sy, k, s->free_surface, (float)s->h, v);
}

void sgt_receivers_record(sgt_state *s, int n) {
    for (int r = 0; r < s->nrec; r++) {
        int li, lj;
        if (!sgt_local(s, s->rec[3 * r], s->rec[3 * r + 1], &li, &lj)) continue;
        double v[3];
        sgt_node_velocity(s, li, lj, s->rec[3 * r + 2], v);
        for (int c = 0; c < 3; c++) {
            /* v^{n+1/2} is current; v(t_n) is the mean with v^{n-1/2}. */
            s->rec_out[((long)r * 3 + c) * s->nt + n] = 0.5f * (s->rec_prev[3 * r + c] + (float)v[c]);
            s->rec_prev[3 * r + c] = (float)v[c];
        }
    }
}

int sgt_points_read_index(const char *path, int **pts, long *n, cs_error *err) {
    *pts = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return cs_error_errno(err, path, "open points file");
    char *buf = NULL;
    size_t cap = 0;
    long ncap = 0;
    int line = 0, rc = 0;
    while (cs_read_line(f, &buf, &cap)) {
        line++;
        char *s = cs_trim(buf);
        if (!*s || *s == '#') continue;
        char place[4200], copy[256];
        snprintf(place, sizeof place, "%s:%d", path, line);
        cs_copy(copy, sizeof copy, s);
        long v[3];
        int got = 0;
        char *save = NULL;
        for (char *tok = strtok_r(s, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            if (got == 3 || cs_parse_long(tok, &v[got])) {
                got = -1;
                break;
            }
            got++;
        }
        if (got != 3) {
            rc = cs_error_input(err, place, NULL, copy, "expected three grid indices: i j k");
            break;
        }
        if (*n == ncap) {
            ncap = ncap ? 2 * ncap : 1024;
            int *np = realloc(*pts, (size_t)ncap * 3 * sizeof(int));
            if (!np) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                break;
            }
            *pts = np;
        }
        for (int c = 0; c < 3; c++) (*pts)[3 * *n + c] = (int)v[c];
        (*n)++;
    }
    free(buf);
    fclose(f);
    if (!rc && *n == 0) rc = cs_error_input(err, path, NULL, NULL, "holds no points");
    if (rc) {
        free(*pts);
        *pts = NULL;
        *n = 0;
    }
    return rc;
}
