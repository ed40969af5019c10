#include "sgt_effective.h"

#include <math.h>
#include <stdio.h>

#include "sgt_run.h"

void sgt_effective_add(sgt_effective_sum *acc, const sgt_material *a, double w) {
    const double mu = a->rho * a->vs * a->vs, pm = a->rho * a->vp * a->vp;
    acc->w += w;
    acc->rho += w * a->rho;
    acc->mu += w * mu;
    if (mu > 0) acc->mu_q += w * mu / a->qs; /* a fluid part adds no rigidity, nor its loss */
    acc->inv_m += w / pm;
    acc->inv_m_q += w / (pm * a->qp);
    acc->lam_over_m += w * (pm - 2 * mu) / pm;
    acc->m_lam2 += w * (pm - (pm - 2 * mu) * (pm - 2 * mu) / pm);
    acc->inv_qs += w / a->qs;
    if (mu > 0) {
        acc->inv_mu += w / mu;
        acc->inv_mu_q += w / (mu * a->qs);
    } else {
        acc->inv_mu = INFINITY; /* a fluid part: no rigidity across the cell */
    }
}

sgt_material sgt_effective_node(const sgt_effective_sum *acc, double *mu_xy, double *c11x) {
    sgt_material out;
    out.rho = acc->rho / acc->w;
    const double c33 = acc->w / acc->inv_m, c13 = acc->lam_over_m / acc->w * c33;
    if (c11x) {
        /* Backus: C11 = <M - lambda^2/M> + C13^2 / C33; in a cell of one material it equals
         * C33 but for rounding, which must not make the cell anisotropic */
        const double x = acc->m_lam2 / acc->w + c13 * c13 / c33 - c33;
        *c11x = fabs(x) <= 1e-9 * c33 ? 0.0 : x;
    }
    out.vp = sqrt(c33 / out.rho);
    out.vs = sqrt(0.5 * (c33 - c13) / out.rho);
    /* 1/Q: the compliance-weighted mean for the P modulus (springs in series: the complex
     * compliances add, exact to first order in 1/Q), the stiffness-weighted one for the shear
     * modulus, whose value here lies between the series and parallel means */
    out.qp = acc->inv_m / acc->inv_m_q;
    out.qs = acc->mu > 0 ? acc->mu / acc->mu_q : acc->w / acc->inv_qs;
    if (mu_xy) *mu_xy = acc->mu / acc->w;
    return out;
}

sgt_material sgt_effective_below(const sgt_effective_sum *acc) {
    sgt_material out;
    out.rho = acc->rho / acc->w;
    const double mu = isinf(acc->inv_mu) ? 0.0 : acc->w / acc->inv_mu;
    out.vp = sqrt(acc->w / acc->inv_m / out.rho);
    out.vs = sqrt(mu / out.rho);
    out.qp = acc->inv_m / acc->inv_m_q;
    out.qs = mu > 0 ? acc->inv_mu / acc->inv_mu_q : acc->w / acc->inv_qs;
    return out;
}

/* A node counts once per counter, however many of its samples were clamped. */
static void count_node(sgt_mesh_stats *st, const sgt_mesh_stats *cell) {
    if (!st) return;
    /* the samples' extremes (sgt_mesh_point noted them with this node's indices) */
    sgt_mesh_stats_extremes(st, cell);
    st->clamped_vs += cell->clamped_vs > 0;
    st->clamped_vp += cell->clamped_vp > 0;
    st->clamped_rho += cell->clamped_rho > 0;
    st->q_from_vs += cell->q_from_vs > 0;
}

static int is_1d(const sgt_model *m) {
    return m->kind == SGT_MODEL_LAYERED || m->kind == SGT_MODEL_LINEAR;
}

static int bandlimited(const sgt_model *m, const sgt_mesh_rules *r) {
    return is_1d(m) && r->sampling == SGT_SAMPLE_BANDLIMITED;
}

/* 3-point Gauss-Legendre on [-1, 1]: exact for the constant layers, and to 1e-6 relative for the
 * smooth functions (1/(rho v^2)) of the linear model within one of its pieces. */
