#include "wf_config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "gmpe.h"
#include "hazard_db.h"
#include "im_band.h"

#define R(key, dim, def, lo, hi, help)                                                             \
    { key, CS_PT_REAL, dim, 0, def, NULL, lo, hi, help }
#define I(key, def, lo, hi, help)                                                                  \
    { key, CS_PT_INT, CS_DIM_NONE, 0, def, NULL, lo, hi, help }
#define S(key, req, def, help)                                                                     \
    { key, CS_PT_STRING, CS_DIM_NONE, req, def, NULL, 1, 0, help }
#define C(key, def, choices, help)                                                                 \
    { key, CS_PT_CHOICE, CS_DIM_NONE, 0, def, choices, 1, 0, help }

const cs_param_spec wf_config_specs[] = {
    S("erf", 1, NULL, "forecast name in the study (cybershake erf build / import)"),
    /* plan */
    {"fmax", CS_PT_REAL, CS_DIM_FREQUENCY, 1, NULL, NULL, 1e-3, 100,
     "maximum frequency of the SGTs"},
    C("model_format", "fk1d", "homogeneous|fk1d|depth-table|ucvm1d|hdf5|awp",
      "velocity model format"),
    S("model_file", 1, NULL, "velocity model: a path or a URL (file, http, https)"),
    S("model_sha256", 0, NULL, "SHA-256 the staged model must have (required for a URL)"),
    R("vs_min", CS_DIM_VELOCITY, "500 m/s", 1, 1e5, "Vs floor of the mesh"),
    I("ppw", "5", 2, 100, "grid points per minimum wavelength"),
    R("cutoff", CS_DIM_LENGTH, "200 km", 1, 2e6, "ruptures within this distance of the site"),
    R("padding", CS_DIM_LENGTH, "30 km", 0, 1e6, "box padding beyond the site and the ruptures"),
    R("round", CS_DIM_LENGTH, "10 km", 1, 1e6, "box sides rounded up to this"),
    R("rotation", CS_DIM_ANGLE, "-55 deg", -360, 360, "box rotation"),
    I("absorbing_width", "20", 1, 1000, "absorbing boundary width in nodes"),
    R("mesh_near", CS_DIM_LENGTH, "20 km", 0, 1e6, "adaptive save-point mesh radius"),
    I("mesh_max_stride", "8", 1, 1000, "coarsest stride of the adaptive mesh"),
    /* mesh */
    C("material_sampling", "auto", "auto|effective|bandlimited|point",
      "how the model becomes grid material (docs/sgt.md, \"Material on the grid\"): auto, "
      "the band-limited kernel for elastic runs of 1D models whose contrasts allow it, cell "
      "averages otherwise (every attenuating run); effective, cell averages; bandlimited, a sinc "
      "kernel in depth for 1D models; "
      "point, the older rule"),
    /* sgt */
    C("backend", "auto", "auto|cpu|cuda",
      "SGT back end; auto: cuda where this build has it and the node has a GPU"),
    C("forces", "auto", "auto|EN|ENZ",
      "SGT forces: EN (horizontal motion only, as CyberShake runs), ENZ, or auto: ENZ only when "
      "a hazard IM is vertical (component Z)"),
    S("sgt_program", 0, NULL,
      "the program the mesh and SGT steps run (e.g. an SGT-only build: build/sgt-only/bin/"
      "cybershake); default: this one"),
    S("gpus", 0, NULL, "GPUs for the SGT runs (CUDA_VISIBLE_DEVICES), e.g. '0,1'"),
    I("ranks_x", "1", 1, 4096, "MPI ranks of each SGT run along x"),
    I("ranks_y", "1", 1, 4096, "MPI ranks of each SGT run along y"),
    I("checkpoint_every", "500", 0, 1 << 30, "SGT checkpoint interval in steps (0: none)"),
    /* extract */
    I("extract_ranks", "1", 1, 1 << 20, "MPI ranks of the extraction"),
    C("extract_backend", "auto", "auto|cpu|cuda",
      "extraction back end; auto: cuda where this build has it and the node has a GPU (ranks "
      "after the first take the node's GPUs; with one rank, it does)"),
    R("extract_max_memory", CS_DIM_BYTES, "4 GB", 1e7, 1e15,
      "memory limit of each extraction rank (cybershake extract --max-memory)"),
    S("periods", 0, "3,5,10", "SA periods in s, comma-separated"),
    I("seed", "1", 0, 2147483647, "rupture generator seed"),
    R("hypo_spacing", CS_DIM_LENGTH, "20 km", 100, 1e6, "hypocentre spacing of the variations"),
    I("slips", "2", 1, 1000, "slip realisations per hypocentre"),
    /* hazard */
    S("hazard_ims", 0, "RotD50 3;RotD50 5;RotD50 10", "hazard curves, ';'-separated"),
    S("poes", 0, "2% in 50 yr;10% in 50 yr", "disaggregation probabilities, ';'-separated"),
    I("disagg_top", "5", 1, 1000, "ruptures listed by each disaggregation"),
    S("gmpe", 0, NULL,
      "GMPE curves beside the simulated ones (bssa14,sadigh97,cy14,i14,cb14,ask14; up to 5)"),
    S("gmpe_weights", 0, NULL,
      "weights of the gmpe models, in their order, comma-separated, summing to 1: adds their "
      "weighted mean curve (the NSHM 2014/2018 western-US weights for ask14,bssa14,cb14,cy14,i14: "
      "0.22,0.22,0.22,0.22,0.12)"),
    /* execution */
    C("executor", "local", "local|slurm", "where steps run"),
    S("mpirun", 0, "mpirun", "MPI launcher; 'none' runs one rank without it"),
    S("mpirun_args", 0, NULL, "extra launcher arguments, split at spaces (--oversubscribe)"),
    I("retries", "2", 0, 100, "times a failing step is run again before it is marked failed"),
    R("retry_delay", CS_DIM_TIME, "2 s", 0, 3600, "first pause before a retry (doubles each time)"),
    S("work_dir", 0, NULL, "folder of the run's files (default: runs/ next to the study)"),
    S("slurm_partition", 0, NULL, "Slurm partition (letters, digits, . _ - and , only)"),
    S("slurm_account", 0, NULL, "Slurm account (letters, digits and . _ - only)"),
    S("slurm_time", 0, "04:00:00",
      "Slurm time limit of each step ([D-]HH:MM:SS, MM:SS, minutes or UNLIMITED)"),
    R("poll_interval", CS_DIM_TIME, "5 s", 0.1, 3600, "how often Slurm job states are read"),
    /* staging */
    S("push_url", 0, NULL, "base URL the products are PUT to (http, https, file)"),
};
const size_t wf_config_nspecs = sizeof wf_config_specs / sizeof wf_config_specs[0];

