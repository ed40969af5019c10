#include "erf_faults.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_csv.h"
#include "cs_geo.h"
#include "cs_strutil.h"

enum {
    F_KEY,
    F_NAME,
    F_TYPE,
    F_RAKE,
    F_DIP,
    F_WIDTH,
    F_TOP,
    F_CHAR_M,
    F_CHAR_RATE,
    F_A,
    F_B,
    F_MMIN,
    F_MMAX,
    F_DM,
    F_REL_WEIGHT,
    F_FILE_WEIGHT,
    F_N
};
static const char *fault_columns[F_N] = {
    "source_id", "name",   "mfd_type_code",    "rake_used_by_code", "dip_deg", "width_km",
    "top_km",    "char_M", "char_rate_per_yr", "gr_a_incremental",  "gr_b",    "gr_Mmin",
    "gr_Mmax",   "gr_dM",  "rel_weight",       "file_weight"};

/* Finds each wanted column in the header; names the first that is missing. */
static int map_columns(cs_csv *c, const char **want, int nwant, int *col, cs_error *err) {
    for (int k = 0; k < nwant; k++) {
        col[k] = -1;
        for (size_t i = 0; i < cs_csv_nfields(c); i++)
            if (!strcmp(cs_csv_field(c, i), want[k])) col[k] = (int)i;
        if (col[k] < 0)
            return cs_error_input(err, cs_csv_place(c), want[k], "(missing)",
                                  "the header lacks this column");
    }
    return 0;
}

/* A data row has exactly the header's fields: a short row would leave columns unread (and a
 * long one means a stray separator shifted them). */
static int check_width(cs_csv *c, size_t header, cs_error *err) {
    size_t n = cs_csv_nfields(c);
    if (n == header) return 0;
    char v[32];
    snprintf(v, sizeof v, "%zu fields", n);
    return cs_error_input(err, cs_csv_place(c), "row", v, "the header has %zu fields", header);
}

/* A number from a field; an empty field is `empty` (NAN when the field is required). */
static int number(cs_csv *c, int col, const char *name, double lo, double hi, int required,
                  double *out, cs_error *err) {
    const char *s = cs_csv_field(c, (size_t)col);
    if (!*s && !required) {
        *out = NAN;
        return 0;
    }
    if (cs_parse_double(s, out))
        return cs_error_input(err, cs_csv_place(c), name, s, "must be a number");
    if (!(*out >= lo && *out <= hi))
        return cs_error_input(err, cs_csv_place(c), name, s, "must lie in [%g, %g]", lo, hi);
    return 0;
}

static erf_fault_source *find_source(erf_fault_set *set, const char *key) {
    for (int i = set->nsources - 1; i >= 0; i--)
        if (!strcmp(set->sources[i].key, key)) return &set->sources[i];
    return NULL;
}

