/* The summary `cybershake plan` prints of a site's plan: ruptures, box, grid, save points, and
 * what one force run will cost. */
#include <stdio.h>

#include "cs_progress.h"
#include "site_plan.h"

/* Rates measured on this project's solver (docs/performance.md), for the time estimate. */
#define GPU_LUPS       8.2e9 /* one H200, viscoelastic, whole solver */
#define CPU_LUPS       15e6  /* 2-core VM, viscoelastic */
#define BYTES_PER_NODE 80.0  /* viscoelastic fields, memory variables, material (float32) */

void site_plan_report(FILE *out, const site_plan *p, const plan_options *o, const char *site,
                      const char *erf, const char *params) {
    double nodes = (double)p->nx * p->ny * p->nz;
    fprintf(out, "site %s on forecast %s: %d ruptures within %g km\n", site, erf, p->nruptures,
            o->cutoff_km);
    fprintf(out, "box (rotation %g deg), corners lon lat:\n", o->rotation);
    for (int i = 0; i < 4; i++)
        fprintf(out, "  %.6f %.6f\n", p->corner_lon[i], p->corner_lat[i]);
    fprintf(out,
            "grid: %d x %d x %d nodes, h = %g m (min Vs %.0f m/s, fmax %g Hz), dt = %g s "
            "(max Vp %.0f m/s), nt = %d (%.1f s)\n",
            p->nx, p->ny, p->nz, p->h, p->vs_min, o->fmax, p->dt, p->vp_max, p->nt, p->nt * p->dt);
    fprintf(out, "save points: %ld (%ld rupture points and the adaptive mesh, deduplicated)\n",
            p->npoints, p->nrupture_points);
    char gpu[32], cpu[32];
    cs_format_duration(nodes * p->nt / GPU_LUPS, gpu, sizeof gpu);
    cs_format_duration(nodes * p->nt / CPU_LUPS, cpu, sizeof cpu);
    fprintf(
        out,
        "per force run: about %.3g GB of memory; about %s on one H200 (8.2 G LUPS), %s on 2 CPU "
        "cores (15 M LUPS)\n",
        nodes * BYTES_PER_NODE / 1e9, gpu, cpu);
    fprintf(out, "wrote %s\n", params);
}
