#include "peer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmpe.h"

const double peer_levels[PEER_NLEVELS] = {0.001, 0.01, 0.05, 0.1,  0.15, 0.2, 0.25, 0.3, 0.35,
                                          0.4,   0.45, 0.5,  0.55, 0.6,  0.7, 0.8,  0.9, 1.0};
const peer_site peer_fault_sites[7] = {{38.113, -122.000}, {38.113, -122.114}, {38.111, -122.570},
                                       {38.000, -122.000}, {37.910, -122.000}, {38.225, -122.000},
                                       {38.113, -121.886}};
const peer_site peer_area_sites[4] = {
    {38.000, -122.000}, {37.550, -122.000}, {37.099, -122.000}, {36.874, -122.000}};
const peer_site peer_set2_sites[6] = {{0.0, -64.91005}, {0.0, -65.04497}, {0.0, -65.08995},
                                      {0.0, -65.13490}, {0.0, -65.22483}, {-0.42718, -65.00900}};
const peer_site peer_set2_site4[1] = {{0.0, -65.00900}};
const peer_site peer_set2_site5[1] = {{0.0, -65.13490}};
const peer_site peer_set2_site1[1] = {{0.0, -65.0}};
const double peer_levels_tail[PEER_NLEVELS] = {0.001, 0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0,
                                               1.25,  1.5,  2.0,  2.5, 3.0, 4.0, 5.0, 6.0, 7.0};
const char *const peer_cases[] = {"1",     "2",     "3",     "4",     "5",     "6",     "7",
                                  "8a",    "8b",    "8c",    "10",    "11",    "s2-2a", "s2-2b",
                                  "s2-2c", "s2-2d", "s2-3a", "s2-3b", "s2-3c", "s2-3d", "s2-4a",
                                  "s2-4b", "s2-5a", "s2-5b", "s2-1",  NULL};

int peer_is_set2(const char *id) {
    return !strncmp(id, "s2-", 3);
}

int peer_case_levels(const char *id, const double **levels) {
    *levels = peer_is_set2(id) && id[3] == '5' ? peer_levels_tail : peer_levels;
    return PEER_NLEVELS;
}

int peer_case_sites(const char *id, const peer_site **sites) {
    if (!strcmp(id, "s2-1")) {
        *sites = peer_set2_site1;
        return 1;
    }
    if (peer_is_set2(id) && (id[3] == '4' || id[3] == '5')) {
        *sites = id[3] == '4' ? peer_set2_site4 : peer_set2_site5;
        return 1;
    }
    if (peer_is_set2(id)) {
        *sites = peer_set2_sites;
        return 6;
    }
    int area = !strcmp(id, "10") || !strcmp(id, "11");
    *sites = area ? peer_area_sites : peer_fault_sites;
    return area ? 4 : 7;
}

#define MU        3e10
#define SLIP_RATE 0.002

static double moment(double m) {
    return pow(10.0, 1.5 * m + 9.05);
}

/* A planar fault: its top edge from a to b (local x north, y east, km), dip (deg) towards the
 * horizontal unit vector d, from ztop to zbot km. */
typedef struct {
    double ax, ay, sx, sy; /* top-edge start, unit strike vector */
    double length, width;  /* km along strike and down dip */
    double dip, dx, dy, ztop;
    double rake;
} fault;

typedef struct {
    double m, rate; /* per year */
    int whole;      /* one rupture of the whole fault */
    double dloga;   /* offset of log10 area from the magnitude-area relation (case 3) */
} mag_bin;

/* The cases are defined on a sphere (R = 6371 km, as PEER's and the reference codes' distances
 * are): a local equirectangular frame at the fault's centre, x north, y east (km); at the cases'
 * distances (< 60 km) it is exact to well under a metre. */
#define EARTH_KM 6371.0
#define LAT0     38.1124
#define LON0     -122.0
static void to_local(double lon, double lat, double *x, double *y) {
    *x = EARTH_KM * (lat - LAT0) * M_PI / 180;
    *y = EARTH_KM * cos(LAT0 * M_PI / 180) * (lon - LON0) * M_PI / 180;
}

static int make_fault(int which, fault *f) {
    double x0, y0, x1, y1;
    to_local(-122.0, 38.0, &x0, &y0);
    to_local(-122.0, 38.2248, &x1, &y1);
    f->ax = x0;
    f->ay = y0;
    f->length = hypot(x1 - x0, y1 - y0);
    f->sx = (x1 - x0) / f->length;
    f->sy = (y1 - y0) / f->length;
    if (which == 1) { /* vertical strike-slip, 0-12 km */
        f->dip = 90, f->ztop = 0, f->width = 12, f->rake = 0;
        f->dx = -f->sy, f->dy = f->sx;
    } else { /* reverse, dipping 60 deg to the west, 1-12 km */
        f->dip = 60, f->ztop = 1, f->width = 11 / sin(60 * M_PI / 180), f->rake = 90;
        f->dx = 0, f->dy = -1;
    }
    return 0;
}

/* Distance (km) from a surface point to the rectangle u in [u0, u1], w in [w0, w1] of the
 * fault's plane (u along strike from the top edge's start, w down dip from the top edge). */
