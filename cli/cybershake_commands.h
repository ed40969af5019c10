/* The stages linked into this build. The SGT-only build (for GPU machines without SQLite or
 * libcurl) defines CS_SGT_ONLY and carries only the solver's commands. */
#ifndef CYBERSHAKE_COMMANDS_H
#define CYBERSHAKE_COMMANDS_H

int cs_db_cli_main(int argc, char **argv);
int cs_sgt_cli_main(int argc, char **argv);
int cs_mesh_cli_main(int argc, char **argv);
int cs_erf_cli_main(int argc, char **argv);
int cs_plan_cli_main(int argc, char **argv);
int cs_extract_cli_main(int argc, char **argv);
int cs_synth_cli_main(int argc, char **argv);
int cs_seismogram_cli_main(int argc, char **argv);
int cs_hazard_cli_main(int argc, char **argv);
int cs_run_cli_main(int argc, char **argv);
int cs_status_cli_main(int argc, char **argv);
int cs_stage_cli_main(int argc, char **argv);
int cs_check_cli_main(int argc, char **argv);
int cs_mpirun_cli_main(int argc, char **argv);
int cs_report_cli_main(int argc, char **argv);

#define CYBERSHAKE_SGT_COMMANDS                                                                    \
    {"mesh", cs_mesh_cli_main, "sample a velocity model onto the grid (material file)"},           \
        {"sgt", cs_sgt_cli_main, "run the wave solver: SGT or forward"},                           \
        {"mpirun", cs_mpirun_cli_main,                                                             \
         "run a command on N MPI ranks here (as root, more ranks than cores)"},

#ifdef CS_SGT_ONLY
#define CYBERSHAKE_COMMANDS CYBERSHAKE_SGT_COMMANDS
#else
#define CYBERSHAKE_COMMANDS                                                                        \
    {"db", cs_db_cli_main, "study database: init, migrate, info, import-sites, sites, disagg"},    \
        {"erf", cs_erf_cli_main,                                                                   \
         "forecast: build, import-geometry, add-area, list, variations, srf-info"},                \
        {"plan", cs_plan_cli_main, "plan a site: ruptures, simulation box, save points"},          \
        {"extract", cs_extract_cli_main, "seismograms and intensity measures from SGTs (MPI)"},    \
        {"synth", cs_synth_cli_main, "the seismogram of one SRF from a site's SGTs"},              \
        {"seismogram", cs_seismogram_cli_main, "print or export one record (SAC, CSV)"},           \
        {"hazard", cs_hazard_cli_main, "hazard: curve, disagg, gmpe-curve, map, uhs, peer"},       \
        {"check", cs_check_cli_main,                                                               \
         "check a site's SGT files (with their own checksums), record them"},                      \
        {"run", cs_run_cli_main, "run a site (or a list) end to end, resumable, local or Slurm"},  \
        {"status", cs_status_cli_main, "the workflow's runs and steps"},                           \
        {"report", cs_report_cli_main, "a static HTML report of a study: maps, curves, plots"},    \
        {"stage", cs_stage_cli_main, "fetch inputs from URLs, push products (libcurl)"},           \
        CYBERSHAKE_SGT_COMMANDS
#endif

#endif
