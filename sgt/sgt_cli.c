/* `cybershake sgt PARAMS` and `cybershake mesh PARAMS MATERIAL.h5`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_cli.h"
#include "sgt_cli.h"
#include "cs_geo.h"
#include "cs_log.h"
#include "cs_mpi_main.h"
#include "cs_opt.h"
#include "cs_strutil.h"
#include "moment_tensor.h"
#include "sgt_config.h"
#include "sgt_mesh.h"
#include "sgt_points.h"
#include "sgt_run.h"
#include "sgt_source.h"
#include "srf.h"

/* The --set KEY=VALUE overrides, in their order. */
typedef struct {
    const char *v[64];
    int n;
} set_list;

static int add_set(const char *arg, void *target, cs_error *err) {
    set_list *l = target;
    if (l->n == (int)(sizeof l->v / sizeof *l->v))
        return cs_error_set(err, CS_ERR_USAGE,
                            "--set may be given at most %d times; '%s' is one too many", l->n, arg);
    l->v[l->n++] = arg;
    return 0;
}

/* Reads PARAMS and applies --set KEY=VALUE overrides; --keys lists the keys instead. */
static int read_params(int argc, char **argv, const char *usage, int npos, char **pos,
                       cs_params **out, int *exit_code) {
    *out = NULL;
    set_list sets = {.n = 0};
    int keys = 0;
    const cs_opt opts[] = {CS_OPT_FN("set", &sets, add_set), CS_OPT_SET("keys", &keys)};
    int first, n;
    /* the count is checked below: --keys alone takes no PARAMS */
    *exit_code = cs_opt_parse(argv[0], argc, argv, opts, 2, 0, -1, NULL, &first, &n);
    if (*exit_code) return 1;
    if (keys) {
        cs_params_describe(sgt_param_specs, (size_t)sgt_param_nspecs, stdout);
        return 1; /* *exit_code 0: done */
    }
    if (n != npos) {
        *exit_code = cs_cli_usage(argv[0], "%s", usage);
        return 1;
    }
    for (int i = 0; i < npos; i++)
        pos[i] = argv[first + i];
    cs_error err;
    cs_error_clear(&err);
    if (cs_params_read(pos[0], sgt_param_specs, (size_t)sgt_param_nspecs, out, &err)) {
        *exit_code = cs_cli_fail(argv[0], &err);
        return 1;
    }
    for (int i = 0; i < sets.n; i++) {
        char kv[1024];
        cs_copy(kv, sizeof kv, sets.v[i]);
        char *eq = strchr(kv, '=');
        if (!eq) {
            *exit_code = cs_cli_usage(argv[0], "--set needs KEY=VALUE, got '%s'", sets.v[i]);
            cs_params_free(*out);
            return 1;
        }
        *eq = '\0';
        if (cs_params_set(*out, cs_trim(kv), cs_trim(eq + 1), "--set", &err)) {
            *exit_code = cs_cli_fail(argv[0], &err);
            cs_params_free(*out);
            return 1;
        }
    }
    return 0;
}

/* Reads "lon lat depth_m" points and snaps them to nodes (full builds only). */
#ifdef CS_HAVE_PROJ
static int snap(const sgt_config *c, const cs_geo_frame *f, double lon, double lat, double depth,
                int node[3], double *miss, cs_error *err) {
    double x, y;
    int rc = cs_geo_to_local(f, lon, lat, &x, &y, err);
    if (rc) return rc;
    double fi = (x - c->x0) / c->h, fj = (y - c->y0) / c->h, fk = depth / c->h;
    node[0] = (int)lround(fi);
    node[1] = (int)lround(fj);
    node[2] = (int)lround(fk);
    *miss = c->h * sqrt((fi - node[0]) * (fi - node[0]) + (fj - node[1]) * (fj - node[1]) +
                        (fk - node[2]) * (fk - node[2]));
    return 0;
}

