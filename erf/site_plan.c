#include "site_plan.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_geo.h"
#include "cs_params.h"
#include "cs_progress.h"
#include "cs_sites.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "plan_keys.h"
#include "sgt_run.h"
#include "sgt_source.h"

void site_plan_defaults(plan_options *o) {
    *o = (plan_options){.cutoff_km = 200,
                        .fmax = 0,
                        .ppw = 5,
                        .vs_floor = 500,
                        .rotation = -55,
                        .padding_km = 30,
                        .round_km = 10,
                        .absorbing_width = 20,
                        .ranks_x = 1,
                        .ranks_y = 1,
                        .decimation = 10,
                        .mesh_near_km = 5,
                        .mesh_max_stride = 16};
}

void site_plan_free(site_plan *p) {
    free(p->rup_source);
    free(p->rup_rupture);
    free(p->rup_dist);
    free(p->pts);
    memset(p, 0, sizeof *p);
}

typedef struct {
    double *v; /* x, y, z (m) triples */
    long n, cap;
} points3;

static int push3(points3 *p, double x, double y, double z, cs_error *err) {
    if (p->n == p->cap) {
        long cap = p->cap ? 2 * p->cap : 4096;
        double *g = realloc(p->v, (size_t)cap * 3 * sizeof *g);
        if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for rupture points");
        p->v = g;
        p->cap = cap;
    }
    p->v[3 * p->n] = x;
    p->v[3 * p->n + 1] = y;
    p->v[3 * p->n + 2] = z;
    p->n++;
    return 0;
}

static int push_ids(site_plan *p, long long s, long long r, double d, cs_error *err) {
    int n = p->nruptures + 1;
    long long *a = realloc(p->rup_source, (size_t)n * sizeof *a);
    if (a) p->rup_source = a;
    long long *b = realloc(p->rup_rupture, (size_t)n * sizeof *b);
    if (b) p->rup_rupture = b;
    double *c = realloc(p->rup_dist, (size_t)n * sizeof *c);
    if (c) p->rup_dist = c;
    if (!a || !b || !c) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    p->rup_source[p->nruptures] = s;
    p->rup_rupture[p->nruptures] = r;
    p->rup_dist[p->nruptures] = d;
    p->nruptures = n;
    return 0;
}

/* The site's distance to a rupture: the least ellipsoidal distance to its points. The sphere
 * bounds it first: only points whose spherical distance could be the least (within the bound's
 * error of the sphere's least) get the exact geodesic, which gives the exact minimum at a
 * fraction of the cost (a 17 M-point forecast spent most of its plan in geodesics). */
static int rupture_distance_km(double lon, double lat, const erf_rupture *r, double *km,
                               cs_error *err) {
    const int n = erf_rupture_npoints(r);
    double *s = malloc(sizeof(double) * (size_t)(n ? n : 1)), smin = INFINITY;
    if (!s) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d points", n);
    for (int q = 0; q < n; q++) {
        s[q] = cs_geo_distance_sphere(lon, lat, r->lon[q], r->lat[q]);
        if (s[q] < smin) smin = s[q];
    }
    const double e = CS_GEO_SPHERE_ERROR, reach = smin * (1 + e) / (1 - e);
    double dmin = INFINITY;
    for (int q = 0; q < n; q++) {
        if (s[q] > reach) continue;
        double d = cs_geo_distance(lon, lat, r->lon[q], r->lat[q]);
        if (d < dmin) dmin = d;
    }
    free(s);
    *km = dmin * 1e-3;
    return 0;
}

/* One rupture's part of the plan, computed on any thread: its distance and, when it is
 * selected, its points in the box frame. */
typedef struct {
    erf_rupture r;
    double km;
    double *xy; /* 2 per point, when selected */
    int loaded; /* r holds a rupture */
    int rc;
    cs_error err;
} planned_rupture;

