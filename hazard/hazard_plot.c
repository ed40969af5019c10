#include "hazard_plot.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "hazard_curve.h"

enum { WIDTH = 760, HEIGHT = 560, LEFT = 90, RIGHT = 30, TOP = 50, BOTTOM = 70 };

static const double palette[][3] = {{0.00, 0.27, 0.60}, {0.80, 0.20, 0.10}, {0.10, 0.55, 0.20},
                                    {0.55, 0.30, 0.65}, {0.85, 0.55, 0.05}, {0.30, 0.30, 0.30}};

typedef struct {
    double lx0, lx1, ly0, ly1; /* log10 of the axis ranges */
} frame;

static double px(const frame *f, double x) {
    return LEFT + (log10(x) - f->lx0) / (f->lx1 - f->lx0) * (WIDTH - LEFT - RIGHT);
}
static double py(const frame *f, double y) {
    return HEIGHT - BOTTOM - (log10(y) - f->ly0) / (f->ly1 - f->ly0) * (HEIGHT - TOP - BOTTOM);
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double ax, double ay) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - ax * e.width - e.x_bearing, y + ay * e.height);
    cairo_show_text(cr, s);
}

/* The x label (x_from_bottom above the image's bottom), the y label turned upright
 * (y_from_left from the left edge) and the title. */
static void labels(cairo_t *cr, const char *title, const char *xlabel, const char *ylabel,
                   double x_from_bottom, double y_from_left, double title_size) {
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 14);
    text_at(cr, LEFT + 0.5 * (WIDTH - LEFT - RIGHT), HEIGHT - x_from_bottom, xlabel, 0.5, 0.0);
    cairo_save(cr);
    cairo_translate(cr, y_from_left, TOP + 0.5 * (HEIGHT - TOP - BOTTOM));
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, ylabel, 0.5, 0.5);
    cairo_restore(cr);
    cairo_set_font_size(cr, title_size);
    text_at(cr, LEFT + 0.5 * (WIDTH - LEFT - RIGHT), 30, title, 0.5, 0.0);
}

