/* The `cybershake` program: one subcommand per stage of the toolkit. */
#include <stdio.h>
#include <string.h>

#include "cs_cli.h"
#include "cs_log.h"
#include "cs_version.h"
#include "cybershake_commands.h"

static int cmd_version(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("cybershake %s\n", CS_VERSION);
    return 0;
}

#ifndef CS_SGT_ONLY
/* `cybershake db`: the study database's commands, and hazard's disaggregation query offered
 * there too (`cybershake db disagg` is `cybershake hazard disagg`). Put together here, on top of
 * both, so that db does not depend on hazard. */
static int cmd_db(int argc, char **argv) {
    static const cs_cli_command cmds[] = {
        CS_DB_COMMANDS{"disagg", cs_disagg_cli_main,
                       "disaggregate a site's hazard (cybershake hazard disagg)"},
    };
    return cs_cli_dispatch(argv[0], "Study database: creation, upgrade, sites.", cmds,
                           (int)(sizeof cmds / sizeof cmds[0]), argc, argv);
}
#endif

int main(int argc, char **argv) {
    cs_log_init_from_env();
    static const cs_cli_command cmds[] = {
        CYBERSHAKE_COMMANDS{"version", cmd_version, "print the version"},
    };
    if (argc >= 2 && !strcmp(argv[1], "--version")) return cmd_version(argc, argv);
    return cs_cli_dispatch("cybershake",
                           "cybershake: physics-based probabilistic seismic hazard by reciprocity "
                           "(the CyberShake method).",
                           cmds, (int)(sizeof cmds / sizeof cmds[0]), argc, argv);
}