static double rrup(const fault *f, double px, double py, double u0, double u1, double w0,
                   double w1) {
    double cd = cos(f->dip * M_PI / 180), sd = sin(f->dip * M_PI / 180);
    double ex[3] = {f->sx, f->sy, 0}, ew[3] = {cd * f->dx, cd * f->dy, sd};
    double r[3] = {px - f->ax, py - f->ay, -f->ztop};
    double a = r[0] * ex[0] + r[1] * ex[1] + r[2] * ex[2];
    double b = r[0] * ew[0] + r[1] * ew[1] + r[2] * ew[2];
    a = a < u0 ? u0 : a > u1 ? u1 : a;
    b = b < w0 ? w0 : b > w1 ? w1 : b;
    double q[3] = {a * ex[0] + b * ew[0] - r[0], a * ex[1] + b * ew[1] - r[1],
                   a * ex[2] + b * ew[2] - r[2]};
    return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
}

/* Youngs and Coppersmith (1985) from Mmin 5.0 (Set 1 case 7, Set 2 case 1's Faults B and C),
 * 0.01-wide bins from 5.00: exponential (b 0.9) from 5.0 to Mchar - 0.25 and a box of 0.5
 * magnitude units centred on Mchar (to Mmax = Mchar + 0.25) whose density is the exponential's
 * one unit below the box. Masses per bin exactly (the exponential's integral), normalised over
 * the bins, moment-balanced (mrate, N m a year) with each bin's moment at its centre, counting
 * the exponential's moment below M 5 too (from M = 0: the rule of PEER 2018/03 that nshmp-haz
 * follows). */
static int yc_bins(double mchar, double mrate, mag_bin **bins, int *n, cs_error *err) {
    const double beta = 0.9 * log(10.0), box = mchar - 0.25;
    const int nb = (int)lrint((mchar + 0.25 - 5.0) / 0.01);
    double sum = 0, mom = 0;
    *bins = malloc(sizeof **bins * (size_t)nb);
    if (!*bins) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (int i = 0; i < nb; i++) {
        double lo = 5.0 + 0.01 * i, hi = lo + 0.01, p;
        if (hi <= box + 1e-9)
            p = exp(-beta * (lo - 5.0)) - exp(-beta * (hi - 5.0));
        else
            p = 0.01 * beta * exp(-beta * (box - 1.0 - 5.0));
        (*bins)[i] = (mag_bin){lo + 0.005, p, 0, 0};
        sum += p;
    }
    for (int i = 0; i < nb; i++)
        mom += (*bins)[i].rate / sum * moment((*bins)[i].m);
    /* the moment of the density below 5.0, beta e^(-beta (m - 5)) M0(m) over [0, 5], in the
     * bins' units */
    const double c = 1.5 * log(10.0);
    mom += beta * exp(5.0 * beta) * pow(10.0, 9.05) * expm1(5.0 * (c - beta)) / (c - beta) / sum;
    for (int i = 0; i < nb; i++)
        (*bins)[i].rate *= mrate / mom / sum;
    *n = nb;
    return 0;
}

/* The magnitude-frequency distribution of a case, moment-balanced on the fault. */
static int case_bins(const char *id, const fault *f, mag_bin **bins, int *n, cs_error *err) {
    double mrate = MU * f->length * 1e3 * f->width * 1e3 * SLIP_RATE;
    if (!strcmp(id, "1")) {
        *bins = malloc(sizeof **bins);
        (*bins)[0] = (mag_bin){6.5, mrate / moment(6.5), 1, 0};
        *n = 1;
        return 0;
    }
    if (!strcmp(id, "2") || !strcmp(id, "4") || !strncmp(id, "8", 1)) {
        *bins = malloc(sizeof **bins);
        (*bins)[0] = (mag_bin){6.0, mrate / moment(6.0), 0, 0};
        *n = 1;
        return 0;
    }
    if (!strcmp(id, "3")) {
        /* M 6.0, log10 A normal about M - 4 with sigma 0.25 truncated at +-2 sigma, discretised
         * as nshmp-haz does (RuptureScaling.PEER, Mfds.newGaussianMFD(0, 0.25, 21, 1)): 21 points
         * 0.2 sigma apart from -2 to +2 sigma, the endpoints included, each weighted by the
         * normal density there, renormalised over the 21; every event has the moment of M 6.0,
         * so the total rate is case 2's */
        enum { NZ = 21 };
        double w[NZ], sum = 0;
        for (int k = 0; k < NZ; k++)
            sum += w[k] = exp(-0.5 * pow(-2 + 0.2 * k, 2));
        *bins = malloc(sizeof **bins * NZ);
        for (int k = 0; k < NZ; k++)
            (*bins)[k] = (mag_bin){6.0, mrate / moment(6.0) * w[k] / sum, 0, 0.25 * (-2 + 0.2 * k)};
        *n = NZ;
        return 0;
    }
    if (!strcmp(id, "6")) {
        /* 0.01-wide bins from 5.00, normal about 6.2, sigma 0.25, truncated to [5.0, 6.5]:
         * masses per bin exactly (the normal's CDF), normalised over the bins, moment-balanced
         * with each bin's moment at its centre */
        int nb = 150;
        double sum = 0, mom = 0;
        *bins = malloc(sizeof **bins * (size_t)nb);
        if (!*bins) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        for (int i = 0; i < nb; i++) {
            double lo = 5.0 + 0.01 * i, hi = lo + 0.01;
            double p =
                0.5 * (erf((hi - 6.2) / (0.25 * M_SQRT2)) - erf((lo - 6.2) / (0.25 * M_SQRT2)));
            (*bins)[i] = (mag_bin){lo + 0.005, p, 0, 0};
            sum += p;
        }
        for (int i = 0; i < nb; i++)
            mom += (*bins)[i].rate / sum * moment((*bins)[i].m);
        for (int i = 0; i < nb; i++)
            (*bins)[i].rate *= mrate / mom / sum;
        *n = nb;
        return 0;
    }
    if (!strcmp(id, "7")) return yc_bins(6.2, mrate, bins, n, err);
    if (!strcmp(id, "5")) {
        /* truncated exponential, b = 0.9, density normalised over [0, 6.5]: total rate N from
         * N int_0^6.5 f M0 dm = moment rate, bins of 0.01 from 5.00 */
        double beta = 0.9 * log(10.0), mmax = 6.5, c = 1.5 * log(10.0);
        double norm = 1 - exp(-beta * mmax);
        double mom = pow(10.0, 9.05) * beta / norm * expm1((c - beta) * mmax) / (c - beta);
        double total = mrate / mom;
        int nb = 150;
        *bins = malloc(sizeof **bins * (size_t)nb);
        for (int i = 0; i < nb; i++) {
            double lo = 5.0 + 0.01 * i, hi = lo + 0.01;
            double p = (exp(-beta * lo) - exp(-beta * hi)) / norm;
            (*bins)[i] = (mag_bin){lo + 0.005, total * p, 0, 0};
        }
        *n = nb;
        return 0;
    }
    return cs_error_input(err, "PEER case", NULL, id,
                          "not a Set 1 case (1, 2, 3, 4, 5, 6, 7, 8a, 8b, 8c, 10, 11)");
}

