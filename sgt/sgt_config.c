#include "sgt_config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_lines.h"
#include "cs_strutil.h"
#include "plan_keys.h"

#define R(key, dim, req, def, lo, hi, help)                                                        \
    { key, CS_PT_REAL, dim, req, def, NULL, lo, hi, help }
#define I(key, req, def, lo, hi, help)                                                             \
    { key, CS_PT_INT, CS_DIM_NONE, req, def, NULL, lo, hi, help }
#define S(key, def, help)                                                                          \
    { key, CS_PT_STRING, CS_DIM_NONE, 0, def, NULL, 1, 0, help }
#define B(key, def, help)                                                                          \
    { key, CS_PT_BOOL, CS_DIM_NONE, 0, def, NULL, 1, 0, help }
#define C(key, def, choices, help)                                                                 \
    { key, CS_PT_CHOICE, CS_DIM_NONE, 0, def, choices, 1, 0, help }

const cs_param_spec sgt_param_specs[] = {
    C("mode", "sgt", "sgt|forward",
      "sgt: save strain at save points; forward: record velocity at receivers"),
    C(PLAN_KEY_BACKEND, "cpu", "cpu|cuda", "compute back end"),
    I("threads", 0, "0", 0, 4096, "OpenMP threads for the CPU back end (0: the OpenMP default)"),
    I(PLAN_KEY_RANKS_X, 0, "0", 0, 1e6,
      "MPI ranks along x (0: with ranks_y = 0, the split that cuts fewest columns)"),
    I(PLAN_KEY_RANKS_Y, 0, "0", 0, 1e6, "MPI ranks along y (0: ranks / ranks_x)"),
    I(PLAN_KEY_CHECKPOINT_EVERY, 0, "0", 0, 1e8,
      "write a checkpoint every this many steps (0: never); a rerun resumes from it"),
    S("checkpoint_dir", NULL, "folder of the checkpoints (default: the output's name + '.ckpt')"),
    B("restart", "true",
      "resume from a checkpoint of the same run when one exists (false: start over)"),
    I(PLAN_KEY_NX, 1, NULL, 8, 1e6, "grid nodes along x"),
    I(PLAN_KEY_NY, 1, NULL, 8, 1e6, "grid nodes along y"),
    I(PLAN_KEY_NZ, 1, NULL, 8, 1e6, "grid nodes along z (down)"),
    R(PLAN_KEY_H, CS_DIM_LENGTH, 1, NULL, 1e-3, 1e5, "grid spacing"),
    R(PLAN_KEY_DT, CS_DIM_TIME, 0, NULL, 1e-7, 100, "time step"),
    I(PLAN_KEY_NT, 0, NULL, 1, 1e8, "number of time steps"),
    R(PLAN_KEY_ORIGIN_LON, CS_DIM_ANGLE, 0, NULL, -180, 180,
      "frame origin longitude (needed for geographic inputs)"),
    R(PLAN_KEY_ORIGIN_LAT, CS_DIM_ANGLE, 0, NULL, -85, 85, "frame origin latitude"),
    R(PLAN_KEY_ROTATION, CS_DIM_ANGLE, 0, "0 deg", -360, 360,
      "azimuth of the box x axis, clockwise from north (CyberShake: -55)"),
    R(PLAN_KEY_X0, CS_DIM_LENGTH, 0, NULL, 1, 0,
      "box-frame x of node (0,0,0) (default: box centred on the origin)"),
    R(PLAN_KEY_Y0, CS_DIM_LENGTH, 0, NULL, 1, 0,
      "box-frame y of node (0,0,0) (default: box centred on the origin)"),
    C(PLAN_KEY_MODEL_FORMAT, NULL, "homogeneous|fk1d|depth-table|ucvm1d|hdf5|awp",
      "velocity model format (required unless mesh_file is given)"),
    S(PLAN_KEY_MODEL_FILE, NULL, "velocity model file"),
    R("vp", CS_DIM_VELOCITY, 0, NULL, 1, 2e4, "homogeneous model: P velocity"),
    R("vs", CS_DIM_VELOCITY, 0, NULL, 0, 2e4, "homogeneous model: S velocity"),
    R("rho", CS_DIM_DENSITY, 0, NULL, 1, 2e4, "homogeneous model: density"),
    R("qp", CS_DIM_NONE, 0, NULL, 1, 1e6, "homogeneous model: P quality factor (default from Vs)"),
    R("qs", CS_DIM_NONE, 0, NULL, 1, 1e6, "homogeneous model: S quality factor (default from Vs)"),
    S(PLAN_KEY_MESH_FILE, NULL,
      "material file written by 'cybershake mesh' (used instead of sampling the model)"),
    R(PLAN_KEY_VS_MIN, CS_DIM_VELOCITY, 0, "500 m/s", 0, 1e4, "Vs floor (CyberShake: 500 m/s)"),
    R("vp_min", CS_DIM_VELOCITY, 0, "0 m/s", 0, 2e4, "Vp floor"),
    R("rho_min", CS_DIM_DENSITY, 0, "0 kg/m3", 0, 2e4, "density floor"),
    R("vp_vs_min", CS_DIM_NONE, 0, "1.45", 1.0, 10, "smallest Vp/Vs; Vp is raised to it"),
    C("material_sampling", "auto", "auto|effective|point|bandlimited",
      "auto: bandlimited for an elastic run of a 1D model where its overshoot stays within "
      "10% and dt stays stable, effective otherwise; effective: each node takes its cell's "
      "effective medium "
      "(interfaces where the model puts them); point: the model at the node (a node on an "
      "interface takes the layer below); bandlimited: 1D models' averages over a band-limited "
      "kernel (docs/sgt.md)"),
    I("material_subsamples", 0, "3", 1, 16,
      "3D gridded models: samples per axis in each cell for the effective medium"),
    B("attenuation", "true", "viscoelastic (coarse-grained memory variables) or purely elastic"),
    C("q_source", "auto", "auto|model|vs",
      "Q from the model, from Vs (Qs = 50 Vs[km/s], Qp = 2 Qs), or the model's where it has one"),
    R("q_band_low", CS_DIM_FREQUENCY, 0, "0.01 Hz", 1e-5, 1e3, "low end of the constant-Q band"),
    R("q_band_high", CS_DIM_FREQUENCY, 0, "25 Hz", 1e-4, 1e4, "high end of the constant-Q band"),
    R("q_reference_frequency", CS_DIM_FREQUENCY, 0, "1 Hz", 1e-4, 1e4,
      "frequency at which the model's velocities hold"),
    R(PLAN_KEY_FMAX, CS_DIM_FREQUENCY, 0, NULL, 1e-4, 1e3,
      "highest frequency of the study (source band, resolution check)"),
    R(PLAN_KEY_PPW, CS_DIM_NONE, 0, "5", 2, 100,
      "required nodes per shortest S wavelength at fmax"),
    B("free_surface", "true", "free surface at z = 0 (false: all six faces absorb)"),
    C("absorbing", "pml", "pml|sponge", "absorbing boundary: convolutional PML or Cerjan sponge"),
    I(PLAN_KEY_ABSORBING_WIDTH, 0, "20", 1, 1000,
      "width of the absorbing layer in nodes (CyberShake's sponge: 80)"),
    R("absorbing_thickness", CS_DIM_LENGTH, 0, NULL, 1e-3, 1e7,
      "width of the absorbing layer as a length, rounded up to whole nodes (instead of "
      "absorbing_width: absorption then holds as h is refined)"),
    R("sponge_edge_factor", CS_DIM_NONE, 0, "0.92", 1e-6, 0.999999,
      "sponge damping factor at the outermost node"),
    R("pml_reflection", CS_DIM_NONE, 0, "1e-3", 1e-12, 0.5, "PML nominal reflection coefficient"),
    C("source", "force", "force|moment|srf",
      "point force (SGT, forward), moment tensor or a finite source from srf_file (forward)"),
    S("srf_file", NULL,
      "source = srf: SRF 1.0/2.0; each subfault a moment tensor at its nearest node, M0 = mu A "
      "slip (mu of the mesh there), its slip rate as time function"),
    C("source_geometry", "point", "point|plane",
      "a point source, or (forces, for verification) the same force at every node of the plane k = "
      "source_k: a plane wave along z"),
    I("source_i", 0, NULL, 0, 1e6, "source node i"),
    I("source_j", 0, NULL, 0, 1e6, "source node j"),
    I("source_k", 0, NULL, 0, 1e6, "source node k (0: the surface)"),
    R(PLAN_KEY_SOURCE_LON, CS_DIM_ANGLE, 0, NULL, -180, 180,
      "source longitude (snapped to the nearest node)"),
    R(PLAN_KEY_SOURCE_LAT, CS_DIM_ANGLE, 0, NULL, -90, 90, "source latitude"),
    R("source_depth", CS_DIM_LENGTH, 0, "0 m", 0, 1e6, "source depth with source_lon/lat"),
    C(PLAN_KEY_FORCE_COMPONENT, NULL, "x|y|z|E|N|Z",
      "force direction: a box axis, or geographic E, N, Z (up)"),
    S("force_vector", NULL,
      "force direction as three box-frame numbers 'fx fy fz' (overrides force_component)"),
    S(PLAN_KEY_FORCE_VECTOR_E, NULL,
      "box-frame vector of the E force, as the plan writes it (used without geodesy)"),
    S(PLAN_KEY_FORCE_VECTOR_N, NULL,
      "box-frame vector of the N force, as the plan writes it (used without geodesy)"),
    S(PLAN_KEY_FORCE_VECTOR_Z, NULL,
      "box-frame vector of the Z force, as the plan writes it (used without geodesy)"),
    S(PLAN_KEY_BOX_AXES_ENU, NULL,
      "the box axes x, y, z in East, North, Up at the source (9 numbers), as the plan writes them"),
    R("impulse", CS_DIM_IMPULSE, 0, "1e15 N*s", 1e-30, 1e40,
      "impulse of the force (CyberShake: 1e15 N*s)"),
    R("moment_xx", CS_DIM_MOMENT, 0, NULL, 1, 0, "moment tensor, box frame"),
    R("moment_yy", CS_DIM_MOMENT, 0, NULL, 1, 0, "moment tensor, box frame"),
    R("moment_zz", CS_DIM_MOMENT, 0, NULL, 1, 0, "moment tensor, box frame"),
    R("moment_xy", CS_DIM_MOMENT, 0, NULL, 1, 0, "moment tensor, box frame"),
    R("moment_xz", CS_DIM_MOMENT, 0, NULL, 1, 0, "moment tensor, box frame"),
    R("moment_yz", CS_DIM_MOMENT, 0, NULL, 1, 0, "moment tensor, box frame"),
    R("strike", CS_DIM_ANGLE, 0, NULL, -360, 360, "fault strike (with dip, rake, m0)"),
    R("dip", CS_DIM_ANGLE, 0, NULL, 0, 90, "fault dip"),
    R("rake", CS_DIM_ANGLE, 0, NULL, -360, 360, "fault rake"),
    R("m0", CS_DIM_MOMENT, 0, NULL, 0, 1e30, "scalar moment"),
    C("stf", "impulse", "impulse|file",
      "time function: band-limited impulse (flat to fmax) or a file"),
    S("stf_file", NULL, "two columns: time (s) and value (1/s), scaled by impulse or m0"),
    R("stf_time_shift", CS_DIM_TIME, 0, "0 s", -1e6, 1e6,
      "time shift recorded with a file time function"),
    S(PLAN_KEY_SAVE_POINTS, NULL, "SGT save points: a file of 'i j k' grid indices"),
    S("save_points_geographic", NULL, "SGT save points: a file of 'lon lat depth_m'"),
    I(PLAN_KEY_DECIMATION, 0, "10", 1, 1e6,
      "save strain every this many steps (SGT mode; forward receivers record every step)"),
    I("strain_buffer_mb", 0, "1024", 1, 1e7,
      "host memory (MiB) for strain not yet written: two windows of samples of every save point"),
    S("receivers", NULL, "forward mode: a file of 'i j k' receiver nodes"),
    S(PLAN_KEY_OUTPUT, NULL, "output HDF5 file (required)"),
};
const int sgt_param_nspecs = (int)(sizeof sgt_param_specs / sizeof sgt_param_specs[0]);

