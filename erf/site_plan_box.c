#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cs_geo.h"
#include "moment_tensor.h"
#include "site_plan.h"

/* A value as the parameter file carries it (printed, then read back by the solver): the box
 * values must come from the very numbers the solver's geodesy would start from, or a GPU node's
 * run and a full build's could land on different nodes. */
static double as_written(const char *fmt, double v) {
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return strtod(buf, NULL);
}

int site_plan_box_values(const site_plan *p, const plan_options *o, site_plan_box *b,
                         cs_error *err) {
    const double lon0 = as_written("%.10f", p->site_lon), lat0 = as_written("%.10f", p->site_lat);
    const double rot = as_written("%.15g", o->rotation), h = as_written("%.15g", p->h);
    const double x0 = as_written("%.15g", p->x0), y0 = as_written("%.15g", p->y0);
    cs_geo_frame *f;
    CS_CALL(err, cs_geo_frame_create(lon0, lat0, rot, &f, err));
    /* The source is the site, at the surface, snapped to its node as the solver snaps it. */
    double x, y, lon, lat;
    int rc;
    CS_CALL_GOTO(rc, err, cs_geo_to_local(f, lon0, lat0, &x, &y, err), done);
    b->source[0] = (int)lround((x - x0) / h);
    b->source[1] = (int)lround((y - y0) / h);
    b->source[2] = 0;
    CS_CALL_GOTO(
        rc, err,
        cs_geo_to_geographic(f, x0 + b->source[0] * h, y0 + b->source[1] * h, &lon, &lat, err),
        done);
    CS_CALL_GOTO(rc, err, cs_geo_box_axes_enu(f, lon, lat, b->axes_enu, err), done);
    for (int c = 0; c < 3; c++) {
        double e[3] = {0, 0, 0};
        e[c] = 1;
        mt_vector_enu_to_box(e, b->axes_enu, b->force[c]);
    }
done:
    cs_geo_frame_free(f);
    return rc;
}