static int push(hazard_rupture **rups, long *n, long *cap, hazard_rupture r, cs_error *err) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 4096;
        hazard_rupture *g = realloc(*rups, sizeof *g * (size_t)*cap);
        if (!g) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for ruptures");
        *rups = g;
    }
    (*rups)[(*n)++] = r;
    return 0;
}

/* Grid positions at most step apart spanning [0, span] end to end (one when span is 0): the
 * extreme positions, where a rupture reaches the fault's end or edge, are included, as the
 * floating rule allows them. */
static int positions(double span, double step) {
    return span <= 1e-9 ? 1 : (int)ceil(span / step - 1e-9) + 1;
}

/* Area 1 (cases 10, 11): a circle of 100 km radius about (38.0 N, 122.0 W) as a 90-vertex
 * polygon; point sources at the centres of a grid of area_km cells inside it (flat frame at the
 * centre, x north, y east), at 5 km depth (case 10) or at 5, 6, ..., 10 km equally weighted
 * (case 11); truncated exponential from 5.0 to 6.5 (b 0.9, 0.01 bins), N(M >= 5) = 0.0395 per
 * year over the area, spread evenly over the points. Sadigh rock PGA for strike-slip at the
 * hypocentral distance, its sigma untruncated (PEER 2018/03) or 0 (the 2010 definition). One
 * integrator entry per magnitude bin, its points (and depths) as equally likely variations. */
#define AREA_RATE 0.0395
#define AREA_R_KM 100.0
static int inside(const double (*poly)[2], int nv, double x, double y) {
    int in = 0;
    for (int i = 0, j = nv - 1; i < nv; j = i++)
        if ((poly[i][1] > y) != (poly[j][1] > y) &&
            x < (poly[j][0] - poly[i][0]) * (y - poly[i][1]) / (poly[j][1] - poly[i][1]) +
                    poly[i][0])
            in = !in;
    return in;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The area source about (lat0, lon0) with ndepth depths from 5 km, its sigma untruncated
 * (lognormal) or 0, appended to rups (n of cap). */
static int area_source(double lat0, double lon0, int ndepth, int lognormal, const peer_site *site,
                       const peer_options *o, hazard_rupture **rups, long *n, long *capr,
                       cs_error *err) {
    const double d2r = M_PI / 180;
    double poly[90][2]; /* x north, y east, km */
    for (int k = 0; k < 90; k++) {
        /* the vertex 100 km from the centre at azimuth 4k degrees, on the sphere */
        double az = 4.0 * k * d2r, dd = AREA_R_KM / EARTH_KM, p1 = lat0 * d2r;
        double p2 = asin(sin(p1) * cos(dd) + cos(p1) * sin(dd) * cos(az));
        double l2 = lon0 * d2r + atan2(sin(az) * sin(dd) * cos(p1), cos(dd) - sin(p1) * sin(p2));
        poly[k][0] = EARTH_KM * (p2 - p1);
        poly[k][1] = EARTH_KM * cos(p1) * (l2 - lon0 * d2r);
    }
    double sx = EARTH_KM * (site->lat - lat0) * d2r;
    double sy = EARTH_KM * cos(lat0 * d2r) * (site->lon - lon0) * d2r;
    double h = o->area_km;
    int ng = (int)ceil(AREA_R_KM * 1.01 / h);
    long np = 0, cap = 0;
    double *r = NULL; /* hypocentral distances of every point and depth */
    for (int i = -ng; i < ng; i++)
        for (int j = -ng; j < ng; j++) {
            double x = (i + 0.5) * h, y = (j + 0.5) * h;
            if (!inside(poly, 90, x, y)) continue;
            for (int d = 0; d < ndepth; d++) {
                if (np == cap) {
                    cap = cap ? 2 * cap : 65536;
                    double *g = realloc(r, sizeof *r * (size_t)cap);
                    if (!g) {
                        free(r);
                        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for points");
                    }
                    r = g;
                }
                r[np++] = sqrt((x - sx) * (x - sx) + (y - sy) * (y - sy) + pow(5.0 + d, 2));
            }
        }
    /* Medians fall with distance: the distances sorted once give every bin's values sorted. */
    qsort(r, (size_t)np, sizeof *r, cmp_double);
    double beta = 0.9 * log(10.0), norm = exp(-beta * 5.0) - exp(-beta * 6.5);
    int rc = 0;
    hazard_rupture hr = {0};
    for (int b = 0; b < 150; b++) {
        double lo = 5.0 + 0.01 * b, m = lo + 0.005;
        double rate = AREA_RATE * (exp(-beta * lo) - exp(-beta * (lo + 0.01))) / norm;
        hr = (hazard_rupture){.prob = -expm1(-rate), .nvalues = (int)np, .lognormal = lognormal};
        hr.values = malloc(sizeof(double) * (size_t)np);
        if (!hr.values) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %ld points", np);
            goto done;
        }
        for (long q = 0; q < np; q++) {
            gmpe_value g;
            CS_CALL_GOTO(rc, err, gmpe_sadigh97_rock(0, m, r[q], 0, &g, err), done);
            hr.values[np - 1 - q] = lognormal ? g.ln_median : exp(g.ln_median);
            hr.sigma = g.sigma; /* Sadigh's sigma depends on the magnitude only */
        }
        CS_CALL_GOTO(rc, err, push(rups, n, capr, hr, err), done);
        hr.values = NULL; /* the list's now */
    }
done:
    free(hr.values);
    free(r);
    return rc;
}

