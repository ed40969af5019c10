/* The entry points of `cybershake sgt` and `cybershake mesh` (sgt/sgt_cli.c), for the
 * dispatcher (cli/cybershake_commands.h). */
#ifndef SGT_CLI_H
#define SGT_CLI_H

int cs_sgt_cli_main(int argc, char **argv);
int cs_mesh_cli_main(int argc, char **argv);

#endif