static int need(const cs_params *p, const char *key, const char *why, cs_error *err) {
    if (cs_params_has(p, key)) return 0;
    return cs_error_input(err, "parameters", key, NULL, "required %s", why);
}

/* The mode, back end, grid and time stepping. */
static int config_basics(const cs_params *p, sgt_config *c, cs_error *err) {
    c->mode = strcmp(cs_params_string(p, "mode"), "forward") ? SGT_MODE_SGT : SGT_MODE_FORWARD;
    c->backend =
        strcmp(cs_params_string(p, "backend"), "cuda") ? SGT_BACKEND_CPU : SGT_BACKEND_CUDA;
    c->threads = (int)cs_params_int(p, "threads");
    c->nx = (int)cs_params_int(p, "nx");
    c->ny = (int)cs_params_int(p, "ny");
    c->nz = (int)cs_params_int(p, "nz");
    c->h = cs_params_real(p, "h");
    if (need(p, "dt", "(the time step)", err) || need(p, "nt", "(the number of steps)", err) ||
        need(p, "fmax", "(the highest frequency of the study)", err))
        return err->status;
    c->nt = (int)cs_params_int(p, "nt");
    c->dt = cs_params_real(p, "dt");
    return 0;
}

/* The box: its geographic origin, rotation and the frame position of node (0, 0, 0). */
static int config_frame(const cs_params *p, sgt_config *c, cs_error *err) {
    c->have_geo = cs_params_has(p, "origin_lon") && cs_params_has(p, "origin_lat");
    if (cs_params_has(p, "origin_lon") != cs_params_has(p, "origin_lat"))
        return cs_error_input(err, "parameters", "origin_lon, origin_lat", NULL,
                              "give both or neither");
    c->origin_lon = c->have_geo ? cs_params_real(p, "origin_lon") : 0;
    c->origin_lat = c->have_geo ? cs_params_real(p, "origin_lat") : 0;
    c->rotation = cs_params_real(p, "rotation");
    c->x0 = cs_params_has(p, "x0") ? cs_params_real(p, "x0") : -0.5 * (c->nx - 1) * c->h;
    c->y0 = cs_params_has(p, "y0") ? cs_params_real(p, "y0") : -0.5 * (c->ny - 1) * c->h;
    return 0;
}