static void plan_rupture(const site_plan *p, const plan_options *o, const cs_geo_frame *frame,
                         planned_rupture *pr) {
    pr->xy = NULL;
    pr->rc = rupture_distance_km(p->site_lon, p->site_lat, &pr->r, &pr->km, &pr->err);
    if (pr->rc || !(pr->km <= o->cutoff_km)) return;
    const int n = erf_rupture_npoints(&pr->r);
    pr->xy = malloc(sizeof(double) * 2 * (size_t)(n ? n : 1));
    if (!pr->xy) {
        pr->rc = cs_error_set(&pr->err, CS_ERR_RESOURCE, "out of memory for %d points", n);
        return;
    }
    for (int q = 0; q < n && !pr->rc; q++)
        pr->rc = cs_geo_to_local(frame, pr->r.lon[q], pr->r.lat[q], &pr->xy[2 * q],
                                 &pr->xy[2 * q + 1], &pr->err);
}

/* Ruptures are read and planned a block at a time on every thread, each with a connection to
 * the study and a frame of its own (neither an SQLite connection nor a PROJ object serves two
 * threads at once); the results join the plan in the forecast's order. Reading 16.9 M points
 * was half of a production plan: it is shared out too. */
enum { PLAN_BLOCK = 512 };

/* The selected ruptures and their points in the box frame (x, y in m, z = depth in m). */
static int select_ruptures(cs_db *db, long long erf_id, const cs_geo_frame *frame,
                           const plan_options *o, site_plan *p, points3 *pts, cs_error *err) {
    (void)frame;
    erf_rupture_key *keys;
    long nkeys;
    CS_CALL(err, erf_db_rupture_keys(db, erf_id, &keys, &nkeys, err));
    if (nkeys == 0) {
        free(keys);
        return cs_error_input(err, cs_db_path(db), "ERF_ID", NULL, "forecast %lld has no ruptures",
                              erf_id);
    }
    const int nth = omp_get_max_threads();
    cs_geo_frame **frames = calloc((size_t)nth, sizeof *frames);
    cs_db **conns = calloc((size_t)nth, sizeof *conns);
    planned_rupture *blk = calloc(PLAN_BLOCK, sizeof *blk);
    int rc = 0;
    if (!frames || !conns || !blk) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto release;
    }
    for (int k = 0; k < nth; k++) {
        CS_CALL_GOTO(rc, err,
                     cs_geo_frame_create(p->site_lon, p->site_lat, o->rotation, &frames[k], err),
                     release);
        if (k) CS_CALL_GOTO(rc, err, cs_db_open_current(cs_db_path(db), &conns[k], err), release);
    }
    conns[0] = db;
    cs_progress prog;
    cs_progress_begin(&prog, "rupture distances", nkeys, "ruptures");
    for (long c0 = 0; c0 < nkeys && !rc; c0 += PLAN_BLOCK) {
        const long n = nkeys - c0 < PLAN_BLOCK ? nkeys - c0 : PLAN_BLOCK;
#pragma omp parallel for schedule(dynamic, 4)
        for (long j = 0; j < n; j++) {
            const int k = omp_get_thread_num();
            planned_rupture *pr = &blk[j];
            pr->xy = NULL;
            pr->rc = erf_db_load_rupture(conns[k], erf_id, keys[c0 + j].source_id,
                                         keys[c0 + j].rupture_id, &pr->r, &pr->err);
            pr->loaded = !pr->rc;
            if (!pr->rc) plan_rupture(p, o, frames[k], pr);
        }
        for (long j = 0; j < n; j++) {
            planned_rupture *pr = &blk[j];
            if (!rc && pr->rc) {
                *err = pr->err;
                rc = pr->rc;
            }
            if (!pr->loaded) continue;
            pr->loaded = 0;
            if (!rc && pr->xy) {
                rc = push_ids(p, pr->r.source_id, pr->r.rupture_id, pr->km, err);
                for (int q = 0; q < erf_rupture_npoints(&pr->r) && !rc; q++)
                    rc = push3(pts, pr->xy[2 * q], pr->xy[2 * q + 1], pr->r.dep[q] * 1e3, err);
            }
            free(pr->xy);
            erf_rupture_free(&pr->r);
        }
        cs_progress_update(&prog, c0 + n);
    }
    if (!rc) cs_progress_end(&prog);