static const double gl_x[3] = {-0.7745966692414834, 0.0, 0.7745966692414834};
static const double gl_w[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};

/* The band-limited kernel (Mittet 2017): sinc(pi u), the step's spectrum cut at the grid's
 * Nyquist wavenumber pi/h, tapered by a Hann window over |u| < SGT_BANDLIMIT_CELLS (u in cells
 * from the position). */
static double bandlimited_kernel(double u) {
    const double n = SGT_BANDLIMIT_CELLS;
    if (fabs(u) >= n) return 0;
    double s = u == 0 ? 1 : sin(M_PI * u) / (M_PI * u);
    return s * 0.5 * (1 + cos(M_PI * u / n));
}

/* Accumulates a 1D model around depth zc with the band-limited kernel: every piece between the
 * model's depths integrated by 3-point Gauss-Legendre on intervals of h/16 (the kernel varies on
 * the scale of h), clipped at the free surface (the weights are normalised by their sum, as
 * every average here is). QACC takes the kernel's positive part only: Q has no interface for the
 * band limit to place, and with the lobes a Q mean can leave its samples' range, even turn
 * negative (a graded site model gave Qs = -176 below one node). */
static int bandlimited_1d(const sgt_model *m, const sgt_mesh_rules *r, double x, double y,
                          double zc, int gi, int gj, int k, sgt_effective_sum *acc,
                          sgt_effective_sum *qacc, sgt_mesh_stats *cell, cs_error *err) {
    const double h = r->h;
    double a = fmax(0.0, zc - SGT_BANDLIMIT_CELLS * h), hi = zc + SGT_BANDLIMIT_CELLS * h;
    int l = 0;
    while (a < hi) {
        while (l < m->n && m->top[l] <= a)
            l++;
        double b = l < m->n && m->top[l] < hi ? m->top[l] : hi;
        int ns = (int)ceil((b - a) / (h / 16));
        for (int j = 0; j < (ns < 1 ? 1 : ns); j++) {
            double sa = a + (b - a) * j / ns, sb = a + (b - a) * (j + 1) / ns;
            double mid = 0.5 * (sa + sb), half = 0.5 * (sb - sa);
            for (int q = 0; q < 3; q++) {
                double z = mid + half * gl_x[q];
                sgt_material s;
                CS_CALL(err, sgt_mesh_point(m, r, x, y, z, gi, gj, k, &s, cell, err));
                const double w = gl_w[q] * half * bandlimited_kernel((z - zc) / h);
                sgt_effective_add(acc, &s, w);
                if (w > 0) sgt_effective_add(qacc, &s, w);
            }
        }
        a = b;
    }
    return 0;
}

static int cell_1d(const sgt_model *m, const sgt_mesh_rules *r, double x, double y, double za,
                   double zb, int gi, int gj, int k, sgt_effective_sum *acc, sgt_mesh_stats *cell,
                   cs_error *err) {
    double a = za;
    int l = 0;
    while (a < zb) {
        /* the next model depth strictly inside the cell ends this piece */
        while (l < m->n && m->top[l] <= a)
            l++;
        double b = l < m->n && m->top[l] < zb ? m->top[l] : zb;
        double mid = 0.5 * (a + b), half = 0.5 * (b - a);
        for (int q = 0; q < 3; q++) {
            sgt_material s;
            CS_CALL(err,
                    sgt_mesh_point(m, r, x, y, mid + half * gl_x[q], gi, gj, k, &s, cell, err));
            sgt_effective_add(acc, &s, gl_w[q] * half / (zb - za));
        }
        a = b;
    }
    return 0;
}