static int split(const char *text, char out[][64], int *n, const char *key, cs_error *err) {
    *n = 0;
    char buf[2048];
    if (cs_copy(buf, sizeof buf, text))
        return cs_error_input(err, key, NULL, text, "is longer than %zu characters", sizeof buf);
    char *save = NULL;
    for (char *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        t = cs_trim(t);
        if (!*t) continue;
        if (*n == WF_MAX_LIST)
            return cs_error_input(err, key, NULL, text, "has more than %d entries", WF_MAX_LIST);
        if (cs_copy(out[*n], 64, t))
            return cs_error_input(err, key, NULL, t, "entries are at most 63 characters");
        /* a repeated entry would make the same curve or disaggregation twice */
        for (int k = 0; k < *n; k++)
            if (!strcmp(out[k], out[*n]))
                return cs_error_input(err, key, NULL, t, "is listed twice");
        (*n)++;
    }
    return 0;
}

/* The value as a message shows it: control characters as \n, \t or \xNN. */
static void visible(const char *v, char *out, size_t size) {
    size_t n = 0;
    for (const unsigned char *q = (const unsigned char *)v; *q && n + 5 < size; q++) {
        if (*q == '\n')
            n += (size_t)snprintf(out + n, size - n, "\\n");
        else if (*q == '\t')
            n += (size_t)snprintf(out + n, size - n, "\\t");
        else if (*q < 0x20 || *q == 0x7f)
            n += (size_t)snprintf(out + n, size - n, "\\x%02x", *q);
        else
            out[n++] = (char)*q;
    }
    out[n] = 0;
}

