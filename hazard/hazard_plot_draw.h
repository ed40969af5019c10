/* What the plot files of hazard/ share (hazard_plot.c, hazard_plot_disagg.c,
 * hazard_plot_traces.c): the surface written under a temporary name and renamed into place,
 * text placed by its anchor, round steps. Not for use outside the plots. */
#ifndef HAZARD_PLOT_DRAW_H
#define HAZARD_PLOT_DRAW_H

#include <cairo.h>

#include "cs_error.h"

typedef void (*hazard_plot_drawer)(cairo_t *cr, const void *spec);

/* Draws through fn onto a width x height PNG or SVG surface (by the path's extension) under a
 * temporary name, renamed into place. */
int hazard_plot_write(const char *path, int width, int height, hazard_plot_drawer fn,
                      const void *spec, cs_error *err);

/* Text at (x, y): ax 0, 0.5, 1 puts its left end, middle, right end there; ay 0 its baseline,
 * 0.5 its middle, 1 its top (the height of its ink above the baseline). */
void hazard_plot_text(cairo_t *cr, double x, double y, const char *s, double ax, double ay);

/* A round step for a span: 1, 2 or 5 times a power of ten, about `lines` steps. */
double hazard_plot_nice_step(double span, double lines);

/* White background and the sans-serif face. */
void hazard_plot_begin(cairo_t *cr);

#endif
