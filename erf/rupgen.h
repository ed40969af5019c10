/* Kinematic rupture variations in the manner of Graves and Pitarka (2010, 2016) (docs/extract.md).
 *
 * For a rupture of the forecast, variation k is slip realisation k / nhypo with hypocentre
 * k % nhypo; hypocentres lie on a regular grid along strike x down dip (hypo_spacing_km apart,
 * at least min_hypo each way, centred in equal cells). Each variation:
 *  - slip: a Gaussian random field filtered to the von Karman spectrum with Hurst exponent 1
 *    (amplitude falling as k^-2 beyond the corner 1/a), correlation lengths
 *    a_s = 10^(0.5 M - 2.5) km along strike and a_d = 10^(0.333 M - 1.5) km down dip (Mai and
 *    Beroza 2002, the lengths genslip uses), coefficient of variation slip_cv, kept positive,
 *    tapered at the sides and bottom, and scaled so that sum mu A s = M0 of the magnitude
 *    (Hanks-Kanamori) exactly;
 *  - rupture time: first arrival from the hypocentre over the surface (Dijkstra on the grid's
 *    16-neighbour stencil) at a local speed rvfrac x Vs, reduced to shallow_vr_factor x that
 *    above shallow_depth_km (linear over the next shallow_ramp_km), and sped up or slowed by up
 *    to vr_slip_gain where slip is above or below its mean: never faster than the fastest local
 *    speed, so no point ruptures before its distance over that speed;
 *  - rise time: tau = c (s / s_mean)^(1/2) with mean 1.6e-9 M0^(1/3) s (M0 in dyne-cm), doubled
 *    above shallow_depth_km (linear over the ramp), so it grows with slip at a given depth;
 *  - slip rate: the Liu, Archuleta and Hartzell (2006) function of that rise time, sampled at dt
 *    and normalised so its integral is the point's slip.
 * The only random part is the slip field, seeded by (seed, source, rupture, slip realisation),
 * and the rest follows from it and the hypocentre, so any variation can be made alone and
 * equals the same variation of a full run. */
#ifndef RUPGEN_H
#define RUPGEN_H

#include <stddef.h>

#include "cs_error.h"
#include "erf_rupture.h"
#include "rupgen_relax.h"
#include "srf.h"

typedef struct {
    double hypo_spacing_km; /* 4 */
    int min_hypo;           /* 3 each way */
    int nslip;              /* slip realisations per hypocentre, 1 */
    double slip_cv;         /* 0.75 */
    double rvfrac;          /* 0.8 */
    double shallow_vr_factor, shallow_depth_km, shallow_ramp_km; /* 0.6, 5, 3 */
    double vr_slip_gain;                                         /* 0.15 */
    double taper_km;         /* cosine taper width at the sides and bottom, 2 * spacing */
    double dt;               /* slip-rate sampling (s), 0.05 */
    unsigned long long seed; /* study-level seed, 0 */
} rupgen_params;

void rupgen_defaults(rupgen_params *p);
int rupgen_check(const rupgen_params *p, cs_error *err);

/* Shear-wave speed (m/s) and density (kg/m^3) at a point of the rupture (depth in km). */
typedef int (*rupgen_medium)(double lon, double lat, double depth_km, double *vs, double *rho,
                             void *ctx, cs_error *err);

typedef struct {
    int nhypo_strike, nhypo_dip;
    int nvariations; /* nslip * nhypo_strike * nhypo_dip */
} rupgen_layout;

int rupgen_plan(const erf_rupture *r, const rupgen_params *p, rupgen_layout *out, cs_error *err);

typedef struct {
    int slip_index, hypo_strike, hypo_dip;
    int hypo_point; /* index into the surface */
    double hypo_lat, hypo_lon, hypo_depth;
    double moment; /* N*m, equal to the magnitude's */
    double vr_max; /* fastest local rupture speed used (m/s) */
    double corr_strike_km, corr_dip_km;
} rupgen_info;