static int area_ruptures(const char *id, const peer_site *site, const peer_options *o,
                         hazard_rupture **rups, long *n, cs_error *err) {
    long cap = 0;
    return area_source(38.0, -122.0, !strcmp(id, "11") ? 6 : 1, o->edition != 2010, site, o, rups,
                       n, &cap, err);
}

static const char set2_built[] =
    "Set 2 cases built: s2-2a, s2-2b, s2-2c, s2-2d (Fault 3, the NGA-West2 models ASK14, BSSA14, "
    "CB14, CY14), s2-3a to s2-3d (Fault 4, the hanging wall, sigma 0), s2-4a, s2-4b (Fault 5, "
    "hypocentres uniform or triangular down dip), s2-5a, s2-5b (Fault 6, CY14 with sigma 0.65, "
    "normal or the mixture model), s2-1 (the area source and Faults B and C)";

/* (ln median, sigma) pairs by sigma */
static int cmp_sigma(const void *a, const void *b) {
    const double x = ((const double *)a)[1], y = ((const double *)b)[1];
    return (x > y) - (x < y);
}

/* PEER 2018/03 Set 2, cases 2 and 3: the NGA-West2 models on a floating rupture of a planar
 * fault, the sites at the equator (a local frame at 0 N, 65 W, x north, y east, km, on the sphere
 * of 6371 km). Fault 3 (case 2): the trace from (65 W, 0.38221 N) to (65 W, 0.38221 S),
 * vertical, 0-12 km, strike-slip; the truncated exponential of b 0.9 from 5.0 to 7.0 in 0.01
 * bins, moment-balanced with its density normalised from M = 0 (case 5's rule, which gives
 * nshmp-haz's rates); the models' sigma untruncated. Fault 4 (case 3): the same trace, dipping
 * 45 degrees to the west (right of strike), 1-12 km, reverse; M 7.0 alone; sigma 0 (the
 * hanging-wall cases). Slip rate 2 mm/yr, rigidity 3e10 Pa, the Set 1 rupture dimensions.
 * Each rupture position's distances: Rrup to its rectangle, Rjb to its surface projection, Rx
 * from its top edge perpendicular to strike (positive down dip), Ztor its top's depth, its width,
 * the hypocentre at its centre (CB14's Zhyp: nshmp-haz's Faults.hypocentralDepth); no Ry0
 * (nshmp-haz gives its models none: ASK14 takes the paper's taper on Rjb). The site: Vs30
 * 760 m/s measured, Z1.0 48 m, Z2.5 0.607 km (the definitions' sites file). Case 2: the
 * positions of a magnitude grouped by their sigma (which depends on the site's nonlinearity, so
 * on the position, for CB14 and CY14), each group one integrator entry of its share of the
 * magnitude's rate, its positions equally likely values; case 3: one entry per magnitude, its
 * positions the equally likely values. */
