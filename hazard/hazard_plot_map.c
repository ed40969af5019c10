/* Sites on a map (hazard_plot.h): a longitude-latitude frame at equal distances along both axes
 * at the mean latitude, a graticule labelled in degrees east or west and north or south, a scale
 * bar in km, each site a disc coloured by its value on a logarithmic scale (a hollow grey circle
 * without a value), its name and value beside it, and a colour bar with the unit and the site
 * values marked on it.
 *
 * The colour range is the data's: the smallest to the largest value, widened about their
 * geometric middle to a factor of 2 at least, so one site (or sites of about one value) sits in
 * the middle of the bar and no range is made up beyond that. */
#include <math.h>
#include <stdio.h>

#include "hazard_plot.h"
#include "hazard_plot_draw.h"

enum { MW = 900, MH = 660, ML = 100, MT = 80, MR = 200, MB = 80 };

/* A perceptual colour ramp (viridis at five stops, linear between them), t in [0, 1]. */
static void ramp(double t, double rgb[3]) {
    static const double stop[5][3] = {{0.267, 0.005, 0.329},
                                      {0.230, 0.322, 0.546},
                                      {0.128, 0.567, 0.551},
                                      {0.369, 0.789, 0.383},
                                      {0.993, 0.906, 0.144}};
    t = fmin(fmax(t, 0), 1) * 4;
    int i = (int)fmin(floor(t), 3);
    double f = t - i;
    for (int k = 0; k < 3; k++)
        rgb[k] = stop[i][k] + f * (stop[i + 1][k] - stop[i][k]);
}

/* A diverging scale (signed values, linear, blue below 0, white at 0, red above) or the
 * logarithmic one. */
static int has_value_in(const plot_map_spec *m, double v) {
    return m->diverging ? isfinite(v) : isfinite(v) && v > 0;
}
#define has_value(v) has_value_in(m, v)

/* Where v sits on the colour scale, 0 to 1. */
static double frac(const plot_map_spec *m, double v, double v0, double v1) {
    if (m->diverging) return (v - v0) / (v1 - v0);
    return (log10(v) - log10(v0)) / (log10(v1) - log10(v0));
}

static void colour(const plot_map_spec *m, double t, double rgb[3]) {
    if (!m->diverging) {
        ramp(t, rgb);
        return;
    }
    static const double lo[3] = {0.23, 0.30, 0.75}, hi[3] = {0.71, 0.02, 0.15};
    t = fmin(fmax(t, 0), 1);
    for (int k = 0; k < 3; k++)
        rgb[k] = t < 0.5 ? lo[k] + (1 - lo[k]) * (t / 0.5) : 1 + (hi[k] - 1) * ((t - 0.5) / 0.5);
}

void hazard_plot_map_range(const plot_map_spec *m, double *lo, double *hi) {
    if (m->vmin > 0 && m->vmax > m->vmin) {
        *lo = m->vmin, *hi = m->vmax;
        return;
    }
    if (m->diverging) { /* symmetric about 0: the largest magnitude */
        double a = 0;
        for (int i = 0; i < m->n; i++)
            if (has_value(m->value[i])) a = fmax(a, fabs(m->value[i]));
        for (long q = 0; m->gv && q < (long)m->gnlon * m->gnlat; q++)
            if (has_value(m->gv[q])) a = fmax(a, fabs(m->gv[q]));
        if (!(a > 0)) a = 1e-3;
        *lo = -a, *hi = a;
        return;
    }
    double v0 = INFINITY, v1 = 0;
    for (int i = 0; i < m->n; i++)
        if (has_value(m->value[i])) v0 = fmin(v0, m->value[i]), v1 = fmax(v1, m->value[i]);
    for (long q = 0; m->gv && q < (long)m->gnlon * m->gnlat; q++)
        if (has_value(m->gv[q])) v0 = fmin(v0, m->gv[q]), v1 = fmax(v1, m->gv[q]);
    if (!(v1 > 0)) v0 = v1 = 1;
    if (v1 < 2 * v0) {
        double mid = sqrt(v0 * v1);
        v0 = mid / sqrt(2), v1 = mid * sqrt(2);
    }
    *lo = v0, *hi = v1;
}