/* What every variation of one slip realisation shares: the slip, the local rupture speeds, the
 * rise times and the slip-rate functions depend on the realisation alone, so a rupture's
 * variations make them once per realisation and only the rupture times (rupgen_times) per
 * hypocentre. The variation assembled from it equals rupgen_variation_in's bit for bit. */
typedef struct {
    int slip_index, n;
    double dt;       /* s: the slip rates' sampling */
    double area_cm2; /* each point's area */
    double moment;   /* N*m */
    double vr_max;   /* m/s */
    double *slip;    /* cm, n */
    double *vr;      /* km/s, n */
    double *xyz;     /* Earth-centred km, 3 n */
    /* each point's travel times to its RUPGEN_EDGES neighbours on the surface (s; INFINITY where
     * the neighbour is off it), RUPGEN_EDGES n: the same for every hypocentre */
    double *edge;
    int *nt;    /* slip-rate samples of each point (0 where it does not slip) */
    long *at;   /* each point's first sample in sr */
    double *sr; /* cm/s, nsamples: point i's are sr[at[i]] .. sr[at[i] + nt[i] - 1] */
    long nsamples;
} rupgen_realisation;

/* Slip realisation slip_index of rupture r in the medium vs, rho (one per point). */
int rupgen_realisation_make(const erf_rupture *r, const rupgen_params *p, const double *vs,
                            const double *rho, int slip_index, rupgen_realisation *out,
                            cs_error *err);
void rupgen_realisation_free(rupgen_realisation *s);
/* Realisations first .. first + count - 1 into out[0 .. count - 1], on up to `threads` OpenMP
 * threads: a realisation a thread when count >= threads, else the threads on each one's points
 * (the same arrays bit for bit as rupgen_realisation_make's either way). On a failure none is
 * kept (out zeroed) and err is the lowest index's. */
int rupgen_realisations_make(const erf_rupture *r, const rupgen_params *p, const double *vs,
                             const double *rho, int first, int count, int threads,
                             rupgen_realisation *out, cs_error *err);
/* Rupture times t (s, one per point) of a realisation from its hypocentre's point. */
int rupgen_times(const erf_rupture *r, const rupgen_realisation *s, int hypo_point, double *t,
                 cs_error *err);

/* Which slip realisation and hypocentre variation `variation` has (no slip is generated). */
int rupgen_hypocentre(const erf_rupture *r, const rupgen_params *p, int variation,
                      rupgen_info *info, cs_error *err);

/* Variation `variation` of rupture r as an SRF 2.0 (one plane; each point keeps the surface's
 * own location, strike and dip). out is allocated here; free it with srf_free. */
int rupgen_variation(const erf_rupture *r, const rupgen_params *p, rupgen_medium medium,
                     void *medium_ctx, int variation, srf_file *out, rupgen_info *info,
                     cs_error *err);

/* The same with the medium already sampled at the rupture's points (vs in m/s, rho in kg/m^3, one
 * per point): callers that make many variations of one rupture sample it once. */
int rupgen_variation_in(const erf_rupture *r, const rupgen_params *p, const double *vs,
                        const double *rho, int variation, srf_file *out, rupgen_info *info,
                        cs_error *err);
/* Samples a medium at every point of the rupture. */
int rupgen_medium_sample(const erf_rupture *r, rupgen_medium medium, void *ctx, double *vs,
                         double *rho, cs_error *err);

/* The slip realisation alone (cm, before timing), for tests of its spectrum: nrows * ncols. */
int rupgen_slip(const erf_rupture *r, const rupgen_params *p, const double *mu, int slip_index,
                double *slip, cs_error *err);

/* The parameters as 'key=value ...' text (recorded with a scenario) and back; returns nonzero
 * when out is too small. parse starts from the defaults and checks the result. */
int rupgen_params_format(const rupgen_params *p, char *out, size_t size);
int rupgen_params_parse(const char *text, rupgen_params *p, cs_error *err);

/* Liu, Archuleta and Hartzell (2006) slip-rate function of unit area and rise time tau at t. */
double rupgen_liu_stf(double t, double tau);

#endif