static int read_branch(cs_csv *c, const int *col, erf_fault_branch *b, cs_error *err) {
    memset(b, 0, sizeof *b);
    b->line = cs_csv_line(c);
    /* a key cut short could merge two sources into one */
    const char *key = cs_csv_field(c, (size_t)col[F_KEY]);
    if (!*key || cs_copy(b->key, sizeof b->key, key))
        return cs_error_input(err, cs_csv_place(c), "source_id", key,
                              "must hold 1 to %zu characters", sizeof b->key - 1);
    cs_copy(b->name, sizeof b->name, cs_csv_field(c, (size_t)col[F_NAME]));
    double type, rel, file;
    CS_CALL(err, number(c, col[F_TYPE], "mfd_type_code", -2, 2, 1, &type, err));
    CS_CALL(err, number(c, col[F_RAKE], "rake_used_by_code", -180, 180, 1, &b->rake, err));
    CS_CALL(err, number(c, col[F_DIP], "dip_deg", 1, 90, 1, &b->dip, err));
    CS_CALL(err, number(c, col[F_WIDTH], "width_km", 0.1, 200, 1, &b->width_km, err));
    CS_CALL(err, number(c, col[F_TOP], "top_km", 0, 100, 1, &b->top_km, err));
    CS_CALL(err, number(c, col[F_REL_WEIGHT], "rel_weight", 0, 10, 1, &rel, err));
    CS_CALL(err, number(c, col[F_FILE_WEIGHT], "file_weight", 0, 1, 1, &file, err));
    b->mfd_type = (int)type;
    b->weight = rel * file;
    if (b->mfd_type == 1) {
        CS_CALL(err, number(c, col[F_CHAR_M], "char_M", 4, 9.5, 1, &b->char_m, err));
        CS_CALL(err, number(c, col[F_CHAR_RATE], "char_rate_per_yr", 0, 10, 1, &b->char_rate, err));
        return 0;
    }
    if (b->mfd_type == 2 || b->mfd_type == -2) {
        CS_CALL(err, number(c, col[F_A], "gr_a_incremental", -10, 20, 1, &b->gr_a, err));
        CS_CALL(err, number(c, col[F_B], "gr_b", 0, 3, 1, &b->gr_b, err));
        CS_CALL(err, number(c, col[F_MMIN], "gr_Mmin", 4, 9.5, 1, &b->gr_mmin, err));
        CS_CALL(err, number(c, col[F_MMAX], "gr_Mmax", 4, 9.5, 1, &b->gr_mmax, err));
        CS_CALL(err, number(c, col[F_DM], "gr_dM", 0.001, 1, 1, &b->gr_dm, err));
        if (b->gr_mmax < b->gr_mmin)
            return cs_error_input(err, cs_csv_place(c), "gr_Mmax",
                                  cs_csv_field(c, (size_t)col[F_MMAX]), "must be at least gr_Mmin");
        return 0;
    }
    return cs_error_input(err, cs_csv_place(c), "mfd_type_code",
                          cs_csv_field(c, (size_t)col[F_TYPE]),
                          "must be 1 (characteristic), 2 (GR) or -2 (GR + b=0)");
}

static int read_faults(const char *path, erf_fault_set *set, cs_error *err) {
    cs_csv *c;
    CS_CALL(err, cs_csv_open(path, &c, err));
    int col[F_N], rc = -1, r, cap = 0;
    if ((r = cs_csv_next(c, err)) <= 0) {
        rc = r < 0 ? -r
                   : cs_error_input(err, path, NULL, "(empty)",
                                    "a faults file starts with its header");
        goto out;
    }
    CS_CALL_GOTO(rc, err, map_columns(c, fault_columns, F_N, col, err), out);
    const size_t width = cs_csv_nfields(c);
    while ((r = cs_csv_next(c, err)) > 0) {
        erf_fault_branch b;
        CS_CALL_GOTO(rc, err, check_width(c, width, err), out);
        CS_CALL_GOTO(rc, err, read_branch(c, col, &b, err), out);
        /* branches may share every parameter (the NSHM's epistemic branches do, with their own
         * MFD line and branch index); a row identical in every field is a repetition */
        b.row_hash = CS_FNV_START;
        for (size_t f = 0; f < width; f++) {
            const char *v = cs_csv_field(c, f);
            b.row_hash = cs_fnv1a(b.row_hash, v, strlen(v) + 1);
        }
        erf_fault_source *s = find_source(set, b.key);
        for (int k = 0; s && k < s->nbranches; k++)
            if (s->branches[k].row_hash == b.row_hash) {
                rc = cs_error_input(err, cs_csv_place(c), "source_id", b.key,
                                    "repeats line %d word for word: it would add that branch's "
                                    "rate a second time",
                                    s->branches[k].line);
                goto out;
            }
        if (!s) {
            if (set->nsources == cap) {
                cap = cap ? 2 * cap : 64;
                erf_fault_source *g = realloc(set->sources, (size_t)cap * sizeof *g);
                if (!g) {
                    rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                    goto out;
                }
                set->sources = g;
            }
            s = &set->sources[set->nsources];
            memset(s, 0, sizeof *s);
            cs_copy(s->key, sizeof s->key, b.key);
            cs_copy(s->name, sizeof s->name, b.name);
            s->index = set->nsources++;
        }
        erf_fault_branch *g = realloc(s->branches, (size_t)(s->nbranches + 1) * sizeof *g);
        if (!g) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            goto out;
        }
        s->branches = g;
        s->branches[s->nbranches++] = b;
    }
    if (r < 0) {
        rc = -r;
        goto out;
    }
    rc = 0;