/* "118.25°W", "34.1°N" with the decimals the step needs. */
static void degrees(char *s, size_t size, double v, double step, const char *pos, const char *neg) {
    int dec = (int)fmax(0, ceil(-log10(step) - 1e-9));
    if (fabs(v) < 0.5 * step) v = 0;
    snprintf(s, size, "%.*f\xc2\xb0%s", dec, fabs(v), v > 0 ? pos : v < 0 ? neg : "");
}

/* Text on a white halo, so that it stays legible over grid lines and discs. */
static void halo_text(cairo_t *cr, double x, double y, const char *s, double ax, double ay) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - ax * e.width - e.x_bearing, y + ay * e.height);
    cairo_text_path(cr, s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 3);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    hazard_plot_text(cr, x, y, s, ax, ay);
}

typedef struct {
    double x0, y0, scale, k; /* west and south edges (degrees), px per degree latitude, cos lat */
} geo;

static double gx(const geo *g, double lon) {
    return ML + (lon - g->x0) * g->scale * g->k;
}
static double gy(const geo *g, double lat) {
    return MH - MB - (lat - g->y0) * g->scale;
}

static void graticule(cairo_t *cr, const geo *g, double w, double h) {
    double wdeg = w / (g->scale * g->k), hdeg = h / g->scale;
    double step = hazard_plot_nice_step(fmax(wdeg, hdeg), 5);
    char s[64];
    cairo_set_font_size(cr, 13);
    cairo_set_line_width(cr, 0.6);
    for (double d = ceil(g->x0 / step - 1e-9) * step; d <= g->x0 + wdeg + 1e-9; d += step) {
        double x = gx(g, d);
        cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
        cairo_move_to(cr, x, MT);
        cairo_line_to(cr, x, MH - MB);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, x, MH - MB);
        cairo_line_to(cr, x, MH - MB + 6);
        cairo_stroke(cr);
        degrees(s, sizeof s, d, step, "E", "W");
        hazard_plot_text(cr, x, MH - MB + 10, s, 0.5, 1.0);
    }
    for (double d = ceil(g->y0 / step - 1e-9) * step; d <= g->y0 + hdeg + 1e-9; d += step) {
        double y = gy(g, d);
        cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
        cairo_move_to(cr, ML, y);
        cairo_line_to(cr, ML + w, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, ML - 6, y);
        cairo_line_to(cr, ML, y);
        cairo_stroke(cr);
        degrees(s, sizeof s, d, step, "N", "S");
        hazard_plot_text(cr, ML - 9, y, s, 1.0, 0.5);
    }
}

/* A scale bar of a round number of km in the lower left corner. */
static void scale_bar(cairo_t *cr, const geo *g, double w) {
    double km_per_px = 111.195 / g->scale; /* km per degree of latitude (mean radius) */
    double km = hazard_plot_nice_step(w * km_per_px / 5, 1), px = km / km_per_px;
    double x = ML + 16, y = MH - MB - 18;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_rectangle(cr, x - 8, y - 24, px + 16, 34);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, x, y, px / 2, 5);
    cairo_fill(cr);
    cairo_rectangle(cr, x, y, px, 5);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    char s[32];
    snprintf(s, sizeof s, "%g km", km);
    cairo_set_font_size(cr, 12);
    hazard_plot_text(cr, x + px / 2, y - 5, s, 0.5, 0.0);
}

