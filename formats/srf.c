#include "srf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_strutil.h"

/* A cursor over the whole file's text that hands out blank-separated tokens with the line they
 * came from. SRF numbers may wrap across lines anywhere (slip-rate samples always do), so the
 * reader works on tokens, not lines; '#' lines are comments wherever a line starts with one. */
typedef struct {
    const char *path;
    char *text;
    char *p;
    int line;
    srf_file *s; /* comments are collected here */
    char tok[128];
    int tok_line;
    char place[4200];
} srf_cursor;

static int keep_comment(srf_cursor *c, const char *start, size_t n, cs_error *err) {
    char **grown = realloc(c->s->comments, (size_t)(c->s->ncomments + 1) * sizeof *grown);
    if (!grown) return cs_error_set(err, CS_ERR_RESOURCE, "%s: out of memory", c->path);
    c->s->comments = grown;
    char *copy = malloc(n + 1);
    if (!copy) return cs_error_set(err, CS_ERR_RESOURCE, "%s: out of memory", c->path);
    memcpy(copy, start, n);
    copy[n] = 0;
    grown[c->s->ncomments++] = copy;
    return 0;
}

/* 1 with the next token in c->tok, 0 at the end of the file, -1 on error (err set): a count,
 * not a status (a status of 1 would read as a token). */
static int next_token(srf_cursor *c, cs_error *err) {
    int at_line_start = c->p == c->text || c->p[-1] == '\n';
    for (;;) {
        while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n') {
            if (*c->p == '\n') {
                c->line++;
                at_line_start = 1;
            }
            c->p++;
        }
        if (*c->p == '#' && at_line_start) {
            const char *start = c->p;
            while (*c->p && *c->p != '\n')
                c->p++;
            size_t n = (size_t)(c->p - start);
            while (n > 0 && (start[n - 1] == '\r' || start[n - 1] == ' '))
                n--;
            if (keep_comment(c, start, n, err)) {
                CS_TRACE(err);
                return -1;
            }
            continue;
        }
        break;
    }
    if (!*c->p) return 0;
    const char *start = c->p;
    while (*c->p && *c->p != ' ' && *c->p != '\t' && *c->p != '\r' && *c->p != '\n')
        c->p++;
    size_t n = (size_t)(c->p - start);
    c->tok_line = c->line;
    if (n >= sizeof c->tok) {
        char place[4200];
        snprintf(place, sizeof place, "%s:%d", c->path, c->line);
        cs_error_input(err, place, NULL, "(long token)",
                       "a token of %zu characters is not an SRF field", n);
        return -1;
    }
    memcpy(c->tok, start, n);
    c->tok[n] = 0;
    return 1;
}

static const char *here(srf_cursor *c) {
    snprintf(c->place, sizeof c->place, "%s:%d", c->path, c->tok_line ? c->tok_line : c->line);
    return c->place;
}

static int expect_number(srf_cursor *c, const char *field, double *v, cs_error *err) {
    int r = next_token(c, err);
    if (r < 0) {
        CS_TRACE(err);
        return err->status; /* next_token filled err */
    }
    if (r == 0) {
        c->tok_line = c->line;
        return cs_error_input(err, here(c), field, "(end of file)",
                              "the file ends where this number is due");
    }
    if (cs_parse_double(c->tok, v))
        return cs_error_input(err, here(c), field, c->tok, "must be a finite number");
    return 0;
}

static int expect_count(srf_cursor *c, const char *field, long max, long *v, cs_error *err) {
    double d;
    CS_CALL(err, expect_number(c, field, &d, err));
    if (d != floor(d) || d < 0 || d > (double)max)
        return cs_error_input(err, here(c), field, c->tok, "must be a whole number in [0, %ld]",
                              max);
    *v = (long)d;
    return 0;
}

static int read_plane(srf_cursor *c, srf_plane *pl, cs_error *err) {
    double v[11];
    static const char *names[11] = {"ELON", "ELAT", "NSTK", "NDIP", "LEN", "WID",
                                    "STK",  "DIP",  "DTOP", "SHYP", "DHYP"};
    for (int i = 0; i < 11; i++) {
        if (i == 2 || i == 3) {
            long n;
            CS_CALL(err, expect_count(c, names[i], 1000000, &n, err));
            v[i] = (double)n;
        } else {
            CS_CALL(err, expect_number(c, names[i], &v[i], err));
        }
    }
    *pl = (srf_plane){v[0], v[1], (int)v[2], (int)v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]};
    if (pl->len <= 0 || pl->wid <= 0)
        return cs_error_input(err, here(c), "LEN/WID", c->tok,
                              "a plane's length and width must be > 0");
    return 0;
}

