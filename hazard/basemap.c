/* The basemap and the interpolated difference (basemap.h). */
#include "basemap.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs_progress.h"
#include "cs_strutil.h"
#include "disagg.h"
#include "gmpe.h"
#include "gmpe_psha.h"
#include "tps.h"

#define EARTH_KM   6371.0088 /* the mean radius of WGS84 (IUGG) */
#define KM_PER_DEG (EARTH_KM * M_PI / 180)
#define MAX_NODES  4000000L
#define BLOCK      256

void hazard_basemap_plane(const hazard_basemap *b, double lon, double lat, double *x, double *y) {
    *x = KM_PER_DEG * cos(b->lat_ref * M_PI / 180) * (lon - b->lon_ref);
    *y = KM_PER_DEG * (lat - b->lat_ref);
}

double hazard_basemap_taper(double d, double radius) {
    if (d <= 0.5 * radius) return 1;
    if (d >= radius) return 0;
    return 0.5 * (1 + cos(M_PI * (d - 0.5 * radius) / (0.5 * radius)));
}

/* The models and their weights: gmpe_set_parse's NAME[:WEIGHT] list; equal weights where none
 * are given (the branches of a logic tree). */
typedef struct {
    gmpe_set set;
    double w[GMPE_MAX_MODELS]; /* the weights used, summing to 1 */
} model_list;

static int parse_models(const char *text, model_list *ml, cs_error *err) {
    CS_CALL(err, gmpe_set_parse(text, "--basemap", &ml->set, err));
    for (int k = 0; k < ml->set.n; k++)
        ml->w[k] = ml->set.weighted ? ml->set.weight[k] : 1.0 / ml->set.n;
    return 0;
}

/* Vs30 at a place: the constant, or the raster's cell (NAN on NODATA); an error outside it. */
static int vs30_at(const hazard_basemap_request *rq, double lon, double lat, double *v,
                   cs_error *err) {
    if (!rq->vs30_grid) {
        *v = rq->vs30;
        return 0;
    }
    const hazard_vs30_grid *g = rq->vs30_grid;
    if (hazard_vs30_grid_at(g, lon, lat, v))
        return cs_error_input(err, "--vs30-grid", NULL, NULL,
                              "(%.5f, %.5f) is outside the grid (longitudes %g to %g, latitudes "
                              "%g to %g): the grid must cover the map (the sites' box and the "
                              "margin)",
                              lon, lat, g->west, g->west + g->ncols * g->cell, g->south,
                              g->south + g->nrows * g->cell);
    return 0;
}

/* The basemap's level at a place: NAN without Vs30 there, without ruptures within max_km, or
 * where the mean curve never reaches the probability. */
static int level_at(const hazard_forecast *f, const hazard_basemap_request *rq,
                    const model_list *ml, double lon, double lat, double vs30, double *v,
                    cs_error *err) {
    *v = NAN;
    if (isnan(vs30)) return 0;
    hazard_forecast_rupture *fr;
    long n;
    CS_CALL(err, hazard_forecast_near(f, lon, lat, rq->max_km, &fr, &n, err));
    if (n == 0) {
        free(fr);
        return 0;
    }
    const int nm = ml->set.n;
    double *lnm = malloc(sizeof(double) * (size_t)(n * nm));
    hazard_rupture *rups = malloc(sizeof *rups * (size_t)(n * nm));
    const hazard_rupture *sets[GMPE_MAX_MODELS];
    long counts[GMPE_MAX_MODELS];
    int rc = lnm && rups ? 0 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    /* grid nodes have no basin depths: the models' own estimates from Vs30 */
    const gmpe_psha gp = {.period = rq->period,
                          .mode = rq->mode,
                          .truncation = rq->truncation,
                          .vs30 = vs30,
                          .z1_m = NAN,
                          .z2p5_km = NAN};
    for (int k = 0; k < nm && !rc; k++) {
        rc = gmpe_psha_ruptures(ml->set.name[k], &gp, fr, n, lnm + k * n, rups + k * n, err);
        sets[k] = rups + k * n, counts[k] = n;
    }
    if (!rc) {
        cs_error e;
        cs_error_clear(&e);
        int lrc = disagg_level_for_mean(sets, counts, ml->w, nm, rq->years, rq->annual, v, &e);
        if (lrc == CS_ERR_INPUT)
            *v = NAN; /* the curve stays below the probability: no level */
        else if (lrc)
            *err = e, rc = lrc;
    }
    free(fr);
    free(lnm);
    free(rups);
    return rc;
}

static int alloc_grid(hazard_basemap *b, cs_error *err) {
    const long nn = (long)b->nlon * b->nlat;
    b->vs30 = malloc(sizeof(double) * 4 * (size_t)nn);
    if (!b->vs30) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory (%ld grid nodes)", nn);
    b->base = b->vs30 + nn, b->diff = b->vs30 + 2 * nn, b->comb = b->vs30 + 3 * nn;
    b->nodes = nn;
    return 0;
}

/* The grid over every site of the map plus the margin: a step in degrees on multiples of it,
 * or a spacing in km (degrees of latitude at the mean radius, of longitude at the box's middle
 * latitude) from the box's south-west corner. */
