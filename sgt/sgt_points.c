#include "sgt_points.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_lines.h"
#include "cs_strutil.h"
#include "sgt_stencil.h"

int sgt_points_alloc(sgt_state *s, cs_error *err) {
    size_t np = (size_t)(s->npoints ? s->npoints : 1);
    s->out = calloc(np * 6 * (size_t)s->out_window, sizeof(float));
    s->out_spare = calloc(np * 6 * (size_t)s->out_window, sizeof(float));
    if (!s->out || !s->out_spare)
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "out of memory for two windows of strain of %ld save points x %d "
                            "samples (%.2f GB); lower strain_buffer_mb or use more ranks",
                            s->npoints, s->out_window, s->npoints * 48.0 * s->out_window / 1e9);
    return 0;
}

void sgt_points_save(sgt_state *s, int m) {
    const int w = s->out_window, t = m - s->out_m0;
    if (m >= s->nt_out || t < 0 || t >= w) return;
    const sgt_layout *L = &s->L;
    const int v = s->visco;
#pragma omp parallel for schedule(static)
    for (long q = 0; q < s->npoints; q++) {
        int li, lj;
        if (!sgt_local(s, s->pts[3 * q], s->pts[3 * q + 1], &li, &lj)) continue;
        int k = s->pts[3 * q + 2];
        double e[6];
        sgt_point_strain(s->s, v ? s->r : NULL, s->lam, s->mu, s->muxy, s->ti[k + L->gz], s->cz,
                         v ? s->qpw : NULL, v ? s->qsw : NULL, v ? s->q_tau : NULL, s->pts[3 * q],
                         s->pts[3 * q + 1], sgt_idx(L, li, lj, k), L->sx, L->sy, k, s->free_surface,
                         NULL, 0, e);
        for (int c = 0; c < 6; c++)
            s->out[(q * 6 + c) * w + t] = (float)e[c];
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
    sgt_node_velocity_at(s->v[0], s->v[1], s->v[2], s->lam, s->mu, sgt_idx(&s->L, i, j, k), s->L.sx,
                         s->L.sy, k, s->free_surface, (float)s->h, v);
}

void sgt_receivers_record(sgt_state *s, int n) {
    for (int r = 0; r < s->nrec; r++) {
        int li, lj;
        if (!sgt_local(s, s->rec[3 * r], s->rec[3 * r + 1], &li, &lj)) continue;
        double v[3];
        sgt_node_velocity(s, li, lj, s->rec[3 * r + 2], v);
        for (int c = 0; c < 3; c++) {
            /* v^{n+1/2} is current; v(t_n) is the mean with v^{n-1/2}. */
            s->rec_out[((long)r * 3 + c) * s->nt + n] =
                0.5f * (s->rec_prev[3 * r + c] + (float)v[c]);
            s->rec_prev[3 * r + c] = (float)v[c];
        }
    }
}

int sgt_points_read(const char *path, int want, double **vals, int **lines, long *n,
                    cs_error *err) {
    *vals = NULL;
    *lines = NULL;
    *n = 0;
    cs_lines r;
    CS_CALL(err, cs_lines_open(&r, path, "points file", err));
    long cap = 0;
    int rc = 0;
    char *line;
    while (!rc && (line = cs_lines_next(&r))) {
        double v[3];
        if (cs_parse_numbers(line, v, 3) != 3) {
            rc = cs_error_input(err, r.place, NULL, r.copy, "expected three numbers: %s",
                                want == SGT_POINTS_INDEX ? "i j k (grid indices)"
                                                         : "lon lat depth_m");
            break;
        }
        if (want == SGT_POINTS_INDEX)
            for (int c = 0; c < 3; c++)
                if (v[c] != floor(v[c]) || fabs(v[c]) > 1e8) {
                    rc = cs_error_input(err, r.place, NULL, r.copy,
                                        "grid indices must be whole numbers");
                    break;
                }
        if (rc) break;
        if (*n == cap) {
            cap = cap ? 2 * cap : 1024;
            double *nv = realloc(*vals, (size_t)cap * 3 * sizeof(double));
            if (nv) *vals = nv;
            int *nl = nv ? realloc(*lines, (size_t)cap * sizeof(int)) : NULL;
            if (!nl) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                break;
            }
            *lines = nl;
        }
        memcpy(*vals + 3 * *n, v, sizeof v);
        (*lines)[*n] = r.line;
        (*n)++;
    }
    cs_lines_close(&r);
    if (!rc && *n == 0) rc = cs_error_input(err, path, NULL, NULL, "holds no points");
    if (rc) {
        free(*vals);
        free(*lines);
        *vals = NULL;
        *lines = NULL;
        *n = 0;
    }
    return rc;
}

int sgt_points_read_index(const char *path, int **pts, int **lines, long *n, cs_error *err) {
    double *v;
    *pts = NULL;
    CS_CALL(err, sgt_points_read(path, SGT_POINTS_INDEX, &v, lines, n, err));
    *pts = malloc((size_t)*n * 3 * sizeof(int));
    if (!*pts) {
        free(v);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    for (long q = 0; q < 3 * *n; q++)
        (*pts)[q] = (int)v[q];
    free(v);
    return 0;
}
