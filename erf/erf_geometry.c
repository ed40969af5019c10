#include "erf_geometry.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_geo.h"
#include "cs_lines.h"
#include "cs_strutil.h"

static const char *header_keys[5] = {"Probability", "Magnitude", "GridSpacing", "NumRows",
                                     "NumCols"};

static int check_point(const char *place, const double *v, cs_error *err) {
    static const char *names[6] = {"lat", "lon", "depth", "rake", "dip", "strike"};
    char value[64];
    CS_CALL(err, cs_geo_check_lonlat(v[1], v[0], place, err));
    struct {
        int i;
        double lo, hi;
        const char *rule;
    } rules[] = {{2, 0, 1000, "depth must lie in [0, 1000] km"},
                 {3, -360, 360, "rake must lie in [-360, 360] degrees"},
                 {4, 0, 90, "dip must lie in [0, 90] degrees"},
                 {5, -360, 360, "strike must lie in [-360, 360] degrees"}};
    for (int k = 0; k < 4; k++) {
        double x = v[rules[k].i];
        if (!(x >= rules[k].lo && x <= rules[k].hi) || (rules[k].i == 4 && x == 0)) {
            snprintf(value, sizeof value, "%g", x);
            return cs_error_input(err, place, names[rules[k].i], value, "%s%s", rules[k].rule,
                                  rules[k].i == 4 ? " (and > 0)" : "");
        }
    }
    return 0;
}

/* A run of decimal digits, as long as it fits: strtoll would also take a sign and spaces, and
 * clamp an overflow to the largest id (two files could then claim the same rupture). */
static size_t decimal_id(const char *s, long long *out) {
    size_t n = 0;
    long long v = 0;
    for (; s[n] >= '0' && s[n] <= '9'; n++) {
        int d = s[n] - '0';
        if (v > (LLONG_MAX - d) / 10) return 0;
        v = 10 * v + d;
    }
    *out = v;
    return n;
}

int erf_geometry_ids_from_path(const char *path, long long *source_id, long long *rupture_id,
                               cs_error *err) {
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    size_t a = decimal_id(base, source_id), b = 0;
    if (a > 0 && base[a] == '_') b = decimal_id(base + a + 1, rupture_id);
    if (b == 0 || strcmp(base + a + 1 + b, ".txt"))
        return cs_error_input(err, path, "file name", base,
                              "a rupture geometry file is named SOURCE_RUPTURE.txt (e.g. "
                              "128_1296.txt), each id plain decimal digits at most %lld",
                              LLONG_MAX);
    return 0;
}

int erf_geometry_read(const char *path, long long source_id, long long rupture_id, erf_rupture *r,
                      cs_error *err) {
    memset(r, 0, sizeof *r);
    cs_lines in;
    CS_CALL(err, cs_lines_open(&in, path, "rupture geometry file", err));
    int rc = 0;
    double header[5];
    int seen[5] = {0}, nseen = 0;
    char *line;
    /* cs_lines skips '#' lines, so the comment line before the points needs no handling. */
    while (nseen < 5 && (line = cs_lines_next(&in))) {
        char *eq = strchr(line, '=');
        if (!eq) {
            rc = cs_error_input(err, in.place, NULL, in.copy,
                                "expected a header line 'Key = value' (Probability, Magnitude, "
                                "GridSpacing, NumRows, NumCols)");
            goto fail;
        }
        *eq = 0;
        char *key = cs_trim(line), *val = cs_trim(eq + 1);
        int k = 0;
        while (k < 5 && strcmp(key, header_keys[k]) != 0)
            k++;
        if (k == 5) {
            rc = cs_error_input(err, in.place, key, val, "unknown header key");
            goto fail;
        }
        if (seen[k]) {
            rc = cs_error_input(err, in.place, key, val, "appears twice");
            goto fail;
        }
        if (cs_parse_double(val, &header[k])) {
            rc = cs_error_input(err, in.place, key, val, "must be a number");
            goto fail;
        }
        int bad = 0;
        if (k == 0) bad = !(header[k] >= 0 && header[k] <= 1);
        if (k == 1) bad = !(header[k] > 0 && header[k] < 10);
        if (k == 2) bad = !(header[k] > 0 && header[k] <= 100);
        if (k >= 3) bad = header[k] != floor(header[k]) || header[k] < 1 || header[k] > 100000;
        if (bad) {
            rc = cs_error_input(err, in.place, key, val, "%s",
                                k == 0   ? "a probability lies in [0, 1]"
                                : k == 1 ? "a magnitude lies in (0, 10)"
                                : k == 2 ? "grid spacing must lie in (0, 100] km"
                                         : "must be a whole number from 1 to 100000");
            goto fail;
        }
        seen[k] = 1;
        nseen++;
    }
    if (nseen < 5) {
        for (int k = 0; k < 5; k++)
            if (!seen[k]) {
                rc = cs_error_input(err, path, header_keys[k], "(missing)",
                                    "every rupture geometry file has this header line");
                break;
            }
        goto fail;
    }
    CS_CALL_GOTO(rc, err, erf_rupture_alloc(r, (int)header[3], (int)header[4], err), fail);
    r->source_id = source_id;
    r->rupture_id = rupture_id;
    r->prob = header[0];
    r->magnitude = header[1];
    r->spacing_km = header[2];
    int n = erf_rupture_npoints(r);
    for (int i = 0; i < n; i++) {
        line = cs_lines_next(&in);
        if (!line) {
            rc = cs_error_input(err, path, "points", "(end of file)",
                                "NumRows x NumCols = %d x %d = %d points expected, found %d",
                                r->nrows, r->ncols, n, i);
            goto fail;
        }
        double v[6];
        int got = cs_parse_numbers(line, v, 6);
        if (got != 6) {
            rc = cs_error_input(err, in.place, NULL, in.copy,
                                "a point line has 6 numbers: lat lon depth_km rake dip strike");
            goto fail;
        }
        CS_CALL_GOTO(rc, err, check_point(in.place, v, err), fail);
        r->lat[i] = v[0];
        r->lon[i] = v[1];
        r->dep[i] = v[2];
        r->rake[i] = v[3];
        r->dip[i] = v[4];
        r->stk[i] = v[5];
    }
    if ((line = cs_lines_next(&in))) {
        rc = cs_error_input(err, in.place, NULL, in.copy,
                            "more lines than NumRows x NumCols = %d points", n);
        goto fail;
    }
    cs_lines_close(&in);
    return 0;
fail:
    cs_lines_close(&in);
    erf_rupture_free(r);
    return rc;
}

int erf_geometry_write(const char *path, const erf_rupture *r, cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f, "Probability = %.17g\nMagnitude = %.17g\nGridSpacing = %.17g\n", r->prob,
            r->magnitude, r->spacing_km);
    fprintf(a.f,
            "NumRows = %d\nNumCols = %d\n#   Lat         Lon         Depth      Rake    Dip     "
            "Strike\n",
            r->nrows, r->ncols);
    for (int i = 0; i < erf_rupture_npoints(r); i++)
        fprintf(a.f, "%.17g %.17g %.17g %.17g %.17g %.17g\n", r->lat[i], r->lon[i], r->dep[i],
                r->rake[i], r->dip[i], r->stk[i]);
    return cs_atomic_commit(&a, NULL, err);
}