release:
    for (int k = 0; frames && k < nth; k++)
        if (frames[k]) cs_geo_frame_free(frames[k]);
    for (int k = 1; conns && k < nth; k++)
        if (conns[k]) cs_db_close(conns[k]);
    free(frames);
    free(conns);
    free(blk);
    free(keys);
    if (!rc && p->nruptures == 0)
        rc = cs_error_input(err, "--cutoff", NULL, NULL,
                            "no rupture of forecast %lld lies within %g km of the site; raise "
                            "the cutoff or check the forecast",
                            erf_id, o->cutoff_km);
    return rc;
}

static double round_up(double v, double step) {
    return ceil(v / step - 1e-9) * step;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

typedef struct {
    int64_t *v;
    long n, cap;
} index_list;

static int push_index(index_list *l, int64_t v, cs_error *err) {
    if (l->n == l->cap) {
        long cap = l->cap ? 2 * l->cap : 65536;
        int64_t *g = realloc(l->v, (size_t)cap * sizeof *g);
        if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for save points");
        l->v = g;
        l->cap = cap;
    }
    l->v[l->n++] = v;
    return 0;
}

/* The adaptive mesh: stride 2^L between mesh_near_km 2^(L-1) and mesh_near_km 2^L from the
 * site node (stride 1 inside mesh_near_km), the largest stride over the rest of the box. */
static int adaptive_mesh(const site_plan *p, const plan_options *o, int si, int sj, int kmax,
                         index_list *l, cs_error *err) {
    int lo_i = o->absorbing_width, hi_i = p->nx - 1 - o->absorbing_width;
    int lo_j = o->absorbing_width, hi_j = p->ny - 1 - o->absorbing_width;
    double near = o->mesh_near_km * 1e3;
    for (int stride = 1; stride <= o->mesh_max_stride; stride *= 2) {
        double r_in = stride == 1 ? -1 : near * stride / 2, r_out = near * stride;
        int last = stride * 2 > o->mesh_max_stride;
        if (last) r_out = INFINITY;
        int reach = last ? INT_MAX / 4 : (int)ceil(r_out / p->h);
        /* lattice of this stride through the site node */
        int i0 = si - ((si - lo_i) / stride) * stride, j0 = sj - ((sj - lo_j) / stride) * stride;
        for (int k = 0; k <= kmax; k += stride)
            for (int j = j0; j <= hi_j; j += stride) {
                if (abs(j - sj) > reach) continue;
                for (int i = i0; i <= hi_i; i += stride) {
                    if (abs(i - si) > reach) continue;
                    double r =
                        p->h * sqrt((double)(i - si) * (i - si) + (double)(j - sj) * (j - sj));
                    if (r <= r_in || r > r_out) continue;
                    CS_CALL(err, push_index(l, ((int64_t)k * p->ny + j) * p->nx + i, err));
                }
            }
    }
    return 0;
}

int site_plan_make(cs_db *db, const char *site, long long erf_id, const erf_medium *m,
                   const plan_options *o, site_plan *p, cs_error *err) {
    memset(p, 0, sizeof *p);
    if (!(o->fmax > 0))
        return cs_error_input(err, "--fmax", NULL, NULL, "a maximum frequency (Hz) is required");
    if (o->ranks_x < 1 || o->ranks_y < 1 || o->decimation < 1 || o->mesh_max_stride < 1)
        return cs_error_set(err, CS_ERR_INPUT, "ranks, decimation and mesh stride must be >= 1");
    cs_site s;
    CS_CALL(err, cs_sites_find(db, site, &s, err));
    p->site_id = s.id;
    p->erf_id = erf_id;
    p->site_lon = s.lon;
    p->site_lat = s.lat;
    cs_geo_frame *frame;
    CS_CALL(err, cs_geo_frame_create(s.lon, s.lat, o->rotation, &frame, err));
    points3 rp = {0};
    index_list l = {0};
    int rc = select_ruptures(db, erf_id, frame, o, p, &rp, err);
    if (rc) goto out;

    double xmin = 0, xmax = 0, ymin = 0, ymax = 0, zmax = 0;
    for (long i = 0; i < rp.n; i++) {
        xmin = fmin(xmin, rp.v[3 * i]);
        xmax = fmax(xmax, rp.v[3 * i]);
        ymin = fmin(ymin, rp.v[3 * i + 1]);
        ymax = fmax(ymax, rp.v[3 * i + 1]);
        zmax = fmax(zmax, rp.v[3 * i + 2]);
    }
    p->max_depth_km = zmax * 1e-3;
    if ((rc = erf_medium_extremes(m, p->max_depth_km + o->padding_km, o->vs_floor, &p->vs_min,
                                  &p->vp_max, err)))
        goto out;
    p->h = p->vs_min / (o->fmax * o->ppw);
    if (p->h >= 20) p->h = floor(p->h / 10.0) * 10.0;
    double margin = o->padding_km * 1e3 + o->absorbing_width * p->h, round_m = o->round_km * 1e3;
    double lx = round_up(xmax - xmin + 2 * margin, round_m);
    double ly = round_up(ymax - ymin + 2 * margin, round_m);
    double lz = round_up(zmax + o->padding_km * 1e3 + o->absorbing_width * p->h, round_m);
    p->nx = (int)ceil(lx / p->h - 1e-9) + 1;
    p->ny = (int)ceil(ly / p->h - 1e-9) + 1;
    p->nz = (int)ceil(lz / p->h - 1e-9) + 1;
    p->nx = (p->nx + o->ranks_x - 1) / o->ranks_x * o->ranks_x;
    p->ny = (p->ny + o->ranks_y - 1) / o->ranks_y * o->ranks_y;
    /* centred on the extent, then shifted by under h/2 so the site (0, 0) is a node */
    p->x0 = p->h * round((0.5 * (xmin + xmax) - 0.5 * (p->nx - 1) * p->h) / p->h);
    p->y0 = p->h * round((0.5 * (ymin + ymax) - 0.5 * (p->ny - 1) * p->h) / p->h);
    /* the fastest Vp anywhere in the box, down to its (rounded) bottom, sets the time step */
    double vs_unused;
    if ((rc = erf_medium_extremes(m, (p->nz - 1) * p->h * 1e-3, o->vs_floor, &vs_unused, &p->vp_max,
                                  err)))
        goto out;
    double dt_limit = sgt_cfl_limit(p->h, p->vp_max);
    p->dt = floor(0.9 * dt_limit * 1e5) / 1e5;

    int si = (int)lround(-p->x0 / p->h), sj = (int)lround(-p->y0 / p->h);
    int kmax = (int)lround(zmax / p->h);
    int lo = o->absorbing_width, hix = p->nx - 1 - lo, hiy = p->ny - 1 - lo, hiz = p->nz - 1 - lo;
    if (kmax > hiz) kmax = hiz;
    for (long i = 0; i < rp.n; i++) {
        int gi = (int)lround((rp.v[3 * i] - p->x0) / p->h);
        int gj = (int)lround((rp.v[3 * i + 1] - p->y0) / p->h);
        int gk = (int)lround(rp.v[3 * i + 2] / p->h);
        if (gi < lo || gi > hix || gj < lo || gj > hiy || gk > hiz) {
            rc = cs_error_set(err, CS_ERR_INTERNAL,
                              "rupture point %ld at node (%d, %d, %d) falls outside the box's "
                              "interior (%d..%d, %d..%d, 0..%d)",
                              i, gi, gj, gk, lo, hix, lo, hiy, hiz);
            goto out;
        }
        if ((rc = push_index(&l, ((int64_t)gk * p->ny + gj) * p->nx + gi, err))) goto out;
    }
    if ((rc = adaptive_mesh(p, o, si, sj, kmax, &l, err))) goto out;
    qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_i64);
    long n = 0;
    for (long i = 0; i < l.n; i++)
        if (n == 0 || l.v[i] != l.v[n - 1]) l.v[n++] = l.v[i];
    p->npoints = n;
    p->nrupture_points = rp.n;
    p->pts = malloc(sizeof(int) * 3 * (size_t)(n ? n : 1));
    if (!p->pts) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %ld save points", n);
        goto out;
    }
    double far = 0;
    for (long i = 0; i < n; i++) {
        int64_t v = l.v[i];
        int gi = (int)(v % p->nx), gj = (int)((v / p->nx) % p->ny), gk = (int)(v / p->nx / p->ny);
        p->pts[3 * i] = gi;
        p->pts[3 * i + 1] = gj;
        p->pts[3 * i + 2] = gk;
        double d = p->h * sqrt((double)(gi - si) * (gi - si) + (double)(gj - sj) * (gj - sj) +
                               (double)gk * gk);
        if (d > far) far = d;
    }
    p->farthest_km = far * 1e-3;
    /* the SGT must also outlast its impulse's time shift: records end that much earlier */
    sgt_impulse imp;
    if ((rc = sgt_impulse_init(&imp, o->fmax, err))) goto out;
    double duration = p->farthest_km / 1.5 + 20.0 + imp.time_shift;
    p->nt = (int)ceil(duration / p->dt);
    p->nt = (p->nt + o->decimation - 1) / o->decimation * o->decimation;
    double cx[4] = {0, (double)(p->nx - 1), (double)(p->nx - 1), 0};
    double cy[4] = {0, 0, (double)(p->ny - 1), (double)(p->ny - 1)};
    for (int c = 0; c < 4 && !rc; c++)
        rc = cs_geo_to_geographic(frame, p->x0 + cx[c] * p->h, p->y0 + cy[c] * p->h,
                                  &p->corner_lon[c], &p->corner_lat[c], err);
