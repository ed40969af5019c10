/* Log-log plots as the field draws hazard curves (cairo; PNG or SVG by the file's extension):
 * curves of annual probability of exceedance against the intensity level, dashed horizontal
 * lines at given probabilities (2% and 10% in 50 years), decade grid, labelled axes, legend.
 * Written under a temporary name and renamed into place. */
#ifndef HAZARD_PLOT_H
#define HAZARD_PLOT_H

#include "cs_error.h"

typedef struct {
    const char *label;
    const double *x, *y; /* y <= 0 is not drawn */
    int n;
} plot_curve;

typedef struct {
    const char *label;
    double y;
} plot_hline;

typedef struct {
    const char *title, *xlabel, *ylabel;
    double xmin, xmax, ymin, ymax; /* > 0: log axes */
    const plot_curve *curves;
    int ncurves;
    const plot_hline *lines;
    int nlines;
} plot_spec;

int hazard_plot_loglog(const char *path, const plot_spec *p, cs_error *err);

/* A plot that says why there is nothing to draw: the title and up to 4 lines of text, each
 * line ending at a newline. */
int hazard_plot_note(const char *path, const char *title, const char *text, cs_error *err);

/* Hazard curves as the field draws them: annual probability of exceedance against the levels
 * (log-log), lines at 2% and 10% in 50 years, the probability axis down to 1e-6 or the first
 * curve's smallest positive value (not below 1e-8). */
int hazard_plot_curves(const char *path, const char *title, const char *xlabel,
                       const plot_curve *curves, int n, cs_error *err);

/* A disaggregation as the field draws it (hazard_plot_disagg.c): a bar for each magnitude x Rrup
 * bin with any share, in an oblique 3D view (Rrup across, magnitude receding), each bar stacked
 * by epsilon bins coloured from blue (negative) to red (positive) with their legend; the height
 * is the share in percent. Only the magnitude bins from the first to the last with a share and
 * the Rrup bins up to the last with a share are drawn. */
typedef struct {
    const char *title, *subtitle, *note; /* subtitle and note (under the plot) may be NULL */
    int nm, nr, ne;
    const double *m, *r, *e; /* bin edges: nm + 1, nr + 1, ne + 1 values; beyond 1e8: open */
    const double *v;         /* shares (fractions), v[(i * nr + j) * ne + k] */
} plot_disagg_spec;
int hazard_plot_disagg(const char *path, const plot_disagg_spec *d, cs_error *err);

/* Time series in panels one above the other on one time axis (hazard_plot_traces.c): a
 * seismogram's components, each panel scaled to its own peak (written in it) with the unit. */
typedef struct {
    const char *title, *unit;
    int ntraces, nt;
    double dt;                /* s */
    const char *const *names; /* one a trace */
    const float *v;           /* ntraces x nt */
} plot_traces_spec;
int hazard_plot_traces(const char *path, const plot_traces_spec *t, cs_error *err);

/* Sites on a longitude-latitude frame (equal distances along both axes at the mean latitude)
 * with a graticule in degrees and a scale bar, each a disc coloured by its value on a
 * logarithmic scale (a hollow grey circle where the value is NaN: a site without a run), with
 * its name and value; a colour bar with the unit on the right (hazard_plot_map.c). */
typedef struct {
    const char *title, *subtitle, *unit; /* subtitle may be NULL */
    int n;
    const double *lon, *lat, *value;
    const char *const *names;
    /* optional (gv not NULL): a grid beneath the sites, cell (i, j) centred at (glon0 + i gdlon,
     * glat0 + j gdlat) coloured by gv[j * gnlon + i] on the same scale (not drawn where NaN or
     * <= 0); the frame is then the grid's extent and the colour range covers the grid too */
    int gnlon, gnlat;
    double glon0, glat0, gdlon, gdlat;
    const double *gv;
    double vmin, vmax; /* > 0: the colour range (values beyond take the end colours) */
    int diverging;     /* signed values: a linear blue-white-red scale symmetric about 0 */
} plot_map_spec;
int hazard_plot_map(const char *path, const plot_map_spec *m, cs_error *err);
/* The colour range: the smallest to the largest value (sites and grid), widened about their
 * geometric middle to a factor of 2 at least (one site sits in the middle of the bar). */
void hazard_plot_map_range(const plot_map_spec *m, double *lo, double *hi);

#endif
