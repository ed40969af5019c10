/* The entry points of `cybershake erf ...` (erf/erf_cli.c; `erf add-area` in erf/area_cli.c)
 * and `cybershake plan` (erf/plan_cli.c), for the dispatcher (cli/cybershake_commands.h). */
#ifndef ERF_CLI_H
#define ERF_CLI_H

int cs_erf_cli_main(int argc, char **argv);
int cs_erf_add_area_main(int argc, char **argv);
int cs_plan_cli_main(int argc, char **argv);

#endif