static void draw(cairo_t *cr, const plot_spec *p) {
    frame f = {log10(p->xmin), log10(p->xmax), log10(p->ymin), log10(p->ymax)};
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    /* decade grid and tick labels */
    cairo_set_line_width(cr, 0.6);
    char s[64];
    for (int d = (int)floor(f.lx0); d <= (int)ceil(f.lx1); d++) {
        double x = pow(10.0, d);
        if (x < p->xmin * 0.999 || x > p->xmax * 1.001) continue;
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, px(&f, x), TOP);
        cairo_line_to(cr, px(&f, x), HEIGHT - BOTTOM);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(s, sizeof s, "%g", x);
        text_at(cr, px(&f, x), HEIGHT - BOTTOM + 8, s, 0.5, 1.0);
    }
    for (int d = (int)floor(f.ly0); d <= (int)ceil(f.ly1); d++) {
        double y = pow(10.0, d);
        if (y < p->ymin * 0.999 || y > p->ymax * 1.001) continue;
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, LEFT, py(&f, y));
        cairo_line_to(cr, WIDTH - RIGHT, py(&f, y));
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(s, sizeof s, "1e%d", d);
        text_at(cr, LEFT - 8, py(&f, y), s, 1.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    cairo_stroke(cr);
    /* reference lines */
    for (int i = 0; i < p->nlines; i++) {
        double y = p->lines[i].y;
        if (y < p->ymin || y > p->ymax) continue;
        double dash[2] = {6, 4};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
        cairo_move_to(cr, LEFT, py(&f, y));
        cairo_line_to(cr, WIDTH - RIGHT, py(&f, y));
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        text_at(cr, WIDTH - RIGHT - 6, py(&f, y) - 4, p->lines[i].label, 1.0, 0.0);
    }
    /* curves, clipped to the frame */
    cairo_save(cr);
    cairo_rectangle(cr, LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    cairo_clip(cr);
    cairo_set_line_width(cr, 2.0);
    for (int c = 0; c < p->ncurves; c++) {
        const double *col = palette[c % 6];
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        int pen = 0;
        for (int i = 0; i < p->curves[c].n; i++) {
            double x = p->curves[c].x[i], y = p->curves[c].y[i];
            if (!(x > 0 && y > 0)) {
                pen = 0;
                continue;
            }
            if (pen)
                cairo_line_to(cr, px(&f, x), py(&f, y));
            else
                cairo_move_to(cr, px(&f, x), py(&f, y));
            pen = 1;
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
    /* legend, labels, title */
    for (int c = 0; c < p->ncurves; c++) {
        const double *col = palette[c % 6];
        double y = TOP + 16 + 18 * c, x = LEFT + 14;
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_set_line_width(cr, 2.0);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + 24, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        text_at(cr, x + 30, y, p->curves[c].label, 0.0, 0.4);
    }
    labels(cr, p->title, p->xlabel, p->ylabel, 22, 22, 15);
}

typedef void (*drawer)(cairo_t *cr, const void *spec);

static void draw_loglog(cairo_t *cr, const void *spec) {
    draw(cr, spec);
}

/* Draws through `fn` onto a PNG or SVG surface under a temporary name, renamed into place. */
static int write_surface(const char *path, drawer fn, const void *spec, cs_error *err) {
    size_t n = strlen(path);
    int svg = n > 4 && !strcmp(path + n - 4, ".svg");
    int png = n > 4 && !strcmp(path + n - 4, ".png");
    if (!svg && !png)
        return cs_error_input(err, path, NULL, NULL, "a plot is written as .png or .svg");
    char tmp[4200];
    CS_CALL(err, cs_atomic_reserve(path, tmp, sizeof tmp, err));
    cairo_surface_t *sf = svg ? cairo_svg_surface_create(tmp, WIDTH, HEIGHT)
                              : cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
    cairo_t *cr = cairo_create(sf);
    fn(cr, spec);
    cairo_destroy(cr);
    cairo_status_t st = png ? cairo_surface_write_to_png(sf, tmp) : CAIRO_STATUS_SUCCESS;
    cairo_surface_finish(sf);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    if (st != CAIRO_STATUS_SUCCESS) {
        unlink(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: cairo could not write the plot (%s)", path,
                            cairo_status_to_string(st));
    }
    return cs_atomic_publish(tmp, path, NULL, err);
}

int hazard_plot_loglog(const char *path, const plot_spec *p, cs_error *err) {
    if (!(p->xmin > 0 && p->xmax > p->xmin && p->ymin > 0 && p->ymax > p->ymin))
        return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: bad axis ranges", path);
    return write_surface(path, draw_loglog, p, err);
}

int hazard_plot_curves(const char *path, const char *title, const char *xlabel,
                       const plot_curve *curves, int n, cs_error *err) {
    const plot_curve *c = &curves[0];
    double ymin = 1e-6;
    for (int i = 0; i < c->n; i++)
        if (c->y[i] > 0 && c->y[i] < ymin) ymin = c->y[i];
    plot_hline lines[2] = {{"2% in 50 yr", hazard_annual(0.02, 50)},
                           {"10% in 50 yr", hazard_annual(0.10, 50)}};
    plot_spec ps = {title,
                    xlabel,
                    "annual probability of exceedance",
                    c->x[0],
                    c->x[c->n - 1],
                    fmax(ymin, 1e-8),
                    1,
                    curves,
                    n,
                    lines,
                    2};
    return hazard_plot_loglog(path, &ps, err);
}

static void draw_grid(cairo_t *cr, const void *spec) {
    const plot_grid_spec *g = spec;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    double w = (double)(WIDTH - LEFT - RIGHT) / g->nx, h = (double)(HEIGHT - TOP - BOTTOM) / g->ny;
    double vmax = 0;
    for (int i = 0; i < g->nx * g->ny; i++)
        vmax = fmax(vmax, g->v[i]);
    char s[32];
    for (int i = 0; i < g->nx; i++)
        for (int j = 0; j < g->ny; j++) {
            double v = g->v[i * g->ny + j], t = vmax > 0 ? v / vmax : 0;
            double x = LEFT + i * w, y = HEIGHT - BOTTOM - (j + 1) * h;
            cairo_set_source_rgb(cr, 1 - 0.85 * t, 1 - 0.6 * t, 1 - 0.2 * t);
            cairo_rectangle(cr, x, y, w, h);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
            cairo_set_line_width(cr, 0.5);
            cairo_rectangle(cr, x, y, w, h);
            cairo_stroke(cr);
            if (v >= 0.005) {
                cairo_set_source_rgb(cr, t > 0.6 ? 1 : 0, t > 0.6 ? 1 : 0, t > 0.6 ? 1 : 0);
                cairo_set_font_size(cr, 9);
                snprintf(s, sizeof s, "%.0f", 100 * v);
                text_at(cr, x + w / 2, y + h / 2, s, 0.5, 0.5);
            }
        }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 10);
    for (int i = 0; i < g->nx; i++) {
        cairo_save(cr);
        cairo_translate(cr, LEFT + (i + 0.5) * w, HEIGHT - BOTTOM + 6);
        cairo_rotate(cr, M_PI / 4);
        text_at(cr, 0, 0, g->xnames[i], 0.0, 0.5);
        cairo_restore(cr);
    }
    for (int j = 0; j < g->ny; j++)
        text_at(cr, LEFT - 6, HEIGHT - BOTTOM - (j + 0.5) * h, g->ynames[j], 1.0, 0.5);
    labels(cr, g->title, g->xlabel, g->ylabel, 12, 18, 14);
}

int hazard_plot_grid(const char *path, const plot_grid_spec *g, cs_error *err) {
    if (g->nx < 1 || g->ny < 1)
        return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: empty grid", path);
    return write_surface(path, draw_grid, g, err);
}

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

/* A round grid step for a span: 1, 2 or 5 times a power of ten, about five lines. */
static double nice_step(double span) {
    double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void draw_map(cairo_t *cr, const void *spec) {
    const plot_map_spec *m = spec;
    enum { MR = 150 }; /* right margin: the colour bar */
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    double lo0 = m->lon[0], lo1 = m->lon[0], la0 = m->lat[0], la1 = m->lat[0];
    double v0 = INFINITY, v1 = 0;
    for (int i = 0; i < m->n; i++) {
        lo0 = fmin(lo0, m->lon[i]), lo1 = fmax(lo1, m->lon[i]);
        la0 = fmin(la0, m->lat[i]), la1 = fmax(la1, m->lat[i]);
        if (m->value[i] > 0) v0 = fmin(v0, m->value[i]), v1 = fmax(v1, m->value[i]);
    }
    if (!(v1 > 0)) v0 = v1 = 1;
    if (v1 <= v0 * 1.01) v0 /= 1.5, v1 *= 1.5;
    /* the frame: 15% margin, at least 0.1 degrees, east-west stretched by cos(latitude) */
    double k = cos((la0 + la1) / 2 * M_PI / 180);
    double w = WIDTH - LEFT - MR, h = HEIGHT - TOP - BOTTOM;
    double dx = fmax((lo1 - lo0) * 1.3, 0.1), dy = fmax((la1 - la0) * 1.3, 0.1);
    double scale = fmin(w / (dx * k), h / dy); /* pixels per degree of latitude */
    double cx = (lo0 + lo1) / 2, cy = (la0 + la1) / 2;
    double x0 = cx - w / (2 * scale * k), y0 = cy - h / (2 * scale);
#define MX(lon) (LEFT + ((lon)-x0) * scale * k)
#define MY(lat) (HEIGHT - BOTTOM - ((lat)-y0) * scale)
    char s[64];
    cairo_set_line_width(cr, 0.5);
    cairo_set_font_size(cr, 11);
    double step = nice_step(fmax(w / (scale * k), h / scale));
    for (double g = ceil(x0 / step) * step; g <= x0 + w / (scale * k); g += step) {
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, MX(g), TOP);
        cairo_line_to(cr, MX(g), HEIGHT - BOTTOM);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(s, sizeof s, "%.6g", g);
        text_at(cr, MX(g), HEIGHT - BOTTOM + 16, s, 0.5, 0.0);
    }
    for (double g = ceil(y0 / step) * step; g <= y0 + h / scale; g += step) {
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, LEFT, MY(g));
        cairo_line_to(cr, LEFT + w, MY(g));
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(s, sizeof s, "%.6g", g);
        text_at(cr, LEFT - 6, MY(g), s, 1.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, LEFT, TOP, w, h);
    cairo_stroke(cr);
    double lv0 = log10(v0), lv1 = log10(v1), rgb[3];
    for (int i = 0; i < m->n; i++) {
        double x = MX(m->lon[i]), y = MY(m->lat[i]);
        if (m->value[i] > 0) {
            ramp((log10(m->value[i]) - lv0) / (lv1 - lv0), rgb);
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        } else {
            cairo_set_source_rgb(cr, 1, 1, 1);
        }
        cairo_arc(cr, x, y, 9, 0, 2 * M_PI);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_stroke(cr);
        snprintf(s, sizeof s, "%s %.3g", m->names[i], m->value[i]);
        cairo_set_font_size(cr, 11);
        text_at(cr, x + 12, y, s, 0.0, 0.5);
    }
    /* colour bar */
    double bx = WIDTH - MR + 30, bw = 22;
    for (int j = 0; j < 100; j++) {
        ramp(j / 99.0, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, bx, HEIGHT - BOTTOM - (j + 1) * h / 100, bw, h / 100 + 0.5);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, bx, TOP, bw, h);
    cairo_stroke(cr);
    for (int j = 0; j <= 4; j++) {
        double lv = lv0 + (lv1 - lv0) * j / 4;
        snprintf(s, sizeof s, "%.3g", pow(10, lv));
        text_at(cr, bx + bw + 5, HEIGHT - BOTTOM - h * j / 4, s, 0.0, 0.5);
    }
    cairo_save(cr);
    cairo_translate(cr, WIDTH - 12, TOP + h / 2);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, m->unit, 0.5, 0.5);
    cairo_restore(cr);
#undef MX
#undef MY
    labels(cr, m->title, "longitude (degrees)", "latitude (degrees)", 18, 22, 15);
}

int hazard_plot_map(const char *path, const plot_map_spec *m, cs_error *err) {
    if (m->n < 1) return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: no sites", path);
    return write_surface(path, draw_map, m, err);
}