out:
    free(rp.v);
    free(l.v);
    cs_geo_frame_free(frame);
    if (rc) site_plan_free(p);
    return rc;
}

static int write_points(const char *path, const site_plan *p, char sha[65], cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f,
            "# SGT save points (grid indices i j k): %ld nodes, %ld from %d ruptures plus the "
            "adaptive mesh\n",
            p->npoints, p->nrupture_points, p->nruptures);
    for (long i = 0; i < p->npoints; i++)
        fprintf(a.f, "%d %d %d\n", p->pts[3 * i], p->pts[3 * i + 1], p->pts[3 * i + 2]);
    return cs_atomic_commit(&a, sha, err);
}

static int write_params(const char *path, const site_plan *p, const plan_options *o,
                        const char *site, const char *model_format, const char *model_file,
                        const char *points_path, char sha[65], cs_error *err) {
    cs_atomic_file a;
    /* paths as the parameter file must hold them ('#' would start a comment) */
    char model_text[4200], points_text[4200];
    CS_CALL(err, cs_params_text_value(PLAN_KEY_MODEL_FILE, model_file, model_text,
                                      sizeof model_text, err));
    CS_CALL(err, cs_params_text_value(PLAN_KEY_SAVE_POINTS, points_path, points_text,
                                      sizeof points_text, err));
    CS_CALL(err, cs_atomic_open(&a, path, err));
    FILE *f = a.f;
    fprintf(f,
            "# SGT run of site %s planned by 'cybershake plan' on forecast %lld: %d ruptures\n"
            "# within %g km. Add force_component and output (cybershake sgt THIS --set ...).\n",
            site, p->erf_id, p->nruptures, o->cutoff_km);
    for (int c = 0; c < 4; c++)
        fprintf(f, "# box corner %d: %.6f %.6f\n", c + 1, p->corner_lon[c], p->corner_lat[c]);
    fprintf(f, "%s = %d\n%s = %d\n%s = %d\n", PLAN_KEY_NX, p->nx, PLAN_KEY_NY, p->ny, PLAN_KEY_NZ,
            p->nz);
    fprintf(f, "%s = %.15g m\n%s = %.15g s\n%s = %d\n", PLAN_KEY_H, p->h, PLAN_KEY_DT, p->dt,
            PLAN_KEY_NT, p->nt);
    fprintf(f, "%s = %.10f deg\n%s = %.10f deg\n%s = %.15g deg\n", PLAN_KEY_ORIGIN_LON, p->site_lon,
            PLAN_KEY_ORIGIN_LAT, p->site_lat, PLAN_KEY_ROTATION, o->rotation);
    fprintf(f, "%s = %.15g m\n%s = %.15g m\n", PLAN_KEY_X0, p->x0, PLAN_KEY_Y0, p->y0);
    fprintf(f, "%s = %s\n%s = %s\n%s = %.15g m/s\n%s = %.15g Hz\n", PLAN_KEY_MODEL_FORMAT,
            model_format, PLAN_KEY_MODEL_FILE, model_text, PLAN_KEY_VS_MIN, o->vs_floor,
            PLAN_KEY_FMAX, o->fmax);
    fprintf(f, "%s = %.15g\n%s = %d\n", PLAN_KEY_PPW, o->ppw, PLAN_KEY_ABSORBING_WIDTH,
            o->absorbing_width);
    fprintf(f, "%s = %d\n%s = %d\n", PLAN_KEY_RANKS_X, o->ranks_x, PLAN_KEY_RANKS_Y, o->ranks_y);
    fprintf(f, "%s = %.10f deg\n%s = %.10f deg\n%s = %s\n%s = %d\n", PLAN_KEY_SOURCE_LON,
            p->site_lon, PLAN_KEY_SOURCE_LAT, p->site_lat, PLAN_KEY_SAVE_POINTS, points_text,
            PLAN_KEY_DECIMATION, o->decimation);
    site_plan_box b;
    int rc = site_plan_box_values(p, o, &b, err);
    if (rc) {
        cs_atomic_abort(&a);
        CS_TRACE(err);
        return rc;
    }
    fprintf(f, "# The same in the box frame, for builds without geodesy (a full build checks "
               "them):\n");
    fprintf(f, "%s = %d\n%s = %d\n%s = %d\n", PLAN_KEY_SOURCE_I, b.source[0], PLAN_KEY_SOURCE_J,
            b.source[1], PLAN_KEY_SOURCE_K, b.source[2]);
    const char *fk[3] = {PLAN_KEY_FORCE_VECTOR_E, PLAN_KEY_FORCE_VECTOR_N, PLAN_KEY_FORCE_VECTOR_Z};
    for (int c = 0; c < 3; c++)
        fprintf(f, "%s = %.17g %.17g %.17g\n", fk[c], b.force[c][0], b.force[c][1], b.force[c][2]);
    fprintf(f, "%s =", PLAN_KEY_BOX_AXES_ENU);
    for (int r = 0; r < 9; r++)
        fprintf(f, " %.17g", b.axes_enu[r / 3][r % 3]);
    fprintf(f, "\n");
    return cs_atomic_commit(&a, sha, err);
}

