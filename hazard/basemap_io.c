/* The basemap's files (basemap.h): NetCDF classic with CF metadata, written here byte by byte
 * (the format: NetCDF Users Guide, "File Format Specification"; version 2, 64-bit offsets), and
 * CSV. No NetCDF library: Debian's libnetcdf links the serial HDF5, which cannot share a
 * program with the Open MPI HDF5 the SGT code links. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basemap.h"
#include "cs_atomic.h"
#include "cs_version.h"

enum {
    NC_CHAR = 2,
    NC_INT = 4,
    NC_DOUBLE = 6,
    NC_DIMENSION = 10,
    NC_VARIABLE = 11,
    NC_ATTRIBUTE = 12
};

typedef struct {
    const char *name;
    int type; /* NC_CHAR: text; NC_DOUBLE: d[0..n-1] */
    const char *text;
    int n;
    double d[2];
} nc_att;

typedef struct {
    const char *name;
    int ndims, dims[2];
    const nc_att *atts;
    int natts;
    int type; /* NC_INT (a scalar 0) or NC_DOUBLE */
    const double *data;
    long long count; /* values */
} nc_var;

static void put32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 8), (unsigned char)v};
    fwrite(b, 1, 4, f);
}
static void put64(FILE *f, uint64_t v) {
    put32(f, (uint32_t)(v >> 32));
    put32(f, (uint32_t)v);
}
static void putd(FILE *f, double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    put64(f, u);
}
static void pad(FILE *f, size_t n) {
    for (size_t k = n; k % 4; k++)
        fputc(0, f);
}
static void name(FILE *f, const char *s) {
    size_t n = strlen(s);
    put32(f, (uint32_t)n);
    fwrite(s, 1, n, f);
    pad(f, n);
}
static void atts(FILE *f, const nc_att *a, int n) {
    if (n == 0) {
        put32(f, 0), put32(f, 0); /* ABSENT */
        return;
    }
    put32(f, NC_ATTRIBUTE), put32(f, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        name(f, a[i].name);
        put32(f, (uint32_t)a[i].type);
        if (a[i].type == NC_CHAR) {
            size_t len = strlen(a[i].text);
            put32(f, (uint32_t)len);
            fwrite(a[i].text, 1, len, f);
            pad(f, len);
        } else {
            put32(f, (uint32_t)a[i].n);
            for (int k = 0; k < a[i].n; k++)
                putd(f, a[i].d[k]);
        }
    }
}
static long long vsize(const nc_var *v) {
    long long n = v->type == NC_INT ? 4 : 8 * v->count;
    return (n + 3) / 4 * 4;
}

/* The header, with the variables' data starting at `begin` (the header's own size on the
 * second pass). */
static void header(FILE *f, const char *const *dimnames, const int *dimlens, int ndims,
                   const nc_att *gatts, int ngatts, const nc_var *vars, int nvars,
                   long long begin) {
    fwrite("CDF\x02", 1, 4, f);
    put32(f, 0); /* no record variables */
    put32(f, NC_DIMENSION), put32(f, (uint32_t)ndims);
    for (int i = 0; i < ndims; i++) {
        name(f, dimnames[i]);
        put32(f, (uint32_t)dimlens[i]);
    }
    atts(f, gatts, ngatts);
    put32(f, NC_VARIABLE), put32(f, (uint32_t)nvars);
    for (int i = 0; i < nvars; i++) {
        name(f, vars[i].name);
        put32(f, (uint32_t)vars[i].ndims);
        for (int k = 0; k < vars[i].ndims; k++)
            put32(f, (uint32_t)vars[i].dims[k]);
        atts(f, vars[i].atts, vars[i].natts);
        put32(f, (uint32_t)vars[i].type);
        put32(f, (uint32_t)(vsize(&vars[i]) > 0xffffffffLL ? 0xffffffffu : vsize(&vars[i])));
        put64(f, (uint64_t)begin);
        begin += vsize(&vars[i]);
    }
}

static const char WGS84_WKT[] =
    "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],"
    "PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433,AUTHORITY[\"EPSG\",\"9122\"]],"
    "AUTHORITY[\"EPSG\",\"4326\"]]";

