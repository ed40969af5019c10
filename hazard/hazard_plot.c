#include "hazard_plot.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "hazard_curve.h"
#include "hazard_plot_draw.h"

enum { WIDTH = 760, HEIGHT = 560, LEFT = 90, RIGHT = 30, TOP = 50, BOTTOM = 70 };

/* seven colours: a run's curve, five GMPE curves and their weighted mean (black) stay apart */
static const double palette[][3] = {{0.00, 0.27, 0.60}, {0.80, 0.20, 0.10}, {0.10, 0.55, 0.20},
                                    {0.55, 0.30, 0.65}, {0.85, 0.55, 0.05}, {0.30, 0.30, 0.30},
                                    {0.00, 0.00, 0.00}};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

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
    hazard_plot_text(cr, x, y, s, ax, ay);
}

void hazard_plot_text(cairo_t *cr, double x, double y, const char *s, double ax, double ay) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - ax * e.width - e.x_bearing, y + ay * e.height);
    cairo_show_text(cr, s);
}

void hazard_plot_begin(cairo_t *cr) {
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
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
        const double *col = palette[c % NPALETTE];
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
        const double *col = palette[c % NPALETTE];
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

static void draw_loglog(cairo_t *cr, const void *spec) {
    draw(cr, spec);
}

int hazard_plot_write(const char *path, int width, int height, hazard_plot_drawer fn,
                      const void *spec, cs_error *err) {
    size_t n = strlen(path);
    int svg = n > 4 && !strcmp(path + n - 4, ".svg");
    int png = n > 4 && !strcmp(path + n - 4, ".png");
    if (!svg && !png)
        return cs_error_input(err, path, NULL, NULL, "a plot is written as .png or .svg");
    char tmp[4200];
    CS_CALL(err, cs_atomic_reserve(path, tmp, sizeof tmp, err));
    cairo_surface_t *sf = svg ? cairo_svg_surface_create(tmp, width, height)
                              : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
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

static int write_surface(const char *path, hazard_plot_drawer fn, const void *spec, cs_error *err) {
    return hazard_plot_write(path, WIDTH, HEIGHT, fn, spec, err);
}

typedef struct {
    const char *title, *text;
} note_spec;

static void draw_note(cairo_t *cr, const void *spec) {
    const note_spec *n = spec;
    hazard_plot_begin(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 20);
    text_at(cr, 0.5 * WIDTH, 0.3 * HEIGHT, n->title, 0.5, 0.5);
    cairo_set_font_size(cr, 16);
    const char *t = n->text;
    for (int line = 0; line < 4 && t && *t; line++) {
        const char *e = strchr(t, '\n');
        size_t len = e ? (size_t)(e - t) : strlen(t);
        char buf[256];
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, t, len);
        buf[len] = 0;
        text_at(cr, 0.5 * WIDTH, 0.3 * HEIGHT + 50 + 28 * line, buf, 0.5, 0.5);
        t = e ? e + 1 : NULL;
    }
}

int hazard_plot_note(const char *path, const char *title, const char *text, cs_error *err) {
    const note_spec n = {title, text};
    return write_surface(path, draw_note, &n, err);
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

double hazard_plot_nice_step(double span, double lines) {
    double raw = span / lines, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}
