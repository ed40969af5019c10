/* The disaggregation plot (hazard_plot.h): oblique 3D bars of M x Rrup stacked by epsilon. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hazard_plot.h"
#include "hazard_plot_draw.h"

enum { DW = 980, DH = 760 };
/* the floor's front left corner, its width (Rrup), the receding magnitude axis, the height */
static const double FX = 110, FY = 610, FW = 450, DEPTH_X = 200, DEPTH_Y = 150, ZH = 330;

typedef struct {
    const plot_disagg_spec *d;
    int m0, m1, r1; /* bins drawn: magnitude m0..m1, Rrup 0..r1 */
    double zmax;    /* percent at the top of the z axis */
    double zstep;
} layout;

/* Blue (negative epsilon) through pale yellow to red (positive): RdYlBu, reversed. */
static void eps_colour(int k, int ne, double rgb[3]) {
    static const double stop[7][3] = {
        {0.192, 0.212, 0.584}, {0.271, 0.459, 0.706}, {0.455, 0.678, 0.820}, {0.996, 0.878, 0.565},
        {0.992, 0.682, 0.380}, {0.957, 0.427, 0.263}, {0.647, 0.000, 0.149}};
    double t = ne > 1 ? (double)k / (ne - 1) * 6 : 3;
    int i = (int)fmin(floor(t), 5);
    double f = t - i;
    for (int q = 0; q < 3; q++)
        rgb[q] = stop[i][q] + f * (stop[i + 1][q] - stop[i][q]);
}

static int open_edge(double e) {
    return fabs(e) >= 1e8;
}

static double share(const layout *L, int i, int j, int k) {
    const plot_disagg_spec *d = L->d;
    return d->v[((size_t)i * d->nr + j) * d->ne + k];
}

/* Screen point of (Rrup position u in bins, magnitude position w in bins, height z percent). */
static void pt(const layout *L, double u, double w, double z, double *x, double *y) {
    int nm = L->m1 - L->m0 + 1, nr = L->r1 + 1;
    *x = FX + u * FW / nr + w * DEPTH_X / nm;
    *y = FY - w * DEPTH_Y / nm - z / L->zmax * ZH;
}

static void quad(cairo_t *cr, const layout *L, const double u[4], const double w[4],
                 const double z[4]) {
    double x, y;
    for (int q = 0; q < 4; q++) {
        pt(L, u[q], w[q], z[q], &x, &y);
        if (q)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
    }
    cairo_close_path(cr);
}

static void fill_quad(cairo_t *cr, const layout *L, const double u[4], const double w[4],
                      const double z[4], const double rgb[3], double shade) {
    quad(cr, L, u, w, z);
    double c[3];
    for (int q = 0; q < 3; q++) /* darker below 1, towards white above */
        c[q] = shade <= 1 ? rgb[q] * shade : rgb[q] + (shade - 1) * (1 - rgb[q]);
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.15, 0.15, 0.15, 0.8);
    cairo_set_line_width(cr, 0.6);
    cairo_stroke(cr);
}