out:
    cs_csv_close(c);
    return rc;
}

static int read_traces(const char *path, erf_fault_set *set, cs_error *err) {
    static const char *want[4] = {"source_id", "point_index", "lat", "lon"};
    cs_csv *c;
    CS_CALL(err, cs_csv_open(path, &c, err));
    int col[4], rc = -1, r;
    if ((r = cs_csv_next(c, err)) <= 0) {
        rc = r < 0 ? -r
                   : cs_error_input(err, path, NULL, "(empty)",
                                    "a traces file starts with its header");
        goto out;
    }
    CS_CALL_GOTO(rc, err, map_columns(c, want, 4, col, err), out);
    const size_t width = cs_csv_nfields(c);
    while ((r = cs_csv_next(c, err)) > 0) {
        CS_CALL_GOTO(rc, err, check_width(c, width, err), out);
        const char *key = cs_csv_field(c, (size_t)col[0]);
        erf_fault_source *s = find_source(set, key);
        if (!s) continue; /* a trace of an entry not in the faults file */
        double idx, lat, lon;
        CS_CALL_GOTO(rc, err, number(c, col[1], "point_index", 1, 100000, 1, &idx, err), out);
        CS_CALL_GOTO(rc, err, number(c, col[2], "lat", -90, 90, 1, &lat, err), out);
        CS_CALL_GOTO(rc, err, number(c, col[3], "lon", -180, 180, 1, &lon, err), out);
        if ((int)idx != s->ntrace + 1) {
            rc =
                cs_error_input(err, cs_csv_place(c), "point_index", cs_csv_field(c, (size_t)col[1]),
                               "trace points of %s must come in order 1, 2, ... (expected %d)", key,
                               s->ntrace + 1);
            goto out;
        }
        double *la = realloc(s->trace_lat, (size_t)(s->ntrace + 1) * sizeof *la);
        if (la) s->trace_lat = la;
        double *lo = realloc(s->trace_lon, (size_t)(s->ntrace + 1) * sizeof *lo);
        if (lo) s->trace_lon = lo;
        if (!la || !lo) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            goto out;
        }
        s->trace_lat[s->ntrace] = lat;
        s->trace_lon[s->ntrace++] = lon;
    }
    if (r < 0) {
        rc = -r;
        goto out;
    }
    for (int i = 0; i < set->nsources; i++)
        if (set->sources[i].ntrace < 2) {
            rc = cs_error_input(err, path, "source_id", set->sources[i].key,
                                "has %d trace points; a fault trace needs at least 2",
                                set->sources[i].ntrace);
            goto out;
        }
    rc = 0;
out:
    cs_csv_close(c);
    return rc;
}

int erf_faults_read(const char *faults_csv, const char *traces_csv, erf_fault_set *set,
                    cs_error *err) {
    memset(set, 0, sizeof *set);
    int rc;
    CS_CALL_GOTO(rc, err, read_faults(faults_csv, set, err), fail);
    CS_CALL_GOTO(rc, err, read_traces(traces_csv, set, err), fail);
    return 0;
fail:
    erf_faults_free(set);
    return rc;
}

void erf_faults_free(erf_fault_set *set) {
    for (int i = 0; i < set->nsources; i++) {
        free(set->sources[i].branches);
        free(set->sources[i].trace_lat);
        free(set->sources[i].trace_lon);
    }
    free(set->sources);
    memset(set, 0, sizeof *set);
}