static int set2_ruptures(const char *id, const peer_site *site, const peer_options *o,
                         hazard_rupture **rups, long *n, cs_error *err) {
    const char *models[4] = {"ask14", "bssa14", "cb14", "cy14"};
    const int which = id[3] - '0', letter = id[4] - 'a';
    if (strlen(id) != 5 || (which != 2 && which != 3) || letter < 0 || letter > 3)
        return cs_error_input(err, "PEER case", NULL, id, set2_built);
    const char *model = models[letter];
    const double d2r = M_PI / 180, half = EARTH_KM * 0.38221 * d2r;
    fault f = {.ax = half, .ay = 0, .sx = -1, .sy = 0, .length = 2 * half};
    f.dx = -f.sy, f.dy = f.sx; /* right of strike: west */
    if (which == 2)
        f.dip = 90, f.ztop = 0, f.width = 12, f.rake = 0;
    else
        f.dip = 45, f.ztop = 1, f.width = 11 / sin(45 * d2r), f.rake = 90;
    const double sx = EARTH_KM * site->lat * d2r, sy = EARTH_KM * (site->lon + 65.0) * d2r;
    const double mrate = MU * f.length * 1e3 * f.width * 1e3 * SLIP_RATE;
    const double beta = 0.9 * log(10.0), c = 1.5 * log(10.0), mmax = 7.0;
    const int nb = which == 2 ? 200 : 1;
    const double norm = 1 - exp(-beta * mmax);
    const double total =
        mrate / (pow(10.0, 9.05) * beta / norm * expm1((c - beta) * mmax) / (c - beta));
    const double cd = cos(f.dip * d2r), sd = sin(f.dip * d2r);
    /* the site along strike (p) and across it, horizontally, towards the dip (q) */
    const double p = (sx - f.ax) * f.sx + (sy - f.ay) * f.sy;
    const double q = (sx - f.ax) * f.dx + (sy - f.ay) * f.dy;
    long cap = 0;
    int rc = 0;
    for (int b = 0; b < nb && !rc; b++) {
        const double m = which == 2 ? 5.005 + 0.01 * b : 7.0;
        const double rate =
            which == 2 ? total * (exp(-beta * (m - 0.005)) - exp(-beta * (m + 0.005))) / norm
                       : mrate / moment(7.0);
        const double area = pow(10.0, m - 4);
        double W = pow(10.0, 0.5 * m - 2.15), L = pow(10.0, 0.5 * m - 1.85);
        if (W > f.width) {
            W = f.width;
            L = area / W;
        }
        if (L > f.length) L = f.length;
        const int nu = positions(f.length - L, o->step_km), nw = positions(f.width - W, o->step_km);
        const double du = nu > 1 ? (f.length - L) / (nu - 1) : 0,
                     dw = nw > 1 ? (f.width - W) / (nw - 1) : 0;
        const int npos = nu * nw;
        double *lm = malloc(sizeof(double) * 2 * (size_t)npos); /* ln median, sigma pairs */
        if (!lm) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        for (int i = 0; i < nu && !rc; i++)
            for (int k = 0; k < nw && !rc; k++) {
                const double u0 = i * du, w0 = k * dw;
                const double qa = w0 * cd, qb = (w0 + W) * cd;
                const double ep = p < u0 ? u0 - p : p > u0 + L ? p - u0 - L : 0;
                const double eq = q < qa ? qa - q : q > qb ? q - qb : 0;
                gmpe_scenario sc = {.mag = m,
                                    .rake = f.rake,
                                    .dip = f.dip,
                                    .ztor = f.ztop + w0 * sd,
                                    .rrup = rrup(&f, sx, sy, u0, u0 + L, w0, w0 + W),
                                    .rjb = hypot(ep, eq),
                                    .rx = q - qa,
                                    .ry0 = NAN, /* nshmp-haz: ASK14's Rjb taper */
                                    .width = W,
                                    .vs30 = 760,
                                    .vs30_measured = 1,
                                    .z1_m = 48,
                                    .z2p5_km = 0.607};
                sc.zhyp = sc.ztor + 0.5 * W * sd;
                gmpe_value g;
                rc = gmpe_eval(model, 0, &sc, &g, err);
                lm[2 * (i * nw + k)] = g.ln_median;
                lm[2 * (i * nw + k) + 1] = g.sigma;
            }
        /* case 3 (sigma 0): one entry, the positions its values; case 2: the positions grouped
         * by their sigma (the same for every position where the site response is linear), each
         * group one entry of the group's share of the rate */
        if (!rc && which == 2) qsort(lm, (size_t)npos, 2 * sizeof(double), cmp_sigma);
        for (int a = 0, e = 0; a < npos && !rc; a = e) {
            e = a + 1;
            while (e < npos && (which == 3 || lm[2 * e + 1] == lm[2 * a + 1]))
                e++;
            hazard_rupture h = {.prob = -expm1(-rate * (e - a) / npos),
                                .nvalues = e - a,
                                .lognormal = which == 2,
                                .sigma = which == 2 ? lm[2 * a + 1] : 0};
            h.values = malloc(sizeof(double) * (size_t)(e - a));
            if (!h.values) {
                rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                break;
            }
            for (int v = a; v < e; v++)
                h.values[v - a] = which == 2 ? lm[2 * v] : exp(lm[2 * v]);
            hazard_sort_values(&h);
            rc = push(rups, n, &cap, h, err);
            if (rc) free(h.values);
        }
        free(lm);
    }
    return rc;
}

/* PEER 2018/03 Set 2 cases 4 and 5: Fault 5 (case 4, 0-30 km) or Fault 6 (case 5, 0-12 km), the
 * trace from (65 W, 0.1124 N) to (65 W, 0.1124 S), 25 km, vertical, strike-slip; M 6.0 alone,
 * its rate from the slip rate (2 mm/yr, rigidity 3e10 Pa, the whole fault's area); CY14 at the
 * case's site (Vs30 760 m/s measured, Z1.0 48 m, Z2.5 0.607 km). Each down-dip row of floating
 * positions (a rupture's top at w0) is weighted by the hypocentre's density at its depth, the
 * hypocentre at the rupture's centre (w0 + W / 2): uniform (4a, 5a, 5b) or the triangle
 * (0, 10, 30 km) of 4b (the fault's top, a third of its width, its bottom), the weights
 * renormalised over the sampled rows (the definition's explanation, p. 17). Case 4: sigma 0;
 * 5a: sigma fixed at 0.65, untruncated; 5b: the mixture 0.5 N(0, 1.2 x 0.65) + 0.5 N(0, 0.8 x
 * 0.65). One integrator entry per row and mixture component, of rate rate x row weight x
 * component weight, its along-strike positions equally likely values: under the Poisson rule
 * (hazard_curve.h) the rates of exceedance add, so this is the weighted sum exactly. */
typedef struct {
    int ncomp;
    double weight[2], sigma[2]; /* sigma 0: the medians as plain values */
    int triangular;
} set2_tail_model;