#define TXT(n, s)                                                                                  \
    {                                                                                              \
        n, NC_CHAR, s, 0, {                                                                        \
            0, 0                                                                                   \
        }                                                                                          \
    }
#define NUM(n, v)                                                                                  \
    {                                                                                              \
        n, NC_DOUBLE, NULL, 1, {                                                                   \
            v, 0                                                                                   \
        }                                                                                          \
    }
#define NUM2(n, a, b)                                                                              \
    {                                                                                              \
        n, NC_DOUBLE, NULL, 2, {                                                                   \
            a, b                                                                                   \
        }                                                                                          \
    }

int hazard_basemap_write_netcdf(const char *path, const hazard_basemap *b,
                                const hazard_basemap_meta *meta, cs_error *err) {
    double *lon = malloc(sizeof(double) * (size_t)(b->nlon + b->nlat));
    if (!lon) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    double *lat = lon + b->nlon;
    for (int i = 0; i < b->nlon; i++)
        lon[i] = b->lon0 + i * b->dlon;
    for (int j = 0; j < b->nlat; j++)
        lat[j] = b->lat0 + j * b->dlat;
    char source[96], poe[64], interp[400], long_base[256], long_diff[256], long_comb[256];
    snprintf(source, sizeof source, "cybershake %s (hazard map --basemap)", CS_VERSION);
    snprintf(poe, sizeof poe, "%.6g", meta->annual);
    snprintf(interp, sizeof interp,
             "CyberShake minus basemap at %d sites (%s), thin-plate spline on a plane tangent at "
             "lon %.6f lat %.6f, tapered to 0 between radius/2 and radius from the nearest site",
             b->nused, meta->units, b->lon_ref, b->lat_ref);
    snprintf(long_base, sizeof long_base, "%s from classical PSHA with %s", meta->title,
             meta->models);
    snprintf(long_diff, sizeof long_diff, "CyberShake minus %s, interpolated", meta->models);
    snprintf(long_comb, sizeof long_comb, "%s: basemap plus interpolated CyberShake difference",
             meta->title);
    const nc_att g[] = {TXT("Conventions", "CF-1.8"),
                        TXT("title", meta->title),
                        TXT("source", source),
                        TXT("history", meta->history ? meta->history : ""),
                        TXT("gmpe", meta->models),
                        NUM("annual_probability_of_exceedance", meta->annual),
                        TXT("interpolation", interp),
                        TXT("references", "docs/hazard.md, Basemaps and the interpolated "
                                          "difference")};
    const nc_att crs[] = {TXT("grid_mapping_name", "latitude_longitude"),
                          NUM("longitude_of_prime_meridian", 0),
                          NUM("semi_major_axis", 6378137.0),
                          NUM("inverse_flattening", 298.257223563),
                          TXT("crs_wkt", WGS84_WKT),
                          TXT("spatial_ref", WGS84_WKT)};
    const nc_att alat[] = {TXT("standard_name", "latitude"), TXT("long_name", "latitude"),
                           TXT("units", "degrees_north"), TXT("axis", "Y"),
                           NUM2("actual_range", lat[0], lat[b->nlat - 1])};
    const nc_att alon[] = {TXT("standard_name", "longitude"), TXT("long_name", "longitude"),
                           TXT("units", "degrees_east"), TXT("axis", "X"),
                           NUM2("actual_range", lon[0], lon[b->nlon - 1])};
    const nc_att avs[] = {TXT("long_name", "Vs30 used at the node"), TXT("units", "m s-1"),
                          NUM("_FillValue", NAN), TXT("grid_mapping", "crs")};
    const nc_att abase[] = {TXT("long_name", long_base), TXT("units", meta->units),
                            NUM("_FillValue", NAN), TXT("grid_mapping", "crs")};
    const nc_att adiff[] = {TXT("long_name", long_diff), TXT("units", meta->units),
                            NUM("_FillValue", NAN), TXT("grid_mapping", "crs")};
    const nc_att acomb[] = {TXT("long_name", long_comb), TXT("units", meta->units),
                            NUM("_FillValue", NAN), TXT("grid_mapping", "crs")};
    const long long nn = (long long)b->nlon * b->nlat;
    const nc_var v[] = {
        {"crs", 0, {0, 0}, crs, 6, NC_INT, NULL, 1},
        {"lat", 1, {0, 0}, alat, 5, NC_DOUBLE, lat, b->nlat},
        {"lon", 1, {1, 0}, alon, 5, NC_DOUBLE, lon, b->nlon},
        {"vs30", 2, {0, 1}, avs, 4, NC_DOUBLE, b->vs30, nn},
        {"basemap", 2, {0, 1}, abase, 4, NC_DOUBLE, b->base, nn},
        {"difference", 2, {0, 1}, adiff, 4, NC_DOUBLE, b->diff, nn},
        {"combined", 2, {0, 1}, acomb, 4, NC_DOUBLE, b->comb, nn},
    };
    const int nv = (int)(sizeof v / sizeof *v);
    const char *dimnames[2] = {"lat", "lon"};
    const int dimlens[2] = {b->nlat, b->nlon};
    /* the header's size first (a memory stream), then the file */
    char *mem = NULL;
    size_t memlen = 0;
    FILE *ms = open_memstream(&mem, &memlen);
    if (!ms) {
        free(lon);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    header(ms, dimnames, dimlens, 2, g, (int)(sizeof g / sizeof *g), v, nv, 0);
    fclose(ms);
    free(mem);
    cs_atomic_file a;
    int rc = cs_atomic_open(&a, path, err);
    if (rc) {
        free(lon);
        return rc;
    }
    header(a.f, dimnames, dimlens, 2, g, (int)(sizeof g / sizeof *g), v, nv, (long long)memlen);
    for (int i = 0; i < nv; i++) {
        if (v[i].type == NC_INT) {
            put32(a.f, 0);
            continue;
        }
        for (long long q = 0; q < v[i].count; q++)
            putd(a.f, v[i].data[q]);
    }
    free(lon);
    if (ferror(a.f)) {
        cs_atomic_abort(&a);
        return cs_error_errno(err, path, "write the NetCDF file");
    }
    return cs_atomic_commit(&a, NULL, err);
}

static void num(FILE *f, double v, const char *fmt) {
    if (isfinite(v))
        fprintf(f, fmt, v);
    else
        fputs("NaN", f);
}

int hazard_basemap_write_csv(const char *path, const hazard_basemap *b,
                             const hazard_basemap_meta *meta, cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f,
            "# %s, annual probability %.6g; basemap %s (%s), difference CyberShake minus basemap "
            "interpolated (%s), combined = basemap + difference; vs30 in m/s\n"
            "lon,lat,vs30,basemap,difference,combined\n",
            meta->title, meta->annual, meta->models, meta->units, meta->units);
    for (int j = 0; j < b->nlat; j++)
        for (int i = 0; i < b->nlon; i++) {
            const long q = (long)j * b->nlon + i;
            fprintf(a.f, "%.6f,%.6f,", b->lon0 + i * b->dlon, b->lat0 + j * b->dlat);
            num(a.f, b->vs30[q], "%.1f");
            for (int k = 0; k < 3; k++) {
                fputc(',', a.f);
                num(a.f, (k == 0 ? b->base : k == 1 ? b->diff : b->comb)[q], "%.6g");
            }
            fputc('\n', a.f);
        }
    return cs_atomic_commit(&a, NULL, err);
}

int hazard_basemap_write_sites_csv(const char *path, const hazard_basemap *b,
                                   const hazard_basemap_meta *meta, cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f,
            "# %s, annual probability %.6g; basemap %s at each site (%s); difference = "
            "cybershake - basemap; interpolated: the interpolating surface at the site\n"
            "site,lon,lat,vs30,cybershake,basemap,difference,interpolated\n",
            meta->title, meta->annual, meta->models, meta->units);
    for (int s = 0; s < b->ns; s++) {
        fprintf(a.f, "%s,%.6f,%.6f,", b->names[s], b->slon[s], b->slat[s]);
        num(a.f, b->svs30[s], "%.1f");
        const double v[4] = {b->cs[s], b->sbase[s], b->sdiff[s], b->sinterp[s]};
        for (int k = 0; k < 4; k++) {
            fputc(',', a.f);
            num(a.f, v[k], "%.9g");
        }
        fputc('\n', a.f);
    }
    return cs_atomic_commit(&a, NULL, err);
}
