/* The PEER PSHA code verification cases, Set 1 (Thomas, Wong and Abrahamson 2010; the rules of
 * ../shared/reference/peer/README.md), built from their definitions: faults, floating ruptures,
 * magnitude-frequency distributions, Sadigh et al. (1997) rock PGA, and curves by the hazard
 * stage's integrator (hazard_curve).
 *
 * Built: every Set 1 case: 1, 2, 3 (aleatory rupture area), 4, 5, 6 (truncated normal
 * magnitudes), 7 (Youngs-Coppersmith characteristic) with sigma 0; 8a, 8b, 8c (untruncated,
 * truncated at 2 and 3 sigma, renormalised over the upper tail); 10 and 11 (the area source,
 * point sources at one or six depths; the ground-motion sigma untruncated as PEER 2018/03
 * defines them, or 0 as the 2010 report did). PEER 2018/03 Set 2 cases 2a-2d (Fault 3, the
 * NGA-West2 models ASK14, BSSA14, CB14, CY14, sigma untruncated) and 3a-3d (Fault 4, dipping 45
 * degrees: the hanging wall, sigma 0), as "s2-2a" ... "s2-3d" (peer.c, set2_ruptures); 4a, 4b
 * (Fault 5, 0-30 km, CY14 with sigma 0, hypocentres uniform or triangular down dip) and 5a, 5b
 * (Fault 6, CY14 with a fixed sigma of 0.65, normal or the mixture model of the upper tail, at
 * levels to 7 g), as "s2-4a" ... "s2-5b" (peer.c, set2_tail_ruptures); case 1 (the area source
 * and Faults B and C together, Sadigh rock, sigma untruncated; its hazard curve, not its
 * deaggregation) as "s2-1" (peer.c, set2_multi_ruptures).
 *
 * Rules: moment M0 = 10^(1.5 M + 9.05) N m, rigidity 3e10 Pa, slip rate 2 mm/yr; rupture area
 * 10^(M - 4) km^2, width 10^(0.5 M - 2.15) km up to the fault's, then the length grows, length
 * at most the fault's; ruptures float over every position along strike and down dip (a grid of
 * `step_km`, spanning the fault end to end), equally likely, one entry of the integrator per
 * magnitude with its positions as its variations; Rrup to each
 * rupture's rectangle; annual Poisson probabilities. Magnitude bins are 0.01 wide with Mmin on a
 * bin's lower edge, magnitudes at bin centres; the truncated exponential is moment-balanced with
 * its density normalised from M = 0 (the README's rule; it reproduces nshmp-haz's total rate). */
#ifndef PEER_H
#define PEER_H

#include "cs_error.h"
#include "hazard_curve.h"

#define PEER_NLEVELS 18
extern const double peer_levels[PEER_NLEVELS]; /* g */

typedef struct {
    double lat, lon;
} peer_site;
extern const peer_site peer_fault_sites[7];
extern const peer_site peer_area_sites[4];
/* Set 2's sites (PEER 2018/03 Set 2, cases 2 and 3): six, at the equator near 65 W. */
extern const peer_site peer_set2_sites[6];
/* Set 2 case 1's site (the centre of the area source, 0 N 65 W). */
extern const peer_site peer_set2_site1[1];
/* Set 2 case 4's site (1 km west of Fault 5's midpoint) and case 5's (15 km west of Fault 6's). */
extern const peer_site peer_set2_site4[1], peer_set2_site5[1];
/* Set 2 case 5's levels (the upper tail): 0.001 to 7 g. */
extern const double peer_levels_tail[PEER_NLEVELS];
/* The levels of a case (peer_levels, or peer_levels_tail for Set 2 case 5): their count. */
int peer_case_levels(const char *case_id, const double **levels);
/* Whether a case id is of Set 2 ("s2-2a" ...). */
int peer_is_set2(const char *case_id);
/* The sites of a case (the fault sites, or the area sites for cases 10 and 11): their count. */
int peer_case_sites(const char *case_id, const peer_site **sites);

typedef struct {
    double step_km; /* floating-rupture grid, 0.02 */
    double area_km; /* point-source grid of the area source, 1 */
    int edition;    /* 2018 (PEER 2018/03: cases 10 and 11 with an untruncated ground-motion
                       sigma) or 2010 (sigma 0 there) */
    int nshmp_grid; /* Set 2 cases 4 and 5: the rupture's size, positions and hypocentre as
                       nshmp-haz grids them (peer.c, set2_float_grid), not the definition's */
    int sources;    /* Set 2 case 1: the sources counted, PEER_SOURCE_* (0: all three) */
} peer_options;

/* Set 2 case 1's sources (peer_options.sources). */
enum {
    PEER_SOURCE_AREA = 1,
    PEER_SOURCE_FAULT_B = 2,
    PEER_SOURCE_FAULT_C = 4,
    PEER_SOURCE_ALL = 7
};

/* Ruptures of a case as seen from a site (each with its probability, median and sigma). */
int peer_case_ruptures(const char *case_id, const peer_site *site, const peer_options *o,
                       hazard_rupture **rups, long *n, cs_error *err);

void peer_free(hazard_rupture *rups, long n);

/* Every case this build makes, for --help. */
extern const char *const peer_cases[];

#endif
