/* The plan's solver parameters: the keys `cybershake plan` writes into a site's .sgt.params
 * file (erf/site_plan), the workflow sets per force with `cybershake sgt --set KEY=VALUE`
 * (workflow/wf_plan), and the solver declares and reads (sgt/sgt_config's table, which also
 * gives their units, ranges and documentation). Spelled once, here. */
#ifndef PLAN_KEYS_H
#define PLAN_KEYS_H

/* Written by the plan. */
#define PLAN_KEY_NX              "nx"
#define PLAN_KEY_NY              "ny"
#define PLAN_KEY_NZ              "nz"
#define PLAN_KEY_H               "h"
#define PLAN_KEY_DT              "dt"
#define PLAN_KEY_NT              "nt"
#define PLAN_KEY_ORIGIN_LON      "origin_lon"
#define PLAN_KEY_ORIGIN_LAT      "origin_lat"
#define PLAN_KEY_ROTATION        "rotation"
#define PLAN_KEY_X0              "x0"
#define PLAN_KEY_Y0              "y0"
#define PLAN_KEY_MODEL_FORMAT    "model_format"
#define PLAN_KEY_MODEL_FILE      "model_file"
#define PLAN_KEY_VS_MIN          "vs_min"
#define PLAN_KEY_FMAX            "fmax"
#define PLAN_KEY_PPW             "min_points_per_wavelength"
#define PLAN_KEY_ABSORBING_WIDTH "absorbing_width"
#define PLAN_KEY_RANKS_X         "ranks_x"
#define PLAN_KEY_RANKS_Y         "ranks_y"
#define PLAN_KEY_SOURCE_LON      "source_lon"
#define PLAN_KEY_SOURCE_LAT      "source_lat"
#define PLAN_KEY_SAVE_POINTS     "save_points"
#define PLAN_KEY_DECIMATION      "decimation"
/* Box-frame values beside the geographic ones (a build without geodesy uses them; a full build
 * checks that they agree). */
#define PLAN_KEY_SOURCE_I        "source_i"
#define PLAN_KEY_SOURCE_J        "source_j"
#define PLAN_KEY_SOURCE_K        "source_k"
#define PLAN_KEY_FORCE_VECTOR_E  "force_vector_E"
#define PLAN_KEY_FORCE_VECTOR_N  "force_vector_N"
#define PLAN_KEY_FORCE_VECTOR_Z  "force_vector_Z"
#define PLAN_KEY_BOX_AXES_ENU    "box_axes_enu"

/* Set by the workflow for each force. */
#define PLAN_KEY_FORCE_COMPONENT  "force_component"
#define PLAN_KEY_OUTPUT           "output"
#define PLAN_KEY_MESH_FILE        "mesh_file"
#define PLAN_KEY_BACKEND          "backend"
#define PLAN_KEY_CHECKPOINT_EVERY "checkpoint_every"

/* Every key above, for the check that the solver declares each of them. */
extern const char *const plan_keys_all[];
extern const int plan_keys_count;

#endif
