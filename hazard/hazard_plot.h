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

/* Hazard curves as the field draws them: annual probability of exceedance against the levels
 * (log-log), lines at 2% and 10% in 50 years, the probability axis down to 1e-6 or the first
 * curve's smallest positive value (not below 1e-8). */
int hazard_plot_curves(const char *path, const char *title, const char *xlabel,
                       const plot_curve *curves, int n, cs_error *err);

/* A grid of cells (nx x ny, value v[i * ny + j] for x bin i and y bin j) shaded by value with
 * the percentage written in each cell above 0.5%; axes labelled by the bins' names (an
 * M x Rrup disaggregation). */
typedef struct {
    const char *title, *xlabel, *ylabel;
    int nx, ny;
    const char *const *xnames, *const *ynames;
    const double *v;
} plot_grid_spec;
int hazard_plot_grid(const char *path, const plot_grid_spec *g, cs_error *err);

/* Sites on a longitude-latitude frame (equal distances along both axes at the mean latitude),
 * each a disc coloured by its value on a logarithmic colour scale, with its name and value; a
 * colour bar on the right. */
typedef struct {
    const char *title, *unit;
    int n;
    const double *lon, *lat, *value;
    const char *const *names;
} plot_map_spec;
int hazard_plot_map(const char *path, const plot_map_spec *m, cs_error *err);

#endif