/* The material: a mesh file, or a model and how it is sampled, floored and attenuated. */
static int config_model(const cs_params *p, sgt_config *c, cs_error *err) {
    if (cs_params_has(p, "mesh_file")) {
        cs_copy(c->mesh_file, sizeof c->mesh_file, cs_params_string(p, "mesh_file"));
    } else {
        if (need(p, "model_format", "(or mesh_file)", err)) return err->status;
        cs_copy(c->model_format, sizeof c->model_format, cs_params_string(p, "model_format"));
        if (!strcmp(c->model_format, "homogeneous")) {
            if (need(p, "vp", "for a homogeneous model", err) ||
                need(p, "vs", "for a homogeneous model", err) ||
                need(p, "rho", "for a homogeneous model", err))
                return err->status;
            c->vp = cs_params_real(p, "vp");
            c->vs = cs_params_real(p, "vs");
            c->rho = cs_params_real(p, "rho");
            c->qp = cs_params_has(p, "qp") ? cs_params_real(p, "qp") : NAN;
            c->qs = cs_params_has(p, "qs") ? cs_params_real(p, "qs") : NAN;
            if (isnan(c->qp) != isnan(c->qs))
                return cs_error_input(err, "parameters", "qp, qs", NULL, "give both or neither");
        } else {
            if (need(p, "model_file", "for a model read from a file", err)) return err->status;
            cs_copy(c->model_file, sizeof c->model_file, cs_params_string(p, "model_file"));
        }
    }
    c->mesh.vs_min = cs_params_real(p, "vs_min");
    c->mesh.vp_min = cs_params_real(p, "vp_min");
    c->mesh.rho_min = cs_params_real(p, "rho_min");
    c->mesh.vpvs_min = cs_params_real(p, "vp_vs_min");
    c->mesh.sampling = sgt_mesh_sampling_parse(cs_params_string(p, "material_sampling"));
    c->mesh.dt = c->dt; /* material_sampling = auto keeps it stable */
    c->mesh.subsamples = (int)cs_params_int(p, "material_subsamples");
    const char *qs = cs_params_string(p, "q_source");
    c->mesh.q_source = !strcmp(qs, "vs")      ? SGT_QSRC_VS
                       : !strcmp(qs, "model") ? SGT_QSRC_MODEL
                                              : SGT_QSRC_AUTO;
    c->mesh.x0 = c->x0;
    c->mesh.y0 = c->y0;
    c->mesh.h = c->h;
    c->visco = cs_params_bool(p, "attenuation");
    c->mesh.viscoelastic = c->visco;
    c->q_low = cs_params_real(p, "q_band_low");
    c->q_high = cs_params_real(p, "q_band_high");
    c->q_ref = cs_params_real(p, "q_reference_frequency");
    c->fmax = cs_params_real(p, "fmax");
    c->min_ppw = cs_params_real(p, "min_points_per_wavelength");
    return 0;
}

