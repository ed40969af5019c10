/* The configuration of a workflow run (`cybershake run --config FILE`): what every step needs
 * beyond the study database and the site, as a parameter file (cs_params, `key = value` with
 * units). `cybershake run --keys` lists the keys; docs/workflow.md explains them. */
#ifndef WF_CONFIG_H
#define WF_CONFIG_H

#include <stddef.h>

#include "cs_error.h"
#include "cs_params.h"
#include "cs_sha256.h"

#define WF_MAX_LIST 16

typedef struct {
    cs_params *p;
    char path[4096];
    char sha256[CS_SHA256_HEX]; /* of the keys and values as read: a changed config is a new run */
    /* Lists split from their ';'-separated keys. */
    int nims, npoes;
    char ims[WF_MAX_LIST][64];  /* hazard IMs: 'RotD50 3' */
    char poes[WF_MAX_LIST][64]; /* '2% in 50 yr' or an annual probability */
    /* the GMPE comparison as `hazard curve --gmpe` takes it: `gmpe`, each model with its weight
     * from `gmpe_weights` when given ("ask14:0.22,..."); "" when no gmpe */
    char gmpe[512];
} wf_config;

extern const cs_param_spec wf_config_specs[];
extern const size_t wf_config_nspecs;

/* Reads and checks the file (NULL: every key at its default, which fails on the required ones);
 * sets[] are KEY=VALUE overrides from the command line. */
int wf_config_read(const char *path, char *const *sets, int nsets, wf_config *c, cs_error *err);
void wf_config_free(wf_config *c);

const char *wf_cfg_str(const wf_config *c, const char *key); /* "" when not given */
double wf_cfg_real(const wf_config *c, const char *key);
long wf_cfg_int(const wf_config *c, const char *key);
int wf_cfg_given(const wf_config *c, const char *key);

/* The SGT forces of a run ("EN" or "ENZ"): `forces`, where auto means ENZ only when a hazard IM
 * has a vertical component (the last word of the IM is Z, as in 'PGV Z'). */
const char *wf_cfg_forces(const wf_config *c);

/* The rules of a configuration value that goes into a batch script (docs/workflow.md): no value
 * holds a control character (a newline would end a #SBATCH line or a command and start
 * another); slurm_account letters, digits and . _ - only; slurm_partition those and ',' (a
 * list); slurm_time digits, ':' and '-' (Slurm's [D-]HH:MM:SS forms) or UNLIMITED / INFINITE.
 * place names where the value came from ("run.cfg:12", "command line"). Checked when the
 * configuration is read and again when a batch script is written. */
int wf_config_check_value(const char *place, const char *key, const char *value, cs_error *err);

/* 1 if the text is a URL the stage step fetches (file://, http://, https://). */
int wf_is_url(const char *s);

#endif
