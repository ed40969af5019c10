#include "wf_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_strutil.h"
#include "plan_keys.h"
#include "sgt_run.h"

typedef struct {
    char **v;
    int n, cap, failed;
} argv_buf;

static void add(argv_buf *a, const char *s) {
    if (a->failed) return;
    if (a->n + 2 > a->cap) {
        int cap = a->cap ? 2 * a->cap : 32;
        char **v = realloc(a->v, sizeof(char *) * (size_t)cap);
        if (!v) {
            a->failed = 1;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n] = cs_strdup(s);
    if (!a->v[a->n]) a->failed = 1;
    a->v[++a->n] = NULL;
}

static void addf(argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(argv_buf *a, const char *fmt, ...) {
    char buf[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    add(a, buf);
}

static void free_argv(char **v) {
    if (!v) return;
    for (char **s = v; *s; s++)
        free(*s);
    free(v);
}

/* The launcher in front of an MPI command: mpirun -np N [args], or nothing. */
static void mpi_prefix(argv_buf *a, const wf_config *c, int ranks) {
    const char *l = wf_cfg_str(c, "mpirun");
    if (!*l || !strcmp(l, "none")) return;
    add(a, l);
    add(a, "-np");
    addf(a, "%d", ranks);
    char extra[1024];
    cs_copy(extra, sizeof extra, wf_cfg_str(c, "mpirun_args"));
    char *save = NULL;
    for (char *t = strtok_r(extra, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        add(a, t);
}

/* The SGT back end the steps use here: `auto` is decided on the machine that builds the
 * commands (under Slurm, the node that runs the step). */
static const char *backend_here(const wf_config *c, const char *key) {
    const char *b = wf_cfg_str(c, key);
    if (strcmp(b, "auto")) return b;
    return sgt_backend_cuda() && access("/dev/nvidia0", F_OK) == 0 ? "cuda" : "cpu";
}

static wf_step *new_step(wf_plan *p, const char *name, int ranks) {
    wf_step *s = &p->steps[p->n++];
    memset(s, 0, sizeof *s);
    cs_copy(s->name, sizeof s->name, name);
    s->ranks = ranks;
    return s;
}

static void dep(wf_plan *p, wf_step *s, const char *name) {
    int i = wf_plan_find(p, name);
    if (i >= 0 && s->ndeps < WF_MAX_DEPS) s->deps[s->ndeps++] = i;
}

static int out(wf_step *s, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int out(wf_step *s, const char *kind, const char *fmt, ...) {
    if (s->nout == WF_MAX_FILES) return -1; /* a step declared beyond WF_MAX_FILES: a bug here */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->out[s->nout], sizeof s->out[0], fmt, ap);
    va_end(ap);
    cs_copy(s->out_kind[s->nout], sizeof s->out_kind[0], kind);
    s->nout++;
    return 0;
}

static int finish_cmd(wf_step *s, argv_buf *a, cs_error *err) {
    if (a->failed || s->ncmds == WF_MAX_CMDS) {
        free_argv(a->v);
        return cs_error_set(err, CS_ERR_RESOURCE, "step %s: out of memory or too many commands",
                            s->name);
    }
    s->cmd[s->ncmds++] = a->v;
    memset(a, 0, sizeof *a);
    return 0;
}

static void km(argv_buf *a, const char *opt, const wf_config *c, const char *key) {
    add(a, opt);
    addf(a, "%.10g", wf_cfg_real(c, key) / 1000.0);
}

int wf_plan_build(const wf_config *c, const wf_plan_inputs *in, wf_plan *p, cs_error *err) {
    memset(p, 0, sizeof *p);
    cs_copy(p->work, sizeof p->work, in->work);
    p->steps = calloc(WF_MAX_STEPS, sizeof *p->steps);
    if (!p->steps) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    const char *w = in->work, *site = in->site, *cs = in->self;
    /* the run's id in the commands; NEW where a dry run shows a run not yet made */
    char rid[32] = "NEW";
    if (in->run_id > 0) snprintf(rid, sizeof rid, "%lld", in->run_id);
    argv_buf a = {0};
    int rc = 0;
    char model[4096], name[256];
    cs_copy(model, sizeof model, wf_cfg_str(c, "model_file"));
    if (wf_is_url(model)) {
        wf_step *s = new_step(p, "stage", 1);
        const char *base = strrchr(model, '/');
        cs_safe_name(base ? base + 1 : model, name, sizeof name);
        char local[4096];
        snprintf(local, sizeof local, "%s/inputs/%s", w, name);
        add(&a, cs), add(&a, "stage"), add(&a, "fetch"), add(&a, model), add(&a, local);
        add(&a, "--sha256"), add(&a, wf_cfg_str(c, "model_sha256"));
        rc |= finish_cmd(s, &a, err) | out(s, "input", "%s", local);
        cs_copy(model, sizeof model, local);
    }
    char params[4096], points[4096], material[4096];
    snprintf(params, sizeof params, "%s/plan/%s.sgt.params", w, site);
    snprintf(points, sizeof points, "%s/plan/%s.points", w, site);
    snprintf(material, sizeof material, "%s/material.h5", w);

    wf_step *s = new_step(p, "plan", 1);
    dep(p, s, "stage");
    add(&a, cs), add(&a, "plan"), add(&a, in->study), add(&a, site);
    add(&a, "--erf"), add(&a, wf_cfg_str(c, "erf"));
    add(&a, "--fmax"), addf(&a, "%.10g", wf_cfg_real(c, "fmax"));
    add(&a, "--vs-min"), addf(&a, "%.10g", wf_cfg_real(c, "vs_min"));
    add(&a, "--ppw"), addf(&a, "%ld", wf_cfg_int(c, "ppw"));
    add(&a, "--model-format"), add(&a, wf_cfg_str(c, "model_format"));
    add(&a, "--model-file"), add(&a, model);
    add(&a, "--out"), addf(&a, "%s/plan", w);
    km(&a, "--cutoff", c, "cutoff"), km(&a, "--padding", c, "padding");
    km(&a, "--round", c, "round"), km(&a, "--mesh-near", c, "mesh_near");
    add(&a, "--rotation"), addf(&a, "%.10g", wf_cfg_real(c, "rotation"));
    add(&a, "--absorbing-width"), addf(&a, "%ld", wf_cfg_int(c, "absorbing_width"));
    add(&a, "--mesh-max-stride"), addf(&a, "%ld", wf_cfg_int(c, "mesh_max_stride"));
    add(&a, "--ranks-x"), addf(&a, "%ld", wf_cfg_int(c, "ranks_x"));
    add(&a, "--ranks-y"), addf(&a, "%ld", wf_cfg_int(c, "ranks_y"));
    rc |= finish_cmd(s, &a, err) | out(s, "plan", "%s", params) | out(s, "points", "%s", points);

    /* The solver steps may run another build (an SGT-only one on GPU nodes): the plan's
     * parameter file carries box-frame values for it. */
    const char *solver = *wf_cfg_str(c, "sgt_program") ? wf_cfg_str(c, "sgt_program") : cs;
    s = new_step(p, "mesh", 1);
    dep(p, s, "plan");
    add(&a, solver), add(&a, "mesh"), add(&a, params), add(&a, material);
    add(&a, "--set"), addf(&a, "material_sampling=%s", wf_cfg_str(c, "material_sampling"));
    rc |= finish_cmd(s, &a, err) | out(s, "material", "%s", material);

    /* E and N always; Z only when the study wants vertical motion (CyberShake runs two). */
    const char *comps = wf_cfg_forces(c);
    const int nforces = (int)strlen(comps);
    char sgt[3][4096];
    int ranks = (int)(wf_cfg_int(c, "ranks_x") * wf_cfg_int(c, "ranks_y"));
    for (int q = 0; q < nforces; q++) {
        char nm[16], kind[16];
        snprintf(nm, sizeof nm, "sgt_%c", comps[q]);
        snprintf(kind, sizeof kind, "sgt-%c", comps[q]);
        snprintf(sgt[q], sizeof sgt[q], "%s/sgt_%c.h5", w, comps[q]);
        s = new_step(p, nm, ranks);
        s->gpu = !strcmp(backend_here(c, "backend"), "cuda");
        dep(p, s, "mesh");
        mpi_prefix(&a, c, ranks);
        add(&a, solver), add(&a, "sgt"), add(&a, params);
        add(&a, "--set"), addf(&a, "%s=%c", PLAN_KEY_FORCE_COMPONENT, comps[q]);
        add(&a, "--set"), addf(&a, "%s=%s", PLAN_KEY_OUTPUT, sgt[q]);
        add(&a, "--set"), addf(&a, "%s=%s", PLAN_KEY_MESH_FILE, material);
        add(&a, "--set"), addf(&a, "%s=%s", PLAN_KEY_BACKEND, backend_here(c, "backend"));
        add(&a, "--set"),
            addf(&a, "%s=%ld", PLAN_KEY_CHECKPOINT_EVERY, wf_cfg_int(c, "checkpoint_every"));
        rc |= finish_cmd(s, &a, err) | out(s, kind, "%s", sgt[q]);
    }

    s = new_step(p, "check", 1);
    dep(p, s, "sgt_E"), dep(p, s, "sgt_N");
    if (nforces == 3) dep(p, s, "sgt_Z");
    /* the SGT steps recorded the files' checksums (kinds sgt-E/N/Z) when they finished: the
     * check reads every value once more, but does not checksum them a second time */
    add(&a, cs), add(&a, "check"), add(&a, sgt[0]), add(&a, sgt[1]);
    if (nforces == 3) add(&a, sgt[2]);
    rc |= finish_cmd(s, &a, err);

    ranks = (int)wf_cfg_int(c, "extract_ranks");
    s = new_step(p, "extract", ranks);
    s->resumable = 1;
    dep(p, s, "check");
    mpi_prefix(&a, c, ranks);
    add(&a, cs), add(&a, "extract"), add(&a, in->study), add(&a, "--run");
    add(&a, rid);
    if (nforces == 3)
        add(&a, "--sgt"), addf(&a, "%s,%s,%s", sgt[0], sgt[1], sgt[2]);
    else
        add(&a, "--sgt"), addf(&a, "%s,%s", sgt[0], sgt[1]);
    add(&a, "--periods"), add(&a, wf_cfg_str(c, "periods"));
    add(&a, "--seed"), addf(&a, "%ld", wf_cfg_int(c, "seed"));
    add(&a, "--hypo-spacing"), addf(&a, "%.10g", wf_cfg_real(c, "hypo_spacing") / 1000.0);
    add(&a, "--slips"), addf(&a, "%ld", wf_cfg_int(c, "slips"));
    add(&a, "--seismograms"), addf(&a, "%s/seismograms.h5", w);
    s->gpu = !strcmp(backend_here(c, "extract_backend"), "cuda");
    add(&a, "--backend"), add(&a, backend_here(c, "extract_backend"));
    add(&a, "--max-memory"), addf(&a, "%.10g", wf_cfg_real(c, "extract_max_memory") / 1e9);
    rc |= finish_cmd(s, &a, err) | out(s, "seismograms", "%s/seismograms.h5", w);

    s = new_step(p, "hazard", 1);
    dep(p, s, "extract");
    for (int i = 0; i < c->nims && !rc; i++) {
        cs_safe_name(c->ims[i], name, sizeof name);
        add(&a, cs), add(&a, "hazard"), add(&a, "curve"), add(&a, in->study);
        add(&a, rid), add(&a, "--im"), add(&a, c->ims[i]);
        add(&a, "--csv"), addf(&a, "%s/hazard/curve_%s.csv", w, name);
        add(&a, "--plot"), addf(&a, "%s/hazard/curve_%s.png", w, name);
        if (*c->gmpe) add(&a, "--gmpe"), add(&a, c->gmpe);
        rc |= finish_cmd(s, &a, err) | out(s, "hazard-csv", "%s/hazard/curve_%s.csv", w, name) |
              out(s, "hazard-plot", "%s/hazard/curve_%s.png", w, name);
    }

    s = new_step(p, "disagg", 1);
    dep(p, s, "hazard");
    for (int i = 0; i < c->nims && !rc; i++)
        for (int j = 0; j < c->npoes && !rc; j++) {
            char poe[64];
            cs_safe_name(c->ims[i], name, sizeof name);
            cs_safe_name(c->poes[j], poe, sizeof poe);
            add(&a, cs), add(&a, "hazard"), add(&a, "disagg"), add(&a, in->study);
            add(&a, rid), add(&a, "--im"), add(&a, c->ims[i]);
            add(&a, "--poe"), add(&a, c->poes[j]);
            add(&a, "--top"), addf(&a, "%ld", wf_cfg_int(c, "disagg_top"));
            add(&a, "--if-reached"); /* a site whose curve stays below it is no failure */
            add(&a, "--plot"), addf(&a, "%s/hazard/disagg_%s_%s.png", w, name, poe);
            rc |= finish_cmd(s, &a, err) |
                  out(s, "disagg-plot", "%s/hazard/disagg_%s_%s.png", w, name, poe);
        }

    const char *push = wf_cfg_str(c, "push_url");
    if (*push && !rc) {
        s = new_step(p, "push", 1);
        dep(p, s, "disagg");
        const int from[] = {wf_plan_find(p, "extract"), wf_plan_find(p, "hazard"),
                            wf_plan_find(p, "disagg")};
        for (int k = 0; k < 3 && !rc; k++) {
            const wf_step *f = &p->steps[from[k]];
            for (int i = 0; i < f->nout && !rc; i++) {
                const char *base = strrchr(f->out[i], '/');
                add(&a, cs), add(&a, "stage"), add(&a, "push"), add(&a, f->out[i]);
                addf(&a, "%s%s%s/run-%s/%s", push, push[strlen(push) - 1] == '/' ? "" : "/", site,
                     rid, base ? base + 1 : f->out[i]);
                rc |= finish_cmd(s, &a, err);
            }
        }
    }
    if (rc && !err->message[0]) cs_error_set(err, CS_ERR_INTERNAL, "the run's steps overflow");
    if (rc) wf_plan_free(p);
    return rc ? -1 : 0;
}

void wf_plan_free(wf_plan *p) {
    if (!p->steps) return;
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < p->steps[i].ncmds; k++)
            free_argv(p->steps[i].cmd[k]);
    free(p->steps);
    p->steps = NULL;
    p->n = 0;
}

int wf_plan_find(const wf_plan *p, const char *name) {
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->steps[i].name, name)) return i;
    return -1;
}

void wf_quote_argv(char *const *argv, char *out, size_t size) {
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; argv[i]; i++) {
        const char *s = argv[i];
        int plain = *s != 0;
        for (const char *c = s; *c; c++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,=:%+@",
                        *c))
                plain = 0;
        char piece[8192];
        size_t k = 0;
        if (plain) {
            k = (size_t)snprintf(piece, sizeof piece, "%s", s);
        } else {
            piece[k++] = '\'';
            for (const char *c = s; *c && k + 6 < sizeof piece; c++) {
                if (*c == '\'') {
                    memcpy(piece + k, "'\\''", 4);
                    k += 4;
                } else {
                    piece[k++] = *c;
                }
            }
            piece[k++] = '\'';
            piece[k] = 0;
        }
        if (n + k + 2 >= size) break;
        if (i) out[n++] = ' ';
        memcpy(out + n, piece, k + 1);
        n += k;
    }
}
