#include "gmpe_psha.h"

#include <math.h>
#include <string.h>

#include "gmpe.h"

int gmpe_psha_mode(const char *name) {
    return !strcmp(name, "untruncated") ? GMPE_SIGMA_UNTRUNCATED
           : !strcmp(name, "upper")     ? GMPE_SIGMA_UPPER
           : !strcmp(name, "two-sided") ? GMPE_SIGMA_TWO_SIDED
           : !strcmp(name, "zero")      ? GMPE_SIGMA_ZERO
                                        : -1;
}

int gmpe_psha_ruptures(const char *model, const gmpe_psha *p, const hazard_forecast_rupture *fr,
                       long n, double *lnm, hazard_rupture *rups, cs_error *err) {
    const int mode = p->mode;
    for (long q = 0; q < n; q++) {
        gmpe_value g;
        const gmpe_scenario sc = {.mag = fr[q].mag,
                                  .rake = fr[q].rake,
                                  .dip = fr[q].dip,
                                  .ztor = fr[q].d.ztor,
                                  .rrup = fr[q].d.rrup,
                                  .rjb = fr[q].d.rjb,
                                  .rx = fr[q].d.rx,
                                  .vs30 = p->vs30,
                                  .z1_m = p->z1_m,
                                  .width = NAN,
                                  .zhyp = NAN,
                                  .z2p5_km = p->z2p5_km,
                                  .ry0 = NAN};
        CS_CALL(err, gmpe_eval(model, p->period, &sc, &g, err));
        lnm[q] = mode == GMPE_SIGMA_ZERO ? exp(g.ln_median) : g.ln_median;
        rups[q] = (hazard_rupture){
            .prob = fr[q].prob,
            .nvalues = 1,
            .values = &lnm[q],
            .lognormal = mode != GMPE_SIGMA_ZERO,
            .sigma = g.sigma,
            .trunc = mode == GMPE_SIGMA_UPPER || mode == GMPE_SIGMA_TWO_SIDED ? p->truncation : 0,
            .upper_only = mode != GMPE_SIGMA_TWO_SIDED};
    }
    return 0;
}