static int set2_tail_model_of(const char *id, set2_tail_model *tm, cs_error *err) {
    if (!strcmp(id, "s2-4a") || !strcmp(id, "s2-4b")) {
        *tm = (set2_tail_model){1, {1, 0}, {0, 0}, id[4] == 'b'};
        return 0;
    }
    if (!strcmp(id, "s2-5a")) {
        *tm = (set2_tail_model){1, {1, 0}, {0.65, 0}, 0};
        return 0;
    }
    if (!strcmp(id, "s2-5b")) {
        *tm = (set2_tail_model){2, {0.5, 0.5}, {1.2 * 0.65, 0.8 * 0.65}, 0};
        return 0;
    }
    return cs_error_input(err, "PEER case", NULL, id, set2_built);
}

/* The triangular density of 4b, peak at a third of the way down: (0, 10, 30) km on Fault 5. */
static double triangle_pdf(double z, double ztop, double zbot) {
    const double zpk = ztop + (zbot - ztop) / 3, ypk = 2 / (zbot - ztop);
    if (z <= ztop || z >= zbot) return 0;
    return z < zpk ? ypk * (z - ztop) / (zpk - ztop) : ypk * (zbot - z) / (zbot - zpk);
}

/* A floating rupture's size and positions on a fault: W x L, nu positions du apart along
 * strike, nw rows dw apart down dip, the hypocentre hypo down dip from the rupture's top. */
typedef struct {
    double W, L, du, dw, hypo;
    int nu, nw;
} float_grid;

/* The definition's: log W = 0.5 M - 2.15 (to the fault's width), L = A / W, positions at most
 * step apart spanning the fault end to end, the hypocentre at the centre; or nshmp-haz's
 * (DefaultGriddedSurface, RuptureFloating, RuptureScaling.PEER): the fault gridded at
 * length / ceil(length / step) along strike and width / ceil(width / step) down dip, W =
 * sqrt(A / 2) and L = A / W rounded to whole grid cells (rint(W / dd + 1) points), positions on
 * the grid's points, the hypocentre half of the rupture's points times dd down (half a cell below
 * the centre). */
static void set2_float_grid(const fault *f, double m, double step, int nshmp, float_grid *g) {
    const double area = pow(10.0, m - 4);
    if (!nshmp) {
        g->W = fmin(pow(10.0, 0.5 * m - 2.15), f->width), g->L = area / g->W;
        g->nu = positions(f->length - g->L, step), g->nw = positions(f->width - g->W, step);
        g->du = g->nu > 1 ? (f->length - g->L) / (g->nu - 1) : 0;
        g->dw = g->nw > 1 ? (f->width - g->W) / (g->nw - 1) : 0;
        g->hypo = 0.5 * g->W;
        return;
    }
    const double ncol = ceil(f->length / step), nrow = ceil(f->width / step);
    const double ds = f->length / ncol, dd = f->width / nrow;
    const double w0 = fmin(sqrt(area / 2), f->width);
    const double rows = fmin(rint(w0 / dd + 1), nrow + 1),
                 cols = fmin(rint(area / w0 / ds + 1), ncol + 1);
    g->W = (rows - 1) * dd, g->L = (cols - 1) * ds, g->du = ds, g->dw = dd;
    g->nu = (int)(ncol + 1 - cols) + 1, g->nw = (int)(nrow + 1 - rows) + 1;
    g->hypo = 0.5 * rows * dd;
}

/* Row weights (the rows' tops k dw down dip), summing to 1. */
static void set2_row_weights(const fault *f, const float_grid *g, int triangular, double *w) {
    const double sd = sin(f->dip * M_PI / 180), zbot = f->ztop + f->width * sd;
    double sum = 0;
    for (int k = 0; k < g->nw; k++)
        sum += w[k] =
            triangular ? triangle_pdf(f->ztop + (k * g->dw + g->hypo) * sd, f->ztop, zbot) : 1.0;
    for (int k = 0; k < g->nw; k++)
        w[k] /= sum;
}

/* CY14's ln median at one floating position (top edge u0 along strike, w0 down dip) of the
 * L x W rupture of vertical fault f, at the site (sx, sy). */
static int set2_tail_median(const fault *f, double sx, double sy, double m, double L, double W,
                            double u0, double w0, double *lnmed, cs_error *err) {
    const double p = (sx - f->ax) * f->sx + (sy - f->ay) * f->sy;
    const double q = (sx - f->ax) * f->dx + (sy - f->ay) * f->dy;
    const double ep = p < u0 ? u0 - p : p > u0 + L ? p - u0 - L : 0;
    gmpe_scenario sc = {.mag = m,
                        .rake = f->rake,
                        .dip = f->dip,
                        .ztor = f->ztop + w0,
                        .rrup = rrup(f, sx, sy, u0, u0 + L, w0, w0 + W),
                        .rjb = hypot(ep, q),
                        .rx = q,
                        .ry0 = NAN,
                        .width = W,
                        .vs30 = 760,
                        .vs30_measured = 1,
                        .z1_m = 48,
                        .z2p5_km = 0.607};
    sc.zhyp = sc.ztor + 0.5 * W;
    gmpe_value g;
    CS_CALL(err, gmpe_eval("cy14", 0, &sc, &g, err));
    *lnmed = g.ln_median;
    return 0;
}

