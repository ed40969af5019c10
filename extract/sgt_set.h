/* The SGT files of a site (forces E, N and, unless the study is horizontal-only, Z at the site)
 * as the extractor reads them. A set of two (E and N, as CyberShake runs when no vertical
 * measure is wanted) gives the horizontal components only: the strain of the missing Z force
 * reads as zeros, and has_force[2] is 0 so that nothing vertical is reported.
 *
 * Opening checks that the files belong together: the same save points in the same order, the
 * same material, sampling (dt, nt), time shift, grid and box; each file's force is E, N or Z
 * (one each); the box is geographic (origin, rotation) so rupture points given by lon/lat can be
 * placed on the grid. Any mismatch is an error naming the file and the attribute or dataset.
 *
 * The strain of a set of points is read on demand (hyperslabs of /strain), so no process ever
 * holds more of the SGT than the points of the rupture it works on. */
#ifndef SGT_SET_H
#define SGT_SET_H

#include <hdf5.h>
#include <stdint.h>

#include "cs_error.h"
#include "cs_geo.h"

typedef struct {
    char path[3][4096]; /* E, N, Z ("" where absent) */
    int nforces;        /* 2 (E, N) or 3 */
    int has_force[3];
    long npoints;
    int nt;
    double dt, time_shift, fmax, h;
    double impulse[3]; /* N*s of each force */
    int grid[3];
    double lon0, lat0, rotation, x0, y0;
    double site_lon, site_lat;
    int *index;      /* npoints x (i, j, k) */
    float *material; /* npoints x (lambda, mu, rho) */
    int64_t *keys;   /* node keys (k ny + j) nx + i, sorted, with their points in order[] */
    long *order;
    cs_geo_frame *frame;
    /* frames of the same box, one a thread, so that threads locate points at once (a PROJ
     * transformation is used by one thread at a time): frames[0] is frame, more from
     * sgt_set_frames */
    cs_geo_frame **frames;
    int nframes;
    hid_t file[3], strain[3];
} sgt_set;

/* paths[0..n): the files in any order (n = 2: E and N; n = 3: E, N, Z); they are sorted into
 * E, N, Z by their force. */
int sgt_set_open(sgt_set *s, const char *const *paths, int n, cs_error *err);
/* The same from a fixed list where an empty path (the third) means no Z force. */
int sgt_set_open_list(sgt_set *s, const char paths[3][4096], cs_error *err);
void sgt_set_close(sgt_set *s);

/* The save point at the grid node nearest to (lon, lat, depth_km); an error naming the point
 * and the node when that node is not a save point or lies outside the grid. */
int sgt_set_locate(const sgt_set *s, double lon, double lat, double depth_km, long *point,
                   cs_error *err);
/* Frames for n threads (sgt_set_locate_axes), made once by the caller that uses them (a GPU
 * rank's threads open its ruptures; a CPU rank keeps the one). */
int sgt_set_frames(sgt_set *s, int n, cs_error *err);
/* The same as sgt_set_locate, and the box axes at (lon, lat) (sgt_set_axes's, bit for bit), through
 * frame `thread` (0 .. nframes - 1; each thread its own): one projection of (lon, lat) for both. */
int sgt_set_locate_axes(const sgt_set *s, int thread, double lon, double lat, double depth_km,
                        long *point, double axes[3][3], cs_error *err);
/* The save point of node (i, j, k), or -1. */
long sgt_set_find(const sgt_set *s, int i, int j, int k);

/* Strain of points[0..n) (any order, repeats allowed): out[q][force][component][nt] as stored
 * (tensor strain xx yy zz xy xz yz, box frame), forces E, N, Z (zeros for an absent force). */
int sgt_set_read(const sgt_set *s, const long *points, long n, float *out, cs_error *err);

/* Box axes in East, North, Up at (lon, lat), for moment tensors given geographically. */
int sgt_set_axes(const sgt_set *s, double lon, double lat, double axes[3][3], cs_error *err);

#endif
