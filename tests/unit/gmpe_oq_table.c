/* OpenQuake's GMPE verification tables (gmpe_oq_table.h). */
#include "gmpe_oq_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tf.h"

enum {
    F_SKIP, /* damping, PGV */
    F_PERIOD,
    F_KIND,
    F_MAG,
    F_RAKE,
    F_DIP,
    F_ZTOR,
    F_WIDTH,
    F_ZHYP,
    F_RRUP,
    F_RJB,
    F_RX,
    F_RY0,
    F_VS30,
    F_VS30_MEASURED,
    F_Z1,
    F_Z2P5
};

static const struct {
    const char *name;
    int field;
} columns[] = {
    {"rup_mag", F_MAG},    {"rup_rake", F_RAKE},   {"rup_dip", F_DIP},
    {"rup_ztor", F_ZTOR},  {"rup_width", F_WIDTH}, {"rup_hypo_depth", F_ZHYP},
    {"dist_rrup", F_RRUP}, {"dist_rjb", F_RJB},    {"dist_rx", F_RX},
    {"dist_ry0", F_RY0},   {"site_vs30", F_VS30},  {"site_vs30measured", F_VS30_MEASURED},
    {"site_z1pt0", F_Z1},  {"site_z2pt5", F_Z2P5}, {"result_type", F_KIND},
    {"damping", F_SKIP},   {"pgv", F_SKIP}};

/* The fields of a line, split at commas, blanks trimmed; a trailing empty field dropped. */
static int split(char *line, char **tok, int max) {
    int n = 0;
    char *p = line;
    for (;;) {
        char *c = strchr(p, ',');
        if (c) *c = 0;
        char *e = p + strlen(p);
        while (*p == ' ' || *p == '\t')
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t'))
            *--e = 0;
        if (n == max) return -1;
        tok[n++] = p;
        if (!c) break;
        p = c + 1;
    }
    if (n > 0 && !*tok[n - 1]) n--;
    return n;
}

int oq_table_open(oq_table *t, const char *name) {
    memset(t, 0, sizeof *t);
    char path[4200], line[8192];
    if (name[0] == '/')
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/tests/data/gmpe/%s", tf_repo(), name);
    t->f = fopen(path, "r");
    if (!t->f) {
        snprintf(t->error, sizeof t->error, "%s missing", path);
        return -1;
    }
    char *tok[OQ_MAX_COLS];
    int n = fgets(line, sizeof line, t->f) ? split(line, tok, OQ_MAX_COLS) : -1;
    if (n <= 0) {
        snprintf(t->error, sizeof t->error, "%s: no header", name);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        t->field[i] = -1;
        if (!strcmp(tok[i], "pga")) {
            t->field[i] = F_PERIOD;
            t->period[i] = 0;
        } else if (tok[i][0] >= '0' && tok[i][0] <= '9') {
            t->field[i] = F_PERIOD;
            t->period[i] = atof(tok[i]);
        }
        for (size_t k = 0; k < sizeof columns / sizeof columns[0] && t->field[i] < 0; k++)
            if (!strcmp(tok[i], columns[k].name)) t->field[i] = columns[k].field;
        if (t->field[i] < 0) {
            snprintf(t->error, sizeof t->error, "%s: unknown column %s", name, tok[i]);
            return -1;
        }
    }
    t->ncol = n;
    return 0;
}

int oq_table_next(oq_table *t, oq_row *r) {
    char line[8192], *tok[OQ_MAX_COLS];
    if (!fgets(line, sizeof line, t->f)) return 0;
    if (split(line, tok, OQ_MAX_COLS) != t->ncol) {
        snprintf(t->error, sizeof t->error, "a row without %d fields", t->ncol);
        return -1;
    }
    memset(r, 0, sizeof *r);
    gmpe_scenario *s = &r->s;
    s->z1_m = s->width = s->zhyp = s->z2p5_km = s->ry0 = NAN;
    for (int i = 0; i < t->ncol; i++) {
        const double v = atof(tok[i]);
        switch (t->field[i]) {
        case F_PERIOD:
            r->period[r->n] = t->period[i];
            r->value[r->n++] = v;
            break;
        case F_KIND:
            snprintf(r->kind, sizeof r->kind, "%s", tok[i]);
            break;
        case F_MAG:
            s->mag = v;
            break;
        case F_RAKE:
            s->rake = v;
            break;
        case F_DIP:
            s->dip = v;
            break;
        case F_ZTOR:
            s->ztor = v;
            break;
        case F_WIDTH:
            s->width = v;
            break;
        case F_ZHYP:
            s->zhyp = v;
            break;
        case F_RRUP:
            s->rrup = v;
            break;
        case F_RJB:
            s->rjb = v;
            break;
        case F_RX:
            s->rx = v;
            break;
        case F_RY0:
            s->ry0 = v;
            break;
        case F_VS30:
            s->vs30 = v;
            break;
        case F_VS30_MEASURED:
            s->vs30_measured = v != 0;
            break;
        case F_Z1:
            s->z1_m = v;
            break;
        case F_Z2P5:
            s->z2p5_km = v;
            break;
        default:
            break;
        }
    }
    return 1;
}

void oq_table_close(oq_table *t) {
    if (t->f) fclose(t->f);
    t->f = NULL;
}

void oq_table_check(const char *name, oq_model model, double tol, int *rows, double *worst) {
    oq_table t;
    oq_row r;
    *rows = 0;
    *worst = 0;
    int rc = oq_table_open(&t, name) ? -1 : 1;
    while (rc == 1 && (rc = oq_table_next(&t, &r)) == 1) {
        const gmpe_scenario *s = &r.s;
        for (int k = 0; k < r.n; k++) {
            gmpe_value g;
            cs_error err;
            const int bad = model(r.period[k], s, &g, &err);
            CHECK_MSG(!bad, "%s row %d T %g: %s", name, *rows + 1, r.period[k], err.message);
            double got = NAN;
            if (!strcmp(r.kind, "MEAN")) got = exp(g.ln_median);
            if (!strcmp(r.kind, "TOTAL_STDDEV")) got = g.sigma;
            if (!strcmp(r.kind, "INTER_EVENT_STDDEV")) got = g.tau;
            if (!strcmp(r.kind, "INTRA_EVENT_STDDEV")) got = g.phi;
            const double want = r.value[k], rel = fabs(got / want - 1);
            CHECK_MSG(rel <= tol,
                      "%s row %d (%s, M %g rake %g dip %g Ztor %g W %g Zhyp %g Rrup %g Rjb %g "
                      "Rx %g Ry0 %g Vs30 %g Z1 %g Z2.5 %g) T %g: %.7g, table %.7g (%.1e)",
                      name, *rows + 1, r.kind, s->mag, s->rake, s->dip, s->ztor, s->width, s->zhyp,
                      s->rrup, s->rjb, s->rx, s->ry0, s->vs30, s->z1_m, s->z2p5_km, r.period[k],
                      got, want, rel);
            *worst = fmax(*worst, rel);
        }
        ++*rows;
    }
    oq_table_close(&t);
    CHECK_MSG(rc == 0, "%s: %s", name, t.error);
}
