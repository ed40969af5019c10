/* Standard Rupture Format (SRF), versions 1.0 and 2.0 (Graves; the SCEC Broadband Platform's
 * description): a kinematic rupture as point sources on one or more planes.
 *
 *   VERSION                      "1.0" or "2.0"; 2.0 may follow with '#' comment lines
 *   PLANE nplanes                then per plane two lines:
 *     ELON ELAT NSTK NDIP LEN WID        top-centre lon/lat, subfaults, length and width (km)
 *     STK DIP DTOP SHYP DHYP             strike, dip (deg), top depth, hypocentre along strike
 *                                         from the centre and down dip from the top (km)
 *   POINTS npoints               one block per plane, then per point:
 *     LON LAT DEP STK DIP AREA TINIT DT [VS DEN]   (km, deg, cm^2, s, s; 2.0: cm/s, g/cm^3)
 *     RAKE SLIP1 NT1 SLIP2 NT2 SLIP3 NT3           (deg, cm, samples)
 *     NT1 + NT2 + NT3 slip-rate samples (cm/s), any number per line
 *
 * The reader keeps every number as written (doubles parsed from the text) and the writer prints
 * each with the fewest digits that read back to the same double, so a file read and written
 * again reads back with every number unchanged. Errors name the file and line. */
#ifndef SRF_H
#define SRF_H

#include "cs_error.h"

typedef struct {
    double elon, elat;
    int nstk, ndip;
    double len, wid;
    double stk, dip, dtop, shyp, dhyp;
} srf_plane;

typedef struct {
    double lon, lat, dep, stk, dip, area, tinit, dt;
    double vs, den; /* 2.0 only (cm/s, g/cm^3); NAN in 1.0 */
    double rake, slip[3];
    int nt[3];
    double *sr[3]; /* into the file's sample storage */
} srf_point;

typedef struct {
    int version; /* 1 or 2 */
    char **comments;
    int ncomments;
    int nplanes;
    srf_plane *planes;
    long *block_start, *block_count; /* the POINTS block of each plane */
    long npoints;
    srf_point *points;
    double *samples;
    long nsamples;
} srf_file;

int srf_read(const char *path, srf_file *s, cs_error *err);
/* Writes atomically (temporary name, rename); sha may be NULL. */
int srf_write(const char *path, const srf_file *s, char sha[65], cs_error *err);
void srf_free(srf_file *s);

/* Allocates an empty SRF with room for the points and samples given (for writers). */
int srf_alloc(srf_file *s, int version, int nplanes, long npoints, long nsamples, cs_error *err);

/* Total seismic moment (N*m) with the shear modulus rho vs^2 of each point (2.0), or from
 * mu_at_depth(depth_km) (N/m^2) when given (1.0 has no vs, den). */
double srf_moment(const srf_file *s, double (*mu_at_depth)(double depth_km, void *ctx), void *ctx);

/* Moment magnitude as this toolkit defines it everywhere (ERF moment rates, rupture
 * generator): M0 = 10^(1.5 Mw + 16.05) dyne-cm = 10^(1.5 Mw + 9.05) N*m (Hanks and Kanamori
 * 1979), the relation of the NSHM files' moment rates. */
double srf_moment_of_magnitude(double mw);
double srf_magnitude_of_moment(double m0);
/* The definition genslip (Graves and Pitarka's generator, v5.x) scales its slip to:
 * log10 M0[dyne-cm] = 1.5 (Mw + 10.73), 1.04 times the Hanks-Kanamori moment. The public GP
 * SRF's moment matches it to 3e-5 relative (tests/unit/test_srf.c). */
double srf_gp_moment_of_magnitude(double mw);

#endif