/* Floor grid, the two back walls with the percent lines, and the axes' labels. */
static void frame(cairo_t *cr, const layout *L) {
    const plot_disagg_spec *d = L->d;
    int nm = L->m1 - L->m0 + 1, nr = L->r1 + 1;
    double x, y;
    /* floor and walls */
    double fu[4] = {0, nr, nr, 0}, fw[4] = {0, 0, nm, nm}, fz[4] = {0, 0, 0, 0};
    quad(cr, L, fu, fw, fz);
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    cairo_fill(cr);
    double bu[4] = {0, nr, nr, 0}, bw[4] = {nm, nm, nm, nm}, bz[4] = {0, 0, L->zmax, L->zmax};
    quad(cr, L, bu, bw, bz);
    cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
    cairo_fill(cr);
    double lu[4] = {0, 0, 0, 0}, lw[4] = {0, nm, nm, 0}, lz[4] = {0, 0, L->zmax, L->zmax};
    quad(cr, L, lu, lw, lz);
    cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
    cairo_fill(cr);
    cairo_set_line_width(cr, 0.7);
    cairo_set_source_rgb(cr, 0.72, 0.72, 0.72);
    for (int j = 0; j <= nr; j++) { /* Rrup edges across the floor, up the back wall */
        pt(L, j, 0, 0, &x, &y), cairo_move_to(cr, x, y);
        pt(L, j, nm, 0, &x, &y), cairo_line_to(cr, x, y);
        pt(L, j, nm, L->zmax, &x, &y), cairo_line_to(cr, x, y);
    }
    for (int i = 0; i <= nm; i++) { /* magnitude edges across the floor, up the left wall */
        pt(L, nr, i, 0, &x, &y), cairo_move_to(cr, x, y);
        pt(L, 0, i, 0, &x, &y), cairo_line_to(cr, x, y);
        pt(L, 0, i, L->zmax, &x, &y), cairo_line_to(cr, x, y);
    }
    cairo_stroke(cr);
    /* percent lines on the walls, labels on the front left edge */
    char s[64];
    cairo_set_font_size(cr, 14);
    for (double z = 0; z <= L->zmax * 1.0001; z += L->zstep) {
        cairo_set_source_rgb(cr, 0.72, 0.72, 0.72);
        pt(L, 0, 0, z, &x, &y), cairo_move_to(cr, x, y);
        pt(L, 0, nm, z, &x, &y), cairo_line_to(cr, x, y);
        pt(L, nr, nm, z, &x, &y), cairo_line_to(cr, x, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        pt(L, 0, 0, z, &x, &y);
        cairo_move_to(cr, x - 6, y), cairo_line_to(cr, x, y), cairo_stroke(cr);
        snprintf(s, sizeof s, "%g", z);
        hazard_plot_text(cr, x - 10, y, s, 1.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_save(cr);
    pt(L, 0, 0, L->zmax / 2, &x, &y);
    cairo_translate(cr, x - 58, y);
    cairo_rotate(cr, -M_PI / 2);
    cairo_set_font_size(cr, 15);
    hazard_plot_text(cr, 0, 0, "share of the hazard (%)", 0.5, 0.5);
    cairo_restore(cr);
    /* Rrup: the finite edges under the front edge */
    cairo_set_font_size(cr, 14);
    for (int j = 0; j <= nr; j++) {
        if (open_edge(d->r[j])) continue;
        pt(L, j, 0, 0, &x, &y);
        cairo_move_to(cr, x, y), cairo_line_to(cr, x, y + 6), cairo_stroke(cr);
        snprintf(s, sizeof s, "%g", d->r[j]);
        hazard_plot_text(cr, x, y + 10, s, 0.5, 1.0);
    }
    pt(L, nr / 2.0, 0, 0, &x, &y);
    cairo_set_font_size(cr, 15);
    hazard_plot_text(cr, x, y + 48, "Rrup (km)", 0.5, 0.0);
    /* magnitude: edges along the right side of the floor, upright, every stride-th */
    double per = DEPTH_Y / nm;
    int stride = (int)ceil(17.0 / per);
    cairo_set_font_size(cr, 14);
    for (int i = 0; i <= nm; i++) {
        double e = d->m[L->m0 + i];
        if (open_edge(e) || i % stride) continue;
        pt(L, nr, i, 0, &x, &y);
        cairo_move_to(cr, x, y), cairo_line_to(cr, x + 7, y), cairo_stroke(cr);
        snprintf(s, sizeof s, "%g", e);
        hazard_plot_text(cr, x + 10, y, s, 0.0, 0.5);
    }
    pt(L, nr, nm / 2.0, 0, &x, &y);
    cairo_set_font_size(cr, 15);
    hazard_plot_text(cr, x + 58, y + 28, "magnitude", 0.0, 0.5);
}

static void bar(cairo_t *cr, const layout *L, int i, int j) {
    const plot_disagg_spec *d = L->d;
    double w0 = i - L->m0 + 0.18, w1 = w0 + 0.64, u0 = j + 0.16, u1 = u0 + 0.68;
    double z = 0, rgb[3];
    for (int k = 0; k < d->ne; k++) {
        double h = 100 * share(L, i, j, k);
        if (h <= 0) continue;
        eps_colour(k, d->ne, rgb);
        double z1 = z + h;
        double fu[4] = {u0, u1, u1, u0}, fw[4] = {w0, w0, w0, w0}, fz[4] = {z, z, z1, z1};
        fill_quad(cr, L, fu, fw, fz, rgb, 1.0);
        double su[4] = {u1, u1, u1, u1}, sw[4] = {w0, w1, w1, w0}, sz[4] = {z, z, z1, z1};
        fill_quad(cr, L, su, sw, sz, rgb, 0.72);
        z = z1;
    }
    if (z <= 0) return;
    int top = d->ne - 1;
    while (top > 0 && share(L, i, j, top) <= 0)
        top--;
    eps_colour(top, d->ne, rgb);
    double tu[4] = {u0, u1, u1, u0}, tw[4] = {w0, w0, w1, w1}, tz[4] = {z, z, z, z};
    fill_quad(cr, L, tu, tw, tz, rgb, 1.3);
}

static void eps_name(char *s, size_t size, const double *e, int k) {
    if (open_edge(e[k]))
        snprintf(s, size, "\xce\xb5 < %g", e[k + 1]);
    else if (open_edge(e[k + 1]))
        snprintf(s, size, "\xce\xb5 \xe2\x89\xa5 %g", e[k]);
    else
        snprintf(s, size, "%g \xe2\x89\xa4 \xce\xb5 < %g", e[k], e[k + 1]);
}

static void legend(cairo_t *cr, const layout *L) {
    const plot_disagg_spec *d = L->d;
    double x = DW - 170, y = 150, rgb[3];
    char s[64];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 15);
    hazard_plot_text(cr, x, y, "epsilon", 0.0, 0.0);
    cairo_set_font_size(cr, 14);
    for (int k = d->ne - 1; k >= 0; k--) { /* positive on top, as in the bars */
        y += 26;
        eps_colour(k, d->ne, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, x, y - 16, 22, 18);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        cairo_set_line_width(cr, 0.8);
        cairo_stroke(cr);
        eps_name(s, sizeof s, d->e, k);
        hazard_plot_text(cr, x + 30, y - 7, s, 0.0, 0.5);
    }
}

static void draw_disagg(cairo_t *cr, const void *spec) {
    const layout *L = spec;
    const plot_disagg_spec *d = L->d;
    hazard_plot_begin(cr);
    frame(cr, L);
    for (int i = L->m1; i >= L->m0; i--) /* back rows first, left to right */
        for (int j = 0; j <= L->r1; j++)
            bar(cr, L, i, j);
    legend(cr, L);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 19);
    hazard_plot_text(cr, DW / 2.0, 36, d->title, 0.5, 0.0);
    cairo_set_font_size(cr, 15);
    if (d->subtitle) hazard_plot_text(cr, DW / 2.0, 62, d->subtitle, 0.5, 0.0);
    if (d->note) hazard_plot_text(cr, DW / 2.0, DH - 18, d->note, 0.5, 0.0);
}

int hazard_plot_disagg(const char *path, const plot_disagg_spec *d, cs_error *err) {
    if (d->nm < 1 || d->nr < 1 || d->ne < 1)
        return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: no bins", path);
    layout L = {d, d->nm, -1, -1, 0, 0};
    double hmax = 0;
    for (int i = 0; i < d->nm; i++)
        for (int j = 0; j < d->nr; j++) {
            double h = 0;
            for (int k = 0; k < d->ne; k++)
                h += d->v[((size_t)i * d->nr + j) * d->ne + k];
            if (h <= 0) continue;
            L.m0 = i < L.m0 ? i : L.m0;
            L.m1 = i > L.m1 ? i : L.m1;
            L.r1 = j > L.r1 ? j : L.r1;
            hmax = fmax(hmax, 100 * h);
        }
    if (L.m1 < 0)
        return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: every bin's share is zero", path);
    /* context: at least 8 magnitude bins (about the ones with a share) and 3 Rrup bins */
    while (L.m1 - L.m0 + 1 < 8 && (L.m0 > 0 || L.m1 < d->nm - 1)) {
        if (L.m1 < d->nm - 1) L.m1++;
        if (L.m1 - L.m0 + 1 < 8 && L.m0 > 0) L.m0--;
    }
    while (L.r1 < 2 && L.r1 < d->nr - 1)
        L.r1++;
    L.zstep = hazard_plot_nice_step(hmax, 5);
    L.zmax = ceil(hmax / L.zstep - 1e-9) * L.zstep;
    return hazard_plot_write(path, DW, DH, draw_disagg, &L, err);
}