typedef struct {
    srf_point *points;
    long npoints, cap_points;
    double *samples;
    long nsamples, cap_samples;
    long *offsets; /* sample offset of each point's first component, fixed up at the end */
} srf_growth;

static int grow(void **p, long *cap, long need, size_t each, cs_error *err) {
    if (need <= *cap) return 0;
    long n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * each);
    if (!q) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for %ld SRF entries", n);
    *p = q;
    *cap = n;
    return 0;
}

static int read_point(srf_cursor *c, int version, srf_growth *g, long *cap_offsets, cs_error *err) {
    CS_CALL(err, grow((void **)&g->points, &g->cap_points, g->npoints + 1, sizeof *g->points, err));
    CS_CALL(err, grow((void **)&g->offsets, cap_offsets, g->npoints + 1, sizeof *g->offsets, err));
    srf_point *p = &g->points[g->npoints];
    memset(p, 0, sizeof *p);
    double *head[] = {&p->lon,  &p->lat,   &p->dep, &p->stk, &p->dip,
                      &p->area, &p->tinit, &p->dt,  &p->vs,  &p->den};
    static const char *names[] = {"LON",  "LAT",   "DEP", "STK", "DIP",
                                  "AREA", "TINIT", "DT",  "VS",  "DEN"};
    int nhead = version == 2 ? 10 : 8;
    for (int i = 0; i < nhead; i++)
        CS_CALL(err, expect_number(c, names[i], head[i], err));
    if (version == 1) p->vs = p->den = NAN;
    if (p->area <= 0) return cs_error_input(err, here(c), "AREA", "", "must be > 0 (cm^2)");
    CS_CALL(err, expect_number(c, "RAKE", &p->rake, err));
    for (int k = 0; k < 3; k++) {
        static const char *slip_names[] = {"SLIP1", "SLIP2", "SLIP3"};
        static const char *nt_names[] = {"NT1", "NT2", "NT3"};
        long nt = 0; /* set by expect_count; gcc 13 cannot tell on every path */
        CS_CALL(err, expect_number(c, slip_names[k], &p->slip[k], err));
        CS_CALL(err, expect_count(c, nt_names[k], 100000000, &nt, err));
        p->nt[k] = (int)nt;
    }
    long total = (long)p->nt[0] + p->nt[1] + p->nt[2];
    if (total > 0 && !(p->dt > 0))
        return cs_error_input(err, here(c), "DT", "", "must be > 0 when the point has samples");
    g->offsets[g->npoints] = g->nsamples;
    CS_CALL(err, grow((void **)&g->samples, &g->cap_samples, g->nsamples + total,
                      sizeof *g->samples, err));
    for (long i = 0; i < total; i++)
        CS_CALL(err, expect_number(c, "slip-rate sample", &g->samples[g->nsamples + i], err));
    g->nsamples += total;
    g->npoints++;
    return 0;
}

static int read_text(const char *path, char **text, cs_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) return cs_error_errno(err, path, "open SRF");
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        cap *= 2;
        char *b = realloc(buf, cap);
        if (!b) {
            free(buf);
            buf = NULL;
        } else {
            buf = b;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) return cs_error_set(err, CS_ERR_RESOURCE, "%s: out of memory reading the file", path);
    if (bad) {
        free(buf);
        return cs_error_errno(err, path, "read SRF");
    }
    buf[n] = 0;
    if (strlen(buf) != n) {
        free(buf);
        return cs_error_input(err, path, NULL, "(NUL byte)", "an SRF is a text file");
    }
    *text = buf;
    return 0;
}

