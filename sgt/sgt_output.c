#include "sgt_output.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_atomic.h"
#include "cs_hdf5.h"
#include "cs_version.h"

static int write_common_attrs(hid_t f, const sgt_config *c, const sgt_state *s,
                              const sgt_output_meta *m) {
    int bad = 0;
    int grid[3] = {c->nx, c->ny, c->nz};
    double box[5] = {c->origin_lon, c->origin_lat, c->rotation, c->x0, c->y0};
    bad |= cs_h5_attr_int(f, "grid", grid, 3);
    bad |= cs_h5_attr_double(f, "h", &c->h, 1);
    bad |= cs_h5_attr_double(f, "solver_dt", &c->dt, 1);
    bad |= cs_h5_attr_int(f, "solver_nt", &c->nt, 1);
    if (c->have_geo)
        bad |= cs_h5_attr_double(f, "box_origin_lon_lat_rotation_x0_y0", box, 5);
    else
        bad |= cs_h5_attr_double(f, "box_x0_y0", box + 3, 2);
    bad |= cs_h5_attr_string(f, "frame",
                             "box: x at azimuth 'rotation' clockwise from north, y 90 "
                             "degrees clockwise from x, z down, z = 0 the surface");
    bad |= cs_h5_attr_int(f, "free_surface", &c->free_surface, 1);
    bad |= cs_h5_attr_int(f, "attenuation", &c->visco, 1);
    if (c->visco) {
        double qb[3] = {c->q_low, c->q_high, c->q_ref};
        bad |= cs_h5_attr_double(f, "q_band_low_high_reference_hz", qb, 3);
    }
    bad |= cs_h5_attr_string(f, "absorbing", c->absorb.kind == SGT_ABSORB_PML ? "pml" : "sponge");
    bad |= cs_h5_attr_int(f, "absorbing_width", &c->absorb.width, 1);
    bad |= cs_h5_attr_string(f, "model", m->model_name ? m->model_name : "");
    bad |= cs_h5_attr_string(f, "material_sha256", m->material_sha ? m->material_sha : "");
    bad |= cs_h5_attr_string(f, "code_version", CS_VERSION);
    bad |= cs_h5_attr_int(f, "source_node", c->src, 3);
    bad |= cs_h5_attr_double(f, "fmax", &c->fmax, 1);
    bad |= cs_h5_attr_double(f, "time_shift", &m->time_shift, 1);
    bad |= cs_h5_attr_string(f, "source_filter", m->stf_description);
    if (m->have_axes) bad |= cs_h5_attr_double(f, "box_axes_enu_at_source", &m->axes_enu[0][0], 9);
    /* The time function actually applied. */
    hid_t g = cs_h5_group(f, "source");
    hsize_t d = (hsize_t)c->nt;
    bad |= cs_h5_write(g, "stf", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 1, &d, NULL, s->stf);
    bad |= cs_h5_attr_double(g, "dt", &c->dt, 1);
    bad |= cs_h5_attr_double(g, "sample_offset", &m->stf_sample_offset, 1);
    bad |= cs_h5_attr_string(g, "units",
                             "1/s; sample n is at (n + sample_offset) dt; the source "
                             "is amplitude x stf(t)");
    H5Gclose(g);
    return bad;
}