static int only(const char *v, const char *extra) {
    for (const char *q = v; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
              strchr(extra, *q)))
            return 0;
    return 1;
}

int wf_config_check_value(const char *place, const char *key, const char *value, cs_error *err) {
    char shown[512];
    for (const unsigned char *q = (const unsigned char *)value; *q; q++)
        if (*q < 0x20 || *q == 0x7f) {
            visible(value, shown, sizeof shown);
            return cs_error_input(err, place, key, shown,
                                  "may not hold control characters (a newline above all: it "
                                  "would end a #SBATCH line or a command of a batch script and "
                                  "start another)");
        }
    const char *rule = NULL;
    if (!strcmp(key, "slurm_account") && !only(value, "._-"))
        rule = "may hold letters, digits and . _ - only (it becomes the #SBATCH --account line of "
               "the batch scripts)";
    else if (!strcmp(key, "slurm_partition") && !only(value, "._-,"))
        rule = "may hold letters, digits and . _ - , only (it becomes the #SBATCH --partition line "
               "of the batch scripts)";
    else if (!strcmp(key, "slurm_time") && strcmp(value, "UNLIMITED") &&
             strcmp(value, "INFINITE") &&
             (!*value || strspn(value, "0123456789:-") != strlen(value)))
        rule = "must be a Slurm time limit: digits, ':' and '-' ([D-]HH:MM:SS, MM:SS, minutes) "
               "or UNLIMITED (it becomes the #SBATCH --time line of the batch scripts)";
    if (rule) {
        visible(value, shown, sizeof shown);
        return cs_error_input(err, place, key, shown, "%s", rule);
    }
    return 0;
}

/* c->gmpe from `gmpe` and `gmpe_weights` (one weight a model, in order), checked as --gmpe
 * checks it (gmpe_set_parse: known models, at most five, weights summing to 1). */
static int gmpe_list(wf_config *c, cs_error *err) {
    c->gmpe[0] = 0;
    const int weighted = wf_cfg_given(c, "gmpe_weights");
    if (!wf_cfg_given(c, "gmpe")) {
        if (weighted)
            return cs_error_input(err, cs_params_where(c->p, "gmpe_weights"), "gmpe_weights",
                                  wf_cfg_str(c, "gmpe_weights"),
                                  "weighs the models of gmpe, which is not given");
        return 0;
    }
    const char *where = cs_params_where(c->p, weighted ? "gmpe_weights" : "gmpe");
    char models[512], weights[512];
    cs_copy(models, sizeof models, wf_cfg_str(c, "gmpe"));
    cs_copy(weights, sizeof weights, wf_cfg_str(c, "gmpe_weights"));
    if (strchr(models, ':'))
        return cs_error_input(err, cs_params_where(c->p, "gmpe"), "gmpe", models,
                              "names the models only; their weights go in gmpe_weights");
    size_t len = 0;
    int nm = 0, nw = 0;
    char *sw = NULL, *w = weighted ? strtok_r(weights, ",", &sw) : NULL;
    for (char *sm = NULL, *m = strtok_r(models, ",", &sm); m; m = strtok_r(NULL, ",", &sm), nm++) {
        int k = snprintf(c->gmpe + len, sizeof c->gmpe - len, "%s%s%s%s", nm ? "," : "", cs_trim(m),
                         w ? ":" : "", w ? cs_trim(w) : "");
        if (k < 0 || (size_t)k >= sizeof c->gmpe - len)
            return cs_error_input(err, where, "gmpe", wf_cfg_str(c, "gmpe"), "is too long");
        len += (size_t)k;
        if (w) nw++, w = strtok_r(NULL, ",", &sw);
    }
    if (weighted && (nw != nm || w))
        return cs_error_input(err, where, "gmpe_weights", wf_cfg_str(c, "gmpe_weights"),
                              "needs one weight for each of the %d models of gmpe (%s)", nm,
                              wf_cfg_str(c, "gmpe"));
    gmpe_set set;
    return gmpe_set_parse(c->gmpe, weighted ? "gmpe, gmpe_weights" : "gmpe", &set, err);
}