/* Walks the trace: the point `s` km along it and the azimuth of the segment it lies on. */
static void along_trace(const erf_fault_source *f, const double *seg, double s, double *lon,
                        double *lat, double *azimuth) {
    int i = 0;
    while (i < f->ntrace - 2 && s > seg[i])
        s -= seg[i++];
    if (s > seg[i]) s = seg[i];
    *azimuth =
        cs_geo_azimuth(f->trace_lon[i], f->trace_lat[i], f->trace_lon[i + 1], f->trace_lat[i + 1]);
    cs_geo_destination(f->trace_lon[i], f->trace_lat[i], *azimuth, s * 1e3, lon, lat);
}

double erf_fault_trace_distance(const erf_fault_source *f, double lon, double lat) {
    double best = INFINITY;
    for (int i = 0; i + 1 < f->ntrace; i++) {
        double len = cs_geo_distance(f->trace_lon[i], f->trace_lat[i], f->trace_lon[i + 1],
                                     f->trace_lat[i + 1]) *
                     1e-3;
        double az = cs_geo_azimuth(f->trace_lon[i], f->trace_lat[i], f->trace_lon[i + 1],
                                   f->trace_lat[i + 1]);
        int n = (int)ceil(len / 0.1);
        for (int k = 0; k <= n; k++) {
            double plon, plat;
            cs_geo_destination(f->trace_lon[i], f->trace_lat[i], az, len * 1e3 * k / n, &plon,
                               &plat);
            double d = cs_geo_distance(lon, lat, plon, plat) * 1e-3;
            if (d < best) best = d;
        }
    }
    return best;
}

double erf_nshm_area(double m) {
    double a = pow(10.0, m - 4.2);
    return a >= 500 ? a : pow(10.0, (m - 4.07) / 0.98);
}

/* The whole fault surface of one branch. */
static int fault_surface(const erf_fault_source *f, const erf_fault_branch *b, double spacing,
                         erf_rupture *out, double *col_step, cs_error *err) {
    int nseg = f->ntrace - 1;
    double *seg = malloc(sizeof(double) * (size_t)nseg), length = 0;
    if (!seg) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (int i = 0; i < nseg; i++)
        length += seg[i] = cs_geo_distance(f->trace_lon[i], f->trace_lat[i], f->trace_lon[i + 1],
                                           f->trace_lat[i + 1]) *
                           1e-3;
    int ncols = (int)lround(length / spacing) + 1, nrows = (int)lround(b->width_km / spacing) + 1;
    if (ncols < 2) ncols = 2;
    if (nrows < 1) nrows = 1;
    int rc = erf_rupture_alloc(out, nrows, ncols, err);
    if (rc) free(seg);
    CS_CALL(err, rc);
    *col_step = length / (ncols - 1);
    double row_step = nrows > 1 ? b->width_km / (nrows - 1) : 0;
    double dipdir =
        cs_geo_azimuth(f->trace_lon[0], f->trace_lat[0], f->trace_lon[nseg], f->trace_lat[nseg]) +
        90.0;
    double cd = cos(b->dip * M_PI / 180), sd = sin(b->dip * M_PI / 180);
    for (int c = 0; c < ncols; c++) {
        double lon, lat, az;
        along_trace(f, seg, c * *col_step, &lon, &lat, &az);
        for (int k = 0; k < nrows; k++) {
            int q = k * ncols + c;
            cs_geo_destination(lon, lat, dipdir, k * row_step * cd * 1e3, &out->lon[q],
                               &out->lat[q]);
            out->dep[q] = b->top_km + k * row_step * sd;
            out->stk[q] = fmod(az + 360.0, 360.0);
            out->dip[q] = b->dip;
            out->rake[q] = b->rake;
        }
    }
    free(seg);
    out->spacing_km = spacing;
    return 0;
}