/* The free surface and the absorbing boundary (its width in nodes or as a length). */
static int config_boundaries(const cs_params *p, sgt_config *c, cs_error *err) {
    c->free_surface = cs_params_bool(p, "free_surface");
    c->absorb.kind =
        strcmp(cs_params_string(p, "absorbing"), "pml") ? SGT_ABSORB_SPONGE : SGT_ABSORB_PML;
    c->absorb.width = (int)cs_params_int(p, "absorbing_width");
    if (cs_params_has(p, "absorbing_thickness")) {
        if (cs_params_given(p, "absorbing_width"))
            return cs_error_input(err, cs_params_where(p, "absorbing_thickness"),
                                  "absorbing_thickness", NULL,
                                  "give absorbing_width (nodes) or absorbing_thickness (a "
                                  "length), not both");
        /* rounded up, but a thickness that is a whole number of cells to round-off is that */
        double cells = cs_params_real(p, "absorbing_thickness") / c->h;
        c->absorb.width = (int)ceil(cells * (1 - 1e-9));
        if (c->absorb.width < 1) c->absorb.width = 1;
    }
    c->absorb.sponge_edge = cs_params_real(p, "sponge_edge_factor");
    c->absorb.pml_r = cs_params_real(p, "pml_reflection");
    c->absorb.pml_f0 = 0.5 * c->fmax;
    return 0;
}