static void colour_bar(cairo_t *cr, const plot_map_spec *m, double v0, double v1, double h) {
    double bx = MW - MR + 60, bw = 24, lv0 = log10(v0), lv1 = log10(v1), rgb[3];
    double top = MT + 30, bh = h - 30;
#define BY(v) (top + bh - frac(m, v, v0, v1) * bh)
    for (int j = 0; j < 200; j++) {
        colour(m, j / 199.0, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, bx, top + bh - (j + 1) * bh / 200, bw, bh / 200 + 0.6);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, bx, top, bw, bh);
    cairo_stroke(cr);
    /* ticks at 1 times powers of ten, or 1, 2 and 5 times, or 1 to 9 times: the first set
     * that puts three ticks in the range */
    static const int sets[3][10] = {{1, 0}, {1, 2, 5, 0}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}};
    char s[32];
    cairo_set_font_size(cr, 13);
    if (m->diverging) { /* linear ticks at a round step */
        double step = hazard_plot_nice_step(v1 - v0, 5);
        for (double v = ceil(v0 / step - 1e-9) * step; v <= v1 + 1e-9 * step; v += step) {
            double tv = fabs(v) < 1e-9 * step ? 0 : v;
            cairo_move_to(cr, bx + bw, BY(tv));
            cairo_line_to(cr, bx + bw + 5, BY(tv));
            cairo_stroke(cr);
            snprintf(s, sizeof s, "%g", tv);
            hazard_plot_text(cr, bx + bw + 8, BY(tv), s, 0.0, 0.5);
        }
    }
    for (int set = 0; set < 3 && !m->diverging; set++) {
        int nt = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1 && nt < 3 && set < 2) break;
            for (int d = (int)floor(lv0) - 1; d <= (int)ceil(lv1); d++)
                for (const int *q = sets[set]; *q; q++) {
                    double v = *q * pow(10, d);
                    if (v < v0 * 0.9999 || v > v1 * 1.0001) continue;
                    if (pass == 0) {
                        nt++;
                        continue;
                    }
                    cairo_move_to(cr, bx + bw, BY(v));
                    cairo_line_to(cr, bx + bw + 5, BY(v));
                    cairo_stroke(cr);
                    snprintf(s, sizeof s, "%g", v);
                    hazard_plot_text(cr, bx + bw + 8, BY(v), s, 0.0, 0.5);
                }
            if (pass == 1) set = 3;
        }
    }
    /* the sites' values: marks on the left of the bar */
    for (int i = 0; i < m->n; i++) {
        if (!has_value(m->value[i])) continue;
        double y = BY(fmin(fmax(m->value[i], v0), v1));
        cairo_move_to(cr, bx - 1, y);
        cairo_line_to(cr, bx - 9, y - 4);
        cairo_line_to(cr, bx - 9, y + 4);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
#undef BY
    cairo_set_font_size(cr, 14);
    hazard_plot_text(cr, bx + bw / 2, MT + 16, m->unit, 0.5, 0.0);
    cairo_set_font_size(cr, 12);
    hazard_plot_text(cr, bx + bw / 2, MH - MB + 22,
                     m->diverging ? "linear; \xe2\x97\x80 sites" : "log scale; \xe2\x97\x80 sites",
                     0.5, 1.0);
}

/* The grid's cells, clipped to the frame; a cell without a value is left blank. */
static void grid_cells(cairo_t *cr, const plot_map_spec *m, const geo *g, double v0, double v1,
                       double w, double h) {
    double rgb[3];
    cairo_save(cr);
    cairo_rectangle(cr, ML, MT, w, h);
    cairo_clip(cr);
    for (int j = 0; j < m->gnlat; j++)
        for (int i = 0; i < m->gnlon; i++) {
            double v = m->gv[(long)j * m->gnlon + i];
            if (!has_value(v)) continue;
            double lon = m->glon0 + i * m->gdlon, lat = m->glat0 + j * m->gdlat;
            double xa = gx(g, lon - 0.5 * m->gdlon), xb = gx(g, lon + 0.5 * m->gdlon);
            double ya = gy(g, lat + 0.5 * m->gdlat), yb = gy(g, lat - 0.5 * m->gdlat);
            colour(m, frac(m, v, v0, v1), rgb);
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            /* a fraction of a pixel more, so that no seam shows between cells */
            cairo_rectangle(cr, floor(xa), floor(ya), ceil(xb) - floor(xa) + 0.5,
                            ceil(yb) - floor(ya) + 0.5);
            cairo_fill(cr);
        }
    cairo_restore(cr);
}

