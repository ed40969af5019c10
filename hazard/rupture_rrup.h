/* A rupture's distance from a site for the hazard stage: Rrup, the least of sqrt(d^2 + z^2)
 * over the rupture's points, d the geodesic distance on the WGS84 ellipsoid from the site to
 * the point's surface position and z its depth (km). */
#ifndef RUPTURE_RRUP_H
#define RUPTURE_RRUP_H

/* Rrup (km) of n points (lon, lat in degrees, depth in km; 0 when n is 0). scratch holds n
 * doubles. The same value, bit for bit, as the geodesic at every point: the sphere bounds each
 * point's distance first and only those that could be the least get the geodesic. */
double hazard_rrup_km(double site_lon, double site_lat, const double *lon, const double *lat,
                      const double *depth_km, long n, double *scratch);

#endif