/* Columns [c0, c0 + nc) of the surface as a rupture. */
static int slice(const erf_rupture *full, int c0, int nc, erf_rupture *r, cs_error *err) {
    CS_CALL(err, erf_rupture_alloc(r, full->nrows, nc, err));
    for (int k = 0; k < full->nrows; k++)
        for (int c = 0; c < nc; c++) {
            int from = k * full->ncols + c0 + c, to = k * nc + c;
            r->lat[to] = full->lat[from];
            r->lon[to] = full->lon[from];
            r->dep[to] = full->dep[from];
            r->rake[to] = full->rake[from];
            r->dip[to] = full->dip[from];
            r->stk[to] = full->stk[from];
        }
    r->spacing_km = full->spacing_km;
    return 0;
}

typedef struct {
    const erf_fault_source *f;
    const erf_build_options *o;
    erf_emit emit;
    void *ctx;
    long long next_id;
} emitter;

static int emit_one(emitter *e, const erf_rupture *r_in, const char *type, double m, double rate,
                    cs_error *err) {
    erf_rupture r = *r_in;
    r.source_id = e->f->index;
    r.rupture_id = e->next_id++;
    cs_copy(r.source_name, sizeof r.source_name, e->f->name);
    cs_copy(r.source_type, sizeof r.source_type, type);
    r.magnitude = m;
    r.prob = 1.0 - exp(-rate * e->o->time_span_years);
    return e->emit(&r, rate, e->f->key, e->ctx, err);
}

int erf_fault_ruptures(const erf_fault_source *f, const erf_build_options *o, erf_emit emit,
                       void *ctx, cs_error *err) {
    emitter e = {f, o, emit, ctx, 0};
    for (int bi = 0; bi < f->nbranches; bi++) {
        const erf_fault_branch *b = &f->branches[bi];
        erf_rupture full;
        double col_step = 0;
        CS_CALL(err, fault_surface(f, b, o->spacing_km, &full, &col_step, err));
        int rc = 0;
        if (b->mfd_type == 1) {
            rc = emit_one(&e, &full, "characteristic", b->char_m, b->char_rate * b->weight, err);
        } else {
            double m1 = b->gr_mmin + 0.5 * b->gr_dm;
            int nbins = (int)((b->gr_mmax - 0.5 * b->gr_dm + 1e-4 - m1) / b->gr_dm + 1.4);
            double moment_rate = 0, moment_sum = 0;
            for (int i = 0; i < nbins; i++) {
                double m = m1 + i * b->gr_dm, m0 = pow(10.0, 1.5 * m + 9.05);
                moment_rate += pow(10.0, b->gr_a - b->gr_b * m) * m0;
                moment_sum += m0;
            }
            for (int i = 0; i < nbins && !rc; i++) {
                double m = m1 + i * b->gr_dm;
                double rate = pow(10.0, b->gr_a - b->gr_b * m);
                if (b->mfd_type == -2) rate = 0.5 * rate + 0.5 * moment_rate / moment_sum;
                rate *= b->weight;
                double length = erf_nshm_area(m) / b->width_km;
                int nc = (int)lround(length / col_step) + 1;
                if (nc < 2) nc = 2;
                if (nc > full.ncols) nc = full.ncols;
                int step = (int)lround(o->float_step_km / col_step);
                if (step < 1) step = 1;
                int npos = (full.ncols - nc) / step + 1;
                int offset = ((full.ncols - nc) - (npos - 1) * step) / 2;
                for (int p = 0; p < npos && !rc; p++) {
                    erf_rupture r;
                    if ((rc = slice(&full, offset + p * step, nc, &r, err))) {
                        CS_TRACE(err);
                        break;
                    }
                    rc = emit_one(&e, &r, b->mfd_type == 2 ? "GR" : "GR+b0", m, rate / npos, err);
                    erf_rupture_free(&r);
                }
            }
        }
        erf_rupture_free(&full);
        CS_CALL(err, rc);
    }
    return 0;
}