static double clampd(double v, double lo, double hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

static int cell_3d(const sgt_model *m, const sgt_mesh_rules *r, double x, double y, double za,
                   double zb, int gi, int gj, int k, sgt_effective_sum *acc, sgt_mesh_stats *cell,
                   cs_error *err) {
    const int n = r->subsamples > 0 ? r->subsamples : SGT_SUBSAMPLES_DEFAULT;
    const double h = r->h, w = 1.0 / ((double)n * n * n);
    /* A cell whose node lies in the model may reach half a cell beyond it: the model's edge
     * values extend there. */
    const double xlo = m->gx0, xhi = m->gx0 + (m->gnx - 1) * m->gdx;
    const double ylo = m->gy0, yhi = m->gy0 + (m->gny - 1) * m->gdy;
    const double zlo = m->gz0, zhi = m->gz0 + (m->gnz - 1) * m->gdz;
    for (int c = 0; c < n; c++)
        for (int b = 0; b < n; b++)
            for (int a = 0; a < n; a++) {
                double px = clampd(x + h * ((a + 0.5) / n - 0.5), xlo, xhi);
                double py = clampd(y + h * ((b + 0.5) / n - 0.5), ylo, yhi);
                double pz = clampd(za + (zb - za) * (c + 0.5) / n, zlo, zhi);
                sgt_material s;
                CS_CALL(err, sgt_mesh_point(m, r, px, py, pz, gi, gj, k, &s, cell, err));
                sgt_effective_add(acc, &s, w);
            }
    return 0;
}

/* Accumulates the model over the box [x - h/2, x + h/2] x [y - h/2, y + h/2] x [za, zb]
 * around column (gi, gj), or for band-limited 1D sampling around depth zc (the position the
 * box stands for); k names the node for messages and the AWP format. */
static int effective_box(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                         double za, double zb, double zc, sgt_effective_sum *acc,
                         sgt_effective_sum *qacc, sgt_mesh_stats *st, cs_error *err) {
    const double h = r->h;
    const double x = r->x0 + gi * h, y = r->y0 + gj * h;
    sgt_mesh_stats cell;
    sgt_mesh_stats_init(&cell);
    if (bandlimited(m, r)) {
        CS_CALL(err, bandlimited_1d(m, r, x, y, zc, gi, gj, k, acc, qacc, &cell, err));
    } else if (is_1d(m)) {
        CS_CALL(err, cell_1d(m, r, x, y, za, zb, gi, gj, k, acc, &cell, err));
    } else {
        /* the node itself must lie in the model (the error names it) */
        sgt_material centre;
        CS_CALL(err, sgt_mesh_point(m, r, x, y, k * h, gi, gj, k, &centre, NULL, err));
        CS_CALL(err, cell_3d(m, r, x, y, za, zb, gi, gj, k, acc, &cell, err));
    }
    count_node(st, &cell);
    return 0;
}

static int per_node(const sgt_model *m, const sgt_mesh_rules *r) {
    return r->sampling == SGT_SAMPLE_POINT || m->kind == SGT_MODEL_HOMOGENEOUS ||
           m->kind == SGT_MODEL_AWP;
}

/* The band-limited kernel's lobes carry a step's overshoot (about 9% of the contrast) to the
 * nodes near an interface, on both sides: across a contrast of about 10 in a modulus some mean
 * (a modulus or a compliance) is no longer positive, and near it the wave speed exceeds the
 * model's (LOH.1: +5.7%; +55% at a contrast of 8). The first is refused; the second is noted in
 * the extremes, so that the stability check sees the grid's fastest speed, not only the
 * model's. The grid's vs may also dip below the model's least, which the resolution check,
 * reading the model's samples, does not see. */
static int bandlimited_result(const sgt_mesh_rules *r, int gi, int gj, int k, int below,
                              const sgt_material *out, const double *mu_xy, double c11x,
                              sgt_mesh_stats *st, cs_error *err) {
    /* Q comes from the kernel's positive part (bandlimited_1d): a mean of positive values */
    const char *what = !(out->rho > 0)                       ? "density"
                       : !(out->vp > 0 && isfinite(out->vp)) ? "P modulus"
                       : !(out->vs >= 0)                     ? "shear modulus"
                       : mu_xy && !(*mu_xy >= 0)             ? "horizontal shear modulus"
                                                             : NULL;
    if (what)
        return cs_error_input(
            err, "material_sampling", "material_sampling", "bandlimited",
            "the band-limited average %s node (%d, %d, %d) (depth %g m) gives a %s that is not "
            "positive (vp %g, vs %g m/s): the model's contrast there is too strong for the "
            "kernel's overshoot (about 9%% of a contrast); use material_sampling = effective",
            below ? "half a cell below" : "at", gi, gj, k, (k + (below ? 0.5 : 0.0)) * r->h, what,
            out->vp, out->vs);
    if (st) {
        sgt_mesh_stats fast;
        sgt_mesh_stats_init(&fast);
        /* the layered cell's horizontal P speed, sqrt(C11 / rho), where it is the faster */
        fast.vp_max = c11x > 0 ? sqrt(out->vp * out->vp + c11x / out->rho) : out->vp;
        fast.vp_max_at[0] = gi, fast.vp_max_at[1] = gj, fast.vp_max_at[2] = k;
        sgt_mesh_stats_extremes(st, &fast);
    }
    return 0;
}

int sgt_mesh_cell(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                  sgt_material *out, double *mu_xy, double *c11x, sgt_mesh_stats *st,
                  cs_error *err) {
    if (c11x) *c11x = 0;
    if (per_node(m, r)) {
        int rc = sgt_mesh_node(m, r, gi, gj, k, out, st, err);
        if (!rc && mu_xy) *mu_xy = out->rho * out->vs * out->vs;
        return rc;
    }
    const double z = k * r->h;
    sgt_effective_sum acc = {0}, qacc = {0};
    int rc = effective_box(m, r, gi, gj, k, fmax(0.0, z - 0.5 * r->h), z + 0.5 * r->h, z, &acc,
                           &qacc, st, err);
    /* Only a 1D model's cells are layered (one excess a depth) */
    double x = 0;
    if (!rc) *out = sgt_effective_node(&acc, mu_xy, is_1d(m) ? &x : NULL);
    if (c11x) *c11x = x;
    if (!rc && bandlimited(m, r)) {
        const sgt_material q = sgt_effective_node(&qacc, NULL, NULL);
        out->qp = q.qp, out->qs = q.qs;
        rc = bandlimited_result(r, gi, gj, k, 0, out, mu_xy, x, st, err);
    }
    return rc;
}

int sgt_mesh_cell_below(const sgt_model *m, const sgt_mesh_rules *r, int gi, int gj, int k,
                        sgt_material *out, cs_error *err) {
    if (k < 0) k = 0;
    sgt_effective_sum acc = {0}, qacc = {0};
    if (per_node(m, r)) {
        /* the older rule's means of the two nodes (the AWP mesh ends at its last node) */
        sgt_material a, b;
        int kb = m->kind == SGT_MODEL_AWP && k + 1 >= m->gnz ? k : k + 1;
        CS_CALL(err, sgt_mesh_node(m, r, gi, gj, k, &a, NULL, err));
        CS_CALL(err, sgt_mesh_node(m, r, gi, gj, kb, &b, NULL, err));
        sgt_effective_add(&acc, &a, 0.5);
        sgt_effective_add(&acc, &b, 0.5);
    } else {
        CS_CALL(err, effective_box(m, r, gi, gj, k, k * r->h, (k + 1) * r->h, (k + 0.5) * r->h,
                                   &acc, &qacc, NULL, err));
    }
    *out = sgt_effective_below(&acc);
    if (bandlimited(m, r)) {
        const sgt_material q = sgt_effective_below(&qacc);
        out->qp = q.qp, out->qs = q.qs;
        return bandlimited_result(r, gi, gj, k, 1, out, NULL, 0, NULL, err);
    }
    return 0;
}

/* The extremes of the speeds a rule puts on a 1D model's column of nz nodes (vp_max with the
 * layered cells' horizontal P speed, vs_min over the nodes and the positions between them), and
 * the first depth index whose layered cell is not positive definite (C11 > |C12| and
 * (C11 + C12) C33 > 2 C13^2), or -1. */
static int column_extremes(const sgt_model *m, const sgt_mesh_rules *r, int nz, double *vp_max,
                           double *vs_min, int *indefinite_at, cs_error *err) {
    *vp_max = 0, *vs_min = INFINITY, *indefinite_at = -1;
    for (int k = 0; k < nz; k++) {
        sgt_material a, b;
        double mxy = 0, x = 0;
        CS_CALL(err, sgt_mesh_cell(m, r, 0, 0, k, &a, &mxy, &x, NULL, err));
        const double c33 = a.rho * a.vp * a.vp, c13 = c33 - 2 * a.rho * a.vs * a.vs;
        const double c11 = c33 + x, c12 = c11 - 2 * mxy;
        if (x != 0 && !(c11 > fabs(c12) && (c11 + c12) * c33 > 2 * c13 * c13) && *indefinite_at < 0)
            *indefinite_at = k;
        *vp_max = fmax(*vp_max, sqrt(fmax(c11, c33) / a.rho));
        *vs_min = fmin(*vs_min, fmin(a.vs, sqrt(mxy / a.rho)));
        if (k + 1 < nz) {
            CS_CALL(err, sgt_mesh_cell_below(m, r, 0, 0, k, &b, err));
            *vs_min = fmin(*vs_min, b.vs);
        }
    }
    return 0;
}

void sgt_mesh_choose_sampling(const sgt_model *m, sgt_mesh_rules *r, int nz, char *note, size_t n) {
    if (note && n) note[0] = 0;
    if (r->sampling != SGT_SAMPLE_AUTO) return;
    r->sampling = SGT_SAMPLE_EFFECTIVE;
    if (!is_1d(m)) {
        if (note)
            snprintf(note, n,
                     "material_sampling = auto: effective (cell averages; the band-limited "
                     "kernel is for 1D models)");
        return;
    }
    if (r->viscoelastic) {
        if (note)
            snprintf(note, n,
                     "material_sampling = auto: effective (cell averages): the band-limited "
                     "kernel is for elastic runs (with attenuation it grew without bound in a "
                     "site's run, docs/sgt.md)");
        return;
    }
    sgt_mesh_rules bl = *r;
    bl.sampling = SGT_SAMPLE_BANDLIMITED;
    double evp, evs, bvp, bvs;
    int eind, bind;
    cs_error e;
    cs_error_clear(&e);
    /* the cell averages' extremes; a model they cannot mesh is reported by the mesh itself */
    if (column_extremes(m, r, nz, &evp, &evs, &eind, &e)) {
        if (note) snprintf(note, n, "material_sampling = auto: effective (cell averages)");
        return;
    }
    const char *why = NULL;
    char buf[200];
    if (column_extremes(m, &bl, nz, &bvp, &bvs, &bind, &e)) {
        why = "a mean of the kernel is not positive";
    } else if (bind >= 0) {
        snprintf(buf, sizeof buf, "the kernel's layered cell at depth %g m is not stable",
                 bind * r->h);
        why = buf;
    } else if (bvp > (1 + SGT_AUTO_OVERSHOOT) * evp || bvs < (1 - SGT_AUTO_OVERSHOOT) * evs) {
        snprintf(buf, sizeof buf,
                 "its overshoot moves the fastest P speed %+.1f%% and the slowest S speed "
                 "%+.1f%% (more than %g%%)",
                 100 * (bvp / evp - 1), 100 * (bvs / evs - 1), 100 * SGT_AUTO_OVERSHOOT);
        why = buf;
    } else if (r->dt > 0 && r->dt > sgt_cfl_limit(r->h, bvp)) {
        snprintf(buf, sizeof buf,
                 "dt = %g s is not stable at its fastest P speed, %.1f m/s (the cell averages' "
                 "%.1f; dt <= %.4g s would take it)",
                 r->dt, bvp, evp, sgt_cfl_limit(r->h, bvp));
        why = buf;
    }
    if (!why) r->sampling = SGT_SAMPLE_BANDLIMITED;
    if (!note) return;
    if (why)
        snprintf(note, n,
                 "material_sampling = auto: effective (cell averages), not the band-limited "
                 "kernel: %s",
                 why);
    else
        snprintf(note, n,
                 "material_sampling = auto: bandlimited (fastest P speed %.1f m/s, %+.1f%%, "
                 "slowest S %.1f m/s, %+.1f%%, against the cell averages)",
                 bvp, 100 * (bvp / evp - 1), bvs, 100 * (bvs / evs - 1));
}
