#include "extract_rupture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void extract_rupture_result_free(rupture_result *res) {
    free(res->ims);
    free(res->hypo);
    free(res->seis);
    memset(res, 0, sizeof *res);
}

static int alloc_result(rupture_result *out, int nvar, int nim, int nt, int want_seis,
                        cs_error *err) {
    memset(out, 0, sizeof *out);
    out->nvar = nvar;
    out->nim = nim;
    out->nt = nt;
    out->ims = malloc(sizeof(double) * (size_t)nvar * (size_t)nim + 1);
    out->hypo = malloc(sizeof(double) * 4 * (size_t)nvar + 1);
    if (want_seis) out->seis = malloc(sizeof(float) * 3 * (size_t)nt * (size_t)nvar + 1);
    if (!out->ims || !out->hypo || (want_seis && !out->seis)) {
        extract_rupture_result_free(out);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d variations", nvar);
    }
    return 0;
}

static int one_record(extract_worker *w, const synth_cache *cache, const synth_subfault *sf,
                      long nsf, double *vel, rupture_result *out, int v, cs_error *err) {
    int nt = w->synth->nt;
    CS_CALL(err, w->method == SYNTH_TIME ? synth_time(w->synth, cache, sf, nsf, vel, err)
                                         : synth_frequency(w->synth, cache, sf, nsf, vel, err));
    CS_CALL(err, im_compute(w->ims, vel, nt, w->synth->dt, out->ims + (size_t)v * out->nim, err));
    if (out->seis)
        for (size_t i = 0; i < 3 * (size_t)nt; i++)
            out->seis[(size_t)v * 3 * nt + i] = (float)vel[i];
    /* a horizontal-only set simulated no vertical motion: NaN, never a zero that reads as data */
    if (out->seis && !w->sgt->has_force[2])
        for (size_t i = 2 * (size_t)nt; i < 3 * (size_t)nt; i++)
            out->seis[(size_t)v * 3 * nt + i] = NAN;
    return 0;
}

static int generated(extract_worker *w, const erf_rupture *r, int nvar, rupture_result *out,
                     double *vel, cs_error *err) {
    int n = erf_rupture_npoints(r);
    long *points = malloc(sizeof(long) * (size_t)n);
    synth_subfault *sf = malloc(sizeof *sf * (size_t)n);
    double *m6 = malloc(sizeof(double) * 6 * (size_t)n);
    /* the generator's medium: Vs and density of the SGT's material at each point's node, the
     * rigidity the synthesis uses, so each variation's moment is its magnitude's */
    double *vs = malloc(sizeof(double) * 2 * (size_t)n), *rho = vs ? vs + n : NULL;
    double *sr = NULL;
    synth_cache cache = {0};
    int rc = -1;
    if (!points || !sf || !m6 || !vs) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a rupture of %d points", n);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        if ((rc = sgt_set_locate(w->sgt, r->lon[i], r->lat[i], r->dep[i], &points[i], err)) ||
            (rc = synth_moment_tensor(w->sgt, r->lon[i], r->lat[i], r->stk[i], r->dip[i],
                                      r->rake[i], m6 + 6 * i, err))) {
            cs_error_prefix(err, "source %lld rupture %lld point %d: ", r->source_id, r->rupture_id,
                            i);
            CS_TRACE(err);
            goto out;
        }
        double mu = w->sgt->material[3 * points[i] + 1];
        rho[i] = w->sgt->material[3 * points[i] + 2];
        vs[i] = rho[i] > 0 && mu > 0 ? sqrt(mu / rho[i]) : 0;
    }
    CS_CALL_GOTO(rc, err, synth_cache_load(w->synth, points, n, w->method, m6, &cache, err), out);
    for (int v = 0; v < nvar; v++) {
        srf_file srf;
        rupgen_info info;
        CS_CALL_GOTO(rc, err, rupgen_variation_in(r, w->gen, vs, rho, v, &srf, &info, err), out);
        double *grown = realloc(sr, sizeof(double) * (size_t)(srf.nsamples ? srf.nsamples : 1));
        if (!grown) {
            srf_free(&srf);
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for slip rates");
            goto out;
        }
        sr = grown;
        long at = 0;
        for (int i = 0; i < n; i++) {
            const srf_point *p = &srf.points[i];
            synth_subfault *q = &sf[i];
            memcpy(q->m, m6 + 6 * i, sizeof q->m);
            q->slot = i;
            q->scale = w->sgt->material[3 * points[i] + 1] * p->area * 1e-4;
            q->tinit = p->tinit;
            q->dt_s = p->dt;
            q->nsr = p->nt[0];
            q->sr = sr + at;
            for (int j = 0; j < p->nt[0]; j++)
                sr[at + j] = p->sr[0][j] * 0.01;
            at += p->nt[0];
        }
        srf_free(&srf);
        out->hypo[4 * v] = info.hypo_lat;
        out->hypo[4 * v + 1] = info.hypo_lon;
        out->hypo[4 * v + 2] = info.hypo_depth;
        out->hypo[4 * v + 3] = info.slip_index;
        if ((rc = one_record(w, &cache, sf, n, vel, out, v, err))) {
            cs_error_prefix(err, "source %lld rupture %lld variation %d: ", r->source_id,
                            r->rupture_id, v);
            CS_TRACE(err);
            goto out;
        }
    }
    rc = 0;
