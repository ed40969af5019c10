#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgt_run.h"

double sgt_cfl_limit(double h, double vp_max) {
    /* Von Neumann limit of the 4th-order staggered scheme in 3D:
     * dt vp / h <= 1 / (sqrt(3) (|c1| + |c2|)) = 0.4949. */
    return h / (vp_max * sqrt(3.0) * (9.0 / 8.0 + 1.0 / 24.0));
}

int sgt_check_stability(const sgt_config *c, const sgt_mesh_stats *st, cs_error *err) {
    double lim = sgt_cfl_limit(c->h, st->vp_max);
    if (c->dt > lim) {
        char v[64];
        snprintf(v, sizeof v, "%g s", c->dt);
        return cs_error_input(err, "stability (CFL)", "dt", v,
                              "too large: vp = %.1f m/s at node (%d, %d, %d) with h = %g m allows "
                              "at most dt = %.4g s (dt vp / h <= 0.495); lower dt or raise h",
                              st->vp_max, st->vp_max_at[0], st->vp_max_at[1], st->vp_max_at[2],
                              c->h, lim);
    }
    double ppw = st->vs_min_seen / c->fmax / c->h;
    /* relative slack for round-off: exactly the required count (6.00) must pass */
    if (ppw < c->min_ppw * (1 - 1e-9)) {
        char v[64];
        snprintf(v, sizeof v, "%g m", c->h);
        return cs_error_input(err, "resolution", "h", v,
                              "too coarse: vs = %.1f m/s at node (%d, %d, %d) and fmax = %g Hz "
                              "give %.2f points per S wavelength, fewer than %g; use h <= %.4g m, "
                              "fmax <= %.4g Hz, or a higher vs_min",
                              st->vs_min_seen, st->vs_min_at[0], st->vs_min_at[1], st->vs_min_at[2],
                              c->fmax, ppw, c->min_ppw, st->vs_min_seen / c->fmax / c->min_ppw,
                              st->vs_min_seen / c->h / c->min_ppw);
    }
    if (!c->stf_from_file && c->mode == SGT_MODE_SGT) {
        /* The impulse has energy up to 1.5 fmax: the saved samples must resolve it (receivers
         * record every step, whatever the decimation). */
        double dto = c->dt * c->decimation;
        if (dto > 1.0 / (3.0 * c->fmax) + 1e-12) {
            char v[32];
            snprintf(v, sizeof v, "%d", c->decimation);
            return cs_error_input(err, "output sampling", "decimation", v,
                                  "saves every %g s, but the source has energy up to %g Hz "
                                  "(1.5 fmax) and needs samples at most %g s apart; lower the "
                                  "decimation to <= %d",
                                  dto, 1.5 * c->fmax, 1.0 / (3.0 * c->fmax),
                                  (int)floor(1.0 / (3.0 * c->fmax) / c->dt));
        }
    }
    return 0;
}

static int check_node(const sgt_config *c, const int *p, const char *what, const char *place,
                      int allow_surface, cs_error *err) {
    int w = c->absorb.width;
    int n[3] = {c->nx, c->ny, c->nz};
    char v[64];
    snprintf(v, sizeof v, "%d %d %d", p[0], p[1], p[2]);
    for (int a = 0; a < 3; a++)
        if (p[a] < 0 || p[a] >= n[a])
            return cs_error_input(err, place, what, v,
                                  "lies outside the grid of %d x %d x %d nodes", c->nx, c->ny,
                                  c->nz);
    for (int a = 0; a < 2; a++)
        if (p[a] < w || p[a] > n[a] - 1 - w)
            return cs_error_input(err, place, what, v,
                                  "lies in the absorbing layer (%d nodes on every side): %c must "
                                  "lie in [%d, %d]; enlarge the box or narrow absorbing_width",
                                  w, "xy"[a], w, n[a] - 1 - w);
    int kmin = c->free_surface ? 0 : w;
    if (c->free_surface && !allow_surface) kmin = 2;
    if (p[2] < kmin || p[2] > c->nz - 1 - w)
        return cs_error_input(
            err, place, what, v,
            "k must lie in [%d, %d] (%s, absorbing layer of %d nodes at the "
            "bottom); move it or enlarge the box",
            kmin, c->nz - 1 - w,
            c->free_surface
                ? (allow_surface ? "free surface at k = 0" : "moment sources at least 2 nodes deep")
                : "absorbing top",
            w);
    return 0;
}

int sgt_check_points(const sgt_config *c, cs_error *err) {
    char place[4400];
    int allow_surface = c->source_kind == SGT_SOURCE_FORCE;
    CS_CALL(err, check_node(c, c->src, "source node", "source", allow_surface, err));
    for (long p = 0; p < c->npoints; p++) {
        if (c->point_lines)
            snprintf(place, sizeof place, "%s:%d", c->point_file, c->point_lines[p]);
        else
            snprintf(place, sizeof place, "save point %ld", p);
        CS_CALL(err, check_node(c, c->pts + 3 * p, "save point", place, 1, err));
    }
    for (int r = 0; r < c->nrec; r++) {
        if (c->rec_lines)
            snprintf(place, sizeof place, "%s:%d", c->receivers, c->rec_lines[r]);
        else
            snprintf(place, sizeof place, "receiver %d", r);
        CS_CALL(err, check_node(c, c->recs + 3 * r, "receiver", place, 1, err));
    }
    return 0;
}

/* MemAvailable, or CYBERSHAKE_MEMORY_GB where the system under-reports what a process may use
 * (virtual machines whose memory grows as it is used). */
static double available_memory(void) {
    const char *env = getenv("CYBERSHAKE_MEMORY_GB");
    if (env && atof(env) > 0) return atof(env) * 1e9;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return INFINITY;
    char line[256];
    double kb = INFINITY;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024.0;
}

int sgt_check_memory(double bytes_needed, const char *what, cs_error *err) {
    double avail = available_memory();
    if (bytes_needed > avail)
        return cs_error_input(err, "memory", what, NULL,
                              "needs %.2f GB but %.2f GB are available; use a smaller grid, "
                              "fewer save points, a larger decimation or more ranks",
                              bytes_needed / 1e9, avail / 1e9);
    return 0;
}