static int read_geo_points(sgt_config *c, const cs_geo_frame *f, const char *path, cs_error *err) {
    double *geo = NULL;
    int *lines = NULL;
    long n = 0;
    int rc = sgt_points_read(path, SGT_POINTS_GEOGRAPHIC, &geo, &lines, &n, err);
    if (rc) return rc;
    int *pts = malloc((size_t)n * 3 * sizeof(int));
    if (!pts) rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (long q = 0; !rc && q < n; q++) {
        double miss;
        rc = snap(c, f, geo[3 * q], geo[3 * q + 1], geo[3 * q + 2], pts + 3 * q, &miss, err);
        if (rc) cs_error_prefix(err, "%s:%d: ", path, lines[q]);
    }
    if (rc) {
        free(geo);
        free(lines);
        free(pts);
        return rc;
    }
    cs_copy(c->point_file, sizeof c->point_file, path);
    c->pts = pts;
    c->point_lines = lines;
    c->point_geo = geo;
    c->npoints = n;
    return 0;
}
#endif

/* source = srf: every subfault (and its SLIP2 part, at rake + 90) a point moment tensor at its
 * nearest node, with its potency rate A sdot(t_{n+1/2} - tinit) (m^3/s), the slip rate linear
 * between samples. Nodes must lie inside the grid and outside the absorbing layer. */
