/* Source-to-site distances of a rupture from its gridded surface (docs/erf.md), as the
 * ground-motion models define them:
 *   Rrup  the closest distance to the surface's points;
 *   Rjb   the closest horizontal distance to their surface projection (over the grid points, so
 *         within half a grid spacing of the continuous value above the rupture);
 *   Rx    the horizontal distance from the top edge, perpendicular to strike, positive on the
 *         hanging-wall side (to the right of strike, where the surface dips): for a trace of
 *         several segments, the T coordinate of Spudich and Chiou's (2015) generalized
 *         coordinate system GC2, a weighted mean of the segments' perpendicular distances that
 *         is continuous across bends and equals the plain perpendicular distance for one
 *         segment, its extension included;
 *   Ztor  the depth of the top edge (the shallowest row).
 * A surface of one point is a point source: Rrup hypocentral, Rjb epicentral and, having no
 * hanging wall, Rx = -Rjb (the footwall convention, which switches hanging-wall terms off).
 * Horizontal distances are geodesic (WGS84): every trace point is placed in the azimuthal
 * equidistant frame of the site, exact for the distances from the site. */
#ifndef ERF_DISTANCE_H
#define ERF_DISTANCE_H

#include "cs_error.h"

typedef struct {
    double rrup, rjb, rx, ztor; /* km */
} erf_distances;

/* Points row-major, nrows x ncols, row 0 the top edge from its first to its last column along
 * strike (erf_rupture's layout); depths in km. */
int erf_distances_at(const double *lat, const double *lon, const double *dep, int nrows, int ncols,
                     double site_lon, double site_lat, erf_distances *out, cs_error *err);

/* GC2's T for a polyline trace of n points given in a site-centred frame (x east, y north, km;
 * the site at the origin): the Rx of the trace. */
double erf_gc2_t(const double *x, const double *y, int n);

#endif