/* What a run is asked for must be within its band (formats/im_band.h): an SA period or a
 * hazard IM outside it is refused here, before anything runs, naming it, the band and the
 * rule. */
static int check_band(const wf_config *c, cs_error *err) {
    const double fmax = wf_cfg_real(c, "fmax");
    char why[512];
    for (int i = 0; i < c->nims; i++) {
        hazard_im im;
        CS_CALL(err, hazard_im_parse(c->ims[i], &im, err));
        if (!im_band_valid(im.measure, im.period, fmax, why, sizeof why))
            return cs_error_input(err, cs_params_where(c->p, "hazard_ims"), "hazard_ims", c->ims[i],
                                  "is outside the band of the run (fmax %g Hz): %s; no hazard is "
                                  "computed from it (docs/extract.md, \"The band\")",
                                  fmax, why);
    }
    char list[1024];
    cs_copy(list, sizeof list, wf_cfg_str(c, "periods"));
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        double p;
        if (cs_parse_double(cs_trim(t), &p) == 0 && !im_band_valid("SA", p, fmax, why, sizeof why))
            return cs_error_input(err, cs_params_where(c->p, "periods"), "periods", cs_trim(t),
                                  "SA at %g s is outside the band of the run (fmax %g Hz): %s "
                                  "(docs/extract.md, \"The band\")",
                                  p, fmax, why);
    }
    return 0;
}