/* The source: its kind, geometry and node. */
static int config_source(const cs_params *p, sgt_config *c, cs_error *err) {
    c->srf = !strcmp(cs_params_string(p, "source"), "srf");
    c->source_kind = strcmp(cs_params_string(p, "source"), "moment") && !c->srf ? SGT_SOURCE_FORCE
                                                                                : SGT_SOURCE_MOMENT;
    if (c->srf) {
        if (need(p, "srf_file", "with source = srf", err)) return err->status;
        cs_copy(c->srf_file, sizeof c->srf_file, cs_params_string(p, "srf_file"));
    }
    if (c->mode == SGT_MODE_SGT && c->source_kind != SGT_SOURCE_FORCE)
        return cs_error_input(err, cs_params_where(p, "source"), "source", "moment",
                              "an SGT run takes a force (moment sources are for forward runs)");
    c->plane_source = !strcmp(cs_params_string(p, "source_geometry"), "plane");
    if (c->plane_source && c->source_kind != SGT_SOURCE_FORCE)
        return cs_error_input(err, cs_params_where(p, "source_geometry"), "source_geometry",
                              "plane", "only forces can be plane sources");
    c->src[0] = c->src[1] = c->src[2] = -1;
    if (cs_params_has(p, "source_i") || cs_params_has(p, "source_j") ||
        cs_params_has(p, "source_k")) {
        if (need(p, "source_i", "with source_j and source_k", err) ||
            need(p, "source_j", "with source_i and source_k", err) ||
            need(p, "source_k", "with source_i and source_j", err))
            return err->status;
        c->src[0] = (int)cs_params_int(p, "source_i");
        c->src[1] = (int)cs_params_int(p, "source_j");
        c->src[2] = (int)cs_params_int(p, "source_k");
    }
    return 0;
}