#ifdef CS_HAVE_PROJ
static int read_srf_source(sgt_config *c, const cs_geo_frame *f, cs_error *err) {
    srf_file srf;
    CS_CALL(err, srf_read(c->srf_file, &srf, err));
    long n = 0;
    for (long i = 0; i < srf.npoints; i++)
        n += (srf.points[i].nt[0] > 0) + (srf.points[i].nt[1] > 0);
    c->msrc_node = malloc(sizeof(int) * 3 * (size_t)(n ? n : 1));
    c->msrc_m = malloc(sizeof(double) * 6 * (size_t)(n ? n : 1));
    c->msrc_rate = calloc((size_t)(n ? n : 1) * (size_t)c->nt, sizeof(float));
    int rc = 0, w = c->absorb.width;
    if (!c->msrc_node || !c->msrc_m || !c->msrc_rate) {
        rc = cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    for (long i = 0; i < srf.npoints; i++) {
        const srf_point *q = &srf.points[i];
        if (q->nt[2] > 0 && q->slip[2] != 0) {
            rc = cs_error_input(err, c->srf_file, "SLIP3", NULL,
                                "point %ld opens (tensile slip); forward runs take shear slip",
                                i + 1);
            goto done;
        }
        int node[3];
        double miss, axes[3][3];
        CS_CALL_GOTO(rc, err, snap(c, f, q->lon, q->lat, q->dep * 1e3, node, &miss, err), done);
        if (node[0] < w || node[0] >= c->nx - w || node[1] < w || node[1] >= c->ny - w ||
            node[2] < 0 || node[2] >= c->nz - w) {
            rc = cs_error_input(err, c->srf_file, "point", NULL,
                                "subfault %ld (%.5f, %.5f, %.3f km) falls at node (%d, %d, %d), "
                                "outside the grid's interior (absorbing layer %d nodes): enlarge "
                                "the box",
                                i + 1, q->lon, q->lat, q->dep, node[0], node[1], node[2], w);
            goto done;
        }
        CS_CALL_GOTO(rc, err, cs_geo_box_axes_enu(f, q->lon, q->lat, axes, err), done);
        for (int comp = 0; comp < 2; comp++) {
            if (q->nt[comp] <= 0) continue;
            double ned[6];
            mt_from_sdr(q->stk, q->dip, q->rake + 90.0 * comp, 1.0, ned);
            mt_ned_to_box(ned, axes, c->msrc_m + 6 * c->nmsrc);
            memcpy(c->msrc_node + 3 * c->nmsrc, node, sizeof node);
            float *rate = c->msrc_rate + (size_t)c->nmsrc * (size_t)c->nt;
            double area = q->area * 1e-4;
            for (int step = 0; step < c->nt; step++) {
                double x = ((step + 0.5) * c->dt - q->tinit) / q->dt;
                if (x <= -1 || x >= q->nt[comp]) continue;
                int j = (int)floor(x);
                double a = x - j, lo = j >= 0 ? q->sr[comp][j] : 0,
                       hi = j + 1 < q->nt[comp] ? q->sr[comp][j + 1] : 0;
                rate[step] = (float)(area * 0.01 * ((1 - a) * lo + a * hi));
            }
            c->nmsrc++;
        }
    }
    if (c->nmsrc == 0) {
        rc = cs_error_input(err, c->srf_file, "points", NULL, "no subfault slips");
        goto done;
    }
    memcpy(c->src, c->msrc_node, sizeof c->src);
done:
    srf_free(&srf);
    return rc;
}
#endif

#ifdef CS_HAVE_PROJ
/* A full build given both the plan's box-frame values and the geography they came from: they
 * must agree, or the file was edited, or planned with another geodesy. */
static int check_plan_box(const cs_params *p, const sgt_config *c, const int geo_src[3],
                          const double force[3], cs_error *err) {
    if (geo_src[0] >= 0 && memcmp(geo_src, c->src, 3 * sizeof(int)))
        return cs_error_input(err, cs_params_where(p, "source_i"), "source_i, source_j, source_k",
                              NULL,
                              "node (%d, %d, %d) disagrees with source_lon/source_lat, which give "
                              "(%d, %d, %d); rerun 'cybershake plan'",
                              c->src[0], c->src[1], c->src[2], geo_src[0], geo_src[1], geo_src[2]);
    for (int k = 0; k < 9 && c->have_plan_axes && c->have_axes; k++)
        if (fabs(c->plan_axes[k / 3][k % 3] - c->axes_enu[k / 3][k % 3]) > 1e-9)
            return cs_error_input(err, cs_params_where(p, "box_axes_enu"), "box_axes_enu", NULL,
                                  "disagrees with the axes the geodesy gives at the source (%.12g "
                                  "against %.12g); rerun 'cybershake plan'",
                                  c->plan_axes[k / 3][k % 3], c->axes_enu[k / 3][k % 3]);
    for (int k = 0; k < 3 && force; k++)
        if (fabs(force[k] - c->force[k]) > 1e-9)
            return cs_error_input(err, cs_params_where(p, "force_component"), "force_vector_",
                                  c->force_component,
                                  "the plan's box vector disagrees with the geodesy's (%.12g "
                                  "against %.12g); rerun 'cybershake plan'",
                                  c->force[k], force[k]);
    return 0;
}
#endif

/* Turns geographic inputs into box-frame ones. Where the plan also wrote the box-frame values
 * (source_i/j/k, force_vector_E/N/Z, box_axes_enu), those are used: a build without geodesy
 * needs nothing more, and a full build checks that they agree with the geography. */
static int resolve_geography(const cs_params *p, sgt_config *c, cs_error *err) {
    int geo_source = cs_params_has(p, "source_lon") || cs_params_has(p, "source_lat");
    int box_source = c->src[0] >= 0;
    int enz = c->source_kind == SGT_SOURCE_FORCE && !cs_params_has(p, "force_vector") &&
              (!strcmp(c->force_component, "E") || !strcmp(c->force_component, "N") ||
               !strcmp(c->force_component, "Z"));
    int plan_force = enz && c->have_plan_force[strchr("ENZ", c->force_component[0]) - "ENZ"];
    int sdr = c->source_kind == SGT_SOURCE_MOMENT && cs_params_has(p, "strike");
    int geo_points = cs_params_has(p, "save_points_geographic");
    if (!geo_source && !enz && !sdr && !geo_points && !c->srf) return 0;
#ifndef CS_HAVE_PROJ
    if ((!geo_source || box_source) && (!enz || plan_force) && !sdr && !geo_points && !c->srf) {
        if (enz && c->have_plan_axes) {
            memcpy(c->axes_enu, c->plan_axes, sizeof c->axes_enu);
            c->have_axes = 1;
        }
        return 0;
    }
    return cs_error_input(err, "parameters",
                          c->srf                      ? "source = srf"
                          : geo_source && !box_source ? "source_lon"
                          : enz && !plan_force        ? "force_component"
                          : sdr                       ? "strike"
                                                      : "save_points_geographic",
                          NULL,
                          "needs geodesy, which this SGT-only build lacks; give box-frame inputs "
                          "(source_i/j/k, force_vector or force_vector_E/N/Z, moment_*, "
                          "save_points) as 'cybershake plan' writes them");
#else
    if (!c->have_geo)
        return cs_error_input(err, "parameters", "origin_lon, origin_lat", NULL,
                              "required for geographic inputs (source_lon/lat, E/N/Z forces, "
                              "strike/dip/rake, save_points_geographic)");
    cs_geo_frame *f;
    CS_CALL(err, cs_geo_frame_create(c->origin_lon, c->origin_lat, c->rotation, &f, err));
    int rc = 0;
    int geo_src[3] = {-1, -1, -1};
    if (geo_source) {
        if (!cs_params_has(p, "source_lon") || !cs_params_has(p, "source_lat")) {
            rc = cs_error_input(err, "parameters", "source_lon, source_lat", NULL, "give both");
            goto done;
        }
        double miss;
        CS_CALL_GOTO(rc, err,
                     snap(c, f, cs_params_real(p, "source_lon"), cs_params_real(p, "source_lat"),
                          cs_params_real(p, "source_depth"), geo_src, &miss, err),
                     done);
        if (!box_source) {
            memcpy(c->src, geo_src, sizeof c->src);
            if (miss > 1e-3 * c->h)
                cs_info("source snapped to node (%d, %d, %d), %.1f m away", c->src[0], c->src[1],
                        c->src[2], miss);
        }
    }
    double lon = c->origin_lon, lat = c->origin_lat;
    if (c->src[0] >= 0)
        CS_CALL_GOTO(rc, err,
                     cs_geo_to_geographic(f, c->x0 + c->src[0] * c->h, c->y0 + c->src[1] * c->h,
                                          &lon, &lat, err),
                     done);
    if (enz || sdr) {
        c->have_axes = 1;
        CS_CALL_GOTO(rc, err, cs_geo_box_axes_enu(f, lon, lat, c->axes_enu, err), done);
    }
    double geo_force[3] = {0, 0, 0};
    if (enz) {
        double e[3] = {0, 0, 0};
        e[c->force_component[0] == 'E' ? 0 : c->force_component[0] == 'N' ? 1 : 2] = 1;
        mt_vector_enu_to_box(e, c->axes_enu, geo_force);
        if (!plan_force) memcpy(c->force, geo_force, sizeof c->force);
    }
    CS_CALL_GOTO(rc, err, check_plan_box(p, c, geo_src, plan_force ? geo_force : NULL, err), done);
    /* The plan's values are what a build without geodesy records: the same bytes either way. */
    if (enz && c->have_plan_axes) memcpy(c->axes_enu, c->plan_axes, sizeof c->axes_enu);
    if (sdr) {
        const char *k[4] = {"strike", "dip", "rake", "m0"};
        for (int i = 0; i < 4; i++)
            if (!cs_params_has(p, k[i])) {
                rc = cs_error_input(err, "parameters", k[i], NULL,
                                    "required with strike/dip/rake/m0");
                goto done;
            }
        double ned[6];
        mt_from_sdr(cs_params_real(p, "strike"), cs_params_real(p, "dip"),
                    cs_params_real(p, "rake"), cs_params_real(p, "m0"), ned);
        mt_ned_to_box(ned, c->axes_enu, c->moment);
    }
    if (geo_points)
        CS_CALL_GOTO(rc, err,
                     read_geo_points(c, f, cs_params_string(p, "save_points_geographic"), err),
                     done);
    if (c->srf) CS_CALL_GOTO(rc, err, read_srf_source(c, f, err), done);
done:
    cs_geo_frame_free(f);
    return rc;
#endif
}

static int sgt_command(int argc, char **argv, int rank);

/* The run's configuration from its parameters (where: the parameter file, for messages): the
 * geography resolved, the source and force checked, the save points or receivers read. Every
 * rank runs it; the caller agrees on the result before anything collective. */
static int prepare_run(const cs_params *p, const char *where, sgt_config *c, cs_error *err) {
    CS_CALL(err, sgt_config_from_params(p, c, err));
    CS_CALL(err, resolve_geography(p, c, err));
    if (c->src[0] < 0)
        return cs_error_input(err, where, "source", NULL,
                              "give source_i, source_j, source_k (or "
                              "source_lon, source_lat)");
    if (c->source_kind == SGT_SOURCE_FORCE && c->force[0] == 0 && c->force[1] == 0 &&
        c->force[2] == 0)
        return cs_error_input(err, where, "force_component", c->force_component,
                              "gives no direction");
    if (c->mode == SGT_MODE_SGT && c->save_points[0]) {
        cs_copy(c->point_file, sizeof c->point_file, c->save_points);
        CS_CALL(err,
                sgt_points_read_index(c->save_points, &c->pts, &c->point_lines, &c->npoints, err));
    }
    if (c->mode == SGT_MODE_FORWARD) {
        long n;
        int rc = sgt_points_read_index(c->receivers, &c->recs, &c->rec_lines, &n, err);
        c->nrec = (int)n;
        if (rc) CS_TRACE(err);
        return rc;
    }
    return 0;
}

/* Runs under mpirun as one rank of many, or alone (MPI as a singleton). Failures every rank
 * shares (a bad input) are reported once, by the lowest rank that has them. */
int cs_sgt_cli_main(int argc, char **argv) {
    return cs_mpi_main(argc, argv, sgt_command);
}

static int sgt_command(int argc, char **argv, int rank) {
    static const char usage[] = "usage: cybershake sgt PARAMS [--set KEY=VALUE]... | --keys";
    if (cs_cli_wants_help(argc, argv)) {
        printf(
            "%s\n\n"
            "Runs the wave solver on one parameter file: an SGT run (a point force at the site,\n"
            "strain saved at the save points) or a forward run (force or moment tensor,\n"
            "velocity recorded at receivers). --set overrides a key of the file; --keys lists\n"
            "every key with its unit and default. docs/sgt.md describes the keys and outputs.\n",
            usage);
        return 0;
    }
    cs_params *p;
    char *pos[1];
    int code;
    if (read_params(argc, argv, usage, 1, pos, &p, &code)) return code;
    cs_error err;
    cs_error_clear(&err);
    sgt_config c;
    int rc = prepare_run(p, pos[0], &c, &err);
    cs_params_free(p);
    sgt_run_result res;
    CS_CALL_GOTO(rc, &err, cs_mpi_agree(MPI_COMM_WORLD, rc, &err), done);
    CS_CALL_GOTO(rc, &err, sgt_run(&c, &res, &err), done);
done:
    sgt_config_free(&c);
    if (rc) {
        if (err.status != CS_ERR_PEER || rank == 0) cs_cli_fail(argv[0], &err);
        return cs_exit_code(err.status);
    }
    if (rank != 0) return 0;
    printf("%s: %d steps, %.2f s, %.3g G LUPS, %.3g MB, sha256 %s\n", c.output, res.steps,
           res.seconds, res.lups / 1e9, res.output_bytes / 1e6,
           res.output_sha[0] ? res.output_sha : "(none in this build)");
    return 0;
}

/* The velocity model the parameters name (where: their file, for messages), for a mesh. */
static int read_model(const cs_params *p, const char *where, const char *fmt, int nx, int ny,
                      int nz, sgt_model *m, cs_error *err) {
    if (!fmt) return cs_error_input(err, where, "model_format", NULL, "required to make a mesh");
    if (!strcmp(fmt, "homogeneous")) {
        if (!cs_params_has(p, "vp") || !cs_params_has(p, "vs") || !cs_params_has(p, "rho"))
            return cs_error_input(err, where, "vp, vs, rho", NULL,
                                  "required for a homogeneous model");
        CS_CALL(err,
                sgt_model_homogeneous(m, cs_params_real(p, "vp"), cs_params_real(p, "vs"),
                                      cs_params_real(p, "rho"),
                                      cs_params_has(p, "qp") ? cs_params_real(p, "qp") : NAN,
                                      cs_params_has(p, "qs") ? cs_params_real(p, "qs") : NAN, err));
        return 0;
    }
    if (!cs_params_has(p, "model_file"))
        return cs_error_input(err, where, "model_file", NULL, "required for model_format %s", fmt);
    CS_CALL(err, sgt_model_read(m, fmt, cs_params_string(p, "model_file"), nx, ny, nz, err));
    return 0;
}

int cs_mesh_cli_main(int argc, char **argv) {
    static const char usage[] = "usage: cybershake mesh PARAMS MATERIAL.h5 [--set KEY=VALUE]...";
    if (cs_cli_wants_help(argc, argv)) {
        printf("%s\n\n"
               "Samples the velocity model of PARAMS onto its grid, with the Vs, Vp, density and\n"
               "Vp/Vs floors and Q from Vs where the model has none, and writes the material file\n"
               "that the three force runs share (mesh_file = MATERIAL.h5 in their parameters).\n",
               usage);
        return 0;
    }
    cs_params *p;
    char *pos[2];
    int code;
    if (read_params(argc, argv, usage, 2, pos, &p, &code)) return code;
    cs_error err;
    cs_error_clear(&err);
    int rc = 0;
    /* a copy: the summary is printed after the parameters are freed */
    char fmt_buf[64] = "";
    if (cs_params_has(p, "model_format"))
        cs_copy(fmt_buf, sizeof fmt_buf, cs_params_string(p, "model_format"));
    const char *fmt = fmt_buf[0] ? fmt_buf : NULL;
    int nx = (int)cs_params_int(p, "nx"), ny = (int)cs_params_int(p, "ny"),
        nz = (int)cs_params_int(p, "nz");
    double h = cs_params_real(p, "h");
    sgt_mesh_rules r = {cs_params_real(p, "vs_min"), cs_params_real(p, "vp_min"),
                        cs_params_real(p, "rho_min"), cs_params_real(p, "vp_vs_min"), SGT_QSRC_AUTO,
                        cs_params_has(p, "x0") ? cs_params_real(p, "x0") : -0.5 * (nx - 1) * h,
                        cs_params_has(p, "y0") ? cs_params_real(p, "y0") : -0.5 * (ny - 1) * h, h,
                        sgt_mesh_sampling_parse(cs_params_string(p, "material_sampling")),
                        (int)cs_params_int(p, "material_subsamples"),
                        /* the step the force runs will take: auto keeps it stable */
                        cs_params_has(p, "dt") ? cs_params_real(p, "dt") : 0,
                        cs_params_bool(p, "attenuation")};
    const char *qs = cs_params_string(p, "q_source");
    r.q_source = !strcmp(qs, "vs")      ? SGT_QSRC_VS
                 : !strcmp(qs, "model") ? SGT_QSRC_MODEL
                                        : SGT_QSRC_AUTO;
    sgt_model m;
    memset(&m, 0, sizeof m);
    char sha[65] = "";
    sgt_mesh_stats st;
    CS_CALL_GOTO(rc, &err, read_model(p, pos[0], fmt, nx, ny, nz, &m, &err), done);
    CS_CALL_GOTO(rc, &err, sgt_mesh_write(pos[1], &m, &r, nx, ny, nz, sha, &st, &err), done);
done:
    cs_params_free(p);
    sgt_model_free(&m);
    if (rc) return cs_cli_fail(argv[0], &err);
    printf("%s: %d x %d x %d nodes from %s\n", pos[1], nx, ny, nz, fmt);
    printf("  vp max %.1f m/s at (%d, %d, %d); vs min %.1f m/s at (%d, %d, %d)\n", st.vp_max,
           st.vp_max_at[0], st.vp_max_at[1], st.vp_max_at[2], st.vs_min_seen, st.vs_min_at[0],
           st.vs_min_at[1], st.vs_min_at[2]);
    printf("  floors raised vs at %ld, vp at %ld, rho at %ld nodes; Q from Vs at %ld nodes\n",
           st.clamped_vs, st.clamped_vp, st.clamped_rho, st.q_from_vs);
    if (st.sampling[0]) printf("  %s\n", st.sampling);
    printf("  sha256 %s\n", sha[0] ? sha : "(none in this build)");
    return 0;
}
