/* The entry points of `cybershake extract`, `synth` and `seismogram` (extract/extract_cli.c),
 * for the dispatcher (cli/cybershake_commands.h). */
#ifndef EXTRACT_CLI_H
#define EXTRACT_CLI_H

int cs_extract_cli_main(int argc, char **argv);
int cs_synth_cli_main(int argc, char **argv);
int cs_seismogram_cli_main(int argc, char **argv);

#endif
