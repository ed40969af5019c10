/* Geodesy: geographic longitude/latitude (WGS84, degrees) to and from the local Cartesian frame
 * of a simulation box, through PROJ.
 *
 * The frame is a transverse Mercator projection (PROJ's exact algorithm) centred on
 * (lon0, lat0), then rotated so that the box's x axis points to `azimuth` degrees clockwise from
 * grid north, and y to azimuth + 90. With z pointing down this is right-handed, and with
 * azimuth 0 it is Aki & Richards' (x north, y east, z down). CyberShake's "-55 degree" boxes are
 * azimuth -55: x towards the north-west along the coast, y towards the north-east. */
#ifndef CS_GEO_H
#define CS_GEO_H

#include "cs_error.h"

typedef struct cs_geo_frame cs_geo_frame;

/* Largest distance from the frame origin (m) we accept; the projection stays exact to well under
 * a millimetre within it, and no simulation box is larger. */
#define CS_GEO_MAX_DISTANCE 4.0e6

int cs_geo_frame_create(double lon0, double lat0, double azimuth_deg, cs_geo_frame **out,
                        cs_error *err);
void cs_geo_frame_free(cs_geo_frame *f);

double cs_geo_frame_lon0(const cs_geo_frame *f);
double cs_geo_frame_lat0(const cs_geo_frame *f);
double cs_geo_frame_azimuth(const cs_geo_frame *f);

/* lon/lat (degrees) -> local x, y (m). Errors name the value and the valid range. */
int cs_geo_to_local(const cs_geo_frame *f, double lon, double lat, double *x, double *y,
                    cs_error *err);
/* local x, y (m) -> lon/lat (degrees). */
int cs_geo_to_geographic(const cs_geo_frame *f, double x, double y, double *lon, double *lat,
                         cs_error *err);

/* Unit vectors of the box axes x, y, z (z down) written in geographic East, North, Up
 * components at (lon, lat): axes[i] = {E, N, U} of box axis i. It includes the meridian
 * convergence of the projection at that point, so a seismogram's E and N components are true
 * geographic directions wherever the site lies in the box. */
int cs_geo_box_axes_enu(const cs_geo_frame *f, double lon, double lat, double axes[3][3],
                        cs_error *err);
/* The same where (lon, lat) is already at (x0, y0) in the frame (cs_geo_to_local's): one
 * projection fewer, the same axes bit for bit. */
int cs_geo_box_axes_enu_at(const cs_geo_frame *f, double lon, double lat, double x0, double y0,
                           double axes[3][3], cs_error *err);

/* Great-circle distance on the WGS84 ellipsoid (m), through PROJ's geodesic (Karney). */
double cs_geo_distance(double lon1, double lat1, double lon2, double lat2);
/* The same on a sphere of the mean radius (haversine): a few times cheaper, and within
 * CS_GEO_SPHERE_ERROR (relative) of the ellipsoid's distance, so it can bound which points need
 * the exact one (the ellipsoid's flattening makes the two differ by at most about 0.5%). */
#define CS_GEO_SPHERE_ERROR 0.01
double cs_geo_distance_sphere(double lon1, double lat1, double lon2, double lat2);
/* Azimuth (degrees clockwise from north) from point 1 to point 2 on the ellipsoid. */
double cs_geo_azimuth(double lon1, double lat1, double lon2, double lat2);
/* Both at once (one solution of the inverse problem): distance (m) and azimuth (degrees). */
void cs_geo_inverse(double lon1, double lat1, double lon2, double lat2, double *distance_m,
                    double *azimuth_deg);

/* The point `distance_m` from (lon, lat) along azimuth (degrees clockwise from north) on the
 * WGS84 ellipsoid (the direct geodesic problem). */
void cs_geo_destination(double lon, double lat, double azimuth_deg, double distance_m, double *lon2,
                        double *lat2);

/* Checks a geographic coordinate; `place` names where it came from. */
int cs_geo_check_lonlat(double lon, double lat, const char *place, cs_error *err);

#endif