/* Reads `n` numbers from a key. */
static int key_numbers(const cs_params *p, const char *key, double *v, int n, cs_error *err) {
    char buf[1024];
    cs_copy(buf, sizeof buf, cs_params_string(p, key));
    if (cs_parse_numbers(buf, v, n) != n)
        return cs_error_input(err, cs_params_where(p, key), key, cs_params_string(p, key),
                              "must be %d numbers", n);
    return 0;
}

/* The plan's box-frame vectors of the E, N, Z forces and its axes at the source. */
static int config_plan_box(const cs_params *p, sgt_config *c, cs_error *err) {
    static const char *fk[3] = {PLAN_KEY_FORCE_VECTOR_E, PLAN_KEY_FORCE_VECTOR_N,
                                PLAN_KEY_FORCE_VECTOR_Z};
    for (int k = 0; k < 3; k++) {
        c->have_plan_force[k] = cs_params_has(p, fk[k]);
        if (!c->have_plan_force[k]) continue;
        CS_CALL(err, key_numbers(p, fk[k], c->plan_force[k], 3, err));
        double *f = c->plan_force[k], norm = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        if (fabs(norm - 1) > 1e-9)
            return cs_error_input(err, cs_params_where(p, fk[k]), fk[k], cs_params_string(p, fk[k]),
                                  "must be a unit vector");
    }
    c->have_plan_axes = cs_params_has(p, PLAN_KEY_BOX_AXES_ENU);
    if (c->have_plan_axes)
        CS_CALL(err, key_numbers(p, PLAN_KEY_BOX_AXES_ENU, &c->plan_axes[0][0], 9, err));
    return 0;
}

/* A force's direction and impulse, or a moment tensor's components; the time function. */
static int config_source_strength(const cs_params *p, sgt_config *c, cs_error *err) {
    c->impulse = cs_params_real(p, "impulse");
    if (c->source_kind == SGT_SOURCE_FORCE) {
        if (cs_params_has(p, "force_vector")) {
            char buf[256];
            cs_copy(buf, sizeof buf, cs_params_string(p, "force_vector"));
            char *save = NULL;
            int n = 0;
            for (char *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
                if (n == 3 || cs_parse_double(t, &c->force[n])) {
                    n = -1;
                    break;
                }
                n++;
            }
            double norm = sqrt(c->force[0] * c->force[0] + c->force[1] * c->force[1] +
                               c->force[2] * c->force[2]);
            if (n != 3 || !(norm > 0))
                return cs_error_input(err, cs_params_where(p, "force_vector"), "force_vector",
                                      cs_params_string(p, "force_vector"),
                                      "must be three numbers, not all zero");
            for (int k = 0; k < 3; k++)
                c->force[k] /= norm;
            cs_copy(c->force_component, sizeof c->force_component, "vector");
        } else {
            if (need(p, "force_component", "for a force source (or force_vector)", err))
                return err->status;
            cs_copy(c->force_component, sizeof c->force_component,
                    cs_params_string(p, "force_component"));
            const char *fc = c->force_component;
            if (!strcmp(fc, "x")) c->force[0] = 1;
            if (!strcmp(fc, "y")) c->force[1] = 1;
            if (!strcmp(fc, "z")) c->force[2] = 1;
            /* E, N, Z: the plan's box vector where it gave one (the command line checks it
             * where there is geodesy, and resolves the direction where there is none). */
            const char *enz = strchr("ENZ", fc[0]);
            CS_CALL(err, config_plan_box(p, c, err));
            if (fc[0] && enz && c->have_plan_force[enz - "ENZ"])
                memcpy(c->force, c->plan_force[enz - "ENZ"], sizeof c->force);
        }
    } else {
        static const char *mk[6] = {"moment_xx", "moment_yy", "moment_zz",
                                    "moment_xy", "moment_xz", "moment_yz"};
        int any = 0;
        for (int k = 0; k < 6; k++)
            any |= cs_params_has(p, mk[k]);
        int sdr = cs_params_has(p, "strike") || cs_params_has(p, "dip") ||
                  cs_params_has(p, "rake") || cs_params_has(p, "m0");
        if (any && sdr)
            return cs_error_input(err, "parameters", "moment", NULL,
                                  "give either the six moment_* components or strike/dip/rake/m0");
        if (any) {
            for (int k = 0; k < 6; k++) {
                if (need(p, mk[k], "with the other moment components", err)) return err->status;
                c->moment[k] = cs_params_real(p, mk[k]);
            }
        } else if (!sdr && !c->srf) {
            return cs_error_input(
                err, "parameters", "moment", NULL,
                "a moment source needs moment_xx..moment_yz or strike, dip, rake, m0");
        }
        /* strike/dip/rake are resolved by the command line (they need the box rotation). */
    }
    c->stf_from_file = !strcmp(cs_params_string(p, "stf"), "file");
    if (c->stf_from_file) {
        if (need(p, "stf_file", "with stf = file", err)) return err->status;
        cs_copy(c->stf_file, sizeof c->stf_file, cs_params_string(p, "stf_file"));
    }
    c->stf_time_shift = cs_params_real(p, "stf_time_shift");
    return 0;
}