/* One row's entries: a copy of its ln medians per mixture component. */
static int set2_tail_push_row(const set2_tail_model *tm, const double *lm, int nu, double rate,
                              hazard_rupture **rups, long *n, long *cap, cs_error *err) {
    for (int c = 0; c < tm->ncomp; c++) {
        const int ln = tm->sigma[c] > 0;
        hazard_rupture h = {.prob = -expm1(-rate * tm->weight[c]),
                            .nvalues = nu,
                            .lognormal = ln,
                            .sigma = tm->sigma[c]};
        h.values = malloc(sizeof(double) * (size_t)nu);
        if (!h.values) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        for (int v = 0; v < nu; v++)
            h.values[v] = ln ? lm[v] : exp(lm[v]);
        hazard_sort_values(&h);
        if (push(rups, n, cap, h, err)) {
            free(h.values);
            return err->status;
        }
    }
    return 0;
}

static int set2_tail_ruptures(const char *id, const peer_site *site, const peer_options *o,
                              hazard_rupture **rups, long *n, cs_error *err) {
    set2_tail_model tm = {0};
    CS_CALL(err, set2_tail_model_of(id, &tm, err));
    const double d2r = M_PI / 180, half = EARTH_KM * 0.1124 * d2r, m = 6.0;
    fault f = {.ax = half, .sx = -1, .length = 2 * half, .dip = 90, .rake = 0};
    f.dx = -f.sy, f.dy = f.sx; /* right of strike: west */
    f.width = id[3] == '4' ? 30 : 12;
    const double sx = EARTH_KM * site->lat * d2r, sy = EARTH_KM * (site->lon + 65.0) * d2r;
    /* the definition's L = 25 km (the trace on the sphere is 24.9955 km long) */
    const double rate = MU * 25e3 * f.width * 1e3 * SLIP_RATE / moment(m);
    float_grid g;
    set2_float_grid(&f, m, o->step_km, o->nshmp_grid, &g);
    double *w = malloc(sizeof(double) * (size_t)g.nw), *lm = malloc(sizeof(double) * (size_t)g.nu);
    int rc = w && lm ? 0 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    if (!rc) set2_row_weights(&f, &g, tm.triangular, w);
    long cap = 0;
    for (int k = 0; k < g.nw && !rc; k++) {
        for (int i = 0; i < g.nu && !rc; i++)
            rc = set2_tail_median(&f, sx, sy, m, g.L, g.W, i * g.du, k * g.dw, &lm[i], err);
        if (!rc && w[k] > 0)
            rc = set2_tail_push_row(&tm, lm, g.nu, rate * w[k], rups, n, &cap, err);
    }
    free(w);
    free(lm);
    return rc;
}

/* PEER 2018/03 Set 2 case 1 (multiple sources), the site at (0, 65 W), the centre of the area
 * source: the area source (Set 1 case 11's about (0, 65 W): a circle of 100 km, points on a
 * --area-step grid at 5, 6, ..., 10 km, truncated exponential 5.0-6.5, b 0.9, N(M >= 5) =
 * 0.0395), Fault B (85 km, its trace at 0.44966 N from 65.38222 W to 64.61778 W, 50 km north
 * of the site, 2 mm/yr, Youngs and Coppersmith with Mchar 6.75, Mmax 7.0) and Fault C (50 km,
 * at 0.22483 S from 65.22484 W to 64.77516 W, 25 km south, 1 mm/yr, Mchar 6.5, Mmax 6.75);
 * both faults 0-12 km, vertical, strike-slip, floating ruptures of the definition's size (log
 * W = 0.5 M - 2.15 to 12 km, then L = A / W) every --step km along strike and down dip. Sadigh
 * rock PGA, its sigma untruncated. The sources' rates of exceedance add (hazard_curve.h). */
static int set2_fault_source(double lat, double length, double slip, double mchar,
                             const peer_site *site, const peer_options *o, hazard_rupture **rups,
                             long *n, long *cap, cs_error *err) {
    const double d2r = M_PI / 180;
    fault f = {.ax = EARTH_KM * lat * d2r, .ay = -0.5 * length, .sx = 0, .sy = 1};
    f.length = length, f.width = 12, f.dip = 90, f.ztop = 0, f.rake = 0;
    f.dx = -f.sy, f.dy = f.sx;
    const double sx = EARTH_KM * site->lat * d2r, sy = EARTH_KM * (site->lon + 65.0) * d2r;
    mag_bin *bins = NULL;
    int nb = 0;
    CS_CALL(err, yc_bins(mchar, MU * length * 1e3 * f.width * 1e3 * slip, &bins, &nb, err));
    int rc = 0;
    hazard_rupture h = {0};
    for (int b = 0; b < nb; b++) {
        const double m = bins[b].m, area = pow(10.0, m - 4);
        double W = pow(10.0, 0.5 * m - 2.15), L = pow(10.0, 0.5 * m - 1.85);
        if (W > f.width) W = f.width, L = area / W;
        if (L > f.length) L = f.length;
        const int nu = positions(f.length - L, o->step_km), nw = positions(f.width - W, o->step_km);
        const double du = nu > 1 ? (f.length - L) / (nu - 1) : 0,
                     dw = nw > 1 ? (f.width - W) / (nw - 1) : 0;
        h = (hazard_rupture){.prob = -expm1(-bins[b].rate), .nvalues = nu * nw, .lognormal = 1};
        h.values = malloc(sizeof(double) * (size_t)h.nvalues);
        if (!h.values) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d positions", h.nvalues);
            goto done;
        }
        for (int i = 0; i < nu; i++)
            for (int k = 0; k < nw; k++) {
                const double u0 = i * du, w0 = k * dw;
                gmpe_value g;
                CS_CALL_GOTO(rc, err,
                             gmpe_sadigh97_rock(0, m, rrup(&f, sx, sy, u0, u0 + L, w0, w0 + W),
                                                f.rake, &g, err),
                             done);
                h.values[i * nw + k] = g.ln_median;
                h.sigma = g.sigma;
            }
        hazard_sort_values(&h);
        CS_CALL_GOTO(rc, err, push(rups, n, cap, h, err), done);
        h.values = NULL; /* the list's now */
    }