int srf_read(const char *path, srf_file *s, cs_error *err) {
    memset(s, 0, sizeof *s);
    srf_cursor c = {.path = path, .line = 1, .s = s};
    CS_CALL(err, read_text(path, &c.text, err));
    c.p = c.text;
    srf_growth g = {0};
    long cap_offsets = 0;
    int rc = 0;

    int r = next_token(&c, err);
    if (r < 0) goto token_failed;
    if (r == 0) {
        rc = cs_error_input(err, path, NULL, "(empty)", "an SRF starts with its version");
        goto out;
    }
    if (strcmp(c.tok, "1.0") == 0)
        s->version = 1;
    else if (strcmp(c.tok, "2.0") == 0)
        s->version = 2;
    else {
        rc = cs_error_input(err, here(&c), "VERSION", c.tok, "must be 1.0 or 2.0");
        goto out;
    }
    if ((r = next_token(&c, err)) < 0) goto token_failed;
    if (r == 1 && strcmp(c.tok, "PLANE") == 0) {
        long np;
        CS_CALL_GOTO(rc, err, expect_count(&c, "PLANE", 10000, &np, err), out);
        if (np < 1) {
            rc = cs_error_input(err, here(&c), "PLANE", c.tok, "must be at least 1");
            goto out;
        }
        s->nplanes = (int)np;
        s->planes = calloc((size_t)np, sizeof *s->planes);
        if (!s->planes) {
            rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            goto out;
        }
        for (int i = 0; i < s->nplanes; i++)
            CS_CALL_GOTO(rc, err, read_plane(&c, &s->planes[i], err), out);
        if ((r = next_token(&c, err)) < 0) goto token_failed;
    }
    /* One POINTS block per plane (a file without PLANE has one block). */
    int nblocks = s->nplanes ? s->nplanes : 1;
    s->block_start = calloc((size_t)nblocks, sizeof *s->block_start);
    s->block_count = calloc((size_t)nblocks, sizeof *s->block_count);
    if (!s->block_start || !s->block_count) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto out;
    }
    for (int b = 0; b < nblocks; b++) {
        if (b > 0 && (r = next_token(&c, err)) < 0) goto token_failed;
        if (r == 0 || strcmp(c.tok, "POINTS") != 0) {
            if (r == 0) c.tok_line = c.line;
            rc = cs_error_input(err, here(&c), NULL, r ? c.tok : "(end of file)",
                                "expected POINTS for block %d of %d (one per PLANE)", b + 1,
                                nblocks);
            goto out;
        }
        long n;
        CS_CALL_GOTO(rc, err, expect_count(&c, "POINTS", 100000000, &n, err), out);
        s->block_start[b] = g.npoints;
        s->block_count[b] = n;
        for (long i = 0; i < n; i++)
            CS_CALL_GOTO(rc, err, read_point(&c, s->version, &g, &cap_offsets, err), out);
    }
    if ((r = next_token(&c, err)) < 0) goto token_failed;
    if (r > 0) {
        rc = cs_error_input(err, here(&c), NULL, c.tok,
                            "data after the last POINTS block (does a POINTS count fall short?)");
        goto out;
    }
    s->points = g.points;
    s->npoints = g.npoints;
    s->samples = g.samples;
    s->nsamples = g.nsamples;
    g.points = NULL;
    g.samples = NULL;
    for (long i = 0; i < s->npoints; i++) {
        double *base = s->samples + g.offsets[i];
        for (int k = 0; k < 3; k++) {
            s->points[i].sr[k] = base;
            base += s->points[i].nt[k];
        }
    }
    goto out;
token_failed:
    /* next_token returns -1, not a status, and has filled err */
    rc = err->status;
    CS_TRACE(err);
out:
    free(c.text);
    free(g.points);
    free(g.samples);
    free(g.offsets);
    if (rc) srf_free(s);
    return rc;
}

void srf_free(srf_file *s) {
    for (int i = 0; i < s->ncomments; i++)
        free(s->comments[i]);
    free(s->comments);
    free(s->planes);
    free(s->block_start);
    free(s->block_count);
    free(s->points);
    free(s->samples);
    memset(s, 0, sizeof *s);
}

int srf_alloc(srf_file *s, int version, int nplanes, long npoints, long nsamples, cs_error *err) {
    memset(s, 0, sizeof *s);
    s->version = version;
    s->nplanes = nplanes;
    int nblocks = nplanes ? nplanes : 1;
    s->planes = calloc((size_t)(nplanes ? nplanes : 1), sizeof *s->planes);
    s->block_start = calloc((size_t)nblocks, sizeof *s->block_start);
    s->block_count = calloc((size_t)nblocks, sizeof *s->block_count);
    s->points = calloc((size_t)(npoints ? npoints : 1), sizeof *s->points);
    s->samples = calloc((size_t)(nsamples ? nsamples : 1), sizeof *s->samples);
    s->npoints = npoints;
    s->nsamples = nsamples;
    if (!s->planes || !s->block_start || !s->block_count || !s->points || !s->samples) {
        srf_free(s);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for an SRF of %ld points",
                            npoints);
    }
    return 0;
}