static int write_sgt(hid_t f, const sgt_config *c, const sgt_state *s) {
    int bad = 0;
    long np = s->npoints;
    hid_t g = cs_h5_group(f, "points");
    hsize_t d2[2] = {(hsize_t)np, 3};
    bad |= cs_h5_write(g, "index", H5T_STD_I32LE, H5T_NATIVE_INT, 2, d2, NULL, s->pts);
    if (c->point_geo) {
        bad |= cs_h5_write(g, "geographic", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, d2, NULL,
                           c->point_geo);
        bad |= cs_h5_attr_string(g, "geographic_units", "lon (deg), lat (deg), depth (m)");
    }
    bad |= cs_h5_write(g, "material", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 2, d2, NULL, s->pt_mat);
    bad |= cs_h5_attr_string(g, "material_units",
                             "lambda (Pa), mu (Pa), rho (kg/m^3), at the "
                             "reference frequency");
    H5Gclose(g);
    hsize_t d3[3] = {(hsize_t)np, 6, (hsize_t)s->nt_out};
    hsize_t ch[3] = {(hsize_t)(np < 64 ? np : 64), 6, (hsize_t)s->nt_out};
    bad |= cs_h5_write(f, "strain", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 3, d3, ch, s->out);
    double dto = c->dt * c->decimation;
    bad |= cs_h5_attr_double(f, "dt", &dto, 1);
    bad |= cs_h5_attr_int(f, "nt", &s->nt_out, 1);
    bad |= cs_h5_attr_int(f, "decimation", &c->decimation, 1);
    bad |= cs_h5_attr_string(f, "force_component", c->force_component);
    bad |= cs_h5_attr_double(f, "force_vector", c->force, 3);
    bad |= cs_h5_attr_double(f, "impulse", &c->impulse, 1);
    bad |= cs_h5_attr_string(f, "strain_convention",
                             "tensor strain eps_ij (not engineering 2 eps_ij); components xx yy "
                             "zz xy xz yz in the box frame, interpolated to the normal-stress "
                             "node; sample m at t = m dt; from a force of 'impulse' N*s");
    bad |= cs_h5_attr_string(f, "units", "strain: dimensionless; dt, time_shift: s; impulse: N*s");
    return bad;
}

static int write_forward(hid_t f, const sgt_config *c, const sgt_state *s) {
    int bad = 0;
    hid_t g = cs_h5_group(f, "receivers");
    hsize_t d2[2] = {(hsize_t)s->nrec, 3};
    bad |= cs_h5_write(g, "index", H5T_STD_I32LE, H5T_NATIVE_INT, 2, d2, NULL, s->rec);
    hsize_t d3[3] = {(hsize_t)s->nrec, 3, (hsize_t)s->nt};
    bad |= cs_h5_write(g, "velocity", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 3, d3, NULL, s->rec_out);
    bad |= cs_h5_attr_string(g, "units", "m/s, box frame vx vy vz; sample n at t = n dt");
    H5Gclose(g);
    bad |= cs_h5_attr_double(f, "dt", &c->dt, 1);
    bad |= cs_h5_attr_int(f, "nt", &s->nt, 1);
    bad |= cs_h5_attr_string(f, "source_kind",
                             c->source_kind == SGT_SOURCE_FORCE ? "force" : "moment");
    if (c->source_kind == SGT_SOURCE_FORCE) {
        bad |= cs_h5_attr_double(f, "force_vector", c->force, 3);
        bad |= cs_h5_attr_double(f, "impulse", &c->impulse, 1);
    } else {
        bad |= cs_h5_attr_double(f, "moment_box_xx_yy_zz_xy_xz_yz", c->moment, 6);
    }
    return bad;
}

int sgt_output_write(const sgt_config *c, const sgt_state *s, const sgt_output_meta *meta,
                     char sha[65], double *bytes, cs_error *err) {
    char tmp[4200];
    int rc = cs_atomic_reserve(c->output, tmp, sizeof tmp, err);
    if (rc) return rc;
    cs_h5_quiet();
    hid_t f = cs_h5_create(tmp);
    if (f < 0) {
        remove(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: cannot create HDF5 file", tmp);
    }
    int bad = cs_h5_attr_string(f, "format",
                                c->mode == SGT_MODE_SGT ? "cybershake-sgt" : "cybershake-forward");
    bad |= cs_h5_attr_int(f, "format_version", (int[]){1}, 1);
    bad |= write_common_attrs(f, c, s, meta);
    bad |= c->mode == SGT_MODE_SGT ? write_sgt(f, c, s) : write_forward(f, c, s);
    if (H5Fclose(f) < 0) bad = 1;
    if (bad) {
        remove(tmp);
        return cs_error_set(err, CS_ERR_IO, "%s: writing the HDF5 output failed (disk full?)",
                            c->output);
    }
    rc = cs_atomic_publish(tmp, c->output, sha, err);
    if (rc && err->status == CS_ERR_RESOURCE) {
        /* No SHA-256 in this build: publish without one. */
        sha[0] = '\0';
        rc = cs_atomic_publish(tmp, c->output, NULL, err);
    }
    if (rc) {
        remove(tmp);
        return rc;
    }
    struct stat st;
    *bytes = stat(c->output, &st) == 0 ? (double)st.st_size : 0;
    return 0;
}