static int make_grid(const hazard_map *m, const hazard_basemap_request *rq, hazard_basemap *b,
                     cs_error *err) {
    double lo0 = INFINITY, lo1 = -INFINITY, la0 = INFINITY, la1 = -INFINITY;
    for (int i = 0; i < m->n; i++) {
        lo0 = fmin(lo0, m->lon[i]), lo1 = fmax(lo1, m->lon[i]);
        la0 = fmin(la0, m->lat[i]), la1 = fmax(la1, m->lat[i]);
    }
    const double k = cos(0.5 * (la0 + la1) * M_PI / 180);
    const double mlat = rq->margin_km / KM_PER_DEG, mlon = rq->margin_km / (KM_PER_DEG * k);
    if (rq->step_deg > 0) {
        const double s = rq->step_deg;
        const double i0 = floor((lo0 - mlon) / s + 1e-9), i1 = ceil((lo1 + mlon) / s - 1e-9);
        const double j0 = floor((la0 - mlat) / s + 1e-9), j1 = ceil((la1 + mlat) / s - 1e-9);
        b->dlon = b->dlat = s;
        b->lon0 = i0 * s, b->lat0 = j0 * s;
        if (i1 - i0 + 1 > 1e7 || j1 - j0 + 1 > 1e7)
            return cs_error_input(err, "--grid-step", NULL, NULL, "%g degrees: too many nodes", s);
        b->nlon = (int)(i1 - i0) + 1, b->nlat = (int)(j1 - j0) + 1;
    } else {
        b->dlat = rq->spacing_km / KM_PER_DEG, b->dlon = rq->spacing_km / (KM_PER_DEG * k);
        b->lon0 = lo0 - mlon, b->lat0 = la0 - mlat;
        const double nx = ceil((lo1 + mlon - b->lon0) / b->dlon - 1e-9) + 1;
        const double ny = ceil((la1 + mlat - b->lat0) / b->dlat - 1e-9) + 1;
        if (nx > 1e7 || ny > 1e7)
            return cs_error_input(err, "--spacing", NULL, NULL, "%g km: too many nodes",
                                  rq->spacing_km);
        b->nlon = (int)nx, b->nlat = (int)ny;
    }
    if ((double)b->nlon * b->nlat > MAX_NODES)
        return cs_error_input(err, rq->step_deg > 0 ? "--grid-step" : "--spacing", NULL, NULL,
                              "the grid would have %d x %d nodes, more than %ld: a coarser grid "
                              "or a smaller margin",
                              b->nlon, b->nlat, MAX_NODES);
    return 0;
}

/* The process's CPU time (every thread's), s: on a shared machine the wall time per node says
 * more about the other programs than about this one. */
static double cpu_seconds(void) {
    struct timespec ts;
    return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) ? NAN : ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Every node's Vs30 and basemap value, in parallel blocks, with progress. */