static void draw_map(cairo_t *cr, const void *spec) {
    const plot_map_spec *m = spec;
    hazard_plot_begin(cr);
    double lo0 = m->lon[0], lo1 = m->lon[0], la0 = m->lat[0], la1 = m->lat[0];
    for (int i = 0; i < m->n; i++) {
        lo0 = fmin(lo0, m->lon[i]), lo1 = fmax(lo1, m->lon[i]);
        la0 = fmin(la0, m->lat[i]), la1 = fmax(la1, m->lat[i]);
    }
    double v0, v1;
    hazard_plot_map_range(m, &v0, &v1);
    double k = cos((la0 + la1) / 2 * M_PI / 180);
    double w = MW - ML - MR, h = MH - MT - MB;
    geo g;
    if (m->gv) {
        /* the frame: the grid's cells, edge to edge */
        double x0 = m->glon0 - 0.5 * m->gdlon, x1 = m->glon0 + (m->gnlon - 0.5) * m->gdlon;
        double y0 = m->glat0 - 0.5 * m->gdlat, y1 = m->glat0 + (m->gnlat - 0.5) * m->gdlat;
        k = cos((y0 + y1) / 2 * M_PI / 180);
        double scale = fmin(w / ((x1 - x0) * k), h / (y1 - y0));
        g = (geo){(x0 + x1) / 2 - w / (2 * scale * k), (y0 + y1) / 2 - h / (2 * scale), scale, k};
        grid_cells(cr, m, &g, v0, v1, w, h);
    } else {
        /* the frame: 25% margin, at least 0.2 degrees, east-west stretched by cos(latitude) */
        double dx = fmax((lo1 - lo0) * 1.5, 0.2 / k), dy = fmax((la1 - la0) * 1.5, 0.2);
        double scale = fmin(w / (dx * k), h / dy);
        g = (geo){(lo0 + lo1) / 2 - w / (2 * scale * k), (la0 + la1) / 2 - h / (2 * scale), scale,
                  k};
    }
    graticule(cr, &g, w, h);
    scale_bar(cr, &g, w);
    char s[96];
    double rgb[3];
    for (int pass = 0; pass < 2; pass++) /* discs, then names over them */
        for (int i = 0; i < m->n; i++) {
            double x = gx(&g, m->lon[i]), y = gy(&g, m->lat[i]);
            int val = has_value(m->value[i]);
            if (pass == 0) {
                cairo_new_path(cr);
                if (val) {
                    colour(m, frac(m, m->value[i], v0, v1), rgb);
                    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
                    cairo_arc(cr, x, y, 9, 0, 2 * M_PI);
                    cairo_fill_preserve(cr);
                    cairo_set_source_rgb(cr, 0, 0, 0);
                } else {
                    cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
                    cairo_arc(cr, x, y, 6, 0, 2 * M_PI);
                }
                cairo_set_line_width(cr, 1.2);
                cairo_stroke(cr);
                continue;
            }
            if (val)
                snprintf(s, sizeof s, m->diverging ? "%s %+.3g" : "%s %.3g", m->names[i],
                         m->value[i]);
            else
                snprintf(s, sizeof s, "%s (no run)", m->names[i]);
            cairo_set_font_size(cr, 13);
            halo_text(cr, x + 13, y, s, 0.0, 0.5);
        }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.2);
    cairo_rectangle(cr, ML, MT, w, h);
    cairo_stroke(cr);
    colour_bar(cr, m, v0, v1, h);
    cairo_set_font_size(cr, 18);
    hazard_plot_text(cr, ML + w / 2, 34, m->title, 0.5, 0.0);
    if (m->subtitle) {
        cairo_set_font_size(cr, 13);
        hazard_plot_text(cr, ML + w / 2, 58, m->subtitle, 0.5, 0.0);
    }
}

int hazard_plot_map(const char *path, const plot_map_spec *m, cs_error *err) {
    if (m->n < 1) return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: no sites", path);
    return hazard_plot_write(path, MW, MH, draw_map, m, err);
}
