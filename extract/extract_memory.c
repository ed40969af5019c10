#include "extract_memory.h"

#include "cs_log.h"

/* Bytes held whatever the plan: the results, the synthesis context, one variation's subfaults
 * with their slip rates (counted at 256 samples a subfault: the generator's average about 20,
 * CyberShake's SRFs under 100; the generator's realisations, each about 20 samples, 16 edge
 * times and 6 other values a point, fit in it for the workflow's 2 slips and up to 5). */
static double fixed_bytes(const synth_ctx *c, long n, const rupture_result *out) {
    double results = (double)out->nvar * (out->nim + 4) * sizeof(double);
    if (out->seis) results += 3.0 * out->nt * out->nvar * sizeof(float);
    double fft = (double)c->L * c->up * (sizeof(double) + sizeof(double complex) / 2) +
                 14.0 * c->L * sizeof(double) + 3.0 * c->nf * sizeof(double complex);
    double subfaults = (double)n * (sizeof(synth_subfault) + 2 * sizeof(long) + 8 * sizeof(double) +
                                    256 * sizeof(double));
    return results + fft + subfaults;
}

int extract_memory_plan_make(const synth_ctx *c, long n, int nvar, int combined, int method,
                             double limit, const rupture_result *out, extract_memory_plan *p,
                             cs_error *err) {
    p->limit = limit > 0 ? limit : EXTRACT_DEFAULT_MEMORY;
    p->batch = 1;
    double fixed = fixed_bytes(c, n, out), row = 18.0 * c->nt_sgt * sizeof(float);
    if (method == SYNTH_TIME) {
        p->chunk = n;
        p->block = n;
        p->planned = fixed + row * n;
        return 0;
    }
    double avail = p->limit - fixed;
    double per_point = synth_cache_point_bytes(c, combined);
    double acc = 3.0 * c->nf * sizeof(double complex);
    /* at least one point of strain, one point of spectra and one accumulator */
    if (avail < row + per_point + acc)
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "a rupture of %ld points and %d variations needs %.3g GB for its "
                            "results and buffers, more than the %.3g GB allowed (--max-memory)",
                            n, nvar, (fixed + row + per_point + acc) / 1e9, p->limit / 1e9);
    double block_bytes =
        SYNTH_STRAIN_BLOCK_BYTES < avail / 8 ? SYNTH_STRAIN_BLOCK_BYTES : avail / 8;
    p->block = synth_strain_block(c, block_bytes);
    if (p->block > n) p->block = n > 0 ? n : 1;
    /* the block, and the reader's buffer of one force's third of it */
    double strain = row * p->block * 4 / 3;
    if (n * per_point + strain <= avail) {
        p->chunk = n;
        p->planned = fixed + strain + n * per_point;
        cs_log(CS_LOG_DEBUG,
               "a rupture of %ld points whole: %.3g MB of spectra, %.3g MB of strain blocks, "
               "%.3g MB of results and buffers (%.3g MB allowed)",
               n, n * per_point / 1e6, strain / 1e6, fixed / 1e6, p->limit / 1e6);
        return 0;
    }
    /* a quarter for accumulators, the rest for the chunk's spectra */
    long batch = (long)((avail - strain) / 4 / acc);
    if (batch < 1) batch = 1;
    if (batch > nvar) batch = nvar > 0 ? nvar : 1;
    p->batch = (int)batch;
    p->chunk = (long)((avail - strain - batch * acc) / per_point);
    if (p->chunk < 1) p->chunk = 1;
    p->planned = fixed + strain + batch * acc + p->chunk * per_point;
    cs_log(CS_LOG_INFO,
           "a rupture of %ld points in chunks of %ld (%.3g GB of spectra, %.3g GB allowed), "
           "%d variations at a time",
           n, p->chunk, n * per_point / 1e9, p->limit / 1e9, p->batch);
    return 0;
}
