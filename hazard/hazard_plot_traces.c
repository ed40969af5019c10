/* Seismograms drawn (hazard_plot.h): a panel a component on a shared time axis. */
#include <math.h>
#include <stdio.h>

#include "hazard_plot.h"
#include "hazard_plot_draw.h"

enum { TW = 900, TH = 600, TL = 100, TR = 30, TT = 60, TB = 60, GAP = 14 };

static void draw_traces(cairo_t *cr, const void *spec) {
    const plot_traces_spec *t = spec;
    hazard_plot_begin(cr);
    double w = TW - TL - TR, ph = (TH - TT - TB - GAP * (t->ntraces - 1)) / (double)t->ntraces;
    double tmax = (t->nt - 1) * t->dt, step = hazard_plot_nice_step(tmax, 8);
    char s[96];
    for (int c = 0; c < t->ntraces; c++) {
        const float *v = t->v + (size_t)c * t->nt;
        double peak = 0;
        for (int i = 0; i < t->nt; i++)
            if (isfinite(v[i])) peak = fmax(peak, fabs(v[i]));
        double top = TT + c * (ph + GAP), mid = top + ph / 2, a = peak > 0 ? 0.45 * ph / peak : 0;
        cairo_set_line_width(cr, 0.6);
        for (double x = 0; x <= tmax * 1.0001; x += step) { /* time grid */
            cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
            cairo_move_to(cr, TL + x / tmax * w, top);
            cairo_line_to(cr, TL + x / tmax * w, top + ph);
            cairo_stroke(cr);
        }
        cairo_move_to(cr, TL, mid);
        cairo_line_to(cr, TL + w, mid);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.0, 0.27, 0.60);
        cairo_set_line_width(cr, 1.1);
        int pen = 0;
        for (int i = 0; i < t->nt; i++) {
            if (!isfinite(v[i])) {
                pen = 0;
                continue;
            }
            double x = TL + i * t->dt / tmax * w, y = mid - a * v[i];
            if (pen)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y);
            pen = 1;
        }
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_set_line_width(cr, 1);
        cairo_rectangle(cr, TL, top, w, ph);
        cairo_stroke(cr);
        cairo_set_font_size(cr, 16);
        hazard_plot_text(cr, TL - 14, mid, t->names[c], 1.0, 0.5);
        cairo_set_font_size(cr, 13);
        if (peak > 0)
            snprintf(s, sizeof s, "peak %.3g %s", peak, t->unit);
        else
            snprintf(s, sizeof s, "%s", "no values");
        hazard_plot_text(cr, TL + w - 8, top + 6, s, 1.0, 1.0);
    }
    cairo_set_font_size(cr, 14);
    for (double x = 0; x <= tmax * 1.0001; x += step) {
        snprintf(s, sizeof s, "%g", x);
        hazard_plot_text(cr, TL + x / tmax * w, TH - TB + 8, s, 0.5, 1.0);
    }
    cairo_set_font_size(cr, 15);
    hazard_plot_text(cr, TL + w / 2, TH - 14, "time after the rupture's origin time (s)", 0.5, 0.0);
    cairo_set_font_size(cr, 17);
    hazard_plot_text(cr, TL + w / 2, 32, t->title, 0.5, 0.0);
}

int hazard_plot_traces(const char *path, const plot_traces_spec *t, cs_error *err) {
    if (t->ntraces < 1 || t->nt < 2 || !(t->dt > 0))
        return cs_error_set(err, CS_ERR_INTERNAL, "plot %s: no samples", path);
    return hazard_plot_write(path, TW, TH, draw_traces, t, err);
}
