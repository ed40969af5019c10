#include "rupture_rrup.h"

#include <math.h>

#include "cs_geo.h"

double hazard_rrup_km(double site_lon, double site_lat, const double *lon, const double *lat,
                      const double *depth_km, long n, double *scratch) {
    /* The geodesic (Karney) costs several times the sphere's haversine, and a site's ruptures
     * have ~16 M points: every IM type's per-rupture arrays took 22 s of the production-shaped
     * site's hazard step. With e = CS_GEO_SPHERE_ERROR, a point's geodesic d lies within
     * s (1 +- e) of its spherical distance s, so its Rrup lies within [lo, hi] below; a point
     * whose lo exceeds the least hi cannot be the least. */
    const double e = CS_GEO_SPHERE_ERROR;
    double least_hi = INFINITY;
    for (long q = 0; q < n; q++) {
        double s = cs_geo_distance_sphere(site_lon, site_lat, lon[q], lat[q]) * 1e-3,
               z = depth_km[q], a = s * (1 + e);
        scratch[q] = s;
        least_hi = fmin(least_hi, sqrt(a * a + z * z));
    }
    double best = INFINITY;
    for (long q = 0; q < n; q++) {
        double b = scratch[q] * (1 - e), z = depth_km[q];
        if (sqrt(b * b + z * z) > least_hi) continue;
        double d = cs_geo_distance(site_lon, site_lat, lon[q], lat[q]) * 1e-3;
        best = fmin(best, sqrt(d * d + z * z));
    }
    return isfinite(best) ? best : 0;
}
