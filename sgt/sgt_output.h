/* Output files of the solver, written atomically (temporary name, sync, SHA-256, rename).
 * The SGT file is written while the run goes on (sgt_strain_writer.h); a forward file at the end.
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

/* Writes a forward run's file whole (receivers are few; their history stays in memory). */
int sgt_output_write(const sgt_config *c, const sgt_state *s, const sgt_output_meta *meta,
                     char sha[65], double *bytes, cs_error *err);

/* An SGT file being written while the run goes on: created (or, for a resumed run, reopened)
 * before the first step with everything but the strain's values, filled window by window, then
 * checksummed and renamed into place. Every call is collective over the run's ranks except
 * sgt_output_path. `partial`: the temporary file's name when a resumed run must find it again
 * (it is then kept when the run fails); NULL: a fresh hidden name next to the output. */
typedef struct sgt_output sgt_output;
int sgt_output_open(const sgt_config *c, const sgt_state *s, const sgt_output_meta *meta,
                    const char *partial, int resume, sgt_output **out, cs_error *err);
/* Samples m0 .. m0 + len - 1 of this rank's points: win is npoints x 6 x len. May run on a
 * thread of its own (it uses a communicator of its own) while the main thread steps. */
int sgt_output_put_strain(sgt_output *w, const sgt_state *s, int m0, int len, const float *win,
                          cs_error *err);
/* Everything written so far on disk, the file consistent (before a checkpoint names it). */
int sgt_output_flush(sgt_output *w, cs_error *err);
/* Closes, checksums and renames into place; frees w. */
int sgt_output_close(sgt_output *w, char sha[65], double *bytes, cs_error *err);
/* Closes after a failure; the temporary file is removed unless it is a resumable partial. */
void sgt_output_abandon(sgt_output *w);
const char *sgt_output_path(const sgt_output *w);

#endif