/* What is written, where, and the run's checkpoints and ranks. */
static int config_outputs(const cs_params *p, sgt_config *c, cs_error *err) {
    c->decimation = (int)cs_params_int(p, "decimation");
    c->strain_buffer_mb = (int)cs_params_int(p, "strain_buffer_mb");
    if (need(p, "output", "(the HDF5 file to write)", err)) return err->status;
    cs_copy(c->output, sizeof c->output, cs_params_string(p, "output"));
    c->ranks_x = (int)cs_params_int(p, "ranks_x");
    c->ranks_y = (int)cs_params_int(p, "ranks_y");
    c->checkpoint_every = (int)cs_params_int(p, "checkpoint_every");
    c->restart = cs_params_bool(p, "restart");
    if (cs_params_has(p, "checkpoint_dir"))
        cs_copy(c->checkpoint_dir, sizeof c->checkpoint_dir, cs_params_string(p, "checkpoint_dir"));
    else if (snprintf(c->checkpoint_dir, sizeof c->checkpoint_dir, "%s.ckpt", c->output) >=
             (int)sizeof c->checkpoint_dir)
        return cs_error_input(err, "parameters", "output", NULL, "path too long");
    if (c->mode == SGT_MODE_SGT) {
        if (cs_params_has(p, "save_points"))
            cs_copy(c->save_points, sizeof c->save_points, cs_params_string(p, "save_points"));
        else if (!cs_params_has(p, "save_points_geographic"))
            return cs_error_input(err, "parameters", "save_points", NULL,
                                  "required in sgt mode (or save_points_geographic)");
    } else {
        if (need(p, "receivers", "in forward mode", err)) return err->status;
        cs_copy(c->receivers, sizeof c->receivers, cs_params_string(p, "receivers"));
    }
    return 0;
}

int sgt_config_from_params(const cs_params *p, sgt_config *c, cs_error *err) {
    memset(c, 0, sizeof *c);
    CS_CALL(err, config_basics(p, c, err));
    CS_CALL(err, config_frame(p, c, err));
    CS_CALL(err, config_model(p, c, err));
    CS_CALL(err, config_boundaries(p, c, err));
    CS_CALL(err, config_source(p, c, err));
    CS_CALL(err, config_source_strength(p, c, err));
    CS_CALL(err, config_outputs(p, c, err));
    return 0;
}

void sgt_config_free(sgt_config *c) {
    free(c->point_lines);
    free(c->point_geo);
    free(c->pts);
    free(c->recs);
    free(c->rec_lines);
    free(c->msrc_node);
    free(c->msrc_m);
    free(c->msrc_rate);
    c->point_lines = c->rec_lines = c->pts = c->recs = c->msrc_node = NULL;
    c->point_geo = c->msrc_m = NULL;
    c->msrc_rate = NULL;
    c->nmsrc = 0;
}