static int read_config(const char *path, char *const *sets, int nsets, wf_config *c,
                       cs_error *err) {
    CS_CALL(err, path ? cs_params_read(path, wf_config_specs, wf_config_nspecs, &c->p, err)
                      : cs_params_parse("(no --config)", "", wf_config_specs, wf_config_nspecs,
                                        &c->p, err));
    if (path) cs_copy(c->path, sizeof c->path, path);
    for (int i = 0; i < nsets; i++) {
        char kv[1024];
        cs_copy(kv, sizeof kv, sets[i]);
        char *eq = strchr(kv, '=');
        if (!eq) return cs_error_input(err, "--set", NULL, sets[i], "expects KEY=VALUE");
        *eq = 0;
        CS_CALL(err, cs_params_set(c->p, cs_trim(kv), cs_trim(eq + 1), "command line", err));
    }
    /* A relative model path is relative to the configuration file, so a config travels with
     * its inputs. */
    const char *model = wf_cfg_str(c, "model_file");
    if (path && *model && *model != '/' && !wf_is_url(model) &&
        strcmp(cs_params_where(c->p, "model_file"), "command line")) {
        char dir[4096], joined[8192], abs[PATH_MAX];
        cs_copy(dir, sizeof dir, path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            cs_copy(dir, sizeof dir, ".");
        snprintf(joined, sizeof joined, "%s/%s", dir, model);
        CS_CALL(err, cs_params_set(c->p, "model_file", realpath(joined, abs) ? abs : joined,
                                   cs_params_where(c->p, "model_file"), err));
    }
    /* Values go into commands and batch scripts: each is checked here, before anything runs */
    for (size_t i = 0; i < wf_config_nspecs; i++) {
        const char *k = wf_config_specs[i].key;
        if (cs_params_has(c->p, k) &&
            (wf_config_specs[i].type == CS_PT_STRING || wf_config_specs[i].type == CS_PT_CHOICE))
            CS_CALL(err, wf_config_check_value(cs_params_where(c->p, k), k, wf_cfg_str(c, k), err));
    }
    if (wf_is_url(wf_cfg_str(c, "model_file")) && !wf_cfg_given(c, "model_sha256"))
        return cs_error_input(err, cs_params_where(c->p, "model_file"), "model_file",
                              wf_cfg_str(c, "model_file"),
                              "a URL needs the SHA-256 it must have (model_sha256)");
    CS_CALL(err, split(wf_cfg_str(c, "hazard_ims"), c->ims, &c->nims, "hazard_ims", err));
    CS_CALL(err, split(wf_cfg_str(c, "poes"), c->poes, &c->npoes, "poes", err));
    CS_CALL(err, check_band(c, err));
    CS_CALL(err, gmpe_list(c, err));
    /* The checksum covers what the steps compute from: every key but how they are executed, so
     * a run moved from the local machine to Slurm (or given more retries) is the same run. */
    static const char *exec_keys[] = {
        "executor",   "mpirun",        "retries", "retry_delay", "slurm_partition", "slurm_account",
        "slurm_time", "poll_interval", "gpus",    "push_url",    "mpirun_args"};
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (size_t i = 0; i < wf_config_nspecs; i++) {
        const char *k = wf_config_specs[i].key;
        int skip = 0;
        for (size_t j = 0; j < sizeof exec_keys / sizeof *exec_keys; j++)
            skip |= !strcmp(k, exec_keys[j]);
        /* a key added later counts only when given: older configurations keep their checksum */
        if (skip || (!strcmp(k, "gmpe_weights") && !wf_cfg_given(c, k))) continue;
        if (wf_config_specs[i].type == CS_PT_REAL)
            fprintf(m, "%s=%.17g\n", k, cs_params_has(c->p, k) ? cs_params_real(c->p, k) : 0.0);
        else if (wf_config_specs[i].type == CS_PT_INT)
            fprintf(m, "%s=%ld\n", k, cs_params_has(c->p, k) ? cs_params_int(c->p, k) : 0L);
        else
            fprintf(m, "%s=%s\n", k, wf_cfg_str(c, k));
    }
    fclose(m);
    int rc = cs_sha256_bytes(text, len, c->sha256, err);
    free(text);
    return rc;
}

int wf_config_read(const char *path, char *const *sets, int nsets, wf_config *c, cs_error *err) {
    memset(c, 0, sizeof *c);
    int rc = read_config(path, sets, nsets, c, err);
    if (rc) { /* a value refused after the file was read: nothing is kept */
        CS_TRACE(err);
        wf_config_free(c);
    }
    return rc;
}

void wf_config_free(wf_config *c) {
    cs_params_free(c->p);
    c->p = NULL;
}

const char *wf_cfg_str(const wf_config *c, const char *key) {
    if (!cs_params_has(c->p, key)) return "";
    const char *s = cs_params_string(c->p, key);
    return s ? s : "";
}
double wf_cfg_real(const wf_config *c, const char *key) {
    return cs_params_real(c->p, key);
}
long wf_cfg_int(const wf_config *c, const char *key) {
    return cs_params_int(c->p, key);
}
int wf_cfg_given(const wf_config *c, const char *key) {
    return cs_params_given(c->p, key);
}

int wf_is_url(const char *s) {
    return cs_starts_with(s, "file://") || cs_starts_with(s, "http://") ||
           cs_starts_with(s, "https://");
}

const char *wf_cfg_forces(const wf_config *c) {
    const char *f = wf_cfg_str(c, "forces");
    if (strcmp(f, "auto")) return f;
    for (int i = 0; i < c->nims; i++) {
        const char *z = strrchr(c->ims[i], ' ');
        if (!strcmp(z ? z + 1 : c->ims[i], "Z")) return "ENZ";
    }
    return "EN";
}