done:
    free(h.values);
    free(bins);
    return rc;
}

static int set2_multi_ruptures(const peer_site *site, const peer_options *o, hazard_rupture **rups,
                               long *n, cs_error *err) {
    const int src = o->sources ? o->sources : PEER_SOURCE_ALL;
    long cap = 0;
    if (src & PEER_SOURCE_AREA)
        CS_CALL(err, area_source(0.0, -65.0, 6, 1, site, o, rups, n, &cap, err));
    if (src & PEER_SOURCE_FAULT_B)
        CS_CALL(err, set2_fault_source(0.44966, 85, 0.002, 6.75, site, o, rups, n, &cap, err));
    if (src & PEER_SOURCE_FAULT_C)
        CS_CALL(err, set2_fault_source(-0.22483, 50, 0.001, 6.5, site, o, rups, n, &cap, err));
    return 0;
}

static int set2_case_ruptures(const char *id, const peer_site *site, const peer_options *o,
                              hazard_rupture **rups, long *n, cs_error *err) {
    if (!strcmp(id, "s2-1")) return set2_multi_ruptures(site, o, rups, n, err);
    if (id[3] == '4' || id[3] == '5') return set2_tail_ruptures(id, site, o, rups, n, err);
    return set2_ruptures(id, site, o, rups, n, err);
}

int peer_case_ruptures(const char *id, const peer_site *site, const peer_options *o,
                       hazard_rupture **rups, long *n, cs_error *err) {
    *rups = NULL;
    *n = 0;
    if (peer_is_set2(id)) {
        int rc = set2_case_ruptures(id, site, o, rups, n, err);
        if (rc) {
            peer_free(*rups, *n);
            *rups = NULL;
            *n = 0;
        }
        return rc;
    }
    if (!strcmp(id, "10") || !strcmp(id, "11")) {
        int rc = area_ruptures(id, site, o, rups, n, err);
        if (rc) {
            peer_free(*rups, *n);
            *rups = NULL;
            *n = 0;
        }
        return rc;
    }
    fault f;
    double sx, sy;
    int rc = make_fault(!strcmp(id, "4") ? 2 : 1, &f);
    to_local(site->lon, site->lat, &sx, &sy);
    mag_bin *bins = NULL;
    int nb = 0;
    CS_CALL(err, case_bins(id, &f, &bins, &nb, err));
    double trunc = !strcmp(id, "8b") ? 2 : !strcmp(id, "8c") ? 3 : 0;
    int with_sigma = id[0] == '8', aleatory = !strcmp(id, "3");
    long cap = 0;
    hazard_rupture h = {0};
    for (int b = 0; b < nb && !rc; b++) {
        double m = bins[b].m, L, W;
        if (bins[b].whole) {
            L = f.length;
            W = f.width;
        } else {
            double ma = m + bins[b].dloga; /* the magnitude whose median area this is */
            double area = pow(10.0, ma - 4);
            /* case 3 as nshmp-haz builds it (RuptureScaling.PEER): aspect ratio 2 exactly,
             * W = sqrt(A / 2), where log W = 0.5 M - 2.15 gives 10^0.3 = 1.995; the other
             * cases keep the definition's relations */
            W = aleatory ? sqrt(area / 2) : pow(10.0, 0.5 * ma - 2.15);
            L = aleatory ? area / W : pow(10.0, 0.5 * ma - 1.85);
            if (W > f.width) {
                W = f.width;
                L = area / W;
            }
            if (L > f.length) L = f.length;
        }
        int nu = positions(f.length - L, o->step_km), nw = positions(f.width - W, o->step_km);
        double du = nu > 1 ? (f.length - L) / (nu - 1) : 0,
               dw = nw > 1 ? (f.width - W) / (nw - 1) : 0;
        h = (hazard_rupture){.prob = -expm1(-bins[b].rate), .nvalues = nu * nw};
        h.values = malloc(sizeof(double) * (size_t)h.nvalues);
        if (!h.values) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %d positions", h.nvalues);
            goto done;
        }
        double sigma = 0;
        for (int i = 0; i < nu; i++)
            for (int k = 0; k < nw; k++) {
                double u0 = i * du, w0 = k * dw;
                double r = rrup(&f, sx, sy, u0, u0 + L, w0, w0 + W);
                gmpe_value g;
                CS_CALL_GOTO(rc, err, gmpe_sadigh97_rock(0, m, r, f.rake, &g, err), done);
                h.values[i * nw + k] = with_sigma ? g.ln_median : exp(g.ln_median);
                sigma = g.sigma;
            }
        if (with_sigma) {
            h.lognormal = 1;
            h.sigma = sigma;
            h.trunc = trunc;
            h.upper_only = 1;
        }
        hazard_sort_values(&h);
        CS_CALL_GOTO(rc, err, push(rups, n, &cap, h, err), done);
        h.values = NULL; /* the list's now */
    }
done:
    free(h.values);
    free(bins);
    if (rc) {
        peer_free(*rups, *n);
        *rups = NULL;
        *n = 0;
    }
    return rc;
}

void peer_free(hazard_rupture *rups, long n) {
    for (long i = 0; i < n; i++)
        free(rups[i].values);
    free(rups);
}