out:
    synth_cache_free(&cache);
    free(points);
    free(sf);
    free(m6);
    free(vs);
    free(sr);
    return rc;
}

static int from_files(extract_worker *w, int nvar, char *const *lfns, rupture_result *out,
                      double *vel, cs_error *err) {
    for (int v = 0; v < nvar; v++) {
        srf_file srf;
        CS_CALL(err, srf_read(lfns[v], &srf, err));
        synth_subfault *sf = NULL;
        long nsf = 0, *points = NULL, npoints = 0;
        double *sr = NULL;
        synth_cache cache = {0};
        long first = 0;
        int rc;
        CS_CALL_GOTO(rc, err,
                     synth_subfaults_from_srf(w->sgt, &srf, &sf, &nsf, &points, &npoints, &sr, err),
                     hypocentre);
        CS_CALL_GOTO(rc, err,
                     synth_cache_load(w->synth, points, npoints, w->method, NULL, &cache, err),
                     hypocentre);
        CS_CALL_GOTO(rc, err, one_record(w, &cache, sf, nsf, vel, out, v, err), hypocentre);
    hypocentre:
        /* the hypocentre: the first point to rupture */
        for (long i = 1; i < srf.npoints; i++)
            if (srf.points[i].tinit < srf.points[first].tinit) first = i;
        out->hypo[4 * v] = srf.npoints ? srf.points[first].lat : NAN;
        out->hypo[4 * v + 1] = srf.npoints ? srf.points[first].lon : NAN;
        out->hypo[4 * v + 2] = srf.npoints ? srf.points[first].dep : NAN;
        out->hypo[4 * v + 3] = 0;
        synth_cache_free(&cache);
        free(sf);
        free(points);
        free(sr);
        srf_free(&srf);
        if (rc) {
            cs_error_prefix(err, "%s: ", lfns[v]);
            return rc;
        }
    }
    return 0;
}

int extract_rupture(extract_worker *w, const erf_rupture *r, int nvar, char *const *lfns,
                    rupture_result *out, cs_error *err) {
    CS_CALL(err, alloc_result(out, nvar, w->nim, w->synth->nt, w->want_seis, err));
    double *vel = malloc(sizeof(double) * 3 * (size_t)w->synth->nt);
    if (!vel) {
        extract_rupture_result_free(out);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    int rc = lfns ? from_files(w, nvar, lfns, out, vel, err) : generated(w, r, nvar, out, vel, err);
    free(vel);
    if (rc) extract_rupture_result_free(out);
    return rc;
}