static int reads_back(char *buf, size_t n, int digits, double v) {
    snprintf(buf, n, "%.*g", digits, v);
    return strtod(buf, NULL) == v;
}

/* The fewest significant digits that read back as the same double. Computed values mostly need
 * 16 or 17, so those are tried first; below 16 the fewest are found by bisection (whether d
 * digits read back is monotone in d: more digits lie nearer v). Counting up from 1, as before,
 * printed and read each number up to 17 times, most of an SRF's writing time. */
static void put_number(FILE *f, double v) {
    char best[40], buf[40];
    if (!isfinite(v) || !reads_back(best, sizeof best, 16, v)) {
        snprintf(best, sizeof best, "%.17g", v);
    } else if (reads_back(buf, sizeof buf, 15, v)) {
        memcpy(best, buf, sizeof best);
        int lo = 1, hi = 15; /* hi reads back (best holds it); below lo does not */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (reads_back(buf, sizeof buf, mid, v)) {
                hi = mid;
                memcpy(best, buf, sizeof best);
            } else {
                lo = mid + 1;
            }
        }
    }
    fputs(best, f);
}

static void put_numbers(FILE *f, const double *v, int n) {
    for (int i = 0; i < n; i++) {
        fputc(' ', f);
        put_number(f, v[i]);
    }
    fputc('\n', f);
}

int srf_write(const char *path, const srf_file *s, char sha[65], cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    FILE *f = a.f;
    fprintf(f, "%s\n", s->version == 2 ? "2.0" : "1.0");
    for (int i = 0; i < s->ncomments; i++)
        fprintf(f, "%s\n", s->comments[i]);
    if (s->nplanes > 0) {
        fprintf(f, "PLANE %d\n", s->nplanes);
        for (int i = 0; i < s->nplanes; i++) {
            const srf_plane *p = &s->planes[i];
            double a1[6] = {p->elon, p->elat, p->nstk, p->ndip, p->len, p->wid};
            double a2[5] = {p->stk, p->dip, p->dtop, p->shyp, p->dhyp};
            put_numbers(f, a1, 6);
            put_numbers(f, a2, 5);
        }
    }
    int nblocks = s->nplanes ? s->nplanes : 1;
    for (int b = 0; b < nblocks; b++) {
        fprintf(f, "POINTS %ld\n", s->block_count[b]);
        for (long i = s->block_start[b]; i < s->block_start[b] + s->block_count[b]; i++) {
            const srf_point *p = &s->points[i];
            double h[10] = {p->lon,  p->lat,   p->dep, p->stk, p->dip,
                            p->area, p->tinit, p->dt,  p->vs,  p->den};
            put_numbers(f, h, s->version == 2 ? 10 : 8);
            double r[7] = {p->rake,  p->slip[0], p->nt[0], p->slip[1],
                           p->nt[1], p->slip[2], p->nt[2]};
            put_numbers(f, r, 7);
            for (int k = 0; k < 3; k++)
                for (int j = 0; j < p->nt[k]; j += 6)
                    put_numbers(f, p->sr[k] + j, p->nt[k] - j < 6 ? p->nt[k] - j : 6);
        }
    }
    if (ferror(f)) {
        cs_atomic_abort(&a);
        return cs_error_errno(err, path, "write SRF");
    }
    return cs_atomic_commit(&a, sha, err);
}

double srf_moment(const srf_file *s, double (*mu_at_depth)(double depth_km, void *ctx), void *ctx) {
    double m0 = 0; /* dyne-cm */
    for (long i = 0; i < s->npoints; i++) {
        const srf_point *p = &s->points[i];
        double slip =
            sqrt(p->slip[0] * p->slip[0] + p->slip[1] * p->slip[1] + p->slip[2] * p->slip[2]);
        double mu = mu_at_depth ? mu_at_depth(p->dep, ctx) * 10.0 /* Pa -> dyne/cm^2 */
                                : p->den * p->vs * p->vs;
        m0 += mu * p->area * slip;
    }
    return m0 * 1e-7;
}

double srf_moment_of_magnitude(double mw) {
    return pow(10.0, 1.5 * mw + 9.05);
}

double srf_magnitude_of_moment(double m0) {
    return (log10(m0) - 9.05) / 1.5;
}

double srf_gp_moment_of_magnitude(double mw) {
    return pow(10.0, 1.5 * (mw + 10.73)) * 1e-7;
}