static int compute_nodes(const hazard_forecast *f, const hazard_basemap_request *rq,
                         const model_list *ml, hazard_basemap *b, cs_error *err) {
    const long nn = b->nodes;
    cs_error *errs = calloc(BLOCK, sizeof *errs);
    int *rcs = calloc(BLOCK, sizeof *rcs);
    if (!errs || !rcs) {
        free(errs), free(rcs);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    cs_progress prog;
    cs_progress_begin(&prog, "basemap", nn, "nodes");
    const double t0 = cs_now(), c0s = cpu_seconds();
    b->threads = omp_get_max_threads();
    int rc = 0;
    for (long c0 = 0; c0 < nn && !rc; c0 += BLOCK) {
        const long n = nn - c0 < BLOCK ? nn - c0 : BLOCK;
#pragma omp parallel for schedule(dynamic, 1)
        for (long q = 0; q < n; q++) {
            const long node = c0 + q;
            const double lon = b->lon0 + (double)(node % b->nlon) * b->dlon;
            const double lat = b->lat0 + (double)(node / b->nlon) * b->dlat;
            cs_error_clear(&errs[q]);
            rcs[q] = vs30_at(rq, lon, lat, &b->vs30[node], &errs[q]);
            if (!rcs[q])
                rcs[q] = level_at(f, rq, ml, lon, lat, b->vs30[node], &b->base[node], &errs[q]);
        }
        for (long q = 0; q < n && !rc; q++)
            if (rcs[q]) *err = errs[q], rc = rcs[q];
        cs_progress_update(&prog, c0 + n);
    }
    if (!rc) cs_progress_end(&prog);
    b->seconds = cs_now() - t0;
    b->cpu_seconds = cpu_seconds() - c0s;
    free(errs), free(rcs);
    return rc;
}

/* The sites: CyberShake's level, the basemap there (same Vs30 field), their difference. */
static int compute_sites(const hazard_forecast *f, const hazard_map *m,
                         const hazard_basemap_request *rq, const model_list *ml, hazard_basemap *b,
                         cs_error *err) {
    b->names = malloc(sizeof(char *) * (size_t)(m->n + 1));
    b->slon = malloc(sizeof(double) * 7 * (size_t)(m->n + 1));
    if (!b->names || !b->slon) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    const int cap = m->n + 1;
    b->slat = b->slon + cap, b->svs30 = b->slon + 2 * cap, b->cs = b->slon + 3 * cap;
    b->sbase = b->slon + 4 * cap, b->sdiff = b->slon + 5 * cap, b->sinterp = b->slon + 6 * cap;
    b->ns = 0;
    for (int i = 0; i < m->n; i++) {
        if (!m->run[i]) continue;
        const int s = b->ns++;
        b->names[s] = m->names[i], b->slon[s] = m->lon[i], b->slat[s] = m->lat[i];
        b->cs[s] = m->value[i];
        CS_CALL(err, vs30_at(rq, m->lon[i], m->lat[i], &b->svs30[s], err));
        CS_CALL(err, level_at(f, rq, ml, m->lon[i], m->lat[i], b->svs30[s], &b->sbase[s], err));
        b->sdiff[s] = b->cs[s] - b->sbase[s]; /* NAN where the basemap has no value */
        b->sinterp[s] = NAN;
    }
    return 0;
}

/* The thin-plate spline through the sites' differences, over the grid, tapered. */
static int interpolate(const hazard_basemap_request *rq, hazard_basemap *b, cs_error *err) {
    double *x = malloc(sizeof(double) * 3 * (size_t)(b->ns + 1));
    int *idx = malloc(sizeof(int) * (size_t)(b->ns + 1));
    if (!x || !idx) {
        free(x), free(idx);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    double *y = x + b->ns, *z = x + 2 * b->ns;
    int n = 0;
    b->lon_ref = b->lat_ref = 0;
    for (int s = 0; s < b->ns; s++)
        if (isfinite(b->sdiff[s])) b->lon_ref += b->slon[s], b->lat_ref += b->slat[s], n++;
    if (n == 0) {
        free(x), free(idx);
        for (long q = 0; q < b->nodes; q++)
            b->diff[q] = isfinite(b->base[q]) ? 0 : NAN, b->comb[q] = b->base[q];
        b->nused = 0;
        return 0;
    }
    b->lon_ref /= n, b->lat_ref /= n;
    n = 0;
    for (int s = 0; s < b->ns; s++) {
        if (!isfinite(b->sdiff[s])) continue;
        hazard_basemap_plane(b, b->slon[s], b->slat[s], &x[n], &y[n]);
        z[n] = b->sdiff[s], idx[n++] = s;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (hypot(x[i] - x[j], y[i] - y[j]) < 1e-6) {
                int rc = cs_error_input(err, "sites", NULL, b->names[idx[i]],
                                        "is at the place of site %s: one difference a place",
                                        b->names[idx[j]]);
                free(x), free(idx);
                return rc;
            }
    double zlo = INFINITY, zhi = -INFINITY;
    for (int i = 0; i < n; i++)
        zlo = fmin(zlo, z[i]), zhi = fmax(zhi, z[i]);
    hazard_tps t;
    int rc = hazard_tps_fit(n, x, y, z, &t, err);
    if (!rc) {
        b->nused = n;
        for (int i = 0; i < n; i++)
            b->sinterp[idx[i]] = hazard_tps_eval(&t, x[i], y[i]);
#pragma omp parallel for schedule(static)
        for (long q = 0; q < b->nodes; q++) {
            double px, py, dmin = INFINITY;
            hazard_basemap_plane(b, b->lon0 + (double)(q % b->nlon) * b->dlon,
                                 b->lat0 + (double)(q / b->nlon) * b->dlat, &px, &py);
            for (int i = 0; i < n; i++)
                dmin = fmin(dmin, hypot(px - x[i], py - y[i]));
            const double w = hazard_basemap_taper(dmin, rq->radius_km);
            const double d = w > 0 ? w * fmin(fmax(hazard_tps_eval(&t, px, py), zlo), zhi) : 0;
            b->diff[q] = isfinite(b->base[q]) ? d : NAN;
            b->comb[q] = b->base[q] + d;
        }
        hazard_tps_free(&t);
    }
    free(x), free(idx);
    return rc;
}

int hazard_basemap_compute(const hazard_forecast *f, const hazard_map *m,
                           const hazard_basemap_request *rq, hazard_basemap *b, cs_error *err) {
    memset(b, 0, sizeof *b);
    model_list ml;
    CS_CALL(err, parse_models(rq->models, &ml, err));
    int rc = make_grid(m, rq, b, err) || alloc_grid(b, err) ||
             compute_sites(f, m, rq, &ml, b, err) || compute_nodes(f, rq, &ml, b, err) ||
             interpolate(rq, b, err);
    if (rc) {
        hazard_basemap_free(b);
        return (int)err->status;
    }
    for (long q = 0; q < b->nodes; q++) {
        b->nodes_nan += !isfinite(b->base[q]);
        b->nodes_nonpositive += isfinite(b->comb[q]) && b->comb[q] <= 0;
    }
    return 0;
}

void hazard_basemap_free(hazard_basemap *b) {
    free(b->vs30);
    free(b->names);
    free(b->slon);
    memset(b, 0, sizeof *b);
}