static long long file_size(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long long n = ftell(f);
    fclose(f);
    return n;
}

int site_plan_write(cs_db *db, const site_plan *p, const plan_options *o, const char *site,
                    const char *dir, const char *model_format, const char *model_file,
                    char *params_path, size_t params_size, cs_error *err) {
    char points_path[4096], sha_pts[65], sha_par[65], model_abs[4096];
    char *abs_dir = realpath(dir, NULL);
    if (!abs_dir) return cs_error_errno(err, dir, "find the output folder");
    char *m_abs = realpath(model_file, NULL);
    cs_copy(model_abs, sizeof model_abs, m_abs ? m_abs : model_file);
    free(m_abs);
    snprintf(points_path, sizeof points_path, "%s/%s.points", abs_dir, site);
    snprintf(params_path, params_size, "%s/%s.sgt.params", abs_dir, site);
    free(abs_dir);
    CS_CALL(err, write_points(points_path, p, sha_pts, err));
    CS_CALL(err, write_params(params_path, p, o, site, model_format, model_abs, points_path,
                              sha_par, err));
    CS_CALL(err, cs_db_begin(db, err));
    sqlite3_stmt *del = NULL, *ins = NULL, *plan = NULL;
    int rc = cs_db_prepare(
        db, "DELETE FROM CyberShake_Site_Ruptures WHERE CS_Site_ID = ? AND ERF_ID = ?", &del, err);
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO CyberShake_Site_Ruptures (CS_Site_ID, ERF_ID, Source_ID, "
                           "Rupture_ID, Site_Rupture_Dist) VALUES (?, ?, ?, ?, ?)",
                           &ins, err);
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT OR REPLACE INTO Site_Plans (CS_Site_ID, ERF_ID, Cutoff_Km, "
                           "Max_Frequency, Plan_File, Plan_SHA256, Points_File, Points_SHA256, "
                           "Num_Ruptures, Num_Save_Points, NX, NY, NZ, H_M, DT_S, NT, Created_At) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                           "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                           &plan, err);
    if (!rc) {
        sqlite3_bind_int64(del, 1, p->site_id);
        sqlite3_bind_int64(del, 2, p->erf_id);
        if (sqlite3_step(del) != SQLITE_DONE)
            rc = cs_db_fail(db, "clearing the site's ruptures", err);
    }
    for (int i = 0; i < p->nruptures && !rc; i++) {
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, p->site_id);
        sqlite3_bind_int64(ins, 2, p->erf_id);
        sqlite3_bind_int64(ins, 3, p->rup_source[i]);
        sqlite3_bind_int64(ins, 4, p->rup_rupture[i]);
        sqlite3_bind_double(ins, 5, p->rup_dist[i]);
        if (sqlite3_step(ins) != SQLITE_DONE) rc = cs_db_fail(db, "adding a site rupture", err);
    }
    if (!rc) {
        sqlite3_bind_int64(plan, 1, p->site_id);
        sqlite3_bind_int64(plan, 2, p->erf_id);
        sqlite3_bind_double(plan, 3, o->cutoff_km);
        sqlite3_bind_double(plan, 4, o->fmax);
        sqlite3_bind_text(plan, 5, params_path, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(plan, 6, sha_par, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(plan, 7, points_path, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(plan, 8, sha_pts, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(plan, 9, p->nruptures);
        sqlite3_bind_int64(plan, 10, p->npoints);
        sqlite3_bind_int(plan, 11, p->nx);
        sqlite3_bind_int(plan, 12, p->ny);
        sqlite3_bind_int(plan, 13, p->nz);
        sqlite3_bind_double(plan, 14, p->h);
        sqlite3_bind_double(plan, 15, p->dt);
        sqlite3_bind_int(plan, 16, p->nt);
        if (sqlite3_step(plan) != SQLITE_DONE) rc = cs_db_fail(db, "recording the plan", err);
    }
    if (!rc)
        rc = cs_db_record_file(db, points_path, sha_pts, file_size(points_path), "save-points", 0,
                               err);
    if (!rc)
        rc = cs_db_record_file(db, params_path, sha_par, file_size(params_path), "sgt-params", 0,
                               err);
    sqlite3_finalize(del);
    sqlite3_finalize(ins);
    sqlite3_finalize(plan);
    if (!rc)
        rc = cs_db_commit(db, err);
    else
        cs_db_rollback(db);
    return rc;
}
