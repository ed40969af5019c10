/* Output files of the solver, written atomically (temporary name, sync, SHA-256, rename).
 *
 * SGT file (mode sgt), one per force component, formats/sgt_file.h, docs/sgt.md:
 *   /points/index        int32   [npoints][3]   grid node i, j, k
 *   /points/geographic   float64 [npoints][3]   lon, lat (deg), depth (m), when known
 *   /points/material     float32 [npoints][3]   lambda, mu (Pa), rho (kg/m^3) at the reference
 *                                               frequency
 *   /strain              float32 [npoints][6][nt] tensor strain xx yy zz xy xz yz at the node,
 *                                               chunked by blocks of points
 *   /source/stf          float32 [nsteps]       the time function applied at each solver step
 * and attributes on / describing time, force, source filter, grid, box, model and code.
 * Forward file (mode forward): /receivers/index, /receivers/velocity [nrec][3][nt] (box frame,
 * m/s) and the same attributes. */
#ifndef SGT_OUTPUT_H
#define SGT_OUTPUT_H

#include "sgt_config.h"
#include "sgt_state.h"

typedef struct {
    const char *model_name;
    const char *material_sha; /* may be empty */
    double stf_sample_offset; /* 0: samples at n dt (force); 0.5: at (n + 1/2) dt (moment) */
    double time_shift;
    const char *stf_description;
    double axes_enu[3][3]; /* box axes in E, N, Up at the source, when known */
    int have_axes;
} sgt_output_meta;

int sgt_output_write(const sgt_config *c, const sgt_state *s, const sgt_output_meta *meta,
                     char sha[65], double *bytes, cs_error *err);

#endif
