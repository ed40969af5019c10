/* The entry points of `cybershake run` and `status` (workflow/wf_cli.c), `stage`
 * (workflow/stage_cli.c), `check` (workflow/check_cli.c) and `report` (workflow/report_cli.c),
 * for the dispatcher (cli/cybershake_commands.h). */
#ifndef WF_CLI_H
#define WF_CLI_H

int cs_run_cli_main(int argc, char **argv);
int cs_status_cli_main(int argc, char **argv);
int cs_stage_cli_main(int argc, char **argv);
int cs_check_cli_main(int argc, char **argv);
int cs_report_cli_main(int argc, char **argv);

#endif
