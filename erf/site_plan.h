/* Planning one site (docs/architecture.md, "plan"): the ruptures within the cutoff distance, the
 * simulation box and grid, and the SGT save points.
 *
 * Box: a local frame centred on the site (cs_geo), x along `rotation` (CyberShake: -55 deg);
 * the extent of the site and of every point of every selected rupture, widened by padding_km
 * plus the absorbing layer on each side, each horizontal length rounded up to a multiple of
 * round_km and then to a node count divisible by the MPI split; depth = the deepest rupture
 * point + padding_km + the absorbing layer, rounded up the same way. The site lies on a node.
 * Grid: h = min Vs / (fmax x points per wavelength), rounded down to a multiple of 10 m;
 * dt = 0.9 x the CFL limit for the largest Vp, rounded down to 10 us; nt covers the time for
 * waves at 1.5 km/s to cross from the site to the farthest save point, plus 20 s, plus the SGT
 * impulse's time shift (records end that much before the SGT), rounded up to a multiple of
 * the decimation.
 * Save points: every rupture point snapped to its nearest node, plus an adaptive mesh around
 * the site: every node within mesh_near_km, every 2nd node to twice that, every 4th to four
 * times, ... up to every mesh_max_stride-th node over the rest of the box, down to the deepest
 * rupture point; deduplicated, sorted by (k, j, i). */
#ifndef SITE_PLAN_H
#define SITE_PLAN_H

#include <stdio.h>

#include "cs_db.h"
#include "erf_medium.h"

typedef struct {
    double cutoff_km;     /* 200 */
    double fmax;          /* Hz, required */
    double ppw;           /* 5 */
    double vs_floor;      /* 500 m/s */
    double rotation;      /* -55 deg */
    double padding_km;    /* 30 */
    double round_km;      /* 10 */
    int absorbing_width;  /* 20 nodes */
    int ranks_x, ranks_y; /* 1, 1 */
    int decimation;       /* 10 */
    double mesh_near_km;  /* 5 */
    int mesh_max_stride;  /* 16 */
} plan_options;

void site_plan_defaults(plan_options *o);

typedef struct {
    long long site_id, erf_id;
    double site_lon, site_lat;
    int nruptures;
    long long *rup_source, *rup_rupture; /* selected ruptures */
    double *rup_dist;                    /* km */
    double h, dt, x0, y0;                /* m, s, box-frame m */
    int nx, ny, nz, nt;
    double vs_min, vp_max, max_depth_km, farthest_km;
    double corner_lon[4], corner_lat[4]; /* nodes (0,0), (nx-1,0), (nx-1,ny-1), (0,ny-1) */
    long npoints, nrupture_points;
    int *pts; /* npoints x (i, j, k) */
} site_plan;

/* Plans `site` (short name) on forecast erf_id of the open study. */
int site_plan_make(cs_db *db, const char *site, long long erf_id, const erf_medium *m,
                   const plan_options *o, site_plan *p, cs_error *err);
void site_plan_free(site_plan *p);

/* The plan's values in the box frame, so a build without geodesy (the GPU node's SGT-only
 * build) runs the parameter file unchanged: the source node, the box axes in East, North, Up
 * at it, and the box-frame unit vector of the E, N and Z forces (force[0..2]). Computed from
 * the values as the parameter file prints them. */
typedef struct {
    int source[3];
    double axes_enu[3][3];
    double force[3][3];
} site_plan_box;
int site_plan_box_values(const site_plan *p, const plan_options *o, site_plan_box *b,
                         cs_error *err);

/* Writes DIR/SITE.points ('i j k') and DIR/SITE.sgt.params (the SGT run's keys, geographic and
 * box-frame, less output and force_component) atomically, and records the plan, its files and the site's ruptures in
 * the study in one transaction. */
int site_plan_write(cs_db *db, const site_plan *p, const plan_options *o, const char *site,
                    const char *dir, const char *model_format, const char *model_file,
                    char *params_path, size_t params_size, cs_error *err);

/* The plan's summary (ruptures, box corners, grid, save points, the cost of one force run on a
 * GPU and on two CPU cores) and the parameter file written. */
void site_plan_report(FILE *out, const site_plan *p, const plan_options *o, const char *site,
                      const char *erf, const char *params);

#endif
